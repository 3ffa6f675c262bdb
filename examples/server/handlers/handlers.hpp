// Every handler, by resource, and the dispatch from a request's operation to its handler.
#pragma once

#include "exchange.hpp"
#include "handlers/calls.hpp"
#include "handlers/clients.hpp"
#include "handlers/compliance.hpp"
#include "handlers/customers.hpp"
#include "handlers/drip.hpp"
#include "handlers/interactions.hpp"
#include "handlers/service.hpp"
#include "handlers/webhooks.hpp"

namespace collectcall::server::handlers {

// Runs the handler of the request's operation (x.route.operation).
void dispatch(Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
