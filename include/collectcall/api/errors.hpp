// The error codes of the HTTP API as data (API.md sections 2 and 3): each with its status, the
// condition it stands for and an example message. The example server answers from this table
// and the OpenAPI document lists it, so the two cannot disagree. The texts that clients of the
// hosted service match on are here too, word for word.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "collectcall/model/interaction.hpp"

namespace collectcall::api {

struct ErrorCode {
    std::string_view code;
    int status = 0;
    std::string_view when;     // the condition, as the OpenAPI document describes it
    std::string_view example;  // an example error.message
};

// The texts of the hosted service's answers (API.md section 3).
inline constexpr std::string_view unauthorized_message =
    "Unauthorized. Make sure to pass the correct authorization token.";
inline constexpr std::string_view customer_not_found_message = "Customer not found";
// The project's own 404 texts: a call, a recording link that is not genuine, a path no route has.
inline constexpr std::string_view call_not_found_message = "Call not found";
inline constexpr std::string_view recording_not_found_message = "Recording not found";
inline constexpr std::string_view no_route_message = "no such route";
// A customer's enrolment in a drip campaign that is not there (API.md section 15).
inline constexpr std::string_view drip_campaign_not_found_message = "Drip campaign not found";

// 409 of a single create.
[[nodiscard]] inline std::string duplicate_external_id_message(std::string_view external_id) {
    std::string out = "A customer with external ID '";
    out += external_id;
    out += "' already exists.";
    return out;
}

// The bulk item's duplicate text is the library's: bulk_duplicate_message (model/bulk.hpp).

namespace errors {
inline constexpr ErrorCode malformed_json{"malformed_json", 400,
                                          "the body is not JSON, or is malformed JSON",
                                          "malformed JSON at byte 12: TAPE_ERROR"};
inline constexpr ErrorCode validation_failed{
    "validation_failed", 400, "a field is invalid (all such errors are listed in error.details)",
    "2 fields are invalid"};
inline constexpr ErrorCode analysis_skipped{
    "analysis_skipped", 400,
    "the interaction has none of the customer's words to analyse (an unanswered call, an "
    "outbound message)",
    analysis_skipped_message};
inline constexpr ErrorCode bad_request{
    "bad_request", 400,
    "the request could not be read (conflicting framing headers, an unreadable body)",
    "the request body could not be read"};
inline constexpr ErrorCode unauthorized{
    "unauthorized", 401, "the bearer key is missing, malformed or unknown", unauthorized_message};
inline constexpr ErrorCode agent_not_assigned{"agent_not_assigned", 403,
                                              "agentId is not an agent of the caller's account",
                                              "agentId is not assigned to this account"};
inline constexpr ErrorCode link_expired{
    "link_expired", 403, "a signed link (a call's recordingUrl) is genuine but has expired",
    "the recording link has expired"};
inline constexpr ErrorCode not_found{
    "not_found", 404, "the id is unknown, not a UUID, or another account's; an unknown route",
    customer_not_found_message};
inline constexpr ErrorCode method_not_allowed{"method_not_allowed", 405,
                                              "the route exists but not with this method",
                                              "method not allowed; allowed: POST"};
inline constexpr ErrorCode duplicate_external_id{
    "duplicate_external_id", 409, "a customer with this externalId exists",
    "A customer with external ID 'crm-10001' already exists."};
inline constexpr ErrorCode webhook_secret_taken{
    "webhook_secret_taken", 409, "an imported webhook secret's id is another account's",
    "webhook secret id 3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f is already in use"};
inline constexpr ErrorCode client_taken{
    "client_taken", 409, "a client's id is another account's",
    "client id 550e8400-e29b-41d4-a716-446655440000 is already in use"};
inline constexpr ErrorCode already_enrolled{
    "already_enrolled", 409, "the customer is enrolled in this campaign and it has not finished",
    "The customer is already enrolled in this drip campaign."};
inline constexpr ErrorCode drip_campaign_finished{
    "drip_campaign_finished", 409, "the drip campaign has completed or was canceled already",
    "The drip campaign has already completed."};
inline constexpr ErrorCode idempotency_key_in_flight{
    "idempotency_key_in_flight", 409,
    "a request with this Idempotency-Key is still being processed",
    "a request with this Idempotency-Key is still being processed"};
inline constexpr ErrorCode payload_too_large{
    "payload_too_large", 413, "the body is over its route's size limit (see the request body)",
    "request body is larger than 1048576 bytes"};
inline constexpr ErrorCode uri_too_long{"uri_too_long", 414, "the request target is too long",
                                        "request target is too long"};
inline constexpr ErrorCode unsupported_media_type{"unsupported_media_type", 415,
                                                  "the Content-Type is not application/json",
                                                  "Content-Type must be application/json"};
inline constexpr ErrorCode idempotency_key_reused{
    "idempotency_key_reused", 422, "the Idempotency-Key was used with a different request",
    "Idempotency-Key was already used with a different request"};
inline constexpr ErrorCode recipient_required{"recipient_required", 422,
                                              "a generated SMS is to be persisted without its `to`",
                                              sms_to_required_message};
inline constexpr ErrorCode compliance_failed{
    "compliance_failed", 422, "a compliance check failed; data is the call that was not placed",
    "Customer not eligible for call. Failed rules: Respectful Hours Check (Customer local time "
    "is 07:00 (outside respectful hours 8am-8:50pm))"};
inline constexpr ErrorCode rate_limited{"rate_limited", 429, "too many requests for this API key",
                                        "too many requests; retry after 1 s"};
// The account's daily budget of stored rows (API.md section 17; `init --daily-rows`) is spent:
// writes that would store more wait for the next UTC day (Retry-After), reads go on.
inline constexpr ErrorCode quota_exceeded{
    "quota_exceeded", 429,
    "the account has stored its daily budget of rows; writes resume on the next UTC day",
    "the account's daily budget of 1000000 stored rows is spent; retry after 3600 s"};
inline constexpr ErrorCode headers_too_large{
    "headers_too_large", 431, "the request headers are too large", "request headers are too large"};
inline constexpr ErrorCode internal{"internal", 500, "an unexpected server fault",
                                    "internal server error"};
inline constexpr ErrorCode unavailable{"unavailable", 503, "storage is unavailable",
                                       "the service is temporarily unavailable"};
}  // namespace errors

// Every error code, in the order of their statuses.
inline constexpr std::array all_errors{
    errors::malformed_json,
    errors::validation_failed,
    errors::analysis_skipped,
    errors::bad_request,
    errors::unauthorized,
    errors::agent_not_assigned,
    errors::link_expired,
    errors::not_found,
    errors::method_not_allowed,
    errors::duplicate_external_id,
    errors::webhook_secret_taken,
    errors::client_taken,
    errors::already_enrolled,
    errors::drip_campaign_finished,
    errors::idempotency_key_in_flight,
    errors::payload_too_large,
    errors::uri_too_long,
    errors::unsupported_media_type,
    errors::idempotency_key_reused,
    errors::recipient_required,
    errors::compliance_failed,
    errors::rate_limited,
    errors::quota_exceeded,
    errors::headers_too_large,
    errors::internal,
    errors::unavailable,
};

}  // namespace collectcall::api
