// The checks of the regulation-f policy (API.md section 14), each a pure function of what it
// needs: the customer's candidate zones, the instants of past contacts, flags, and `now`. Each
// says whether it passes and why; the engine (engine.hpp) records them in order.
//
// "Local calendar day" is that of every candidate zone: where the customer's location is
// uncertain, a count must be under its limit, and a lockout over, in each candidate zone's own
// calendar (the strictest reading of "seven consecutive days" wherever the consumer may be).
// Every function here requires `zones` non-empty and every zone located (detail::all_located);
// the engine checks that first.
#pragma once

#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "collectcall/compliance/local_time.hpp"
#include "collectcall/compliance/state_rules.hpp"
#include "collectcall/model/compliance.hpp"

namespace collectcall::compliance {

// One check's verdict, before it is recorded with the check's name and description.
struct Verdict {
    bool passed = false;
    std::string reason;
};

// 12 CFR 1006.14(b)(2)(i): a collector is presumed to violate the rule against repeated or
// continuous calls if it places "telephone calls to a particular person in connection with the
// collection of a particular debt ... (A) more than seven times within a period of seven
// consecutive days; or (B) within a period of seven consecutive days after having had a
// telephone conversation with the person", "the date of the telephone conversation being the
// first day of the seven-consecutive-day period".
inline constexpr unsigned regulation_f_max_calls = 7;
inline constexpr date::days regulation_f_period{7};

// The longest run of local calendar days any rule counts over: Regulation F's seven days and
// every state rule's `days`. How far back a check reads and how far ahead the next-eligible
// search looks follow from it (engine.hpp's history_required, next_eligible.hpp's
// search_horizon), so that a longer rule is never under-counted.
[[nodiscard]] constexpr date::days longest_rule_period(StateRules rules) noexcept {
    date::days longest = regulation_f_period;
    for (const StateCallLimit& rule : rules) {
        const date::days days{static_cast<int>(rule.days)};
        if (days > longest) longest = days;
    }
    return longest;
}

// 12 CFR 1006.6(b)(1)(i): "a convenient time ... is after 8:00 a.m. and before 9:00 p.m. local
// time at the consumer's location". The window is half-open: 08:00 inside, 21:00 outside.
inline constexpr std::chrono::minutes convenient_start{std::chrono::hours{8}};
inline constexpr std::chrono::minutes convenient_end{std::chrono::hours{21}};

namespace detail {

// The most contacts (instants of `a`, and of `b` when given) in any run of `period` consecutive
// local calendar days that contains the local day of `now`: the count the contact being made
// would join. Each run is [day_start(first), day_start(last + 1)).
[[nodiscard]] inline unsigned busiest_run(const date::time_zone& tz, CallTime now,
                                          date::days period, std::span<const CallTime> a,
                                          std::span<const CallTime> b = {}) {
    const date::local_days today = local_date(tz, now);
    unsigned most = 0;
    for (date::days k{0}; k < period; ++k) {
        const CallTime from = day_start(tz, today - period + date::days{1} + k);
        const CallTime to = day_start(tz, today + date::days{1} + k);
        unsigned count = 0;
        for (std::span<const CallTime> times : {a, b}) {
            for (CallTime t : times) {
                if (t >= from && t < to) ++count;
            }
        }
        if (count > most) most = count;
    }
    return most;
}

[[nodiscard]] inline std::string plural(unsigned n, std::string_view one, std::string_view many) {
    std::string out = std::to_string(n);
    out += ' ';
    out += n == 1 ? one : many;
    return out;
}

}  // namespace detail

// call-frequency, 12 CFR 1006.14(b)(2)(i). `calls`: the instants of the calls placed to the
// customer about the debt; `conversations`: those of the telephone conversations had with them
// (a conversation after `now` has not happened yet). Passes when, in every candidate zone's
// calendar, fewer than 7 calls lie in every run of 7 consecutive days containing today (the call
// being made would be at most the 7th), and today is not within the 7 days that begin with the
// day of a conversation.
[[nodiscard]] inline Verdict check_call_frequency(std::span<const Zone> zones,
                                                  std::span<const CallTime> calls,
                                                  std::span<const CallTime> conversations,
                                                  CallTime now) {
    // The zone whose calendar counts the most calls decides the count (the first on a tie);
    // the one whose lockout ends last decides the lockout.
    unsigned most = 0;
    Zone count_zone = zones.front();
    bool locked = false;
    Zone lock_zone = zones.front();
    date::local_days conversation_day{};
    CallTime lock_end{};
    for (Zone zone : zones) {
        const date::time_zone& tz = *detail::locate(zone);
        const unsigned count = detail::busiest_run(tz, now, regulation_f_period, calls);
        if (count > most) {
            most = count;
            count_zone = zone;
        }
        const date::local_days today = detail::local_date(tz, now);
        for (CallTime conversation : conversations) {
            if (conversation > now) continue;
            const date::local_days day = detail::local_date(tz, conversation);
            if (today >= day + regulation_f_period) continue;
            const CallTime end = detail::day_start(tz, day + regulation_f_period);
            if (!locked || end > lock_end) {
                locked = true;
                lock_end = end;
                lock_zone = zone;
                conversation_day = day;
            }
        }
    }
    const bool under = most < regulation_f_max_calls;
    Verdict out{under && !locked, "Customer has had "};
    const std::string days = std::to_string(regulation_f_period.count());
    out.reason += detail::plural(most, "call", "calls");
    out.reason += " within " + days + " consecutive days (";
    out.reason += zone_name(count_zone);
    out.reason += under ? "), within the limit of " : "), reaching the limit of ";
    out.reason += std::to_string(regulation_f_max_calls);
    if (locked) {
        out.reason += ", and a telephone conversation on ";
        out.reason += detail::date_text(conversation_day);
        out.reason += " (";
        out.reason += zone_name(lock_zone);
        out.reason += "): no call before ";
        out.reason += detail::date_text(conversation_day + regulation_f_period);
    } else {
        out.reason += ", and no telephone conversation within the last " + days + " days";
    }
    return out;
}

namespace detail {

[[nodiscard]] inline bool has_day(const InconvenientTime& period, Weekday day) noexcept {
    for (Weekday d : period.days) {
        if (d == day) return true;
    }
    return false;
}

[[nodiscard]] inline Weekday weekday_of(date::local_days day) noexcept {
    // date::weekday counts from Sunday (0); Weekday from Monday.
    const unsigned sunday_based = date::weekday{day}.c_encoding();
    return static_cast<Weekday>((sunday_based + 6) % 7);
}

// Whether a local time falls in a designated period (InconvenientTime's rules).
[[nodiscard]] inline bool inside(const InconvenientTime& period, date::local_days day,
                                 std::chrono::minutes time_of_day) noexcept {
    const auto from = period.from.minutes();
    const auto to = period.to.minutes();
    const Weekday today = weekday_of(day);
    if (from < to) return has_day(period, today) && time_of_day >= from && time_of_day < to;
    const Weekday yesterday = weekday_of(day - date::days{1});
    return (has_day(period, today) && time_of_day >= from) ||
           (has_day(period, yesterday) && time_of_day < to);
}

[[nodiscard]] inline std::string period_text(const InconvenientTime& period) {
    std::string out;
    for (Weekday day : period.days) {
        if (!out.empty()) out += ',';
        out += enum_name(day);
    }
    out += ' ';
    out += period.from.view();
    out += '-';
    out += period.to.view();
    return out;
}

}  // namespace detail

// inconvenient-time, 12 CFR 1006.6(b)(1)(i). `zones`: every zone the customer may be in, those
// of the address and those of the phone numbers' area codes (area_codes.hpp); `designated`: the
// times the customer said are inconvenient, in their local time, honoured in every candidate
// zone. Passes when every zone's local time is within 08:00-21:00 and in no designated period.
[[nodiscard]] inline Verdict check_inconvenient_time(std::span<const Zone> zones,
                                                     std::span<const InconvenientTime> designated,
                                                     CallTime now) {
    const auto describe = [](Zone zone, LocalTime local) {
        std::string out = "Customer local time is ";
        out += detail::clock_text(std::chrono::floor<std::chrono::minutes>(
            local - std::chrono::floor<date::days>(local)));
        out += " (";
        out += zone_name(zone);
        return out;
    };
    for (Zone zone : zones) {
        const LocalTime local = detail::locate(zone)->to_local(now);
        const auto tod = local - std::chrono::floor<date::days>(local);
        if (tod < convenient_start || tod >= convenient_end) {
            return {false, describe(zone, local) + ", outside 8am-9pm)"};
        }
    }
    for (Zone zone : zones) {
        const LocalTime local = detail::locate(zone)->to_local(now);
        const auto day = std::chrono::floor<date::days>(local);
        const auto tod = std::chrono::floor<std::chrono::minutes>(local - day);
        for (const InconvenientTime& period : designated) {
            if (detail::inside(period, day, tod)) {
                std::string reason = describe(zone, local);
                reason += ", ";
                reason += enum_name(detail::weekday_of(day));
                reason += "), in a time the customer designated inconvenient (";
                reason += detail::period_text(period);
                reason += ')';
                return {false, std::move(reason)};
            }
        }
    }
    std::string reason = describe(zones.front(), detail::locate(zones.front())->to_local(now));
    reason += zones.size() > 1 ? ", within 8am-9pm in every candidate zone)" : ", within 8am-9pm)";
    if (!designated.empty()) reason += ", outside the times the customer designated inconvenient";
    return {true, std::move(reason)};
}

// medium-restriction, 12 CFR 1006.14(h)(1): a collector must not communicate "through a medium
// of communication if the person has requested that the debt collector not use that medium".
// `restricted`: the media the customer asked the collector not to use; `medium`: the one of the
// contact being made. The reason names the medium: "called", "texted", "e-mailed".
[[nodiscard]] inline Verdict check_medium_restriction(RestrictedMedia restricted,
                                                      ContactChannel medium) {
    std::string_view verb = "called";
    if (medium == ContactChannel::sms) verb = "texted";
    if (medium == ContactChannel::email) verb = "e-mailed";
    const bool asked = restricted.contains(medium);
    std::string reason =
        asked ? "Customer has asked not to be " : "Customer has not asked not to be ";
    reason += verb;
    return {!asked, std::move(reason)};
}

// attorney-representation, 15 U.S.C. 1692c(a)(2) (and 12 CFR 1006.6(b)(2)): no communication
// with a consumer the collector knows to be represented by an attorney about the debt.
[[nodiscard]] inline Verdict check_attorney_representation(bool represented) {
    return represented ? Verdict{false, "Customer is represented by an attorney about the debt"}
                       : Verdict{true, "Customer is not known to be represented by an attorney"};
}

// state-call-limit: the strictest rule of state_rules.hpp among the states the customer may be
// in. `calls` and `texts`: the instants of the calls placed and the text messages sent to the
// customer; `channel`: what is being sent now. A text message counts, and is limited, only where
// the state says it is a telephone communication. Passes when no rule applies, or when fewer
// than the rule's maximum communications lie in every run of its days containing today, in
// every candidate zone's calendar.
[[nodiscard]] inline Verdict check_state_call_limit(std::span<const Zone> zones,
                                                    const StateCandidates& states,
                                                    std::span<const CallTime> calls,
                                                    std::span<const CallTime> texts,
                                                    ContactChannel channel, CallTime now,
                                                    StateRules rules = state_call_limits) {
    const StateCallLimit* rule = strictest_state_limit(states, rules);
    if (rule == nullptr) {
        std::string reason = "No state limit stricter than Regulation F applies";
        if (states.size != 0) {
            reason += " (";
            for (std::size_t i = 0; i < states.size; ++i) {
                if (i != 0) reason += ", ";
                reason += states[i];
            }
            reason += ')';
        }
        return {true, std::move(reason)};
    }
    std::string limit = "the ";
    limit += rule->name;
    limit += " limit of ";
    limit += std::to_string(rule->max);
    limit += " in ";
    limit += std::to_string(rule->days);
    limit += " days (";
    limit += rule->citation;
    limit += ')';
    if (channel == ContactChannel::sms && !rule->counts_text_messages) {
        return {true, "A text message is not a telephone communication under " + limit};
    }
    const std::span<const CallTime> counted_texts =
        rule->counts_text_messages ? texts : std::span<const CallTime>{};
    unsigned most = 0;
    Zone decisive = zones.front();
    for (Zone zone : zones) {
        const unsigned count = detail::busiest_run(*detail::locate(zone), now,
                                                   date::days{rule->days}, calls, counted_texts);
        if (count > most) {
            most = count;
            decisive = zone;
        }
    }
    const bool passed = most < rule->max;
    std::string reason = "Customer has had ";
    reason += detail::plural(most, "telephone communication", "telephone communications");
    reason += " within ";
    reason += std::to_string(rule->days);
    reason += " consecutive days (";
    reason += zone_name(decisive);
    reason += passed ? "), within " : "), reaching ";
    reason += limit;
    return {passed, std::move(reason)};
}

}  // namespace collectcall::compliance
