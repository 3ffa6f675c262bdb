// The next eligible time (API.md section 14): the earliest instant, at or after `now`, at which
// every check of the input's policy would pass if nothing else happened — no further call,
// conversation or text message, no change to the customer.
//
// How it is found. Every check is a function of the instant whose verdict can change only at a
// few instants, its boundaries: where some candidate zone's local clock reaches a time of day
// the checks compare against (local midnight, for the calendar day and the weekday; the
// account's window; 08:00 and 21:00; each designated period's ends), where a zone's UTC offset
// changes (a daylight saving time transition), and where a conversation's instant passes. A
// local time of day is reached at most at two instants between offset changes (once, or twice
// where the clock falls back), so each is resolved both ways (date::choose::earliest and
// ::latest). Between two consecutive boundaries every check's verdict is constant, and a
// verdict takes its new value at the boundary itself (windows are half-open: start inside, end
// outside). So evaluating at `now` and at each boundary, in order, finds the first instant that
// passes, exactly, without stepping through time.
//
// The search is bounded. Every count looks back at most the longest period of the rule table
// (longest_rule_period: Regulation F's seven local calendar days, or a state rule's longer
// one), so from one day after that period has passed since the latest contact in the history no
// count or lockout blocks; what is left (the windows, the weekday of a designated period)
// repeats every week. The search runs search_horizon(in) past the later of `now` and the
// latest contact (a contact further ahead than that after `now` counts as that far): the
// longest period and its day of slack, and a week more and a day for the weekly pattern (16
// days with the built-in rules, `next_eligible_horizon`). So it evaluates at most a few
// thousand instants. Nothing found within it means no instant will do: the candidate
// zones' windows share no instant (zones far apart), or designated periods cover the rest of
// the week. (Zones that share no instant now may share one after a change of daylight saving
// time months away; such a customer is reported as never eligible, the safe answer.)
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <vector>

#include "collectcall/compliance/engine.hpp"

namespace collectcall::compliance {

// How far past the latest contact the search looks for the rules of `rules` (see above).
[[nodiscard]] constexpr std::chrono::days search_horizon(StateRules rules) noexcept {
    return std::chrono::days{longest_rule_period(rules).count()} + std::chrono::days{1} +
           std::chrono::days{7} + std::chrono::days{1};
}

// The horizon of the built-in rules: 16 days.
inline constexpr std::chrono::days next_eligible_horizon = search_horizon(state_call_limits);

// Whether a check fails that no passage of time changes: the customer is inactive, asked for
// cease and desist, asked the collector not to use the contact's medium (every policy), is
// represented by an attorney (under regulation-f), a call is in progress that the contact must
// wait for (one_call_at_a_time: when it ends depends on how the call goes, which no clock
// tells), or their local time cannot be established (no zone for the address, a zone missing
// from the database); or the account's window or daily limit allow nothing.
[[nodiscard]] inline bool permanently_ineligible(const ComplianceInput& in) {
    if (!in.active || in.cease_and_desist) return true;
    if (in.restricted_media.contains(in.channel)) return true;
    if (blocking_call(in) != nullptr) return true;
    const bool call = in.channel == ContactChannel::call;
    const bool email = in.channel == ContactChannel::email;
    const bool regulation_f = in.policy == CompliancePolicy::regulation_f;
    if (!email && !detail::valid_window(in.window)) return true;
    if (call && in.max_calls_per_day == 0) return true;
    if (regulation_f && in.attorney_represented) return true;
    // Under hosted an e-mail reads no clock.
    if (email && !regulation_f) return false;
    return !detail::all_located(resolve_time_zones(in.state, in.zip5)) ||
           !detail::all_located(candidate_zones(in));
}

namespace detail {

// The boundaries of one input's search, from what is derived once for it: the times of day the
// checks compare against (sorted, each once) and the candidate zones.
class Boundaries {
  public:
    explicit Boundaries(const ComplianceInput& in) : in_(in), zones_(candidate_zones(in)) {
        using std::chrono::minutes;
        clock_ = {minutes{0}, in.window.start, in.window.end};
        if (in.policy == CompliancePolicy::regulation_f) {
            clock_.push_back(convenient_start);
            clock_.push_back(convenient_end);
            for (const InconvenientTime& period : in.inconvenient_times) {
                clock_.push_back(period.from.minutes());
                clock_.push_back(period.to.minutes());
            }
        }
        std::sort(clock_.begin(), clock_.end());
        clock_.erase(std::unique(clock_.begin(), clock_.end()), clock_.end());
    }

    // Every boundary in (from, to], sorted, each once.
    [[nodiscard]] std::vector<CallTime> between(CallTime from, CallTime to) const;

  private:
    const ComplianceInput& in_;
    ZoneSet zones_;
    std::vector<std::chrono::minutes> clock_;
};

inline std::vector<CallTime> Boundaries::between(CallTime from, CallTime to) const {
    using std::chrono::minutes;
    std::vector<CallTime> out;
    const auto add = [&](CallTime t) {
        if (t > from && t <= to) out.push_back(t);
    };
    for (Zone zone : zones_) {
        const date::time_zone& tz = *locate(zone);
        // Offset changes. get_info's `end` is the first instant of the next period.
        auto info = tz.get_info(std::chrono::floor<std::chrono::seconds>(from));
        while (info.end <= to) {
            add(CallTime{info.end});
            info = tz.get_info(info.end);
        }
        const date::local_days last = local_date(tz, to) + date::days{1};
        for (date::local_days day = local_date(tz, from) - date::days{1}; day <= last;
             day += date::days{1}) {
            for (minutes at : clock_) {
                // The instants tz.to_sys(wall, choose::earliest) and (wall, choose::latest)
                // give, from one lookup: a wall time that does not exist maps to the instant
                // its gap ends; one that exists twice, to each of its two instants.
                const date::local_time<minutes> wall = day + at;
                const date::local_info local = tz.get_info(wall);
                const date::sys_seconds utc{wall.time_since_epoch()};
                if (local.result == date::local_info::nonexistent) {
                    add(CallTime{local.first.end});
                    continue;
                }
                add(CallTime{utc - local.first.offset});
                if (local.result == date::local_info::ambiguous)
                    add(CallTime{utc - local.second.offset});
            }
        }
    }
    if (in_.policy == CompliancePolicy::regulation_f) {
        for (CallTime conversation : in_.conversations)
            add(conversation);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace detail

// The earliest instant >= in.now at which evaluate() would pass with everything else in `in`
// unchanged; nullopt when no instant will: permanently_ineligible(in), or none within the
// horizon (see above). At the instant returned evaluate passes; at any earlier instant from
// in.now on it fails.
//
// The boundaries are found a stretch of time at a time, each twice as long as the one before
// (a day, two, four...), and evaluated in order as they come: the instant is most often found
// within the first day, and then the rest of the horizon is never resolved; when it is not,
// the stretches together cost at most about twice the horizon's days.
[[nodiscard]] inline std::optional<CallTime> next_eligible(const ComplianceInput& in) {
    if (permanently_ineligible(in)) return std::nullopt;
    const std::chrono::days horizon = search_horizon(in.state_rules);
    const CallTime cap = in.now + horizon;
    CallTime latest = in.now;
    for (std::span<const CallTime> times : {in.placed_calls, in.conversations, in.sent_texts}) {
        for (CallTime t : times)
            latest = std::max(latest, std::min(t, cap));
    }
    if (evaluate(in).passed) return in.now;
    const CallTime end = latest + horizon;
    const detail::Boundaries boundaries(in);
    ComplianceInput at = in;
    std::chrono::days stretch{1};
    for (CallTime from = in.now; from < end; from = std::min(from + stretch, end), stretch *= 2) {
        for (CallTime candidate : boundaries.between(from, std::min(from + stretch, end))) {
            at.now = candidate;
            if (evaluate(at).passed) return candidate;
        }
    }
    return std::nullopt;
}

}  // namespace collectcall::compliance
