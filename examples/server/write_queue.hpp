// The queue of a group-commit writer (sqlite/sqlite_writer.hpp, postgres/postgres_writer.hpp):
// request threads add their writes, the writer's thread takes them in batches, and sleeps only
// while the queue is empty.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace collectcall::server {

template <class Pending>
class WriteQueue {
  public:
    // Adds a write. The writer waits only on an empty queue: behind other writes, it will find
    // this one without being woken.
    void push(Pending* write) {
        bool first = false;
        {
            std::lock_guard lock(mutex_);
            first = queue_.empty();
            queue_.push_back(write);
        }
        if (first) ready_.notify_one();
    }

    // Waits for writes, then moves the oldest, at most `most`, into `batch` (emptied first).
    // False once stop() was called and no write is left.
    bool take(std::vector<Pending*>& batch, std::size_t most = SIZE_MAX) {
        batch.clear();
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return false;
        if (queue_.size() <= most) {
            batch.swap(queue_);
        } else {
            const auto taken = queue_.begin() + static_cast<std::ptrdiff_t>(most);
            batch.assign(queue_.begin(), taken);
            queue_.erase(queue_.begin(), taken);
        }
        return true;
    }

    // Without waiting, appends to `batch` the writes waiting that `accept` accepts, in order;
    // the others stay queued.
    template <class Accept>
    void take_now(std::vector<Pending*>& batch, Accept accept) {
        std::lock_guard lock(mutex_);
        std::vector<Pending*> later;
        for (Pending* write : queue_)
            (accept(*write) ? batch : later).push_back(write);
        queue_.swap(later);
    }

    // Lets take() return false once the writes still queued are taken.
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        ready_.notify_one();
    }

    [[nodiscard]] std::size_t size() {
        std::lock_guard lock(mutex_);
        return queue_.size();
    }

  private:
    std::mutex mutex_;
    std::condition_variable ready_;  // a write joins an empty queue, or the writer stops
    std::vector<Pending*> queue_;    // writes waiting for the next batch
    bool stopping_ = false;
};

}  // namespace collectcall::server
