#include "metrics.hpp"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

namespace collectcall::server {

namespace {

using prometheus::BuildCounter;
using prometheus::BuildGauge;
using prometheus::BuildHistogram;

double seconds(std::chrono::nanoseconds d) {
    return std::chrono::duration<double>(d).count();
}

const prometheus::Histogram::BucketBoundaries& latency_buckets() {
    static const prometheus::Histogram::BucketBoundaries buckets{
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    return buckets;
}

}  // namespace

Metrics::Metrics() : registry_(std::make_shared<prometheus::Registry>()) {
    requests_ = &BuildCounter()
                     .Name("collectcall_http_requests_total")
                     .Help("Requests answered, by method, route and status")
                     .Register(*registry_);
    durations_ = &BuildHistogram()
                      .Name("collectcall_http_request_duration_seconds")
                      .Help("Time from reading a request to its answer, by method and route")
                      .Register(*registry_);
    rate_limited_ = &BuildCounter()
                         .Name("collectcall_rate_limited_total")
                         .Help("Requests refused by the rate limit (429)")
                         .Register(*registry_)
                         .Add({});
    abandoned_ = &BuildCounter()
                      .Name("collectcall_requests_abandoned_total")
                      .Help(
                          "Requests not processed because their client had closed the "
                          "connection before a worker took them")
                      .Register(*registry_)
                      .Add({});
    memory_refused_ = &BuildCounter()
                           .Name("collectcall_memory_refused_total")
                           .Help(
                               "Request bodies answered 503 because the memory budget, or the "
                               "account's share of it, could not take them")
                           .Register(*registry_)
                           .Add({});
    connection_memory_ = &BuildGauge()
                              .Name("collectcall_connection_memory_bytes")
                              .Help("Bytes connections hold of the memory budget")
                              .Register(*registry_)
                              .Add({});
    commits_ = &BuildCounter()
                    .Name("collectcall_store_commits_total")
                    .Help("Commits of the store's write transactions")
                    .Register(*registry_)
                    .Add({});
    commit_seconds_ = &BuildHistogram()
                           .Name("collectcall_store_commit_seconds")
                           .Help("Duration of each commit's transaction, the commit included")
                           .Register(*registry_)
                           .Add({}, latency_buckets());
    commit_writes_ =
        &BuildHistogram()
             .Name("collectcall_store_commit_writes")
             .Help("Writes made durable by each commit (group commit)")
             .Register(*registry_)
             .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128});
    write_seconds_ = &BuildHistogram()
                          .Name("collectcall_store_write_seconds")
                          .Help("Time the caller of each store write waited for it to be durable")
                          .Register(*registry_)
                          .Add({}, latency_buckets());
    write_items_ = &BuildHistogram()
                        .Name("collectcall_store_write_items")
                        .Help("Items stored by each write (the customers of a bulk, else 1)")
                        .Register(*registry_)
                        .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 5, 10, 50, 100, 250,
                                                                         500, 1000});
    outbox_pending_ = &BuildGauge()
                           .Name("collectcall_webhook_outbox_pending")
                           .Help("Webhook messages still to deliver")
                           .Register(*registry_)
                           .Add({});
    deliveries_ = &BuildCounter()
                       .Name("collectcall_webhook_deliveries_total")
                       .Help("Webhook delivery attempts by outcome (delivered, retry, failed)")
                       .Register(*registry_);
}

Metrics::~Metrics() = default;

void Metrics::request(std::string_view method, std::string_view route, int status,
                      std::chrono::nanoseconds duration) {
    prometheus::Counter* counter = nullptr;
    prometheus::Histogram* histogram = nullptr;
    {
        std::lock_guard lock(mutex_);
        auto& c = request_counters_[{{method, route}, status}];
        if (c == nullptr) {
            c = &requests_->Add({{"method", std::string(method)},
                                 {"route", std::string(route)},
                                 {"status", std::to_string(status)}});
        }
        counter = c;
        auto& h = request_histograms_[{method, route}];
        if (h == nullptr) {
            h = &durations_->Add({{"method", std::string(method)}, {"route", std::string(route)}},
                                 latency_buckets());
        }
        histogram = h;
    }
    counter->Increment();
    histogram->Observe(seconds(duration));
}

void Metrics::rate_limited() {
    rate_limited_->Increment();
}

void Metrics::abandoned() {
    abandoned_->Increment();
}

void Metrics::memory_refused() {
    memory_refused_->Increment();
}

void Metrics::set_connection_memory(std::function<std::size_t()> bytes) {
    const std::lock_guard lock(mutex_);
    connection_memory_bytes_ = std::move(bytes);
}

void Metrics::write(std::size_t items, std::chrono::nanoseconds duration) {
    write_seconds_->Observe(seconds(duration));
    write_items_->Observe(static_cast<double>(items));
}

void Metrics::commit(std::size_t writes, std::chrono::nanoseconds duration) {
    commits_->Increment();
    commit_seconds_->Observe(seconds(duration));
    commit_writes_->Observe(static_cast<double>(writes));
}

void Metrics::delivery(std::string_view outcome) {
    prometheus::Counter* counter = nullptr;
    {
        std::lock_guard lock(mutex_);
        auto it = delivery_counters_.find(outcome);
        if (it == delivery_counters_.end()) {
            it = delivery_counters_
                     .emplace(std::string(outcome),
                              &deliveries_->Add({{"outcome", std::string(outcome)}}))
                     .first;
        }
        counter = it->second;
    }
    counter->Increment();
}

void Metrics::set_outbox_depth(std::function<std::int64_t()> depth) {
    std::lock_guard lock(mutex_);
    outbox_depth_ = std::move(depth);
}

std::string Metrics::text() {
    std::function<std::int64_t()> depth;
    std::function<std::size_t()> memory;
    {
        std::lock_guard lock(mutex_);
        depth = outbox_depth_;
        memory = connection_memory_bytes_;
    }
    if (memory) connection_memory_->Set(static_cast<double>(memory()));
    if (depth) {
        try {
            const std::int64_t pending = depth();
            if (pending >= 0) outbox_pending_->Set(static_cast<double>(pending));
        } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): the last value stays
        }
    }
    return prometheus::TextSerializer().Serialize(registry_->Collect());
}

// --- Decorators ------------------------------------------------------------------------------

namespace {

class MeteredOutbox final : public WebhookOutbox {
  public:
    MeteredOutbox(std::unique_ptr<WebhookOutbox> inner, Metrics& metrics)
        : inner_(std::move(inner)), metrics_(metrics) {
        metrics_.set_outbox_depth([this] { return inner_->pending(); });
    }
    ~MeteredOutbox() override { metrics_.set_outbox_depth({}); }
    MeteredOutbox(const MeteredOutbox&) = delete;
    MeteredOutbox& operator=(const MeteredOutbox&) = delete;

    std::vector<OutboxHead> due(std::int64_t now_ms, std::size_t per_receiver,
                                std::size_t per_account) override {
        return inner_->due(now_ms, per_receiver, per_account);
    }
    std::optional<std::int64_t> next_due(std::int64_t now_ms) override {
        return inner_->next_due(now_ms);
    }
    bool claim(std::int64_t seq) override { return inner_->claim(seq); }
    void release(std::int64_t seq) override { inner_->release(seq); }
    void renew(const std::vector<std::int64_t>& seqs) override { inner_->renew(seqs); }
    std::optional<OutboxMessage> load(std::int64_t seq) override { return inner_->load(seq); }
    bool begin_attempt(std::int64_t seq) override { return inner_->begin_attempt(seq); }
    void interrupted(std::int64_t seq) override { inner_->interrupted(seq); }
    std::int64_t sweep(std::int64_t now_ms) override { return inner_->sweep(now_ms); }
    void delivered(std::int64_t seq, std::int64_t now_ms) override {
        inner_->delivered(seq, now_ms);
        metrics_.delivery("delivered");
    }
    void failed(std::int64_t seq, std::optional<std::int64_t> next_attempt_ms,
                std::string_view error, std::int64_t now_ms) override {
        inner_->failed(seq, next_attempt_ms, error, now_ms);
        metrics_.delivery(next_attempt_ms ? "retry" : "failed");
    }
    std::int64_t pending() override { return inner_->pending(); }

  private:
    std::unique_ptr<WebhookOutbox> inner_;
    Metrics& metrics_;
};

}  // namespace

std::unique_ptr<Store> metered(std::unique_ptr<Store> store, Metrics& metrics) {
    const bool batched =
        store->observe_commits([&metrics](std::size_t writes, std::chrono::nanoseconds duration) {
            metrics.commit(writes, duration);
        });
    // Without group commit, each write is a commit of its own.
    store->observe_writes(
        [&metrics, batched](std::size_t items, std::chrono::nanoseconds duration) {
            metrics.write(items, duration);
            if (!batched) metrics.commit(1, duration);
        });
    return store;
}

std::unique_ptr<WebhookOutbox> metered(std::unique_ptr<WebhookOutbox> outbox, Metrics& metrics) {
    return std::make_unique<MeteredOutbox>(std::move(outbox), metrics);
}

}  // namespace collectcall::server
