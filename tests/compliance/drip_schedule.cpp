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
