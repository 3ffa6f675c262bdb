// One request on its way through the API: the RequestContext the server makes for it (what its
// reader decided, what the API decides for its connection), the Exchange a handler works with
// (the request, its response, who is asking, the answer's helpers), and the Services every
// handler may use (the store, the clock, the dialer, the configuration).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <httplib.h>

#include <collectcall/api/envelope.hpp>
#include <collectcall/api/errors.hpp>
#include <collectcall/api/routes.hpp>
#include <collectcall/core/errors.hpp>
#include <collectcall/core/write.hpp>
#include <collectcall/webhook/resolver.hpp>

#include "clock.hpp"
#include "dialer.hpp"
#include "http.hpp"
#include "metrics.hpp"
#include "output.hpp"
#include "rate_limit.hpp"
#include "store.hpp"
#include "webhook_body.hpp"

namespace collectcall::server {

struct ApiConfig {
    // A webhook may target loopback and private networks (tests, a receiver on this machine).
    bool allow_private_webhooks = false;
    // Request bodies are bounded by their route (collectcall/api/routes.hpp).
    std::size_t max_bulk_items = api::max_bulk_items;
    // All request headers together; the request reader bounds each line (8 KiB) and the head
    // (this plus 16 KiB) as it parses.
    std::size_t max_header_bytes = std::size_t{64} << 10;
    // How far back place_call looks for the contacts compliance counts: the history the rule
    // table requires (compliance::required_history: its longest period, Regulation F's seven
    // local days with the built-in table, and a day for the candidate zones' offsets).
    std::chrono::hours call_history{compliance::required_history};
    bool access_log = true;
    // Tests only (`serve` reads it from the environment variable
    // COLLECTCALL_TEST_KILL_AFTER_COMMIT): the process kills itself with SIGKILL once the work
    // of the request with this Idempotency-Key and its answer are committed, before the answer
    // is sent, the crash that exactly-once must survive. Empty: never.
    std::string test_kill_after_commit;
    // Requests, rate limiting and what the server registers are counted here (GET /metrics)
    // when set.
    Metrics* metrics = nullptr;
    // Signs and checks the links to call recordings (GET /api/v1/calls/{id}/recording); without
    // it that route answers 404.
    std::shared_ptr<const RecordingLinks> recording;
};

// One request on its way from the reader to its answer: what the server's reader decided of it
// (the refusal of its head, its body, the key it was admitted with), and what the API decides
// for its connection and its metrics. The server makes one per request and hands it to
// Api::handle with the request (http_server.cpp).
struct RequestContext {
    http::Refusal refusal;
    http::BodyStatus body = http::BodyStatus::complete;
    // The key it was admitted with (Api::admit), or nullopt for a request that arrived whole
    // with its head: it is then authenticated with this key instead of looking its key up and
    // hashing it a second time.
    std::optional<KeyRecord> admitted;
    // The API ends the connection after the answer.
    bool close = false;
    // A body the server sends after the answer's head without copying it into the response (a
    // shared document, a recording made as it is sent: output.hpp).
    std::shared_ptr<const http::BodySource> source;
    // Holds `bytes` of the request's body as decoded so far against the memory budget, for
    // `account` (empty: none), in place of what its bytes as sent held; false when the budget, or
    // the account's share of it, cannot take them (API.md section 17: bodies are charged
    // decoded). Unset for a request of Server::serve_bytes: nothing is charged.
    std::function<bool(std::string_view account, std::size_t bytes)> hold_body;
    // When the API took the request, for its duration in the metrics and the access log.
    std::chrono::steady_clock::time_point start;
    // The route it matched, for the metrics: strings of the route table, or literals.
    std::string_view method = "other";
    std::string_view route = "unmatched";
};

struct Exchange;

// Answers a request's rate decision: the RateLimit-* headers when limiting is on, and 429 with
// Retry-After when it is refused (false then).
bool answer_rate(Exchange& x, const RateLimiter& limiter, const RateLimiter::Decision& rate,
                 Metrics* metrics);

// What the handlers share: made once by the Api, used by every request.
struct Services {
    Store& store;
    const Clock& clock;
    Dialer& dialer;
    const ApiConfig& config;
    // Webhook host lookups at call creation, at most 2 s each (API.md section 11).
    webhook::Resolver& resolver;
    // Requests per second per API key: a request is charged at its admission, a bulk request
    // its items once they are read (charge_items).
    RateLimiter& limiter;

    // How bodies are read today: dates are checked against the clock's day, and a message's
    // timestamp against its time.
    [[nodiscard]] ReadOptions read_options() const;
    // The same services with an Idempotency-Key request's store (Store::begin_idempotent).
    [[nodiscard]] Services with_store(Store& request_store) const {
        return {request_store, clock, dialer, config, resolver, limiter};
    }

    // A bulk request costs its items against the rate limit (API.md section 17): the items
    // beyond the one its admission took are charged before anything is done. false after
    // answering 429 when the key's bucket lacks them.
    [[nodiscard]] bool charge_items(Exchange& x, std::size_t items) const;
};

// A request id's UUID (a fresh one for text that is not one).
Uuid uuid_of(std::string_view text);

// Sets a JSON answer: its status, its body and its Content-Type.
void send_json(httplib::Response& response, int status, std::string body);

// The error body (API.md section 3), the library's (collectcall/api/envelope.hpp), written.
template <class T = null_t>
std::string error_document(std::string_view request_id, const api::ErrorCode& error,
                           std::string message, ErrorList details = {}, T data = {}) {
    return write(api::error_envelope(uuid_of(request_id), error, std::move(message),
                                     std::move(details), std::move(data)));
}

// A request as its handler sees it, past the pipeline (api.cpp): routed, authenticated, its
// body read and its media type checked. A handler answers through `reply` or `fail`.
struct Exchange {
    const httplib::Request& request;
    httplib::Response& response;
    RequestContext& context;
    const api::Route& route;
    std::string request_id;
    std::string body;
    // The segments of the path that matched its "{...}", in order.
    std::span<const std::string> path_parameters;
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
    void fail_read(ErrorList errors);
    void fail_validation(ErrorList errors);
    void not_found(std::string_view message) { fail(api::errors::not_found, std::string(message)); }

    // The path's "{...}" number `index` as a UUID (the first by default); nullopt (a 404, API.md
    // section 2) when it is not one.
    [[nodiscard]] std::optional<Uuid> path_id(std::size_t index = 0) const;

    // What a paged list's request asks for (limit and cursor, api/page.hpp), the list being
    // `owner`'s; nullopt when its query parameters are refused (then the answer is given).
    [[nodiscard]] std::optional<api::PageRequest> page_request(const api::PageOwner& owner);

    // Ends the connection after the answer: the response says so, and the server does so.
    void end_connection();
};

}  // namespace collectcall::server
