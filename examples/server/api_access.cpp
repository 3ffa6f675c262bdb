#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <collectcall/api/errors.hpp>
#include <collectcall/api/routes.hpp>

#include "api.hpp"
#include "crypto.hpp"
#include "http.hpp"

namespace collectcall::server {

namespace error_code = collectcall::api::errors;

std::optional<KeyRecord> Api::verify_key(const httplib::Request& request, bool& token_given) {
    const auto token = http::bearer_token(request);
    token_given = token.has_value();
    if (!token) return std::nullopt;
    const std::string_view key_id = api_key_id(*token);
    if (key_id.empty()) return std::nullopt;
    auto record = store_.find_api_key(key_id);
    // The key id only finds the record; the secret is checked by comparing hashes, in constant
    // time, so that response timing says nothing about how much of a guess was right.
    const Sha256 hash = sha256(*token);
    if (!record || !equal_constant_time(record->hash, hash)) return std::nullopt;
    return record;
}

std::optional<Api::Admission> Api::admit(const httplib::Request& head) {
    const api::RouteMatch match = api::match_route(head.method, head.path);
    if (match.route == nullptr || !match.route->has_body()) return std::nullopt;
    Admission admission{match.route->max_body, std::nullopt};
    if (http::header_u64(head.headers, "Content-Length") > admission.max_body) {
        return std::nullopt;
    }
    if (match.route->access != api::Access::api_key) return admission;
    try {
        bool token_given = false;
        admission.key = verify_key(head, token_given);
        if (!admission.key) return std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;  // answered from the head, with the store's error
    }
    return admission;
}

bool Api::authenticate(Exchange& x, std::optional<KeyRecord> admitted) {
    const auto reject = [&](bool token_given) {
        x.response.set_header("WWW-Authenticate",
                              token_given ? R"(Bearer realm="collectcall", error="invalid_token")"
                                          : R"(Bearer realm="collectcall")");
        x.fail(error_code::unauthorized, std::string(api::unauthorized_message));
        return false;
    };
    // A request admitted from its head (the same bytes, the same bearer key) was authenticated
    // then.
    bool token_given = admitted.has_value();
    const auto record = admitted ? std::move(admitted) : verify_key(x.request, token_given);
    if (!record) return reject(token_given);
    const std::string_view key_id = api_key_id(*http::bearer_token(x.request));
    x.account = record->account_id;
    x.key_id = std::string(key_id);

    return answer_rate(x, limiter_, limiter_.check(x.key_id), config_.metrics);
}

bool answer_rate(Exchange& x, const RateLimiter& limiter, const RateLimiter::Decision& rate,
                 Metrics* metrics) {
    if (limiter.enabled()) {
        // Every authenticated answer tells the client where it stands (the IETF draft's
        // RateLimit-* fields): the burst, what is left of it, and when it is whole again.
        x.response.set_header("RateLimit-Limit", std::to_string(rate.limit));
        x.response.set_header("RateLimit-Remaining", std::to_string(rate.remaining));
        x.response.set_header("RateLimit-Reset", std::to_string(rate.reset));
    }
    if (!rate.allowed) {
        if (metrics != nullptr) metrics->rate_limited();
        x.response.set_header("Retry-After", std::to_string(rate.retry_after));
        x.fail(error_code::rate_limited,
               "too many requests; retry after " + std::to_string(rate.retry_after) + " s");
        return false;
    }
    return true;
}

bool Services::charge_items(Exchange& x, std::size_t items) const {
    if (!limiter.enabled() || items <= 1) return true;
    return answer_rate(x, limiter, limiter.check_rest(x.key_id, static_cast<long>(items)),
                       config.metrics);
}

}  // namespace collectcall::server
