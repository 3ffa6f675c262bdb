#include "server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

#include <httplib.h>

#include "simulated_dialer.hpp"
#include "sqlite_store.hpp"

namespace collectcall::server {

namespace {

// cpp-httplib 0.11 listens with a backlog of 5, compiled into the library; a burst of clients
// connecting at once would wait for SYN retries. The listening socket is protected state.
class HttpServer final : public httplib::Server {
  public:
    void widen_backlog() {
        ::listen(svr_sock_, SOMAXCONN);
        // cpp-httplib gives every accepted connection a worker thread until its first request
        // arrives (up to the keep-alive timeout): idle connections would queue real requests
        // behind them. Linux hands a connection to accept() only once it has sent data (or
        // after this many seconds).
        int defer_seconds = 10;
        ::setsockopt(svr_sock_, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_seconds,
                     sizeof defer_seconds);
    }
    // A socket bound but never served is not closed by cpp-httplib.
    void close_unserved() {
        const auto sock = svr_sock_.exchange(INVALID_SOCKET);
        if (sock != INVALID_SOCKET) ::close(sock);
    }
};

std::unique_ptr<Store> open_store(const ServerOptions& options) {
    auto store =
        std::make_unique<SqliteStore>(SqliteOptions{options.db_path, options.busy_timeout_ms});
    store->forget_requests_in_flight();
    return store;
}

DeliveryOptions delivery_options(const ServerOptions& options) {
    DeliveryOptions delivery;
    delivery.allow_private = options.api.allow_private_webhooks;
    delivery.backoff_scale = options.webhook_backoff_scale;
    delivery.workers = options.webhook_workers;
    delivery.ca_file = options.webhook_ca_file;
    delivery.timeout = options.webhook_timeout;
    delivery.log = options.api.access_log;
    return delivery;
}

std::size_t worker_count(std::size_t requested) {
    if (requested != 0) return requested;
    // cpp-httplib gives a connection its thread for as long as it is kept alive, and requests
    // mostly wait on SQLite's fsync: several threads per core.
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    return std::max<std::size_t>(16, 4 * cores);
}

}  // namespace

Server::Server(ServerOptions options, std::unique_ptr<Store> store)
    : options_(std::move(options)),
      store_(store ? std::move(store) : open_store(options_)),
      clock_(options_.now),
      outbox_(std::make_unique<SqliteWebhookOutbox>(
          SqliteOptions{options_.db_path, options_.busy_timeout_ms})),
      delivery_(std::make_unique<WebhookDelivery>(*outbox_, delivery_options(options_))),
      dialer_(std::make_unique<SimulatedDialer>(
          *store_, clock_, std::chrono::milliseconds{options_.call_step_ms},
          [delivery = delivery_.get()] { delivery->notify(); }, options_.api.access_log)),
      limiter_(options_.rate_limit),
      api_(*store_, clock_, *dialer_, limiter_, options_.api),
      threads_(worker_count(options_.threads)),
      http_(std::make_unique<HttpServer>()) {
    httplib::Server& http = *http_;
    const std::size_t threads = threads_;
    http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    http.set_tcp_nodelay(true);
    http.set_keep_alive_max_count(1000);
    http.set_keep_alive_timeout(options_.keep_alive_timeout.count());
    http.set_read_timeout(options_.read_timeout.count());
    http.set_write_timeout(10);
    // cpp-httplib's own check (Content-Length only); the API enforces the real limits.
    http.set_payload_max_length(options_.api.drain_limit);
    api_.install(http);

    // Calls move and webhooks go out from here on, including what an earlier process left
    // pending.
    delivery_->start();
    dialer_->start(store_->calls_in_progress());
}

Server::~Server() {
    stop();
    static_cast<HttpServer&>(*http_).close_unserved();
    dialer_->stop();
    delivery_->stop();
}

int Server::bind() {
    int port = options_.port;
    if (port == 0) {
        port = http_->bind_to_any_port(options_.host);
        if (port < 0) port = 0;
    } else if (!http_->bind_to_port(options_.host, port)) {
        port = 0;
    }
    if (port == 0) {
        throw std::runtime_error("cannot listen on " + options_.host + ":" +
                                 std::to_string(options_.port));
    }
    static_cast<HttpServer&>(*http_).widen_backlog();
    return port;
}

void Server::run() {
    running_ = true;
    if (!stopping_) http_->listen_after_bind();
    running_ = false;
}

void Server::stop() {
    // cpp-httplib ignores stop() until its accept loop runs: wait for it rather than lose the
    // request (a signal may come while the server is starting).
    stopping_ = true;
    while (running_ && !http_->is_running())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (http_->is_running()) http_->stop();
}

}  // namespace collectcall::server
