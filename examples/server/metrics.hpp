// The server's metrics in the Prometheus text format (GET /metrics, API.md section 1), on
// prometheus-cpp's core: a registry and its TextSerializer, served on the server's own listener.
//
//   collectcall_http_requests_total{method,route,status}     answered requests
//   collectcall_http_request_duration_seconds{method,route}  from the request's first byte read
//                                                            to its answer, a histogram
//   collectcall_rate_limited_total                           requests answered 429
//   collectcall_requests_abandoned_total                     complete requests not processed:
//                                                            their client had gone
//   collectcall_memory_refused_total                         bodies answered 503: the memory
//                                                            budget or the account's share of
//                                                            it could not take them
//   collectcall_connection_memory_bytes                      what connections hold of the
//                                                            memory budget
//   collectcall_store_write_seconds, collectcall_store_write_items
//                                                            each write of the store, as its
//                                                            caller waited for it (items: the
//                                                            customers of a bulk, the messages
//                                                            of an import, 1 otherwise)
//   collectcall_store_commits_total, collectcall_store_commit_seconds,
//   collectcall_store_commit_writes                          each commit: its duration and the
//                                                            writes it made durable (more than 1
//                                                            with SQLite's group commit)
//   collectcall_webhook_outbox_pending                       messages still to deliver
//   collectcall_webhook_deliveries_total{outcome}            delivered, retry, failed
//
// Routes are the patterns of the route table ("/api/v1/customers/{id}"), never a path with an
// id in it, so that the number of series is bounded; a request that matches no route counts
// under "unmatched".
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "store.hpp"
#include "webhook_outbox.hpp"

namespace prometheus {
class Registry;
class Counter;
class Gauge;
class Histogram;
template <typename T>
class Family;
}  // namespace prometheus

namespace collectcall::server {

class Metrics {
  public:
    Metrics();
    ~Metrics();
    Metrics(const Metrics&) = delete;
    Metrics& operator=(const Metrics&) = delete;

    // One answered request. `method` and `route` must outlive the metrics (the route table's
    // strings, or literals).
    void request(std::string_view method, std::string_view route, int status,
                 std::chrono::nanoseconds duration);
    void rate_limited();
    void abandoned();
    void memory_refused();
    // Read at each scrape: the bytes connections hold of the memory budget.
    void set_connection_memory(std::function<std::size_t()> bytes);
    void write(std::size_t items, std::chrono::nanoseconds duration);
    void commit(std::size_t writes, std::chrono::nanoseconds duration);
    void delivery(std::string_view outcome);  // "delivered", "retry" or "failed"
    // Read at each scrape: the number of pending outbox messages (negative: unknown).
    void set_outbox_depth(std::function<std::int64_t()> depth);

    // The whole registry in the text format (version 0.0.4).
    [[nodiscard]] std::string text();

  private:
    std::shared_ptr<prometheus::Registry> registry_;
    prometheus::Family<prometheus::Counter>* requests_;
    prometheus::Family<prometheus::Histogram>* durations_;
    prometheus::Counter* rate_limited_;
    prometheus::Counter* abandoned_;
    prometheus::Counter* memory_refused_;
    prometheus::Gauge* connection_memory_;
    prometheus::Counter* commits_;
    prometheus::Histogram* commit_seconds_;
    prometheus::Histogram* commit_writes_;
    prometheus::Histogram* write_seconds_;
    prometheus::Histogram* write_items_;
    prometheus::Gauge* outbox_pending_;
    prometheus::Family<prometheus::Counter>* deliveries_;

    std::mutex mutex_;  // the caches below; the metrics themselves are thread-safe
    std::map<std::pair<std::pair<std::string_view, std::string_view>, int>, prometheus::Counter*>
        request_counters_;
    std::map<std::pair<std::string_view, std::string_view>, prometheus::Histogram*>
        request_histograms_;
    std::map<std::string, prometheus::Counter*, std::less<>> delivery_counters_;
    std::function<std::int64_t()> outbox_depth_;
    std::function<std::size_t()> connection_memory_bytes_;
};

// The store, its writes (Store::observe_writes) and commits (Store::observe_commits) reported to
// `metrics`.
std::unique_ptr<Store> metered(std::unique_ptr<Store> store, Metrics& metrics);
// An outbox that counts delivery outcomes and reports its depth to `metrics`.
std::unique_ptr<WebhookOutbox> metered(std::unique_ptr<WebhookOutbox> outbox, Metrics& metrics);

}  // namespace collectcall::server
