// The documents that are not API calls: no key, no envelope (API.md section 1).
#pragma once

#include <memory>
#include <string>

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "service", run by serve() (the end of handlers/service.cpp).
struct Service {
    static constexpr ResourceTag tag = "service";
    static void serve(Exchange& x, Services& s);
};

// The OpenAPI document of the API (collectcall::openapi()), built once: GET /api/v1/openapi.json
// and `collectcall-server openapi` answer the same bytes.
const std::shared_ptr<const std::string>& openapi_document();

}  // namespace collectcall::server::handlers
