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
    x.reply(200, ComplianceDecisionList{s.store.list_compliance_decisions(
                     x.account, *id, compliance::max_listed_decisions)});
}

}  // namespace collectcall::server::handlers
