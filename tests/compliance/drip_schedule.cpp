// When a drip step runs (compliance/drip_schedule.hpp): its first compliant instant at or after
// its due time.
#include "collectcall/compliance/drip_schedule.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "support.hpp"

using namespace collectcall;
using namespace collectcall::compliance;
using compliance_test::local;

TEST_CASE("drip schedule: each step at its first compliant instant at or after its due time") {
    constexpr std::string_view new_york = "America/New_York";
    const DripCampaignDefinition campaign = parse_drip_campaign("welcome").campaign.value();
    const CallTime enrolled = local(new_york, 2026, 1, 12, 22, 0);  // Monday 22:00
    DripEnrolment enrolment =
        enrol(campaign, Uuid::parse("11111111-2222-4333-8444-555555555555").value(),
              Uuid::parse("21111111-2222-4333-8444-555555555555").value(),
              Timestamp::from_time(enrolled));
    std::vector<CallTime> calls;
    ComplianceInput in;
    in.active = true;
    in.state = "NY";
    in.zip5 = "10001";
    in.now = enrolled;

    struct Row {
        CompliancePolicy policy;
        std::size_t step;
        CallTime now;
        CallTime expected;
    };
    const std::vector<Row> rows{
        // call@0 due Monday 22:00: Tuesday 08:00 (both policies' windows open at 08:00).
        {CompliancePolicy::hosted, 0, enrolled, local(new_york, 2026, 1, 13, 8, 0)},
        {CompliancePolicy::regulation_f, 0, enrolled, local(new_york, 2026, 1, 13, 8, 0)},
        // sms@2 due Wednesday 22:00: Thursday 08:00.
        {CompliancePolicy::hosted, 1, enrolled, local(new_york, 2026, 1, 15, 8, 0)},
        // call@4 due Friday 22:00 but asked for on Saturday 10:30: at once.
        {CompliancePolicy::hosted, 2, local(new_york, 2026, 1, 17, 10, 30),
         local(new_york, 2026, 1, 17, 10, 30)},
    };
    for (const Row& row : rows) {
        in.policy = row.policy;
        in.now = row.now;
        CHECK(step_run_time(in, enrolment.steps[row.step]) == row.expected);
    }

    // Due at 12:00 local, asked before: the due time.
    DripStep noon = enrolment.steps[0];
    noon.dueAt = Timestamp::from_time(local(new_york, 2026, 1, 13, 12, 0));
    in.policy = CompliancePolicy::hosted;
    in.now = enrolled;
    CHECK(step_run_time(in, noon) == local(new_york, 2026, 1, 13, 12, 0));

    // A conversation on Tuesday under regulation-f: the call step waits for the next Tuesday,
    // the SMS step does not (call counts do not apply to text messages).
    const std::vector<CallTime> conversation{local(new_york, 2026, 1, 13, 9, 0)};
    in.policy = CompliancePolicy::regulation_f;
    in.placed_calls = conversation;
    in.conversations = conversation;
    in.now = local(new_york, 2026, 1, 13, 9, 5);
    DripStep call_step = enrolment.steps[2];  // due Friday 22:00
    CHECK(step_run_time(in, call_step) == local(new_york, 2026, 1, 20, 8, 0));
    CHECK(step_run_time(in, enrolment.steps[1]) == local(new_york, 2026, 1, 15, 8, 0));

    // Cease and desist: no time will do, for either channel.
    in.cease_and_desist = true;
    CHECK_FALSE(step_run_time(in, call_step));
    CHECK_FALSE(step_run_time(in, enrolment.steps[1]));
}

namespace {

constexpr std::string_view new_york = "America/New_York";

DripEnrolment enrolled_in(std::string_view campaign, CallTime at) {
    return enrol(parse_drip_campaign(campaign).campaign.value(),
                 Uuid::parse("11111111-2222-4333-8444-555555555555").value(),
                 Uuid::parse("21111111-2222-4333-8444-555555555555").value(),
                 Timestamp::from_time(at));
}

std::vector<std::optional<CallTime>> shown(const DripEnrolment& enrolment) {
    std::vector<std::optional<CallTime>> out;
    for (const DripStep& step : enrolment.steps) {
        if (step.nextEligibleAt.has_value()) {
            out.emplace_back(step.nextEligibleAt->time());
        } else {
            out.emplace_back(std::nullopt);
        }
    }
    return out;
}

}  // namespace

TEST_CASE("drip schedule: after a conversation, the steps keep their spacing from the first") {
    // A conversation on Monday morning, then an enrolment in call@0,sms@2,call@4 under
    // regulation-f: the first call waits out the lockout (the day of the conversation and the six
    // after it), and the SMS and the second call keep their two and four days from it, instead of
    // the SMS on Wednesday and the three steps within minutes the next Monday.
    const std::vector<CallTime> conversation{local(new_york, 2026, 1, 12, 10, 0)};
    const CallTime enrolled = local(new_york, 2026, 1, 12, 11, 0);
    ComplianceInput in;
    in.active = true;
    in.state = "NY";
    in.zip5 = "10001";
    in.policy = CompliancePolicy::regulation_f;
    in.placed_calls = conversation;
    in.conversations = conversation;
    in.now = enrolled;
    DripEnrolment enrolment = enrolled_in("default", enrolled);
    REQUIRE(schedule_steps(enrolment, in));
    const std::vector<std::optional<CallTime>> expected{local(new_york, 2026, 1, 19, 8, 0),
                                                        local(new_york, 2026, 1, 21, 8, 0),
                                                        local(new_york, 2026, 1, 23, 8, 0)};
    CHECK(shown(enrolment) == expected);
    CHECK(enrolment.nextStepAt->time() == expected[0]);
    // dueAt keeps the campaign's days.
    CHECK(enrolment.steps[1].dueAt.time() == enrolled + std::chrono::days{2});

    // Each shown instant is where the step's own compliance first passes, once the steps before
    // it ran at theirs: the first call's evaluation at 07:59:59 fails, at 08:00 passes.
    ComplianceInput first = in;
    first.now = *expected[0] - std::chrono::seconds{1};
    CHECK_FALSE(evaluate(first).passed);
    first.now = *expected[0];
    CHECK(evaluate(first).passed);

    // The first call ran late, at 09:30 (it waited for another reason): the later steps move by
    // as much.
    DripStep& call = enrolment.steps[0];
    call.status = DripStepStatus::completed;
    call.ranAt = Timestamp::from_time(local(new_york, 2026, 1, 19, 9, 30));
    call.nextEligibleAt.reset();
    std::vector<CallTime> placed = conversation;
    placed.push_back(call.ranAt->time());
    in.placed_calls = placed;
    in.now = call.ranAt->time();
    REQUIRE(schedule_steps(enrolment, in));
    CHECK(shown(enrolment)[1] == local(new_york, 2026, 1, 21, 9, 30));
    CHECK(shown(enrolment)[2] == local(new_york, 2026, 1, 23, 9, 30));
    CHECK(enrolment.nextStepAt->time() == local(new_york, 2026, 1, 21, 9, 30));

    // Without the conversation (hosted, no lockout), each step on its campaign day.
    ComplianceInput hosted = in;
    hosted.policy = CompliancePolicy::hosted;
    hosted.placed_calls = {};
    hosted.conversations = {};
    hosted.now = enrolled;
    DripEnrolment plain = enrolled_in("default", enrolled);
    REQUIRE(schedule_steps(plain, hosted));
    CHECK(shown(plain) == std::vector<std::optional<CallTime>>{enrolled,
                                                               enrolled + std::chrono::days{2},
                                                               enrolled + std::chrono::days{4}});
}

TEST_CASE("drip schedule: an earlier step's contact counts toward the later steps' limits") {
    ComplianceInput in;
    in.active = true;
    in.now = local(new_york, 2026, 1, 12, 7, 0);  // Monday 07:00

    // Massachusetts (regulation-f): two telephone communications, calls and texts, in each seven
    // days. The call on Monday and the SMS on Tuesday leave no room for a call on Wednesday:
    // the first day whose seven-day runs hold one of them at most is the next Monday.
    in.state = "MA";
    in.zip5 = "02108";
    in.policy = CompliancePolicy::regulation_f;
    DripEnrolment ma = enrolled_in("ma=call@0,sms@1,call@2", in.now);
    REQUIRE(schedule_steps(ma, in));
    CHECK(shown(ma) == std::vector<std::optional<CallTime>>{local(new_york, 2026, 1, 12, 8, 0),
                                                            local(new_york, 2026, 1, 13, 8, 0),
                                                            local(new_york, 2026, 1, 19, 8, 0)});

    // Four calls a day (hosted): five call steps on the same day, the fifth the next morning.
    in.state = "NY";
    in.zip5 = "10001";
    in.policy = CompliancePolicy::hosted;
    in.now = local(new_york, 2026, 1, 12, 12, 0);
    DripEnrolment daily = enrolled_in("five=call@0,call@0,call@0,call@0,call@0", in.now);
    REQUIRE(schedule_steps(daily, in));
    const std::vector<std::optional<CallTime>> expected{in.now, in.now, in.now, in.now,
                                                        local(new_york, 2026, 1, 13, 8, 0)};
    CHECK(shown(daily) == expected);
}

TEST_CASE("drip schedule: a step that can never run, and every step after it, has no time") {
    ComplianceInput in;
    in.active = true;
    in.state = "NY";
    in.zip5 = "10001";
    in.policy = CompliancePolicy::regulation_f;
    in.now = local(new_york, 2026, 1, 12, 12, 0);
    // Asked not to be called: the SMS can go, the call after it cannot, nor the SMS after that.
    in.restricted_media = RestrictedMedia{ContactChannel::call};
    DripEnrolment enrolment = enrolled_in("mixed=sms@0,call@1,sms@2", in.now);
    REQUIRE(schedule_steps(enrolment, in));
    CHECK(enrolment.steps[0].nextEligibleAt->time() == in.now);
    CHECK(enrolment.steps[1].nextEligibleAt.is_null());
    CHECK(enrolment.steps[2].nextEligibleAt.is_null());
    // Once the SMS ran, the next step can never run: the caller cancels the enrolment.
    enrolment.steps[0].status = DripStepStatus::completed;
    enrolment.steps[0].ranAt = Timestamp::from_time(in.now);
    CHECK_FALSE(schedule_steps(enrolment, in));
    // Every step ran: completed.
    for (DripStep& step : enrolment.steps)
        step.status = DripStepStatus::completed;
    CHECK(schedule_steps(enrolment, in));
    CHECK(enrolment.status == DripCampaignStatus::completed);
    CHECK_FALSE(enrolment.nextStepAt);
}

TEST_CASE("drip schedule: a call in progress is taken to end at once, not to cancel the steps") {
    ComplianceInput in;
    in.active = true;
    in.state = "NY";
    in.zip5 = "10001";
    in.policy = CompliancePolicy::hosted;
    in.operation = ComplianceOperation::drip_step;
    in.now = local(new_york, 2026, 1, 12, 12, 0);
    const std::vector<OngoingCall> ongoing{
        {Uuid::parse("31111111-2222-4333-8444-555555555555").value(),
         in.now - std::chrono::minutes{2}}};
    in.calls_in_progress = ongoing;
    // A drip call step is blocked now, under every policy, with no time of its own...
    CHECK_FALSE(evaluate(in).passed);
    CHECK_FALSE(next_eligible(in));
    // ...but the sequence is not: its steps show when they run once the call has ended.
    DripEnrolment enrolment = enrolled_in("twice=call@0,call@0", in.now);
    REQUIRE(schedule_steps(enrolment, in));
    CHECK(shown(enrolment) == std::vector<std::optional<CallTime>>{in.now, in.now});
    // The runner tries the blocked step again a short while later: the sequence from then.
    ComplianceInput retry = in;
    retry.now = in.now + call_in_progress_retry;
    REQUIRE(schedule_steps(enrolment, retry));
    CHECK(shown(enrolment) == std::vector<std::optional<CallTime>>{retry.now, retry.now});
    CHECK(enrolment.nextStepAt->time() == retry.now);
}
