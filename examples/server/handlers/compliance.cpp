#include "handlers/compliance.hpp"

#include <utility>

#include <collectcall/compliance/decision.hpp>

namespace collectcall::server::handlers {

void handle(endpoint<Operation::get_account>, Exchange& x, Services& s) {
    x.reply(200, s.store.account(x.account));
}

void handle(endpoint<Operation::list_compliance_decisions>, Exchange& x, Services& s) {
    reply_customer_page<ComplianceDecisionList>(
        x, s.store, api::PagedList::compliance_decisions,
        [&](const Uuid& customer, const api::PageRequest& page) {
            return s.store.list_compliance_decisions(x.account, customer, page);
        });
}

void Compliance::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
