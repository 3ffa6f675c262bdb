// When a drip campaign's steps run (API.md sections 15 and 16): in order, each keeping its
// spacing from the one before it, each at its first compliant instant.
//
// Step k is due at max(enrolledAt + D_k x 24h, ranAt(k-1) + (D_k - D_(k-1)) x 24h): a step that
// ran late (it waited for the conversation lockout, the window, the week's count) moves the later
// ones by as much, so steps never run back to back. It runs at the next eligible time
// (next_eligible.hpp) of its contact at or after that due time. Its `dueAt` keeps the campaign's
// day (enrolledAt + D_k x 24h, section 15); D_k - D_(k-1) is the difference of two steps' dueAt.
//
// What an enrolment shows is computed for the sequence, "if nothing else happens": each pending
// step after the one before it, whose run is taken to be at its own computed instant, and whose
// contact is added to the history the later steps are evaluated with (a call step's call counts
// toward the calls of each day, Regulation F's seven in seven days and a state's limit; an SMS
// step's text toward the communications a state counts, Massachusetts'). What the projection
// cannot know it takes in the way that keeps the shown time reachable:
//  - a projected call is not a telephone conversation (its outcome is not known before it ends;
//    a conversation starts the lockout, and the steps after it move when it happens);
//  - a projected call ends at once (its length is not known; a call step waits for a call in
//    progress to end, and is retried, see below);
//  - the customer's standing does not change (a stop request, cease-and-desist or attorney
//    representation makes a later step, and the enrolment, end when it comes due).
// The schedule is recomputed at enrolment and after every run of a step (passed or not), so what
// happened since replaces what was projected.
//
// A call step that comes due while another call to the customer is in progress is not run (API.md
// section 16: the call may become a telephone conversation, after which the lockout applies);
// it is tried again `call_in_progress_retry` later, and the enrolment goes on, whatever the
// policy. Such a step has no next eligible time of its own (it depends on how that call ends), so
// its nextEligibleAt shows the instant it is tried again.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "collectcall/compliance/next_eligible.hpp"
#include "collectcall/model/drip_campaign.hpp"

namespace collectcall::compliance {

// How long a call step blocked by a call in progress waits before it is tried again: a
// telephone call lasts minutes, and a minute's delay keeps the record of attempts short.
inline constexpr std::chrono::minutes call_in_progress_retry{1};

// The instant `step` runs, given everything the compliance of its contact reads in `in` (in.now
// the present; the channel is the step's), seen as a step on its own: the first instant >=
// max(in.now, step.dueAt) at which evaluate() passes; nullopt when no time will do (the customer
// cannot be contacted on that channel, and the enrolment cannot go on).
[[nodiscard]] inline std::optional<CallTime> step_run_time(ComplianceInput in,
                                                           const DripStep& step) {
    in.channel = step.channel;
    in.now = std::max(in.now, step.dueAt.time());
    return next_eligible(in);
}

// The due time of a step in its sequence (see above): its campaign day, or the run of the step
// before it (`previous`, which ran or will run at `previous_run`) plus their spacing, whichever
// is later.
[[nodiscard]] inline CallTime sequence_due(const DripStep& step, const DripStep* previous,
                                           std::optional<CallTime> previous_run) {
    const CallTime day = step.dueAt.time();
    if (previous == nullptr || !previous_run) return day;
    return std::max(day, *previous_run + (day - previous->dueAt.time()));
}

// Sets each pending step's nextEligibleAt as the sequence runs it (see above; null for a step
// that can never run, and for every step after it) and the enrolment's nextStepAt; with no step
// pending, the enrolment is completed. `in` is the customer as the next step's compliance sees
// it, with in.now the present and its history including every contact made so far (a step that
// just ran: its contact too). False when the next step can never run (the caller cancels the
// enrolment: the customer is uncontactable).
[[nodiscard]] inline bool schedule_steps(DripEnrolment& enrolment, const ComplianceInput& in) {
    std::vector<CallTime> placed(in.placed_calls.begin(), in.placed_calls.end());
    std::vector<CallTime> texts(in.sent_texts.begin(), in.sent_texts.end());
    const DripStep* previous = nullptr;
    std::optional<CallTime> previous_run;
    bool reachable = true;
    for (DripStep& step : enrolment.steps) {
        if (step.status == DripStepStatus::canceled) continue;
        if (step.status == DripStepStatus::completed) {
            previous = &step;
            previous_run =
                step.ranAt.has_value() ? std::optional(step.ranAt->time()) : std::nullopt;
            continue;
        }
        if (!reachable) {
            step.nextEligibleAt.set_null();
            continue;
        }
        ComplianceInput at = in;
        at.placed_calls = placed;
        at.sent_texts = texts;
        // A call in progress is taken to end at once (see above): the runner waits for it.
        at.calls_in_progress = {};
        at.channel = step.channel;
        at.now = std::max(in.now, sequence_due(step, previous, previous_run));
        const std::optional<CallTime> run = next_eligible(at);
        if (!run) {
            step.nextEligibleAt.set_null();
            reachable = false;
            continue;
        }
        step.nextEligibleAt = Timestamp::from_time(*run);
        (step.channel == ContactChannel::call ? placed : texts).push_back(*run);
        previous = &step;
        previous_run = run;
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
