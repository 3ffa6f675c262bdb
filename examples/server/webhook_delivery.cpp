#include "webhook_delivery.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>
#include <memory>
#include <utility>

#include <collectcall/types/url.hpp>
#include <collectcall/version.hpp>
#include <collectcall/webhook/address_guard.hpp>
#include <collectcall/webhook/resolver.hpp>
#include <collectcall/webhook/signature.hpp>

namespace collectcall::server {

namespace {

using SteadyClock = std::chrono::steady_clock;

// The outbox is read a page at a time; a page holds the heads of this many calls.
constexpr std::size_t heads_per_read = 1024;

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::int64_t unix_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Scheme, host and port: the unit a slow receiver is isolated by.
std::string receiver_of(const std::string& url_text) {
    auto url = Url::parse(url_text);
    if (!url) return url_text;
    const Url& u = url.value();
    return std::string(u.scheme()) + "://" + std::string(u.host()) + ":" + std::to_string(u.port());
}

std::string describe_delay(std::chrono::milliseconds delay) {
    if (delay < std::chrono::seconds{10}) return std::to_string(delay.count()) + " ms";
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(delay).count()) + " s";
}

}  // namespace

WebhookDelivery::WebhookDelivery(WebhookOutbox& outbox, DeliveryOptions options)
    : outbox_(outbox), options_(std::move(options)) {
    options_.workers = std::max<std::size_t>(1, options_.workers);
    options_.per_receiver = std::max<std::size_t>(1, options_.per_receiver);
    for (std::size_t i = 0; i < options_.workers; ++i) {
        transports_.push_back(
            std::make_unique<WebhookTransport>(WebhookTransport::Options{options_.ca_file, {}}));
    }
}

WebhookDelivery::~WebhookDelivery() {
    stop();
}

void WebhookDelivery::start() {
    std::lock_guard lock(mutex_);
    if (started_ || stopping_) return;
    started_ = true;
    idle_ = options_.workers;
    for (std::size_t i = 0; i < options_.workers; ++i) {
        workers_.emplace_back([this, i] { work(i); });
    }
    coordinator_ = std::thread([this] { coordinate(); });
}

void WebhookDelivery::notify() {
    {
        std::lock_guard lock(mutex_);
        dirty_ = true;
    }
    coordinator_wake_.notify_one();
}

void WebhookDelivery::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        for (const auto& transport : transports_) {
            transport->cancel();
        }
    }
    coordinator_wake_.notify_all();
    worker_wake_.notify_all();
    if (coordinator_.joinable()) coordinator_.join();
    for (std::thread& worker : workers_) {
        if (worker.joinable()) worker.join();
    }
}

void WebhookDelivery::coordinate() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        auto now = SteadyClock::now();
        auto wake = now + options_.poll;

        if (idle_ > 0 && now >= paused_until_) {
            dirty_ = false;
            lock.unlock();
            std::vector<OutboxHead> heads;
            bool read = true;
            try {
                heads = outbox_.heads(heads_per_read);
            } catch (const std::exception& e) {
                read = false;
                if (options_.log) {
                    std::cerr << "collectcall-server: reading the webhook outbox failed: "
                              << e.what() << std::endl;
                }
            }
            lock.lock();
            if (stopping_) break;
            now = SteadyClock::now();
            if (!read) paused_until_ = now + options_.poll;
            const std::int64_t now_ms = unix_ms();
            for (const OutboxHead& head : heads) {
                if (idle_ == 0) break;
                if (head.next_attempt_ms > now_ms) {
                    // Heads come soonest first: the rest are later still.
                    wake = std::min(wake,
                                    now + std::chrono::milliseconds{head.next_attempt_ms - now_ms});
                    break;
                }
                if (busy_calls_.count(head.call_id) != 0) continue;
                std::string receiver = receiver_of(head.url);
                std::size_t& busy = busy_receivers_[receiver];
                if (busy >= options_.per_receiver) continue;
                ++busy;
                --idle_;
                busy_calls_.insert(head.call_id);
                queue_.push_back(Job{head.seq, head.call_id, std::move(receiver)});
                worker_wake_.notify_one();
            }
            // Drop the counters the loop created for receivers that were skipped at zero.
            std::erase_if(busy_receivers_, [](const auto& entry) { return entry.second == 0; });
        } else if (now < paused_until_) {
            wake = std::min(wake, paused_until_);
        }

        coordinator_wake_.wait_until(lock, wake, [&] {
            return stopping_ || (dirty_ && idle_ > 0 && SteadyClock::now() >= paused_until_);
        });
    }
}

void WebhookDelivery::work(std::size_t index) {
    std::unique_lock lock(mutex_);
    while (true) {
        worker_wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;  // queued messages stay pending in the outbox
        const Job job = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        deliver(index, job);
        lock.lock();
        busy_calls_.erase(job.call_id);
        if (const auto it = busy_receivers_.find(job.receiver);
            it != busy_receivers_.end() && --it->second == 0) {
            busy_receivers_.erase(it);
        }
        ++idle_;
        dirty_ = true;  // the call's next message may be due now
        coordinator_wake_.notify_one();
    }
}

void WebhookDelivery::deliver(std::size_t index, const Job& job) {
    const auto storage_failed = [&](const std::exception& e) {
        if (options_.log) {
            std::cerr << "collectcall-server: webhook outbox: " << e.what() << std::endl;
        }
        std::lock_guard lock(mutex_);
        paused_until_ = SteadyClock::now() + options_.poll;
    };

    std::optional<OutboxMessage> message;
    try {
        message = outbox_.load(job.seq);
    } catch (const std::exception& e) {
        return storage_failed(e);
    }
    if (!message) return;  // delivered or given up meanwhile

    std::string error;
    bool usable = message->secret && webhook::decode_secret(*message->secret).has_value() &&
                  webhook::valid_message_id(message->message_id);
    if (usable) {
        error = attempt(index, *message);
    } else {
        error = "the message cannot be signed (webhook secret missing or unreadable)";
    }
    {
        std::lock_guard lock(mutex_);
        // Cut off by stop(): not the receiver's failure; the next start sends it again.
        if (stopping_ && !error.empty()) return;
    }

    const std::int64_t now_ms = unix_ms();
    try {
        if (error.empty()) {
            outbox_.delivered(message->seq, now_ms);
            return;
        }
        const std::optional<std::chrono::milliseconds> delay =
            usable ? webhook::retry_delay(message->attempts + 1, options_.backoff_scale)
                   : std::nullopt;
        outbox_.failed(message->seq,
                       delay ? std::optional<std::int64_t>(now_ms + delay->count()) : std::nullopt,
                       error, now_ms);
        log_failure(*message, error, delay);
    } catch (const std::exception& e) {
        // Not recorded: the message is still pending as before and is attempted again (at
        // least once, never lost).
        storage_failed(e);
    }
}

std::string WebhookDelivery::attempt(std::size_t index, const OutboxMessage& message) {
    // One time limit for the whole attempt, the name lookup included.
    const auto deadline = SteadyClock::now() + options_.timeout;
    auto parsed = Url::parse(message.url);
    if (!parsed) return "the stored webhook URL is not valid";
    const Url& url = parsed.value();

    // Resolved and checked again on every attempt: what a name resolves to may have changed
    // since the call was accepted. The connection goes to an address that passed the check,
    // never to a second answer of the resolver.
    const webhook::Resolution resolution =
        resolver_.resolve(url.host(), url.port(), options_.allow_private,
                          std::min(webhook::lookup_timeout, options_.timeout));
    if (!resolution) return resolution.message;

    OutboundRequest request;
    request.url = message.url;
    for (auto& [name, value] :
         webhook::sign(*message.secret, message.message_id, unix_seconds(), message.body).headers) {
        request.headers.emplace_back(std::move(name), std::move(value));
    }
    request.headers.emplace_back("Content-Type", "application/json");
    request.headers.emplace_back("User-Agent", "collectcall-webhooks/" COLLECTCALL_VERSION_STRING);
    request.body = message.body;

    AttemptOutcome outcome = transports_[index]->send(request, resolution.addresses, deadline);
    if (outcome.accepted) return {};
    if (outcome.cancelled) return "stopped";
    return outcome.error;
}

void WebhookDelivery::log_failure(const OutboxMessage& message, const std::string& error,
                                  std::optional<std::chrono::milliseconds> retry) const {
    if (!options_.log) return;
    std::cerr << "collectcall-server: webhook " << message.message_id << " to " << message.url
              << ", attempt " << message.attempts + 1 << ": " << error << "; "
              << (retry ? "next attempt in " + describe_delay(*retry) : std::string("given up"))
              << std::endl;
}

}  // namespace collectcall::server
