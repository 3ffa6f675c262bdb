// The error body of the HTTP API (API.md section 3) built from the contract's error table: what
// the example server answers for every failure, so that another service reusing the headers
// answers the same.
#pragma once

#include <string>
#include <utility>

#include "collectcall/api/errors.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/model/envelope.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall::api {

// The envelope of a request that failed with `error`: `{requestId, success: false, data, error:
// {code, message, details}, publicFacingMessage}`, publicFacingMessage being the message. `data`
// is null except where an endpoint says otherwise (a call blocked by compliance carries the
// call). The HTTP status to send it with is `error.status`.
template <class T = null_t>
[[nodiscard]] ErrorEnvelope<T> error_envelope(const Uuid& request_id, const ErrorCode& error,
                                              std::string message, ErrorList details = {},
                                              T data = {}) {
    ErrorEnvelope<T> envelope;
    envelope.requestId = request_id;
    envelope.data = std::move(data);
    envelope.error.code = std::string(error.code);
    envelope.publicFacingMessage = message;
    envelope.error.message = std::move(message);
    envelope.error.details = std::move(details);
    return envelope;
}

}  // namespace collectcall::api
