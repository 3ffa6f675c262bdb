// Calls: the request, the call object, its details and the webhook event.
#include "collectcall/model/call.hpp"

#include <catch2/catch.hpp>

#include <string>
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
    CHECK(full.value().webhook->secretId.view() == "3f2504e0-4f89-41d3-9a0c-0305e82c3301");
    auto back = read<collectcall::CallRequest>(write(full.value()));
    REQUIRE(back.ok());
    CHECK(back.value() == full.value());

    auto bad = read<collectcall::CallRequest>(
        R"({"webhook":{"url":"ftp://x","secretId":"nope"},"extra":true})");
    REQUIRE_FALSE(bad.ok());
    CHECK(describe(bad.errors()) ==
          std::vector<std::string>{"/webhook/url format", "/webhook/secretId format",
                                   "/extra unknown_field", "/agentId required"});
    auto no_secret =
        read<collectcall::CallRequest>(R"({"agentId":"a","webhook":{"url":"http://x.io"}})");
    REQUIRE_FALSE(no_secret.ok());
    CHECK(describe(no_secret.errors()) == std::vector<std::string>{"/webhook/secretId required"});
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

TEST_CASE("CallWebhookEvent: callEnded only on call-ended") {
    collectcall::CallWebhookEvent event;
    event.type = collectcall::CallEventType::call_created;
    event.id = collectcall::Uuid::parse("11111111-2222-4333-8444-555555555555").value();
    event.customerId = event.id;
    event.threadId = event.id;
    event.status = collectcall::CallStatus::in_progress;
    event.createdAt = collectcall::Timestamp::parse("2026-11-20T15:00:00Z").value();
    CHECK(write(event).find("callEnded") == std::string::npos);
    event.type = collectcall::CallEventType::call_ended;
    event.status = collectcall::CallStatus::completed;
    event.callEnded = collectcall::CallEnded{collectcall::EndedReason::customer_ended_call, 61000};
    const std::string json = write(event);
    CHECK(json.find(R"("callEnded":{"endedReason":"customer-ended-call","durationMs":61000})") !=
          std::string::npos);
    auto back = read<collectcall::CallWebhookEvent>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == event);
}
