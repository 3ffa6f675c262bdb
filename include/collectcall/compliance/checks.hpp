// The compliance checks of a call, as data: identifier, human name and description, in the order
// they are evaluated and reported (API.md section 8). Names and descriptions are the hosted
// service's, word for word: clients match on them. The engine adds the reason.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "collectcall/model/compliance.hpp"

namespace collectcall::compliance {

struct CheckInfo {
    CheckId id;
    std::string_view name;
    std::string_view description;
};

namespace checks {

inline constexpr CheckInfo is_active{
    CheckId::is_active,
    "Is Active",
    "Check if customer is active",
};

inline constexpr CheckInfo cease_and_desist_exclusion{
    CheckId::cease_and_desist_exclusion,
    "Cease and Desist Exclusion",
    "Prevent calling customers who have requested cease and desist",
};

inline constexpr CheckInfo four_voice_call_per_day{
    CheckId::four_voice_call_per_day,
    "Four Voice Call Per Day",
    "Check if customer has had four or fewer voice calls today within the current respectful "
    "hours window",
};

inline constexpr CheckInfo respectful_hours{
    CheckId::respectful_hours,
    "Respectful Hours Check",
    "Check if the customer's local time is within respectful hours",
};

}  // namespace checks

// Every check, in evaluation order (that of CheckId). All of them are evaluated for every call, so
// a blocked call reports every reason at once.
inline constexpr std::array<CheckInfo, 4> all_checks{
    checks::is_active,
    checks::cease_and_desist_exclusion,
    checks::four_voice_call_per_day,
    checks::respectful_hours,
};
static_assert(
    [] {
        if (all_checks.size() != enum_values<CheckId>.size()) return false;
        for (std::size_t i = 0; i < all_checks.size(); ++i) {
            if (all_checks[i].id != enum_values<CheckId>[i]) return false;
        }
        return true;
    }(),
    "all_checks lists every CheckId once, in the order of the enum");

[[nodiscard]] inline Check make_check(const CheckInfo& info, std::string reason) {
    return Check{info.id, std::string(info.name), std::string(info.description), std::move(reason)};
}

}  // namespace collectcall::compliance
