// The server's clock: the system clock, or one that starts at a given instant (`serve --now`, for
// tests and demos of compliance at a chosen local time) and stays there, or runs N times faster
// than real time from there (`serve --clock-rate N`, for tests that run a week of drip campaign
// steps in seconds). Stored timestamps and compliance read it; webhook signature timestamps do
// not (receivers check those against their own clock).
#pragma once

#include <chrono>
#include <optional>

#include <collectcall/types/timestamp.hpp>

namespace collectcall::server {

class Clock {
  public:
    using Time = Timestamp::Time;

    Clock() = default;
    // `start`: the clock's instant now (nullopt: the system clock's); `rate`: how many times
    // faster than real time it runs from there, 0 for not at all (frozen at `start`).
    explicit Clock(std::optional<Time> start, double rate = 0)
        : start_(start || rate > 0 ? std::optional(start.value_or(system_now())) : std::nullopt),
          rate_(rate),
          origin_(std::chrono::steady_clock::now()) {}

    [[nodiscard]] Time now() const {
        if (!start_) return system_now();
        if (rate_ <= 0) return *start_;
        const std::chrono::duration<double, std::milli> elapsed =
            std::chrono::steady_clock::now() - origin_;
        return *start_ + std::chrono::duration_cast<std::chrono::milliseconds>(elapsed * rate_);
    }
    [[nodiscard]] bool frozen() const noexcept { return start_.has_value() && rate_ <= 0; }
    // How many times faster than real time it runs (1 for the system clock, 0 when frozen).
    [[nodiscard]] double rate() const noexcept { return start_ ? rate_ : 1.0; }

  private:
    static Time system_now() {
        return std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
    }

    std::optional<Time> start_;
    double rate_ = 0;
    std::chrono::steady_clock::time_point origin_{};
};

}  // namespace collectcall::server
