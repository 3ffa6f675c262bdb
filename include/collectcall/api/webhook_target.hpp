// How the API answers for the webhook of a request (API.md sections 9 and 11): its url's host is
// looked up when the request is made (webhook/resolver.hpp) and its secretId must be one of the
// account's. A lookup that could not be done now is 503 with Retry-After; a host that is invalid,
// does not resolve (or not in time) or resolves only to refused addresses is an error of the
// body at the url, its code saying which; an unknown secret is an error of the body at the
// secretId.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/webhook/address_guard.hpp"

namespace collectcall::api {

// A lookup that failed for now: 503 `unavailable`, with this Retry-After and message.
inline constexpr std::chrono::seconds webhook_lookup_retry_after{5};
inline constexpr std::string_view webhook_lookup_unavailable_message =
    "the webhook host could not be resolved now; retry later";

// Whether the request is answered 503 and may be retried as it is.
[[nodiscard]] constexpr bool retry_webhook_lookup(webhook::ResolveStatus status) noexcept {
    return status == webhook::ResolveStatus::temporary_failure;
}

// The error of the body at `path` (the url's JSON Pointer) for a lookup's result; nullopt when
// the host is fine, or when the lookup is to be retried (retry_webhook_lookup).
[[nodiscard]] inline std::optional<Error> webhook_url_error(const webhook::Resolution& resolution,
                                                            std::string path) {
    std::string_view code;
    switch (resolution.status) {
        case webhook::ResolveStatus::ok:
        case webhook::ResolveStatus::temporary_failure:
            return std::nullopt;
        case webhook::ResolveStatus::invalid_host:
            code = codes::format;
            break;
        case webhook::ResolveStatus::does_not_resolve:
        case webhook::ResolveStatus::timed_out:
            code = codes::not_found;
            break;
        case webhook::ResolveStatus::refused:
            code = codes::not_allowed;
            break;
    }
    return Error{std::move(path), std::string(code), resolution.message};
}

// The error of the body at `path` (the secretId's JSON Pointer) for a secret the account does
// not have. Without a secretId the deliveries are unsigned (API.md section 9).
[[nodiscard]] inline Error unknown_webhook_secret(std::string path) {
    return Error{std::move(path), std::string(codes::not_found),
                 "is not a webhook secret of this account"};
}

}  // namespace collectcall::api
