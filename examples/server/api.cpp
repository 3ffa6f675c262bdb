#include "api.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <collectcall/api/errors.hpp>
#include <collectcall/api/routes.hpp>

#include "crypto.hpp"
#include "handlers/handlers.hpp"
#include "http.hpp"
#include "store_error.hpp"

namespace collectcall::server {

namespace {

// Error codes, their statuses and messages: the contract's table (collectcall/api/errors.hpp).
namespace error_code = collectcall::api::errors;

std::string_view request_id_of(const httplib::Response& response) {
    const auto it = response.headers.find("X-Request-Id");
    return it == response.headers.end() ? std::string_view{} : std::string_view(it->second);
}

}  // namespace

// --- The pipeline ------------------------------------------------------------------------------

Api::Api(Store& store, const Clock& clock, Dialer& dialer, RateLimiter& limiter, ApiConfig config)
    : store_(store),
      clock_(clock),
      limiter_(limiter),
      config_(std::move(config)),
      services_{store, clock, dialer, config_, resolver_, limiter} {}

void Api::handle(RequestContext& context, httplib::Request& request, httplib::Response& response) {
    context.start = std::chrono::steady_clock::now();
    context.method = "other";
    context.route = "unmatched";
    response.set_header("X-Request-Id", std::string(new_uuid().view()));
    // The API serves whole documents; RFC 9110 section 14.2 lets a server ignore Range, and the
    // response says that none are served.
    response.set_header("Accept-Ranges", "none");
    // Customer data is personal: no cache along the way may keep it.
    response.set_header("Cache-Control", "no-store");
    response.set_header("X-Content-Type-Options", "nosniff");
    dispatch(context, request, response);
}

void Api::finish(const RequestContext& context, const httplib::Request& request,
                 const httplib::Response& response) {
    const std::chrono::nanoseconds duration = std::chrono::steady_clock::now() - context.start;
    if (config_.metrics != nullptr)
        config_.metrics->request(context.method, context.route, response.status, duration);
    if (config_.access_log) http::access_log(request, response, request_id_of(response), duration);
}

void Api::dispatch(RequestContext& context, httplib::Request& request,
                   httplib::Response& response) {
    std::optional<KeyRecord> admitted = std::exchange(context.admitted, std::nullopt);
    const std::string request_id(request_id_of(response));
    // The path of the target as sent: its segments are decoded only once it is split.
    const api::RouteMatch match = api::match_route(request.method, request.path);
    if (match.route != nullptr) {
        context.method = match.route->method;
        context.route = match.route->path;
    }
    static const api::Route no_route{};
    Exchange x{
        request,    response, context,          match.route != nullptr ? *match.route : no_route,
        request_id, {},       match.parameters, {},
        {},         {}};
    try {
        const std::size_t limit = x.route.max_body;
        // A head the parser refused: nothing of it is known but why.
        if (context.refusal.status != 0) {
            x.end_connection();
            const api::ErrorCode& code = context.refusal.status == 414 ? error_code::uri_too_long
                                         : context.refusal.status == 431
                                             ? error_code::headers_too_large
                                             : error_code::bad_request;
            return x.fail(code, context.refusal.reason.empty() ? std::string(code.example)
                                                               : context.refusal.reason);
        }
        // A Range the server cannot read (one it can is ignored): 416, and the connection ends.
        if (!http::readable_range(request)) {
            x.end_connection();
            return send_json(
                response, 416,
                error_document(request_id, error_code::bad_request,
                               "the Range header could not be parsed; the API serves no ranges"));
        }
        const http::BodyStatus body_status = context.body;
        // A request whose body the server did not read ends its connection: where the next
        // request would begin is unknown.
        if (body_status != http::BodyStatus::complete) x.end_connection();
        if (body_status == http::BodyStatus::bad_framing) {
            return x.fail(error_code::bad_request,
                          "the request's framing is broken (a malformed chunk or trailer)");
        }
        // The memory budget, or the account's share of it, cannot take the body now: as it was
        // sent, or as it is decoded.
        const auto no_memory = [&] {
            response.set_header("Retry-After", std::to_string(api::memory_retry_after.count()));
            x.fail(error_code::unavailable,
                   "the server's memory for request bodies is in use; retry later");
        };
        if (body_status == http::BodyStatus::no_memory) return no_memory();

        std::size_t header_bytes = 0;
        for (const auto& [name, value] : request.headers)
            header_bytes += name.size() + value.size() + 4;
        if (header_bytes > config_.max_header_bytes) {
            return x.fail(error_code::headers_too_large);
        }
        if (match.route == nullptr) {
            if (match.allow.empty()) return x.not_found(api::no_route_message);
            response.set_header("Allow", match.allow);
            return x.fail(
                error_code::method_not_allowed,
                "method " + request.method + " is not allowed here (allowed: " + match.allow + ")");
        }
        // The key before the body (API.md section 11): an unauthenticated request never has its
        // body read.
        if (x.route.access == api::Access::api_key && !authenticate(x, std::move(admitted))) return;
        // A body is charged against the memory budget as it is decoded, to the account of its
        // key (API.md section 17).
        const std::string account =
            x.route.access == api::Access::api_key ? std::string(x.account.view()) : "";
        const std::function<bool(std::size_t)> hold =
            context.hold_body ? std::function<bool(std::size_t)>([&](std::size_t bytes) {
                return context.hold_body(account, bytes);
            })
                              : nullptr;
        http::Body body = http::read_body(request, limit, body_status, hold);
        // Whatever the answer, a connection with unread request bytes cannot go on: they would
        // be read as the next request.
        if (body.unread_rest) x.end_connection();
        switch (body.status) {
            case http::BodyRead::ok:
                break;
            case http::BodyRead::too_large:
                return x.fail(error_code::payload_too_large,
                              "request body is larger than " + std::to_string(limit) + " bytes");
            case http::BodyRead::no_memory:
                return no_memory();
            case http::BodyRead::unsupported_encoding:
                return x.fail(error_code::unsupported_media_type, "unsupported Content-Encoding");
            case http::BodyRead::failed:
            case http::BodyRead::not_read:
                return x.fail(error_code::bad_request);
        }
        x.body = std::move(body.bytes);
        serve(x);
    } catch (const QuotaExceeded& e) {
        // The account's rows of the day are spent (API.md section 17): the write stored nothing.
        response.set_header("Retry-After", std::to_string(e.retry_after()));
        x.fail(error_code::quota_exceeded, e.what());
    } catch (const StoreError& e) {
        if (e.unavailable()) {
            response.set_header("Retry-After", "1");
            x.fail(error_code::unavailable);
        } else {
            x.fail(error_code::internal);
        }
        std::fprintf(stderr, "{\"requestId\":\"%s\",\"error\":\"storage\",\"unavailable\":%s}\n",
                     request_id.c_str(), e.unavailable() ? "true" : "false");
    } catch (...) {
        x.fail(error_code::internal);
    }
}

void Api::serve(Exchange& x) {
    const api::Route& route = x.route;
    if (route.has_body()) {
        const std::string* content_type = http::find_header(x.request.headers, "Content-Type");
        // A POST that takes no body may come without one and without a Content-Type.
        const bool empty_allowed = route.body == api::Body::empty_or_json && x.body.empty();
        const bool merge_patch = route.body == api::Body::merge_patch;
        if (!empty_allowed && !http::is_json_media_type(
                                  content_type ? *content_type : std::string_view{}, merge_patch)) {
            return x.fail(error_code::unsupported_media_type,
                          merge_patch ? "Content-Type must be application/json or "
                                        "application/merge-patch+json"
                                      : "Content-Type must be application/json");
        }
    }

    if (route.idempotent()) {
        if (const std::string* key = http::find_header(x.request.headers, "Idempotency-Key"))
            return run_idempotent(x, *key);
    }
    handlers::dispatch(x, services_);
}

}  // namespace collectcall::server
