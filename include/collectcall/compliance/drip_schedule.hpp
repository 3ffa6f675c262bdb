// When a drip campaign's step runs (API.md section 15): at the first instant, at or after its due
// time, at which its compliance passes, the next eligible time (next_eligible.hpp) of the contact
// it makes, seen from the later of its due time and now.
#pragma once

#include <algorithm>
#include <optional>

#include "collectcall/compliance/next_eligible.hpp"
#include "collectcall/model/drip_campaign.hpp"

namespace collectcall::compliance {

// The instant `step` runs, given everything the compliance of its contact reads in `in` (in.now
// the present; the channel is the step's): the first instant >= max(in.now, step.dueAt) at which
// evaluate() passes; nullopt when no time will do (the customer cannot be contacted on that
// channel, and the enrolment cannot go on).
[[nodiscard]] inline std::optional<CallTime> step_run_time(ComplianceInput in,
                                                           const DripStep& step) {
    in.channel = step.channel;
    in.now = std::max(in.now, step.dueAt.time());
    return next_eligible(in);
}

// Sets each pending step's nextEligibleAt (its step_run_time; null when no time will do) and the
// enrolment's nextStepAt from `in`; with no step pending, the enrolment is completed. False when
// its next step can never run (the caller cancels it: the customer is uncontactable).
[[nodiscard]] inline bool schedule_steps(DripEnrolment& enrolment, const ComplianceInput& in) {
    for (DripStep& step : enrolment.steps) {
        if (step.status != DripStepStatus::pending) continue;
        if (const auto at = step_run_time(in, step)) {
            step.nextEligibleAt = Timestamp::from_time(*at);
        } else {
            step.nextEligibleAt.set_null();
        }
    }
    const DripStep* next = next_pending_step(enrolment);
    if (next == nullptr) {
        enrolment.status = DripCampaignStatus::completed;
        enrolment.nextStepAt.reset();
        return true;
    }
    if (!next->nextEligibleAt.has_value()) return false;
    enrolment.nextStepAt = *next->nextEligibleAt;
    return true;
}

}  // namespace collectcall::compliance
