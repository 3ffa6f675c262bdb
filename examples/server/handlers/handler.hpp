// What a handler is: one function for each endpoint of collectcall/api/endpoints.hpp,
//
//     void handle(endpoint<Operation::create_customer>, Exchange& x, Services& s);
//
// declared in the header of its resource (customers.hpp, calls.hpp, ...) and defined in its
// .cpp. The pipeline (api.cpp) has routed, authenticated and read the request before; the
// handler reads the body with the library, asks it for every rule, calls the store, and answers
// with x.reply or x.fail. The build fails for an endpoint without its handle() (dispatch.cpp).
#pragma once

#include <collectcall/api/endpoints.hpp>

#include "exchange.hpp"

namespace collectcall::server::handlers {

using api::endpoint;
using api::Operation;

}  // namespace collectcall::server::handlers
