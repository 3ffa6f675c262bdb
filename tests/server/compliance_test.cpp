// Compliance policies over HTTP (API.md section 14): Regulation F's worked examples on a stored
// history, the next eligible time of a blocked call, a request not to be called, the account,
// and the record of decisions. The history before the server's (frozen) instant is written
// through the store, as the calls would have been placed at those instants.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <collectcall/collectcall.hpp>

#include "crypto.hpp"
#include "harness.hpp"

using namespace test;
using collectcall::CompliancePolicy;
using collectcall::Timestamp;
using collectcall::Uuid;
using collectcall::server::ServerOptions;
using collectcall::server::Time;

namespace {

LocalServer::Tweak at(std::string_view when) {
    const auto time = frozen_time(when);
    return [time](ServerOptions& o) { o.now = time; };
}

Time instant(std::string_view when) {
    return Timestamp::parse(when).value().time();
}

Account create_account(LocalServer& server, CompliancePolicy policy) {
    collectcall::server::AccountSetup setup;
    setup.name = "acme";
    setup.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    setup.policy = policy;
    const auto c = server.store().create_credentials(setup, instant("2026-01-01T00:00:00Z"));
    return Account{std::string(c.accountId.view()), c.apiKey, c.agentId};
}

std::string call_body(const Account& account) {
    return R"({"agentId":")" + account.agent + R"("})";
}

// A call placed to `customer` at `when` and ended a minute later, for a conversation with a turn
// of the customer's, else unanswered, as the server would have stored it then.
void seed_call(LocalServer& server, const Account& account, const std::string& customer,
               std::string_view when, bool conversation = false) {
    using namespace collectcall;
    using namespace collectcall::server;
    const Time t = instant(when);
    const Uuid account_id = Uuid::parse(account.id).value();
    const auto plan =
        server.store().place_call(account_id, Uuid::parse(customer).value(), t,
                                  [&](const StoredCustomer& stored, const ContactHistory&) {
                                      return placed_call_plan(stored, account.agent, t);
                                  });
    REQUIRE(plan);
    if (!conversation) {
        REQUIRE(
            server.store().end_call(account_id, plan->call.id,
                                    test::ended_call(EndedReason::customer_did_not_answer, 30000,
                                                     "[]", t + std::chrono::minutes(1))));
        return;
    }
    TranscriptMessage turn;
    turn.role = MessageRole::user;
    turn.message = "I can pay next month.";
    turn.startedAt = Timestamp::from_time(t + std::chrono::seconds(5));
    turn.endedAt = Timestamp::from_time(t + std::chrono::seconds(9));
    turn.endTime = turn.endedAt;
    REQUIRE(server.store().end_call(account_id, plan->call.id,
                                    test::ended_call(EndedReason::customer_ended_call, 60000,
                                                     write(std::vector<TranscriptMessage>{turn}),
                                                     t + std::chrono::minutes(1))));
}

// The ids of the failed checks of a blocked call.
std::vector<std::string> failed(const Reply& r) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < r.size("/data/compliance/checksFailed"); ++i)
        out.push_back(r.str("/data/compliance/checksFailed/" + std::to_string(i) + "/id"));
    return out;
}

using Ids = std::vector<std::string>;

// New York: 2026-01-05 is a Monday; EST is UTC-5.
constexpr std::string_view new_york_customer_phone = "+12125550123";

// A new customer's id: in New York unless told otherwise.
std::string new_customer(Client& client, std::string_view external_id,
                         std::string_view phone = new_york_customer_phone,
                         std::string_view state = "NY", std::string_view zip = "10001") {
    const Reply r =
        client.post("/api/v1/customers", customer_json(external_id, "", phone, state, zip));
    REQUIRE(r.status == 200);
    return r.str("/data/id");
}

}  // namespace

TEST_CASE("regulation-f: the 8th call in 7 days is refused until the oldest leaves the run",
          "[compliance]") {
    // Sunday 2026-01-11, 10:00 in New York.
    for (const int seeded : {6, 7}) {
        for (const CompliancePolicy policy :
             {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
            LocalServer server(at("2026-01-11T15:00:00Z"));
            const Account acme = create_account(server, policy);
            Client client = server.client(acme);
            const std::string customer = new_customer(client, "c-1");
            // One call a day at 09:00, Monday to Sunday (Sunday's only when 7 are seeded).
            for (int day = 0; day < seeded; ++day) {
                seed_call(server, acme, customer,
                          "2026-01-" + std::string(day + 5 < 10 ? "0" : "") +
                              std::to_string(day + 5) + "T14:00:00Z");
            }
            const Reply r =
                client.post("/api/v1/customers/" + customer + "/calls", call_body(acme));
            INFO(seeded << " seeded, " << collectcall::enum_name(policy));
            if (seeded == 7 && policy == CompliancePolicy::regulation_f) {
                REQUIRE(r.status == 422);
                CHECK(failed(r) == Ids{"call-frequency"});
                CHECK(r.str("/data/compliance/checksFailed/0/reason") ==
                      "Customer has had 7 calls within 7 consecutive days (America/New_York), "
                      "reaching the limit of 7, and no telephone conversation within the last 7 "
                      "days");
                // Monday 08:00: the run of 7 days holding it starts on Tuesday.
                CHECK(r.str("/data/nextEligibleAt") == "2026-01-12T13:00:00.000Z");
            } else {
                CHECK(r.status == 200);
                CHECK(r.size("/data/compliance/checksPassed") ==
                      (policy == CompliancePolicy::hosted ? 4U : 9U));
                CHECK_FALSE(r.has("/data/nextEligibleAt"));
            }
        }
    }
}

TEST_CASE("regulation-f: a conversation on Monday bars Tuesday to Sunday, allows next Monday",
          "[compliance]") {
    struct Case {
        std::string_view now;
        int status;
    };
    for (const Case c : {Case{"2026-01-06T15:00:00Z", 422},     // Tuesday 10:00
                         Case{"2026-01-12T01:00:00Z", 422},     // Sunday 20:00
                         Case{"2026-01-12T13:00:00Z", 200}}) {  // Monday 08:00
        INFO(c.now);
        LocalServer server(at(c.now));
        const Account acme = create_account(server, CompliancePolicy::regulation_f);
        Client client = server.client(acme);
        const std::string customer = new_customer(client, "c-1");
        seed_call(server, acme, customer, "2026-01-05T15:00:00Z", true);  // Monday 10:00
        const Reply r = client.post("/api/v1/customers/" + customer + "/calls", call_body(acme));
        REQUIRE(r.status == c.status);
        if (c.status == 422) {
            CHECK(failed(r) == Ids{"call-frequency"});
            CHECK(r.str("/data/nextEligibleAt") == "2026-01-12T13:00:00.000Z");
        }
    }
}

TEST_CASE("regulation-f: a phone number's area code in another zone narrows the window",
          "[compliance]") {
    // 10:30 in New York is 07:30 in Los Angeles, where a 213 number may be.
    for (const CompliancePolicy policy :
         {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
        LocalServer server(at("2026-01-06T15:30:00Z"));
        const Account acme = create_account(server, policy);
        Client client = server.client(acme);
        const std::string customer = new_customer(client, "c-1", "+12135550123");
        const Reply r = client.post("/api/v1/customers/" + customer + "/calls", call_body(acme));
        if (policy == CompliancePolicy::hosted) {
            CHECK(r.status == 200);
            continue;
        }
        REQUIRE(r.status == 422);
        CHECK(failed(r) == Ids{"inconvenient-time"});
        CHECK(r.str("/data/compliance/checksFailed/0/reason") ==
              "Customer local time is 07:30 (America/Los_Angeles, outside 8am-9pm)");
        CHECK(r.str("/data/nextEligibleAt") == "2026-01-06T16:00:00.000Z");  // 08:00 in LA
    }
}

TEST_CASE("regulation-f: Massachusetts' third telephone communication in 7 days is refused",
          "[compliance]") {
    LocalServer server(at("2026-01-07T15:00:00Z"));  // Wednesday 10:00 in Boston
    const Account acme = create_account(server, CompliancePolicy::regulation_f);
    Client client = server.client(acme);
    const std::string customer = new_customer(client, "c-1", "+16175550123", "MA", "02108");
    seed_call(server, acme, customer, "2026-01-05T15:00:00Z");
    seed_call(server, acme, customer, "2026-01-06T15:00:00Z");
    const Reply r = client.post("/api/v1/customers/" + customer + "/calls", call_body(acme));
    REQUIRE(r.status == 422);
    CHECK(failed(r) == Ids{"state-call-limit"});
    CHECK(r.str("/data/compliance/checksFailed/0/reason") ==
          "Customer has had 2 telephone communications within 7 consecutive days "
          "(America/New_York), reaching the Massachusetts limit of 2 in 7 days (209 CMR "
          "18.16(1)(d); 940 CMR 7.04(1)(f))");
    // Monday the 12th: the run of 7 days holding it starts on the 6th, with one call.
    CHECK(r.str("/data/nextEligibleAt") == "2026-01-12T13:00:00.000Z");
}

TEST_CASE("a blocked call's nextEligibleAt, null when no time will do; do-not-call",
          "[compliance]") {
    for (const CompliancePolicy policy :
         {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
        INFO(collectcall::enum_name(policy));
        LocalServer server(at("2026-01-06T15:00:00Z"));  // Tuesday 10:00 in New York
        const Account acme = create_account(server, policy);
        Client client = server.client(acme);
        const std::string stopped = new_customer(client, "c-1");
        const std::string asked = new_customer(client, "c-2");
        REQUIRE(client.post("/api/v1/customers/" + stopped + "/cease-and-desist", "").status ==
                200);
        const Reply dnc = client.post("/api/v1/customers/" + asked + "/do-not-call", "");
        REQUIRE(dnc.status == 200);
        CHECK(dnc.str("/data/id") == asked);
        CHECK(client.post("/api/v1/customers/" + asked + "/do-not-call", "{}").status == 200);
        CHECK(client.post("/api/v1/customers/" + asked + "/do-not-call", R"({"x":1})").status ==
              400);
        CHECK(client.post("/api/v1/customers/" + acme.id + "/do-not-call", "").status == 404);

        const Reply c_and_d =
            client.post("/api/v1/customers/" + stopped + "/calls", call_body(acme));
        REQUIRE(c_and_d.status == 422);
        CHECK(c_and_d.is_null("/data/nextEligibleAt"));

        const Reply r = client.post("/api/v1/customers/" + asked + "/calls", call_body(acme));
        if (policy == CompliancePolicy::hosted) {
            // A restricted medium blocks under every policy; the hosted checks say it in
            // cease-and-desist-exclusion.
            REQUIRE(r.status == 422);
            CHECK(failed(r) == Ids{"cease-and-desist-exclusion"});
            CHECK(r.str("/error/message") ==
                  "Customer not eligible for call. Failed rules: Cease and Desist Exclusion "
                  "(Customer has asked not to be called)");
            CHECK(r.is_null("/data/nextEligibleAt"));
        } else {
            REQUIRE(r.status == 422);
            CHECK(failed(r) == Ids{"medium-restriction"});
            CHECK(r.is_null("/data/nextEligibleAt"));
        }
    }
}

TEST_CASE("hosted: a blocked call answers as the hosted service, with nextEligibleAt added",
          "[compliance]") {
    // 07:00 in Chicago. A customer with designated inconvenient times and a number in another
    // zone answers exactly as one without: the hosted policy reads neither.
    LocalServer server(at("2026-11-20T13:00:00Z"));
    const Account acme = create_account(server, CompliancePolicy::hosted);
    Client client = server.client(acme);
    const std::string plain =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string rich =
        client
            .post("/api/v1/customers",
                  customer_json("c-2",
                                R"(, "inconvenientTimes": [{"days": ["fri"], "from": "06:00", )"
                                R"("to": "12:00"}])",
                                "+12135550123"))
            .str("/data/id");
    const Reply a = client.post("/api/v1/customers/" + plain + "/calls", call_body(acme));
    const Reply b = client.post("/api/v1/customers/" + rich + "/calls", call_body(acme));
    REQUIRE(a.status == 422);
    REQUIRE(b.status == 422);
    CHECK(a.raw("/data/compliance") == b.raw("/data/compliance"));
    CHECK(a.raw("/error") == b.raw("/error"));
    CHECK(a.str("/error/message") ==
          "Customer not eligible for call. Failed rules: Respectful Hours Check (Customer local "
          "time is 07:00 (outside respectful hours 8am-8:50pm))");
    // The members of the hosted call object, in its order, then the extension.
    std::vector<std::string> keys;
    for (auto field : a.at("/data").get_object())
        keys.emplace_back(field.key);
    CHECK(keys == std::vector<std::string>{"id", "threadId", "toPhoneNumber", "fromPhoneNumber",
                                           "compliance", "createdAt", "nextEligibleAt"});
    CHECK(a.str("/data/nextEligibleAt") == "2026-11-20T14:00:00.000Z");
}

TEST_CASE("the record of decisions: every evaluation, newest first; GET /account", "[compliance]") {
    LocalServer server(at("2026-01-06T15:00:00Z"));  // Tuesday 10:00 in New York
    const Account acme = create_account(server, CompliancePolicy::regulation_f);
    Client client = server.client(acme);

    const Reply account = client.get("/api/v1/account");
    REQUIRE(account.status == 200);
    CHECK(account.str("/data/id") == acme.id);
    CHECK(account.str("/data/name") == "acme");
    CHECK(account.str("/data/compliancePolicy") == "regulation-f");
    CHECK(account.raw("/data/respectfulHours") == R"({"start":"08:00","end":"20:50"})");
    CHECK(account.integer("/data/maxCallsPerDay") == 4);
    CHECK(account.raw("/data/callerNumbers") == R"(["+12025550100"])");
    CHECK(account.raw("/data/dripCampaigns") == "[]");

    const std::string customer = new_customer(client, "c-1");
    const std::string path = "/api/v1/customers/" + customer + "/compliance-decisions";
    CHECK(client.get(path).raw("/data/decisions") == "[]");
    seed_call(server, acme, customer, "2026-01-05T15:00:00Z", true);

    const Reply blocked = client.post("/api/v1/customers/" + customer + "/calls", call_body(acme));
    REQUIRE(blocked.status == 422);
    const Reply list = client.get(path);
    REQUIRE(list.status == 200);
    REQUIRE(list.size("/data/decisions") == 2);  // the seeded call's, then this one: newest first
    CHECK(list.str("/data/decisions/0/at") == "2026-01-06T15:00:00.000Z");
    CHECK(list.str("/data/decisions/0/operation") == "call");
    CHECK(list.str("/data/decisions/0/policy") == "regulation-f");
    CHECK(list.str("/data/decisions/0/channel") == "call");
    CHECK(list.raw("/data/decisions/0/candidateZones") == R"(["America/New_York"])");
    CHECK(list.raw("/data/decisions/0/localTimes") ==
          R"([{"zone":"America/New_York","localTime":"2026-01-06T10:00:00"}])");
    CHECK(list.raw("/data/decisions/0/counts") ==
          R"({"callsToday":0,"callsInSevenDays":1,"communicationsInSevenDays":1,)"
          R"("lastConversationAt":"2026-01-05T15:00:00.000Z"})");
    CHECK(list.raw("/data/decisions/0/compliance") == blocked.raw("/data/compliance"));
    CHECK(list.str("/data/decisions/0/nextEligibleAt") == blocked.str("/data/nextEligibleAt"));
    CHECK(list.str("/data/decisions/1/at") == "2026-01-05T15:00:00.000Z");

    CHECK(client.get("/api/v1/customers/" + acme.id + "/compliance-decisions").status == 404);
    // Another account sees none of it.
    collectcall::server::AccountSetup other;
    other.name = "other";
    other.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    const auto credentials =
        server.store().create_credentials(other, instant("2026-01-01T00:00:00Z"));
    CHECK(client.with_key(credentials.apiKey).get(path).status == 404);

    // Kept three years after the customer's last activity (12 CFR 1006.100), the refusal (1096
    // days, with 2028-02-29 between): the seeded call's decision, a day older, is kept as long,
    // and then goes with it and its call.
    const std::string calls = "/api/v1/customers/" + customer + "/calls";
    server.store().sweep(instant("2029-01-05T16:00:00Z"));
    CHECK(client.get(path).size("/data/decisions") == 2);
    server.store().sweep(instant("2029-01-06T14:59:59Z"));
    CHECK(client.get(path).size("/data/decisions") == 2);
    CHECK(client.get(calls).size("/data/calls") == 1);
    server.store().sweep(instant("2029-01-06T15:00:01Z"));
    CHECK(client.get(path).size("/data/decisions") == 0);
    CHECK(client.get(calls).size("/data/calls") == 0);
    CHECK(client.get("/api/v1/customers/" + customer).status == 200);
}

TEST_CASE("a bulk call's blocked item and a generated SMS are decided and recorded too",
          "[compliance]") {
    LocalServer server(at("2026-01-06T12:30:00Z"));  // Tuesday 07:30 in New York
    const Account acme = create_account(server, CompliancePolicy::regulation_f);
    Client client = server.client(acme);
    const std::string customer = new_customer(client, "c-1");

    const Reply bulk =
        client.post("/api/v1/calls/bulk",
                    R"({"agentId":")" + acme.agent + R"(","customerIds":[")" + customer + R"("]})");
    REQUIRE(bulk.status == 200);
    CHECK_FALSE(bulk.boolean("/data/results/0/success"));
    CHECK(bulk.str("/data/results/0/nextEligibleAt") == "2026-01-06T13:00:00.000Z");

    const Reply sms = client.post("/api/v1/customers/" + customer + "/interactions/sms/generate",
                                  R"({"from":"+12025550100","to":"+12125550123","persist":true})");
    REQUIRE(sms.status == 422);
    CHECK(sms.str("/data/nextEligibleAt") == "2026-01-06T13:00:00.000Z");

    const Reply list = client.get("/api/v1/customers/" + customer + "/compliance-decisions");
    REQUIRE(list.size("/data/decisions") == 2);
    CHECK(list.str("/data/decisions/0/operation") == "sms");
    CHECK(list.str("/data/decisions/0/channel") == "sms");
    CHECK(list.str("/data/decisions/0/nextEligibleAt") == "2026-01-06T13:00:00.000Z");
    CHECK(list.str("/data/decisions/1/operation") == "bulk-call");
    CHECK(list.str("/data/decisions/1/channel") == "call");
}

TEST_CASE("one call at a time: a second call during the first is refused under regulation-f",
          "[compliance][one-call]") {
    for (const CompliancePolicy policy :
         {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
        INFO(collectcall::enum_name(policy));
        // Tuesday 10:00 in New York, on a clock that runs; the dialer leaves calls in progress.
        LocalServer server([](ServerOptions& o) {
            o.now = frozen_time("2026-01-06T15:00:00Z");
            o.clock_rate = 1;
            o.call_step_ms = 600'000;
        });
        const Account acme = create_account(server, policy);
        Client client = server.client(acme);
        const std::string customer = new_customer(client, "c-1");
        const std::string calls = "/api/v1/customers/" + customer + "/calls";
        const Reply first = client.post(calls, call_body(acme));
        REQUIRE(first.status == 200);
        const std::string first_id = first.str("/data/id");
        std::this_thread::sleep_for(std::chrono::seconds(1));

        const Reply second = client.post(calls, call_body(acme));
        const Reply bulk =
            client.post("/api/v1/calls/bulk", R"({"agentId":")" + acme.agent +
                                                  R"(","customerIds":[")" + customer + R"("]})");
        REQUIRE(bulk.status == 200);
        if (policy == CompliancePolicy::hosted) {
            // The hosted service's checks: a single call and a bulk item do not wait.
            CHECK(second.status == 200);
            CHECK(bulk.boolean("/data/results/0/success"));
            continue;
        }
        REQUIRE(second.status == 422);
        CHECK(failed(second) == Ids{"call-frequency"});
        const std::string reason = "A call to this customer is in progress (" + first_id + ")";
        CHECK(second.str("/data/compliance/checksFailed/0/reason") == reason);
        CHECK(second.str("/error/message") ==
              "Customer not eligible for call. Failed rules: Call Frequency (" + reason + ")");
        CHECK(second.is_null("/data/nextEligibleAt"));
        CHECK(second.str("/data/blockedByCallId") == first_id);
        // The bulk item likewise, and the records of both decisions.
        CHECK_FALSE(bulk.boolean("/data/results/0/success"));
        CHECK(bulk.str("/data/results/0/blockedByCallId") == first_id);
        CHECK(bulk.is_null("/data/results/0/nextEligibleAt"));
        const Reply list = client.get("/api/v1/customers/" + customer + "/compliance-decisions");
        REQUIRE(list.size("/data/decisions") == 3);
        CHECK(list.str("/data/decisions/0/operation") == "bulk-call");
        CHECK(list.str("/data/decisions/0/blockedByCallId") == first_id);
        CHECK(list.str("/data/decisions/1/operation") == "call");
        CHECK(list.str("/data/decisions/1/blockedByCallId") == first_id);
        CHECK_FALSE(list.has("/data/decisions/2/blockedByCallId"));  // the first call's
        CHECK(server.store()
                  .list_calls(Uuid::parse(acme.id).value(), Uuid::parse(customer).value(), {})
                  .items.size() == 1);

        // Once it has ended unanswered (no conversation), the next call is placed.
        REQUIRE(server.store().end_call(
            Uuid::parse(acme.id).value(), Uuid::parse(first_id).value(),
            test::ended_call(collectcall::EndedReason::customer_did_not_answer, 30'000, "[]",
                             instant("2026-01-06T15:00:30Z"))));
        const Reply third = client.post(calls, call_body(acme));
        CHECK(third.status == 200);
        CHECK_FALSE(third.has("/data/blockedByCallId"));
    }
}

TEST_CASE("an SMS to another number: that number's zone is a candidate under regulation-f",
          "[compliance][sms-zone]") {
    // 12:30 in New York is 07:30 in Honolulu.
    for (const CompliancePolicy policy :
         {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
        INFO(collectcall::enum_name(policy));
        LocalServer server(at("2026-01-06T17:30:00Z"));
        const Account acme = create_account(server, policy);
        Client client = server.client(acme);
        const std::string customer = new_customer(client, "c-1");
        const std::string generate = "/api/v1/customers/" + customer + "/interactions/sms/generate";
        const Reply hawaii =
            client.post(generate, R"({"from":"+12025550100","to":"+18085550100","persist":true})");
        const Reply list = client.get("/api/v1/customers/" + customer + "/compliance-decisions");
        REQUIRE(list.size("/data/decisions") == 1);
        if (policy == CompliancePolicy::hosted) {
            // Section 16's rule is not one of "every policy": the address's zone alone.
            CHECK(hawaii.status == 200);
            CHECK(list.raw("/data/decisions/0/candidateZones") == R"(["America/New_York"])");
            continue;
        }
        REQUIRE(hawaii.status == 422);
        CHECK(failed(hawaii) == Ids{"inconvenient-time"});
        CHECK(hawaii.str("/data/compliance/checksFailed/0/reason") ==
              "Customer local time is 07:30 (Pacific/Honolulu, outside 8am-9pm)");
        CHECK(hawaii.str("/data/nextEligibleAt") == "2026-01-06T18:00:00.000Z");  // 08:00 there
        CHECK(list.raw("/data/decisions/0/candidateZones") ==
              R"(["America/New_York","Pacific/Honolulu"])");
        // To the customer's own number it goes.
        CHECK(client.post(generate, R"({"from":"+12025550100","to":"+12125550123","persist":true})")
                  .status == 200);
    }
}
