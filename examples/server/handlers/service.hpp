// The documents that are not API calls: no key, no envelope (API.md section 1).
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::get_health>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_readiness>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_metrics>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_open_api>, Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
