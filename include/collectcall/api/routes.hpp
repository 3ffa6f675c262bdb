// The routes of the HTTP API as data (SPEC.md section 4, API.md sections 1, 2, 5 and 10): each
// with its method, path, whether it needs the bearer key and takes an Idempotency-Key, what body
// it reads (and up to what size), and the types of its body and its answer. The example server
// routes by this table and the OpenAPI document (api/openapi.hpp) is generated from it, so the
// two cannot disagree.
//
// Not part of the umbrella header: a user of the models alone does not need the server's routes.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include "collectcall/api/errors.hpp"
#include "collectcall/api/limits.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/bulk_call.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/client.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/interaction.hpp"
#include "collectcall/model/signed_url.hpp"
#include "collectcall/model/webhook.hpp"

namespace collectcall::api {

// ---- Shapes that exist only on the wire of the API --------------------------------------------

// GET /customers?externalId=X: 0 or 1 customers.
struct CustomerList {
    std::vector<Customer> customers;

    friend bool operator==(const CustomerList&, const CustomerList&) = default;
};
BOOST_DESCRIBE_STRUCT(CustomerList, (), (customers))

// GET /healthz and GET /readyz.
struct HealthStatus {
    std::string status;

    friend bool operator==(const HealthStatus&, const HealthStatus&) = default;
};
BOOST_DESCRIBE_STRUCT(HealthStatus, (), (status))

// ---- The routes -------------------------------------------------------------------------------

// Every operation; its OpenAPI operationId is its name in camel case (create_customer ->
// createCustomer).
enum class Operation {
    get_health,
    get_readiness,
    get_metrics,
    get_open_api,
    create_customer,
    find_customers,
    create_customers,
    get_customer,
    update_customer,
    create_call,
    list_calls,
    cease_and_desist,
    deactivate_customer,
    activate_customer,
    get_call,
    get_call_recording,
    create_webhook_secret,
    create_calls,
    get_signed_url,
    list_clients,
    create_client,
    import_sms,
    import_sms_bulk,
    import_email,
    import_email_bulk,
    generate_sms,
    generate_email,
    list_interactions,
    analyze_interaction,
};
BOOST_DESCRIBE_ENUM(Operation, get_health, get_readiness, get_metrics, get_open_api,
                    create_customer, find_customers, create_customers, get_customer,
                    update_customer, create_call, list_calls, cease_and_desist, deactivate_customer,
                    activate_customer, get_call, get_call_recording, create_webhook_secret,
                    create_calls, get_signed_url, list_clients, create_client, import_sms,
                    import_sms_bulk, import_email, import_email_bulk, generate_sms, generate_email,
                    list_interactions, analyze_interaction)

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

struct Route {
    Operation operation;
    std::string_view method;
    // "{name}" is one path segment; the name is the OpenAPI path parameter's.
    std::string_view path;
    std::string_view tag;
    std::string_view summary;
    Access access = Access::api_key;
    Body body = Body::none;
    std::size_t max_body = api::max_body;
    // The errors of this route beyond those every route of its kind can give (see
    // common_errors); a compliance_failed answer carries the call as data.
    std::array<const ErrorCode*, 3> errors{};

    // POSTs take an Idempotency-Key: the same key and body within 24 h replay the answer.
    [[nodiscard]] constexpr bool idempotent() const noexcept { return method == "POST"; }
    [[nodiscard]] constexpr bool has_body() const noexcept { return body != Body::none; }
};

inline constexpr std::array routes{
    Route{Operation::get_health, "GET", "/healthz", "service", "Liveness of the server",
          Access::document},
    Route{Operation::get_readiness, "GET", "/readyz", "service",
          "Readiness: the storage answers (503 when it does not)", Access::document},
    Route{Operation::get_metrics, "GET", "/metrics", "service",
          "Metrics in the Prometheus text format", Access::document},
    Route{Operation::get_open_api, "GET", "/api/v1/openapi.json", "service", "This document",
          Access::document},
    Route{Operation::create_customer,
          "POST",
          "/api/v1/customers",
          "customers",
          "Create a customer",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::duplicate_external_id}},
    Route{Operation::find_customers,
          "GET",
          "/api/v1/customers",
          "customers",
          "Find the customer with an externalId",
          Access::api_key,
          Body::none,
          max_body,
          {&errors::validation_failed}},
    Route{Operation::create_customers, "POST", "/api/v1/customers/bulk", "customers",
          "Create many customers at once", Access::api_key, Body::json, max_bulk_body},
    Route{Operation::get_customer,
          "GET",
          "/api/v1/customers/{customerId}",
          "customers",
          "Read a customer",
          Access::api_key,
          Body::none,
          max_body,
          {&errors::not_found}},
    Route{Operation::update_customer,
          "PATCH",
          "/api/v1/customers/{customerId}",
          "customers",
          "Update a customer (JSON Merge Patch)",
          Access::api_key,
          Body::merge_patch,
          max_body,
          {&errors::not_found}},
    Route{Operation::create_call,
          "POST",
          "/api/v1/customers/{customerId}/calls",
          "calls",
          "Start an agent call to a customer",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::not_found, &errors::agent_not_assigned, &errors::compliance_failed}},
    Route{Operation::list_calls,
          "GET",
          "/api/v1/customers/{customerId}/calls",
          "calls",
          "List a customer's calls, newest first",
          Access::api_key,
          Body::none,
          max_body,
          {&errors::not_found}},
    Route{Operation::cease_and_desist,
          "POST",
          "/api/v1/customers/{customerId}/cease-and-desist",
          "customers",
          "Record a cease-and-desist request: the customer is not called any more (idempotent)",
          Access::api_key,
          Body::empty_or_json,
          max_body,
          {&errors::not_found}},
    Route{Operation::deactivate_customer,
          "POST",
          "/api/v1/customers/{customerId}/deactivate",
          "customers",
          "Deactivate a customer: calls fail is-active",
          Access::api_key,
          Body::empty_or_json,
          max_body,
          {&errors::not_found}},
    Route{Operation::activate_customer,
          "POST",
          "/api/v1/customers/{customerId}/activate",
          "customers",
          "Activate a customer again",
          Access::api_key,
          Body::empty_or_json,
          max_body,
          {&errors::not_found}},
    Route{Operation::get_call,
          "GET",
          "/api/v1/calls/{callId}",
          "calls",
          "Read a call with its status and events",
          Access::api_key,
          Body::none,
          max_body,
          {&errors::not_found}},
    Route{Operation::get_call_recording,
          "GET",
          "/api/v1/calls/{callId}/recording",
          "calls",
          "Download a call's recording",
          Access::document,
          Body::none,
          max_body,
          {&errors::not_found, &errors::link_expired}},
    Route{Operation::create_webhook_secret,
          "POST",
          "/api/v1/webhook-secrets",
          "webhooks",
          "Create or import a webhook signing secret",
          Access::api_key,
          Body::empty_or_json,
          max_body,
          {&errors::webhook_secret_taken}},
    Route{Operation::create_calls,
          "POST",
          "/api/v1/calls/bulk",
          "calls",
          "Start agent calls to up to 100 customers, each as a single call",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::agent_not_assigned}},
    Route{Operation::get_signed_url,
          "POST",
          "/api/v1/calls/get-signed-url",
          "calls",
          "A signed, time-limited link to a call's recording",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::not_found}},
    Route{Operation::list_clients, "GET", "/api/v1/clients", "clients",
          "List the account's clients"},
    Route{Operation::create_client,
          "POST",
          "/api/v1/clients",
          "clients",
          "Create a client, or keep one under the id it has at the hosted service",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::client_taken}},
    Route{Operation::import_sms,
          "POST",
          "/api/v1/customers/{customerId}/interactions/sms/import",
          "interactions",
          "Import an SMS of the customer's conversation",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::not_found}},
    Route{Operation::import_sms_bulk,
          "POST",
          "/api/v1/customers/{customerId}/interactions/sms/import/bulk",
          "interactions",
          "Import up to 100 SMS at once",
          Access::api_key,
          Body::json,
          max_bulk_body,
          {&errors::not_found}},
    Route{Operation::import_email,
          "POST",
          "/api/v1/customers/{customerId}/interactions/email/import",
          "interactions",
          "Import an e-mail of the customer's conversation",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::not_found}},
    Route{Operation::import_email_bulk,
          "POST",
          "/api/v1/customers/{customerId}/interactions/email/import/bulk",
          "interactions",
          "Import up to 100 e-mails at once",
          Access::api_key,
          Body::json,
          max_bulk_body,
          {&errors::not_found}},
    Route{Operation::generate_sms,
          "POST",
          "/api/v1/customers/{customerId}/interactions/sms/generate",
          "interactions",
          "Write the next SMS to the customer, and send it (persist)",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::not_found, &errors::recipient_required, &errors::compliance_failed}},
    Route{Operation::generate_email,
          "POST",
          "/api/v1/customers/{customerId}/interactions/email/generate",
          "interactions",
          "Write the next e-mail to the customer, and send it (persist)",
          Access::api_key,
          Body::json,
          max_body,
          {&errors::not_found}},
    Route{Operation::list_interactions,
          "GET",
          "/api/v1/customers/{customerId}/interactions",
          "interactions",
          "List the customer's calls, SMS and e-mails, newest first",
          Access::api_key,
          Body::none,
          max_body,
          {&errors::not_found}},
    Route{Operation::analyze_interaction,
          "POST",
          "/api/v1/interactions/{interactionId}/analyze",
          "interactions",
          "Analyse an SMS, an e-mail or a call, and apply its outcomes",
          Access::api_key,
          Body::empty_or_json,
          max_body,
          {&errors::not_found, &errors::analysis_skipped}},
};

static_assert(
    [] {
        if (routes.size() != enum_values<Operation>.size()) return false;
        for (std::size_t i = 0; i < routes.size(); ++i) {
            if (routes[i].operation != enum_values<Operation>[i]) return false;
        }
        return true;
    }(),
    "routes lists every Operation once, in the order of the enum");

// The largest body any route reads.
inline constexpr std::size_t largest_body = [] {
    std::size_t largest = 0;
    for (const Route& r : routes)
        largest = r.max_body > largest ? r.max_body : largest;
    return largest;
}();

[[nodiscard]] constexpr const Route& route(Operation operation) noexcept {
    return routes[static_cast<std::size_t>(operation)];
}

// The OpenAPI operationId: the operation's name in camel case.
[[nodiscard]] inline std::string operation_id(Operation operation) {
    std::string out;
    bool upper = false;
    for (char c : enum_name(operation)) {
        if (c == '-') {
            upper = true;
        } else {
            out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
            upper = false;
        }
    }
    return out;
}

// The types of an operation: `body`, what it reads (null_t: nothing), and `data`, what it
// answers with (inside the envelope for an API call).
template <Operation>
struct operation_types;

template <>
struct operation_types<Operation::get_health> {
    using body = null_t;
    using data = HealthStatus;
};
template <>
struct operation_types<Operation::get_readiness> {
    using body = null_t;
    using data = HealthStatus;
};
template <>
struct operation_types<Operation::get_metrics> {
    using body = null_t;
    using data = std::string;  // text/plain; version=0.0.4
};
template <>
struct operation_types<Operation::get_open_api> {
    using body = null_t;
    using data = std::string;  // this document
};
template <>
struct operation_types<Operation::create_customer> {
    using body = CustomerCreate;
    using data = Customer;
};
template <>
struct operation_types<Operation::find_customers> {
    using body = null_t;
    using data = CustomerList;
};
template <>
struct operation_types<Operation::create_customers> {
    using body = BulkCreateRequest;
    using data = BulkResult;
};
template <>
struct operation_types<Operation::get_customer> {
    using body = null_t;
    using data = Customer;
};
template <>
struct operation_types<Operation::update_customer> {
    using body = CustomerPatch;
    using data = Customer;
};
template <>
struct operation_types<Operation::create_call> {
    using body = CallRequest;
    using data = Call;
};
template <>
struct operation_types<Operation::list_calls> {
    using body = null_t;
    using data = CallList;
};
template <>
struct operation_types<Operation::cease_and_desist> {
    using body = EmptyObject;
    using data = Customer;
};
template <>
struct operation_types<Operation::deactivate_customer> {
    using body = EmptyObject;
    using data = Customer;
};
template <>
struct operation_types<Operation::activate_customer> {
    using body = EmptyObject;
    using data = Customer;
};
template <>
struct operation_types<Operation::get_call> {
    using body = null_t;
    using data = CallDetails;
};
template <>
struct operation_types<Operation::get_call_recording> {
    using body = null_t;
    using data = std::string;  // audio/wav
};
template <>
struct operation_types<Operation::create_webhook_secret> {
    using body = WebhookSecretImport;  // or no body, or {}: a new secret
    using data = WebhookSecret;
};

template <>
struct operation_types<Operation::create_calls> {
    using body = BulkCallRequest;
    using data = BulkCallResult;
};
template <>
struct operation_types<Operation::get_signed_url> {
    using body = SignedUrlRequest;
    using data = SignedUrl;
};
template <>
struct operation_types<Operation::list_clients> {
    using body = null_t;
    using data = ClientList;
};
template <>
struct operation_types<Operation::create_client> {
    using body = ClientCreate;
    using data = Client;
};
template <>
struct operation_types<Operation::import_sms> {
    using body = SmsImportRequest;
    using data = SmsInteractionData;
};
template <>
struct operation_types<Operation::import_sms_bulk> {
    using body = SmsImportBulkRequest;
    using data = SmsImportBulkResult;
};
template <>
struct operation_types<Operation::import_email> {
    using body = EmailImportRequest;
    using data = EmailInteractionData;
};
template <>
struct operation_types<Operation::import_email_bulk> {
    using body = EmailImportBulkRequest;
    using data = EmailImportBulkResult;
};
template <>
struct operation_types<Operation::generate_sms> {
    using body = SmsGenerateRequest;
    using data = SmsGenerateResult;
};
template <>
struct operation_types<Operation::generate_email> {
    using body = EmailGenerateRequest;
    using data = EmailGenerateResult;
};
template <>
struct operation_types<Operation::list_interactions> {
    using body = null_t;
    using data = InteractionList;
};
template <>
struct operation_types<Operation::analyze_interaction> {
    using body = AnalyzeInteractionRequest;  // or no body: applyOutcomes true
    using data = AnalyzeInteractionResult;
};

// Matching a request's path against the routes.
struct RouteMatch {
    const Route* route = nullptr;  // the route of this method, if the path has one
    std::string allow;             // otherwise the methods the path has ("" = unknown path)
    std::string parameter;         // the segment that matched "{...}", percent-decoded
};

namespace detail {

constexpr int hex_digit(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Calls `each(byte)` for the bytes of one raw path segment, percent-decoded (RFC 3986 section
// 2.1); a '%' not followed by two hex digits stands for itself.
template <class Each>
constexpr void for_each_decoded(std::string_view segment, Each&& each) {
    for (std::size_t i = 0; i < segment.size(); ++i) {
        if (segment[i] == '%' && i + 2 < segment.size() && hex_digit(segment[i + 1]) >= 0 &&
            hex_digit(segment[i + 2]) >= 0) {
            each(static_cast<char>(hex_digit(segment[i + 1]) * 16 + hex_digit(segment[i + 2])));
            i += 2;
        } else {
            each(segment[i]);
        }
    }
}

// Whether a raw segment, decoded, is `literal`.
constexpr bool segment_is(std::string_view segment, std::string_view literal) {
    std::size_t at = 0;
    bool same = true;
    for_each_decoded(segment, [&](char c) {
        same = same && at < literal.size() && literal[at] == c;
        ++at;
    });
    return same && at == literal.size();
}

// Whether a raw segment, decoded, holds a '/': "%2F" never separates segments, and no
// parameter of the API contains a '/' (RFC 3986 section 7.3: a decoded '/' would give the path
// a structure a proxy matching segments does not see).
constexpr bool has_encoded_slash(std::string_view segment) {
    bool slash = false;
    for_each_decoded(segment, [&](char c) { slash = slash || c == '/'; });
    return slash;
}

inline std::string decode_segment(std::string_view segment) {
    std::string out;
    out.reserve(segment.size());
    for_each_decoded(segment, [&](char c) { out += c; });
    return out;
}

// The number of literal segments `path` matches of `pattern` (more is more specific), or -1.
// `path` is the request target's path as sent: it is split on '/' first, and each segment is
// percent-decoded only to be compared, so an encoded '/' stays inside its segment.
constexpr int match_path(std::string_view pattern, std::string_view path,
                         std::string_view& parameter) {
    int literal = 0;
    while (!pattern.empty() || !path.empty()) {
        if (pattern.empty() || path.empty() || pattern.front() != '/' || path.front() != '/') {
            return -1;
        }
        pattern.remove_prefix(1);
        path.remove_prefix(1);
        const std::string_view p = pattern.substr(0, pattern.find('/'));
        const std::string_view s = path.substr(0, path.find('/'));
        if (!p.empty() && p.front() == '{') {
            if (s.empty() || has_encoded_slash(s)) return -1;
            parameter = s;
        } else if (segment_is(s, p)) {
            ++literal;
        } else {
            return -1;
        }
        pattern.remove_prefix(p.size());
        path.remove_prefix(s.size());
    }
    return literal;
}

}  // namespace detail

// The route of `method` and `path` (the path of the request target as sent, before any
// percent-decoding): the most specific pattern wins (/customers/bulk over
// /customers/{customerId}); HEAD is GET without the body. A path whose pattern has no route of
// the method gives the methods it has instead (405 with Allow); no pattern at all, neither (404).
// A segment is matched decoded, but '/' is found only between segments: "%2F" (or "%2f") never
// separates them, and a segment that decodes to text with a '/' matches no parameter.
[[nodiscard]] inline RouteMatch match_route(std::string_view method, std::string_view path) {
    const std::string_view wanted = method == "HEAD" ? std::string_view("GET") : method;
    int best = -1;
    std::string_view best_parameter;
    for (const Route& r : routes) {
        std::string_view parameter;
        const int score = detail::match_path(r.path, path, parameter);
        if (score > best) {
            best = score;
            best_parameter = parameter;
        }
    }
    RouteMatch match;
    if (best < 0) return match;
    match.parameter = detail::decode_segment(best_parameter);
    for (const Route& r : routes) {
        std::string_view parameter;
        if (detail::match_path(r.path, path, parameter) != best) continue;
        if (r.method == wanted) {
            match.route = &r;
            match.allow.clear();
            return match;
        }
        if (!match.allow.empty()) match.allow += ", ";
        match.allow += r.method;
        if (r.method == "GET") match.allow += ", HEAD";
    }
    return match;
}

}  // namespace collectcall::api
