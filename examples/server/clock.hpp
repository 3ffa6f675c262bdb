// The server's clock: the system clock, or one frozen at a given instant (`serve --now`, for
// tests and demos of compliance at a chosen local time). Stored timestamps and compliance read
// it; webhook signature timestamps do not (receivers check those against their own clock).
#pragma once

#include <chrono>
#include <optional>

#include <collectcall/types/timestamp.hpp>

namespace collectcall::server {

class Clock {
  public:
    using Time = Timestamp::Time;

    Clock() = default;
    explicit Clock(std::optional<Time> frozen) : frozen_(frozen) {}

    [[nodiscard]] Time now() const {
        if (frozen_) return *frozen_;
        return std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
    }
    [[nodiscard]] bool frozen() const noexcept { return frozen_.has_value(); }

  private:
    std::optional<Time> frozen_;
};

}  // namespace collectcall::server
