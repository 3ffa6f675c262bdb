// openapi(): the OpenAPI 3.1 document of the HTTP API as the example server serves it
// (GET /api/v1/openapi.json, `collectcall-server openapi`). Its paths are generated from the
// route table (routes.hpp), its error answers from the error table (errors.hpp), its schemas
// from the models' descriptions and their rules (model/openapi.hpp), and its examples are the
// documents of model/openapi.hpp that the tests check against what the library produces.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "collectcall/api/errors.hpp"
#include "collectcall/api/limits.hpp"
#include "collectcall/api/routes.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/model/openapi.hpp"
#include "collectcall/version.hpp"

namespace collectcall {

namespace detail::oas {

inline Json ref_to(std::string_view pointer) {
    Json r = Json::object();
    r["$ref"] = pointer;
    return r;
}

using ErrorCase = api::ErrorCode;

inline Json error_example(const ErrorCase& c, Json data = nullptr) {
    Json example = Json::object();
    example["requestId"] = "9f1e2d3c-4b5a-4697-8877-665544332211";
    example["success"] = false;
    example["data"] = std::move(data);
    example["error"]["code"] = c.code;
    example["error"]["message"] = c.example;
    example["error"]["details"] = Json::array();
    example["publicFacingMessage"] = c.example;
    return example;
}

// A template only so that nothing of it is compiled in a translation unit that never asks for the
// document (this header is part of the umbrella header).
template <class Schemas = SchemaBuilder>
class Builder {
  public:
    Builder() : schemas_("#/components/schemas/") {}

    template <class T>
    Json schema() {
        return schemas_.template schema_of<T>();
    }

    static Json request_id_header() { return ref_to("#/components/headers/X-Request-Id"); }

    // A success response: the envelope of T.
    template <class T>
    Json success(std::string_view description,
                 const std::vector<std::pair<std::string_view, Json>>& examples = {}) {
        Json response = Json::object();
        response["description"] = description;
        response["headers"]["X-Request-Id"] = request_id_header();
        Json& media = response["content"]["application/json"];
        media["schema"] = schema<Envelope<T>>();
        add_examples(media, examples);
        return response;
    }

    // An error response of one status, for the codes that can produce it.
    Json error(const std::vector<const ErrorCase*>& codes) {
        Json response = Json::object();
        std::string description;
        bool call_data = false;
        for (const ErrorCase* c : codes) {
            if (!description.empty()) description += "; ";
            description += "`";
            description += c->code;
            description += "`: ";
            description += c->when;
            call_data = call_data || c == &api::errors::compliance_failed;
        }
        response["description"] = description;
        response["headers"]["X-Request-Id"] = request_id_header();
        for (const ErrorCase* c : codes) {
            if (c == &api::errors::unauthorized) {
                response["headers"]["WWW-Authenticate"] =
                    ref_to("#/components/headers/WWW-Authenticate");
            } else if (c == &api::errors::rate_limited) {
                response["headers"]["Retry-After"] = ref_to("#/components/headers/Retry-After");
            }
        }
        Json& media = response["content"]["application/json"];
        if (call_data) {
            media["schema"]["oneOf"] =
                Json::array({schema<ErrorEnvelope<Call>>(), schema<ErrorEnvelope<>>()});
        } else {
            media["schema"] = schema<ErrorEnvelope<>>();
        }
        Json& examples = media["examples"];
        for (const ErrorCase* c : codes) {
            Json data = nullptr;
            if (c == &api::errors::compliance_failed)
                data = Json::raw(openapi_examples::blocked_call);
            Json value = c == &api::errors::validation_failed
                             ? Json::raw(openapi_examples::validation_failed)
                             : error_example(*c, std::move(data));
            Json& example = examples[c->code];
            example["summary"] = c->when;
            example["value"] = std::move(value);
        }
        return response;
    }

    static void add_examples(Json& media,
                             const std::vector<std::pair<std::string_view, Json>>& examples) {
        if (examples.size() == 0) return;
        Json& out = media["examples"];
        for (const auto& [name, value] : examples) {
            out[name]["value"] = value;
        }
    }

    template <class T>
    Json body(bool required, bool merge_patch,
              const std::vector<std::pair<std::string_view, Json>>& examples) {
        Json request = Json::object();
        request["required"] = required;
        Json media = Json::object();
        media["schema"] = schema<T>();
        add_examples(media, examples);
        if (merge_patch) request["content"]["application/merge-patch+json"] = media;
        request["content"]["application/json"] = std::move(media);
        return request;
    }

    // The body of the POSTs that take none: empty, or {}.
    static Json empty_body() {
        Json request = Json::object();
        request["required"] = false;
        request["description"] = "No body, or an empty JSON object.";
        Json& schema = request["content"]["application/json"]["schema"];
        schema["type"] = "object";
        schema["maxProperties"] = 0;
        return request;
    }

    [[nodiscard]] const Json& definitions() const { return schemas_.definitions(); }

  private:
    Schemas schemas_;
};

inline Json example_value(std::string_view text) {
    return Json::raw(text);
}

inline Json parameter_ref(std::string_view name) {
    return ref_to("#/components/parameters/" + std::string(name));
}

// The name of the path's parameter ("customerId" of ".../{customerId}/calls"), or "".
constexpr std::string_view path_parameter(std::string_view path) {
    const std::size_t open = path.find('{');
    if (open == std::string_view::npos) return {};
    return path.substr(open + 1, path.find('}', open) - open - 1);
}

// The errors a route can answer with, grouped by status in the order of api::all_errors: those
// of its kind (a key, a body, an Idempotency-Key) and its own.
inline std::vector<std::pair<int, std::vector<const ErrorCase*>>> route_errors(
    const api::Route& route) {
    namespace e = api::errors;
    std::vector<const ErrorCase*> codes;
    if (route.access == api::Access::api_key) {
        codes.insert(codes.end(), {&e::unauthorized, &e::rate_limited, &e::headers_too_large,
                                   &e::internal, &e::unavailable});
    }
    if (route.has_body()) {
        codes.insert(codes.end(), {&e::malformed_json, &e::validation_failed, &e::bad_request,
                                   &e::payload_too_large, &e::unsupported_media_type});
    }
    if (route.idempotent()) {
        codes.insert(codes.end(), {&e::idempotency_key_in_flight, &e::idempotency_key_reused});
    }
    for (const ErrorCase* c : route.errors) {
        if (c != nullptr) codes.push_back(c);
    }
    std::vector<std::pair<int, std::vector<const ErrorCase*>>> by_status;
    for (const ErrorCase& c : api::all_errors) {
        const auto found = std::find_if(codes.begin(), codes.end(),
                                        [&](const ErrorCase* e) { return e->code == c.code; });
        if (found == codes.end()) continue;
        if (by_status.empty() || by_status.back().first != c.status) {
            by_status.emplace_back(c.status, std::vector<const ErrorCase*>{});
        }
        by_status.back().second.push_back(*found);
    }
    return by_status;
}

// What the table does not say about an operation: its longer description and its examples.
struct OperationText {
    std::string description;
    std::string_view success = "OK.";
    std::vector<std::pair<std::string_view, std::string_view>> request_examples;
    std::vector<std::pair<std::string_view, std::string_view>> answer_examples;  // the data
};

inline OperationText operation_text(api::Operation operation) {
    namespace x = openapi_examples;
    using api::Operation;
    OperationText t;
    switch (operation) {
        case Operation::get_health:
            t.description = "Not an API call: no key, no envelope. Liveness: the process answers.";
            t.success = "The server is up.";
            t.answer_examples = {{"ok", R"({"status":"ok"})"}};
            break;
        case Operation::get_readiness:
            t.description =
                "Not an API call: no key, no envelope. 503 {\"status\":\"unavailable\"} while "
                "the storage does not answer.";
            t.success = "The server can serve.";
            t.answer_examples = {{"ready", R"({"status":"ready"})"}};
            break;
        case Operation::get_metrics:
            t.description = "Not an API call: no key, no envelope. 404 when metrics are off.";
            t.success = "The metrics.";
            break;
        case Operation::get_open_api:
            t.description = "Not an API call: no key, no envelope.";
            t.success = "The OpenAPI 3.1 document of the API.";
            break;
        case Operation::create_customer:
            t.success = "The customer was created.";
            t.request_examples = {{"minimal", x::customer_create_minimal},
                                  {"collections", x::customer_create_collections}};
            t.answer_examples = {{"created", x::customer}};
            break;
        case Operation::find_customers:
            t.success = "The matching customers (0 or 1).";
            break;
        case Operation::create_customers:
            t.description =
                "Each item is validated and stored on its own, and reported in request order: "
                "a failed item (invalid, or a duplicate externalId) does not fail the others, and "
                "the response is 200 even when every item failed. 0 items or more than " +
                std::to_string(api::max_bulk_items) + " is 400.";
            t.success = "Every item was processed; see results[].success.";
            t.request_examples = {{"two", x::bulk_request}};
            t.answer_examples = {{"partial", x::bulk_result}};
            break;
        case Operation::get_customer:
            t.success = "The customer.";
            break;
        case Operation::update_customer:
            t.description =
                "RFC 7396 applied to the stored customer, then the merged customer is validated "
                "as a whole: null on a required member is `not_allowed`, clearing ssnLastFour or "
                "dateOfBirth of a customer with collections is a `conflict`. An empty object "
                "returns the customer unchanged. Error paths point into the merged customer.";
            t.success = "The updated customer.";
            t.request_examples = {{"change", x::customer_patch}};
            break;
        case Operation::create_call:
            t.description =
                "In order: the customer must exist (404), the body be valid (400), the agent be "
                "the account's (403); then every compliance check is evaluated. All pass: 200 and "
                "the call is placed. Any fails: 422 `compliance_failed` with the call object (not "
                "stored) as data.";
            t.success = "The call was placed.";
            t.request_examples = {{"with webhook", x::call_request}};
            t.answer_examples = {{"placed", x::call}};
            break;
        case Operation::list_calls:
            t.success = "The calls.";
            break;
        case Operation::cease_and_desist:
        case Operation::deactivate_customer:
        case Operation::activate_customer:
            t.success = "The customer.";
            break;
        case Operation::get_call:
            t.success = "The call.";
            break;
        case Operation::get_call_recording:
            t.description =
                "The signed, time-limited recordingUrl of a call-ended webhook (valid 30 minutes): "
                "no key, no envelope. The audio is silence as long as the call (WAV, 8 kHz 8-bit "
                "mono). A signature that does not match is 404; a genuine link past its expiry is "
                "403.";
            t.success = "The recording.";
            break;
        case Operation::create_webhook_secret:
            t.description =
                "With no body (or {}), a new secret (whsec_ and the base64 of 32 random bytes), "
                "shown only in this response. With {id, secret}, a secret brought from the hosted "
                "service is kept under its own id (an id the account has gets the new text; "
                "another account's is 409). Its id is the secretId of a call request's webhook.";
            t.success = "The secret.";
            break;
        case Operation::create_calls:
            t.description =
                "The whole request is checked first: the body (400; a repeated customer id is "
                "400 `customerIds must not contain duplicates`), the agent (403), the webhook "
                "(400). Then each customer in request order exactly as POST "
                "/customers/{customerId}/calls would call it (the same compliance, the same daily "
                "count however single and bulk calls interleave): placed, {customerId, success: "
                "true, data: the call}; not, {customerId, success: false, error} with `Customer "
                "not found` or the compliance message, and the blocked call's compliance.";
            t.success = "Every customer was processed; see results[].success.";
            t.request_examples = {{"two", x::bulk_call_request}};
            break;
        case Operation::get_signed_url:
            t.description =
                "The same signed link as the recordingUrl of the call's call-ended webhook, valid "
                "30 minutes. 404 `Call not found` for an unknown call, another account's, and a "
                "call without a recording (still in progress, or never answered).";
            t.success = "The link.";
            t.request_examples = {{"call", x::signed_url_request}};
            break;
        case Operation::list_clients:
            t.description = "data is the array of clients itself, as the hosted service answers.";
            t.success = "The clients, in the order they were created.";
            t.answer_examples = {{"two", x::client_list}};
            break;
        case Operation::create_client:
            t.description =
                "Without id, a new client. With id (the client's id at the hosted service), the "
                "client is kept under it; an id the account has already is renamed, another "
                "account's is 409.";
            t.success = "The client.";
            t.request_examples = {{"new", x::client_create}};
            break;
        case Operation::import_sms:
        case Operation::import_email:
            t.description =
                "Stored as a record of the customer's conversation (without threadId, the "
                "customer's thread; an SMS without segments gets the count a carrier would make). "
                "Interactions are kept for good: no retention sweeps them.";
            t.success = "The stored interaction.";
            if (operation == Operation::import_sms) {
                t.request_examples = {{"inbound", x::sms_import}};
                t.answer_examples = {{"stored", x::sms_interaction}};
            } else {
                t.request_examples = {{"inbound", x::email_import}};
                t.answer_examples = {{"stored", x::email_interaction}};
            }
            break;
        case Operation::import_sms_bulk:
        case Operation::import_email_bulk:
            t.description =
                "1 to 100 items, each validated and stored on its own and reported in request "
                "order: {success: true, interaction} or {success: false, index, error, details}.";
            t.success = "Every item was processed; see results[].success.";
            if (operation == Operation::import_sms_bulk)
                t.answer_examples = {{"partial", x::sms_import_bulk_result}};
            break;
        case Operation::generate_sms:
            t.description =
                "Written from fixed templates (docs/interactions.md): the customer's first name "
                "and an answer to the thread's last inbound message, one GSM-7 segment. With "
                "persist (the default) the SMS is sent: `to` is required (422), the SMS "
                "compliance checks must pass (422 `compliance_failed` with the compliance as "
                "data), and it is stored as an outbound interaction of the thread.";
            t.success = "The message; threadId when it was persisted.";
            t.request_examples = {{"send", x::sms_generate_request}};
            t.answer_examples = {{"sent", x::sms_generate_result}};
            break;
        case Operation::generate_email:
            t.description =
                "Written from fixed templates (docs/interactions.md) in plain text and HTML. "
                "With persist (the default) it is stored as an outbound e-mail of the thread, to "
                "the customer's address.";
            t.success = "The message; threadId when it was persisted.";
            break;
        case Operation::list_interactions:
            t.description =
                "Every call, SMS and e-mail of the customer, newest first, each under the member "
                "of its channel (a call with its transcript once it has ended).";
            t.success = "The interactions.";
            break;
        case Operation::analyze_interaction:
            t.description =
                "The rule-based analyser (docs/interactions.md) on the customer's words: an "
                "inbound SMS or e-mail, or a call's turns of the customer. Stored once: a second "
                "analysis returns the first. With applyOutcomes (the default) its outcomes are "
                "recorded on the customer: a stop request in writing is a cease-and-desist, in a "
                "call it stops calls; attorney representation and a dispute are recorded. 400 "
                "`Analysis was skipped.` when there are no such words (an outbound message, an "
                "unanswered call).";
            t.success = "The analysis.";
            t.answer_examples = {{"analysed", x::analyze_result}};
            break;
    }
    return t;
}

inline std::string envelope_example(std::string_view data) {
    std::string out =
        R"({"requestId":"9f1e2d3c-4b5a-4697-8877-665544332211","success":true,"data":)";
    out += data;
    out += '}';
    return out;
}

// The operation object of one route, from the table and the types of its operation.
template <class Types, class B>
Json describe_operation(B& b, const api::Route& route) {
    using Body = typename Types::body;
    using Data = typename Types::data;
    const OperationText text = operation_text(route.operation);
    Json op = Json::object();
    op["operationId"] = api::operation_id(route.operation);
    op["tags"] = Json::array({route.tag});
    op["summary"] = route.summary;
    if (!text.description.empty()) op["description"] = text.description;
    Json parameters = Json::array();
    if (route.operation == api::Operation::find_customers) {
        parameters.push_back(parameter_ref("externalId"));
    }
    if (route.idempotent()) parameters.push_back(parameter_ref("Idempotency-Key"));
    if (parameters.size() != 0) op["parameters"] = std::move(parameters);

    if (route.access == api::Access::document) {
        op["security"] = Json::array();
        Json& ok = op["responses"]["200"];
        ok["description"] = text.success;
        if constexpr (std::is_same_v<Data, std::string>) {
            if (route.operation == api::Operation::get_metrics) {
                ok["content"]["text/plain"]["schema"]["type"] = "string";
            } else if (route.operation == api::Operation::get_call_recording) {
                ok["content"]["audio/wav"]["schema"]["type"] = "string";
                ok["content"]["audio/wav"]["schema"]["format"] = "binary";
                Json query = Json::array();
                for (auto [name, description] :
                     std::initializer_list<std::pair<std::string_view, std::string_view>>{
                         {"expires", "Unix seconds after which the link is refused"},
                         {"durationMs", "The call's length in milliseconds"},
                         {"signature", "Hex HMAC-SHA256 of the link, by the server"}}) {
                    Json p = Json::object();
                    p["name"] = name;
                    p["in"] = "query";
                    p["required"] = true;
                    p["description"] = description;
                    p["schema"]["type"] = "string";
                    query.push_back(std::move(p));
                }
                op["parameters"] = std::move(query);
            } else {
                ok["content"]["application/json"]["schema"]["type"] = "object";
            }
        } else {
            Json& media = ok["content"]["application/json"];
            media["schema"] = b.template schema<Data>();
            for (const auto& [name, value] : text.answer_examples)
                media["examples"][name]["value"] = example_value(value);
            if (route.operation == api::Operation::get_readiness) {
                Json& down = op["responses"]["503"];
                down["description"] = "The storage does not answer.";
                down["content"]["application/json"]["schema"] = b.template schema<Data>();
            }
        }
        for (auto& [status, codes] : route_errors(route))
            op["responses"][std::to_string(status)] = b.error(codes);
        return op;
    }

    if (route.has_body()) {
        if constexpr (std::is_same_v<Body, EmptyObject>) {
            op["requestBody"] = B::empty_body();
        } else if constexpr (!std::is_same_v<Body, null_t>) {
            std::vector<std::pair<std::string_view, Json>> examples;
            for (const auto& [name, value] : text.request_examples)
                examples.emplace_back(name, example_value(value));
            op["requestBody"] =
                b.template body<Body>(route.body != api::Body::empty_or_json,
                                      route.body == api::Body::merge_patch, examples);
            op["requestBody"]["description"] = "At most " + api::size_text(route.max_body) + ".";
            if (route.body == api::Body::empty_or_json) {
                // No body, {}, or a document of Body (a secret to import).
                Json& media = op["requestBody"]["content"]["application/json"];
                Json empty = B::empty_body()["content"]["application/json"]["schema"];
                Json one_of = Json::array({std::move(empty), std::move(media["schema"])});
                media["schema"] = Json::object();
                media["schema"]["oneOf"] = std::move(one_of);
                op["requestBody"]["description"] =
                    "No body, {}, or a document (at most " + api::size_text(route.max_body) + ").";
            }
        }
    }
    std::vector<std::pair<std::string_view, Json>> answers;
    for (const auto& [name, value] : text.answer_examples)
        answers.emplace_back(name, Json::raw(envelope_example(value)));
    Json& responses = op["responses"];
    responses["200"] = b.template success<Data>(text.success, answers);
    for (auto& [status, codes] : route_errors(route)) {
        Json response = b.error(codes);
        if (status == 413) {
            response["description"] = "`payload_too_large`: the body is over this route's limit, " +
                                      api::size_text(route.max_body);
        }
        responses[std::to_string(status)] = std::move(response);
    }
    return op;
}

}  // namespace detail::oas

// The OpenAPI 3.1 document of the service, as a value. (A template only so that it is compiled
// where it is used; call it as openapi_value().)
template <class Unused = void>
Json openapi_value() {
    using namespace detail::oas;
    Builder<> b;
    Json doc = Json::object();
    doc["openapi"] = "3.1.0";

    Json& info = doc["info"];
    info["title"] = "collectcall customer and agent-call API";
    info["version"] = COLLECTCALL_VERSION_STRING;
    info["summary"] = "Customers of a debt-collections workflow and compliant agent calls to them.";
    info["description"] =
        "Every API response, success or failure, has the envelope {requestId, success, data}; "
        "failures add error {code, message, details[]} and publicFacingMessage. requestId is "
        "also sent as the X-Request-Id header. error.details[].path is a JSON Pointer into the "
        "request body, and every error of a body is reported at once.\n\n"
        "Input is strict: an unknown or duplicate member anywhere in a body is an error. "
        "Optional members without a value are returned as null.\n\n"
        "An unknown path is 404 `not_found`; a known path with a method it does not have is "
        "405 `method_not_allowed`, with an Allow header. POST requests may carry an "
        "Idempotency-Key: the same key with the same body within " +
        api::idempotency_retention_text() + " replays the first response.";

    Json server = Json::object();
    server["url"] = "http://127.0.0.1:8080";
    server["description"] = "The example server (collectcall-server serve, default --listen)";
    doc["servers"] = Json::array({std::move(server)});
    Json bearer = Json::object();
    bearer["bearerAuth"] = Json::array();
    doc["security"] = Json::array({std::move(bearer)});

    Json tags = Json::array();
    for (auto [name, description] :
         std::initializer_list<std::pair<std::string_view, std::string_view>>{
             {"customers", "Customer records: create one or many, read, update"},
             {"calls", "Agent calls and their compliance checks"},
             {"webhooks", "Secrets that sign call-event deliveries"},
             {"service", "Documents that are not API calls (no envelope, no key)"}}) {
        Json tag = Json::object();
        tag["name"] = name;
        tag["description"] = description;
        tags.push_back(std::move(tag));
    }
    doc["tags"] = std::move(tags);

    Json paths = Json::object();
    for (const api::Route& route : api::routes) {
        boost::mp11::mp_with_index<api::routes.size()>(
            static_cast<std::size_t>(route.operation), [&](auto I) {
                using Types = api::operation_types<static_cast<api::Operation>(I())>;
                Json op = describe_operation<Types>(b, route);
                std::string method(route.method);
                for (char& c : method)
                    c = static_cast<char>(c - 'A' + 'a');
                Json& item = paths[route.path];
                if (const std::string_view parameter = path_parameter(route.path);
                    !parameter.empty() && !item.contains("parameters")) {
                    item["parameters"] = Json::array({parameter_ref(parameter)});
                }
                item[method] = std::move(op);
            });
    }
    doc["paths"] = std::move(paths);

    {  // Call events sent to webhook.url (API.md section 9).
        Json post = Json::object();
        post["operationId"] = "callEvent";
        post["summary"] = "A call event, delivered at least once and in order per call";
        post["description"] =
            "With the webhook's secretId, signed: X-Webhook-Signature is sha256=<hex "
            "HMAC-SHA256(the secret's text, timestamp + \".\" + body)>; for a whsec_ secret also "
            "webhook-signature, v1,<base64 HMAC-SHA256(the base64 after whsec_, decoded, id + "
            "\".\" + timestamp + \".\" + body)> (Standard Webhooks). Without a secretId, unsigned; "
            "webhook-id is always sent. A non-2xx answer or a timeout (10 s) is retried.";
        Json parameters = Json::array();
        for (auto [name, description] :
             std::initializer_list<std::pair<std::string_view, std::string_view>>{
                 {"X-Webhook-Timestamp", "Unix time in seconds of the delivery"},
                 {"X-Webhook-Signature", "sha256= and the hex HMAC-SHA256 of timestamp.body"},
                 {"webhook-id", "Unique per message: the key to drop duplicate deliveries"},
                 {"webhook-timestamp", "Unix time in seconds of the delivery"},
                 {"webhook-signature", "v1, and the base64 HMAC-SHA256 of id.timestamp.body"}}) {
            Json p = Json::object();
            p["name"] = name;
            p["in"] = "header";
            p["required"] = name == "webhook-id";
            p["description"] = description;
            p["schema"]["type"] = "string";
            parameters.push_back(std::move(p));
        }
        post["parameters"] = std::move(parameters);
        post["requestBody"]["required"] = true;
        post["requestBody"]["content"]["application/json"]["schema"] = b.schema<CallWebhookEvent>();
        post["responses"]["2XX"]["description"] = "Delivered; any other answer is retried.";
        doc["webhooks"]["callEvent"]["post"] = std::move(post);
    }

    Json& components = doc["components"];
    components["schemas"] = b.definitions();
    {
        Json& parameters = components["parameters"];
        for (auto [name, description] :
             std::initializer_list<std::pair<std::string_view, std::string_view>>{
                 {"customerId",
                  "The service-assigned customer id. Anything that is not a UUID is "
                  "404, like an unknown id."},
                 {"callId",
                  "The call id. Anything that is not a UUID is 404, like an unknown id."}}) {
            Json& p = parameters[name];
            p["name"] = name;
            p["in"] = "path";
            p["required"] = true;
            p["description"] = description;
            p["schema"] = b.schema<Uuid>();
        }
        Json& external = parameters["externalId"];
        external["name"] = "externalId";
        external["in"] = "query";
        external["required"] = true;
        external["description"] =
            "The customer's identifier in the caller's system (400 without it).";
        external["schema"] = b.schema<Text>();
        Json& key = parameters["Idempotency-Key"];
        key["name"] = "Idempotency-Key";
        key["in"] = "header";
        key["required"] = false;
        key["description"] =
            "Makes a POST safe to retry: the same key with the same request within " +
            api::idempotency_retention_text() +
            " replays the first response byte for byte. Keys are per account.";
        key["schema"]["type"] = "string";
        key["schema"]["minLength"] = 1;
        key["schema"]["maxLength"] = api::max_idempotency_key_length;
        key["schema"]["pattern"] = "^[\\u0020-\\u007E]+$";
    }
    {
        Json& headers = components["headers"];
        headers["X-Request-Id"]["description"] = "The requestId of the response envelope.";
        headers["X-Request-Id"]["schema"] = b.schema<Uuid>();
        headers["WWW-Authenticate"]["description"] = "Bearer";
        headers["WWW-Authenticate"]["schema"]["type"] = "string";
        headers["Retry-After"]["description"] = "Seconds to wait before retrying.";
        headers["Retry-After"]["schema"]["type"] = "integer";
        headers["Retry-After"]["schema"]["minimum"] = 0;
    }
    {
        Json& scheme = components["securitySchemes"]["bearerAuth"];
        scheme["type"] = "http";
        scheme["scheme"] = "bearer";
        scheme["description"] =
            "Authorization: Bearer <API_KEY>. The key is issued by the operator "
            "(collectcall-server init); keep it out of version control and mobile apps.";
    }
    // The bodies above may have added definitions (Uuid and Text are inline, so nothing new),
    // but take them again so that the document is complete whatever the order.
    components["schemas"] = b.definitions();
    return doc;
}

// The OpenAPI 3.1 document of the service, as compact JSON. Built once; the same bytes every
// time. (A template only so that it is compiled where it is used; call it as openapi().)
template <class Unused = void>
std::string openapi() {
    static const std::string document = openapi_value<Unused>().dump();
    return document;
}

}  // namespace collectcall
