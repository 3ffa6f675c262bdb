// Fair and bounded background work and bulk cost (API.md section 17): FairQueue, the turn the
// simulated dialer serves accounts in, counted by queue positions; the rate limiter's charge of a
// bulk request's items, on its own clock. Nothing here is timed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "fair_queue.hpp"
#include "rate_limit.hpp"

using collectcall::server::FairQueue;
using namespace std::chrono_literals;

namespace {
using TimePoint = std::chrono::steady_clock::time_point;
const TimePoint t0{};

std::vector<std::string> drain(FairQueue<std::string>& queue, TimePoint now) {
    std::vector<std::string> out;
    while (auto item = queue.pop_due(now))
        out.push_back(*item);
    return out;
}
}  // namespace

TEST_CASE("FairQueue: one account's thousands of due items delay another's by one", "[fair]") {
    FairQueue<std::string> queue;
    for (int i = 0; i < 30000; ++i)
        queue.push("a", t0, "a" + std::to_string(i));
    queue.push("b", t0 + 1ms, "b0");
    queue.push("c", t0 + 1ms, "c0");
    CHECK(queue.size() == 30002);
    CHECK(queue.keys() == 3);

    const std::vector<std::string> order = drain(queue, t0 + 1ms);
    REQUIRE(order.size() == 30002);
    // b and c come among the first three, though 30,000 of a's were due earlier.
    const auto position = [&](const std::string& item) {
        return std::find(order.begin(), order.end(), item) - order.begin();
    };
    CHECK(position("b0") < 3);
    CHECK(position("c0") < 3);
    // Within an account, in the order due and pushed.
    std::vector<std::string> of_a;
    for (const std::string& item : order) {
        if (item[0] == 'a') of_a.push_back(item);
    }
    REQUIRE(of_a.size() == 30000);
    for (int i = 0; i < 30000; ++i)
        REQUIRE(of_a[static_cast<std::size_t>(i)] == "a" + std::to_string(i));
    CHECK(queue.empty());
    CHECK(queue.keys() == 0);
    CHECK_FALSE(queue.next_due());
}

TEST_CASE("FairQueue: nothing before it is due; an account's later item waits its turn", "[fair]") {
    FairQueue<std::string> queue;
    queue.push("a", t0 + 10ms, "a-late");
    queue.push("a", t0 + 5ms, "a-early");
    queue.push("b", t0 + 7ms, "b");
    CHECK(queue.next_due() == t0 + 5ms);
    CHECK_FALSE(queue.pop_due(t0 + 4ms));
    CHECK(drain(queue, t0 + 5ms) == std::vector<std::string>{"a-early"});
    CHECK(queue.next_due() == t0 + 7ms);
    // At 10 ms both are due: b's turn comes before a's second item.
    CHECK(drain(queue, t0 + 10ms) == std::vector<std::string>{"b", "a-late"});

    // In turn: a, b, c each once, then a, b again.
    for (const char* key : {"a", "b", "c"}) {
        queue.push(key, t0, std::string(key) + "1");
        queue.push(key, t0, std::string(key) + "2");
    }
    CHECK(drain(queue, t0) == std::vector<std::string>{"a1", "b1", "c1", "a2", "b2", "c2"});
}

TEST_CASE("RateLimiter: a bulk request's items are charged after its admission", "[fair]") {
    using collectcall::server::RateLimiter;
    RateLimiter limiter(10);  // burst 20
    const auto t = RateLimiter::Clock::time_point{} + std::chrono::hours{1};

    // A bulk of 20 on a full bucket: admitted (1), then the other 19.
    REQUIRE(limiter.check("k", t).allowed);
    const RateLimiter::Decision bulk = limiter.check_rest("k", 20, 1, t);
    CHECK(bulk.allowed);
    CHECK(bulk.remaining == 0);
    CHECK_FALSE(limiter.check("k", t).allowed);
    // 0.5 s later: 5 tokens. A bulk of 7 is admitted, and its other 6 are refused, with the
    // second it takes to have them.
    REQUIRE(limiter.check("k", t + 500ms).allowed);
    const RateLimiter::Decision seven = limiter.check_rest("k", 7, 1, t + 500ms);
    CHECK_FALSE(seven.allowed);
    CHECK(seven.retry_after == 1);
    CHECK(limiter.check_rest("k", 5, 1, t + 500ms).allowed);  // 4 left after admission: enough

    // Dearer than the burst: only on a full bucket, and then into debt, paid back at the rate.
    const auto full = t + std::chrono::seconds{10};
    REQUIRE(limiter.check("k", full).allowed);
    CHECK(limiter.check_rest("k", 100, 1, full).allowed);
    const RateLimiter::Decision owing = limiter.check("k", full + std::chrono::seconds{8});
    CHECK_FALSE(owing.allowed);  // 20 - 100 + 80 = 0 tokens
    CHECK(limiter.check("k", full + std::chrono::seconds{9}).allowed);
    // Another key is not charged, and requests taken count for the other processes.
    CHECK(limiter.check("other", full).allowed);
    CHECK(limiter.take_used()["k"] == 1 + 19 + 1 + 4 + 1 + 99 + 1);
}
