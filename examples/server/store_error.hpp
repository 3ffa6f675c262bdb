// The one error of the storage, whichever backend: whether the API answers it 503 or 500.
#pragma once

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

}  // namespace collectcall::server
