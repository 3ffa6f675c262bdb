// The secrets that sign call-event deliveries.
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "webhooks", run by serve() (the end of handlers/webhooks.cpp).
struct Webhooks {
    static constexpr ResourceTag tag = "webhooks";
    static void serve(Exchange& x, Services& s);
};

}  // namespace collectcall::server::handlers
