// The schema rules of the models that their descriptions alone do not tell (cross-field rules,
// what a PATCH may clear), and the example documents of the OpenAPI document
// (collectcall/api/openapi.hpp builds it).
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

#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/model/address.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/bulk_call.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/client.hpp"
#include "collectcall/model/collections.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/envelope.hpp"
#include "collectcall/model/interaction.hpp"
#include "collectcall/model/signed_url.hpp"
#include "collectcall/model/webhook.hpp"

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

// ---- Interactions, clients, bulk calls (API.md section 13) -------------------------------------

namespace detail {

// A oneOf of the success and failure shapes of a bulk item: `success` true with `ok` required,
// or false with `failed` required.
inline void success_or_failure(SchemaBuilder& s, std::initializer_list<const char*> ok,
                               std::initializer_list<const char*> failed) {
    Json succeeded = Json::object();
    succeeded["properties"]["success"]["const"] = true;
    succeeded["required"] = Json::array({"success"});
    for (const char* name : ok)
        succeeded["required"].push_back(name);
    Json not_succeeded = Json::object();
    not_succeeded["properties"]["success"]["const"] = false;
    not_succeeded["required"] = Json::array({"success"});
    for (const char* name : failed)
        not_succeeded["required"].push_back(name);
    s["oneOf"] = Json::array({std::move(succeeded), std::move(not_succeeded)});
}

// A member of an object schema defaults to `value` when absent (or null).
inline void member_default(SchemaBuilder& s, std::string_view member, Json value) {
    if (Json* properties = s.schema().find("properties")) {
        if (Json* schema = properties->find(member)) (*schema)["default"] = std::move(value);
    }
}

}  // namespace detail

inline void collectcall_schema(schema_tag<EmailImportRequest>, SchemaBuilder& s) {
    s["description"] =
        "An e-mail to import. At least one of plainTextBody and htmlBody must have content, a "
        "character that is not white space (a `conflict` error otherwise). cc and bcc absent or "
        "null are empty lists.";
    Json any = Json::array();
    for (const char* body : {"plainTextBody", "htmlBody"}) {
        Json one = Json::object();
        one["required"] = Json::array({body});
        one["properties"][body]["type"] = "string";
        one["properties"][body]["pattern"] = schema_patterns::text_visible;
        any.push_back(std::move(one));
    }
    s["anyOf"] = std::move(any);
    detail::member_default(s, "cc", Json::array());
    detail::member_default(s, "bcc", Json::array());
}

inline void collectcall_schema(schema_tag<EmailInteractionData>, SchemaBuilder& s) {
    s["description"] =
        "A stored e-mail: the hosted EmailInteractionData, and (extension) its addresses, subject "
        "and bodies. messageId and a body without a value are left out.";
}

inline void collectcall_schema(schema_tag<SmsInteractionData>, SchemaBuilder& s) {
    s["description"] =
        "A stored SMS: the hosted SmsInteractionData, and (extension) from, to, body and "
        "segments.";
}

template <class Data>
void collectcall_schema(schema_tag<ImportItemResult<Data>>, SchemaBuilder& s) {
    detail::success_or_failure(s, {"interaction"}, {"index", "error"});
}

inline void collectcall_schema(schema_tag<SmsGenerateRequest>, SchemaBuilder& s) {
    s["description"] =
        "persist (default true) stores the generated SMS as an outbound interaction; then `to` "
        "is required (422 otherwise).";
    detail::member_default(s, "persist", true);
}

inline void collectcall_schema(schema_tag<EmailGenerateRequest>, SchemaBuilder& s) {
    s["description"] =
        "persist (default true) stores the generated e-mail as an outbound interaction.";
    detail::member_default(s, "persist", true);
}

inline void collectcall_schema(schema_tag<SmsGenerateResult>, SchemaBuilder& s) {
    s["description"] = "threadId is present only when the message was persisted.";
}

inline void collectcall_schema(schema_tag<EmailGenerateResult>, SchemaBuilder& s) {
    s["description"] = "threadId is present only when the e-mail was persisted.";
}

inline void collectcall_schema(schema_tag<AnalyzeInteractionRequest>, SchemaBuilder& s) {
    s["description"] =
        "applyOutcomes (default true) applies the outcomes to the customer: a written stop "
        "request sets cease-and-desist, and so on (docs/interactions.md).";
    detail::member_default(s, "applyOutcomes", true);
}

inline void collectcall_schema(schema_tag<BulkCallRequest>, SchemaBuilder& s) {
    s["description"] =
        "1 to 100 distinct customer ids (a repeated id is a `conflict` with the text "
        "\"customerIds must not contain duplicates\"), each called as a single call would be.";
    if (Json* properties = s.schema().find("properties")) {
        if (Json* ids = properties->find("customerIds")) (*ids)["uniqueItems"] = true;
    }
}

inline void collectcall_schema(schema_tag<CustomerInteraction>, SchemaBuilder& s) {
    s["description"] =
        "One interaction of the customer: its channel, when it happened, and its record under "
        "the member of that channel (sms, email, or call with the call's transcript once it "
        "has ended); the other members are left out.";
}

inline void collectcall_schema(schema_tag<BulkCallItemResult>, SchemaBuilder& s) {
    detail::success_or_failure(s, {"data"}, {"error"});
}

inline std::string collectcall_schema_name(schema_tag<SmsImportBulkRequest>) {
    return "SmsImportBulkRequest";
}
inline std::string collectcall_schema_name(schema_tag<EmailImportBulkRequest>) {
    return "EmailImportBulkRequest";
}
inline std::string collectcall_schema_name(schema_tag<SmsImportBulkResult>) {
    return "SmsImportBulkResult";
}
inline std::string collectcall_schema_name(schema_tag<EmailImportBulkResult>) {
    return "EmailImportBulkResult";
}
inline std::string collectcall_schema_name(schema_tag<ImportItemResult<SmsInteractionData>>) {
    return "SmsImportItemResult";
}
inline std::string collectcall_schema_name(schema_tag<ImportItemResult<EmailInteractionData>>) {
    return "EmailImportItemResult";
}

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
    R"({"externalId":"crm-10001","clientId":null,"firstName":"Ann","middleName":null,"lastName":"Lee",)"
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
    R"("customer":{"externalId":"crm-10001","clientId":null,"firstName":"Ann","middleName":null,)"
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

// The data of a 422 compliance_failed: the call that was not placed (07:00 in Austin).
inline constexpr std::string_view blocked_call =
    R"({"id":"6b7c8d9e-2f3a-4b4c-9d5e-6f7a8b9c0d1e","threadId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",)"
    R"("toPhoneNumber":"+15125550100","fromPhoneNumber":"+15125550111","compliance":{)"
    R"("passed":false,"checksPassed":[{"id":"is-active","name":"Is Active",)"
    R"("description":"Check if customer is active","reason":"Customer is active"},)"
    R"({"id":"cease-and-desist-exclusion","name":"Cease and Desist Exclusion",)"
    R"("description":"Prevent calling customers who have requested cease and desist",)"
    R"("reason":"Customer has not requested cease and desist"},)"
    R"({"id":"four-voice-call-per-day","name":"Four Voice Call Per Day",)"
    R"("description":"Check if customer has had four or fewer voice calls today within the current respectful hours window",)"
    R"("reason":"Customer has had 0 voice calls today within respectful hours window (America/Chicago), within the limit of 4"}],)"
    R"("checksFailed":[{"id":"respectful-hours","name":"Respectful Hours Check",)"
    R"("description":"Check if the customer's local time is within respectful hours",)"
    R"x("reason":"Customer local time is 07:00 (outside respectful hours 8am-8:50pm)"}]},)x"
    R"("createdAt":"2026-11-20T13:00:00.000Z","nextEligibleAt":"2026-11-20T14:00:00.000Z"})";

inline constexpr std::string_view sms_import =
    R"({"direction":"inbound","timestamp":"2026-11-20T14:58:00Z","from":"+15125550100",)"
    R"("to":"+15125550111","body":"Can you call me back tomorrow?"})";

inline constexpr std::string_view sms_interaction =
    R"({"id":"2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e","threadId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",)"
    R"("channel":"sms","direction":"inbound","customerId":"7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a",)"
    R"("timestamp":"2026-11-20T14:58:00.000Z","createdAt":"2026-11-20T15:00:00.000Z",)"
    R"("from":"+15125550100","to":"+15125550111","body":"Can you call me back tomorrow?",)"
    R"("segments":1})";

inline constexpr std::string_view email_import =
    R"({"direction":"inbound","timestamp":"2026-11-20T14:30:00Z","from":"ann.lee@example.com",)"
    R"("to":["accounts@collector.example"],"subject":"My account",)"
    R"("plainTextBody":"I dispute this debt. Please send me the details.",)"
    R"("messageId":"abc123@mail.example.com"})";

inline constexpr std::string_view email_interaction =
    R"({"id":"3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f","messageId":"abc123@mail.example.com",)"
    R"("threadId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f","channel":"email","direction":"inbound",)"
    R"("customerId":"7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a","timestamp":"2026-11-20T14:30:00.000Z",)"
    R"("createdAt":"2026-11-20T15:00:00.000Z","from":"ann.lee@example.com",)"
    R"("to":["accounts@collector.example"],"cc":[],"bcc":[],"subject":"My account",)"
    R"("plainTextBody":"I dispute this debt. Please send me the details."})";

inline constexpr std::string_view sms_import_bulk_result =
    R"({"summary":{"total":2,"succeeded":1,"failed":1},"results":[{"success":true,"interaction":)"
    R"({"id":"2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e","threadId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",)"
    R"("channel":"sms","direction":"inbound","customerId":"7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a",)"
    R"("timestamp":"2026-11-20T14:58:00.000Z","createdAt":"2026-11-20T15:00:00.000Z",)"
    R"("from":"+15125550100","to":"+15125550111","body":"Can you call me back tomorrow?",)"
    R"("segments":1}},{"success":false,"index":1,)"
    R"("error":"validation failed: /from: must be E.164: + then 2 to 15 digits, first digit 1-9",)"
    R"("details":[{"path":"/from","code":"format",)"
    R"("message":"must be E.164: + then 2 to 15 digits, first digit 1-9"}]}]})";

inline constexpr std::string_view sms_generate_request =
    R"({"from":"+15125550111","to":"+15125550100"})";

inline constexpr std::string_view sms_generate_result =
    R"({"message":"Hi Ann, thank you. An agent will call you back during business hours. )"
    R"(Reply STOP to opt out.","threadId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"})";

inline constexpr std::string_view analyze_result =
    R"({"interactionId":"2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e","channel":"sms",)"
    R"("outputVariables":{"stop-requests":false,"human-follow-up-requested":true,)"
    R"("payment-promised":false,"dispute":false,"attorney-represented":false}})";

inline constexpr std::string_view client_create = R"({"name":"Acme Corp"})";

inline constexpr std::string_view client_list =
    R"([{"id":"550e8400-e29b-41d4-a716-446655440000","name":"Acme Corp"},)"
    R"({"id":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","name":"Globex Inc"}])";

inline constexpr std::string_view bulk_call_request =
    R"({"agentId":"agent-7","customerIds":["7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a",)"
    R"("8e1d3b6a-4f1f-4a9f-8a7b-1d4c2e3f5a6b"]})";

inline constexpr std::string_view signed_url_request =
    R"({"callId":"5a6b7c8d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"})";

inline constexpr std::string_view validation_failed =
    R"({"requestId":"9f1e2d3c-4b5a-4697-8877-665544332211","success":false,"data":null,)"
    R"("error":{"code":"validation_failed","message":"2 fields are invalid","details":[)"
    R"({"path":"/address/zip","code":"format","message":"must be 12345 or 12345-1234"},)"
    R"({"path":"/primaryPhone","code":"required","message":"is required"}]},)"
    R"("publicFacingMessage":"2 fields are invalid"})";

}  // namespace openapi_examples

}  // namespace collectcall
