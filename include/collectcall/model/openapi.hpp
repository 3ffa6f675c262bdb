// The published contract of the service: the schema rules of the models that their descriptions
// alone do not tell (cross-field rules, what a PATCH may clear, bulk limits), and openapi(), the
// OpenAPI 3.1 document of the whole HTTP API of SPEC.md and API.md as the example server serves
// it (GET /api/v1/openapi.json, `collectcall-server openapi`).
//
// It lives with the models because it is about them: core/schema.hpp knows how to turn any
// described struct into a schema, this header knows what the service's structs mean. Include it
// (or collectcall/collectcall.hpp) before asking for json_schema<T>() of a model that has such
// a rule; without it that call does not compile, rather than publish a schema that misses one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/api/errors.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/model/address.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/collections.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/envelope.hpp"
#include "collectcall/model/webhook.hpp"
#include "collectcall/version.hpp"

namespace collectcall {

// ---- Schema rules of the models ---------------------------------------------------------------

namespace detail {

inline Json not_null() {
    Json schema = Json::object();
    schema["not"] = Json::object();
    schema["not"]["type"] = "null";
    return schema;
}

// API.md section 4: a customer with collections must have ssnLastFour and dateOfBirth.
inline void collections_requires_identity(SchemaBuilder& s, bool require_members) {
    Json condition = Json::object();
    condition["properties"]["collections"]["type"] = "object";
    condition["required"] = Json::array({"collections"});
    Json consequence = Json::object();
    consequence["properties"]["ssnLastFour"] = not_null();
    consequence["properties"]["dateOfBirth"] = not_null();
    if (require_members) consequence["required"] = Json::array({"ssnLastFour", "dateOfBirth"});
    s["if"] = std::move(condition);
    s["then"] = std::move(consequence);
}

}  // namespace detail

inline void collectcall_schema(schema_tag<CustomerCreate>, SchemaBuilder& s) {
    s["description"] =
        "A customer as sent to POST /customers. With collections, ssnLastFour and dateOfBirth "
        "are required too (a `conflict` error at /collections otherwise).";
    detail::collections_requires_identity(s, true);
}

inline void collectcall_schema(schema_tag<Customer>, SchemaBuilder& s) {
    s["description"] = "A stored customer as the API returns it.";
    detail::collections_requires_identity(s, true);
}

// What a merge patch may clear depends on the stored customer only through the collections rule:
// members the customer requires can never be null, and a patch that sets collections cannot
// also clear ssnLastFour or dateOfBirth. The rest (clearing ssnLastFour of a customer that keeps
// its collections, collections without totalBalance for a customer that has none) needs the
// stored customer, and is checked by the server after merging.
inline void collectcall_schema(schema_tag<CustomerPatch>, SchemaBuilder& s) {
    s["description"] =
        "A JSON Merge Patch (RFC 7396) of a customer: an absent member is kept, null clears an "
        "optional member, address and collections merge member by member. The merged customer "
        "is validated as a whole.";
    s.patch_of<CustomerCreate>();
    detail::collections_requires_identity(s, false);
}

inline void collectcall_schema(schema_tag<AddressPatch>, SchemaBuilder& s) {
    s["description"] =
        "Members of the address to change; line1, city, state and zip cannot be "
        "cleared.";
    s.patch_of<Address>();
}

inline void collectcall_schema(schema_tag<CollectionsPatch>, SchemaBuilder& s) {
    s["description"] =
        "Members of the collections block to change. For a customer without collections this "
        "is the whole new block, and then totalBalance is required.";
    s.patch_of<Collections>();
}

inline void collectcall_schema(schema_tag<BulkCreateRequest>, SchemaBuilder& s) {
    s["description"] =
        "Each item is validated and created on its own: the response reports every item, and "
        "an invalid item does not fail the others.";
}

inline void collectcall_schema(schema_tag<BulkItemResult>, SchemaBuilder& s) {
    Json created = Json::object();
    created["properties"]["success"]["const"] = true;
    created["required"] = Json::array({"success", "customer"});
    Json failed = Json::object();
    failed["properties"]["success"]["const"] = false;
    failed["required"] = Json::array({"success", "error"});
    s["oneOf"] = Json::array({std::move(created), std::move(failed)});
}

inline void collectcall_schema(schema_tag<CallWebhookEvent>, SchemaBuilder& s) {
    s["description"] =
        "A call event as the hosted service's CallCreatedWebhook / CallEndedWebhook: "
        "callCreated is present on call-created events only, callEnded on call-ended events "
        "only.";
}

// Shapes that exist only on the wire of the example server.
namespace wire {

struct CustomerList {
    std::vector<Customer> customers;
};
BOOST_DESCRIBE_STRUCT(CustomerList, (), (customers))

struct HealthStatus {
    std::string status;
};
BOOST_DESCRIBE_STRUCT(HealthStatus, (), (status))

}  // namespace wire

// ---- Examples ---------------------------------------------------------------------------------

// Documents shown in the OpenAPI document, each valid for its model (tests read them back).
namespace openapi_examples {

inline constexpr std::string_view customer_create_minimal =
    R"({"externalId":"crm-10001","firstName":"Ann","lastName":"Lee","email":"ann.lee@example.com",)"
    R"("primaryPhone":"+15125550100","address":{"line1":"1 Congress Ave","city":"Austin",)"
    R"("state":"TX","zip":"78701"}})";

inline constexpr std::string_view customer_create_collections =
    R"({"externalId":"crm-10002","firstName":"Bob","middleName":"J","lastName":"Diaz",)"
    R"("email":"bob.diaz@example.com","primaryPhone":"+13055550142","secondaryPhone":null,)"
    R"("address":{"line1":"200 Biscayne Blvd","line2":"Apt 4","city":"Miami","state":"FL",)"
    R"("zip":"33131-2200"},"ssnLastFour":"1234","dateOfBirth":"1980-06-15",)"
    R"("collections":{"totalBalance":1234.56,"principalBalance":1000,)"
    R"("originalCreditor":"Example Bank","chargeOffDate":"2024-03-31",)"
    R"("firstDelinquencyDate":"2023-11-02","postItemizationInterest":34.56}})";

inline constexpr std::string_view customer =
    R"({"externalId":"crm-10001","firstName":"Ann","middleName":null,"lastName":"Lee",)"
    R"("email":"ann.lee@example.com","primaryPhone":"+15125550100","secondaryPhone":null,)"
    R"("address":{"line1":"1 Congress Ave","line2":null,"city":"Austin","state":"TX",)"
    R"("zip":"78701"},"ssnLastFour":null,"dateOfBirth":null,"collections":null,)"
    R"("id":"7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a","createdAt":"2026-11-20T15:00:00.000Z",)"
    R"("updatedAt":"2026-11-20T15:00:00.000Z"})";

inline constexpr std::string_view customer_patch =
    R"({"email":"ann@example.org","secondaryPhone":null,"address":{"line2":"Suite 300"}})";

inline constexpr std::string_view bulk_request =
    R"({"customers":[)"
    R"({"externalId":"crm-10001","firstName":"Ann","lastName":"Lee",)"
    R"("email":"ann.lee@example.com","primaryPhone":"+15125550100","address":{"line1":)"
    R"("1 Congress Ave","city":"Austin","state":"TX","zip":"78701"}},)"
    R"({"externalId":"crm-10001","firstName":"Cy","lastName":"Moe","email":"cy@example.com",)"
    R"("primaryPhone":"+15125550199","address":{"line1":"9 Elm St","city":"Austin","state":"TX",)"
    R"("zip":"78702"}}]})";

inline constexpr std::string_view bulk_result =
    R"({"summary":{"total":2,"succeeded":1,"failed":1},"results":[{"success":true,)"
    R"("customer":{"externalId":"crm-10001","firstName":"Ann","middleName":null,)"
    R"("lastName":"Lee","email":"ann.lee@example.com","primaryPhone":"+15125550100",)"
    R"("secondaryPhone":null,"address":{"line1":"1 Congress Ave","line2":null,)"
    R"("city":"Austin","state":"TX","zip":"78701"},"ssnLastFour":null,"dateOfBirth":null,)"
    R"("collections":null,"id":"7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a",)"
    R"("createdAt":"2026-11-20T15:00:00.000Z","updatedAt":"2026-11-20T15:00:00.000Z"}},)"
    R"({"externalId":"crm-10001","success":false,"error":"Customer with external ID 'crm-10001' already exists"}]})";

inline constexpr std::string_view call_request =
    R"({"agentId":"agent-7","webhook":{"url":"https://hooks.example.com/calls",)"
    R"("secretId":"0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c"}})";

inline constexpr std::string_view call =
    R"({"id":"5a6b7c8d-1e2f-4a3b-8c4d-5e6f7a8b9c0d","threadId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",)"
    R"("toPhoneNumber":"+15125550100","fromPhoneNumber":"+15125550111","compliance":{)"
    R"("passed":true,"checksPassed":[{"id":"is-active","name":"Is Active",)"
    R"("description":"Check if customer is active","reason":"Customer is active"},)"
    R"({"id":"cease-and-desist-exclusion","name":"Cease and Desist Exclusion",)"
    R"("description":"Prevent calling customers who have requested cease and desist",)"
    R"("reason":"Customer has not requested cease and desist"},)"
    R"({"id":"four-voice-call-per-day","name":"Four Voice Call Per Day",)"
    R"("description":"Check if customer has had four or fewer voice calls today within the current respectful hours window",)"
    R"("reason":"Customer has had 0 voice calls today within respectful hours window (America/Chicago), within the limit of 4"},)"
    R"({"id":"respectful-hours","name":"Respectful Hours Check",)"
    R"("description":"Check if the customer's local time is within respectful hours",)"
    R"x("reason":"Customer local time is 09:00 (America/Chicago, within respectful hours 8am-8:50pm)"}],)x"
    R"("checksFailed":[]},"createdAt":"2026-11-20T15:00:00.000Z"})";

inline constexpr std::string_view validation_failed =
    R"({"requestId":"9f1e2d3c-4b5a-4697-8877-665544332211","success":false,"data":null,)"
    R"("error":{"code":"validation_failed","message":"2 fields are invalid","details":[)"
    R"({"path":"/address/zip","code":"format","message":"must be 12345 or 12345-1234"},)"
    R"({"path":"/primaryPhone","code":"required","message":"is required"}]},)"
    R"("publicFacingMessage":"2 fields are invalid"})";

}  // namespace openapi_examples

// ---- The OpenAPI document ---------------------------------------------------------------------

namespace detail::oas {

inline Json ref_to(std::string_view pointer) {
    Json r = Json::object();
    r["$ref"] = pointer;
    return r;
}

using ErrorCase = api::ErrorCode;

inline const ErrorCase& error_case(std::string_view code) {
    for (const ErrorCase& c : api::all_errors) {
        if (c.code == code) return c;
    }
    return api::all_errors[0];
}

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
                 std::initializer_list<std::pair<std::string_view, Json>> examples = {}) {
        Json response = Json::object();
        response["description"] = description;
        response["headers"]["X-Request-Id"] = request_id_header();
        Json& media = response["content"]["application/json"];
        media["schema"] = schema<Envelope<T>>();
        add_examples(media, examples);
        return response;
    }

    // An error response of one status, for the codes that can produce it.
    Json error(std::initializer_list<std::string_view> codes, bool call_data = false) {
        Json response = Json::object();
        std::string description;
        for (std::string_view code : codes) {
            const ErrorCase& c = error_case(code);
            if (!description.empty()) description += "; ";
            description += "`";
            description += c.code;
            description += "`: ";
            description += c.when;
        }
        response["description"] = description;
        response["headers"]["X-Request-Id"] = request_id_header();
        for (std::string_view code : codes) {
            if (code == "unauthorized") {
                response["headers"]["WWW-Authenticate"] =
                    ref_to("#/components/headers/WWW-Authenticate");
            } else if (code == "rate_limited") {
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
        for (std::string_view code : codes) {
            const ErrorCase& c = error_case(code);
            Json data = nullptr;
            if (code == "compliance_failed") data = Json::raw(openapi_examples::call);
            Json value = code == "validation_failed"
                             ? Json::raw(openapi_examples::validation_failed)
                             : error_example(c, std::move(data));
            Json& example = examples[c.code];
            example["summary"] = c.when;
            example["value"] = std::move(value);
        }
        return response;
    }

    static void add_examples(Json& media,
                             std::initializer_list<std::pair<std::string_view, Json>> examples) {
        if (examples.size() == 0) return;
        Json& out = media["examples"];
        for (const auto& [name, value] : examples) {
            out[name]["value"] = value;
        }
    }

    template <class T>
    Json body(bool required, bool merge_patch,
              std::initializer_list<std::pair<std::string_view, Json>> examples) {
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

// The errors every authenticated operation can give, and those of a body.
template <class B>
void add_common_errors(B& b, Json& responses, bool body, bool post,
                       std::initializer_list<std::string_view> extra_400 = {}) {
    if (body || post || extra_400.size() != 0) {
        responses["400"] = body ? b.error({"malformed_json", "validation_failed", "bad_request"})
                                : b.error({"validation_failed"});
    }
    responses["401"] = b.error({"unauthorized"});
    if (post) {
        responses["409"] = b.error({"idempotency_key_in_flight"});
        responses["422"] = b.error({"idempotency_key_reused"});
    }
    if (body) {
        responses["413"] = b.error({"payload_too_large"});
        responses["415"] = b.error({"unsupported_media_type"});
    }
    responses["429"] = b.error({"rate_limited"});
    responses["431"] = b.error({"headers_too_large"});
    responses["500"] = b.error({"internal"});
    responses["503"] = b.error({"unavailable"});
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
        "Idempotency-Key: the same key with the same body within 24 hours replays the first "
        "response.";

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
    const Json no_security = Json::array();
    auto operation = [](std::string_view id, std::string_view tag, std::string_view summary) {
        Json op = Json::object();
        op["operationId"] = id;
        op["tags"] = Json::array({tag});
        op["summary"] = summary;
        return op;
    };
    const Json customer_id = parameter_ref("customerId");
    const Json idempotency = parameter_ref("Idempotency-Key");

    {  // GET /healthz
        Json op = operation("getHealth", "service", "Liveness of the server");
        op["description"] = "Not an API call: no key, no envelope.";
        op["security"] = no_security;
        Json& ok = op["responses"]["200"];
        ok["description"] = "The server is up.";
        ok["content"]["application/json"]["schema"] = b.schema<wire::HealthStatus>();
        ok["content"]["application/json"]["examples"]["ok"]["value"] =
            example_value(R"({"status":"ok"})");
        paths["/healthz"]["get"] = std::move(op);
    }
    {  // GET /api/v1/openapi.json
        Json op = operation("getOpenApi", "service", "This document");
        op["description"] = "Not an API call: no key, no envelope.";
        op["security"] = no_security;
        Json& ok = op["responses"]["200"];
        ok["description"] = "The OpenAPI 3.1 document of the API.";
        ok["content"]["application/json"]["schema"]["type"] = "object";
        paths["/api/v1/openapi.json"]["get"] = std::move(op);
    }
    {  // /api/v1/customers
        Json post = operation("createCustomer", "customers", "Create a customer");
        post["parameters"] = Json::array({idempotency});
        post["requestBody"] = b.body<CustomerCreate>(
            true, false,
            {{"minimal", example_value(openapi_examples::customer_create_minimal)},
             {"collections", example_value(openapi_examples::customer_create_collections)}});
        Json& responses = post["responses"];
        responses["200"] = b.success<Customer>(
            "The customer was created.",
            {{"created",
              Json::raw(
                  std::string(
                      R"({"requestId":"9f1e2d3c-4b5a-4697-8877-665544332211","success":true,"data":)") +
                  std::string(openapi_examples::customer) + "}")}});
        add_common_errors(b, responses, true, true);
        responses["409"] = b.error({"duplicate_external_id", "idempotency_key_in_flight"});

        Json get = operation("findCustomers", "customers", "Find the customer with an externalId");
        get["parameters"] = Json::array({parameter_ref("externalId")});
        Json& get_responses = get["responses"];
        get_responses["200"] = b.success<wire::CustomerList>("The matching customers (0 or 1).");
        add_common_errors(b, get_responses, false, false, {"validation_failed"});

        Json& item = paths["/api/v1/customers"];
        item["get"] = std::move(get);
        item["post"] = std::move(post);
    }
    {  // POST /api/v1/customers/bulk
        Json post = operation("createCustomers", "customers", "Create up to 1000 customers");
        post["description"] =
            "Each item is validated and stored on its own, and reported in request order: a "
            "failed item (invalid, or a duplicate externalId) does not fail the others, and the "
            "response is 200 even when every item failed. 0 items or more than 1000 is 400.";
        post["parameters"] = Json::array({idempotency});
        post["requestBody"] = b.body<BulkCreateRequest>(
            true, false, {{"two", example_value(openapi_examples::bulk_request)}});
        Json& responses = post["responses"];
        responses["200"] = b.success<BulkResult>(
            "Every item was processed; see results[].success.",
            {{"partial",
              Json::raw(
                  std::string(
                      R"({"requestId":"9f1e2d3c-4b5a-4697-8877-665544332211","success":true,"data":)") +
                  std::string(openapi_examples::bulk_result) + "}")}});
        add_common_errors(b, responses, true, true);
        paths["/api/v1/customers/bulk"]["post"] = std::move(post);
    }
    {  // /api/v1/customers/{customerId}
        Json get = operation("getCustomer", "customers", "Read a customer");
        Json& get_responses = get["responses"];
        get_responses["200"] = b.success<Customer>("The customer.");
        get_responses["404"] = b.error({"not_found"});
        add_common_errors(b, get_responses, false, false);

        Json patch =
            operation("updateCustomer", "customers", "Update a customer (JSON Merge Patch)");
        patch["description"] =
            "RFC 7396 applied to the stored customer, then the merged customer is validated as a "
            "whole: null on a required member is `not_allowed`, clearing ssnLastFour or "
            "dateOfBirth of a customer with collections is a `conflict`. An empty object returns "
            "the customer unchanged. Error paths point into the merged customer.";
        patch["requestBody"] = b.body<CustomerPatch>(
            true, true, {{"change", example_value(openapi_examples::customer_patch)}});
        Json& patch_responses = patch["responses"];
        patch_responses["200"] = b.success<Customer>("The updated customer.");
        patch_responses["404"] = b.error({"not_found"});
        add_common_errors(b, patch_responses, true, false);

        Json& item = paths["/api/v1/customers/{customerId}"];
        item["parameters"] = Json::array({customer_id});
        item["get"] = std::move(get);
        item["patch"] = std::move(patch);
    }
    {  // /api/v1/customers/{customerId}/calls
        Json post = operation("createCall", "calls", "Start an agent call to a customer");
        post["description"] =
            "In order: the customer must exist (404), the body be valid (400), the agent be the "
            "account's (403); then every compliance check is evaluated. All pass: 200 and the "
            "call is placed. Any fails: 422 `compliance_failed` with the call object (not stored) "
            "as data.";
        post["parameters"] = Json::array({idempotency});
        post["requestBody"] = b.body<CallRequest>(
            true, false, {{"with webhook", example_value(openapi_examples::call_request)}});
        Json& responses = post["responses"];
        responses["200"] = b.success<Call>(
            "The call was placed.",
            {{"placed",
              Json::raw(
                  std::string(
                      R"({"requestId":"9f1e2d3c-4b5a-4697-8877-665544332211","success":true,"data":)") +
                  std::string(openapi_examples::call) + "}")}});
        responses["403"] = b.error({"agent_not_assigned"});
        responses["404"] = b.error({"not_found"});
        add_common_errors(b, responses, true, true);
        responses["422"] = b.error({"compliance_failed", "idempotency_key_reused"}, true);

        Json get = operation("listCalls", "calls", "List a customer's calls, newest first");
        Json& get_responses = get["responses"];
        get_responses["200"] = b.success<CallList>("The calls.");
        get_responses["404"] = b.error({"not_found"});
        add_common_errors(b, get_responses, false, false);

        Json& item = paths["/api/v1/customers/{customerId}/calls"];
        item["parameters"] = Json::array({customer_id});
        item["get"] = std::move(get);
        item["post"] = std::move(post);
    }
    for (auto [suffix, id, summary] :
         std::initializer_list<std::tuple<std::string_view, std::string_view, std::string_view>>{
             {"cease-and-desist", "ceaseAndDesist",
              "Record a cease-and-desist request: the customer is not called any more "
              "(idempotent)"},
             {"deactivate", "deactivateCustomer", "Deactivate a customer: calls fail is-active"},
             {"activate", "activateCustomer", "Activate a customer again"}}) {
        Json post = operation(id, "customers", summary);
        post["parameters"] = Json::array({idempotency});
        post["requestBody"] = Builder<>::empty_body();
        Json& responses = post["responses"];
        responses["200"] = b.success<Customer>("The customer.");
        responses["404"] = b.error({"not_found"});
        add_common_errors(b, responses, true, true);
        Json& item = paths["/api/v1/customers/{customerId}/" + std::string(suffix)];
        item["parameters"] = Json::array({customer_id});
        item["post"] = std::move(post);
    }
    {  // GET /api/v1/calls/{callId}
        Json get = operation("getCall", "calls", "Read a call with its status and events");
        get["parameters"] = Json::array({parameter_ref("callId")});
        Json& responses = get["responses"];
        responses["200"] = b.success<CallDetails>("The call.");
        responses["404"] = b.error({"not_found"});
        add_common_errors(b, responses, false, false);
        paths["/api/v1/calls/{callId}"]["get"] = std::move(get);
    }
    {  // POST /api/v1/webhook-secrets
        Json post = operation("createWebhookSecret", "webhooks", "Create a webhook signing secret");
        post["description"] =
            "With no body (or {}), a new secret (whsec_ and the base64 of 32 random bytes), shown "
            "only in this response. With {id, secret}, a secret brought from the hosted service "
            "is kept under its own id (an id the account has gets the new text; another "
            "account's is 409). Its id is the secretId of a call request's webhook.";
        post["parameters"] = Json::array({idempotency});
        post["requestBody"] = Builder<>::empty_body();
        Json& media = post["requestBody"]["content"]["application/json"];
        Json empty = std::move(media["schema"]);
        media["schema"] = Json::object();
        media["schema"]["oneOf"] = Json::array({std::move(empty), b.schema<WebhookSecretImport>()});
        post["requestBody"]["description"] = "No body, {}, or a secret to import.";
        Json& responses = post["responses"];
        responses["200"] = b.success<WebhookSecret>("The secret.");
        add_common_errors(b, responses, true, true);
        responses["409"] = b.error({"webhook_secret_taken", "idempotency_key_in_flight"});
        paths["/api/v1/webhook-secrets"]["post"] = std::move(post);
    }
    {  // GET /api/v1/calls/{callId}/recording
        Json get = operation("getCallRecording", "calls", "Download a call's recording");
        get["description"] =
            "The signed, time-limited recordingUrl of a call-ended webhook (valid 30 minutes): no "
            "key, no envelope. The audio is silence as long as the call (WAV, 8 kHz 8-bit mono). "
            "A signature that does not match is 404; a genuine link past its expiry is 403.";
        get["security"] = Json::array();
        Json parameters = Json::array({parameter_ref("callId")});
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
            parameters.push_back(std::move(p));
        }
        get["parameters"] = std::move(parameters);
        Json& responses = get["responses"];
        responses["200"]["description"] = "The recording.";
        responses["200"]["content"]["audio/wav"]["schema"]["type"] = "string";
        responses["200"]["content"]["audio/wav"]["schema"]["format"] = "binary";
        responses["403"] = b.error({"link_expired"});
        responses["404"] = b.error({"not_found"});
        paths["/api/v1/calls/{callId}/recording"]["get"] = std::move(get);
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
            "Makes a POST safe to retry: the same key with the same request within 24 hours "
            "replays the first response byte for byte. Keys are per account.";
        key["schema"]["type"] = "string";
        key["schema"]["minLength"] = 1;
        key["schema"]["maxLength"] = 255;
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
