// The compliance engine: evaluates every check of checks.hpp for one call (or text message) to
// one customer under the account's policy, and says why each passed or failed. The hosted policy
// is the hosted service's four checks; regulation-f adds those of regulation_f.hpp
// (docs/compliance.md). When a contact may next be made is next_eligible.hpp's question.
//
// Time comes only from the input (`now`), so a decision can be replayed and tested. The
// customer's local time is that of every zone their address may be in (time_zone.hpp): under
// Regulation F (12 CFR 1006.6(b)(1)) a call must be convenient wherever the consumer may be, so
// with several candidate zones the call must be inside the window in each of them, and the day's
// count must be under the limit in each zone's own calendar day. A location with no zone fails
// both time checks: a local time that cannot be established cannot be shown to be convenient.
//
// Needs Howard Hinnant's date/tz, linked through the CMake target date::date-tz (alias
// collectcall::compliance), which also carries the definitions its library was built with.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>

// date/tz's classes differ with USE_OS_TZDB, so a translation unit must see the definitions its
// library was built with (Debian's: USE_OS_TZDB=1); the date::date-tz target supplies them.
#if !defined(USE_OS_TZDB)
#error "engine.hpp: build with the definitions of date::date-tz (e.g. -DUSE_OS_TZDB=1)"
#endif
#include <date/tz.h>

#include "collectcall/compliance/area_codes.hpp"
#include "collectcall/compliance/checks.hpp"
#include "collectcall/compliance/local_time.hpp"
#include "collectcall/compliance/regulation_f.hpp"
#include "collectcall/compliance/state_rules.hpp"
#include "collectcall/compliance/time_zone.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/types/clock_time.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall::compliance {

// The account's calling window in the customer's local time, half-open: a call at `start` is
// inside, one at `end` is outside. Valid when 00:00 <= start < end <= 24:00. The default is the
// hosted service's, 08:00 to 20:50: the last call starts ten minutes before Regulation F's
// 21:00 (12 CFR 1006.6(b)(1)).
struct RespectfulHours {
    std::chrono::minutes start{std::chrono::hours{8}};
    std::chrono::minutes end{std::chrono::hours{20} + std::chrono::minutes{50}};

    friend bool operator==(const RespectfulHours&, const RespectfulHours&) = default;
};

// "HH:MM-HH:MM" (24-hour clock, 24:00 allowed as the end), as `init --respectful-hours` takes
// it; nullopt unless it is of that shape and 00:00 <= start < end <= 24:00.
[[nodiscard]] inline std::optional<RespectfulHours> parse_respectful_hours(std::string_view text) {
    if (text.size() != 11 || text[5] != '-') return std::nullopt;
    const auto start = parse_clock(text.substr(0, 5));
    const auto end = parse_clock(text.substr(6));
    if (!start || !end || *start >= *end) return std::nullopt;
    return RespectfulHours{*start, *end};
}

// The window as `init --respectful-hours` takes it and the documents write it: "08:00-20:50".
[[nodiscard]] inline std::string to_string(const RespectfulHours& window) {
    std::string out;
    for (const std::chrono::minutes at : {window.start, window.end}) {
        const auto minutes = static_cast<unsigned>(at.count());
        if (!out.empty()) out += '-';
        out += static_cast<char>('0' + minutes / 600);
        out += static_cast<char>('0' + minutes / 60 % 10);
        out += ':';
        out += static_cast<char>('0' + minutes % 60 / 10);
        out += static_cast<char>('0' + minutes % 10);
    }
    return out;
}

// At most this many voice calls per customer per local day (SPEC.md section 8).
inline constexpr unsigned default_max_calls_per_day = 4;

// How far back the history of contacts must reach for every rule of `rules` (and Regulation F's)
// to see what it counts: the longest run of local calendar days a rule counts over, and one more
// day for the difference between UTC and the candidate zones' calendars.
[[nodiscard]] constexpr std::chrono::days history_required(StateRules rules) noexcept {
    return std::chrono::days{longest_rule_period(rules).count()} + std::chrono::days{1};
}

// The history the built-in rules read (8 days while the longest is Regulation F's 7): what a
// store loads for an evaluation.
inline constexpr std::chrono::days required_history = history_required(state_call_limits);

// A call to the customer that was placed and has not ended: its id and when it was placed.
struct OngoingCall {
    Uuid id;
    CallTime placed;
};

struct ComplianceInput {
    bool active = false;
    bool cease_and_desist = false;
    std::string_view state;  // the customer's address: USPS state code
    std::string_view zip5;   // and ZIP Code ("12345" or "12345-6789")
    // Times of the calls already placed to this customer, in any order and over any span; the
    // engine counts those that fall in the local calendar day of `now`, including any later
    // than `now` on that day (and, under regulation-f, in the runs of seven local days around
    // it: at least `required_history` before `now`).
    std::span<const CallTime> placed_calls;
    CallTime now;  // the time of the call being made
    RespectfulHours window{};
    unsigned max_calls_per_day = default_max_calls_per_day;

    // The account's policy, what is being sent and what asked for it. Under `hosted` the four
    // checks of all_checks; a text message skips four-voice-call-per-day, an e-mail every check
    // of the time of day and of counts (API.md sections 14 and 16).
    CompliancePolicy policy = CompliancePolicy::hosted;
    ContactChannel channel = ContactChannel::call;
    ComplianceOperation operation = ComplianceOperation::call;
    // The media the customer asked the collector not to use (12 CFR 1006.14(h)): a contact over
    // one of them is blocked under every policy (API.md section 16).
    RestrictedMedia restricted_media{};
    // The calls to the customer placed and not yet ended: under regulation-f, and for a drip
    // campaign's call step under every policy, a call waits for them to end (one_call_at_a_time).
    std::span<const OngoingCall> calls_in_progress;
    // Read under regulation-f only:
    // the customer's phone numbers in E.164 (primary, secondary; empty when none): their area
    // codes add candidate zones to inconvenient-time;
    std::array<std::string_view, 2> phone_numbers{};
    // the instants of the telephone conversations had with the customer (calls whose transcript
    // has a turn of the customer's), and of the text messages sent to them;
    std::span<const CallTime> conversations;
    std::span<const CallTime> sent_texts;
    // the times the customer designated inconvenient, in their local time;
    std::span<const InconvenientTime> inconvenient_times;
    // the number a text message goes to (E.164; empty: the customer's own): its area code's zone
    // is a candidate of the evaluation (API.md section 16);
    std::string_view to_number;
    // the state rules (state_rules.hpp): the built-in table unless a test gives another;
    StateRules state_rules = state_call_limits;
    // the customer is known to be represented by an attorney about the debt (15 U.S.C.
    // 1692c(a)(2)).
    bool attorney_represented = false;
};

// Whether a call in progress blocks this contact: a call while another is in progress may become
// a second telephone conversation inside Regulation F's lockout (12 CFR 1006.14(b)(2)(i)(B)), so
// under regulation-f a call waits for the one in progress to end; a drip campaign's call step
// waits under every policy (API.md section 16).
[[nodiscard]] inline bool one_call_at_a_time(const ComplianceInput& in) noexcept {
    return in.channel == ContactChannel::call && (in.policy == CompliancePolicy::regulation_f ||
                                                  in.operation == ComplianceOperation::drip_step);
}

// The call in progress that blocks the contact (the one placed first), or null when none does.
[[nodiscard]] inline const OngoingCall* blocking_call(const ComplianceInput& in) noexcept {
    if (!one_call_at_a_time(in)) return nullptr;
    const OngoingCall* first = nullptr;
    for (const OngoingCall& call : in.calls_in_progress) {
        if (first == nullptr || call.placed < first->placed) first = &call;
    }
    return first;
}

namespace detail {

// `now` as seen in one candidate zone.
struct LocalView {
    Zone zone{};
    date::local_time<std::chrono::milliseconds> local;
    CallTime day_start;  // the local calendar day of `now`, as UTC instants [day_start, day_end)
    CallTime day_end;
};

struct LocalViews {
    std::array<LocalView, ZoneCandidates::capacity> views{};
    std::size_t size = 0;
    bool established = false;  // every candidate zone resolved and converted
};

[[nodiscard]] inline LocalViews local_views(const ZoneCandidates& zones, CallTime now) {
    LocalViews out;
    if (zones.empty()) return out;
    for (Zone zone : zones) {
        const date::time_zone* tz = locate(zone);
        if (tz == nullptr) return out;
        try {
            LocalView view;
            view.zone = zone;
            view.local = tz->to_local(now);
            const auto day = std::chrono::floor<date::days>(view.local);
            // Local midnight may not exist or may repeat where a zone shifts at midnight; the
            // earliest instant keeps the day's bounds contiguous.
            view.day_start = tz->to_sys(day, date::choose::earliest);
            view.day_end = tz->to_sys(day + date::days{1}, date::choose::earliest);
            out.views[out.size++] = view;
        } catch (const std::exception&) {
            // The database could not be read for this zone: the local time is unknown.
            out.size = 0;
            return out;
        }
    }
    out.established = true;
    return out;
}

// "8am-8:50pm": the window as the hosted service's reasons write it.
[[nodiscard]] inline std::string window_text(const RespectfulHours& window) {
    return hosted_clock_text(window.start) + '-' + hosted_clock_text(window.end);
}

[[nodiscard]] inline std::chrono::milliseconds local_time_of_day(
    date::local_time<std::chrono::milliseconds> local) {
    return local - std::chrono::floor<date::days>(local);
}

[[nodiscard]] inline bool valid_window(const RespectfulHours& window) {
    return window.start >= std::chrono::minutes{0} && window.start < window.end &&
           window.end <= std::chrono::hours{24};
}

[[nodiscard]] inline std::string unknown_zone_reason(std::string_view what,
                                                     const ZoneCandidates& zones) {
    std::string out(what);
    if (zones.empty()) {
        out += " (no time zone for the customer's address)";
        return out;
    }
    for (Zone zone : zones) {
        if (locate(zone) == nullptr) {
            out += " (time zone ";
            out += zone_name(zone);
            out += " is missing from the time zone database)";
            return out;
        }
    }
    out += " (the time zone database could not be read)";
    return out;
}

[[nodiscard]] inline std::size_t count_calls(std::span<const CallTime> calls,
                                             const LocalView& view) {
    std::size_t count = 0;
    for (CallTime call : calls) {
        if (call >= view.day_start && call < view.day_end) ++count;
    }
    return count;
}

inline void record(ComplianceResult& result, CheckId check, bool passed, std::string reason) {
    (passed ? result.checksPassed : result.checksFailed)
        .push_back(make_check(check, std::move(reason)));
}

inline void check_call_count(ComplianceResult& result, const ComplianceInput& in,
                             const ZoneCandidates& zones, const LocalViews& views) {
    const CheckId info = CheckId::four_voice_call_per_day;
    if (!views.established) {
        record(result, info, false, unknown_zone_reason("Customer local day is unknown", zones));
        return;
    }
    // The zone whose local day holds the most calls decides (the first such zone on a tie):
    // the count must be under the limit in every candidate zone.
    std::size_t decisive = 0;
    std::size_t most = count_calls(in.placed_calls, views.views[0]);
    for (std::size_t i = 1; i < views.size; ++i) {
        const std::size_t count = count_calls(in.placed_calls, views.views[i]);
        if (count > most) {
            most = count;
            decisive = i;
        }
    }
    const bool passed = most < in.max_calls_per_day;
    std::string reason = "Customer has had " + std::to_string(most) +
                         (most == 1 ? " voice call" : " voice calls") +
                         " today within respectful hours window (";
    reason += zone_name(views.views[decisive].zone);
    reason += passed ? "), within the limit of " : "), exceeding the limit of ";
    reason += std::to_string(in.max_calls_per_day);
    record(result, info, passed, std::move(reason));
}

inline void check_respectful_hours(ComplianceResult& result, const ComplianceInput& in,
                                   const ZoneCandidates& zones, const LocalViews& views) {
    const CheckId info = CheckId::respectful_hours;
    if (!valid_window(in.window)) {
        record(result, info, false,
               "Respectful hours window " + clock_text(in.window.start) + '-' +
                   clock_text(in.window.end) +
                   " is not valid (it must lie within 00:00-24:00 and "
                   "start before it ends)");
        return;
    }
    if (!views.established) {
        record(result, info, false, unknown_zone_reason("Customer local time is unknown", zones));
        return;
    }
    // The first candidate zone whose local time is outside the window decides; when all are
    // inside, the most likely zone (the first) is named.
    std::size_t decisive = 0;
    bool passed = true;
    for (std::size_t i = 0; i < views.size; ++i) {
        const auto tod = local_time_of_day(views.views[i].local);
        if (tod < in.window.start || tod >= in.window.end) {
            decisive = i;
            passed = false;
            break;
        }
    }
    const LocalView& view = views.views[decisive];
    std::string reason = "Customer local time is ";
    reason += clock_text(std::chrono::floor<std::chrono::minutes>(local_time_of_day(view.local)));
    reason += " (";
    // A single zone on a failure reads exactly as the hosted service's reason, which names
    // none; with several candidates the zone that decided is named.
    if (passed || zones.ambiguous()) {
        reason += zone_name(view.zone);
        reason += ", ";
    }
    reason += passed ? "within" : "outside";
    reason += " respectful hours ";
    reason += window_text(in.window);
    reason += ')';
    record(result, info, passed, std::move(reason));
}

}  // namespace detail

// Every zone the regulation-f checks honour: the address's candidates, then those of the phone
// numbers' area codes (12 CFR 1006.6(b)(1)(i)), then, for a text message, that of the number it
// goes to (API.md section 16: the recipient may be wherever that number is). Under hosted, the
// address's alone: section 16 changes hosted answers only where it says "every policy", and the
// text's number is not such a rule.
[[nodiscard]] inline ZoneSet candidate_zones(const ComplianceInput& in) {
    ZoneSet zones(resolve_time_zones(in.state, in.zip5));
    if (in.policy == CompliancePolicy::regulation_f) {
        for (std::string_view phone : in.phone_numbers)
            zones.add(phone_zones(phone));
        if (in.channel == ContactChannel::sms && !in.to_number.empty())
            zones.add(phone_zones(in.to_number));
    }
    return zones;
}

namespace detail {

inline void record(ComplianceResult& result, CheckId check, Verdict verdict) {
    record(result, check, verdict.passed, std::move(verdict.reason));
}

// call-frequency with the calls in progress: one of them blocks the call (one_call_at_a_time),
// else the counts and the lockout decide.
[[nodiscard]] inline Verdict check_call_frequency(const ComplianceInput& in,
                                                  std::span<const Zone> zones) {
    if (const OngoingCall* call = blocking_call(in)) {
        std::string reason = "A call to this customer is in progress (";
        reason += call->id.view();
        reason += ')';
        return {false, std::move(reason)};
    }
    return compliance::check_call_frequency(zones, in.placed_calls, in.conversations, in.now);
}

// The checks regulation-f adds, in the order of regulation_f_checks: a text message skips
// call-frequency (Regulation F counts calls); an e-mail keeps inconvenient-time,
// medium-restriction and attorney-representation (API.md section 16).
inline void check_regulation_f(ComplianceResult& result, const ComplianceInput& in,
                               const ZoneCandidates& address_zones) {
    const bool call = in.channel == ContactChannel::call;
    const bool email = in.channel == ContactChannel::email;
    const ZoneSet zones = candidate_zones(in);
    const bool known = !address_zones.empty() && all_located(zones);
    const std::span<const Zone> zone_span(zones.begin(), zones.size());
    const auto unknown = [&](std::string_view what) {
        return Verdict{false, unknown_zone_reason(what, address_zones)};
    };
    if (call) {
        record(result, CheckId::call_frequency,
               known || blocking_call(in) != nullptr ? check_call_frequency(in, zone_span)
                                                     : unknown("Customer local day is unknown"));
    }
    record(result, CheckId::inconvenient_time,
           known ? check_inconvenient_time(zone_span, in.inconvenient_times, in.now)
                 : unknown("Customer local time is unknown"));
    record(result, CheckId::medium_restriction,
           check_medium_restriction(in.restricted_media, in.channel));
    record(result, CheckId::attorney_representation,
           check_attorney_representation(in.attorney_represented));
    if (!email) {
        record(result, CheckId::state_call_limit,
               known ? check_state_call_limit(zone_span, candidate_states(in.state, in.zip5),
                                              in.placed_calls, in.sent_texts, in.channel, in.now,
                                              in.state_rules)
                     : unknown("Customer local day is unknown"));
    }
}

// cease-and-desist-exclusion. Under hosted it also carries the medium's restriction, which blocks
// under every policy and has no check of its own there (API.md section 16); its reason says which
// medium. Under regulation-f medium-restriction says it.
[[nodiscard]] inline Verdict check_cease_and_desist(const ComplianceInput& in) {
    if (in.cease_and_desist) return {false, "Customer has requested cease and desist"};
    if (in.policy == CompliancePolicy::hosted && in.restricted_media.contains(in.channel))
        return check_medium_restriction(in.restricted_media, in.channel);
    return {true, "Customer has not requested cease and desist"};
}

}  // namespace detail

// Evaluates every check of the input's policy and channel, always all of them, in the order of
// `all_checks` then `regulation_f_checks`.
[[nodiscard]] inline ComplianceResult evaluate(const ComplianceInput& in) {
    ComplianceResult result;
    result.checksPassed.reserve(catalogue.size());
    detail::record(result, CheckId::is_active, in.active,
                   in.active ? "Customer is active" : "Customer is not active");
    detail::record(result, CheckId::cease_and_desist_exclusion, detail::check_cease_and_desist(in));
    const ZoneCandidates zones = resolve_time_zones(in.state, in.zip5);
    if (in.channel != ContactChannel::email) {
        // The account's calling window and daily count: a call's and a text's, not an e-mail's.
        const detail::LocalViews views = detail::local_views(zones, in.now);
        if (in.channel == ContactChannel::call) detail::check_call_count(result, in, zones, views);
        detail::check_respectful_hours(result, in, zones, views);
    }
    if (in.policy == CompliancePolicy::regulation_f) {
        detail::check_regulation_f(result, in, zones);
    } else if (blocking_call(in) != nullptr) {
        // Under hosted only a drip campaign's call step waits (one_call_at_a_time); it fails
        // call-frequency, the check regulation-f reports it under.
        detail::record(result, CheckId::call_frequency, detail::check_call_frequency(in, {}));
    }
    result.passed = result.checksFailed.empty();
    return result;
}

// The error message of a blocked call: "Customer not eligible for call. Failed rules: <name>
// (<reason>), <name> (<reason>)" (the hosted text), of a blocked text message: "Customer not
// eligible for SMS. ...", and of a blocked e-mail: "Customer not eligible for email. ..." (the
// medium as the API names it: the route's "email"). Empty when no check failed.
[[nodiscard]] inline std::string failure_message(const ComplianceResult& result,
                                                 ContactChannel channel = ContactChannel::call) {
    if (result.checksFailed.empty()) return {};
    std::string out = "Customer not eligible for ";
    switch (channel) {
        case ContactChannel::call:
            out += "call";
            break;
        case ContactChannel::sms:
            out += "SMS";
            break;
        case ContactChannel::email:
            out += "email";
            break;
    }
    out += ". Failed rules: ";
    for (std::size_t i = 0; i < result.checksFailed.size(); ++i) {
        const Check& check = result.checksFailed[i];
        if (i != 0) out += ", ";
        out += check.name;
        out += " (";
        out += check.reason;
        out += ')';
    }
    return out;
}

}  // namespace collectcall::compliance
