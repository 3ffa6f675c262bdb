#include "handlers/compliance.hpp"

#include <utility>

#include <collectcall/compliance/decision.hpp>

namespace collectcall::server::handlers {

void handle(endpoint<Operation::get_account>, Exchange& x, Services& s) {
    x.reply(200, s.store.account(x.account));
}

void handle(endpoint<Operation::list_compliance_decisions>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    if (!s.store.find_customer(x.account, *id)) return x.not_found(api::customer_not_found_message);
    const api::PageOwner owner{api::PagedList::compliance_decisions, x.account.view(), id->view()};
    const auto page = x.page_request(owner);
    if (!page) return;
    Page<ComplianceDecision> decisions = s.store.list_compliance_decisions(x.account, *id, *page);
    x.reply(200, ComplianceDecisionList{std::move(decisions.items),
                                        api::next_page_cursor(owner, decisions.next)});
}

}  // namespace collectcall::server::handlers
