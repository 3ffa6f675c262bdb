// The record of one compliance decision (model/compliance.hpp's ComplianceDecision): what the
// engine saw and concluded, kept as evidence of why a contact was or was not made, as long as
// retention.hpp says (12 CFR 1006.100: three years after the customer's last collection
// activity).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>

#include "collectcall/compliance/engine.hpp"
#include "collectcall/compliance/next_eligible.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/types/timestamp.hpp"

namespace collectcall::compliance {

// The record of `result`, the evaluation of `in`, with its next eligible time.
[[nodiscard]] inline ComplianceDecision make_decision(const ComplianceInput& in,
                                                      ComplianceOperation operation,
                                                      ComplianceResult result,
                                                      std::optional<CallTime> next_eligible_at) {
    ComplianceDecision out;
    out.at = Timestamp::from_time(in.now);
    out.operation = operation;
    out.policy = in.policy;
    out.channel = in.channel;
    for (Zone zone : candidate_zones(in)) {
        out.candidateZones.emplace_back(zone_name(zone));
        const date::time_zone* tz = detail::locate(zone);
        if (tz == nullptr) continue;
        out.localTimes.push_back(
            {std::string(zone_name(zone)), detail::local_time_text(tz->to_local(in.now))});
        const date::local_days today = detail::local_date(*tz, in.now);
        const CallTime from = detail::day_start(*tz, today);
        const CallTime to = detail::day_start(*tz, today + date::days{1});
        const auto today_count =
            static_cast<unsigned>(std::count_if(in.placed_calls.begin(), in.placed_calls.end(),
                                                [&](CallTime t) { return t >= from && t < to; }));
        ComplianceCounts& counts = out.counts;
        counts.callsToday = std::max(counts.callsToday, today_count);
        counts.callsInSevenDays =
            std::max(counts.callsInSevenDays,
                     detail::busiest_run(*tz, in.now, regulation_f_period, in.placed_calls));
        counts.communicationsInSevenDays = std::max(
            counts.communicationsInSevenDays,
            detail::busiest_run(*tz, in.now, regulation_f_period, in.placed_calls, in.sent_texts));
    }
    std::optional<CallTime> last;
    for (CallTime conversation : in.conversations) {
        if (conversation <= in.now && (!last || conversation > *last)) last = conversation;
    }
    if (last) out.counts.lastConversationAt = Timestamp::from_time(*last);
    if (!result.passed) {
        if (const OngoingCall* call = blocking_call(in)) out.blockedByCallId = call->id;
    }
    out.compliance = std::move(result);
    if (next_eligible_at) out.nextEligibleAt = Timestamp::from_time(*next_eligible_at);
    return out;
}

// Evaluates `in`, finds its next eligible time (`in.now` itself when the contact is allowed),
// and records both.
[[nodiscard]] inline ComplianceDecision decide(const ComplianceInput& in,
                                               ComplianceOperation operation) {
    ComplianceResult result = evaluate(in);
    const std::optional<CallTime> next =
        result.passed ? std::optional<CallTime>(in.now) : next_eligible(in);
    return make_decision(in, operation, std::move(result), next);
}

}  // namespace collectcall::compliance
