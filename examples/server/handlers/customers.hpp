// Customers: create one or many, find, read, update, and the flags that decide whether one is
// called (cease-and-desist, active, do-not-call, the restricted media).
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::create_customer>, Exchange& x, Services& s);
void handle(endpoint<Operation::find_customers>, Exchange& x, Services& s);
void handle(endpoint<Operation::create_customers>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_customer>, Exchange& x, Services& s);
void handle(endpoint<Operation::update_customer>, Exchange& x, Services& s);
void handle(endpoint<Operation::cease_and_desist>, Exchange& x, Services& s);
void handle(endpoint<Operation::deactivate_customer>, Exchange& x, Services& s);
void handle(endpoint<Operation::activate_customer>, Exchange& x, Services& s);
void handle(endpoint<Operation::do_not_call>, Exchange& x, Services& s);
void handle(endpoint<Operation::set_restricted_media>, Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
