// The HTTP API of SPEC.md and API.md on cpp-httplib: routing, authentication, limits, the
// envelope, idempotency, and one handler per endpoint.
//
// Handlers move bytes between HTTP, the library and the store. Every rule of the service
// (validation, merge patch, compliance, the error body) is the library's; what is decided here
// is only HTTP: which status, which header.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <httplib.h>

#include <collectcall/api/routes.hpp>
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
    // How far back place_call looks for the contacts compliance counts: Regulation F's seven
    // local days and a day for the candidate zones' offsets (compliance::required_history).
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
// before cpp-httplib hands it to the API (the refusal of its head, its body, the key it was
// admitted with), and what the API decides for its connection and its metrics. The server makes
// one per request and names it for the time cpp-httplib handles the request (Api::Serving).
struct RequestContext {
    http::Refusal refusal;
    http::BodyStatus body = http::BodyStatus::complete;
    // The key it was admitted with (Api::admit), or nullopt for a request that arrived whole
    // with its head: it is then authenticated with this key instead of looking its key up and
    // hashing it a second time.
    std::optional<KeyRecord> admitted;
    // The API ends the connection after the answer.
    bool close = false;
    // A body sent after the answer's head without passing through cpp-httplib (a shared
    // document, a recording made as it is sent: output.hpp).
    std::shared_ptr<const http::BodySource> source;
    // From the pre-routing hook to the access log.
    bool active = false;
    std::chrono::steady_clock::time_point start;
    // The route it matched, for the metrics: strings of the route table, or literals.
    std::string_view method = "other";
    std::string_view route = "unmatched";
};

class Api {
  public:
    Api(Store& store, const Clock& clock, Dialer& dialer, RateLimiter& limiter, ApiConfig config);

    // Registers every route and hook on `server`.
    void install(httplib::Server& server);

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

    // Names `context` as the one of the request cpp-httplib handles on this thread while it
    // lives. cpp-httplib 0.11 hands its handlers only its request and response; this pointer,
    // set around one process_request call, is how they find the rest of the request.
    class Serving {
      public:
        explicit Serving(RequestContext& context) noexcept;
        ~Serving();
        Serving(const Serving&) = delete;
        Serving& operator=(const Serving&) = delete;

      private:
        RequestContext* previous_;
    };

    struct Context;

  private:
    static void (Api::*handler(api::Operation operation))(Context&);
    void dispatch(const httplib::Request& request, httplib::Response& response,
                  const httplib::ContentReader* reader);
    void serve(Context& ctx);
    bool authenticate(Context& ctx, std::optional<KeyRecord> admitted);
    std::optional<KeyRecord> verify_key(const httplib::Request& request, bool& token_given);
    void run_idempotent(Context& ctx, std::string_view header);
    void complete_error(const httplib::Request& request, httplib::Response& response);

    [[nodiscard]] ReadOptions read_options() const;

    // Endpoints.
    void health(Context& ctx);
    void ready(Context& ctx);
    void metrics_document(Context& ctx);
    void openapi_document(Context& ctx);
    void create_customer(Context& ctx);
    void find_customers(Context& ctx);
    void create_customers(Context& ctx);
    void get_customer(Context& ctx);
    void patch_customer(Context& ctx);
    void create_call(Context& ctx);
    void list_calls(Context& ctx);
    void cease_and_desist(Context& ctx);
    void deactivate(Context& ctx);
    void activate(Context& ctx);
    void get_call(Context& ctx);
    void get_recording(Context& ctx);
    void create_webhook_secret(Context& ctx);

    void set_customer_flag(Context& ctx, bool StoredCustomer::*flag, bool value);

    Store& store_;
    const Clock& clock_;
    Dialer& dialer_;
    RateLimiter& limiter_;
    ApiConfig config_;
    // Webhook host lookups at call creation, at most 2 s each (API.md section 11).
    webhook::Resolver resolver_;
};

}  // namespace collectcall::server
