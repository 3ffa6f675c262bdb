// The compliance checks of a call, as data: identifier, human name and description, in the order
// they are evaluated and reported (API.md section 8). The engine adds the reason.
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
    "Customer is active",
};

inline constexpr CheckInfo cease_and_desist_exclusion{
    "cease-and-desist-exclusion",
    "Cease and Desist Exclusion",
    "Customer has not requested cease and desist; such customers are not called",
};

inline constexpr CheckInfo four_voice_call_per_day{
    "four-voice-call-per-day",
    "Four Voice Calls Per Day",
    "Customer has had four or fewer voice calls today within the respectful-hours window "
    "(evaluated in a named time zone)",
};

inline constexpr CheckInfo respectful_hours{
    "respectful-hours",
    "Respectful Hours",
    "Call is placed within the respectful-hours window of the customer's local time "
    "(08:00 to 21:00 by default, Regulation F)",
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
