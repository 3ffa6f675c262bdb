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
#include <collectcall/webhook/fairness.hpp>
#include <collectcall/webhook/resolver.hpp>
#include <collectcall/webhook/signature.hpp>

namespace collectcall::server {

namespace {

using SteadyClock = std::chrono::steady_clock;

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
    // A page of due messages per look: a few per receiver and a bounded number per account,
    // whatever the backlog (WebhookOutbox::due).
    const std::size_t per_receiver = options_.per_receiver + 1;
    const std::size_t per_account = 2 * options_.workers + options_.per_receiver;
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        auto now = SteadyClock::now();
        auto wake = now + options_.poll;

        // The claims on messages in flight outlast attempts of any length.
        if (!in_flight_.empty() && now >= renewed_ + options_.renew) {
            const std::vector<std::int64_t> seqs(in_flight_.begin(), in_flight_.end());
            renewed_ = now;
            lock.unlock();
            try {
                outbox_.renew(seqs);
            } catch (const std::exception& e) {
                if (options_.log) {
                    std::cerr << "collectcall-server: renewing webhook claims failed: " << e.what()
                              << std::endl;
                }
            }
            lock.lock();
            if (stopping_) break;
            now = SteadyClock::now();
        }
        if (!in_flight_.empty()) wake = std::min(wake, renewed_ + options_.renew);

        if (idle_ > 0 && now >= paused_until_) {
            dirty_ = false;
            lock.unlock();
            std::vector<OutboxHead> heads;
            std::optional<std::int64_t> next;
            bool read = true;
            const std::int64_t now_ms = unix_ms();
            try {
                heads = outbox_.due(now_ms, per_receiver, per_account);
                next = outbox_.next_due(now_ms);
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
            if (next) {
                wake = std::min(wake, now + std::chrono::milliseconds{
                                                std::max<std::int64_t>(0, *next - unix_ms())});
            }
            // Accounts take turns, and an account's receivers take turns.
            const std::vector<std::size_t> order = webhook::fair_order(
                heads, [](const OutboxHead& h) -> std::string_view { return h.account_id; },
                [](const OutboxHead& h) -> std::string_view { return h.url; }, last_account_);
            for (const std::size_t i : order) {
                if (idle_ == 0) break;
                const OutboxHead& head = heads[i];
                if (busy_calls_.count(head.call_id) != 0) continue;
                // A receiver whose address is at its limit waits (the address its URL last
                // resolved to; a URL not seen yet goes ahead and is checked once resolved).
                if (const auto known = url_address_.find(head.url);
                    known != url_address_.end() && address_full(known->second)) {
                    continue;
                }
                --idle_;
                busy_calls_.insert(head.call_id);
                in_flight_.insert(head.seq);
                last_account_ = head.account_id;
                queue_.push_back(Job{head.seq, head.call_id, head.url, head.unfinished});
                worker_wake_.notify_one();
            }
        } else if (now < paused_until_) {
            wake = std::min(wake, paused_until_);
        }

        coordinator_wake_.wait_until(lock, wake, [&] {
            return stopping_ || (dirty_ && idle_ > 0 && SteadyClock::now() >= paused_until_);
        });
    }
}

bool WebhookDelivery::address_full(const std::string& address) const {
    const auto it = busy_addresses_.find(address);
    return it != busy_addresses_.end() && it->second >= options_.per_receiver;
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
        in_flight_.erase(job.seq);
        ++idle_;
        dirty_ = true;  // the call's next message may be due now
        coordinator_wake_.notify_one();
    }
}

std::optional<std::string> WebhookDelivery::take_address(const std::string& url,
                                                         const webhook::Resolution& resolution) {
    const webhook::ResolvedAddress& first = resolution.addresses.front();
    std::string key =
        first.to_string() + " port " +
        std::to_string(
            first.family() == AF_INET6
                ? ntohs(reinterpret_cast<const sockaddr_in6*>(first.address())->sin6_port)
                : ntohs(reinterpret_cast<const sockaddr_in*>(first.address())->sin_port));
    std::lock_guard lock(mutex_);
    if (url_address_.size() >= 4096) url_address_.clear();  // a hint, bounded
    url_address_[url] = key;
    if (address_full(key)) return std::nullopt;
    ++busy_addresses_[key];
    return key;
}

void WebhookDelivery::give_address(const std::string& key) {
    std::lock_guard lock(mutex_);
    if (const auto it = busy_addresses_.find(key);
        it != busy_addresses_.end() && --it->second == 0) {
        busy_addresses_.erase(it);
    }
    dirty_ = true;
    coordinator_wake_.notify_one();
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
        if (!outbox_.claim(job.seq)) return;  // another process has it
        if (job.unfinished >= webhook::max_unfinished_attempts) {
            // Its attempts began and never finished, again and again: whatever it does to the
            // process that sends it, it is not tried at every start for ever.
            const std::string error =
                "parked: " + std::to_string(job.unfinished) + " attempts began and never finished";
            outbox_.failed(job.seq, std::nullopt, error, unix_ms());
            if (options_.log) {
                std::cerr << "collectcall-server: webhook to " << job.url << ": " << error
                          << std::endl;
            }
            return;
        }
        message = outbox_.load(job.seq);
    } catch (const std::exception& e) {
        return storage_failed(e);
    }
    if (!message) return;  // delivered or given up meanwhile

    // One time limit for the whole attempt, the name lookup included.
    const auto deadline = SteadyClock::now() + options_.timeout;
    std::string error;
    // Without a secret the delivery goes out unsigned (API.md section 9); a secret that is gone
    // or unreadable must not turn a signed delivery into an unsigned one.
    bool usable = !message->secret_lost &&
                  (!message->secret || webhook::valid_secret(*message->secret)) &&
                  webhook::valid_message_id(message->message_id);
    webhook::Resolution resolution;
    std::optional<std::string> address;
    if (usable) {
        // Resolved and checked again on every attempt: what a name resolves to may have
        // changed since the call was accepted. The connection goes to an address that passed
        // the check, never to a second answer of the resolver.
        if (auto url = Url::parse(message->url)) {
            resolution =
                resolver_.resolve(url.value().host(), url.value().port(), options_.allow_private,
                                  std::min(webhook::lookup_timeout, options_.timeout));
        } else {
            resolution.message = "the stored webhook URL is not valid";
        }
        if (resolution) {
            address = take_address(message->url, resolution);
            if (!address) {
                // Its address has as many deliveries in flight as it may: back to the outbox,
                // unattempted; the coordinator skips it until one ends.
                try {
                    outbox_.release(message->seq);
                } catch (const std::exception& e) {
                    storage_failed(e);
                }
                return;
            }
        }
    }
    try {
        if (!outbox_.begin_attempt(message->seq)) {
            if (address) give_address(*address);
            return;
        }
    } catch (const std::exception& e) {
        if (address) give_address(*address);
        return storage_failed(e);
    }
    if (!usable) {
        error = "the message cannot be signed (webhook secret missing or unreadable)";
    } else if (!resolution) {
        error = resolution.message;
    } else {
        error = attempt(index, *message, resolution.addresses, deadline);
    }
    if (address) give_address(*address);

    const std::int64_t now_ms = unix_ms();
    try {
        if (error.empty()) {
            outbox_.delivered(message->seq, now_ms);
            return;
        }
        {
            std::unique_lock lock(mutex_);
            // Cut off by stop(): not the receiver's failure; the next start sends it again.
            if (stopping_) {
                lock.unlock();
                outbox_.interrupted(message->seq);
                return;
            }
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

std::string WebhookDelivery::attempt(std::size_t index, const OutboxMessage& message,
                                     const std::vector<webhook::ResolvedAddress>& approved,
                                     SteadyClock::time_point deadline) {
    OutboundRequest request;
    request.url = message.url;
    for (auto& [name, value] :
         webhook::sign(
             message.secret ? std::optional<std::string_view>(*message.secret) : std::nullopt,
             message.message_id, unix_seconds(), message.body)
             .headers) {
        request.headers.emplace_back(std::move(name), std::move(value));
    }
    request.headers.emplace_back("Content-Type", "application/json");
    request.headers.emplace_back("User-Agent", "collectcall-webhooks/" COLLECTCALL_VERSION_STRING);
    request.body = message.body;

    AttemptOutcome outcome = transports_[index]->send(request, approved, deadline);
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
