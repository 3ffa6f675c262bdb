// The compliance checks of a call, as data: identifier, human name and description, in the order
// they are evaluated and reported (API.md section 8). Names and descriptions are the hosted
// service's, word for word: clients match on them. The engine adds the reason.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "collectcall/model/compliance.hpp"

namespace collectcall::compliance {

struct CheckInfo {
    std::string_view id;
    std::string_view name;
    std::string_view description;
};

namespace checks {

inline constexpr CheckInfo is_active{
    "is-active",
    "Is Active",
    "Check if customer is active",
};

inline constexpr CheckInfo cease_and_desist_exclusion{
    "cease-and-desist-exclusion",
    "Cease and Desist Exclusion",
    "Prevent calling customers who have requested cease and desist",
};

inline constexpr CheckInfo four_voice_call_per_day{
    "four-voice-call-per-day",
    "Four Voice Call Per Day",
    "Check if customer has had four or fewer voice calls today within the current respectful "
    "hours window",
};

inline constexpr CheckInfo respectful_hours{
    "respectful-hours",
    "Respectful Hours Check",
    "Check if the customer's local time is within respectful hours",
};

}  // namespace checks

// Every check, in evaluation order. All of them are evaluated for every call, so a blocked call
// reports every reason at once.
inline constexpr std::array<CheckInfo, 4> all_checks{
    checks::is_active,
    checks::cease_and_desist_exclusion,
    checks::four_voice_call_per_day,
    checks::respectful_hours,
};

[[nodiscard]] inline Check make_check(const CheckInfo& info, std::string reason) {
    return Check{std::string(info.id), std::string(info.name), std::string(info.description),
                 std::move(reason)};
}

}  // namespace collectcall::compliance
