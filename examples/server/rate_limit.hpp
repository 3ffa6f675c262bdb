// Requests per second per API key (`serve --rate-limit N`, API.md section 10): a token bucket
// per key that holds 2N tokens and gains N per second, so a client may burst to twice its rate
// and then keeps the rate. 0 turns limiting off.
//
// Several processes on one database share their counts (postgres_store.hpp): each takes what
// its own requests used (take_used) and charges its buckets with what the others' used (charge)
// once a second, so that a key's rate holds across processes with a lag of about a second.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace collectcall::server {

class RateLimiter {
  public:
    using Clock = std::chrono::steady_clock;

    explicit RateLimiter(double per_second) : rate_(per_second), capacity_(2 * per_second) {}

    [[nodiscard]] bool enabled() const noexcept { return rate_ > 0; }

    // The verdict on one request and the state of its key's bucket after it, for the
    // RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers.
    struct Decision {
        bool allowed = true;
        long limit = 0;        // the bucket's capacity (2N)
        long remaining = 0;    // whole tokens left
        long reset = 0;        // seconds until the bucket is full again
        long retry_after = 0;  // when refused: seconds until the tokens are there (at least 1)
    };

    Decision check(std::string_view key, Clock::time_point now = Clock::now()) {
        return take(key, 1, 0, now);
    }

    // The rest of a request that costs `cost` requests (a bulk request costs its items, API.md
    // section 17), of which its admission (check) took `taken`. Allowed when the bucket holds
    // the rest; a request dearer than the whole burst, when the bucket was full at its
    // admission, and then into debt, paid back at the rate.
    Decision check_rest(std::string_view key, long cost, long taken = 1,
                        Clock::time_point now = Clock::now()) {
        return take(key, cost, taken, now);
    }

    // The requests each key was allowed here since the last call.
    std::unordered_map<std::string, long> take_used() {
        std::lock_guard lock(mutex_);
        return std::exchange(used_, {});
    }

    // Takes `requests` made elsewhere with `key` from its bucket (which may go below zero, down
    // to minus its capacity: the debt is paid back at the rate).
    void charge(std::string_view key, long requests, Clock::time_point now = Clock::now()) {
        if (!enabled() || requests <= 0) return;
        std::lock_guard lock(mutex_);
        auto [it, inserted] = buckets_.try_emplace(std::string(key), Bucket{capacity_, now});
        it->second.tokens = std::max(-capacity_, it->second.tokens - static_cast<double>(requests));
    }

  private:
    Decision take(std::string_view key, long cost, long taken, Clock::time_point now) {
        Decision decision;
        if (!enabled()) return decision;
        std::lock_guard lock(mutex_);
        auto [it, inserted] = buckets_.try_emplace(std::string(key), Bucket{capacity_, now});
        Bucket& bucket = it->second;
        if (!inserted) {
            const std::chrono::duration<double> elapsed = now - bucket.updated;
            bucket.tokens = std::min(capacity_, bucket.tokens + elapsed.count() * rate_);
            bucket.updated = now;
        }
        const double rest = static_cast<double>(cost - taken);
        const double needed =
            std::min(static_cast<double>(cost), capacity_) - static_cast<double>(taken);
        decision.allowed = rest <= 0 || bucket.tokens >= needed;
        if (decision.allowed) {
            if (rest > 0) {
                bucket.tokens -= rest;
                used_[std::string(key)] += static_cast<long>(rest);
            }
        } else {
            decision.retry_after =
                std::max(1L, static_cast<long>(std::ceil((needed - bucket.tokens) / rate_)));
        }
        decision.limit = static_cast<long>(capacity_);
        decision.remaining = std::max(0L, static_cast<long>(std::floor(bucket.tokens)));
        decision.reset = static_cast<long>(std::ceil((capacity_ - bucket.tokens) / rate_));
        return decision;
    }

    struct Bucket {
        double tokens;
        Clock::time_point updated;
    };

    double rate_;
    double capacity_;
    std::mutex mutex_;
    // One entry per key that has made a request: bounded by the number of issued keys, since
    // only authenticated requests reach the limiter.
    std::unordered_map<std::string, Bucket> buckets_;
    std::unordered_map<std::string, long> used_;  // since take_used; keys as buckets_
};

}  // namespace collectcall::server
