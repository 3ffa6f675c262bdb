// POST /calls/bulk and POST /calls/get-signed-url (API.md section 13).
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "hooked_store.hpp"

using namespace test;
using collectcall::server::ServerOptions;

namespace {

LocalServer::Tweak frozen() {
    return [](ServerOptions& o) {
        o.now = frozen_time("2026-11-20T15:00:00Z");  // 09:00 in Chicago
        o.call_step_ms = 600'000;                     // calls stay in progress
        o.api.allow_private_webhooks = true;
    };
}

std::string bulk_body(const Account& account, const std::vector<std::string>& ids,
                      std::string_view extra = {}) {
    std::string s = R"({"agentId":")" + account.agent + R"(","customerIds":[)";
    for (std::size_t i = 0; i < ids.size(); ++i)
        s += (i == 0 ? "\"" : ",\"") + ids[i] + "\"";
    s += "]";
    s += extra;
    s += "}";
    return s;
}

constexpr const char* nobody = "0f8fad5b-d9cb-469f-a165-70867728950e";

// A server at 09:00 in Chicago, an account, and its customer `a`.
struct Fixture {
    LocalServer server{frozen()};
    Account acme = server.create_account("acme");
    Client client = server.client(acme);
    std::string a = client.post("/api/v1/customers", customer_json("a")).str("/data/id");
};

}  // namespace

TEST_CASE("bulk calls: each customer as a single call, results in order", "[calls][bulk-calls]") {
    Fixture f;
    const Account& acme = f.acme;
    Client& client = f.client;
    const std::string& a = f.a;
    const std::string b = client.post("/api/v1/customers", customer_json("b")).str("/data/id");
    client.post("/api/v1/customers/" + b + "/cease-and-desist", "");

    const Reply bulk = client.post("/api/v1/calls/bulk", bulk_body(acme, {a, nobody, b}));
    REQUIRE(bulk.status == 200);
    CHECK(bulk.boolean("/success"));
    CHECK(bulk.integer("/data/summary/total") == 3);
    CHECK(bulk.integer("/data/summary/successful") == 1);
    CHECK(bulk.integer("/data/summary/failed") == 2);

    CHECK(bulk.str("/data/results/0/customerId") == a);
    CHECK(bulk.boolean("/data/results/0/success"));
    CHECK(bulk.str("/data/results/0/data/toPhoneNumber") == "+13125550123");
    CHECK(bulk.boolean("/data/results/0/data/compliance/passed"));
    const std::string call = bulk.str("/data/results/0/data/id");
    CHECK(client.get("/api/v1/calls/" + call).str("/data/status") == "in-progress");

    CHECK(bulk.str("/data/results/1/customerId") == nobody);
    CHECK_FALSE(bulk.boolean("/data/results/1/success"));
    CHECK(bulk.str("/data/results/1/error") == "Customer not found");
    CHECK_FALSE(bulk.has("/data/results/1/data"));

    CHECK_FALSE(bulk.boolean("/data/results/2/success"));
    CHECK(bulk.str("/data/results/2/error") ==
          "Customer not eligible for call. Failed rules: Cease and Desist Exclusion (Customer "
          "has requested cease and desist)");
    CHECK(bulk.str("/data/results/2/compliance/checksFailed/0/id") == "cease-and-desist-exclusion");
    CHECK(client.get("/api/v1/customers/" + b + "/calls").size("/data/calls") == 0);
}

TEST_CASE("bulk calls: the whole request is checked first: body, agent, webhook",
          "[calls][bulk-calls]") {
    Fixture f;
    LocalServer& server = f.server;
    const Account& acme = f.acme;
    Client& client = f.client;
    const std::string& a = f.a;
    std::string upper = a;
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));

    const Reply duplicate = client.post("/api/v1/calls/bulk", bulk_body(acme, {a, upper}));
    REQUIRE(duplicate.status == 400);
    CHECK(duplicate.str("/publicFacingMessage") == "customerIds must not contain duplicates");
    CHECK(duplicate.str("/error/details/0/path") == "/customerIds/1");
    CHECK(duplicate.str("/error/details/0/code") == "conflict");

    const Reply empty = client.post("/api/v1/calls/bulk", bulk_body(acme, {}));
    REQUIRE(empty.status == 400);
    CHECK(empty.str("/error/details/0/path") == "/customerIds");
    std::vector<std::string> many;
    for (int i = 0; i < 101; ++i) {
        char id[37];
        std::snprintf(id, sizeof id, "0f8fad5b-d9cb-469f-a165-%012d", i);
        many.emplace_back(id);
    }
    CHECK(client.post("/api/v1/calls/bulk", bulk_body(acme, many)).status == 400);
    const Reply invalid = client.post("/api/v1/calls/bulk", bulk_body(acme, {a, "nope"}));
    REQUIRE(invalid.status == 400);
    CHECK(invalid.str("/error/details/0/path") == "/customerIds/1");
    const Reply missing = client.post("/api/v1/calls/bulk", "{}");
    CHECK(missing.size("/error/details") == 2);

    Account other = acme;
    other.agent = "agent-of-nobody";
    CHECK(client.post("/api/v1/calls/bulk", bulk_body(other, {a})).status == 403);
    const Reply secret = client.post(
        "/api/v1/calls/bulk", bulk_body(acme, {a},
                                        R"(,"webhook":{"url":"http://127.0.0.1:9/h","secretId":")" +
                                            std::string(nobody) + "\"}"));
    REQUIRE(secret.status == 400);
    CHECK(secret.str("/error/details/0/path") == "/webhook/secretId");
    CHECK(server.anonymous().post("/api/v1/calls/bulk", bulk_body(acme, {a})).status == 401);
    // Nothing was placed by any of them.
    CHECK(client.get("/api/v1/customers/" + a + "/calls").size("/data/calls") == 0);

    // The route is its own, more specific than /calls/{callId}: GET there is 405, not a call.
    const Reply get = client.get("/api/v1/calls/bulk");
    CHECK(get.status == 405);
    CHECK(get.header("Allow") == "POST");
}

TEST_CASE("bulk calls racing single calls place at most 4 a day", "[calls][bulk-calls][race]") {
    // Keyed, a bulk's writes are one transaction from its charged rows to its answer: a single
    // call to one of its customers must not deadlock with it (503).
    const bool keyed = GENERATE(false, true);
    INFO("bulks under an Idempotency-Key: " << keyed);
    LocalServer server(frozen());
    const Account acme = server.create_account("acme");
    Client setup = server.client(acme);
    const std::string a = setup.post("/api/v1/customers", customer_json("a")).str("/data/id");
    const std::string b = setup.post("/api/v1/customers", customer_json("b")).str("/data/id");

    std::atomic<int> placed_a{0};
    std::atomic<int> unavailable{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t) {
        threads.emplace_back([&, t] {
            Client client = server.client(acme);
            for (int i = 0; i < 2; ++i) {
                if (t % 2 == 0) {
                    const Reply r = client.post("/api/v1/customers/" + a + "/calls",
                                                R"({"agentId":")" + acme.agent + R"("})");
                    if (r.status == 200) ++placed_a;
                    if (r.status == 503) ++unavailable;
                } else {
                    httplib::Headers headers;
                    if (keyed)
                        headers.emplace("Idempotency-Key",
                                        "bulk-" + std::to_string(t) + "-" + std::to_string(i));
                    const Reply r = client.post("/api/v1/calls/bulk", bulk_body(acme, {b, a}),
                                                "application/json", headers);
                    if (r.status == 200 && r.boolean("/data/results/1/success")) ++placed_a;
                    if (r.status == 503) ++unavailable;
                }
            }
        });
    }
    for (std::thread& t : threads)
        t.join();
    CHECK(placed_a == 4);
    CHECK(unavailable == 0);
    CHECK(setup.get("/api/v1/customers/" + a + "/calls").size("/data/calls") == 4);
    CHECK(setup.get("/api/v1/customers/" + b + "/calls").size("/data/calls") == 4);
}

TEST_CASE("bulk calls replay under an Idempotency-Key and place once", "[calls][bulk-calls]") {
    Fixture f;
    const Account& acme = f.acme;
    Client& client = f.client;
    const std::string& a = f.a;
    const httplib::Headers key{{"Idempotency-Key", "bulk-1"}};
    const Reply first =
        client.post("/api/v1/calls/bulk", bulk_body(acme, {a}), "application/json", key);
    REQUIRE(first.status == 200);
    const Reply again =
        client.post("/api/v1/calls/bulk", bulk_body(acme, {a}), "application/json", key);
    CHECK(again.body == first.body);
    CHECK(client.get("/api/v1/customers/" + a + "/calls").size("/data/calls") == 1);
}

TEST_CASE("get-signed-url: the recording link of an answered call, 404 otherwise",
          "[calls][recording]") {
    Fixture f;
    LocalServer& server = f.server;
    const Account& acme = f.acme;
    Client& client = f.client;
    const std::string& customer = f.a;
    const auto place = [&] {
        return client
            .post("/api/v1/customers/" + customer + "/calls",
                  R"({"agentId":")" + acme.agent + R"("})")
            .str("/data/id");
    };
    const auto signed_url = [&](const std::string& call) {
        return client.post("/api/v1/calls/get-signed-url", R"({"callId":")" + call + "\"}");
    };
    const auto end = [&](const std::string& call, collectcall::EndedReason reason) {
        REQUIRE(server.store().end_call(
            collectcall::Uuid::parse(acme.id).value(), collectcall::Uuid::parse(call).value(),
            test::ended_call(reason, 42'000, "[]", frozen_time("2026-11-20T15:01:00Z"))));
    };

    const std::string answered = place();
    const Reply early = signed_url(answered);
    CHECK(early.status == 404);
    CHECK(early.str("/publicFacingMessage") == "Call not found");
    end(answered, collectcall::EndedReason::customer_ended_call);
    const Reply link = signed_url(answered);
    REQUIRE(link.status == 200);
    CHECK(link.str("/data/callId") == answered);
    const std::string url = link.str("/data/signedUrl");
    const std::string origin = "http://127.0.0.1:" + std::to_string(server.port());
    REQUIRE(url.rfind(origin + "/api/v1/calls/" + answered + "/recording?", 0) == 0);
    const Reply audio = server.anonymous().get(url.substr(origin.size()));
    CHECK(audio.status == 200);
    CHECK(audio.header("Content-Type") == "audio/wav");

    const std::string unanswered = place();
    end(unanswered, collectcall::EndedReason::customer_did_not_answer);
    CHECK(signed_url(unanswered).status == 404);
    CHECK(signed_url(nobody).status == 404);
    Client globex = server.client(server.create_account("globex"));
    CHECK(globex.post("/api/v1/calls/get-signed-url", R"({"callId":")" + answered + "\"}").status ==
          404);
    const Reply bad = client.post("/api/v1/calls/get-signed-url", R"({"callId":"x"})");
    CHECK(bad.status == 400);
    CHECK(bad.str("/error/details/0/path") == "/callId");
}
