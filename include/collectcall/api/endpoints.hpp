// The endpoints of the HTTP API (SPEC.md section 4, API.md sections 1, 2, 5 and 10), one
// `endpoint<Operation>` each: its route (method, path, access, body and its limit, its own
// errors), the types of its body and its answer, and the text of its OpenAPI operation. The
// route table (api/routes.hpp), the example server's dispatch and the OpenAPI document
// (api/openapi.hpp) are all made from these, so they cannot disagree.
//
// Adding an endpoint: its name in `Operation`, its `endpoint<>` below, and one handler in the
// server (examples/server/handlers/), which the build demands.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include "collectcall/api/errors.hpp"
#include "collectcall/api/limits.hpp"
#include "collectcall/api/route.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/extern.hpp"
#include "collectcall/model/account.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/bulk_call.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/client.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/drip_campaign.hpp"
#include "collectcall/model/interaction.hpp"
#include "collectcall/model/openapi.hpp"
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

// ---- The endpoints ----------------------------------------------------------------------------

// Every operation, in the order of the route table and the OpenAPI document; its operationId
// is its name in camel case (create_customer -> createCustomer).
BOOST_DEFINE_ENUM_CLASS(Operation, get_health, get_readiness, get_metrics, get_open_api,
                        create_customer, find_customers, create_customers, get_customer,
                        update_customer, create_call, list_calls, cease_and_desist,
                        deactivate_customer, activate_customer, get_call, get_call_recording,
                        create_webhook_secret, create_calls, get_signed_url, list_clients,
                        create_client, import_sms, import_sms_bulk, import_email, import_email_bulk,
                        generate_sms, generate_email, list_interactions, analyze_interaction,
                        get_account, do_not_call, set_restricted_media, list_compliance_decisions,
                        enrol_drip_campaign, list_drip_campaigns, cancel_drip_campaign)

// One endpoint: `static constexpr Route route`, `using body` (what it reads; null_t: nothing),
// `using data` (what it answers with, inside the envelope for an API call) and
// `static OperationText text()`.
template <Operation>
struct endpoint;

// -- service: documents that are not API calls

template <>
struct endpoint<Operation::get_health> {
    static constexpr Route route{.method = "GET",
                                 .path = "/healthz",
                                 .tag = "service",
                                 .summary = "Liveness of the server",
                                 .access = Access::document};
    using body = null_t;
    using data = HealthStatus;
    static OperationText text() {
        return {
            .description = "Not an API call: no key, no envelope. Liveness: the process answers.",
            .success = "The server is up.",
            .answer_examples = {{"ok", R"({"status":"ok"})"}}};
    }
};

template <>
struct endpoint<Operation::get_readiness> {
    static constexpr Route route{.method = "GET",
                                 .path = "/readyz",
                                 .tag = "service",
                                 .summary = "Readiness: the storage answers (503 when it does not)",
                                 .access = Access::document};
    using body = null_t;
    using data = HealthStatus;
    static OperationText text() {
        return {.description =
                    "Not an API call: no key, no envelope. 503 "
                    "{\"status\":\"unavailable\"} while the storage does not answer.",
                .success = "The server can serve.",
                .answer_examples = {{"ready", R"({"status":"ready"})"}}};
    }
};

template <>
struct endpoint<Operation::get_metrics> {
    static constexpr Route route{.method = "GET",
                                 .path = "/metrics",
                                 .tag = "service",
                                 .summary = "Metrics in the Prometheus text format",
                                 .access = Access::document};
    using body = null_t;
    using data = std::string;  // text/plain; version=0.0.4
    static OperationText text() {
        return {.description = "Not an API call: no key, no envelope. 404 when metrics are off.",
                .success = "The metrics."};
    }
};

template <>
struct endpoint<Operation::get_open_api> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/openapi.json",
                                 .tag = "service",
                                 .summary = "This document",
                                 .access = Access::document};
    using body = null_t;
    using data = std::string;  // this document
    static OperationText text() {
        return {.description = "Not an API call: no key, no envelope.",
                .success = "The OpenAPI 3.1 document of the API."};
    }
};

// -- customers

template <>
struct endpoint<Operation::create_customer> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/customers",
                                 .tag = "customers",
                                 .summary = "Create a customer",
                                 .body = Body::json,
                                 .errors = {&errors::duplicate_external_id}};
    using body = CustomerCreate;
    using data = Customer;
    static OperationText text() {
        return {
            .success = "The customer was created.",
            .request_examples = {{"minimal", openapi_examples::customer_create_minimal},
                                 {"collections", openapi_examples::customer_create_collections}},
            .answer_examples = {{"created", openapi_examples::customer}}};
    }
};

template <>
struct endpoint<Operation::find_customers> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/customers",
                                 .tag = "customers",
                                 .summary = "Find the customer with an externalId",
                                 .query = Query::external_id,
                                 .errors = {&errors::validation_failed}};
    using body = null_t;
    using data = CustomerList;
    static OperationText text() { return {.success = "The matching customers (0 or 1)."}; }
};

template <>
struct endpoint<Operation::create_customers> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/customers/bulk",
                                 .tag = "customers",
                                 .summary = "Create many customers at once",
                                 .body = Body::json,
                                 .max_body = max_bulk_body};
    using body = BulkCreateRequest;
    using data = BulkResult;
    static OperationText text() {
        return {.description =
                    "Each item is validated and stored on its own, and reported in request order: "
                    "a failed item (invalid, or a duplicate externalId) does not fail the others, "
                    "and the response is 200 even when every item failed. 0 items or more than " +
                    std::to_string(max_bulk_items) + " is 400.",
                .success = "Every item was processed; see results[].success.",
                .request_examples = {{"two", openapi_examples::bulk_request}},
                .answer_examples = {{"partial", openapi_examples::bulk_result}}};
    }
};

template <>
struct endpoint<Operation::get_customer> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/customers/{customerId}",
                                 .tag = "customers",
                                 .summary = "Read a customer",
                                 .errors = {&errors::not_found}};
    using body = null_t;
    using data = Customer;
    static OperationText text() { return {.success = "The customer."}; }
};

template <>
struct endpoint<Operation::update_customer> {
    static constexpr Route route{.method = "PATCH",
                                 .path = "/api/v1/customers/{customerId}",
                                 .tag = "customers",
                                 .summary = "Update a customer (JSON Merge Patch)",
                                 .body = Body::merge_patch,
                                 .errors = {&errors::not_found}};
    using body = CustomerPatch;
    using data = Customer;
    static OperationText text() {
        return {.description =
                    "RFC 7396 applied to the stored customer, then the merged customer is "
                    "validated as a whole: null on a required member is `not_allowed`, clearing "
                    "ssnLastFour or dateOfBirth of a customer with collections is a `conflict`. "
                    "An empty object returns the customer unchanged. Error paths point into the "
                    "merged customer.",
                .success = "The updated customer.",
                .request_examples = {{"change", openapi_examples::customer_patch}}};
    }
};

// -- calls

template <>
struct endpoint<Operation::create_call> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/calls",
        .tag = "calls",
        .summary = "Start an agent call to a customer",
        .body = Body::json,
        .errors = {&errors::not_found, &errors::agent_not_assigned, &errors::compliance_failed}};
    using body = CallRequest;
    using data = Call;
    static OperationText text() {
        return {.description =
                    "In order: the customer must exist (404), the body be valid (400), the agent "
                    "be the account's (403); then every compliance check is evaluated. All pass: "
                    "200 and the call is placed. Any fails: 422 `compliance_failed` with the call "
                    "object (not stored) as data.",
                .success = "The call was placed.",
                .request_examples = {{"with webhook", openapi_examples::call_request}},
                .answer_examples = {{"placed", openapi_examples::call}}};
    }
};

template <>
struct endpoint<Operation::list_calls> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/customers/{customerId}/calls",
                                 .tag = "calls",
                                 .summary = "List a customer's calls, newest first",
                                 .query = Query::page,
                                 .errors = {&errors::not_found, &errors::validation_failed}};
    using body = null_t;
    using data = CallList;
    static OperationText text() { return {.success = "The calls."}; }
};

// -- customers: the flags that decide whether a customer is called

template <>
struct endpoint<Operation::cease_and_desist> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/cease-and-desist",
        .tag = "customers",
        .summary =
            "Record a cease-and-desist request: the customer is not called any more (idempotent)",
        .body = Body::empty_or_json,
        .errors = {&errors::not_found}};
    using body = EmptyObject;
    using data = Customer;
    static OperationText text() { return {.success = "The customer."}; }
};

template <>
struct endpoint<Operation::deactivate_customer> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/customers/{customerId}/deactivate",
                                 .tag = "customers",
                                 .summary = "Deactivate a customer: calls fail is-active",
                                 .body = Body::empty_or_json,
                                 .errors = {&errors::not_found}};
    using body = EmptyObject;
    using data = Customer;
    static OperationText text() { return {.success = "The customer."}; }
};

template <>
struct endpoint<Operation::activate_customer> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/customers/{customerId}/activate",
                                 .tag = "customers",
                                 .summary = "Activate a customer again",
                                 .body = Body::empty_or_json,
                                 .errors = {&errors::not_found}};
    using body = EmptyObject;
    using data = Customer;
    static OperationText text() { return {.success = "The customer."}; }
};

// -- calls: reading them

template <>
struct endpoint<Operation::get_call> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/calls/{callId}",
                                 .tag = "calls",
                                 .summary = "Read a call with its status and events",
                                 .errors = {&errors::not_found}};
    using body = null_t;
    using data = CallDetails;
    static OperationText text() { return {.success = "The call."}; }
};

template <>
struct endpoint<Operation::get_call_recording> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/calls/{callId}/recording",
                                 .tag = "calls",
                                 .summary = "Download a call's recording",
                                 .access = Access::document,
                                 .errors = {&errors::not_found, &errors::link_expired}};
    using body = null_t;
    using data = std::string;  // audio/wav
    static OperationText text() {
        return {.description =
                    "The signed, time-limited recordingUrl of a call-ended webhook (valid 30 "
                    "minutes): no key, no envelope. The audio is silence as long as the call (WAV, "
                    "8 kHz 8-bit mono). A signature that does not match is 404; a genuine link "
                    "past its expiry is 403.",
                .success = "The recording."};
    }
};

// -- webhooks

template <>
struct endpoint<Operation::create_webhook_secret> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/webhook-secrets",
                                 .tag = "webhooks",
                                 .summary = "Create or import a webhook signing secret",
                                 .body = Body::empty_or_json,
                                 .errors = {&errors::webhook_secret_taken}};
    using body = WebhookSecretImport;  // or no body, or {}: a new secret
    using data = WebhookSecret;
    static OperationText text() {
        return {.description =
                    "With no body (or {}), a new secret (whsec_ and the base64 of 32 random "
                    "bytes), shown only in this response. With {id, secret}, a secret brought "
                    "from the hosted service is kept under its own id (an id the account has gets "
                    "the new text; another account's is 409). Its id is the secretId of a call "
                    "request's webhook.",
                .success = "The secret."};
    }
};

// -- the rest of the hosted API (API.md section 13): bulk calls and recordings

template <>
struct endpoint<Operation::create_calls> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/calls/bulk",
        .tag = "calls",
        .summary = "Start agent calls to up to 100 customers, each as a single call",
        .body = Body::json,
        .errors = {&errors::agent_not_assigned}};
    using body = BulkCallRequest;
    using data = BulkCallResult;
    static OperationText text() {
        return {.description =
                    "The whole request is checked first: the body (400; a repeated customer id "
                    "is 400 `customerIds must not contain duplicates`), the agent (403), the "
                    "webhook (400). Then each customer in request order exactly as POST "
                    "/customers/{customerId}/calls would call it (the same compliance, the same "
                    "daily count however single and bulk calls interleave): placed, {customerId, "
                    "success: true, data: the call}; not, {customerId, success: false, error} "
                    "with `Customer not found` or the compliance message, and the blocked call's "
                    "compliance and nextEligibleAt (null when no time will do).",
                .success = "Every customer was processed; see results[].success.",
                .request_examples = {{"two", openapi_examples::bulk_call_request}}};
    }
};

template <>
struct endpoint<Operation::get_signed_url> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/calls/get-signed-url",
                                 .tag = "calls",
                                 .summary = "A signed, time-limited link to a call's recording",
                                 .body = Body::json,
                                 .errors = {&errors::not_found}};
    using body = SignedUrlRequest;
    using data = SignedUrl;
    static OperationText text() {
        return {.description =
                    "The same signed link as the recordingUrl of the call's call-ended webhook, "
                    "valid 30 minutes. 404 `Call not found` for an unknown call, another "
                    "account's, and a call without a recording (still in progress, or never "
                    "answered).",
                .success = "The link.",
                .request_examples = {{"call", openapi_examples::signed_url_request}}};
    }
};

// -- clients

template <>
struct endpoint<Operation::list_clients> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/clients",
                                 .tag = "clients",
                                 .summary = "List the account's clients, newest first",
                                 .query = Query::page,
                                 .errors = {&errors::validation_failed}};
    using body = null_t;
    using data = ClientList;
    static OperationText text() {
        return {.description =
                    "data is the array of clients itself, as the hosted service answers; a "
                    "page that is not the last gives the next in a Link header (rel=\"next\").",
                .success = "The clients, newest first.",
                .answer_examples = {{"two", openapi_examples::client_list}}};
    }
};

template <>
struct endpoint<Operation::create_client> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/clients",
        .tag = "clients",
        .summary = "Create a client, or keep one under the id it has at the hosted service",
        .body = Body::json,
        .errors = {&errors::client_taken}};
    using body = ClientCreate;
    using data = Client;
    static OperationText text() {
        return {.description =
                    "Without id, a new client. With id (the client's id at the hosted service), "
                    "the client is kept under it; an id the account has already is renamed, "
                    "another account's is 409.",
                .success = "The client.",
                .request_examples = {{"new", openapi_examples::client_create}}};
    }
};

// -- interactions: the SMS and e-mails of a customer's conversation

// What every import says of its interaction.
inline constexpr std::string_view import_description =
    "Stored as a record of the customer's conversation (without threadId, the customer's thread; "
    "an SMS without segments gets the count a carrier would make). Kept with the customer's "
    "other records until three years after its last collection activity (12 CFR 1006.100).";
inline constexpr std::string_view bulk_import_description =
    "1 to 100 items, each validated and stored on its own and reported in request order: "
    "{success: true, interaction} or {success: false, index, error, details}.";

template <>
struct endpoint<Operation::import_sms> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/customers/{customerId}/interactions/sms/import",
                                 .tag = "interactions",
                                 .summary = "Import an SMS of the customer's conversation",
                                 .body = Body::json,
                                 .errors = {&errors::not_found}};
    using body = SmsImportRequest;
    using data = SmsInteractionData;
    static OperationText text() {
        return {.description = std::string(import_description),
                .success = "The stored SMS.",
                .request_examples = {{"inbound", openapi_examples::sms_import}},
                .answer_examples = {{"stored", openapi_examples::sms_interaction}}};
    }
};

template <>
struct endpoint<Operation::import_sms_bulk> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/interactions/sms/import/bulk",
        .tag = "interactions",
        .summary = "Import up to 100 SMS at once",
        .body = Body::json,
        .max_body = max_bulk_body,
        .errors = {&errors::not_found}};
    using body = SmsImportBulkRequest;
    using data = SmsImportBulkResult;
    static OperationText text() {
        return {.description = std::string(bulk_import_description),
                .success = "Every item was processed; see results[].success.",
                .answer_examples = {{"partial", openapi_examples::sms_import_bulk_result}}};
    }
};

template <>
struct endpoint<Operation::import_email> {
    static constexpr Route route{.method = "POST",
                                 .path = "/api/v1/customers/{customerId}/interactions/email/import",
                                 .tag = "interactions",
                                 .summary = "Import an e-mail of the customer's conversation",
                                 .body = Body::json,
                                 .errors = {&errors::not_found}};
    using body = EmailImportRequest;
    using data = EmailInteractionData;
    static OperationText text() {
        return {.description = std::string(import_description),
                .success = "The stored e-mail.",
                .request_examples = {{"inbound", openapi_examples::email_import}},
                .answer_examples = {{"stored", openapi_examples::email_interaction}}};
    }
};

template <>
struct endpoint<Operation::import_email_bulk> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/interactions/email/import/bulk",
        .tag = "interactions",
        .summary = "Import up to 100 e-mails at once",
        .body = Body::json,
        .max_body = max_bulk_body,
        .errors = {&errors::not_found}};
    using body = EmailImportBulkRequest;
    using data = EmailImportBulkResult;
    static OperationText text() {
        return {.description = std::string(bulk_import_description),
                .success = "Every item was processed; see results[].success."};
    }
};

template <>
struct endpoint<Operation::generate_sms> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/interactions/sms/generate",
        .tag = "interactions",
        .summary = "Write the next SMS to the customer, and send it (persist)",
        .body = Body::json,
        .errors = {&errors::not_found, &errors::recipient_required, &errors::compliance_failed}};
    using body = SmsGenerateRequest;
    using data = SmsGenerateResult;
    static OperationText text() {
        return {.description =
                    "Written from fixed templates (docs/interactions.md): the customer's first "
                    "name and an answer to the thread's last inbound message, one GSM-7 segment. "
                    "With persist (the default) the SMS is sent: `to` is required (422), the SMS "
                    "compliance checks must pass (422 `compliance_failed` with {message, "
                    "compliance} as data), and it is stored as an outbound interaction of the "
                    "thread.",
                .success = "The message; threadId when it was persisted.",
                .request_examples = {{"send", openapi_examples::sms_generate_request}},
                .answer_examples = {{"sent", openapi_examples::sms_generate_result}}};
    }
};

template <>
struct endpoint<Operation::generate_email> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/interactions/email/generate",
        .tag = "interactions",
        .summary = "Write the next e-mail to the customer, and send it (persist)",
        .body = Body::json,
        .errors = {&errors::not_found}};
    using body = EmailGenerateRequest;
    using data = EmailGenerateResult;
    static OperationText text() {
        return {.description =
                    "Written from fixed templates (docs/interactions.md) in plain text and HTML. "
                    "With persist (the default) it is stored as an outbound e-mail of the "
                    "thread, to the customer's address.",
                .success = "The message; threadId when it was persisted."};
    }
};

template <>
struct endpoint<Operation::list_interactions> {
    static constexpr Route route{
        .method = "GET",
        .path = "/api/v1/customers/{customerId}/interactions",
        .tag = "interactions",
        .summary = "List the customer's calls, SMS and e-mails, newest first",
        .query = Query::page,
        .errors = {&errors::not_found, &errors::validation_failed}};
    using body = null_t;
    using data = InteractionList;
    static OperationText text() {
        return {.description =
                    "Every call, SMS and e-mail of the customer, newest first, each under the "
                    "member of its channel (a call with its transcript once it has ended).",
                .success = "The interactions."};
    }
};

template <>
struct endpoint<Operation::analyze_interaction> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/interactions/{interactionId}/analyze",
        .tag = "interactions",
        .summary = "Analyse an SMS, an e-mail or a call, and apply its outcomes",
        .body = Body::empty_or_json,
        .errors = {&errors::not_found, &errors::analysis_skipped}};
    using body = AnalyzeInteractionRequest;  // or no body: applyOutcomes true
    using data = AnalyzeInteractionResult;
    static OperationText text() {
        return {.description =
                    "The rule-based analyser (docs/interactions.md) on the customer's words: an "
                    "inbound SMS or e-mail, or a call's turns of the customer. Stored once: a "
                    "second analysis returns the first. With applyOutcomes (the default) its "
                    "outcomes are recorded on the customer, once: a stop request in writing is a "
                    "cease-and-desist, in a call it stops calls; attorney representation and a "
                    "dispute are recorded. 400 `Analysis was skipped.` when there are no such "
                    "words (an outbound message, an unanswered call).",
                .success = "The analysis.",
                .answer_examples = {{"analysed", openapi_examples::analyze_result}}};
    }
};

// -- compliance (API.md section 14): the account's policy, a request not to be called, and the
// record of decisions

template <>
struct endpoint<Operation::get_account> {
    static constexpr Route route{.method = "GET",
                                 .path = "/api/v1/account",
                                 .tag = "compliance",
                                 .summary = "Read the caller's account and its settings"};
    using body = null_t;
    using data = Account;
    static OperationText text() {
        return {.description =
                    "Extension. The settings init gave the account: its compliance policy "
                    "(hosted or regulation-f), the respectful-hours window, the daily call limit, "
                    "the caller-number pool and the drip campaigns.",
                .success = "The account."};
    }
};

template <>
struct endpoint<Operation::do_not_call> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/do-not-call",
        .tag = "customers",
        .summary = "Record the customer's request not to be called (idempotent)",
        .body = Body::empty_or_json,
        .errors = {&errors::not_found}};
    using body = EmptyObject;
    using data = Customer;
    static OperationText text() {
        return {.description =
                    "Extension. Restricts the calls: \"call\" is added to the customer's "
                    "restrictedMedia (12 CFR 1006.14(h)); texts and e-mail are other media. The "
                    "change is recorded in the compliance decisions (operation `standing`).",
                .success = "The customer."};
    }
};

template <>
struct endpoint<Operation::set_restricted_media> {
    static constexpr Route route{
        .method = "PUT",
        .path = "/api/v1/customers/{customerId}/restricted-media",
        .tag = "customers",
        .summary = "Set the media the customer asked not to be contacted by",
        .body = Body::json,
        .errors = {&errors::not_found}};
    using body = RestrictedMediaUpdate;
    using data = Customer;
    static OperationText text() {
        return {
            .description =
                "Extension. Replaces the customer's restrictedMedia with `media` (\"call\", "
                "\"sms\", \"email\", each at most once; `[]` clears them): an operator records "
                "a request the customer made elsewhere, or clears one recorded in error. An "
                "unknown medium or a repeated one is 400 at its place (/media/<index>). A "
                "change is recorded in the compliance decisions (operation `standing`, cause "
                "`restricted-media`); setting the media the customer has changes nothing.",
            .success = "The customer.",
            .request_examples = {{"texts and e-mail", openapi_examples::restricted_media_update}}};
    }
};

template <>
struct endpoint<Operation::list_compliance_decisions> {
    static constexpr Route route{
        .method = "GET",
        .path = "/api/v1/customers/{customerId}/compliance-decisions",
        .tag = "compliance",
        .summary = "List the compliance decisions about a customer, newest first",
        .query = Query::page,
        .errors = {&errors::not_found, &errors::validation_failed}};
    using body = null_t;
    using data = ComplianceDecisionList;
    static OperationText text() {
        return {.description =
                    "Extension. Every evaluation (a call, a bulk call's item, a drip campaign's "
                    "step, an SMS) with its instant, operation, policy, candidate zones and their "
                    "local times, counts, every check with its reason, the outcome and the next "
                    "eligible time; the 1000 newest. Kept 3 years (12 CFR 1006.100).",
                .success = "The decisions."};
    }
};

// -- drip campaigns (API.md section 15): enrolment, its state, its cancellation

template <>
struct endpoint<Operation::enrol_drip_campaign> {
    static constexpr Route route{
        .method = "POST",
        .path = "/api/v1/customers/{customerId}/drip-campaigns",
        .tag = "drip-campaigns",
        .summary = "Enrol the customer in a drip campaign",
        .body = Body::json,
        .errors = {&errors::not_found, &errors::already_enrolled, &errors::compliance_failed}};
    using body = DripEnrolRequest;
    using data = DripEnrolment;
    static OperationText text() {
        return {.description =
                    "The campaign is one of the account's (`init --campaign`; an unknown name is "
                    "400 with a not_found detail at /campaignName). The steps run in order, each "
                    "due at the later of its days x 24 h after the enrolment and the run of the "
                    "step before it plus the days between them, and at the first instant, at or "
                    "after that, at which its compliance passes (nextEligibleAt, computed for the "
                    "sequence): a call step places a call as POST .../calls does (after any call "
                    "in progress has ended), an SMS step sends a generated SMS. The webhook "
                    "receives drip-campaign.call-created, drip-campaign.call-ended and "
                    "drip-campaign.sms. 409 while the customer's enrolment in the same campaign "
                    "has not finished; 422 `compliance_failed` for a customer who can never be "
                    "contacted (inactive, cease-and-desist), its data the first step's compliance "
                    "with nextEligibleAt (null), recorded as a decision (operation enrolment). "
                    "The answer's shape is an extension: the hosted document shows none.",
                .success = "The enrolment, every step pending."};
    }
};

template <>
struct endpoint<Operation::list_drip_campaigns> {
    static constexpr Route route{
        .method = "GET",
        .path = "/api/v1/customers/{customerId}/drip-campaigns",
        .tag = "drip-campaigns",
        .summary = "List the customer's drip campaign enrolments, newest first",
        .query = Query::page,
        .errors = {&errors::not_found, &errors::validation_failed}};
    using body = null_t;
    using data = DripEnrolmentList;
    static OperationText text() {
        return {.description =
                    "Extension. Each enrolment with its steps: when each is due, "
                    "when it runs next (nextEligibleAt), when it ran and what it made.",
                .success = "The enrolments."};
    }
};

template <>
struct endpoint<Operation::cancel_drip_campaign> {
    static constexpr Route route{
        .method = "DELETE",
        .path = "/api/v1/customers/{customerId}/drip-campaigns/{dripCampaignId}",
        .tag = "drip-campaigns",
        .summary = "Cancel the customer's drip campaign",
        .body = Body::empty_or_json,
        .errors = {&errors::not_found, &errors::drip_campaign_finished}};
    using body = DripCancelRequest;
    using data = DripEnrolment;
    static OperationText text() {
        return {.description =
                    "Its pending steps do not run. The reason (customer-converted, "
                    "customer-engaged) is recorded as canceledReason. 404 for an enrolment the "
                    "customer does not have; 409 for one that has completed or was canceled "
                    "already (nothing is left to cancel).",
                .success = "The enrolment, canceled."};
    }
};

// ---- The separately compiled part of the library ----------------------------------------------

namespace detail {

template <class T, class List>
inline constexpr bool listed_v = boost::mp11::mp_contains<List, T>::value;
template <class T>
inline constexpr bool listed_document_v = listed_v<T, collectcall::detail::separate_documents> ||
                                          listed_v<T, collectcall::detail::separate_bodies>;

// Text (a page's cursor: text or null), or a list of listed documents.
template <class T>
inline constexpr bool plain_part_v =
    std::is_same_v<T, std::string> || std::is_same_v<T, std::optional<std::string>>;
template <class T, class A>
inline constexpr bool plain_part_v<std::vector<T, A>> = listed_document_v<T>;

// What an answer may be: a listed document, a plain part, or a shape of the wire made of plain
// parts (CustomerList, HealthStatus, the paged lists), whose writing is a few lines around the
// separately compiled writer.
template <class T>
inline constexpr bool written_apart_v = [] {
    if constexpr (listed_document_v<T> || plain_part_v<T>) {
        return true;
    } else if constexpr (Described<T>) {
        return []<template <class...> class L, class... D>(L<D...>) {
            return (plain_part_v<std::remove_cvref_t<decltype(std::declval<T&>().*D::pointer)>> &&
                    ...);
        }(described_members<T>{});
    } else {
        return false;
    }
}();

// What a body may be: a listed one, or none.
template <class T>
inline constexpr bool read_apart_v =
    std::is_same_v<T, null_t> || listed_v<T, collectcall::detail::separate_bodies>;

// The separately compiled mode (collectcall/extern.hpp) compiles each endpoint's body and answer
// once: an endpoint whose types are not in its lists does not compile (the error names it).
template <Operation Op>
struct compiled_apart {
    static_assert(read_apart_v<typename endpoint<Op>::body>,
                  "this endpoint's body is missing from COLLECTCALL_SEPARATE_BODIES "
                  "(collectcall/extern.hpp)");
    static_assert(written_apart_v<typename endpoint<Op>::data>,
                  "this endpoint's data is missing from COLLECTCALL_SEPARATE_DOCUMENTS "
                  "(collectcall/extern.hpp)");
    static constexpr bool value = true;
};

inline constexpr bool every_endpoint_compiled_apart = [] {
    bool all = true;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<Operation>>(
        [&](auto D) { all = all && compiled_apart<D.value>::value; });
    return all;
}();
static_assert(every_endpoint_compiled_apart);

}  // namespace detail

}  // namespace collectcall::api
