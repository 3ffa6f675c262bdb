// The compliance checks of a call, as data: identifier, human name and description, in the order
// they are evaluated and reported (API.md sections 8 and 14). The first four are the hosted
// service's, names and descriptions word for word: clients match on them. The checks the
// regulation-f policy adds are the project's own (docs/compliance.md). The engine adds the
// reason.
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

// The checks of the regulation-f policy, after the four above (API.md section 14).

// 12 CFR 1006.14(b)(2): at most 7 calls in 7 consecutive days, none in the 7 days after a
// telephone conversation.
inline constexpr CheckInfo call_frequency{
    CheckId::call_frequency,
    "Call Frequency",
    "Check that no more than seven calls were placed within seven consecutive days and none "
    "within seven days after a telephone conversation (12 CFR 1006.14(b)(2))",
};

// 12 CFR 1006.6(b)(1)(i): 08:00 to 21:00 wherever the customer may be, and not at a time the
// customer designated inconvenient.
inline constexpr CheckInfo inconvenient_time{
    CheckId::inconvenient_time,
    "Inconvenient Time",
    "Check that the customer's local time is between 8am and 9pm in every zone the address and "
    "phone numbers suggest, and not a time the customer designated inconvenient "
    "(12 CFR 1006.6(b)(1)(i))",
};

// 12 CFR 1006.14(h): a medium of communication (call, text message, e-mail) the customer asked
// the collector not to use.
inline constexpr CheckInfo medium_restriction{
    CheckId::medium_restriction,
    "Medium Restriction",
    "Check that the customer has not asked the collector not to use this medium of "
    "communication (12 CFR 1006.14(h))",
};

// 15 U.S.C. 1692c(a)(2): a consumer known to be represented by an attorney.
inline constexpr CheckInfo attorney_representation{
    CheckId::attorney_representation,
    "Attorney Representation",
    "Check that the customer is not known to be represented by an attorney about the debt "
    "(15 U.S.C. 1692c(a)(2))",
};

// State law stricter than Regulation F (compliance/state_rules.hpp).
inline constexpr CheckInfo state_call_limit{
    CheckId::state_call_limit,
    "State Call Limit",
    "Check the customer's state's limit on telephone communications, where it is stricter than "
    "Regulation F",
};

}  // namespace checks

// Every check of the hosted policy, in evaluation order (that of CheckId). All of them are
// evaluated for every call, so a blocked call reports every reason at once.
inline constexpr std::array<CheckInfo, 4> all_checks{
    checks::is_active,
    checks::cease_and_desist_exclusion,
    checks::four_voice_call_per_day,
    checks::respectful_hours,
};

// The checks the regulation-f policy evaluates after all_checks, in evaluation order.
inline constexpr std::array<CheckInfo, 5> regulation_f_checks{
    checks::call_frequency,          checks::inconvenient_time, checks::medium_restriction,
    checks::attorney_representation, checks::state_call_limit,
};
static_assert(
    [] {
        if (all_checks.size() + regulation_f_checks.size() != enum_values<CheckId>.size()) {
            return false;
        }
        for (std::size_t i = 0; i < enum_values<CheckId>.size(); ++i) {
            const CheckInfo& info =
                i < all_checks.size() ? all_checks[i] : regulation_f_checks[i - all_checks.size()];
            if (info.id != enum_values<CheckId>[i]) return false;
        }
        return true;
    }(),
    "all_checks then regulation_f_checks list every CheckId once, in the order of the enum");

// The catalogue entry of a check: its name and description.
[[nodiscard]] constexpr const CheckInfo& check_info(CheckId id) noexcept {
    for (const CheckInfo& info : all_checks) {
        if (info.id == id) return info;
    }
    for (const CheckInfo& info : regulation_f_checks) {
        if (info.id == id) return info;
    }
    return all_checks.front();  // not reached: the two lists hold every CheckId (above)
}

[[nodiscard]] inline Check make_check(const CheckInfo& info, std::string reason) {
    return Check{info.id, std::string(info.name), std::string(info.description), std::move(reason)};
}

}  // namespace collectcall::compliance
