// Requests per second per API key (`serve --rate-limit N`, API.md section 10): a token bucket
// per key that holds 2N tokens and gains N per second, so a client may burst to twice its rate
// and then keeps the rate. 0 turns limiting off.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace collectcall::server {

class RateLimiter {
  public:
    using Clock = std::chrono::steady_clock;

    explicit RateLimiter(double per_second) : rate_(per_second), capacity_(2 * per_second) {}

    [[nodiscard]] bool enabled() const noexcept { return rate_ > 0; }

    // nullopt when the request may go ahead; otherwise the whole seconds after which one may
    // (the Retry-After value, at least 1).
    std::optional<long> admit(std::string_view key, Clock::time_point now = Clock::now()) {
        if (!enabled()) return std::nullopt;
        std::lock_guard lock(mutex_);
        auto [it, inserted] = buckets_.try_emplace(std::string(key), Bucket{capacity_, now});
        Bucket& bucket = it->second;
        if (!inserted) {
            const std::chrono::duration<double> elapsed = now - bucket.updated;
            bucket.tokens = std::min(capacity_, bucket.tokens + elapsed.count() * rate_);
            bucket.updated = now;
        }
        if (bucket.tokens >= 1) {
            bucket.tokens -= 1;
            return std::nullopt;
        }
        return std::max(1L, static_cast<long>(std::ceil((1 - bucket.tokens) / rate_)));
    }

  private:
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
};

}  // namespace collectcall::server
