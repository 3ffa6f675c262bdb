// Calls and compliance (API.md section 8), webhook secrets and the webhook member (section 9).
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "harness.hpp"

using namespace test;
using collectcall::server::ServerOptions;

namespace {

// 09:00 in Chicago, 10:00 in New York.
LocalServer::Tweak at(std::string_view when, bool allow_private = true) {
    const auto time = frozen_time(when);
    return [time, allow_private](ServerOptions& o) {
        o.now = time;
        o.api.allow_private_webhooks = allow_private;
    };
}

std::string call_body(const Account& account) {
    return R"({"agentId":")" + account.agent + R"("})";
}

std::vector<std::string> check_ids(const Reply& r, const std::string& list) {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < r.size(list); ++i)
        ids.push_back(r.str(list + "/" + std::to_string(i) + "/id"));
    return ids;
}

}  // namespace

TEST_CASE("a call is placed: numbers, thread, compliance, createdAt", "[calls]") {
    LocalServer server(at("2026-11-20T15:00:00Z"));
    const Account acme = server.create_account("acme", {"+12125550100", "+13125550100"});
    Client client = server.client(acme);
    const std::string chicago =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    // A 415 (San Francisco) number living in New York: the address decides the zone, the
    // number the caller id.
    const std::string sf =
        client.post("/api/v1/customers", customer_json("c-2", "", "+14155550123", "NY", "10001"))
            .str("/data/id");

    const Reply first = client.post("/api/v1/customers/" + chicago + "/calls", call_body(acme));
    REQUIRE(first.status == 200);
    CHECK(is_recent_uuid_v7(first.str("/data/id")));
    CHECK(first.str("/data/toPhoneNumber") == "+13125550123");
    CHECK(first.str("/data/fromPhoneNumber") == "+13125550100");  // same area code
    CHECK(first.str("/data/createdAt") == "2026-11-20T15:00:00.000Z");
    CHECK(first.boolean("/data/compliance/passed"));
    REQUIRE(first.size("/data/compliance/checksPassed") == 4);
    CHECK(first.size("/data/compliance/checksFailed") == 0);
    CHECK(first.str("/data/compliance/checksPassed/0/id") == "is-active");
    CHECK(first.str("/data/compliance/checksPassed/1/id") == "cease-and-desist-exclusion");
    CHECK(first.str("/data/compliance/checksPassed/2/id") == "four-voice-call-per-day");
    CHECK(first.str("/data/compliance/checksPassed/2/reason") ==
          "Customer has had 0 voice calls today within respectful hours window "
          "(America/Chicago), within the limit of 4");
    CHECK(first.str("/data/compliance/checksPassed/3/id") == "respectful-hours");
    CHECK_FALSE(first.has("/data/status"));

    const Reply second = client.post("/api/v1/customers/" + chicago + "/calls", call_body(acme));
    REQUIRE(second.status == 200);
    CHECK(second.str("/data/threadId") == first.str("/data/threadId"));
    CHECK(second.str("/data/id") != first.str("/data/id"));

    const Reply other = client.post("/api/v1/customers/" + sf + "/calls", call_body(acme));
    REQUIRE(other.status == 200);
    CHECK(other.str("/data/fromPhoneNumber") == "+12125550100");  // no 415 number: the first
    CHECK(other.str("/data/threadId") != first.str("/data/threadId"));
}

TEST_CASE("call ids are time-ordered: a later call's id sorts after", "[calls]") {
    LocalServer server(at("2026-11-20T15:00:00Z"));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i) {
        if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(3));
        // A customer each: the calls are placed, whatever the daily count allows.
        const std::string customer =
            client.post("/api/v1/customers", customer_json("order-" + std::to_string(i)))
                .str("/data/id");
        const Reply placed =
            client.post("/api/v1/customers/" + customer + "/calls", call_body(acme));
        REQUIRE(placed.status == 200);
        ids.push_back(placed.str("/data/id"));
    }
    CHECK(is_time_ordered(ids));
}

TEST_CASE("GET /calls/{id} and the customer's call list, newest first", "[calls]") {
    LocalServer server(at("2026-11-20T15:00:00Z"));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");

    std::vector<std::string> placed;
    for (int i = 0; i < 3; ++i) {
        placed.push_back(client.post("/api/v1/customers/" + customer + "/calls", call_body(acme))
                             .str("/data/id"));
    }
    const Reply call = client.get("/api/v1/calls/" + placed[0]);
    REQUIRE(call.status == 200);
    CHECK(call.str("/data/status") == "in-progress");
    CHECK(call.str("/data/customerId") == customer);
    CHECK(call.is_null("/data/endedReason"));
    CHECK(call.is_null("/data/durationMs"));
    REQUIRE(call.size("/data/events") == 1);
    CHECK(call.str("/data/events/0/type") == "call-created");
    CHECK(call.str("/data/events/0/createdAt") == "2026-11-20T15:00:00.000Z");
    CHECK(call.boolean("/data/compliance/passed"));

    const Reply list = client.get("/api/v1/customers/" + customer + "/calls");
    REQUIRE(list.status == 200);
    CHECK(check_ids(list, "/data/calls") ==
          std::vector<std::string>{placed[2], placed[1], placed[0]});
    CHECK(list.raw("/data/calls/2") == call.raw("/data"));

    const Reply unknown = client.get("/api/v1/calls/00000000-0000-4000-8000-000000000000");
    CHECK(unknown.status == 404);
    CHECK(client.get("/api/v1/customers/00000000-0000-4000-8000-000000000000/calls").status == 404);
}

TEST_CASE("the fifth call of the day is blocked, not placed and not counted",
          "[calls][compliance]") {
    LocalServer server(at("2026-11-20T15:00:00Z"));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string path = "/api/v1/customers/" + customer + "/calls";

    for (int i = 0; i < 4; ++i)
        REQUIRE(client.post(path, call_body(acme)).status == 200);
    const Reply fifth = client.post(path, call_body(acme));
    REQUIRE(fifth.status == 422);
    CHECK(fifth.error_code() == "compliance_failed");
    CHECK_FALSE(fifth.boolean("/success"));
    CHECK_FALSE(fifth.boolean("/data/compliance/passed"));
    REQUIRE(fifth.size("/data/compliance/checksFailed") == 1);
    CHECK(fifth.str("/data/compliance/checksFailed/0/id") == "four-voice-call-per-day");
    CHECK(fifth.size("/data/compliance/checksPassed") == 3);
    CHECK(fifth.str("/error/message") ==
          "Customer not eligible for call. Failed rules: Four Voice Call Per Day (Customer has "
          "had 4 voice calls today within respectful hours window (America/Chicago), exceeding "
          "the limit of 4)");
    CHECK(fifth.str("/publicFacingMessage") == fifth.str("/error/message"));
    // The blocked call has the customer's thread and both numbers, and a fresh id that is not
    // stored.
    CHECK(fifth.str("/data/threadId") == client.get(path).str("/data/calls/0/threadId"));
    CHECK(fifth.str("/data/fromPhoneNumber") == "+12025550100");
    CHECK(client.get("/api/v1/calls/" + fifth.str("/data/id")).status == 404);
    CHECK(client.get(path).size("/data/calls") == 4);
    CHECK(client.post(path, call_body(acme)).status == 422);
    CHECK(client.get(path).size("/data/calls") == 4);
}

TEST_CASE("outside respectful hours the call is blocked", "[calls][compliance]") {
    // 07:00 in Chicago.
    LocalServer server(at("2026-11-20T13:00:00Z"));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const Reply r = client.post("/api/v1/customers/" + customer + "/calls", call_body(acme));
    REQUIRE(r.status == 422);
    REQUIRE(r.size("/data/compliance/checksFailed") == 1);
    CHECK(r.str("/data/compliance/checksFailed/0/id") == "respectful-hours");
    CHECK(r.str("/data/compliance/checksFailed/0/reason") ==
          "Customer local time is 07:00 (outside respectful hours 8am-8:50pm)");
}

TEST_CASE("cease-and-desist and inactive customers are not called; all checks run",
          "[calls][compliance]") {
    LocalServer server(at("2026-11-20T15:00:00Z"));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string path = "/api/v1/customers/" + customer;

    REQUIRE(client.post(path + "/deactivate", "").status == 200);
    const Reply inactive = client.post(path + "/calls", call_body(acme));
    REQUIRE(inactive.status == 422);
    CHECK(inactive.str("/data/compliance/checksFailed/0/id") == "is-active");
    CHECK(inactive.str("/data/compliance/checksFailed/0/reason") == "Customer is not active");

    REQUIRE(client.post(path + "/cease-and-desist", "").status == 200);
    const Reply both = client.post(path + "/calls", call_body(acme));
    REQUIRE(both.status == 422);
    REQUIRE(both.size("/data/compliance/checksFailed") == 2);
    CHECK(both.str("/data/compliance/checksFailed/0/id") == "is-active");
    CHECK(both.str("/data/compliance/checksFailed/1/id") == "cease-and-desist-exclusion");
    CHECK(both.size("/data/compliance/checksPassed") == 2);

    REQUIRE(client.post(path + "/activate", "").status == 200);
    const Reply still = client.post(path + "/calls", call_body(acme));
    REQUIRE(still.status == 422);
    REQUIRE(still.size("/data/compliance/checksFailed") == 1);
    CHECK(still.str("/data/compliance/checksFailed/0/id") == "cease-and-desist-exclusion");
    CHECK(client.get(path + "/calls").size("/data/calls") == 0);

    // An active customer without cease-and-desist is called again after activate.
    const std::string other =
        client.post("/api/v1/customers", customer_json("c-2")).str("/data/id");
    REQUIRE(client.post("/api/v1/customers/" + other + "/deactivate", "").status == 200);
    REQUIRE(client.post("/api/v1/customers/" + other + "/activate", "").status == 200);
    CHECK(client.post("/api/v1/customers/" + other + "/calls", call_body(acme)).status == 200);
}

TEST_CASE("checks before compliance: customer 404, then body 400, then agent 403", "[calls]") {
    LocalServer server(at("2026-11-20T15:00:00Z"));
    const Account acme = server.create_account("acme");
    const Account globex = server.create_account("globex");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string unknown = "/api/v1/customers/00000000-0000-4000-8000-000000000000/calls";
    const std::string path = "/api/v1/customers/" + customer + "/calls";

    CHECK(client.post(unknown, R"({"agent":1})").status == 404);
    // The customer first whichever later check the request would fail or pass: another account's
    // agent, an unknown webhook secret, nothing wrong but the customer; nor is another account's
    // customer found.
    CHECK(client.post(unknown, call_body(globex)).status == 404);
    CHECK(client
              .post(unknown, R"({"agentId":")" + acme.agent +
                                 R"(","webhook":{"url":"https://example.com/hook","secretId":)"
                                 R"("00000000-0000-4000-8000-000000000001"}})")
              .status == 404);
    CHECK(client.post(unknown, call_body(acme)).status == 404);
    CHECK(server.client(globex).post(path, call_body(globex)).status == 404);
    const Reply bad_body = client.post(path, R"({"agentId":"","extra":1})");
    REQUIRE(bad_body.status == 400);
    CHECK(bad_body.str("/error/details/0/path") == "/agentId");
    CHECK(bad_body.str("/error/details/1/path") == "/extra");
    CHECK(client.post(path, "{").error_code() == "malformed_json");

    const Reply other_agent = client.post(path, call_body(globex));
    CHECK(other_agent.status == 403);
    CHECK(other_agent.error_code() == "agent_not_assigned");
    CHECK(client.post(path, R"({"agentId":"agent-007"})").status == 403);
    CHECK(client.get(path).size("/data/calls") == 0);
}

TEST_CASE("webhook secrets and the webhook of a call", "[calls][webhooks]") {
    LocalServer server(at("2026-11-20T15:00:00Z"));
    const Account acme = server.create_account("acme");
    const Account globex = server.create_account("globex");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string path = "/api/v1/customers/" + customer + "/calls";

    const Reply secret = client.post("/api/v1/webhook-secrets", "", "");
    REQUIRE(secret.status == 200);
    CHECK(is_uuid_v4(secret.str("/data/id")));
    const std::string text = secret.str("/data/secret");
    CHECK(text.rfind("whsec_", 0) == 0);
    CHECK(text.size() == 6 + 44);
    const Reply another = client.post("/api/v1/webhook-secrets", "{}");
    REQUIRE(another.status == 200);
    CHECK(another.str("/data/secret") != text);
    const std::string foreign =
        server.client(globex).post("/api/v1/webhook-secrets", "").str("/data/id");

    const auto with_webhook = [&](const std::string& url, const std::string& secret_id) {
        return R"({"agentId":")" + acme.agent + R"(","webhook":{"url":")" + url +
               R"(","secretId":")" + secret_id + R"("}})";
    };
    const Reply placed =
        client.post(path, with_webhook("http://127.0.0.1:9/hook", secret.str("/data/id")));
    CHECK(placed.status == 200);

    const Reply unknown = client.post(
        path, with_webhook("http://127.0.0.1:9/hook", "00000000-0000-4000-8000-000000000000"));
    REQUIRE(unknown.status == 400);
    CHECK(unknown.str("/error/details/0/path") == "/webhook/secretId");
    CHECK(unknown.str("/error/details/0/code") == "not_found");
    const Reply theirs = client.post(path, with_webhook("http://127.0.0.1:9/hook", foreign));
    REQUIRE(theirs.status == 400);
    CHECK(theirs.str("/error/details/0/path") == "/webhook/secretId");

    const Reply bad_url = client.post(path, with_webhook("ftp://x", secret.str("/data/id")));
    REQUIRE(bad_url.status == 400);
    CHECK(bad_url.str("/error/details/0/path") == "/webhook/url");

    // Without secretId, as the hosted service: placed, and its deliveries go out unsigned.
    const Reply no_secret = client.post(
        path, R"({"agentId":")" + acme.agent + R"(","webhook":{"url":"http://127.0.0.1/"}})");
    CHECK(no_secret.status == 200);
}

TEST_CASE("private webhook targets are refused without the allow option", "[calls][webhooks]") {
    LocalServer server(at("2026-11-20T15:00:00Z", false));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string secret = client.post("/api/v1/webhook-secrets", "").str("/data/id");

    for (const char* url : {"http://127.0.0.1:8080/hook", "http://10.0.0.1/hook",
                            "http://169.254.169.254/latest", "http://[::1]/hook"}) {
        const Reply r = client.post("/api/v1/customers/" + customer + "/calls",
                                    R"({"agentId":")" + acme.agent + R"(","webhook":{"url":")" +
                                        url + R"(","secretId":")" + secret + R"("}})");
        INFO(url);
        REQUIRE(r.status == 400);
        CHECK(r.str("/error/details/0/path") == "/webhook/url");
        CHECK(r.str("/error/details/0/code") == "not_allowed");
    }
    CHECK(client.get("/api/v1/customers/" + customer + "/calls").size("/data/calls") == 0);
}
