// The limits of the HTTP API (API.md sections 2, 7, 10 and 11), stated once: the example server
// enforces them and the OpenAPI document publishes them.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "collectcall/core/value_type.hpp"

namespace collectcall::api {

// Request bodies, chunked or not: 1 MiB, and 16 MiB for a bulk create.
inline constexpr std::size_t max_body = std::size_t{1} << 20;
inline constexpr std::size_t max_bulk_body = std::size_t{16} << 20;

// Customers in one bulk request (the reader's default, which a server may configure).
inline constexpr std::size_t max_bulk_items = ReadOptions{}.max_bulk_items;

// How long an Idempotency-Key replays its first answer.
inline constexpr std::chrono::hours idempotency_retention{24};

// The length of an Idempotency-Key, in printable ASCII characters (api/idempotency_key.hpp).
inline constexpr std::size_t max_idempotency_key_length = 255;

// The memory a server may hold for its clients' bytes: request heads and bodies being read and
// answers not yet taken by the client (API.md section 11; `serve --memory-budget`). The default
// suits a small machine.
inline constexpr std::size_t default_memory_budget = std::size_t{512} << 20;
// No account (API key's account) holds more than this part of the budget for its bodies and
// answers, so that others keep being served; an account may always hold one body of the
// largest size a route takes, when the budget has room for it.
inline constexpr std::size_t memory_share_divisor = 4;
// A request head still incomplete at this size is cut off (the connection closed unanswered)
// while the budget is spent; smaller heads, such as a health check's, are read on.
inline constexpr std::size_t spent_budget_head = std::size_t{16} << 10;
// What a body that does not fit the budget now is answered: 503 with this Retry-After.
inline constexpr std::chrono::seconds memory_retry_after{1};

// The rows an account may store per UTC day (API.md section 17; `init --daily-rows`), a new
// account's budget when init is given none: past it, writes that would store more are refused
// (429 quota_exceeded) until the next UTC day, and reads go on.
inline constexpr std::int64_t default_daily_rows = 1'000'000;
inline constexpr std::int64_t max_daily_rows = std::int64_t{1} << 40;

// The UTC day an instant falls on, as days since 1970-01-01 (a day of the row budget).
[[nodiscard]] constexpr std::int64_t utc_day(std::chrono::sys_time<std::chrono::milliseconds> t) {
    return std::chrono::floor<std::chrono::days>(t).time_since_epoch().count();
}
// The whole seconds from `t` to the next UTC midnight, at least 1: the Retry-After of a write
// refused for the day's budget.
[[nodiscard]] constexpr std::int64_t seconds_to_next_utc_day(
    std::chrono::sys_time<std::chrono::milliseconds> t) {
    const auto next = std::chrono::floor<std::chrono::days>(t) + std::chrono::days{1};
    const auto left = std::chrono::ceil<std::chrono::seconds>(next - t).count();
    return left < 1 ? 1 : left;
}

// "24 hours", as the documents write the retention.
[[nodiscard]] inline std::string idempotency_retention_text() {
    return std::to_string(idempotency_retention.count()) + " hours";
}

// "1 MiB", "16 MiB", "512 KiB", "100 bytes": a size as the documents write it.
[[nodiscard]] inline std::string size_text(std::size_t bytes) {
    if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) {
        return std::to_string(bytes >> 20) + " MiB";
    }
    if (bytes >= (std::size_t{1} << 10) && bytes % (std::size_t{1} << 10) == 0) {
        return std::to_string(bytes >> 10) + " KiB";
    }
    return std::to_string(bytes) + " bytes";
}

}  // namespace collectcall::api
