// The simulated dialer's test numbers (API.md section 16, docs/server.md "Test numbers"): a call
// to a number ending 555-0171 to 555-0177 ends the documented way, over HTTP on both stores, and
// the documented list is the dialer's table.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <collectcall/collectcall.hpp>

#include "harness.hpp"
#include "simulated_dialer.hpp"

using namespace test;
using collectcall::CompliancePolicy;
using collectcall::Uuid;
using collectcall::server::ServerOptions;
using collectcall::server::test_numbers;

namespace {

// "5550171" as docs/server.md writes it: `555-0171`.
std::string written(std::string_view digits) {
    return std::string(digits.substr(0, 3)) + '-' + std::string(digits.substr(3));
}

Account account_with(LocalServer& server, CompliancePolicy policy) {
    collectcall::server::AccountSetup setup;
    setup.name = "acme";
    setup.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    setup.policy = policy;
    const auto c = server.store().create_credentials(setup, frozen_time("2026-01-01T00:00:00Z"));
    return Account{std::string(c.accountId.view()), c.apiKey, c.agentId};
}

// The call once the dialer has ended it (or as it is after 20 s: the test then fails).
Reply ended(Client& client, const std::string& id) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (true) {
        Reply r = client.get("/api/v1/calls/" + id);
        REQUIRE(r.status == 200);
        if (r.str("/data/status") != "in-progress" || std::chrono::steady_clock::now() > deadline) {
            return r;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

LocalServer::Tweak quick_calls() {
    return [](ServerOptions& o) {
        o.now = frozen_time();  // 09:00 in Chicago
        o.call_step_ms = 10;
    };
}

}  // namespace

TEST_CASE("test numbers: docs/server.md lists the dialer's table", "[calls][test-numbers]") {
    std::ifstream file(std::string(COLLECTCALL_SOURCE_DIR) + "/docs/server.md");
    REQUIRE(file);
    std::vector<std::string> rows;
    bool inside = false;
    for (std::string line; std::getline(file, line);) {
        if (line.starts_with("### ")) inside = line == "### Test numbers";
        if (inside && line.starts_with("| `555-")) rows.push_back(line);
    }
    REQUIRE(rows.size() == test_numbers.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& number = test_numbers[i];
        CHECK(rows[i] == "| `" + written(number.digits) + "` | `" +
                             std::string(collectcall::enum_name(number.ended_reason)) + "` | " +
                             std::string(number.outcome) + " |");
    }
}

TEST_CASE("test numbers: each call ends the documented way, whatever the area code",
          "[calls][test-numbers]") {
    LocalServer server(quick_calls());
    const Account acme = account_with(server, CompliancePolicy::hosted);
    Client client = server.client(acme);
    const Uuid account = Uuid::parse(acme.id).value();
    int index = 0;
    for (const auto& number : test_numbers) {
        for (std::string_view area : {"312", "808"}) {
            const std::string phone = "+1" + std::string(area) + std::string(number.digits);
            INFO(phone);
            const std::string customer =
                client
                    .post("/api/v1/customers",
                          customer_json("c-" + std::to_string(index++), "", phone))
                    .str("/data/id");
            const Reply placed = client.post("/api/v1/customers/" + customer + "/calls",
                                             R"({"agentId":")" + acme.agent + R"("})");
            REQUIRE(placed.status == 200);
            const std::string id = placed.str("/data/id");
            const Reply call = ended(client, id);
            REQUIRE(call.str("/data/status") == "completed");
            CHECK(call.str("/data/endedReason") == collectcall::enum_name(number.ended_reason));
            CHECK(call.integer("/data/durationMs") > 0);
            const auto transcript =
                server.store().find_call_transcript(account, Uuid::parse(id).value());
            REQUIRE(transcript);
            const bool conversation = transcript->find(R"("role":"user")") != std::string::npos;
            const bool expected =
                number.ended_reason == collectcall::EndedReason::customer_ended_call ||
                number.ended_reason == collectcall::EndedReason::agent_ended_call;
            CHECK(conversation == expected);
            if (number.ended_reason == collectcall::EndedReason::customer_did_not_answer)
                CHECK(*transcript == "[]");
            const bool stop =
                transcript->find("Stop calling me. Do not contact me again.") != std::string::npos;
            CHECK(stop == (number.digits == "5550177"));
            // What an analysis of the call finds; a call in which the customer said nothing has
            // no text to analyse.
            const Reply analysis = client.post("/api/v1/interactions/" + id + "/analyze",
                                               R"({"applyOutcomes":false})");
            if (!expected) {
                CHECK(analysis.status == 400);
            } else {
                REQUIRE(analysis.status == 200);
                CHECK(analysis.boolean("/data/outputVariables/stop-requests") == stop);
            }
        }
    }
    // Another number keeps the usual spread: its ending is the call id's.
    const std::string other =
        client.post("/api/v1/customers", customer_json("other", "", "+13125550180"))
            .str("/data/id");
    const Reply placed = client.post("/api/v1/customers/" + other + "/calls",
                                     R"({"agentId":")" + acme.agent + R"("})");
    REQUIRE(placed.status == 200);
    const Reply call = ended(client, placed.str("/data/id"));
    CHECK(call.str("/data/endedReason") ==
          collectcall::enum_name(
              collectcall::server::simulated_outcome(Uuid::parse(placed.str("/data/id")).value())
                  .ended_reason));
}

TEST_CASE("test numbers: under regulation-f a conversation locks the next call out, voicemail not",
          "[calls][test-numbers][compliance]") {
    LocalServer server(quick_calls());
    const Account acme = account_with(server, CompliancePolicy::regulation_f);
    Client client = server.client(acme);
    for (const auto& [digits, locked] : {std::pair<std::string_view, bool>{"5550173", true},
                                         std::pair<std::string_view, bool>{"5550174", true},
                                         std::pair<std::string_view, bool>{"5550172", false},
                                         std::pair<std::string_view, bool>{"5550171", false}}) {
        INFO(digits);
        const std::string customer =
            client
                .post("/api/v1/customers",
                      customer_json("c-" + std::string(digits), "", "+1312" + std::string(digits)))
                .str("/data/id");
        const std::string calls = "/api/v1/customers/" + customer + "/calls";
        const std::string body = R"({"agentId":")" + acme.agent + R"("})";
        const Reply first = client.post(calls, body);
        REQUIRE(first.status == 200);
        REQUIRE(ended(client, first.str("/data/id")).str("/data/status") == "completed");
        const Reply second = client.post(calls, body);
        if (locked) {
            REQUIRE(second.status == 422);
            CHECK(second.str("/data/compliance/checksFailed/0/id") == "call-frequency");
            // Friday 2026-11-20 is day 1: the next Friday, 08:00 in Chicago.
            CHECK(second.str("/data/nextEligibleAt") == "2026-11-27T14:00:00.000Z");
        } else {
            CHECK(second.status == 200);
        }
    }
}
