// Customers: create one or many, find, read, update, and the flags that decide whether one is
// called (cease-and-desist, active, do-not-call, the restricted media).
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "customers", run by serve() (the end of
// handlers/customers.cpp).
struct Customers {
    static constexpr ResourceTag tag = "customers";
    static void serve(Exchange& x, Services& s);
};

}  // namespace collectcall::server::handlers
