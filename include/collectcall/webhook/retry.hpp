// When a webhook delivery that failed is tried again (API.md section 9): a non-2xx answer, a
// connection failure or a timeout of the whole attempt is retried after 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h, 14 h, 20 h and 24 h; after the last wait's attempt fails, the message is given up.
// An outbox of any kind (the example server's, another service's) asks retry_delay.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <optional>

namespace collectcall::webhook {

// The waits between attempts: after the n-th failed attempt, wait the n-th entry.
inline constexpr std::array<std::chrono::seconds, 9> retry_schedule{
    std::chrono::seconds{5}, std::chrono::minutes{5}, std::chrono::minutes{30},
    std::chrono::hours{2},   std::chrono::hours{5},   std::chrono::hours{10},
    std::chrono::hours{14},  std::chrono::hours{20},  std::chrono::hours{24}};

// One attempt, name lookup included, ends after this long; it then counts as failed.
inline constexpr std::chrono::seconds attempt_timeout{10};

// The most attempts a message gets: the first and one after each wait.
inline constexpr std::size_t max_attempts = retry_schedule.size() + 1;

// The wait after `failed_attempts` failed attempts (1 = the first attempt failed), times `scale`
// (below 1 in tests that cannot wait hours) and at least 1 ms; nullopt when no attempt is left.
[[nodiscard]] inline std::optional<std::chrono::milliseconds> retry_delay(int failed_attempts,
                                                                          double scale = 1.0) {
    if (failed_attempts < 1 || failed_attempts > static_cast<int>(retry_schedule.size())) {
        return std::nullopt;
    }
    const double ms = std::chrono::duration<double, std::milli>(
                          retry_schedule[static_cast<std::size_t>(failed_attempts - 1)])
                          .count() *
                      scale;
    return std::chrono::milliseconds{std::max<long long>(1, std::llround(ms))};
}

}  // namespace collectcall::webhook
