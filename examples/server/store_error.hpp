// The one error of the storage, whichever backend: whether the API answers it 503 or 500.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace collectcall::server {

// Any failure of the storage. `unavailable()` is true for conditions an operator can fix and a
// client may retry (disk full, read-only file system, lock held too long, I/O error, a database
// that does not answer): the API answers those 503; everything else is a fault (500).
class StoreError : public std::runtime_error {
  public:
    StoreError(std::string message, bool unavailable)
        : std::runtime_error(std::move(message)), unavailable_(unavailable) {}
    [[nodiscard]] bool unavailable() const noexcept { return unavailable_; }

  private:
    bool unavailable_;
};

// A write refused because it would take the account past its daily budget of stored rows (API.md
// section 17): thrown inside the write's transaction, which it rolls back whole; the API answers
// 429 quota_exceeded with Retry-After.
class QuotaExceeded : public std::runtime_error {
  public:
    QuotaExceeded(std::int64_t budget, std::int64_t retry_after)
        : std::runtime_error("the account's daily budget of " + std::to_string(budget) +
                             " stored rows is spent; retry after " + std::to_string(retry_after) +
                             " s"),
          budget_(budget),
          retry_after_(retry_after) {}
    [[nodiscard]] std::int64_t budget() const noexcept { return budget_; }
    // Seconds to the next UTC day, when the budget is whole again.
    [[nodiscard]] std::int64_t retry_after() const noexcept { return retry_after_; }

  private:
    std::int64_t budget_;
    std::int64_t retry_after_;
};

}  // namespace collectcall::server
