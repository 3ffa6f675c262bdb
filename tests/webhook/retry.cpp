// The retry schedule of webhook deliveries (API.md section 9).
#include "collectcall/webhook/retry.hpp"

#include <catch2/catch.hpp>

#include <chrono>

using collectcall::webhook::retry_delay;
using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

TEST_CASE("retry: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then given up") {
    CHECK(retry_delay(1) == milliseconds(seconds(5)));
    CHECK(retry_delay(2) == milliseconds(minutes(5)));
    CHECK(retry_delay(3) == milliseconds(minutes(30)));
    CHECK(retry_delay(4) == milliseconds(hours(2)));
    CHECK(retry_delay(5) == milliseconds(hours(5)));
    CHECK(retry_delay(6) == milliseconds(hours(10)));
    CHECK(retry_delay(7) == milliseconds(hours(14)));
    CHECK(retry_delay(8) == milliseconds(hours(20)));
    CHECK(retry_delay(9) == milliseconds(hours(24)));
    CHECK_FALSE(retry_delay(10));
    CHECK_FALSE(retry_delay(0));
    CHECK_FALSE(retry_delay(-1));
    CHECK(collectcall::webhook::max_attempts == 10);
}

TEST_CASE("retry: a scale shortens every wait, to at least 1 ms") {
    CHECK(retry_delay(1, 0.001) == milliseconds(5));
    CHECK(retry_delay(9, 0.001) == milliseconds(86'400));
    CHECK(retry_delay(1, 1e-9) == milliseconds(1));
    CHECK_FALSE(retry_delay(10, 0.001));
}
