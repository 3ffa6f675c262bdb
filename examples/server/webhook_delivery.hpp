// Webhook delivery from the outbox (API.md section 9).
//
// One coordinator thread reads the outbox and hands due messages to a small pool of workers;
// a worker signs the message with both schemes (signature timestamps from the real clock,
// whatever `--now` says), resolves the receiver's host through the SSRF guard and connects to
// exactly the address that passed it, over http or https (the certificate is checked against
// the URL's host, which is also the SNI name and the Host header).
//
// - In order per call: only the first pending message of a call is ever handed out, and never
//   twice at once; the next one waits until it is delivered or given up.
// - Retries: a non-2xx answer, a connection failure or the timeout (10 s for the whole
//   attempt) schedules the next attempt by the library's schedule (webhook::retry_delay, times
//   `backoff_scale`); after the last one the message is given up.
// - Isolation: deliveries run on their own threads, never on the API's, and at most
//   `per_receiver` of them go to one receiver address (the address its host resolved to, and
//   the port) at a time, so a slow or dead receiver holds only that many workers.
// - Fairness: due messages are read a bounded page at a time and handed out in
//   webhook::fair_order (accounts take turns, and an account's receivers take turns), so one
//   account's backlog delays another's deliveries by at most one attempt.
// - Crash safety: an attempt is recorded in the outbox (committed) before it is made; a message
//   whose attempts began webhook::max_unfinished_attempts times without finishing (the process
//   died during each) is parked, not tried again at every start.
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <collectcall/webhook/resolver.hpp>
#include <collectcall/webhook/retry.hpp>

#include "webhook_outbox.hpp"
#include "webhook_transport.hpp"

namespace collectcall::server {

struct DeliveryOptions {
    bool allow_private = false;  // `serve --allow-private-webhooks`
    double backoff_scale = 1.0;  // `serve --webhook-backoff-scale`: < 1 for tests
    std::chrono::milliseconds timeout = webhook::attempt_timeout;
    std::size_t workers = 4;       // `serve --webhook-workers`
    std::size_t per_receiver = 2;  // at most this many workers on one receiver at a time
    // A CA bundle that https receivers' certificates must chain to, instead of the system's
    // (`serve --webhook-ca-file`; tests with a receiver of their own).
    std::string ca_file;
    // How often the outbox is read when nothing signals new messages (a safety net: placed and
    // ended calls signal at once).
    std::chrono::milliseconds poll{1'000};
    // How often the claims on messages in flight are renewed (PostgreSQL: a third of the lease).
    std::chrono::milliseconds renew{20'000};
    bool log = true;
};

class WebhookDelivery {
  public:
    WebhookDelivery(WebhookOutbox& outbox, DeliveryOptions options);
    ~WebhookDelivery();
    WebhookDelivery(const WebhookDelivery&) = delete;
    WebhookDelivery& operator=(const WebhookDelivery&) = delete;

    // Starts the coordinator and the workers; pending messages of earlier runs go out at once.
    void start();
    // New messages may be in the outbox. Never blocks.
    void notify();
    // Stops every thread. An attempt in flight is cut off and not counted: the message stays
    // pending and goes out again on the next start.
    void stop();

  private:
    struct Job {
        std::int64_t seq = 0;
        std::string call_id;
        std::string url;
        int unfinished = 0;
    };

    void coordinate();
    void work(std::size_t index);
    void deliver(std::size_t index, const Job& job);
    // One HTTP attempt to one of `approved`; the error text when it failed, empty when the
    // receiver answered 2xx.
    std::string attempt(std::size_t index, const OutboxMessage& message,
                        const std::vector<webhook::ResolvedAddress>& approved,
                        std::chrono::steady_clock::time_point deadline);
    // The per-receiver limit, keyed on the address a URL resolved to (not its host name text,
    // which a tenant can vary at will): a slot on it, or nullopt when it is full.
    std::optional<std::string> take_address(const std::string& url,
                                            const webhook::Resolution& resolution);
    void give_address(const std::string& address);
    bool address_full(const std::string& address) const;  // mutex_ held
    void log_failure(const OutboxMessage& message, const std::string& error,
                     std::optional<std::chrono::milliseconds> retry) const;

    WebhookOutbox& outbox_;
    DeliveryOptions options_;

    std::mutex mutex_;
    std::condition_variable coordinator_wake_;
    std::condition_variable worker_wake_;
    bool started_ = false;
    bool stopping_ = false;
    bool dirty_ = true;  // the outbox may have changed since it was last read
    std::chrono::steady_clock::time_point paused_until_{};  // after a storage error
    std::deque<Job> queue_;
    std::size_t idle_ = 0;
    std::set<std::string> busy_calls_;
    std::set<std::int64_t> in_flight_;  // seq of each message handed out
    std::chrono::steady_clock::time_point renewed_{};
    std::map<std::string, std::size_t> busy_addresses_;  // deliveries in flight per address
    std::map<std::string, std::string> url_address_;     // the address each URL last had
    std::string last_account_;                           // served last (fair_order)
    webhook::Resolver resolver_;
    std::vector<std::unique_ptr<WebhookTransport>> transports_;  // one per worker

    std::thread coordinator_;
    std::vector<std::thread> workers_;
};

}  // namespace collectcall::server
