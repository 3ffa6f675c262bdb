// Agent calls: placing one (compliance first), reading them, and their recordings.
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::create_call>, Exchange& x, Services& s);
void handle(endpoint<Operation::list_calls>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_call>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_call_recording>, Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
