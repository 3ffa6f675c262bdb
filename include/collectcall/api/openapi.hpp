// openapi(): the OpenAPI 3.1 document of the HTTP API as the example server serves it
// (GET /api/v1/openapi.json, `collectcall-server openapi`). Its paths are generated from the
// route table (routes.hpp), its error answers from the error table (errors.hpp), its schemas
// from the models' descriptions and their rules (model/openapi.hpp), and its examples are the
// documents of model/openapi.hpp that the tests check against what the library produces.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/enumerators.hpp>

#include "collectcall/api/errors.hpp"
#include "collectcall/api/limits.hpp"
#include "collectcall/api/page.hpp"
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

    // A success response: `envelope`, the schema of the envelope of its data.
    static Json success(Json envelope, std::string_view description,
                        const std::vector<std::pair<std::string_view, Json>>& examples = {}) {
        Json response = Json::object();
        response["description"] = description;
        response["headers"]["X-Request-Id"] = request_id_header();
        Json& media = response["content"]["application/json"];
        media["schema"] = std::move(envelope);
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
            } else if (c == &api::errors::rate_limited || c == &api::errors::quota_exceeded) {
                response["headers"]["Retry-After"] = ref_to("#/components/headers/Retry-After");
            }
        }
        Json& media = response["content"]["application/json"];
        if (call_data) {
            media["schema"]["oneOf"] =
                Json::array({schema<ErrorEnvelope<BlockedCall>>(), schema<ErrorEnvelope<>>()});
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

    // A request body of the given schema.
    static Json body(Json schema, bool required, bool merge_patch,
                     const std::vector<std::pair<std::string_view, Json>>& examples) {
        Json request = Json::object();
        request["required"] = required;
        Json media = Json::object();
        media["schema"] = std::move(schema);
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

// The name of the path's parameter at or after `from` ("customerId" of ".../{customerId}/calls"),
// or "" when there is none; `from` moves past it. Called again, the next one: every "{name}" of
// a path in order.
constexpr std::string_view path_parameter(std::string_view path, std::size_t& from) {
    const std::size_t open = path.find('{', from);
    if (open == std::string_view::npos) return {};
    const std::size_t close = path.find('}', open);
    from = close;
    return path.substr(open + 1, close - open - 1);
}

// The path parameters of the routes, each a UUID: a route's "{name}" without its description
// here does not compile.
struct PathParameter {
    std::string_view name;
    std::string_view description;
};
inline constexpr std::array path_parameters{
    PathParameter{"customerId",
                  "The service-assigned customer id. Anything that is not a UUID is 404, like an "
                  "unknown id."},
    PathParameter{"callId", "The call id. Anything that is not a UUID is 404, like an unknown id."},
    PathParameter{"interactionId",
                  "The id of an SMS, an e-mail or a call (a call's id is an interaction id). "
                  "Anything that is not a UUID is 404, like an unknown id."},
    PathParameter{"dripCampaignId",
                  "The id of the customer's enrolment in a drip campaign. Anything that is not a "
                  "UUID is 404, like an unknown id."},
};
static_assert(
    [] {
        for (const api::Route& route : api::routes) {
            std::size_t from = 0;
            std::size_t count = 0;
            for (std::string_view name = path_parameter(route.path, from); !name.empty();
                 name = path_parameter(route.path, from)) {
                if (++count > api::max_path_parameters) return false;
                if (std::none_of(path_parameters.begin(), path_parameters.end(),
                                 [&](const PathParameter& p) { return p.name == name; }))
                    return false;
            }
        }
        return true;
    }(),
    "every path parameter of a route has its description in path_parameters, and no route has "
    "more than api::max_path_parameters");

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
        // A POST is a write: past the account's daily budget of stored rows, one that would
        // store rows is refused (API.md section 17).
        if (route.access == api::Access::api_key) codes.push_back(&e::quota_exceeded);
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

inline std::string envelope_example(std::string_view data) {
    std::string out =
        R"({"requestId":"9f1e2d3c-4b5a-4697-8877-665544332211","success":true,"data":)";
    out += data;
    out += '}';
    return out;
}

// What the operation object of an endpoint takes from its types (api/endpoints.hpp), as one row
// of a table: the operation objects are built by one function, and each endpoint adds only the
// schemas of its types (each once, however many endpoints share it).
template <class B>
struct OperationTypes {
    api::OperationText (*text)();
    bool body_is_model;                     // not null_t (no body) or EmptyObject (empty_body())
    bool body_is_empty_object;              // EmptyObject
    bool data_is_text;                      // std::string: a document that is not JSON
    Json (*body_schema)(B&) = nullptr;      // the body's, when it is a model
    Json (*data_schema)(B&) = nullptr;      // the data's, when it is not text
    Json (*envelope_schema)(B&) = nullptr;  // the envelope of the data's, when it is not text
};

template <class B, class T>
Json schema_in(B& b) {
    return b.template schema<T>();
}

template <class B, class Endpoint>
constexpr OperationTypes<B> operation_types() {
    using Body = typename Endpoint::body;
    using Data = typename Endpoint::data;
    constexpr bool body_is_model =
        !std::is_same_v<Body, null_t> && !std::is_same_v<Body, EmptyObject>;
    constexpr bool data_is_text = std::is_same_v<Data, std::string>;
    OperationTypes<B> types{.text = &Endpoint::text,
                            .body_is_model = body_is_model,
                            .body_is_empty_object = std::is_same_v<Body, EmptyObject>,
                            .data_is_text = data_is_text};
    if constexpr (body_is_model) types.body_schema = &schema_in<B, Body>;
    if constexpr (!data_is_text) {
        types.data_schema = &schema_in<B, Data>;
        types.envelope_schema = &schema_in<B, Envelope<Data>>;
    }
    return types;
}

// The rows of every endpoint, indexed by its Operation.
template <class B, template <class...> class L, class... D>
constexpr std::array<OperationTypes<B>, sizeof...(D)> operation_types_table(L<D...>) {
    return {operation_types<B, api::endpoint<D::value>>()...};
}
template <class B>
inline constexpr auto all_operation_types =
    operation_types_table<B>(boost::describe::describe_enumerators<api::Operation>{});

// The operation object of one endpoint (api/endpoints.hpp): its route, its types and its text.
template <class B>
Json describe_operation(B& b, const api::Route& route, const OperationTypes<B>& types) {
    const api::OperationText text = types.text();
    Json op = Json::object();
    op["operationId"] = api::operation_id(route.operation);
    op["tags"] = Json::array({route.tag});
    op["summary"] = route.summary;
    if (!text.description.empty()) op["description"] = text.description;
    Json parameters = Json::array();
    switch (route.query) {
        case api::Query::none:
            break;
        case api::Query::external_id:
            parameters.push_back(parameter_ref("externalId"));
            break;
        case api::Query::page:
            parameters.push_back(parameter_ref(api::page_parameter::limit));
            parameters.push_back(parameter_ref(api::page_parameter::cursor));
            break;
    }
    if (route.idempotent()) parameters.push_back(parameter_ref("Idempotency-Key"));
    if (parameters.size() != 0) op["parameters"] = std::move(parameters);

    if (route.access == api::Access::document) {
        op["security"] = Json::array();
        Json& ok = op["responses"]["200"];
        ok["description"] = text.success;
        if (types.data_is_text) {
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
            media["schema"] = types.data_schema(b);
            for (const auto& [name, value] : text.answer_examples)
                media["examples"][name]["value"] = example_value(value);
            if (route.operation == api::Operation::get_readiness) {
                Json& down = op["responses"]["503"];
                down["description"] = "The storage does not answer.";
                down["content"]["application/json"]["schema"] = types.data_schema(b);
            }
        }
        for (auto& [status, codes] : route_errors(route))
            op["responses"][std::to_string(status)] = b.error(codes);
        return op;
    }

    if (route.has_body()) {
        if (types.body_is_empty_object) {
            op["requestBody"] = B::empty_body();
        } else if (types.body_is_model) {
            std::vector<std::pair<std::string_view, Json>> examples;
            for (const auto& [name, value] : text.request_examples)
                examples.emplace_back(name, example_value(value));
            op["requestBody"] =
                B::body(types.body_schema(b), route.body != api::Body::empty_or_json,
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
    responses["200"] = B::success(types.envelope_schema(b), text.success, answers);
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
             {"compliance",
              "The account's compliance policy, requests not to be called, and the record of "
              "every compliance decision"},
             {"drip-campaigns",
              "Enrolments in the account's drip campaigns, whose steps run at their first "
              "compliant instant"},
             {"service", "Documents that are not API calls (no envelope, no key)"}}) {
        Json tag = Json::object();
        tag["name"] = name;
        tag["description"] = description;
        tags.push_back(std::move(tag));
    }
    doc["tags"] = std::move(tags);

    Json paths = Json::object();
    for (const api::Route& route : api::routes) {
        Json op = describe_operation(
            b, route, all_operation_types<Builder<>>[static_cast<std::size_t>(route.operation)]);
        std::string method(route.method);
        for (char& c : method)
            c = static_cast<char>(c - 'A' + 'a');
        Json& item = paths[route.path];
        if (!item.contains("parameters")) {
            Json parameters = Json::array();
            std::size_t from = 0;
            for (std::string_view name = path_parameter(route.path, from); !name.empty();
                 name = path_parameter(route.path, from))
                parameters.push_back(parameter_ref(name));
            if (parameters.size() != 0) item["parameters"] = std::move(parameters);
        }
        item[method] = std::move(op);
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
        // A drip campaign's events go to its enrolment's webhook.url, delivered and signed alike.
        Json drip = post;
        drip["operationId"] = "dripCampaignEvent";
        drip["summary"] = "A drip campaign's event (drip-campaign.call-created, .call-ended, .sms)";
        drip["requestBody"]["content"]["application/json"]["schema"] = b.schema<DripWebhookEvent>();
        doc["webhooks"]["callEvent"]["post"] = std::move(post);
        doc["webhooks"]["dripCampaignEvent"]["post"] = std::move(drip);
    }

    Json& components = doc["components"];
    components["schemas"] = b.definitions();
    {
        Json& parameters = components["parameters"];
        for (const auto& [name, description] : path_parameters) {
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
        Json& limit = parameters[api::page_parameter::limit];
        limit["name"] = api::page_parameter::limit;
        limit["in"] = "query";
        limit["required"] = false;
        limit["description"] = "The most items of the page (400 outside the range).";
        limit["schema"]["type"] = "integer";
        limit["schema"]["minimum"] = 1;
        limit["schema"]["maximum"] = api::max_page_limit;
        limit["schema"]["default"] = api::default_page_limit;
        Json& cursor = parameters[api::page_parameter::cursor];
        cursor["name"] = api::page_parameter::cursor;
        cursor["in"] = "query";
        cursor["required"] = false;
        cursor["description"] =
            "Where the page begins: the cursor the previous page of the same list gave (400 for "
            "a cursor of another list, customer or account). Without it, the newest items. A "
            "page stops early, with its cursor, when its items reach " +
            api::size_text(api::max_page_bytes) + ".";
        cursor["schema"]["type"] = "string";
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
