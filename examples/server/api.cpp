#include "api.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>

#include <collectcall/api/envelope.hpp>
#include <collectcall/api/errors.hpp>
#include <collectcall/api/idempotency_key.hpp>
#include <collectcall/api/openapi.hpp>
#include <collectcall/api/routes.hpp>
#include <collectcall/compliance/engine.hpp>
#include <collectcall/webhook/recording.hpp>
#include <collectcall/webhook/resolver.hpp>
#include <collectcall/webhook/signature.hpp>

#include "compliance_input.hpp"
#include "crypto.hpp"
#include "http.hpp"
#include "output.hpp"
#include "sqlite.hpp"

namespace collectcall::server {

// The shapes that exist only on the API's wire, and its routes: the contract's
// (collectcall/api/routes.hpp).
using api::CustomerList;
using api::HealthStatus;
using api::Route;

// What an Idempotency-Key replay of POST /webhook-secrets shows: the id, never the secret.
struct SecretReplay {
    Uuid id;
    std::optional<std::string> secret;  // always null
};
BOOST_DESCRIBE_STRUCT(SecretReplay, (), (id, secret))

// --- Routing -----------------------------------------------------------------------------------

namespace {

constexpr std::string_view json_type = "application/json";

// Error codes, their statuses and messages: the contract's table (collectcall/api/errors.hpp).
namespace error_code = collectcall::api::errors;

bool is_body_method(std::string_view method) {
    // The methods cpp-httplib 0.11 reads a body for (and hands a ContentReader).
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

// The context of the request cpp-httplib handles on this thread (Api::Serving).
thread_local RequestContext* serving = nullptr;

RequestContext& current() {
    if (serving == nullptr) throw std::logic_error("a request is handled outside Api::Serving");
    return *serving;
}

// Ends the connection after the answer: the response says so, and the server does so.
void end_connection(httplib::Response& response) {
    http::close_connection(response);
    current().close = true;
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

Uuid uuid_of(std::string_view text) {
    auto parsed = Uuid::parse(text);
    return parsed ? std::move(parsed).value() : new_uuid();
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

void send_json(httplib::Response& response, int status, std::string body) {
    response.status = status;
    response.body = std::move(body);
    // set_content would append a second Content-Type; replace the header instead.
    response.headers.erase("Content-Type");
    response.set_header("Content-Type", std::string(json_type));
}

// The error body (API.md section 3), the library's (collectcall/api/envelope.hpp), written.
template <class T = null_t>
std::string error_document(std::string_view request_id, const api::ErrorCode& error,
                           std::string message, ErrorList details = {}, T data = {}) {
    return write(api::error_envelope(uuid_of(request_id), error, std::move(message),
                                     std::move(details), std::move(data)));
}

}  // namespace

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
            fail(error_code::malformed_json, std::move(message), std::move(errors));
            return;
        }
        fail_validation(std::move(errors));
    }

    void fail_validation(ErrorList errors) {
        std::string message = invalid_fields_message(error_total(errors));
        fail(error_code::validation_failed, std::move(message), std::move(errors));
    }

    void not_found(std::string_view message) { fail(error_code::not_found, std::string(message)); }

    // The "{id}" of the path as a UUID; nullopt (a 404, API.md section 2) when it is not one.
    [[nodiscard]] std::optional<Uuid> path_id() const {
        auto parsed = Uuid::parse(id_segment);
        if (!parsed) return std::nullopt;
        return std::move(parsed).value();
    }
};

// --- The pipeline ------------------------------------------------------------------------------

// Which member function serves each operation of the contract.
void (Api::*Api::handler(api::Operation operation))(Context&) {
    using api::Operation;
    switch (operation) {
        case Operation::get_health:
            return &Api::health;
        case Operation::get_readiness:
            return &Api::ready;
        case Operation::get_metrics:
            return &Api::metrics_document;
        case Operation::get_open_api:
            return &Api::openapi_document;
        case Operation::create_customer:
            return &Api::create_customer;
        case Operation::find_customers:
            return &Api::find_customers;
        case Operation::create_customers:
            return &Api::create_customers;
        case Operation::get_customer:
            return &Api::get_customer;
        case Operation::update_customer:
            return &Api::patch_customer;
        case Operation::create_call:
            return &Api::create_call;
        case Operation::list_calls:
            return &Api::list_calls;
        case Operation::cease_and_desist:
            return &Api::cease_and_desist;
        case Operation::deactivate_customer:
            return &Api::deactivate;
        case Operation::activate_customer:
            return &Api::activate;
        case Operation::get_call:
            return &Api::get_call;
        case Operation::get_call_recording:
            return &Api::get_recording;
        case Operation::create_webhook_secret:
            return &Api::create_webhook_secret;
    }
    return nullptr;
}

Api::Api(Store& store, const Clock& clock, Dialer& dialer, RateLimiter& limiter, ApiConfig config)
    : store_(store), clock_(clock), dialer_(dialer), limiter_(limiter), config_(config) {}

ReadOptions Api::read_options() const {
    ReadOptions options;
    options.today = std::chrono::floor<std::chrono::days>(clock_.now());
    options.max_bulk_items = config_.max_bulk_items;
    return options;
}

void Api::install(httplib::Server& server) {
    server.set_pre_routing_handler(
        [this](const httplib::Request& request, httplib::Response& response) {
            RequestContext& context = current();
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
            dispatch(request, response, nullptr);
            return httplib::Server::HandlerResponse::Handled;
        });
    const auto with_body = [this](const httplib::Request& request, httplib::Response& response,
                                  const httplib::ContentReader& reader) {
        dispatch(request, response, &reader);
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
        [this](const httplib::Request& request, httplib::Response& response) {
            if (!response.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
            complete_error(request, response);
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
    server.set_logger([this](const httplib::Request& request, const httplib::Response& response) {
        RequestContext& context = current();
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

void Api::complete_error(const httplib::Request& request, httplib::Response& response) {
    const std::string id = ensure_request_id(response);
    // cpp-httplib could not read the request: where the next one would begin is unknown (after
    // a bad request line it has not even read the header lines), so the connection ends here.
    end_connection(response);
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

void Api::dispatch(const httplib::Request& request, httplib::Response& response,
                   const httplib::ContentReader* reader) {
    RequestContext& context = current();
    std::optional<KeyRecord> admitted = std::exchange(context.admitted, std::nullopt);
    const std::string request_id(request_id_of(response));
    // The path of the target as sent: its segments are decoded only once it is split.
    const api::RouteMatch match = api::match_route(request.method, request.path);
    if (match.route != nullptr) {
        context.method = match.route->method;
        context.route = match.route->path;
    }
    static const Route no_route{};
    Context ctx{request,    response, match.route != nullptr ? *match.route : no_route,
                request_id, {},       match.parameter,
                {},         {},       {}};
    try {
        const std::size_t limit = ctx.route.max_body;
        // A head the parser refused: nothing of it is known but why.
        if (context.refusal.status != 0) {
            end_connection(response);
            const api::ErrorCode& code = context.refusal.status == 414 ? error_code::uri_too_long
                                         : context.refusal.status == 431
                                             ? error_code::headers_too_large
                                             : error_code::bad_request;
            return ctx.fail(code, context.refusal.reason.empty() ? std::string(code.example)
                                                                 : context.refusal.reason);
        }
        const http::BodyStatus body_status = context.body;
        // A request whose body the server did not read ends its connection: where the next
        // request would begin is unknown.
        if (body_status != http::BodyStatus::complete) end_connection(response);
        if (body_status == http::BodyStatus::bad_framing) {
            return ctx.fail(error_code::bad_request,
                            "the request's framing is broken (a malformed chunk or trailer)");
        }
        if (body_status == http::BodyStatus::no_memory) {
            response.set_header("Retry-After", std::to_string(api::memory_retry_after.count()));
            return ctx.fail(error_code::unavailable,
                            "the server's memory for request bodies is in use; retry later");
        }

        std::size_t header_bytes = 0;
        for (const auto& [name, value] : request.headers)
            header_bytes += name.size() + value.size() + 4;
        if (header_bytes > config_.max_header_bytes) {
            return ctx.fail(error_code::headers_too_large);
        }
        if (match.route == nullptr) {
            if (match.allow.empty()) return ctx.not_found(api::no_route_message);
            response.set_header("Allow", match.allow);
            return ctx.fail(
                error_code::method_not_allowed,
                "method " + request.method + " is not allowed here (allowed: " + match.allow + ")");
        }
        // The key before the body (API.md section 11): an unauthenticated request never has its
        // body read.
        if (ctx.route.access == api::Access::api_key && !authenticate(ctx, std::move(admitted)))
            return;
        http::Body body = http::read_body(request, response, reader, limit, body_status);
        // Whatever the answer, a connection with unread request bytes cannot go on: they would
        // be read as the next request.
        if (body.unread_rest) end_connection(response);
        switch (body.status) {
            case http::BodyRead::ok:
                break;
            case http::BodyRead::too_large:
                return ctx.fail(error_code::payload_too_large,
                                "request body is larger than " + std::to_string(limit) + " bytes");
            case http::BodyRead::unsupported_encoding:
                return ctx.fail(error_code::unsupported_media_type, "unsupported Content-Encoding");
            case http::BodyRead::failed:
            case http::BodyRead::not_read:
                return ctx.fail(error_code::bad_request);
        }
        ctx.body = std::move(body.bytes);
        serve(ctx);
    } catch (const StoreError& e) {
        if (e.unavailable()) {
            response.set_header("Retry-After", "1");
            ctx.fail(error_code::unavailable);
        } else {
            ctx.fail(error_code::internal);
        }
        std::fprintf(stderr, "{\"requestId\":\"%s\",\"error\":\"storage\",\"unavailable\":%s}\n",
                     request_id.c_str(), e.unavailable() ? "true" : "false");
    } catch (const std::exception&) {
        ctx.fail(error_code::internal);
    }
}

void Api::serve(Context& ctx) {
    const Route& route = ctx.route;
    if (route.has_body()) {
        const std::string* content_type = http::find_header(ctx.request.headers, "Content-Type");
        // A POST that takes no body may come without one and without a Content-Type.
        const bool empty_allowed = route.body == api::Body::empty_or_json && ctx.body.empty();
        const bool merge_patch = route.body == api::Body::merge_patch;
        if (!empty_allowed && !http::is_json_media_type(
                                  content_type ? *content_type : std::string_view{}, merge_patch)) {
            return ctx.fail(error_code::unsupported_media_type,
                            merge_patch ? "Content-Type must be application/json or "
                                          "application/merge-patch+json"
                                        : "Content-Type must be application/json");
        }
    }

    if (route.idempotent()) {
        if (const std::string* key = http::find_header(ctx.request.headers, "Idempotency-Key"))
            return run_idempotent(ctx, *key);
    }
    (this->*handler(route.operation))(ctx);
}

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

Api::Serving::Serving(RequestContext& context) noexcept : previous_(serving) {
    serving = &context;
}

Api::Serving::~Serving() {
    serving = previous_;
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

bool Api::authenticate(Context& ctx, std::optional<KeyRecord> admitted) {
    const auto reject = [&](bool token_given) {
        ctx.response.set_header("WWW-Authenticate",
                                token_given ? R"(Bearer realm="collectcall", error="invalid_token")"
                                            : R"(Bearer realm="collectcall")");
        ctx.fail(error_code::unauthorized, std::string(api::unauthorized_message));
        return false;
    };
    // A request admitted from its head (the same bytes, the same bearer key) was authenticated
    // then.
    bool token_given = admitted.has_value();
    const auto record = admitted ? std::move(admitted) : verify_key(ctx.request, token_given);
    if (!record) return reject(token_given);
    const std::string_view key_id = api_key_id(*http::bearer_token(ctx.request));
    ctx.account = record->account_id;
    ctx.key_id = std::string(key_id);

    const RateLimiter::Decision rate = limiter_.check(ctx.key_id);
    if (limiter_.enabled()) {
        // Every authenticated answer tells the client where it stands (the IETF draft's
        // RateLimit-* fields): the burst, what is left of it, and when it is whole again.
        ctx.response.set_header("RateLimit-Limit", std::to_string(rate.limit));
        ctx.response.set_header("RateLimit-Remaining", std::to_string(rate.remaining));
        ctx.response.set_header("RateLimit-Reset", std::to_string(rate.reset));
    }
    if (!rate.allowed) {
        if (config_.metrics != nullptr) config_.metrics->rate_limited();
        ctx.response.set_header("Retry-After", std::to_string(rate.retry_after));
        ctx.fail(error_code::rate_limited,
                 "too many requests; retry after " + std::to_string(rate.retry_after) + " s");
        return false;
    }
    return true;
}

void Api::run_idempotent(Context& ctx, std::string_view header) {
    const auto parsed = api::IdempotencyKey::parse(header);
    if (!parsed) {
        return ctx.fail(error_code::validation_failed,
                        "Idempotency-Key " + std::string(parsed.problem().message));
    }
    const std::string_view key = parsed.value().view();
    // The request is identified by what it asks, not by how it was framed.
    std::string fingerprint_input = ctx.request.method;
    fingerprint_input += ' ';
    fingerprint_input += ctx.request.path;
    fingerprint_input += '\n';
    fingerprint_input += ctx.body;
    const Sha256 fingerprint = sha256(fingerprint_input);

    const IdempotencyBegin begin =
        store_.begin_idempotent(ctx.account, key, fingerprint, clock_.now());
    switch (begin.state) {
        case IdempotencyState::mismatch:
            return ctx.fail(error_code::idempotency_key_reused);
        case IdempotencyState::in_flight:
            return ctx.fail(error_code::idempotency_key_in_flight);
        case IdempotencyState::replay:
            ctx.response.headers.erase("X-Request-Id");
            ctx.response.set_header("X-Request-Id", begin.response.request_id);
            ctx.response.set_header("Idempotent-Replayed", "true");
            send_json(ctx.response, begin.response.status, begin.response.body);
            return;
        case IdempotencyState::started:
            break;
    }

    // Until the response is recorded, the key is held; any way out without a response that can
    // be replayed (a fault, the storage failing) releases it so that a retry runs again.
    struct Release {
        Store& store;
        const Uuid& account;
        std::string_view key;
        bool armed = true;
        ~Release() {
            if (!armed) return;
            try {
                store.abandon_idempotent(account, key);
            } catch (const std::exception&) {
                // The row stays in flight until the next start of the server clears it.
            }
        }
    } release{store_, ctx.account, key};

    (this->*handler(ctx.route.operation))(ctx);
    // A 5xx is not recorded: the release rolls back what the request wrote and frees the key.
    if (ctx.response.status >= 500) return;
    // The answer is committed in one transaction with the work it answers (store.hpp): a crash
    // before the commit leaves neither (the key is freed at the next start and a retry runs the
    // work once), after it both (a retry replays). A commit that fails keeps neither: the
    // release frees the key, and the client gets 503 from dispatch instead of an answer whose
    // work is not there.
    store_.finish_idempotent(
        ctx.account, key,
        StoredResponse{ctx.response.status, ctx.replay_body.value_or(ctx.response.body),
                       ctx.request_id});
    release.armed = false;
    if (!config_.test_kill_after_commit.empty() && key == config_.test_kill_after_commit) {
        ::kill(::getpid(), SIGKILL);  // tests only: the crash between the commit and the answer
    }
}

// --- Endpoints ---------------------------------------------------------------------------------

void Api::openapi_document(Context& ctx) {
    // Bare, like healthz: it is a document, not an API call. Built once; every answer refers to
    // the same bytes until its client has taken them.
    static const std::shared_ptr<const http::BodySource> document =
        http::shared_document(std::make_shared<const std::string>(collectcall::openapi()));
    current().source = http::send_source(ctx.request, ctx.response, document, json_type);
}

void Api::health(Context& ctx) {
    // Bare (API.md section 1): a probe reads only the status. Liveness: the process answers;
    // whether it can serve is /readyz's question.
    send_json(ctx.response, 200, write(HealthStatus{"ok"}));
}

void Api::ready(Context& ctx) {
    // Readiness: the store answers a trivial read. A load balancer takes a process whose
    // database is unreachable out of rotation without restarting it.
    try {
        store_.check();
        send_json(ctx.response, 200, write(HealthStatus{"ready"}));
    } catch (const StoreError&) {
        send_json(ctx.response, 503, write(HealthStatus{"unavailable"}));
    }
}

void Api::metrics_document(Context& ctx) {
    // Bare, no key, like healthz: what a Prometheus scraper expects.
    if (config_.metrics == nullptr) return ctx.not_found(api::no_route_message);
    ctx.response.status = 200;
    ctx.response.set_content(config_.metrics->text(), "text/plain; version=0.0.4; charset=utf-8");
}

namespace {

StoredCustomer new_customer(CustomerCreate fields, Time now) {
    StoredCustomer stored;
    static_cast<CustomerCreate&>(stored.customer) = std::move(fields);
    stored.customer.id = new_time_ordered_uuid();
    stored.customer.createdAt = Timestamp::from_time(now);
    stored.customer.updatedAt = stored.customer.createdAt;
    stored.thread_id = new_uuid();
    return stored;
}

// The body of a POST that takes none: empty, or an empty object.
bool read_no_body(Api::Context& ctx) {
    if (ctx.body.empty()) return true;
    auto read_result = read<EmptyObject>(ctx.body);
    if (read_result) return true;
    ctx.fail_read(std::move(read_result).errors());
    return false;
}

}  // namespace

void Api::create_customer(Context& ctx) {
    auto body = read<CustomerCreate>(ctx.body, read_options());
    if (!body) return ctx.fail_read(std::move(body).errors());
    StoredCustomer stored = new_customer(std::move(body).value(), clock_.now());
    if (!store_.insert_customer(ctx.account, stored)) {
        return ctx.fail(error_code::duplicate_external_id,
                        api::duplicate_external_id_message(stored.customer.externalId.view()));
    }
    ctx.reply(200, std::move(stored.customer));
}

void Api::find_customers(Context& ctx) {
    ErrorList errors;
    for (const auto& [name, value] : ctx.request.params) {
        if (name != "externalId") {
            errors.push_back(Error{"", std::string(codes::unknown_field),
                                   "query parameter " + name + " is not known"});
        }
    }
    const std::size_t count = ctx.request.get_param_value_count("externalId");
    if (count == 0) {
        errors.push_back(
            Error{"", std::string(codes::required), "query parameter externalId is required"});
    } else if (count > 1) {
        errors.push_back(Error{"", std::string(codes::duplicate_field),
                               "query parameter externalId appears more than once"});
    }
    if (!errors.empty()) return ctx.fail_validation(std::move(errors));

    CustomerList list;
    if (auto found = store_.find_customer_by_external_id(
            ctx.account, ctx.request.get_param_value("externalId"))) {
        list.customers.push_back(std::move(found->customer));
    }
    ctx.reply(200, std::move(list));
}

namespace {

// What a bulk request is read into and stored from, one per worker thread, kept from request to
// request: read_into reads over the items of the previous request, and both vectors keep their
// capacity, so a bulk allocates its items' storage once per thread instead of once per request.
// A vector of 1 MiB or more is not kept (the size from which the server has glibc map buffers on
// their own, main.cpp).
struct BulkScratch {
    BulkCreateRequest request;
    std::vector<StoredCustomer> valid;

    void release_if_large() {
        constexpr std::size_t kept = std::size_t{1} << 20;
        if (request.customers.capacity() * sizeof(Validated<CustomerCreate>) >= kept)
            request = BulkCreateRequest{};
        if (valid.capacity() * sizeof(StoredCustomer) >= kept) valid = {};
    }
};

}  // namespace

void Api::create_customers(Context& ctx) {
    thread_local BulkScratch scratch;
    struct Release {
        BulkScratch& s;
        ~Release() { s.release_if_large(); }
    } release{scratch};
    ErrorList errors = read_into(ctx.body, scratch.request, read_options());
    if (!errors.empty()) return ctx.fail_read(std::move(errors));
    std::vector<Validated<CustomerCreate>>& items = scratch.request.customers;

    const Time now = clock_.now();
    std::vector<StoredCustomer>& valid = scratch.valid;
    valid.clear();
    valid.reserve(items.size());
    for (Validated<CustomerCreate>& item : items) {
        if (item.ok()) valid.push_back(new_customer(std::move(item.value()), now));
    }
    const std::vector<bool> created = store_.insert_customers(ctx.account, valid);
    ctx.reply(200,
              bulk_result(std::span(items), std::span(valid), created, &StoredCustomer::customer));
}

void Api::get_customer(Context& ctx) {
    const auto id = ctx.path_id();
    if (!id) return ctx.not_found(api::customer_not_found_message);
    auto stored = store_.find_customer(ctx.account, *id);
    if (!stored) return ctx.not_found(api::customer_not_found_message);
    ctx.reply(200, std::move(stored->customer));
}

void Api::patch_customer(Context& ctx) {
    const auto id = ctx.path_id();
    if (!id) return ctx.not_found(api::customer_not_found_message);
    auto patch = read<CustomerPatch>(ctx.body, read_options());
    if (!patch) return ctx.fail_read(std::move(patch).errors());

    const Time now = clock_.now();
    ErrorList errors;
    auto updated = store_.update_customer(ctx.account, *id, [&](StoredCustomer& stored) {
        errors.clear();  // a store may run this again, on the customer as it is then
        // Merged into a copy, then validated as a whole (API.md section 6).
        auto merged = apply_patch(stored.customer, patch.value());
        if (!merged) {
            errors = std::move(merged).errors();
            return false;
        }
        if (!merged.value().changed) return false;
        static_cast<CustomerCreate&>(stored.customer) = std::move(merged.value().customer);
        stored.customer.updatedAt = Timestamp::from_time(now);
        return true;
    });
    if (!updated) return ctx.not_found(api::customer_not_found_message);
    if (!errors.empty()) return ctx.fail_validation(std::move(errors));
    ctx.reply(200, std::move(updated->customer));
}

void Api::set_customer_flag(Context& ctx, bool StoredCustomer::*flag, bool value) {
    const auto id = ctx.path_id();
    if (!id) return ctx.not_found(api::customer_not_found_message);
    if (!read_no_body(ctx)) return;
    const Time now = clock_.now();
    auto updated = store_.update_customer(ctx.account, *id, [&](StoredCustomer& stored) {
        if (stored.*flag == value) return false;  // idempotent: nothing changes, not even updatedAt
        stored.*flag = value;
        stored.customer.updatedAt = Timestamp::from_time(now);
        return true;
    });
    if (!updated) return ctx.not_found(api::customer_not_found_message);
    ctx.reply(200, std::move(updated->customer));
}

void Api::cease_and_desist(Context& ctx) {
    // There is no way back: a consumer's cease-and-desist request is final.
    set_customer_flag(ctx, &StoredCustomer::cease_and_desist, true);
}

void Api::deactivate(Context& ctx) {
    set_customer_flag(ctx, &StoredCustomer::active, false);
}

void Api::activate(Context& ctx) {
    set_customer_flag(ctx, &StoredCustomer::active, true);
}

void Api::create_call(Context& ctx) {
    // The order of API.md section 8: the customer (404), the body (400), the agent (403), then
    // compliance.
    const auto id = ctx.path_id();
    if (!id) return ctx.not_found(api::customer_not_found_message);
    if (!store_.find_customer(ctx.account, *id))
        return ctx.not_found(api::customer_not_found_message);

    auto body = read<CallRequest>(ctx.body, read_options());
    if (!body) return ctx.fail_read(std::move(body).errors());
    CallRequest& request = body.value();

    if (request.webhook) {
        ErrorList errors;
        const Url& url = request.webhook->url;
        const auto resolution =
            resolver_.resolve(url.host(), url.port(), config_.allow_private_webhooks);
        switch (resolution.status) {
            case webhook::ResolveStatus::ok:
                break;
            case webhook::ResolveStatus::temporary_failure:
                ctx.response.set_header("Retry-After", "5");
                return ctx.fail(error_code::unavailable,
                                "the webhook host could not be resolved now; retry later");
            case webhook::ResolveStatus::invalid_host:
                errors.push_back(
                    Error{"/webhook/url", std::string(codes::format), resolution.message});
                break;
            case webhook::ResolveStatus::does_not_resolve:
            case webhook::ResolveStatus::timed_out:
                errors.push_back(
                    Error{"/webhook/url", std::string(codes::not_found), resolution.message});
                break;
            case webhook::ResolveStatus::refused:
                errors.push_back(
                    Error{"/webhook/url", std::string(codes::not_allowed), resolution.message});
                break;
        }
        // Without a secretId the deliveries are unsigned (API.md section 9).
        const auto& secret_id = request.webhook->secretId;
        if (secret_id && !store_.find_webhook_secret(ctx.account, *secret_id)) {
            errors.push_back(Error{"/webhook/secretId", std::string(codes::not_found),
                                   "is not a webhook secret of this account"});
        }
        if (!errors.empty()) return ctx.fail_validation(std::move(errors));
    }

    if (!store_.agent_assigned(ctx.account, request.agentId.view())) {
        return ctx.fail(error_code::agent_not_assigned);
    }

    const AccountSettings settings = store_.account_settings(ctx.account);
    const Time now = clock_.now();
    const auto plan = store_.place_call(
        ctx.account, *id, now - config_.call_history,
        [&](const StoredCustomer& stored, const ContactHistory& history) {
            CallPlan plan;
            plan.decision = compliance::decide(
                compliance_input(stored, settings, history, now, ContactChannel::call),
                ComplianceOperation::call);
            plan.call.id = new_uuid();
            plan.call.threadId = stored.thread_id;
            plan.call.toPhoneNumber = stored.customer.primaryPhone;
            const auto from = caller_number(settings.caller_numbers, stored.customer.primaryPhone);
            // init gives every account a number: an empty pool is a broken store.
            if (!from) throw std::runtime_error("the account has no caller number");
            plan.call.fromPhoneNumber = *from;
            plan.call.compliance = plan.decision.compliance;
            plan.call.createdAt = Timestamp::from_time(now);
            plan.place = plan.call.compliance.passed;
            if (!plan.place) plan.call.nextEligibleAt = plan.decision.nextEligibleAt;
            plan.agent_id = std::string(request.agentId.view());
            plan.webhook = request.webhook;
            return plan;
        });
    if (!plan) return ctx.not_found(api::customer_not_found_message);
    if (!plan->place) {
        // Blocked: not placed, not counted; the data shows what would have been called, and
        // when it could be.
        return ctx.fail(error_code::compliance_failed,
                        compliance::failure_message(plan->call.compliance), {}, plan->call);
    }
    dialer_.placed(PlacedCall{ctx.account, *id, *plan});
    ctx.reply(200, static_cast<const Call&>(plan->call));
}

void Api::list_calls(Context& ctx) {
    const auto id = ctx.path_id();
    if (!id) return ctx.not_found(api::customer_not_found_message);
    if (!store_.find_customer(ctx.account, *id))
        return ctx.not_found(api::customer_not_found_message);
    ctx.reply(200, CallList{store_.list_calls(ctx.account, *id)});
}

void Api::get_call(Context& ctx) {
    const auto id = ctx.path_id();
    if (!id) return ctx.not_found(api::call_not_found_message);
    auto call = store_.find_call(ctx.account, *id);
    if (!call) return ctx.not_found(api::call_not_found_message);
    ctx.reply(200, std::move(*call));
}

void Api::create_webhook_secret(Context& ctx) {
    // The secret text is shown in this answer only (API.md section 5): an Idempotency-Key replay
    // names the secret, with "secret": null.
    const auto answer = [&](WebhookSecret secret) {
        Envelope<SecretReplay> replay;
        replay.requestId = uuid_of(ctx.request_id);
        replay.data.id = secret.id;
        ctx.replay_body = write(replay);
        ctx.reply(200, std::move(secret));
    };
    // No body or `{}`: a new secret. {id, secret}: a secret brought from the hosted service,
    // kept under its own id (API.md section 5).
    const bool make = ctx.body.empty() || read<EmptyObject>(ctx.body).ok();
    if (make) {
        WebhookSecret secret{new_uuid(), webhook::generate_secret()};
        store_.insert_webhook_secret(ctx.account, secret.id, secret.secret, clock_.now());
        return answer(std::move(secret));
    }
    auto body = read<WebhookSecretImport>(ctx.body, read_options());
    if (!body) return ctx.fail_read(std::move(body).errors());
    WebhookSecret secret{body.value().id, std::string(body.value().secret.view())};
    if (store_.insert_webhook_secret(ctx.account, secret.id, secret.secret, clock_.now()) ==
        SecretInsert::taken) {
        return ctx.fail(
            error_code::webhook_secret_taken,
            "webhook secret id " + std::string(secret.id.view()) + " is already in use");
    }
    answer(std::move(secret));
}

namespace {

class RecordingSource final : public http::BodySource {
  public:
    explicit RecordingSource(std::int64_t duration_ms) : wav_(duration_ms) {}
    [[nodiscard]] std::size_t size() const override { return wav_.size(); }
    [[nodiscard]] std::string_view read(std::size_t offset,
                                        std::span<char> scratch) const override {
        const std::size_t n = std::min(scratch.size(), wav_.size() - offset);
        wav_.copy(offset, scratch.data(), n);
        return {scratch.data(), n};
    }

  private:
    webhook::SilentWav wav_;
};

}  // namespace

void Api::get_recording(Context& ctx) {
    // Bare (API.md section 1): the signed link is the credential, the answer is the audio.
    const auto id = ctx.path_id();
    std::int64_t duration_ms = 0;
    const auto verdict =
        id && config_.recording
            ? config_.recording->check(id->view(), ctx.request.get_param_value("expires"),
                                       ctx.request.get_param_value("durationMs"),
                                       ctx.request.get_param_value("signature"), duration_ms)
            : webhook::RecordingLink::invalid;
    switch (verdict) {
        case webhook::RecordingLink::invalid:
            return ctx.not_found(api::recording_not_found_message);
        case webhook::RecordingLink::expired:
            return ctx.fail(error_code::link_expired);
        case webhook::RecordingLink::ok:
            break;
    }
    // Made as it is sent: a connection holds its place in the file, not the file.
    current().source =
        http::send_source(ctx.request, ctx.response,
                          std::make_shared<const RecordingSource>(duration_ms), "audio/wav");
}

}  // namespace collectcall::server
