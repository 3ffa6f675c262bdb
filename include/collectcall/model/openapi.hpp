// The example documents of the OpenAPI document (collectcall/api/openapi.hpp builds it), and the
// models it describes. Each model's schema notes (what its descriptions alone do not tell: a
// cross-field rule, what a PATCH may clear) live beside the model, in its own header.
#pragma once

#include <string_view>

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
    R"("updatedAt":"2026-11-20T15:00:00.000Z","restrictedMedia":[],"attorneyRepresented":false,)"
    R"("disputed":false})";

inline constexpr std::string_view restricted_media_update = R"({"media":["sms","email"]})";

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
    R"("createdAt":"2026-11-20T15:00:00.000Z","updatedAt":"2026-11-20T15:00:00.000Z",)"
    R"("restrictedMedia":[],"attorneyRepresented":false,"disputed":false}},)"
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
