// State law on how often a collector may contact a debtor by telephone, where it is stricter than
// Regulation F's seven calls in seven days (12 CFR 1006.14(b)(2)): a table keyed by the USPS
// state code, read by the state-call-limit check of the regulation-f policy.
//
// Each rule allows at most `max` communications within any `days` consecutive days of the
// customer's local calendar, the communication being made included; whether a text message
// counts is the state's to say. A customer whose state is uncertain (an address whose state and
// ZIP Code disagree) is held to the strictest rule of every state they may be in.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "collectcall/compliance/time_zone.hpp"

namespace collectcall::compliance {

struct StateCallLimit {
    std::string_view state;     // USPS code
    std::string_view name;      // the state's name, as reasons write it
    unsigned max;               // communications allowed ...
    unsigned days;              // ... within this many consecutive local calendar days
    bool counts_text_messages;  // a text message is a telephone communication
    std::string_view citation;
};

// clang-format off
inline constexpr StateCallLimit state_call_limits[] = {
    // Massachusetts. Debt collectors: 209 CMR 18.16(1)(d), a debt collector may not engage a
    // consumer "in communication via telephone or via text messaging, initiated by the debt
    // collector, in excess of two such communications in each seven-day period to a consumer's
    // residence or cellular telephone". Creditors: 940 CMR 7.04(1)(f), "in excess of two such
    // communications in each seven-day period", a communication "via telephone, either in
    // person or via text messaging or recorded audio message". Calls and texts the collector
    // initiates count, answered or not.
    {"MA", "Massachusetts", 2, 7, true, "209 CMR 18.16(1)(d); 940 CMR 7.04(1)(f)"},
};
// clang-format on

// A table of state rules: the built-in one, or another a test or a deployment gives the engine
// (ComplianceInput::state_rules).
using StateRules = std::span<const StateCallLimit>;

// The states a customer may be in: the address's state (in any letter case) when it is a state
// the tables know, and the state the ZIP Code's prefix serves when it is another. The ZIP Code
// table gives one state per ZIP Code, so a ZIP Code's own delivery area across a state line is not
// seen; an address whose state and ZIP Code disagree gives both.
struct StateCandidates {
    std::array<std::array<char, 2>, 2> codes{};
    std::size_t size = 0;

    [[nodiscard]] std::string_view operator[](std::size_t i) const noexcept {
        return {codes[i].data(), 2};
    }
};

[[nodiscard]] inline StateCandidates candidate_states(std::string_view state,
                                                      std::string_view zip) noexcept {
    StateCandidates out;
    const auto add = [&](std::string_view code) {
        if (code.size() != 2) return;
        const std::array<char, 2> upper{detail::ascii_upper(code[0]), detail::ascii_upper(code[1])};
        for (std::size_t i = 0; i < out.size; ++i) {
            if (out.codes[i] == upper) return;
        }
        out.codes[out.size++] = upper;
    };
    if (!resolve_time_zones(state, "").empty()) add(state);
    add(zip_state(zip));
    return out;
}

// The strictest rule of the candidate states: the fewest communications allowed, then the longer
// period, then the one that counts text messages; null when none of them has a rule.
[[nodiscard]] inline const StateCallLimit* strictest_state_limit(
    const StateCandidates& states, StateRules rules = state_call_limits) noexcept {
    const StateCallLimit* best = nullptr;
    for (std::size_t i = 0; i < states.size; ++i) {
        for (const StateCallLimit& rule : rules) {
            if (rule.state != states[i]) continue;
            const bool stricter =
                best == nullptr || rule.max < best->max ||
                (rule.max == best->max &&
                 (rule.days > best->days || (rule.days == best->days && rule.counts_text_messages &&
                                             !best->counts_text_messages)));
            if (stricter) best = &rule;
        }
    }
    return best;
}

}  // namespace collectcall::compliance
