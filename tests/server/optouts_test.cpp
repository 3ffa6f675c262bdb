// Opt-outs over HTTP (API.md section 16): a carrier keyword restricts texts the moment it is
// imported; a stop request restricts the medium it names; the customer shows its standing; an
// operator sets or clears the restricted media; every change of standing is a record of the
// decisions list; e-mail passes the gate; every generated message says how to opt out.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <collectcall/collectcall.hpp>

#include "harness.hpp"

using namespace test;
using collectcall::CompliancePolicy;
using collectcall::server::ServerOptions;

namespace {

// 09:00 in Chicago: every window is open.
constexpr std::string_view morning = "2026-11-20T15:00:00Z";

LocalServer::Tweak at(std::string_view when, int clock_rate = 0) {
    const auto time = frozen_time(when);
    return [time, clock_rate](ServerOptions& o) {
        o.now = time;
        o.clock_rate = clock_rate;
        o.call_step_ms = clock_rate == 0 ? 600'000 : 20;
    };
}

Account account_with(LocalServer& server, CompliancePolicy policy,
                     std::vector<std::string_view> campaigns = {}) {
    collectcall::server::AccountSetup setup;
    setup.name = "acme";
    setup.policy = policy;
    setup.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    for (std::string_view text : campaigns)
        setup.campaigns.push_back(collectcall::parse_drip_campaign(text).campaign.value());
    const auto c = server.store().create_credentials(setup, frozen_time("2026-01-01T00:00:00Z"));
    return Account{std::string(c.accountId.view()), c.apiKey, c.agentId};
}

std::string sms_json(std::string_view body, std::string_view direction = "inbound") {
    return R"({"direction":")" + std::string(direction) +
           R"(","timestamp":"2026-11-20T14:58:00Z","from":"+13125550123","to":"+12025550100",)"
           R"("body":")" +
           std::string(body) + "\"}";
}

std::string email_json(std::string_view plain) {
    return R"({"direction":"inbound","timestamp":"2026-11-20T14:59:00Z","from":"ann@example.com",)"
           R"("to":["accounts@example.com"],"subject":"My account","plainTextBody":")" +
           std::string(plain) + "\"}";
}

const std::string persisted_sms = R"({"from":"+12025550100","to":"+13125550123"})";

struct Fixture {
    LocalServer server;
    Account account;
    Client client;
    std::string customer;
    std::string base;  // /api/v1/customers/{id}

    explicit Fixture(CompliancePolicy policy = CompliancePolicy::hosted,
                     std::string_view customer_extra = {})
        : server(at(morning)),
          account(account_with(server, policy)),
          client(server.client(account)),
          customer(client.post("/api/v1/customers", customer_json("c-1", customer_extra))
                       .str("/data/id")),
          base("/api/v1/customers/" + customer) {}

    Reply import_sms(std::string_view body, std::string_view direction = "inbound") {
        const Reply r = client.post(base + "/interactions/sms/import", sms_json(body, direction));
        REQUIRE(r.status == 200);
        return r;
    }
    std::string media() { return client.get(base).raw("/data/restrictedMedia"); }
    Reply decisions() {
        const Reply r = client.get(base + "/compliance-decisions");
        REQUIRE(r.status == 200);
        return r;
    }
    // The standing records of the decisions list, newest first, as "cause before->after".
    std::vector<std::string> standing_records() {
        const Reply r = decisions();
        std::vector<std::string> out;
        for (std::size_t i = 0; i < r.size("/data/decisions"); ++i) {
            const std::string d = "/data/decisions/" + std::to_string(i);
            if (r.str(d + "/operation") != "standing") continue;
            CHECK_FALSE(r.has(d + "/channel"));
            CHECK(r.boolean(d + "/compliance/passed"));
            CHECK(r.is_null(d + "/nextEligibleAt"));
            out.push_back(r.str(d + "/standing/cause") + " " +
                          r.raw(d + "/standing/before/restrictedMedia") + "->" +
                          r.raw(d + "/standing/after/restrictedMedia"));
        }
        return out;
    }
    Reply analyse(const std::string& interaction) {
        const Reply r = client.post("/api/v1/interactions/" + interaction + "/analyze", "{}");
        REQUIRE(r.status == 200);
        return r;
    }
    Reply put_media(const std::string& body, const std::string& path = {}) {
        return client.send("PUT", (path.empty() ? base : path) + "/restricted-media", body,
                           {{"Content-Type", "application/json"}});
    }
    int call_status() {
        return client.post(base + "/calls", R"({"agentId":")" + account.agent + "\"}").status;
    }
};

}  // namespace

TEST_CASE("opt-out on receipt: an imported STOP restricts texts at once, analysed or not",
          "[optouts]") {
    for (const CompliancePolicy policy :
         {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
        INFO(collectcall::enum_name(policy));
        Fixture f(policy);
        CHECK(f.media() == "[]");
        CHECK(f.client.get(f.base).raw("/data/attorneyRepresented") == "false");
        CHECK(f.client.get(f.base).raw("/data/disputed") == "false");

        const Reply stop = f.import_sms(" STOP. ");
        CHECK(stop.str("/data/body") == " STOP. ");  // the record is stored as sent
        CHECK(f.media() == R"(["sms"])");

        // The next persisted SMS is refused, with no time that will do.
        const Reply blocked = f.client.post(f.base + "/interactions/sms/generate", persisted_sms);
        REQUIRE(blocked.status == 422);
        CHECK(blocked.error_code() == "compliance_failed");
        CHECK(blocked.is_null("/data/nextEligibleAt"));
        CHECK(blocked.str("/data/compliance/checksFailed/0/id") ==
              (policy == CompliancePolicy::hosted ? "cease-and-desist-exclusion"
                                                  : "medium-restriction"));
        const Reply listed = f.client.get(f.base + "/interactions");
        REQUIRE(listed.size("/data/interactions") == 1);  // the STOP alone
        // Writing one without sending it is no communication; calls are another medium.
        CHECK(f.client
                  .post(f.base + "/interactions/sms/generate",
                        R"({"from":"+12025550100","persist":false})")
                  .status == 200);
        CHECK(f.call_status() == 200);

        // The change is a record of the decisions list, with the SMS that made it.
        const Reply decisions = f.decisions();
        bool found = false;
        for (std::size_t i = 0; i < decisions.size("/data/decisions"); ++i) {
            const std::string d = "/data/decisions/" + std::to_string(i);
            if (decisions.str(d + "/operation") != "standing") continue;
            found = true;
            CHECK(decisions.str(d + "/standing/cause") == "opt-out-keyword");
            CHECK(decisions.str(d + "/standing/interactionId") == stop.str("/data/id"));
            CHECK(decisions.raw(d + "/standing/before/restrictedMedia") == "[]");
            CHECK(decisions.raw(d + "/standing/after/restrictedMedia") == R"(["sms"])");
            CHECK_FALSE(decisions.boolean(d + "/standing/after/ceaseAndDesist"));
            CHECK(decisions.str(d + "/policy") == collectcall::enum_name(policy));
        }
        CHECK(found);
        // A second STOP changes nothing, and records nothing.
        f.import_sms("stop");
        CHECK(f.standing_records().size() == 1);
    }
}

TEST_CASE("opt-out on receipt: only a whole inbound keyword, in every import", "[optouts]") {
    SECTION("not keywords: a sentence, a courtesy word, an outbound message, an e-mail") {
        Fixture f;
        f.import_sms("I'm at the bus stop");
        f.import_sms("Stop please");  // a stop request for the analyser, not a keyword
        f.import_sms("STOP", "outbound");
        REQUIRE(f.client.post(f.base + "/interactions/email/import", email_json("STOP")).status ==
                200);
        CHECK(f.media() == "[]");
        CHECK(f.standing_records().empty());
        CHECK(f.client.post(f.base + "/interactions/sms/generate", persisted_sms).status == 200);
    }
    SECTION("every keyword, any case") {
        for (std::string_view keyword : collectcall::analysis::stop_keywords) {
            INFO(keyword);
            Fixture f;
            std::string upper(keyword);
            for (char& c : upper)
                c = static_cast<char>(c - 'a' + 'A');
            f.import_sms(upper);
            CHECK(f.media() == R"(["sms"])");
        }
    }
    SECTION("a bulk import") {
        Fixture f;
        const Reply bulk =
            f.client.post(f.base + "/interactions/sms/import/bulk",
                          R"({"interactions":[)" + sms_json("hello") + "," +
                              sms_json("x", "sideways") + "," + sms_json("Unsubscribe") + "]}");
        REQUIRE(bulk.status == 200);
        CHECK(bulk.integer("/data/summary/succeeded") == 2);
        CHECK(f.media() == R"(["sms"])");
        const std::vector<std::string> records = f.standing_records();
        CHECK(records == std::vector<std::string>{R"(opt-out-keyword []->["sms"])"});
    }
}

TEST_CASE("stop requests by medium: what the analysis applies", "[optouts][analyze]") {
    SECTION("Stop e-mailing me. restricts e-mail only") {
        Fixture f;
        const std::string id =
            f.client.post(f.base + "/interactions/email/import", email_json("Stop e-mailing me."))
                .str("/data/id");
        CHECK(f.analyse(id).boolean("/data/outputVariables/stop-requests"));
        CHECK(f.media() == R"(["email"])");
        CHECK(f.standing_records() == std::vector<std::string>{R"(analysis []->["email"])"});
        // Texts and calls go on; a persisted e-mail does not.
        CHECK(f.client.post(f.base + "/interactions/sms/generate", persisted_sms).status == 200);
        CHECK(f.call_status() == 200);
        const Reply email = f.client.post(f.base + "/interactions/email/generate", "{}");
        CHECK(email.status == 422);
        CHECK(email.error_code() == "compliance_failed");
    }
    SECTION("stop texting me, said in an SMS, restricts texts; no cease-and-desist") {
        Fixture f;
        const std::string id = f.import_sms("please stop texting me").str("/data/id");
        CHECK(f.media() == "[]");  // not a keyword: the analysis decides
        f.analyse(id);
        CHECK(f.media() == R"(["sms"])");
        CHECK(f.call_status() == 200);
    }
    SECTION("a general request in writing is cease-and-desist") {
        Fixture f;
        const std::string id = f.import_sms("Do not contact me").str("/data/id");
        f.analyse(id);
        CHECK(f.media() == "[]");
        CHECK(f.call_status() == 422);
        const Reply decisions = f.decisions();
        REQUIRE(decisions.str("/data/decisions/1/operation") == "standing");
        CHECK(decisions.boolean("/data/decisions/1/standing/after/ceaseAndDesist"));
        CHECK(decisions.str("/data/decisions/1/standing/interactionId") == id);
    }
    SECTION("a call's stop request: calls, texts and e-mail restricted") {
        Fixture f;
        const Reply call =
            f.client.post(f.base + "/calls", R"({"agentId":")" + f.account.agent + "\"}");
        REQUIRE(call.status == 200);
        const std::string id = call.str("/data/id");
        const auto account = collectcall::Uuid::parse(f.account.id).value();
        REQUIRE(f.server.store().end_call(
            account, collectcall::Uuid::parse(id).value(),
            test::ended_call(
                collectcall::EndedReason::customer_ended_call, 30'000,
                R"([{"role":"user","message":"Stop calling me. Do not contact me again.",)"
                R"("startedAt":"2026-11-20T15:00:03.000Z","endedAt":"2026-11-20T15:00:04.000Z",)"
                R"("endTime":"2026-11-20T15:00:04.000Z","secondsFromStart":3,"duration":1000}])",
                frozen_time(morning))));
        f.analyse(id);
        CHECK(f.media() == R"(["call","sms","email"])");
        CHECK(f.standing_records() ==
              std::vector<std::string>{R"(analysis []->["call","sms","email"])"});
        // Said aloud: not the written notice of 1692c(c).
        CHECK_FALSE(f.decisions().boolean("/data/decisions/0/standing/after/ceaseAndDesist"));
        CHECK(f.call_status() == 422);
        CHECK(f.client.post(f.base + "/interactions/sms/generate", persisted_sms).status == 422);
        CHECK(f.client.post(f.base + "/interactions/email/generate", "{}").status == 422);
    }
}

TEST_CASE("e-mail through the gate: a cease-and-desist customer's e-mail is refused",
          "[optouts][generate]") {
    for (const CompliancePolicy policy :
         {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
        INFO(collectcall::enum_name(policy));
        Fixture f(policy);
        const std::string path = f.base + "/interactions/email/generate";
        const Reply sent = f.client.post(path, "{}");
        REQUIRE(sent.status == 200);
        REQUIRE(f.client.post(f.base + "/cease-and-desist", "").status == 200);
        const Reply blocked = f.client.post(path, "{}");
        REQUIRE(blocked.status == 422);
        CHECK(blocked.error_code() == "compliance_failed");
        CHECK(blocked.str("/data/compliance/checksFailed/0/id") == "cease-and-desist-exclusion");
        CHECK(blocked.is_null("/data/nextEligibleAt"));
        CHECK(blocked.str("/data/plainTextBody") == sent.str("/data/plainTextBody"));
        // Nothing stored but the first e-mail; the evaluation is a decision of the list.
        CHECK(f.client.get(f.base + "/interactions").size("/data/interactions") == 1);
        const Reply decisions = f.decisions();
        CHECK(decisions.str("/data/decisions/0/operation") == "email");
        CHECK(decisions.str("/data/decisions/0/channel") == "email");
        CHECK_FALSE(decisions.boolean("/data/decisions/0/compliance/passed"));
        CHECK(decisions.str("/data/decisions/1/standing/cause") == "cease-and-desist");
        // Written, not sent: no communication.
        CHECK(f.client.post(path, R"({"persist":false})").status == 200);
    }
}

TEST_CASE("PUT restricted-media: an operator sets and clears the media, each change recorded",
          "[optouts]") {
    Fixture f;
    const Reply set = f.put_media(R"({"media":["email","sms"]})");
    REQUIRE(set.status == 200);
    CHECK(set.raw("/data/restrictedMedia") == R"(["sms","email"])");
    CHECK(f.media() == R"(["sms","email"])");
    CHECK(set.str("/data/updatedAt") == "2026-11-20T15:00:00.000Z");
    CHECK(f.client.post(f.base + "/interactions/sms/generate", persisted_sms).status == 422);
    // The same again changes nothing and records nothing.
    REQUIRE(f.put_media(R"({"media":["sms","email"]})").status == 200);
    // do-not-call adds the calls.
    const Reply dnc = f.client.post(f.base + "/do-not-call", "");
    REQUIRE(dnc.status == 200);
    CHECK(dnc.raw("/data/restrictedMedia") == R"(["call","sms","email"])");
    REQUIRE(f.client.post(f.base + "/do-not-call", "{}").status == 200);
    // Cleared: a request recorded in error.
    const Reply cleared = f.put_media(R"({"media":[]})");
    REQUIRE(cleared.status == 200);
    CHECK(cleared.raw("/data/restrictedMedia") == "[]");
    CHECK(f.client.post(f.base + "/interactions/sms/generate", persisted_sms).status == 200);
    CHECK(f.standing_records() ==
          std::vector<std::string>{R"(restricted-media ["call","sms","email"]->[])",
                                   R"(do-not-call ["sms","email"]->["call","sms","email"])",
                                   R"(restricted-media []->["sms","email"])"});

    SECTION("validation errors at their paths") {
        const auto details = [](const Reply& r) {
            std::vector<std::string> out;
            for (std::size_t i = 0; i < r.size("/error/details"); ++i) {
                const std::string d = "/error/details/" + std::to_string(i);
                out.push_back(r.str(d + "/path") + " " + r.str(d + "/code"));
            }
            return out;
        };
        const Reply unknown = f.put_media(R"({"media":["sms","fax","sms"],"why":1})");
        REQUIRE(unknown.status == 400);
        CHECK(unknown.error_code() == "validation_failed");
        CHECK(details(unknown) == std::vector<std::string>{"/media/1 format", "/media/2 conflict",
                                                           "/why unknown_field"});
        CHECK(details(f.put_media(R"({"media":"sms"})")) ==
              std::vector<std::string>{"/media type"});
        CHECK(details(f.put_media("{}")) == std::vector<std::string>{"/media required"});
        CHECK(f.put_media("").status == 400);
        CHECK(f.media() == "[]");
    }
    SECTION("another account's customer, an unknown one: 404") {
        Client globex = f.server.client(f.server.create_account("globex"));
        const Reply other = globex.send("PUT", f.base + "/restricted-media", R"({"media":["sms"]})",
                                        {{"Content-Type", "application/json"}});
        CHECK(other.status == 404);
        CHECK(other.str("/publicFacingMessage") == "Customer not found");
        CHECK(f.put_media(R"({"media":["sms"]})",
                          "/api/v1/customers/0f8fad5b-d9cb-469f-a165-70867728950e")
                  .status == 404);
        CHECK(f.put_media(R"({"media":["sms"]})", "/api/v1/customers/nope").status == 404);
        CHECK(f.media() == "[]");
    }
}

TEST_CASE("the standing is read-only in customer bodies", "[optouts]") {
    Fixture f;
    const Reply created = f.client.post(
        "/api/v1/customers", customer_json("c-2", R"(,"restrictedMedia":["sms"],"disputed":true)"));
    REQUIRE(created.status == 400);
    CHECK(created.str("/error/details/0/path") == "/restrictedMedia");
    CHECK(created.str("/error/details/0/code") == "unknown_field");
    const Reply patched =
        f.client.patch(f.base, R"({"restrictedMedia":[],"attorneyRepresented":false})");
    REQUIRE(patched.status == 400);
    CHECK(patched.str("/error/details/0/path") == "/restrictedMedia");
    CHECK(patched.str("/error/details/0/code") == "not_allowed");
    CHECK(patched.str("/error/details/1/path") == "/attorneyRepresented");
    // The answers show it: create, read, the bulk create's items.
    const Reply bulk =
        f.client.post("/api/v1/customers/bulk", R"({"customers":[)" + customer_json("c-3") + "]}");
    REQUIRE(bulk.status == 200);
    CHECK(bulk.raw("/data/results/0/customer/restrictedMedia") == "[]");
}

TEST_CASE("every generated SMS and e-mail says how to opt out; a stop reply promises nothing",
          "[optouts][generate]") {
    Fixture f;
    f.import_sms("stop texting me");  // not analysed: texts still flow
    const Reply sms = f.client.post(f.base + "/interactions/sms/generate", persisted_sms);
    REQUIRE(sms.status == 200);
    const std::string message = sms.str("/data/message");
    CHECK(message == "Hi Ann, we have received your request. Reply STOP to opt out.");
    CHECK(message.find("not text") == std::string::npos);
    const Reply email = f.client.post(f.base + "/interactions/email/generate", "{}");
    REQUIRE(email.status == 200);
    CHECK(email.str("/data/plainTextBody").find("reply to this e-mail with the word UNSUBSCRIBE") !=
          std::string::npos);
    // The reply the e-mail asks for restricts e-mail once analysed.
    const std::string reply =
        f.client.post(f.base + "/interactions/email/import", email_json("UNSUBSCRIBE"))
            .str("/data/id");
    f.analyse(reply);
    CHECK(f.media() == R"(["email"])");
}

TEST_CASE("a drip campaign's SMS step is refused after an imported STOP", "[optouts][drip]") {
    LocalServer server(at(morning, 100'000));
    const Account acme = account_with(server, CompliancePolicy::hosted, {"texts=sms@1"});
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string base = "/api/v1/customers/" + customer;
    REQUIRE(client.post(base + "/drip-campaigns", R"({"campaignName":"texts"})").status == 200);
    REQUIRE(client.post(base + "/interactions/sms/import", sms_json("STOP")).status == 200);
    // A simulated day is under a second: wait for the step's decision.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string step;
    while (step.empty() && std::chrono::steady_clock::now() < deadline) {
        const Reply decisions = client.get(base + "/compliance-decisions");
        for (std::size_t i = 0; i < decisions.size("/data/decisions"); ++i) {
            const std::string d = "/data/decisions/" + std::to_string(i);
            if (decisions.str(d + "/operation") == "drip-step") step = d;
        }
        if (step.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!step.empty()) {
            CHECK_FALSE(decisions.boolean(step + "/compliance/passed"));
            CHECK(decisions.str(step + "/channel") == "sms");
        }
    }
    REQUIRE_FALSE(step.empty());
    const Reply listed = client.get(base + "/interactions");
    REQUIRE(listed.size("/data/interactions") == 1);
    CHECK(listed.str("/data/interactions/0/sms/direction") == "inbound");
}

TEST_CASE("a call to the test number 555-0177: its stop request restricts calls, texts, e-mail",
          "[optouts][analyze][test-numbers]") {
    for (const CompliancePolicy policy :
         {CompliancePolicy::hosted, CompliancePolicy::regulation_f}) {
        INFO(collectcall::enum_name(policy));
        LocalServer server([](ServerOptions& o) {
            o.now = frozen_time(morning);
            o.call_step_ms = 10;
        });
        const Account acme = account_with(server, policy);
        Client client = server.client(acme);
        const std::string customer =
            client.post("/api/v1/customers", customer_json("c-1", {}, "+13125550177"))
                .str("/data/id");
        const std::string base = "/api/v1/customers/" + customer;
        const Reply call = client.post(base + "/calls", R"({"agentId":")" + acme.agent + "\"}");
        REQUIRE(call.status == 200);
        const std::string id = call.str("/data/id");
        // The dialer ends it with the customer's words.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (client.get("/api/v1/calls/" + id).str("/data/status") == "in-progress" &&
               std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        const Reply analysed =
            client.post("/api/v1/interactions/" + id + "/analyze", R"({"applyOutcomes":true})");
        REQUIRE(analysed.status == 200);
        CHECK(analysed.str("/data/channel") == "voice");
        CHECK(analysed.boolean("/data/outputVariables/stop-requests"));
        const Reply standing = client.get(base);
        CHECK(standing.raw("/data/restrictedMedia") == R"(["call","sms","email"])");
        // Calls, texts and e-mail are refused, with no time that will do.
        const Reply next = client.post(base + "/calls", R"({"agentId":")" + acme.agent + "\"}");
        CHECK(next.status == 422);
        CHECK(next.is_null("/data/nextEligibleAt"));
        const Reply sms = client.post(base + "/interactions/sms/generate",
                                      R"({"from":"+12025550100","to":"+13125550177"})");
        CHECK(sms.status == 422);
        CHECK(sms.is_null("/data/nextEligibleAt"));
        const Reply email = client.post(base + "/interactions/email/generate", "{}");
        CHECK(email.status == 422);
        CHECK(email.is_null("/data/nextEligibleAt"));
    }
}
