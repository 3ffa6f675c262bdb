// Drip campaigns (model/drip_campaign.hpp): definitions as `init --campaign` takes them, the
// enrolment and its cancellation, the request bodies, and the webhook bodies.
#include "collectcall/model/drip_campaign.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"

using namespace collectcall;

namespace {

Uuid uuid(const char* text) {
    return Uuid::parse(text).value();
}
Timestamp at(const char* text) {
    return Timestamp::parse(text).value();
}

std::vector<std::string> describe(const ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

}  // namespace

TEST_CASE("drip definitions: NAME=STEPS, the default steps, every mistake named") {
    struct Good {
        std::string_view text;
        std::string_view name;
        std::vector<DripStepDefinition> steps;
    };
    using enum ContactChannel;
    const std::vector<Good> good{
        {"welcome", "welcome", {{call, 0}, {sms, 2}, {call, 4}}},
        {"welcome=call@0,sms@2,call@4", "welcome", {{call, 0}, {sms, 2}, {call, 4}}},
        {"late stage=sms@0", "late stage", {{sms, 0}}},
        {"same day=call@0,sms@0,call@10,call@365",
         "same day",
         {{call, 0}, {sms, 0}, {call, 10}, {call, 365}}},
        {"a=b=call@1", "a", {}},  // the name ends at the first '='; the rest must be steps
    };
    for (const Good& g : good) {
        INFO(g.text);
        const DripDefinitionParse parsed = parse_drip_campaign(g.text);
        if (g.steps.empty()) {
            CHECK_FALSE(parsed.campaign);
            CHECK(parsed.error ==
                  "campaign \"a\": step 1 \"b=call@1\": the channel must be call or sms");
            continue;
        }
        REQUIRE(parsed.campaign);
        CHECK(parsed.error.empty());
        CHECK(parsed.campaign->name == g.name);
        CHECK(parsed.campaign->steps == g.steps);
        CHECK(parse_drip_campaign(to_string(*parsed.campaign)).campaign == parsed.campaign);
    }

    struct Bad {
        std::string_view text;
        std::string_view error;
    };
    const std::vector<Bad> bad{
        {"", "the campaign name must be 1 to 100 characters (NAME=STEPS)"},
        {"=call@0", "the campaign name must be 1 to 100 characters (NAME=STEPS)"},
        {" x=call@0", "the campaign name \" x\" must not begin or end with a space"},
        {"x\t=call@0", "the campaign name \"x\t\" must be printable ASCII characters"},
        {"x=", "campaign \"x\": the campaign has no steps (expected e.g. call@0,sms@2,call@4)"},
        {"x=call", "campaign \"x\": step 1 \"call\": expected call@DAYS or sms@DAYS"},
        {"x=call@0,", "campaign \"x\": step 2 \"\": expected call@DAYS or sms@DAYS"},
        {"x=email@1", "campaign \"x\": step 1 \"email@1\": the channel must be call or sms"},
        {"x=CALL@1", "campaign \"x\": step 1 \"CALL@1\": the channel must be call or sms"},
        {"x=call@-1",
         "campaign \"x\": step 1 \"call@-1\": the days after enrolment must be a whole number "
         "from 0 to 365"},
        {"x=call@01",
         "campaign \"x\": step 1 \"call@01\": the days after enrolment must be a whole number "
         "from 0 to 365"},
        {"x=call@366",
         "campaign \"x\": step 1 \"call@366\": the days after enrolment must be a whole number "
         "from 0 to 365"},
        {"x=call@99999999999999999999",
         "campaign \"x\": step 1 \"call@99999999999999999999\": the days after enrolment must be "
         "a whole number from 0 to 365"},
        {"x=call@1.5",
         "campaign \"x\": step 1 \"call@1.5\": the days after enrolment must be a whole number "
         "from 0 to 365"},
        {"x=call@ 1",
         "campaign \"x\": step 1 \"call@ 1\": the days after enrolment must be a whole number "
         "from 0 to 365"},
        {"x=call@4,sms@2",
         "campaign \"x\": step 2 \"sms@2\": steps are listed in the order they run (day 2 comes "
         "before day 4)"},
    };
    for (const Bad& b : bad) {
        INFO(b.text);
        const DripDefinitionParse parsed = parse_drip_campaign(b.text);
        CHECK_FALSE(parsed.campaign);
        CHECK(parsed.error == b.error);
    }
    CHECK(parse_drip_campaign(std::string(100, 'n')).campaign);
    CHECK(parse_drip_campaign(std::string(101, 'n')).error ==
          "the campaign name must be 1 to 100 characters (NAME=STEPS)");

    std::string fifty = "x=";
    for (int i = 0; i < 50; ++i)
        fifty += i == 0 ? "call@1" : ",sms@1";
    CHECK(parse_drip_campaign(fifty).campaign->steps.size() == 50);
    CHECK(parse_drip_campaign(fifty + ",call@2").error ==
          "campaign \"x\": a campaign has at most 50 steps");
}

TEST_CASE("drip enrolment: each step due its days x 24 hours after enrolment; cancel") {
    const DripCampaignDefinition campaign = parse_drip_campaign("welcome").campaign.value();
    // 2026-03-07T03:00Z is 22:00 in New York the day before the spring-forward change: the steps
    // are due 48 and 96 hours later, whatever the local clocks do.
    DripEnrolment enrolment =
        enrol(campaign, uuid("11111111-2222-4333-8444-555555555555"),
              uuid("21111111-2222-4333-8444-555555555555"), at("2026-03-07T03:00:00Z"));
    CHECK(enrolment.status == DripCampaignStatus::in_progress);
    REQUIRE(enrolment.steps.size() == 3);
    CHECK(enrolment.steps[0].dueAt.view() == "2026-03-07T03:00:00.000Z");
    CHECK(enrolment.steps[1].dueAt.view() == "2026-03-09T03:00:00.000Z");
    CHECK(enrolment.steps[1].channel == ContactChannel::sms);
    CHECK(enrolment.steps[2].dueAt.view() == "2026-03-11T03:00:00.000Z");
    CHECK(enrolment.nextStepAt == enrolment.steps[0].dueAt);
    CHECK(next_pending_step(enrolment) == &enrolment.steps[0]);

    const std::string json = write(enrolment);
    CHECK(json == R"({"id":"11111111-2222-4333-8444-555555555555","name":"welcome",)"
                  R"("customerId":"21111111-2222-4333-8444-555555555555","status":"in-progress",)"
                  R"("createdAt":"2026-03-07T03:00:00.000Z","steps":[)"
                  R"({"channel":"call","dueAt":"2026-03-07T03:00:00.000Z","status":"pending"},)"
                  R"({"channel":"sms","dueAt":"2026-03-09T03:00:00.000Z","status":"pending"},)"
                  R"({"channel":"call","dueAt":"2026-03-11T03:00:00.000Z","status":"pending"}],)"
                  R"("nextStepAt":"2026-03-07T03:00:00.000Z"})");
    auto back = read<DripEnrolment>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == enrolment);

    enrolment.steps[0].status = DripStepStatus::completed;
    enrolment.steps[0].ranAt = at("2026-03-07T13:00:00Z");
    enrolment.steps[1].nextEligibleAt = at("2026-03-09T13:00:00Z");
    CHECK(next_pending_step(enrolment) == &enrolment.steps[1]);
    cancel(enrolment, DripEndReason::customer_converted);
    CHECK(enrolment.status == DripCampaignStatus::canceled);
    CHECK(enrolment.steps[0].status == DripStepStatus::completed);
    CHECK(enrolment.steps[1].status == DripStepStatus::canceled);
    CHECK(enrolment.steps[1].nextEligibleAt.absent());
    CHECK(enrolment.steps[2].status == DripStepStatus::canceled);
    CHECK_FALSE(enrolment.nextStepAt);
    CHECK(next_pending_step(enrolment) == nullptr);
    const std::string canceled = write(enrolment);
    CHECK(canceled.find(R"("nextStepAt":null,"canceledReason":"customer-converted"})") !=
          std::string::npos);
    CHECK(read<DripEnrolment>(canceled).value() == enrolment);
}

TEST_CASE("drip requests: enrol and cancel bodies, every error with its path") {
    auto enrol_request = read<DripEnrolRequest>(
        R"({"campaignName":"welcome","webhook":{"url":"https://hooks.example.com/drip"}})");
    REQUIRE(enrol_request.ok());
    CHECK(enrol_request.value().campaignName.view() == "welcome");
    CHECK(enrol_request.value().webhook->url.view() == "https://hooks.example.com/drip");

    CHECK(describe(
              read<DripEnrolRequest>(R"({"campaign":"x","webhook":{"url":"ftp://x"}})").errors()) ==
          std::vector<std::string>{"/campaign unknown_field", "/webhook/url format",
                                   "/campaignName required"});
    CHECK(describe(read<DripEnrolRequest>(R"({"campaignName":" "})").errors()) ==
          std::vector<std::string>{"/campaignName length"});

    CHECK(read<DripCancelRequest>(R"({"reason":"customer-engaged"})").value().reason ==
          DripCancelReason::customer_engaged);
    CHECK_FALSE(read<DripCancelRequest>("{}").value().reason);
    CHECK(describe(read<DripCancelRequest>(R"({"reason":"customer-uncontactable"})").errors()) ==
          std::vector<std::string>{"/reason format"});
}

TEST_CASE("drip webhooks: the hosted DripCampaignWebhook bodies") {
    const DripCampaignDefinition campaign = parse_drip_campaign("welcome").campaign.value();
    const DripEnrolment enrolment =
        enrol(campaign, uuid("11111111-2222-4333-8444-555555555555"),
              uuid("21111111-2222-4333-8444-555555555555"), at("2026-11-20T15:00:00Z"));
    CallFacts call;
    call.id = uuid("41111111-2222-4333-8444-555555555555");
    call.customerId = enrolment.customerId;
    call.threadId = uuid("31111111-2222-4333-8444-555555555555");
    call.toPhoneNumber = E164::parse("+14155550100").value();
    call.fromPhoneNumber = E164::parse("+14155550199").value();
    call.createdAt = at("2026-11-20T16:00:00Z");

    const DripWebhookEvent created = drip_call_created_event(enrolment, call);
    CHECK(write(created) ==
          R"({"type":"drip-campaign.call-created","id":"11111111-2222-4333-8444-555555555555",)"
          R"("name":"welcome","customerId":"21111111-2222-4333-8444-555555555555",)"
          R"("threadId":"31111111-2222-4333-8444-555555555555","status":"in-progress",)"
          R"("createdAt":"2026-11-20T15:00:00.000Z","callCreated":{)"
          R"("id":"41111111-2222-4333-8444-555555555555",)"
          R"("threadId":"31111111-2222-4333-8444-555555555555","toPhoneNumber":"+14155550100",)"
          R"("fromPhoneNumber":"+14155550199","createdAt":"2026-11-20T16:00:00.000Z"}})");

    CallEnding ending;
    ending.endedReason = EndedReason::customer_did_not_answer;
    ending.durationMs = 30000;
    ending.endedAt = at("2026-11-20T16:00:30Z");
    const DripWebhookEvent ended = drip_call_ended_event(enrolment, call, ending, "https://r/x");
    const std::string ended_json = write(ended);
    CHECK(ended_json.rfind(R"({"type":"drip-campaign.call-ended",)", 0) == 0);
    CHECK(ended_json.find(R"("callEnded":{"id":"41111111-2222-4333-8444-555555555555",)"
                          R"("customerId":"21111111-2222-4333-8444-555555555555")") !=
          std::string::npos);
    CHECK(ended_json.find(R"("endedReason":"customer-did-not-answer","durationMs":30000,)") !=
          std::string::npos);
    CHECK(ended_json.find("callCreated") == std::string::npos);

    DripSmsDetails sms{uuid("51111111-2222-4333-8444-555555555555"), call.toPhoneNumber,
                       call.fromPhoneNumber, "Hi Ann, please call us back.",
                       at("2026-11-22T15:00:00Z")};
    const DripWebhookEvent text = drip_sms_event(enrolment, call.threadId, sms);
    const std::string text_json = write(text);
    CHECK(text_json.find(R"("type":"drip-campaign.sms")") != std::string::npos);
    CHECK(text_json.find(
              R"("direction":"outbound","sms":{"id":"51111111-2222-4333-8444-555555555555",)"
              R"("toPhoneNumber":"+14155550100","fromPhoneNumber":"+14155550199",)"
              R"("message":"Hi Ann, please call us back.",)"
              R"("createdAt":"2026-11-22T15:00:00.000Z"}})") != std::string::npos);

    for (const DripWebhookEvent& event : {created, ended, text}) {
        auto back = read<DripWebhookEvent>(write(event));
        REQUIRE(back.ok());
        CHECK(back.value() == event);
    }
    CHECK(describe(read<DripWebhookEvent>(R"({"type":"call-created"})").errors()).front() ==
          "/type format");
}
