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

}  // namespace collectcall::compliance
