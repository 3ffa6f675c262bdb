// SMS and e-mail interactions (API.md section 13): imports one at a time and in bulk, the
// customer's interactions, generated messages, and the analysis with its outcomes.
#include <catch2/catch.hpp>

#include <string>

#include "harness.hpp"
#include "hooked_store.hpp"

using namespace test;
using collectcall::server::ServerOptions;

namespace {

LocalServer::Tweak at(std::string_view when) {
    const auto time = frozen_time(when);
    return [time](ServerOptions& o) {
        o.now = time;
        o.call_step_ms = 600'000;  // calls stay in progress unless a test ends them
    };
}

// 09:00 in Chicago.
constexpr std::string_view morning = "2026-11-20T15:00:00Z";

std::string sms_json(std::string_view body, std::string_view extra = {},
                     std::string_view direction = "inbound") {
    std::string s = R"({"direction":")";
    s += direction;
    s += R"(","timestamp":"2026-11-20T14:58:00Z","from":"+13125550123","to":"+12025550100",)";
    s += R"("body":")";
    s += body;
    s += '"';
    s += extra;
    s += '}';
    return s;
}

std::string email_json(std::string_view plain, std::string_view extra = {}) {
    std::string s =
        R"({"direction":"inbound","timestamp":"2026-11-20T14:59:00Z","from":"ann@example.com",)"
        R"("to":["accounts@example.com"],"subject":"My account","plainTextBody":")";
    s += plain;
    s += '"';
    s += extra;
    s += '}';
    return s;
}

httplib::Headers key(const std::string& k) {
    return {{"Idempotency-Key", k}};
}

struct Fixture {
    LocalServer server;
    Account account;
    Client client;
    std::string customer;
    std::string base;  // /api/v1/customers/{id}

    explicit Fixture(std::string_view when = morning)
        : server(at(when)),
          account(server.create_account("acme")),
          client(server.client(account)),
          customer(client.post("/api/v1/customers", customer_json("c-1")).str("/data/id")),
          base("/api/v1/customers/" + customer) {}

    std::string thread() {
        // The customer's thread: the one its calls have.
        const Reply call = client.post(base + "/calls", R"({"agentId":")" + account.agent + "\"}");
        REQUIRE(call.status == 200);
        return call.str("/data/threadId");
    }
};

}  // namespace

TEST_CASE("SMS import: the hosted record, segments counted, the customer's thread",
          "[interactions]") {
    Fixture f;
    const Reply imported = f.client.post(f.base + "/interactions/sms/import", sms_json("Hello"));
    REQUIRE(imported.status == 200);
    CHECK(is_uuid_v4(imported.str("/data/id")));
    CHECK(imported.str("/data/channel") == "sms");
    CHECK(imported.str("/data/direction") == "inbound");
    CHECK(imported.str("/data/customerId") == f.customer);
    CHECK(imported.str("/data/timestamp") == "2026-11-20T14:58:00.000Z");
    CHECK(imported.str("/data/createdAt") == "2026-11-20T15:00:00.000Z");
    CHECK(imported.str("/data/from") == "+13125550123");
    CHECK(imported.str("/data/body") == "Hello");
    CHECK(imported.integer("/data/segments") == 1);
    CHECK(imported.str("/data/threadId") == f.thread());

    // 161 GSM-7 characters are two segments; one emoji makes it UCS-2.
    const Reply two = f.client.post(f.base + "/interactions/sms/import",
                                    sms_json(std::string(161, 'a'), R"(,"segments":null)"));
    CHECK(two.integer("/data/segments") == 2);
    // A threadId given must be the customer's own (quota_test.cpp has the others).
    const std::string thread = f.thread();
    const Reply given =
        f.client.post(f.base + "/interactions/sms/import",
                      sms_json("hi", R"(,"segments":3,"threadId":")" + thread + "\"", "outbound"));
    REQUIRE(given.status == 200);
    CHECK(given.integer("/data/segments") == 3);
    CHECK(given.str("/data/threadId") == thread);
    CHECK(given.str("/data/direction") == "outbound");
}

TEST_CASE("SMS import: every field error with its path; 404, 401, 413, 415", "[interactions]") {
    Fixture f;
    const std::string path = f.base + "/interactions/sms/import";
    const Reply bad = f.client.post(
        path, R"({"direction":"sideways","timestamp":"2026-11-20T15:06:00Z","from":"555",)"
              R"("to":"+12025550100","body":"","segments":0,"threadId":"t","extra":1})");
    REQUIRE(bad.status == 400);
    CHECK(bad.error_code() == "validation_failed");
    REQUIRE(bad.size("/error/details") == 7);
    const std::vector<std::pair<std::string, std::string>> expected{
        {"/direction", "format"},   {"/timestamp", "range"},  {"/from", "format"},
        {"/body", "length"},        {"/segments", "minimum"}, {"/threadId", "format"},
        {"/extra", "unknown_field"}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO(bad.raw("/error/details"));
        CHECK(bad.str("/error/details/" + std::to_string(i) + "/path") == expected[i].first);
        CHECK(bad.str("/error/details/" + std::to_string(i) + "/code") == expected[i].second);
    }
    const Reply missing = f.client.post(path, "{}");
    REQUIRE(missing.status == 400);
    CHECK(missing.size("/error/details") == 5);  // direction, timestamp, from, to, body
    CHECK(f.client.post(path, sms_json(std::string(1601, 'a'))).str("/error/details/0/path") ==
          "/body");
    // Four minutes ahead is allowed (clocks drift); six are not.
    CHECK(f.client
              .post(path, R"({"direction":"inbound","timestamp":"2026-11-20T15:04:00Z",)"
                          R"("from":"+13125550123",)"
                          R"("to":"+12025550100","body":"x"})")
              .status == 200);

    const Reply unknown = f.client.post(
        "/api/v1/customers/0f8fad5b-d9cb-469f-a165-70867728950e/interactions/sms/import",
        sms_json("x"));
    CHECK(unknown.status == 404);
    CHECK(unknown.str("/publicFacingMessage") == "Customer not found");
    CHECK(f.client.post("/api/v1/customers/nope/interactions/sms/import", sms_json("x")).status ==
          404);
    Client globex = f.server.client(f.server.create_account("globex"));
    CHECK(globex.post(path, sms_json("x")).status == 404);
    CHECK(f.server.anonymous().post(path, sms_json("x")).status == 401);
    CHECK(f.client.post(path, sms_json("x"), "text/plain").status == 415);
    const Reply large = f.client.post(path, sms_json(std::string(std::size_t{1} << 20, 'a')));
    CHECK(large.status == 413);
    CHECK(large.error_code() == "payload_too_large");
}

TEST_CASE("e-mail import: lists default to [], a body must have content", "[interactions]") {
    Fixture f;
    const std::string path = f.base + "/interactions/email/import";
    const Reply imported = f.client.post(path, email_json("Please call me back."));
    REQUIRE(imported.status == 200);
    CHECK(imported.str("/data/channel") == "email");
    CHECK(imported.raw("/data/cc") == "[]");
    CHECK(imported.raw("/data/bcc") == "[]");
    CHECK_FALSE(imported.has("/data/messageId"));
    CHECK_FALSE(imported.has("/data/htmlBody"));
    CHECK(imported.str("/data/subject") == "My account");

    const Reply empty = f.client.post(path, email_json(" ", R"(,"htmlBody":null)"));
    REQUIRE(empty.status == 400);
    CHECK(empty.str("/error/details/0/path") == "/plainTextBody");
    CHECK(empty.str("/error/details/0/code") == "conflict");
    const Reply addresses =
        f.client.post(path, email_json("x", R"(,"cc":["ok@example.com","not an address"])"));
    REQUIRE(addresses.status == 400);
    CHECK(addresses.str("/error/details/0/path") == "/cc/1");
    std::string many = R"(,"bcc":[)";
    for (int i = 0; i < 51; ++i)
        many += std::string(i == 0 ? "" : ",") + "\"a" + std::to_string(i) + "@example.com\"";
    many += "]";
    CHECK(f.client.post(path, email_json("x", many)).str("/error/details/0/path") == "/bcc");
}

TEST_CASE("bulk imports: each item on its own, results in request order", "[interactions]") {
    Fixture f;
    const std::string sms = f.base + "/interactions/sms/import/bulk";
    const Reply bulk = f.client.post(sms, "{\"interactions\":[" + sms_json("one") + "," +
                                              sms_json("two", R"(,"from":"555")") + "," +
                                              sms_json("three") + "]}");
    REQUIRE(bulk.status == 200);
    CHECK(bulk.integer("/data/summary/total") == 3);
    CHECK(bulk.integer("/data/summary/succeeded") == 2);
    CHECK(bulk.integer("/data/summary/failed") == 1);
    CHECK(bulk.boolean("/data/results/0/success"));
    CHECK(bulk.str("/data/results/0/interaction/body") == "one");
    CHECK_FALSE(bulk.boolean("/data/results/1/success"));
    CHECK(bulk.integer("/data/results/1/index") == 1);
    CHECK(bulk.str("/data/results/1/error").rfind("validation failed: /from: ", 0) == 0);
    CHECK(bulk.str("/data/results/1/details/0/path") == "/from");
    CHECK(bulk.str("/data/results/2/interaction/body") == "three");
    CHECK(f.client.get(f.base + "/interactions").size("/data/interactions") == 2);

    const Reply none = f.client.post(sms, R"({"interactions":[]})");
    REQUIRE(none.status == 400);
    CHECK(none.str("/error/details/0/path") == "/interactions");
    std::string too_many = "{\"interactions\":[";
    for (int i = 0; i < 101; ++i)
        too_many += (i == 0 ? "" : ",") + sms_json("x");
    too_many += "]}";
    CHECK(f.client.post(sms, too_many).status == 400);
    CHECK(f.client.get(f.base + "/interactions").size("/data/interactions") == 2);

    const Reply emails = f.client.post(
        f.base + "/interactions/email/import/bulk",
        "{\"interactions\":[" + email_json("", R"(,"to":[])") + "," + email_json("fine") + "]}");
    REQUIRE(emails.status == 200);
    CHECK(emails.integer("/data/summary/failed") == 1);
    CHECK(emails.integer("/data/results/0/index") == 0);
    CHECK(emails.str("/data/results/1/interaction/plainTextBody") == "fine");
    CHECK(f.client
              .post("/api/v1/customers/0f8fad5b-d9cb-469f-a165-70867728950e/interactions/email/"
                    "import/bulk",
                    "{\"interactions\":[" + email_json("x") + "]}")
              .status == 404);
}

TEST_CASE("imports replay under an Idempotency-Key and are stored once", "[interactions]") {
    Fixture f;
    const std::string path = f.base + "/interactions/sms/import";
    const Reply first = f.client.post(path, sms_json("once"), "application/json", key("i-1"));
    REQUIRE(first.status == 200);
    const Reply again = f.client.post(path, sms_json("once"), "application/json", key("i-1"));
    CHECK(again.body == first.body);
    CHECK(again.header("Idempotent-Replayed") == "true");
    CHECK(f.client.post(path, sms_json("other"), "application/json", key("i-1")).status == 422);
    CHECK(f.client.get(f.base + "/interactions").size("/data/interactions") == 1);
}

TEST_CASE("GET /customers/{id}/interactions: calls, SMS and e-mail, newest first",
          "[interactions]") {
    Fixture f;
    const std::string thread = f.thread();  // a call at 15:00:00
    f.client.post(f.base + "/interactions/sms/import", sms_json("sms at 14:58"));
    f.client.post(f.base + "/interactions/email/import", email_json("e-mail at 14:59"));
    const Reply listed = f.client.get(f.base + "/interactions");
    REQUIRE(listed.status == 200);
    REQUIRE(listed.size("/data/interactions") == 3);
    CHECK(listed.str("/data/interactions/0/channel") == "voice");
    CHECK(listed.str("/data/interactions/0/call/threadId") == thread);
    CHECK_FALSE(listed.has("/data/interactions/0/transcript"));  // in progress
    CHECK(listed.str("/data/interactions/1/channel") == "email");
    CHECK(listed.str("/data/interactions/1/email/plainTextBody") == "e-mail at 14:59");
    CHECK(listed.str("/data/interactions/2/sms/body") == "sms at 14:58");

    // A call that ended shows its transcript.
    const auto call = collectcall::Uuid::parse(listed.str("/data/interactions/0/call/id")).value();
    const auto account = collectcall::Uuid::parse(f.account.id).value();
    REQUIRE(f.server.store().end_call(
        account, call,
        test::ended_call(
            collectcall::EndedReason::customer_ended_call, 30'000,
            R"([{"role":"user","message":"Hello?","startedAt":"2026-11-20T15:00:01.000Z",)"
            R"("endedAt":"2026-11-20T15:00:02.000Z","endTime":"2026-11-20T15:00:02.000Z",)"
            R"("secondsFromStart":1,"duration":1000}])",
            frozen_time(morning))));
    CHECK(f.client.get(f.base + "/interactions").str("/data/interactions/0/transcript/0/message") ==
          "Hello?");
    CHECK(f.client.get("/api/v1/customers/0f8fad5b-d9cb-469f-a165-70867728950e/interactions")
              .status == 404);
}

TEST_CASE("SMS generate: deterministic, persisted as outbound, 422 without a recipient",
          "[interactions][generate]") {
    Fixture f;
    const std::string path = f.base + "/interactions/sms/generate";
    const Reply draft = f.client.post(path, R"({"from":"+12025550100","persist":false})");
    REQUIRE(draft.status == 200);
    CHECK(draft.str("/data/message").rfind("Hi Ann, ", 0) == 0);
    CHECK_FALSE(draft.has("/data/threadId"));
    CHECK(f.client.post(path, R"({"from":"+12025550100","persist":false})").raw("/data") ==
          draft.raw("/data"));
    CHECK(f.client.get(f.base + "/interactions").size("/data/interactions") == 0);

    const Reply no_to = f.client.post(path, R"({"from":"+12025550100"})");
    REQUIRE(no_to.status == 422);
    CHECK(no_to.error_code() == "recipient_required");
    CHECK(no_to.str("/publicFacingMessage") == "The 'to' field is required when persist is true");
    const Reply invalid =
        f.client.post(path, R"({"from":"555","to":"x","persist":1,"threadId":2})");
    REQUIRE(invalid.status == 400);
    REQUIRE(invalid.size("/error/details") == 4);
    CHECK(invalid.str("/error/details/0/path") == "/from");
    CHECK(invalid.str("/error/details/1/path") == "/to");
    CHECK(invalid.str("/error/details/2/path") == "/persist");
    CHECK(invalid.str("/error/details/3/path") == "/threadId");

    // The thread's last inbound message chooses the reply.
    f.client.post(f.base + "/interactions/sms/import", sms_json("Can I speak to a person?"));
    const Reply sent = f.client.post(path, R"({"from":"+12025550100","to":"+13125550123"})");
    REQUIRE(sent.status == 200);
    CHECK(sent.str("/data/message") ==
          "Hi Ann, thank you. An agent will call you back during business hours. Reply STOP to "
          "opt out.");
    const std::string thread = sent.str("/data/threadId");
    CHECK(thread == f.thread());
    // Newest first: the SMS sent at 15:00 (with the call of f.thread()), then the one received.
    const Reply listed = f.client.get(f.base + "/interactions");
    REQUIRE(listed.size("/data/interactions") == 3);
    CHECK(listed.str("/data/interactions/0/sms/direction") == "outbound");
    CHECK(listed.str("/data/interactions/0/sms/body") == sent.str("/data/message"));
    CHECK(listed.str("/data/interactions/0/sms/to") == "+13125550123");
    CHECK(listed.str("/data/interactions/2/sms/direction") == "inbound");
    CHECK(f.client.post(path, R"({"from":"+12025550100","persist":false})").str("/data/message") ==
          sent.str("/data/message"));

    const Reply missing = f.client.post(
        "/api/v1/customers/0f8fad5b-d9cb-469f-a165-70867728950e/interactions/sms/generate",
        R"({"from":"+12025550100","persist":false})");
    CHECK(missing.status == 404);
}

TEST_CASE("SMS generate: persisting is a communication, blocked by compliance",
          "[interactions][generate][compliance]") {
    SECTION("cease-and-desist") {
        Fixture f;
        f.client.post(f.base + "/cease-and-desist", "");
        const Reply blocked = f.client.post(f.base + "/interactions/sms/generate",
                                            R"({"from":"+12025550100","to":"+13125550123"})");
        REQUIRE(blocked.status == 422);
        CHECK(blocked.error_code() == "compliance_failed");
        CHECK_FALSE(blocked.boolean("/data/compliance/passed"));
        CHECK(blocked.str("/data/compliance/checksFailed/0/id") == "cease-and-desist-exclusion");
        // Writing one without sending it is no communication.
        CHECK(f.client
                  .post(f.base + "/interactions/sms/generate",
                        R"({"from":"+12025550100","persist":false})")
                  .status == 200);
        CHECK(f.client.get(f.base + "/interactions").size("/data/interactions") == 0);
    }
    SECTION("outside respectful hours: three in the morning in Chicago") {
        Fixture f("2026-11-20T09:00:00Z");
        const Reply blocked = f.client.post(f.base + "/interactions/sms/generate",
                                            R"({"from":"+12025550100","to":"+13125550123"})");
        REQUIRE(blocked.status == 422);
        CHECK(blocked.str("/data/compliance/checksFailed/0/id") == "respectful-hours");
        // An SMS is not a voice call: four-voice-call-per-day is not among its checks.
        CHECK(blocked.size("/data/compliance/checksPassed") == 2);
    }
}

TEST_CASE("e-mail generate: both bodies, persisted as an outbound e-mail", "[interactions]") {
    Fixture f;
    const std::string path = f.base + "/interactions/email/generate";
    const Reply draft = f.client.post(path, R"({"persist":false})");
    REQUIRE(draft.status == 200);
    CHECK(draft.str("/data/plainTextBody").rfind("Dear Ann,", 0) == 0);
    CHECK(draft.str("/data/htmlBody").rfind("<p>Dear Ann,</p>", 0) == 0);
    CHECK_FALSE(draft.has("/data/threadId"));

    const Reply sent = f.client.post(path, "{}");
    REQUIRE(sent.status == 200);
    CHECK(sent.str("/data/plainTextBody") == draft.str("/data/plainTextBody"));
    const Reply listed = f.client.get(f.base + "/interactions");
    REQUIRE(listed.size("/data/interactions") == 1);
    CHECK(listed.str("/data/interactions/0/email/direction") == "outbound");
    CHECK(listed.str("/data/interactions/0/email/to/0") == "ann@example.com");
    CHECK(listed.str("/data/interactions/0/email/threadId") == sent.str("/data/threadId"));
    CHECK(f.client.post(path, R"({"persist":"yes"})").str("/error/details/0/path") == "/persist");
}

TEST_CASE(
    "analyze: a general stop request in an SMS becomes cease-and-desist; the next call is "
    "422",
    "[interactions][analyze]") {
    Fixture f;
    const std::string stop =
        f.client.post(f.base + "/interactions/sms/import", sms_json("Do not contact me"))
            .str("/data/id");
    const std::string path = "/api/v1/interactions/" + stop + "/analyze";

    const Reply analysed = f.client.post(path, "{}");
    REQUIRE(analysed.status == 200);
    CHECK(analysed.str("/data/interactionId") == stop);
    CHECK(analysed.str("/data/channel") == "sms");
    CHECK(analysed.raw("/data/outputVariables") ==
          R"({"stop-requests":true,"human-follow-up-requested":false,"payment-promised":false,)"
          R"("dispute":false,"attorney-represented":false})");

    const Reply call =
        f.client.post(f.base + "/calls", R"({"agentId":")" + f.account.agent + "\"}");
    REQUIRE(call.status == 422);
    CHECK(call.str("/data/compliance/checksFailed/0/id") == "cease-and-desist-exclusion");
    // A carrier keyword names the texts (API.md section 16): restricted on receipt, and the
    // analysis adds nothing more; calls go on.
    Fixture keyword;
    const std::string id =
        keyword.client.post(keyword.base + "/interactions/sms/import", sms_json("STOP"))
            .str("/data/id");
    REQUIRE(keyword.client.post("/api/v1/interactions/" + id + "/analyze", "{}").status == 200);
    CHECK(keyword.client.get(keyword.base).raw("/data/restrictedMedia") == R"(["sms"])");
    CHECK(keyword.client
              .post(keyword.base + "/calls", R"({"agentId":")" + keyword.account.agent + "\"}")
              .status == 200);

    // A second analysis is the stored one, whatever it asks.
    CHECK(f.client.post(path, R"({"applyOutcomes":false})").raw("/data") == analysed.raw("/data"));
    CHECK(f.client.post(path, "").raw("/data") == analysed.raw("/data"));
}

TEST_CASE("analyze: applyOutcomes false records nothing until an analysis applies them",
          "[interactions][analyze]") {
    Fixture f;
    const std::string id =
        f.client
            .post(f.base + "/interactions/email/import",
                  email_json("I dispute this debt. My attorney will contact you."))
            .str("/data/id");
    const std::string path = "/api/v1/interactions/" + id + "/analyze";
    const Reply peek = f.client.post(path, R"({"applyOutcomes":false})");
    REQUIRE(peek.status == 200);
    CHECK(peek.str("/data/channel") == "email");
    CHECK(peek.boolean("/data/outputVariables/dispute"));
    CHECK(peek.boolean("/data/outputVariables/attorney-represented"));
    const auto account = collectcall::Uuid::parse(f.account.id).value();
    const auto customer = collectcall::Uuid::parse(f.customer).value();
    CHECK_FALSE(f.server.store().find_customer(account, customer)->customer.disputed);

    REQUIRE(f.client.post(path, R"({"applyOutcomes":true})").status == 200);
    const auto stored = f.server.store().find_customer(account, customer);
    CHECK(stored->customer.disputed);
    CHECK(stored->customer.attorneyRepresented);
    CHECK_FALSE(stored->cease_and_desist);
}

TEST_CASE("analyze: a call's customer turns; a stop request there restricts calls",
          "[interactions][analyze]") {
    Fixture f;
    const Reply call =
        f.client.post(f.base + "/calls", R"({"agentId":")" + f.account.agent + "\"}");
    const std::string id = call.str("/data/id");
    const std::string path = "/api/v1/interactions/" + id + "/analyze";
    // In progress: nothing said yet.
    const Reply early = f.client.post(path, "{}");
    REQUIRE(early.status == 400);
    CHECK(early.error_code() == "analysis_skipped");
    CHECK(early.str("/publicFacingMessage") == "Analysis was skipped.");

    const auto account = collectcall::Uuid::parse(f.account.id).value();
    REQUIRE(f.server.store().end_call(
        account, collectcall::Uuid::parse(id).value(),
        test::ended_call(
            collectcall::EndedReason::customer_ended_call, 30'000,
            R"([{"role":"agent","message":"Please stop calling is what you said?","startedAt":)"
            R"("2026-11-20T15:00:01.000Z","endedAt":"2026-11-20T15:00:02.000Z","endTime":)"
            R"("2026-11-20T15:00:02.000Z","secondsFromStart":1,"duration":1000},)"
            R"({"role":"user","message":"Yes. Stop calling me.","startedAt":)"
            R"("2026-11-20T15:00:03.000Z","endedAt":"2026-11-20T15:00:04.000Z","endTime":)"
            R"("2026-11-20T15:00:04.000Z","secondsFromStart":3,"duration":1000}])",
            frozen_time(morning))));
    const Reply analysed = f.client.post(path, "{}");
    REQUIRE(analysed.status == 200);
    CHECK(analysed.str("/data/channel") == "voice");
    CHECK(analysed.boolean("/data/outputVariables/stop-requests"));
    const auto stored =
        f.server.store().find_customer(account, collectcall::Uuid::parse(f.customer).value());
    // "Stop calling me." names the calls: that medium only.
    CHECK(stored->customer.restrictedMedia ==
          collectcall::RestrictedMedia{collectcall::ContactChannel::call});
    CHECK_FALSE(stored->cease_and_desist);
}

TEST_CASE("analyze: outbound messages are skipped; unknown and other accounts' ids are 404",
          "[interactions][analyze]") {
    Fixture f;
    const std::string outbound =
        f.client.post(f.base + "/interactions/sms/import", sms_json("STOP", {}, "outbound"))
            .str("/data/id");
    const Reply skipped = f.client.post("/api/v1/interactions/" + outbound + "/analyze", "{}");
    CHECK(skipped.status == 400);
    CHECK(skipped.str("/publicFacingMessage") == "Analysis was skipped.");

    const Reply unknown =
        f.client.post("/api/v1/interactions/0f8fad5b-d9cb-469f-a165-70867728950e/analyze", "{}");
    CHECK(unknown.status == 404);
    CHECK(unknown.str("/publicFacingMessage") == "Interaction not found");
    CHECK(f.client.post("/api/v1/interactions/nope/analyze", "{}").status == 404);
    const std::string inbound =
        f.client.post(f.base + "/interactions/sms/import", sms_json("hi")).str("/data/id");
    Client globex = f.server.client(f.server.create_account("globex"));
    CHECK(globex.post("/api/v1/interactions/" + inbound + "/analyze", "{}").status == 404);
    const Reply bad =
        f.client.post("/api/v1/interactions/" + inbound + "/analyze", R"({"applyOutcomes":1})");
    CHECK(bad.status == 400);
    CHECK(bad.str("/error/details/0/path") == "/applyOutcomes");
}
