// Waiting for the server's background work in a test: poll a condition until it holds.
#pragma once

#include <chrono>
#include <thread>

namespace test {

// Whether `done()` came true within `timeout` (15 s unless said), asked every `poll`: the way a
// test waits for what it then checks, rather than for a fixed pause (which a loaded machine can
// outlast).
template <class Predicate>
bool eventually(Predicate done, std::chrono::milliseconds timeout = std::chrono::seconds(15),
                std::chrono::milliseconds poll = std::chrono::milliseconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(poll);
    }
    return true;
}

}  // namespace test
