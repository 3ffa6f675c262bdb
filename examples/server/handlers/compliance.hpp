// Compliance (API.md section 14): the caller's account and its policy, and the record of the
// decisions about a customer. (A customer's request not to be called is a customer flag:
// customers.hpp.)
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::get_account>, Exchange& x, Services& s);
void handle(endpoint<Operation::list_compliance_decisions>, Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
