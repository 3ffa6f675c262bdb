// The secrets that sign call-event deliveries.
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::create_webhook_secret>, Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
