#include <collectcall/webhook/resolver.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>

namespace wh = collectcall::webhook;
using wh::ResolveStatus;
using namespace std::chrono_literals;

namespace {
// "At once": an answer that does not wait for the lookup takes microseconds; the bound is ten
// times and more what a loaded 2-core machine takes.
constexpr auto at_once = 5s;
}  // namespace

TEST_CASE("the resolver answers literals on the calling thread, whatever the time limit",
          "[webhook][resolver]") {
    wh::Resolver resolver;
    const auto v4 = resolver.resolve("93.184.216.34", 443, false, 0ms);
    REQUIRE(v4.ok());
    CHECK(v4.addresses.front().to_string() == "93.184.216.34");
    // An obsolete form getaddrinfo takes as a number: classified by what it means.
    const auto short_form = resolver.resolve("127.1", 80, false, 0ms);
    CHECK(short_form.status == ResolveStatus::refused);
    CHECK(short_form.message.find("loopback address") != std::string::npos);
    CHECK(short_form.message.find("127.0.0.1") == std::string::npos);
    const auto v6 = resolver.resolve("[::1]", 80, true, 0ms);
    REQUIRE(v6.ok());
    CHECK(v6.addresses.front().to_string() == "::1");
    CHECK(resolver.resolve("[nope]", 80, true).status == ResolveStatus::invalid_host);
}

TEST_CASE("the resolver looks names up within its time limit", "[webhook][resolver]") {
    wh::Resolver resolver;
    const auto local = resolver.resolve("localhost", 8080, true);
    REQUIRE(local.ok());
    const auto refused = resolver.resolve("localhost", 8080, false);
    CHECK(refused.status == ResolveStatus::refused);
    CHECK(refused.message == "host resolves to a loopback address, which a webhook may not target");

    // No time at all: a name cannot be answered, and says so at once.
    const auto start = std::chrono::steady_clock::now();
    const auto late = resolver.resolve("localhost", 8080, true, 0ms);
    CHECK(late.status == ResolveStatus::timed_out);
    CHECK(std::chrono::steady_clock::now() - start < at_once);
    // The resolver still works after an abandoned lookup.
    CHECK(resolver.resolve("localhost", 8080, true).ok());
}

TEST_CASE("a saturated resolver refuses at once instead of queueing without bound",
          "[webhook][resolver]") {
    wh::Resolver resolver(wh::Resolver::Options{1, 1});
    // Lookups abandoned at once pile up only as far as the queue allows; each caller is answered
    // within its own limit either way.
    for (int i = 0; i < 50; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const auto r = resolver.resolve("localhost", 80, true, 0ms);
        CHECK(
            (r.status == ResolveStatus::timed_out || r.status == ResolveStatus::temporary_failure));
        CHECK(std::chrono::steady_clock::now() - start < at_once);
    }
    CHECK(resolver.resolve("localhost", 80, true, 10s).ok());
}
