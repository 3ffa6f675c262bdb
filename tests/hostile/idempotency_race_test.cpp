// Idempotency-Key under concurrency and over time, and the rate limit's headers
// (tests/server/idempotency_test.cpp has the basic cases).
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "crypto.hpp"
#include "harness.hpp"

using namespace test;
using namespace collectcall::server;

namespace {

httplib::Headers key(const std::string& k) {
    return {{"Idempotency-Key", k}};
}

}  // namespace

TEST_CASE("idempotency: 8 concurrent requests with one key create one customer", "[idempotency]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    std::vector<std::future<Reply>> replies;
    for (int i = 0; i < 8; ++i) {
        replies.push_back(std::async(std::launch::async, [&] {
            return server.client(acme).post("/api/v1/customers", customer_json("race-1"),
                                            "application/json", key("race"));
        }));
    }
    std::string created_body;
    int created = 0;
    int in_flight = 0;
    std::vector<Reply> answers;
    for (auto& f : replies)
        answers.push_back(f.get());
    for (const Reply& r : answers) {
        if (r.status == 200) {
            ++created;
            if (created_body.empty()) created_body = r.body;
            // A replay is the first answer, byte for byte.
            CHECK(r.body == created_body);
        } else {
            CHECK(r.status == 409);
            CHECK(r.error_code() == "idempotency_key_in_flight");
            ++in_flight;
        }
    }
    CHECK(created + in_flight == 8);
    CHECK(created >= 1);
    CHECK(server.client(acme).get("/api/v1/customers?externalId=race-1").size("/data/customers") ==
          1);
}

TEST_CASE("idempotency: bulk and validation failures replay byte for byte", "[idempotency]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string bulk =
        R"({"customers":[)" + customer_json("ib-1") + ",{}," + customer_json("ib-1") + "]}";
    const Reply first = client.post("/api/v1/customers/bulk", bulk, "application/json", key("b"));
    REQUIRE(first.status == 200);
    const Reply again = client.post("/api/v1/customers/bulk", bulk, "application/json", key("b"));
    CHECK(again.status == 200);
    CHECK(again.body == first.body);
    CHECK(again.header("X-Request-Id") == first.header("X-Request-Id"));
    CHECK(again.header("Idempotent-Replayed") == "true");

    const Reply invalid = client.post("/api/v1/customers", "{}", "application/json", key("v"));
    REQUIRE(invalid.status == 400);
    CHECK(client.post("/api/v1/customers", "{}", "application/json", key("v")).body ==
          invalid.body);

    // The same key on another endpoint is another request.
    const Reply elsewhere =
        client.post("/api/v1/customers", customer_json("ib-2"), "application/json", key("b"));
    CHECK(elsewhere.status == 422);
    CHECK(elsewhere.error_code() == "idempotency_key_reused");
    // Same bytes but another framing (white space) is another body: the key identifies bytes.
    const Reply spaced =
        client.post("/api/v1/customers/bulk", bulk + " ", "application/json", key("b"));
    CHECK(spaced.status == 422);
}

TEST_CASE("idempotency: a key lives 24 hours", "[idempotency]") {
    LocalServer server([](ServerOptions& o) { o.now = frozen_time("2026-11-20T15:00:00Z"); });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    REQUIRE(
        client.post("/api/v1/customers", customer_json("day-1"), "application/json", key("daily"))
            .status == 200);
    const collectcall::Uuid account = collectcall::Uuid::parse(acme.id).value();
    const Sha256 other = sha256("another request");
    const auto at = [](const char* text) { return frozen_time(text); };
    // Within 24 h the key is taken; after, it is free again.
    CHECK(server.store()
              .begin_idempotent(account, "daily", other, at("2026-11-21T14:59:59Z"))
              .state == IdempotencyState::mismatch);
    CHECK(server.store()
              .begin_idempotent(account, "daily", other, at("2026-11-21T15:00:01Z"))
              .state == IdempotencyState::started);
}

TEST_CASE("rate limit: RateLimit-* headers on every answer, 429 with Retry-After", "[limits]") {
    LocalServer server([](ServerOptions& o) { o.rate_limit = 2; });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string path = "/api/v1/customers?externalId=x";
    // Burst 2N = 4.
    for (int i = 0; i < 4; ++i) {
        const Reply r = client.get(path);
        INFO(i);
        REQUIRE(r.status == 200);
        CHECK(r.header("RateLimit-Limit") == "4");
        CHECK(std::stoi(r.header("RateLimit-Remaining")) <= 3 - i);
        CHECK(std::stoi(r.header("RateLimit-Reset")) >= 1);
    }
    const Reply limited = client.get(path);
    CHECK(limited.status == 429);
    CHECK(limited.error_code() == "rate_limited");
    CHECK(limited.header("Retry-After") == "1");
    CHECK(limited.header("RateLimit-Remaining") == "0");
    CHECK(limited.header("RateLimit-Limit") == "4");
    // POSTs are counted too, and a refused one does nothing.
    CHECK(client.post("/api/v1/customers", customer_json("rl-1")).status == 429);
    // After Retry-After a request goes through.
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    CHECK(client.get(path).status == 200);
    CHECK(client.get("/api/v1/customers?externalId=rl-1").size("/data/customers") == 0);
    // The probe is never limited.
    for (int i = 0; i < 10; ++i)
        CHECK(server.anonymous().get("/healthz").status == 200);
}

TEST_CASE("rate limit: 0 turns it off", "[limits]") {
    LocalServer server([](ServerOptions& o) { o.rate_limit = 0; });
    Client client = server.client(server.create_account("acme"));
    for (int i = 0; i < 50; ++i) {
        const Reply r = client.get("/api/v1/customers?externalId=x");
        REQUIRE(r.status == 200);
        CHECK(r.header("RateLimit-Limit").empty());
    }
}
