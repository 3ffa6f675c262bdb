// How the API answers for a webhook target's host lookup and secret (API.md sections 9 and 11).
#include "collectcall/api/webhook_target.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <utility>

namespace api = collectcall::api;
using collectcall::webhook::Resolution;
using collectcall::webhook::ResolveStatus;

namespace {

Resolution resolved(ResolveStatus status, std::string message) {
    Resolution r;
    r.status = status;
    r.message = std::move(message);
    return r;
}

}  // namespace

TEST_CASE("webhook target: a host that resolves to allowed addresses is no error") {
    const auto r = resolved(ResolveStatus::ok, "resolved");
    CHECK_FALSE(api::retry_webhook_lookup(r.status));
    CHECK_FALSE(api::webhook_url_error(r, "/webhook/url").has_value());
}

TEST_CASE("webhook target: a lookup that failed for now is retried, not an error of the body") {
    const auto r = resolved(ResolveStatus::temporary_failure, "host name resolution failed");
    CHECK(api::retry_webhook_lookup(r.status));
    CHECK_FALSE(api::webhook_url_error(r, "/webhook/url").has_value());
    CHECK(api::webhook_lookup_retry_after.count() > 0);
    CHECK_FALSE(api::webhook_lookup_unavailable_message.empty());
}

TEST_CASE("webhook target: each failed lookup is an error at the url's path, its code saying why") {
    struct Case {
        ResolveStatus status;
        const char* code;
    };
    for (const Case c : {Case{ResolveStatus::invalid_host, "format"},
                         Case{ResolveStatus::does_not_resolve, "not_found"},
                         Case{ResolveStatus::timed_out, "not_found"},
                         Case{ResolveStatus::refused, "not_allowed"}}) {
        CAPTURE(static_cast<int>(c.status));
        const auto r = resolved(c.status, "the rule that refused it");
        CHECK_FALSE(api::retry_webhook_lookup(c.status));
        const auto error = api::webhook_url_error(r, "/calls/3/webhook/url");
        REQUIRE(error.has_value());
        CHECK(error->path == "/calls/3/webhook/url");
        CHECK(error->code == c.code);
        CHECK(error->message == "the rule that refused it");
    }
}

TEST_CASE("webhook target: a secretId the account does not have is not_found at its path") {
    const auto error = api::unknown_webhook_secret("/webhook/secretId");
    CHECK(error.path == "/webhook/secretId");
    CHECK(error.code == "not_found");
    CHECK(error.message == "is not a webhook secret of this account");
}
