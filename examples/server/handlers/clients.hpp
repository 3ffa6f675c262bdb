// Clients: the sub-entities of an account that group its customers (API.md section 13).
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "clients", run by serve() (the end of handlers/clients.cpp).
struct Clients {
    static constexpr ResourceTag tag = "clients";
    static void serve(Exchange& x, Services& s);
};

}  // namespace collectcall::server::handlers
