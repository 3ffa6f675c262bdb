#include "api.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
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

bool is_body_method(std::string_view method) {
    // The methods cpp-httplib 0.11 reads a body for (and hands a ContentReader).
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

// The context of a request, which the server sets around its processing (install).
RequestContext& context_of(RequestContext* current) {
    if (current == nullptr) throw std::logic_error("a request is handled without its context");
    return *current;
}

// Ends the connection after the answer: the response says so, and the server does so.
void end_connection(RequestContext& context, httplib::Response& response) {
    http::close_connection(response);
    context.close = true;
}

std::string_view request_id_of(const httplib::Response& response) {
    const auto it = response.headers.find("X-Request-Id");
    return it == response.headers.end() ? std::string_view{} : std::string_view(it->second);
}

// A request id for a response that has none yet (cpp-httplib's own errors).
std::string ensure_request_id(httplib::Response& response) {
    std::string id(request_id_of(response));
    if (id.empty()) {
        id = std::string(new_uuid().view());
        response.set_header("X-Request-Id", id);
    }
    return id;
}

// The API serves whole documents. cpp-httplib 0.11 would cut any response, errors included, to
// the byte ranges of a Range header (a 400 answered with two bytes of its JSON); RFC 9110
// section 14.2 lets a server ignore Range, so the ranges cpp-httplib parsed are dropped before it
// applies them, and the response says that none are served. (The request is cpp-httplib's own
// non-const object; only its hooks see it const.)
void serve_whole(const httplib::Request& request, httplib::Response& response) {
    const_cast<httplib::Request&>(request).ranges.clear();
    if (!response.has_header("Accept-Ranges")) response.set_header("Accept-Ranges", "none");
}

}  // namespace

// --- The pipeline ------------------------------------------------------------------------------

Api::Api(Store& store, const Clock& clock, Dialer& dialer, RateLimiter& limiter, ApiConfig config)
    : store_(store),
      clock_(clock),
      limiter_(limiter),
      config_(std::move(config)),
      services_{store, clock, dialer, config_, resolver_, limiter} {}

void Api::install(httplib::Server& server, RequestContext* const& current) {
    server.set_pre_routing_handler(
        [this, &current](const httplib::Request& request, httplib::Response& response) {
            RequestContext& context = context_of(current);
            context.active = true;
            context.start = std::chrono::steady_clock::now();
            context.method = "other";
            context.route = "unmatched";
            response.set_header("X-Request-Id", std::string(new_uuid().view()));
            serve_whole(request, response);
            // Customer data is personal: no cache along the way may keep it.
            response.set_header("Cache-Control", "no-store");
            response.set_header("X-Content-Type-Options", "nosniff");
            if (is_body_method(request.method)) return httplib::Server::HandlerResponse::Unhandled;
            dispatch(context, request, response, nullptr);
            return httplib::Server::HandlerResponse::Handled;
        });
    const auto with_body = [this, &current](const httplib::Request& request,
                                            httplib::Response& response,
                                            const httplib::ContentReader& reader) {
        dispatch(context_of(current), request, response, &reader);
    };
    server.Post(".*", with_body);
    server.Put(".*", with_body);
    server.Patch(".*", with_body);
    server.Delete(".*", with_body);

    // Called for every response of status 400 and above; only those without a body are
    // cpp-httplib's own and still need the error envelope. It reads the canonical form of a
    // request the reader parsed (request_reader.hpp), so what remains of its own errors is a
    // Range it cannot parse (416); the other cases are kept as a safety net.
    server.set_error_handler(httplib::Server::HandlerWithResponse(
        [this, &current](const httplib::Request& request, httplib::Response& response) {
            if (!response.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
            complete_error(context_of(current), request, response);
            return httplib::Server::HandlerResponse::Handled;
        }));
    // A safety net: dispatch catches everything itself.
    server.set_exception_handler([](const httplib::Request&, httplib::Response& response,
                                    std::exception_ptr) {
        const std::string id = ensure_request_id(response);
        send_json(
            response, 500,
            error_document(id, error_code::internal, std::string(error_code::internal.example)));
    });
    server.set_logger(
        [this, &current](const httplib::Request& request, const httplib::Response& response) {
            RequestContext& context = context_of(current);
            std::optional<std::chrono::nanoseconds> duration;
            if (context.active) duration = std::chrono::steady_clock::now() - context.start;
            context.active = false;
            if (config_.metrics != nullptr) {
                config_.metrics->request(context.method, context.route, response.status,
                                         duration.value_or(std::chrono::nanoseconds{0}));
            }
            if (config_.access_log)
                http::access_log(request, response, request_id_of(response), duration);
        });
}

void Api::complete_error(RequestContext& context, const httplib::Request& request,
                         httplib::Response& response) {
    const std::string id = ensure_request_id(response);
    // cpp-httplib could not read the request: where the next one would begin is unknown (after
    // a bad request line it has not even read the header lines), so the connection ends here.
    end_connection(context, response);
    serve_whole(request, response);
    int status = response.status;
    const api::ErrorCode* code = &error_code::bad_request;
    std::string message = "the request could not be parsed";
    switch (status) {
        case 400:
            // cpp-httplib answers 400 both for a bad request line and for a header line over
            // its 8 KiB limit; the request line parsed means the headers failed.
            if (!request.method.empty() && !request.path.empty() &&
                (request.version == "HTTP/1.1" || request.version == "HTTP/1.0")) {
                status = 431;
                code = &error_code::headers_too_large;
                message = error_code::headers_too_large.example;
            }
            break;
        case 413:
            code = &error_code::payload_too_large;
            message = "request body is too large";
            break;
        case 414:
            code = &error_code::uri_too_long;
            message = error_code::uri_too_long.example;
            break;
        case 415:
            code = &error_code::unsupported_media_type;
            message = "unsupported content encoding";
            break;
        case 416:
            // A Range header cpp-httplib could not parse (one it can parse is ignored).
            message = "the Range header could not be parsed; the API serves no ranges";
            break;
        case 404:
            code = &error_code::not_found;
            message = api::no_route_message;
            break;
        default:
            if (status >= 500) {
                code = &error_code::internal;
                message = error_code::internal.example;
            }
    }
    send_json(response, status, error_document(id, *code, std::move(message)));
}

void Api::dispatch(RequestContext& context, const httplib::Request& request,
                   httplib::Response& response, const httplib::ContentReader* reader) {
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
        const http::BodyStatus body_status = context.body;
        // A request whose body the server did not read ends its connection: where the next
        // request would begin is unknown.
        if (body_status != http::BodyStatus::complete) x.end_connection();
        if (body_status == http::BodyStatus::bad_framing) {
            return x.fail(error_code::bad_request,
                          "the request's framing is broken (a malformed chunk or trailer)");
        }
        if (body_status == http::BodyStatus::no_memory) {
            response.set_header("Retry-After", std::to_string(api::memory_retry_after.count()));
            return x.fail(error_code::unavailable,
                          "the server's memory for request bodies is in use; retry later");
        }

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
        http::Body body = http::read_body(request, response, reader, limit, body_status);
        // Whatever the answer, a connection with unread request bytes cannot go on: they would
        // be read as the next request.
        if (body.unread_rest) x.end_connection();
        switch (body.status) {
            case http::BodyRead::ok:
                break;
            case http::BodyRead::too_large:
                return x.fail(error_code::payload_too_large,
                              "request body is larger than " + std::to_string(limit) + " bytes");
            case http::BodyRead::unsupported_encoding:
                return x.fail(error_code::unsupported_media_type, "unsupported Content-Encoding");
            case http::BodyRead::failed:
            case http::BodyRead::not_read:
                return x.fail(error_code::bad_request);
        }
        x.body = std::move(body.bytes);
        serve(x);
    } catch (const StoreError& e) {
        if (e.unavailable()) {
            response.set_header("Retry-After", "1");
            x.fail(error_code::unavailable);
        } else {
            x.fail(error_code::internal);
        }
        std::fprintf(stderr, "{\"requestId\":\"%s\",\"error\":\"storage\",\"unavailable\":%s}\n",
                     request_id.c_str(), e.unavailable() ? "true" : "false");
    } catch (const std::exception&) {
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
