// Webhook host lookups with a time limit (API.md sections 9 and 11).
//
// getaddrinfo has no timeout of its own: a slow or hostile name server holds the calling thread
// for as long as the system resolver's retries last (tens of seconds). A Resolver runs the
// lookups of names on a small pool of threads of its own and waits for an answer at most the
// time it is given; a lookup that takes longer is answered `timed_out` while its thread finishes
// in the background, and its late answer is dropped. The pool and its queue are bounded: when
// every thread is held by slow lookups, further lookups wait in the queue (and time out there)
// and, once the queue is full, are refused at once, so no number of slow names makes the
// callers wait longer than their limit or the process start more threads.
//
// IP address literals ("203.0.113.7", "[2001:db8::1]", and the obsolete forms getaddrinfo
// accepts, such as "127.1") need no name server: they are answered on the calling thread.
// Every answer goes through check_addresses (address_guard.hpp).
//
// POSIX only (getaddrinfo).
#pragma once

#include <netdb.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "collectcall/webhook/address_guard.hpp"

namespace collectcall::webhook {

// The longest a webhook host lookup may take (API.md section 9).
inline constexpr std::chrono::milliseconds lookup_timeout{2'000};

class Resolver {
  public:
    struct Options {
        std::size_t threads = 8;  // lookups of names in progress at once
        std::size_t queue = 256;  // lookups waiting for a thread; more are refused at once
    };

    Resolver() : Resolver(Options{}) {}
    explicit Resolver(Options options) : state_(std::make_shared<State>()) {
        state_->queue_limit = options.queue == 0 ? 1 : options.queue;
        const std::size_t threads = options.threads == 0 ? 1 : options.threads;
        for (std::size_t i = 0; i < threads; ++i) {
            // Each thread shares the state, so one still inside getaddrinfo when the resolver
            // is destroyed finishes safely on its own (detached, below).
            std::thread([state = state_] { work(*state); }).detach();
        }
    }
    ~Resolver() {
        {
            const std::lock_guard lock(state_->mutex);
            state_->stopping = true;
            for (const auto& lookup : state_->queue)
                lookup->finish(EAI_AGAIN, nullptr);
            state_->queue.clear();
        }
        state_->work.notify_all();
        state_->answered.notify_all();
    }
    Resolver(const Resolver&) = delete;
    Resolver& operator=(const Resolver&) = delete;

    // resolve_checked (address_guard.hpp) that answers within `timeout`: `timed_out` when the
    // name server did not answer in time, `temporary_failure` when the resolver is saturated.
    Resolution resolve(std::string_view host, std::uint16_t port, bool allow_private,
                       std::chrono::milliseconds timeout = lookup_timeout) {
        const std::optional<std::string> name = detail::lookup_name(host);
        if (!name) return detail::resolution_failure(ResolveStatus::invalid_host);
        const std::string service = std::to_string(port);

        // A literal: no name server involved.
        {
            const addrinfo hints = detail::lookup_hints(AI_NUMERICHOST);
            addrinfo* raw = nullptr;
            const int rc = getaddrinfo(name->c_str(), service.c_str(), &hints, &raw);
            const std::unique_ptr<addrinfo, void (*)(addrinfo*)> list(raw, freeaddrinfo);
            if (rc == 0) return check_addresses(list.get(), allow_private);
            if (rc != EAI_NONAME) return detail::lookup_failure(rc);
        }

        const auto deadline = std::chrono::steady_clock::now() + timeout;
        auto lookup = std::make_shared<Lookup>(*name, service, deadline);
        std::unique_lock lock(state_->mutex);
        // Lookups whose callers gave up hold no place in the queue.
        std::erase_if(state_->queue, [](const auto& queued) { return queued->abandoned; });
        if (state_->stopping || state_->queue.size() >= state_->queue_limit) {
            return detail::resolution_failure(ResolveStatus::temporary_failure,
                                              "too many host name lookups in progress");
        }
        state_->queue.push_back(lookup);
        state_->work.notify_one();
        if (!state_->answered.wait_until(lock, deadline, [&] { return lookup->done; })) {
            lookup->abandoned = true;  // its thread drops the late answer
            return timed_out(timeout);
        }
        if (lookup->rc == EAI_AGAIN && lookup->list == nullptr && lookup->expired) {
            return timed_out(timeout);
        }
        if (lookup->rc != 0) return detail::lookup_failure(lookup->rc);
        return check_addresses(lookup->list.get(), allow_private);
    }

  private:
    struct Lookup {
        Lookup(std::string n, std::string s, std::chrono::steady_clock::time_point d)
            : name(std::move(n)), service(std::move(s)), deadline(d) {}
        void finish(int code, addrinfo* answer) {
            rc = code;
            list.reset(answer);
            done = true;
        }

        std::string name;
        std::string service;
        std::chrono::steady_clock::time_point deadline;
        // Guarded by State::mutex.
        bool done = false;
        bool abandoned = false;
        bool expired = false;  // its time ran out while it waited for a thread
        int rc = 0;
        std::unique_ptr<addrinfo, void (*)(addrinfo*)> list{nullptr, freeaddrinfo};
    };

    struct State {
        std::mutex mutex;
        std::condition_variable work;
        std::condition_variable answered;
        std::deque<std::shared_ptr<Lookup>> queue;
        std::size_t queue_limit = 256;
        bool stopping = false;
    };

    static Resolution timed_out(std::chrono::milliseconds timeout) {
        return detail::resolution_failure(
            ResolveStatus::timed_out,
            "no answer within " + std::to_string(timeout.count()) + " ms");
    }

    static void work(State& state) {
        std::unique_lock lock(state.mutex);
        while (true) {
            state.work.wait(lock, [&] { return state.stopping || !state.queue.empty(); });
            if (state.stopping) return;
            const std::shared_ptr<Lookup> lookup = std::move(state.queue.front());
            state.queue.pop_front();
            if (lookup->abandoned || std::chrono::steady_clock::now() >= lookup->deadline) {
                lookup->expired = true;
                lookup->finish(EAI_AGAIN, nullptr);
                state.answered.notify_all();
                continue;
            }
            lock.unlock();
            const addrinfo hints = detail::lookup_hints(0);
            addrinfo* raw = nullptr;
            const int rc = getaddrinfo(lookup->name.c_str(), lookup->service.c_str(), &hints, &raw);
            lock.lock();
            lookup->finish(rc, raw);
            state.answered.notify_all();
        }
    }

    std::shared_ptr<State> state_;
};

}  // namespace collectcall::webhook
