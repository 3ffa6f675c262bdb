// One route of the HTTP API as data: its method and path, whether it needs the bearer key and
// takes an Idempotency-Key, what body it reads and up to what size, the errors of its own, and
// the text of its OpenAPI operation. The endpoints fill one each (api/endpoints.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectcall/api/errors.hpp"
#include "collectcall/api/limits.hpp"

namespace collectcall::api {

// Every operation of the API, defined with its endpoints (api/endpoints.hpp).
enum class Operation;

enum class Access {
    document,  // not an API call: no key, no envelope
    api_key,   // Authorization: Bearer <key>, answered in the envelope
};

enum class Body {
    none,           // nothing is read (GET)
    json,           // a JSON document, Content-Type application/json
    merge_patch,    // a JSON document, application/json or application/merge-patch+json
    empty_or_json,  // no body at all (and then no Content-Type), or a JSON document
};

// The query parameters a route reads (others are 400 unknown_field on routes that read any).
enum class Query {
    none,
    external_id,  // externalId (GET /customers)
    page,         // limit and cursor of a paged list (api/page.hpp)
};

struct Route {
    // Filled in by the route table (api/routes.hpp) from the endpoint the row belongs to.
    Operation operation{};
    std::string_view method{};
    // "{name}" is one path segment; the name is the OpenAPI path parameter's.
    std::string_view path{};
    std::string_view tag{};
    std::string_view summary{};
    Access access = Access::api_key;
    Body body = Body::none;
    std::size_t max_body = api::max_body;
    Query query = Query::none;
    // The errors of this route beyond those every route of its kind can give (see
    // common_errors); a compliance_failed answer carries the call as data.
    std::array<const ErrorCode*, 3> errors{};

    // POSTs take an Idempotency-Key: the same key and body within 24 h replay the answer.
    [[nodiscard]] constexpr bool idempotent() const noexcept { return method == "POST"; }
    [[nodiscard]] constexpr bool has_body() const noexcept { return body != Body::none; }
};

// What the route does not say about an operation and its OpenAPI document shows: its longer
// description, the description of its success, and its examples (documents of
// model/openapi.hpp, which the tests read back).
struct OperationText {
    std::string description{};
    std::string_view success = "OK.";
    std::vector<std::pair<std::string_view, std::string_view>> request_examples{};
    std::vector<std::pair<std::string_view, std::string_view>> answer_examples{};  // the data
};

}  // namespace collectcall::api
