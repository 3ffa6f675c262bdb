// Clients: the sub-entities of an account that group its customers (API.md section 13).
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::list_clients>, Exchange& x, Services& s);
void handle(endpoint<Operation::create_client>, Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
