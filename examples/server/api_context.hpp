// The request as a handler sees it (Api::Context): its route, body, account and path parameter,
// and the ways it is answered (the envelope, the error body). Shared by the files that hold the
// handlers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <httplib.h>

#include <collectcall/api/envelope.hpp>
#include <collectcall/api/errors.hpp>
#include <collectcall/api/routes.hpp>
#include <collectcall/compliance/engine.hpp>

#include "api.hpp"
#include "crypto.hpp"

namespace collectcall::server {

using api::Route;

// A request id as a UUID (a fresh one when it is none).
inline Uuid uuid_of(std::string_view text) {
    auto parsed = Uuid::parse(text);
    return parsed ? std::move(parsed).value() : new_uuid();
}

inline void send_json(httplib::Response& response, int status, std::string body) {
    response.status = status;
    response.body = std::move(body);
    // set_content would append a second Content-Type; replace the header instead.
    response.headers.erase("Content-Type");
    response.set_header("Content-Type", "application/json");
}

// The error body (API.md section 3), the library's (collectcall/api/envelope.hpp), written.
template <class T = null_t>
inline std::string error_document(std::string_view request_id, const api::ErrorCode& error,
                                  std::string message, ErrorList details = {}, T data = {}) {
    return write(api::error_envelope(uuid_of(request_id), error, std::move(message),
                                     std::move(details), std::move(data)));
}

struct Api::Context {
    const httplib::Request& request;
    httplib::Response& response;
    const Route& route;
    std::string request_id;
    std::string body;
    std::string_view id_segment;  // the "{id}" of the path
    Uuid account;
    std::string key_id;
    // What an Idempotency-Key replay answers when it must differ from the first answer (a
    // secret is shown once).
    std::optional<std::string> replay_body;

    template <class T>
    void reply(int status, T data) {
        Envelope<T> envelope;
        envelope.requestId = uuid_of(request_id);
        envelope.data = std::move(data);
        send_json(response, status, write(envelope));
    }

    template <class T = null_t>
    void fail(const api::ErrorCode& error, std::string message, ErrorList details = {},
              T data = {}) {
        send_json(response, error.status,
                  error_document(request_id, error, std::move(message), std::move(details),
                                 std::move(data)));
    }

    // An error whose message is always the same: the table's (collectcall/api/errors.hpp).
    void fail(const api::ErrorCode& error) { fail(error, std::string(error.example)); }

    // A body that read<T> refused: malformed JSON, or the list of field errors.
    void fail_read(ErrorList errors) {
        if (errors.size() == 1 && errors.front().code == codes::malformed_json) {
            std::string message = errors.front().message;
            fail(api::errors::malformed_json, std::move(message), std::move(errors));
            return;
        }
        fail_validation(std::move(errors));
    }

    void fail_validation(ErrorList errors) {
        std::string message = invalid_fields_message(error_total(errors));
        fail(api::errors::validation_failed, std::move(message), std::move(errors));
    }

    void not_found(std::string_view message) { fail(api::errors::not_found, std::string(message)); }

    // The "{id}" of the path as a UUID; nullopt (a 404, API.md section 2) when it is not one.
    [[nodiscard]] std::optional<Uuid> path_id() const {
        auto parsed = Uuid::parse(id_segment);
        if (!parsed) return std::nullopt;
        return std::move(parsed).value();
    }
};

// What compliance reads of a customer and its account for a contact at `now`; the caller adds
// the history it counts (the calls placed, the SMS sent) and the channel.
inline compliance::ComplianceInput compliance_input(const StoredCustomer& stored,
                                                    const AccountSettings& settings, Time now) {
    compliance::ComplianceInput input;
    input.active = stored.active;
    input.cease_and_desist = stored.cease_and_desist;
    input.state =
        stored.customer.address.state ? stored.customer.address.state->view() : std::string_view{};
    input.zip5 = stored.customer.address.zip.view();
    input.now = now;
    input.window = settings.window;
    input.max_calls_per_day = settings.max_calls_per_day;
    input.asked_not_to_call = stored.do_not_call;
    input.attorney_represented = stored.attorney_represented;
    return input;
}

}  // namespace collectcall::server
