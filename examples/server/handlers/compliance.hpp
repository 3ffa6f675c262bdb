// Compliance (API.md section 14): the caller's account and its policy, and the record of the
// decisions about a customer. (A customer's request not to be called is a customer flag:
// customers.hpp.)
#pragma once

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "compliance", run by serve() (the end of
// handlers/compliance.cpp).
struct Compliance {
    static constexpr ResourceTag tag = "compliance";
    static void serve(Exchange& x, Services& s);
};

}  // namespace collectcall::server::handlers
