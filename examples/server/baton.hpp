// A one-shot hand-over from one thread to another: the waiting thread sleeps in wait() until
// another thread calls post() once. The group-commit writers (sqlite/sqlite_writer.hpp,
// postgres/postgres_writer.hpp) wake each request's thread with one after its commit.
//
// Why not a mutex and a condition variable: notified under the mutex (which the waiter's object
// needs, since the waiter may destroy it as soon as it sees the change), the woken thread wakes
// only to block on the mutex the notifier still holds, and is woken a second time when it is
// released: two wake-ups and two thread switches per request where one suffices. Here the state
// is one futex word (Linux, futex(2)): post() stores it and then wakes the address. After that
// store, post() touches no memory of the baton's; the wake is a system call on its address,
// which is harmless when the waiter has already returned and the address holds something else
// (a futex waiter wakes spuriously at worst, and every futex waiter checks its word again).
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace collectcall::server {

class Baton {
  public:
    Baton() = default;
    Baton(const Baton&) = delete;
    Baton& operator=(const Baton&) = delete;

    // Returns once post() has been called (at once if it was).
    void wait() noexcept {
        while (state_.load(std::memory_order_acquire) == 0) {
            // Sleeps only while the word is still 0: a post() between the load and the call
            // makes the call return at once.
            syscall(SYS_futex, word(), FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
        }
    }

    // Lets the waiting thread go on; what this thread wrote before is visible to it.
    void post() noexcept {
        std::uint32_t* const address = word();
        state_.store(1, std::memory_order_release);
        syscall(SYS_futex, address, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    }

  private:
    static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
                  std::atomic<std::uint32_t>::is_always_lock_free);
    std::uint32_t* word() noexcept { return reinterpret_cast<std::uint32_t*>(&state_); }
    std::atomic<std::uint32_t> state_{0};
};

}  // namespace collectcall::server
