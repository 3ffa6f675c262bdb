#include "server.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include <httplib.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <collectcall/api/limits.hpp>

#include "handlers/drip.hpp"
#include "http.hpp"
#include "http_server.hpp"
#include "postgres/postgres.hpp"
#include "postgres/postgres_outbox.hpp"
#include "postgres/postgres_rate_limits.hpp"
#include "postgres/postgres_store.hpp"
#include "simulated_dialer.hpp"
#include "sqlite/sqlite_outbox.hpp"
#include "sqlite/sqlite_store.hpp"

namespace collectcall::server {

namespace {

std::unique_ptr<Store> open_store(const ServerOptions& options) {
    if (pg::is_uri(options.db_path)) {
        auto store = std::make_unique<PostgresStore>(postgres_options(options));
        // Requests in flight in another process are that process's: nothing to forget here
        // (keys of a process that died expire on their own).
        store->start_heartbeat();
        return store;
    }
    auto store =
        std::make_unique<SqliteStore>(SqliteOptions{options.db_path, options.busy_timeout_ms});
    store->forget_requests_in_flight();
    return store;
}

std::unique_ptr<WebhookOutbox> open_outbox(const ServerOptions& options,
                                           std::shared_ptr<const RecordingLinks> links) {
    if (pg::is_uri(options.db_path)) {
        PostgresOptions postgres = postgres_options(options);
        postgres.pool_size = options.webhook_workers + 2;
        return open_postgres_outbox(postgres, std::move(links));
    }
    return std::make_unique<SqliteWebhookOutbox>(
        SqliteOptions{options.db_path, options.busy_timeout_ms}, std::move(links));
}

// The key of recording links: 32 random bytes in hex, kept by the store so that it outlives
// the process and every process of a shared database has the same.
std::shared_ptr<RecordingLinks> recording_links(Store& store, const ServerOptions& options) {
    std::array<unsigned char, 32> random{};
    if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
        throw std::runtime_error("RAND_bytes failed to make the recording key");
    }
    auto links = std::make_shared<RecordingLinks>(
        store.server_key("recording-links", webhook::hex_encode(random)));
    OPENSSL_cleanse(random.data(), random.size());
    if (!options.public_url.empty()) links->set_base_url(options.public_url);
    return links;
}

ApiConfig with_recording(ApiConfig config, std::shared_ptr<const RecordingLinks> links) {
    config.recording = std::move(links);
    return config;
}

DeliveryOptions delivery_options(const ServerOptions& options) {
    DeliveryOptions delivery;
    delivery.allow_private = options.api.allow_private_webhooks;
    delivery.backoff_scale = options.webhook_backoff_scale;
    delivery.workers = options.webhook_workers;
    delivery.ca_file = options.webhook_ca_file;
    delivery.timeout = options.webhook_timeout;
    delivery.renew = std::max(std::chrono::milliseconds{50}, options.lease / 3);
    delivery.log = options.api.access_log;
    return delivery;
}

ApiConfig with_metrics(ApiConfig config, Metrics& metrics) {
    config.metrics = &metrics;
    return config;
}

std::size_t worker_count(std::size_t requested) {
    if (requested != 0) return requested;
    // A worker thread serves one whole request at a time, and requests mostly wait on SQLite's
    // fsync (or on PostgreSQL): several threads per core.
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    return std::max(min_workers, workers_per_core * cores);
}

HttpServer::Options http_options(const ServerOptions& options, std::size_t threads, Api& api,
                                 Metrics& metrics) {
    HttpServer::Options http;
    http.threads = threads;
    http.read_timeout = options.read_timeout;
    http.keep_alive_timeout = options.keep_alive_timeout;
    http.write_timeout = options.write_timeout;
    // A head is cut off once it is larger than the header limit allows (the request line comes on
    // top of the headers); a body never exceeds the largest route's limit.
    http.limits.max_head = options.api.max_header_bytes + (std::size_t{16} << 10);
    http.limits.max_body = api::largest_body;
    http.admit = [&api](const httplib::Request& head) { return api.admit(head); };
    http.handle = [&api](RequestContext& context, httplib::Request& request,
                         httplib::Response& response) { api.handle(context, request, response); };
    http.finish = [&api](const RequestContext& context, const httplib::Request& request,
                         const httplib::Response& response) {
        api.finish(context, request, response);
    };
    http.memory_budget = options.memory_budget;
    http.abandoned = [&metrics] { metrics.abandoned(); };
    http.memory_refused = [&metrics] { metrics.memory_refused(); };
    return http;
}

}  // namespace

PostgresOptions postgres_options(const ServerOptions& options) {
    PostgresOptions postgres;
    postgres.uri = options.db_path;
    // A connection for each worker thread, the dialer and the heartbeat.
    postgres.pool_size = worker_count(options.threads) + 4;
    postgres.lease = options.lease;
    return postgres;
}

Server::Server(ServerOptions options, std::unique_ptr<Store> store)
    : options_(std::move(options)),
      metrics_(std::make_unique<Metrics>()),
      store_(metered(store ? std::move(store) : open_store(options_), *metrics_)),
      clock_(options_.now, options_.clock_rate),
      recording_(recording_links(*store_, options_)),
      outbox_(metered(open_outbox(options_, recording_), *metrics_)),
      delivery_(std::make_unique<WebhookDelivery>(*outbox_, delivery_options(options_))),
      dialer_(std::make_unique<SimulatedDialer>(
          *store_, clock_, std::chrono::milliseconds{options_.call_step_ms},
          [delivery = delivery_.get()] { delivery->notify(); }, options_.api.access_log)),
      limiter_(options_.rate_limit),
      shared_limits_(pg::is_uri(options_.db_path) && limiter_.enabled()
                         ? std::make_unique<SharedRateLimits>(postgres_options(options_), limiter_)
                         : nullptr),
      api_(*store_, clock_, *dialer_, limiter_,
           with_recording(with_metrics(options_.api, *metrics_), recording_)),
      threads_(worker_count(options_.threads)),
      http_(std::make_unique<HttpServer>(http_options(options_, threads_, api_, *metrics_))) {
    metrics_->set_connection_memory([server = http_.get()] { return server->memory_held(); });
    // The daily budget of stored rows counts the days of the server's clock.
    store_->set_clock(clock_);

    // Calls move and webhooks go out from here on, including what an earlier process left
    // pending.
    delivery_->start();
    dialer_->start(store_->calls_in_progress());
    sweeper_ = std::thread([this] { sweep_periodically(); });
    drip_scheduler_ = std::thread([this] { run_drip_steps(); });
}

void Server::run_drip_steps() {
    // A step runs within about a second of its time, of the server's clock: with a faster
    // clock, as often as that clock's second passes, down to every 10 ms.
    const double rate = clock_.rate();
    const std::chrono::milliseconds interval =
        rate > 1 ? std::max(std::chrono::milliseconds{10},
                            std::chrono::milliseconds{static_cast<std::int64_t>(1000 / rate)})
                 : std::chrono::milliseconds{1000};
    constexpr std::size_t batch = 100;
    std::unique_lock lock(sweep_mutex_);
    while (!sweep_stop_) {
        lock.unlock();
        std::size_t looked_at = 0;
        try {
            looked_at = handlers::run_due_drip_steps(api_.services(), batch);
        } catch (const std::exception& e) {
            // The step was not run (its transaction rolled back): tried again at the next turn.
            if (options_.api.access_log) {
                std::cerr << "collectcall-server: drip campaign step failed: " << e.what()
                          << std::endl;
            }
        }
        lock.lock();
        if (looked_at < batch) sweep_wake_.wait_for(lock, interval, [this] { return sweep_stop_; });
    }
}

void Server::sweep_periodically() {
    std::unique_lock lock(sweep_mutex_);
    while (!sweep_stop_) {
        lock.unlock();
        try {
            const std::int64_t messages =
                outbox_->sweep(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
            const std::int64_t rows = store_->sweep(clock_.now());
            if (options_.api.access_log && messages + rows > 0) {
                std::cerr << "collectcall-server: retention: deleted " << messages
                          << " finished webhook messages and " << rows
                          << " old call events, idempotency records and records of customers "
                             "inactive for three years"
                          << std::endl;
            }
        } catch (const std::exception& e) {
            // Tried again at the next sweep; nothing depends on it meanwhile.
            if (options_.api.access_log) {
                std::cerr << "collectcall-server: retention sweep failed: " << e.what()
                          << std::endl;
            }
        }
        lock.lock();
        sweep_wake_.wait_for(lock, options_.retention_sweep, [this] { return sweep_stop_; });
    }
}

Server::~Server() {
    {
        const std::lock_guard lock(sweep_mutex_);
        sweep_stop_ = true;
    }
    sweep_wake_.notify_all();
    if (sweeper_.joinable()) sweeper_.join();
    if (drip_scheduler_.joinable()) drip_scheduler_.join();
    stop();
    http_->close_unserved();
    dialer_->stop();
    delivery_->stop();
}

int Server::bind() {
    const int port = http_->bind(options_.host, options_.port);
    if (port == 0) {
        throw std::runtime_error("cannot listen on " + options_.host + ":" +
                                 std::to_string(options_.port));
    }
    if (options_.public_url.empty()) {
        recording_->set_base_url("http://" + options_.host + ":" + std::to_string(port));
    }
    return port;
}

void Server::run() {
    if (!stopping_) http_->serve();
}

std::vector<Server::Exchange> Server::serve_bytes(std::string_view bytes,
                                                  std::size_t max_requests) {
    return http_->serve_input(bytes, max_requests);
}

void Server::stop() {
    // Before run() too: a signal may come while the server is starting.
    stopping_ = true;
    http_->stop();
}

}  // namespace collectcall::server
