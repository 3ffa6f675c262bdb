// Calls: the request, the call object, its details and the webhook event.
#include "collectcall/model/call.hpp"
#include "collectcall/model/webhook.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"

using collectcall::read;
using collectcall::write;

namespace {
std::vector<std::string> describe(const collectcall::ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}
}  // namespace

TEST_CASE("CallRequest: agentId required, webhook optional with url and secretId") {
    auto minimal = read<collectcall::CallRequest>(R"({"agentId":"agent_1"})");
    REQUIRE(minimal.ok());
    CHECK_FALSE(minimal.value().webhook.has_value());

    auto full = read<collectcall::CallRequest>(
        R"({"agentId":"agent_1","webhook":{"url":"https://hooks.example.com/calls?x=1",)"
        R"("secretId":"3F2504E0-4F89-41D3-9A0C-0305E82C3301"}})");
    REQUIRE(full.ok());
    CHECK(full.value().webhook->url.host() == "hooks.example.com");
    CHECK(full.value().webhook->secretId->view() == "3f2504e0-4f89-41d3-9a0c-0305e82c3301");
    auto back = read<collectcall::CallRequest>(write(full.value()));
    REQUIRE(back.ok());
    CHECK(back.value() == full.value());

    auto bad = read<collectcall::CallRequest>(
        R"({"webhook":{"url":"ftp://x","secretId":"nope"},"extra":true})");
    REQUIRE_FALSE(bad.ok());
    CHECK(describe(bad.errors()) ==
          std::vector<std::string>{"/webhook/url format", "/webhook/secretId format",
                                   "/extra unknown_field", "/agentId required"});
    // secretId is optional (unsigned deliveries), as the hosted service.
    auto no_secret =
        read<collectcall::CallRequest>(R"({"agentId":"a","webhook":{"url":"http://x.io"}})");
    REQUIRE(no_secret.ok());
    CHECK_FALSE(no_secret.value().webhook->secretId.has_value());
}

TEST_CASE("CallDetails: the call object with its state round trips") {
    const std::string json =
        R"({"id":"11111111-2222-4333-8444-555555555555","threadId":"21111111-2222-4333-8444-555555555555",)"
        R"("toPhoneNumber":"+14155550100","fromPhoneNumber":"+14155550199",)"
        R"("compliance":{"passed":true,"checksPassed":[{"id":"is-active","name":"Is Active",)"
        R"("description":"Customer is active","reason":"Customer is active"}],"checksFailed":[]},)"
        R"("createdAt":"2026-11-20T15:00:00.000Z","customerId":"31111111-2222-4333-8444-555555555555",)"
        R"("status":"completed","endedReason":"voicemail","durationMs":42000,)"
        R"("events":[{"type":"call-created","createdAt":"2026-11-20T15:00:00.000Z"}]})";
    auto details = read<collectcall::CallDetails>(json);
    REQUIRE(details.ok());
    CHECK(details.value().compliance.checksPassed.size() == 1);
    CHECK(details.value().durationMs == 42000);
    CHECK(write(details.value()) == json);
}

TEST_CASE("call events: the hosted service's CallCreatedWebhook and CallEndedWebhook") {
    const auto uuid = [](const char* text) { return collectcall::Uuid::parse(text).value(); };
    const auto at = [](const char* text) { return collectcall::Timestamp::parse(text).value(); };
    collectcall::CallFacts call;
    call.id = uuid("11111111-2222-4333-8444-555555555555");
    call.customerId = uuid("21111111-2222-4333-8444-555555555555");
    call.threadId = uuid("31111111-2222-4333-8444-555555555555");
    call.toPhoneNumber = collectcall::E164::parse("+14155550100").value();
    call.fromPhoneNumber = collectcall::E164::parse("+14155550199").value();
    call.createdAt = at("2026-11-20T15:00:00Z");

    const std::string created =
        write(collectcall::call_created_event(call, at("2026-11-20T15:00:00.250Z")));
    CHECK(created ==
          R"({"type":"call-created","id":"11111111-2222-4333-8444-555555555555",)"
          R"("name":"Outbound call","customerId":"21111111-2222-4333-8444-555555555555",)"
          R"("threadId":"31111111-2222-4333-8444-555555555555","status":"in-progress",)"
          R"("createdAt":"2026-11-20T15:00:00.250Z","callCreated":{)"
          R"("id":"11111111-2222-4333-8444-555555555555",)"
          R"("threadId":"31111111-2222-4333-8444-555555555555","toPhoneNumber":"+14155550100",)"
          R"("fromPhoneNumber":"+14155550199","createdAt":"2026-11-20T15:00:00.000Z"}})");

    collectcall::CallEnding ending;
    ending.status = collectcall::CallStatus::completed;
    ending.endedReason = collectcall::EndedReason::voicemail;
    ending.durationMs = 42500;
    ending.endedAt = at("2026-11-20T15:00:42.500Z");
    collectcall::TranscriptMessage turn;
    turn.role = collectcall::MessageRole::agent;
    turn.message = "Please call us back.";
    turn.startedAt = at("2026-11-20T15:00:01.500Z");
    turn.endedAt = at("2026-11-20T15:00:11.500Z");
    turn.endTime = turn.endedAt;
    turn.secondsFromStart = collectcall::Seconds::from_ms(1500);
    turn.duration = 10000;
    ending.messages.push_back(turn);
    const auto event = collectcall::call_ended_event(call, ending, "https://x.test/r?s=1");
    const std::string ended = write(event);
    CHECK(ended ==
          R"({"type":"call-ended","id":"11111111-2222-4333-8444-555555555555",)"
          R"("name":"Outbound call","customerId":"21111111-2222-4333-8444-555555555555",)"
          R"("threadId":"31111111-2222-4333-8444-555555555555","status":"completed",)"
          R"("createdAt":"2026-11-20T15:00:42.500Z","callEnded":{)"
          R"("id":"11111111-2222-4333-8444-555555555555",)"
          R"("customerId":"21111111-2222-4333-8444-555555555555",)"
          R"("threadId":"31111111-2222-4333-8444-555555555555","toPhoneNumber":"+14155550100",)"
          R"("fromPhoneNumber":"+14155550199","direction":"outbound","endedReason":"voicemail",)"
          R"("durationMs":42500,"endedAt":"2026-11-20T15:00:42.500Z",)"
          R"("createdAt":"2026-11-20T15:00:00.000Z","messages":[{"role":"agent",)"
          R"("message":"Please call us back.","startedAt":"2026-11-20T15:00:01.500Z",)"
          R"("endedAt":"2026-11-20T15:00:11.500Z","endTime":"2026-11-20T15:00:11.500Z",)"
          R"("secondsFromStart":1.5,"duration":10000}],"recordingUrl":"https://x.test/r?s=1",)"
          R"("inputVariables":{},"outputVariables":null}})");
    auto back = read<collectcall::CallWebhookEvent>(ended);
    REQUIRE(back.ok());
    CHECK(back.value() == event);
}

TEST_CASE("Seconds: exact decimals with millisecond precision") {
    const auto text = [](std::int64_t ms) {
        std::string out;
        collectcall::Seconds::from_ms(ms).append_json(out);
        return out;
    };
    CHECK(text(0) == "0");
    CHECK(text(1500) == "1.5");
    CHECK(text(61001) == "61.001");
    CHECK(text(120) == "0.12");
    CHECK(collectcall::Seconds::from_json_number("12.345").value().ms() == 12345);
    CHECK(collectcall::Seconds::from_json_number("7").value().ms() == 7000);
    for (const char* bad : {"-1", "1.2345", "1e3", "1.", ".5", ""}) {
        INFO(bad);
        CHECK_FALSE(collectcall::Seconds::from_json_number(bad).ok());
    }
}

TEST_CASE("WebhookSecretImport: an id and a secret text, both required") {
    auto ok = read<collectcall::WebhookSecretImport>(
        R"({"id":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","secret":"hosted-secret-0123456789"})");
    REQUIRE(ok.ok());
    CHECK(ok.value().secret.view() == "hosted-secret-0123456789");
    auto bad = read<collectcall::WebhookSecretImport>(R"({"secret":"short"})");
    REQUIRE_FALSE(bad.ok());
    CHECK(describe(bad.errors()) == std::vector<std::string>{"/secret length", "/id required"});
    auto whsec = read<collectcall::WebhookSecretImport>(
        R"({"id":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","secret":"whsec_not-base64-at-all"})");
    REQUIRE_FALSE(whsec.ok());
    CHECK(describe(whsec.errors()) == std::vector<std::string>{"/secret format"});
}

TEST_CASE("caller_number: the pool's number in the customer's area code, else the first") {
    const auto e164 = [](std::string_view text) { return collectcall::E164::parse(text).value(); };
    const std::vector<collectcall::E164> pool{e164("+12025550100"), e164("+13125550100"),
                                              e164("+13125550199"), e164("+442071838750")};

    CHECK(collectcall::caller_number(pool, e164("+13125550142")) == e164("+13125550100"));
    CHECK(collectcall::caller_number(pool, e164("+12025550142")) == e164("+12025550100"));
    // No number in that area code, or a customer outside the NANP: the first.
    CHECK(collectcall::caller_number(pool, e164("+14155550100")) == e164("+12025550100"));
    CHECK(collectcall::caller_number(pool, e164("+442071838751")) == e164("+12025550100"));
    // A non-NANP pool number never matches by its digits.
    const std::vector<collectcall::E164> foreign{e164("+447700900123"), e164("+12025550100")};
    CHECK(collectcall::caller_number(foreign, e164("+14475550100")) == e164("+447700900123"));
    CHECK(collectcall::caller_number(foreign, e164("+12025550199")) == e164("+12025550100"));
    // An empty pool has no number: nullopt, not an exception.
    CHECK_FALSE(collectcall::caller_number({}, e164("+12025550142")).has_value());
}
