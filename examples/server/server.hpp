// The server as one object: storage, clock, dialer, rate limiter, the API and its HTTP transport.
// main() runs one; the tests run one in-process on a loopback port.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <collectcall/api/limits.hpp>

#include "api.hpp"
#include "clock.hpp"
#include "dialer.hpp"
#include "metrics.hpp"
#include "rate_limit.hpp"
#include "store.hpp"
#include "webhook_delivery.hpp"
#include "webhook_outbox.hpp"

namespace collectcall::server {

class SharedRateLimits;
class HttpServer;

// Worker threads when ServerOptions::threads is 0: a worker serves one whole request at a time,
// and requests mostly wait on SQLite's fsync or on PostgreSQL, so several per core.
inline constexpr std::size_t workers_per_core = 4;
inline constexpr std::size_t min_workers = 16;

struct ServerOptions {
    std::string db_path = "collectcall.db";
    std::string host = "127.0.0.1";
    int port = 8080;          // 0: any free port (see Server::bind)
    std::optional<Time> now;  // the clock's start: frozen there, or running at clock_rate
    // Tests only (`serve --clock-rate N`): the clock runs N times faster than real time from
    // `now` (or from the system clock's now); 0: frozen at `now` when given.
    double clock_rate = 0;
    int call_step_ms = 2000;
    // Webhook delivery (docs/server.md, "Webhooks"): the retry schedule times this factor
    // (< 1 in tests), the number of delivery threads, and a CA bundle for https receivers in
    // place of the system's (empty: the system's).
    double webhook_backoff_scale = 1.0;
    // The origin of the links to call recordings in call-ended webhooks (`serve --public-url`);
    // empty: http://HOST:PORT as bound.
    std::string public_url;
    std::size_t webhook_workers = 4;
    std::string webhook_ca_file;
    std::chrono::milliseconds webhook_timeout = webhook::attempt_timeout;  // per attempt
    double rate_limit = 1000;  // requests per second per key; 0 = off
    std::size_t threads = 0;   // 0: sized for the machine
    // How long a request's head may take to arrive from its first byte, and then its body from
    // its admission (the bound on slow clients such as slowloris: the connection is closed
    // unanswered), and how long a connection may wait for its next request.
    std::chrono::seconds read_timeout{10};
    std::chrono::seconds keep_alive_timeout{5};
    // How long the rest of an answer the socket did not take at once may wait for the client to
    // read it; then the connection is closed.
    std::chrono::seconds write_timeout{10};
    int busy_timeout_ms = 5000;
    // The memory connections may hold in all: request heads and bodies being read, answers not
    // yet taken (`serve --memory-budget`, API.md section 11).
    std::size_t memory_budget = api::default_memory_budget;
    // PostgreSQL: how long a process's claim on a webhook message or a call in progress lasts
    // without renewal (API.md section 12); tests shorten it (serve --lease-ms, not documented).
    std::chrono::milliseconds lease{60'000};
    // How often delivered webhook messages, old call events and expired Idempotency-Key
    // records are deleted (API.md section 11); the first sweep runs at start.
    std::chrono::milliseconds retention_sweep{3'600'000};
    ApiConfig api;
};

// The PostgreSQL options of a server's options (its --db is a postgresql:// URI), with a
// connection pool sized for its worker threads.
struct PostgresOptions;
PostgresOptions postgres_options(const ServerOptions& options);

class Server {
  public:
    // Opens the SQLite database of `options`, or serves `store` when one is given.
    explicit Server(ServerOptions options, std::unique_ptr<Store> store = nullptr);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    [[nodiscard]] Store& store() noexcept { return *store_; }
    [[nodiscard]] const Clock& clock() const noexcept { return clock_; }

    // Binds the listening socket; returns the port. Throws std::runtime_error on failure.
    int bind();
    // Serves until stop(); returns once the requests in flight are answered.
    void run();
    // Stops accepting; run() returns when in-flight requests are done. Any thread.
    void stop();

    [[nodiscard]] std::size_t threads() const noexcept { return threads_; }

    // One answer of serve_bytes: the bytes of the input it answered (a view into that input)
    // and the response as written, including an interim "100 Continue" before it.
    struct Exchange {
        std::string_view request;
        std::string response;
    };
    // Serves `bytes` as everything one connection sends, without a socket: the requests in it
    // (kept alive, pipelined) go through the request reader, the API and the same
    // connection loop as a socket's, one after the other, until the input is used up, a
    // response ends the connection (Connection: close, or a request the server could not read)
    // or `max_requests` were answered (the last is answered as the last of a kept-alive
    // connection). The client sends nothing more: a request cut short meets the end of the
    // stream. Any thread, with or without run(); the fuzz target of tests/fuzz/ and tests use
    // it.
    std::vector<Exchange> serve_bytes(std::string_view bytes, std::size_t max_requests = 16);

  private:
    ServerOptions options_;
    std::unique_ptr<Metrics> metrics_;  // first: the store and the outbox report to it
    std::unique_ptr<Store> store_;
    Clock clock_;
    std::shared_ptr<RecordingLinks> recording_;  // needs the store's key; the outbox and API use it
    std::unique_ptr<WebhookOutbox> outbox_;
    std::unique_ptr<WebhookDelivery> delivery_;
    std::unique_ptr<Dialer> dialer_;
    RateLimiter limiter_;
    std::unique_ptr<SharedRateLimits> shared_limits_;  // PostgreSQL: counts across processes
    Api api_;
    std::size_t threads_;
    std::unique_ptr<HttpServer> http_;  // the event loop and its workers (http_server.hpp)
    std::atomic<bool> stopping_{false};

    // The retention sweep (options_.retention_sweep) and the drip campaign scheduler, which
    // runs the steps that are due (API.md section 15); both stop on sweep_stop_.
    void sweep_periodically();
    void run_drip_steps();
    std::mutex sweep_mutex_;
    std::condition_variable sweep_wake_;
    bool sweep_stop_ = false;
    std::thread sweeper_;
    std::thread drip_scheduler_;
};

}  // namespace collectcall::server
