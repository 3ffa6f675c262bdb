// The HTTP API of SPEC.md and API.md: the pipeline every request goes through
// (admission, authentication and the rate limit, the media type, the body, the Idempotency-Key,
// the error envelope) before the handler of its endpoint (handlers/).
//
// api.cpp routes and reads the request, api_access.cpp authenticates it, api_idempotency.cpp
// replays or records its answer. What is decided here is only HTTP: which status, which header;
// every rule of the service is the library's.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include <httplib.h>

#include <collectcall/webhook/resolver.hpp>

#include "clock.hpp"
#include "dialer.hpp"
#include "exchange.hpp"
#include "rate_limit.hpp"
#include "store.hpp"

namespace collectcall::server {

class Api {
  public:
    Api(Store& store, const Clock& clock, Dialer& dialer, RateLimiter& limiter, ApiConfig config);
    Api(const Api&) = delete;
    Api& operator=(const Api&) = delete;

    // Answers one request, whatever its method: the entrance of every request the server's
    // reader parsed (http_server.cpp). `context` says what the reader decided of it (a refused
    // head, its body's status, the key it was admitted with) and gets what the API decides for
    // its connection; `request.body` is taken. The server then writes `response` (output.hpp)
    // and calls finish().
    void handle(RequestContext& context, httplib::Request& request, httplib::Response& response);
    // Counts the answer in the metrics and writes its access log line, once it is written.
    void finish(const RequestContext& context, const httplib::Request& request,
                const httplib::Response& response);

    // For a request whose head has arrived and whose body has not: the most body bytes it may
    // send and the key it was authenticated with, or nullopt when it is answered from its head
    // alone and its body never read (no route takes a body there, the bearer key is refused,
    // Content-Length is over the route's limit). The server's event loop asks on a worker
    // thread: the key is looked up in the store.
    struct Admission {
        std::size_t max_body = 0;
        std::optional<KeyRecord> key;  // routes that take an API key
    };
    std::optional<Admission> admit(const httplib::Request& head);

    // What the handlers use, for the server's background jobs that act as they do (the drip
    // campaign scheduler).
    [[nodiscard]] Services& services() noexcept { return services_; }

  private:
    void dispatch(RequestContext& context, httplib::Request& request, httplib::Response& response);
    void serve(Exchange& x);
    bool authenticate(Exchange& x, std::optional<KeyRecord> admitted);
    std::optional<KeyRecord> verify_key(const httplib::Request& request, bool& token_given);
    void run_idempotent(Exchange& x, std::string_view header);

    Store& store_;
    const Clock& clock_;
    RateLimiter& limiter_;
    ApiConfig config_;
    webhook::Resolver resolver_;
    // What the handlers use (handlers/): the members above.
    Services services_;
};

}  // namespace collectcall::server
