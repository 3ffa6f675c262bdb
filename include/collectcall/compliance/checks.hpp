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
    CompliancePolicy
        policy;  // the policy that adds it (regulation-f evaluates the hosted ones too)
};

// Every check, in the order of CheckId: a check is this one entry, its enumerator, its function
// and its call in the engine (docs/architecture.md).
inline constexpr std::array catalogue{
    CheckInfo{
        CheckId::is_active,
        "Is Active",
        "Check if customer is active",
        CompliancePolicy::hosted,
    },
    CheckInfo{
        CheckId::cease_and_desist_exclusion,
        "Cease and Desist Exclusion",
        "Prevent calling customers who have requested cease and desist",
        CompliancePolicy::hosted,
    },
    CheckInfo{
        CheckId::four_voice_call_per_day,
        "Four Voice Call Per Day",
        "Check if customer has had four or fewer voice calls today within the current "
        "respectful hours window",
        CompliancePolicy::hosted,
    },
    CheckInfo{
        CheckId::respectful_hours,
        "Respectful Hours Check",
        "Check if the customer's local time is within respectful hours",
        CompliancePolicy::hosted,
    },
    // 12 CFR 1006.14(b)(2): at most 7 calls in 7 consecutive days, none in the 7 days after a
    // telephone conversation.
    CheckInfo{
        CheckId::call_frequency,
        "Call Frequency",
        "Check that no more than seven calls were placed within seven consecutive days and none "
        "within seven days after a telephone conversation (12 CFR 1006.14(b)(2))",
        CompliancePolicy::regulation_f,
    },
    // 12 CFR 1006.6(b)(1)(i): 08:00 to 21:00 wherever the customer may be, and not at a time the
    // customer designated inconvenient.
    CheckInfo{
        CheckId::inconvenient_time,
        "Inconvenient Time",
        "Check that the customer's local time is between 8am and 9pm in every zone the address "
        "and phone numbers suggest, and not a time the customer designated inconvenient "
        "(12 CFR 1006.6(b)(1)(i))",
        CompliancePolicy::regulation_f,
    },
    // 12 CFR 1006.14(h): a medium of communication (call, text message, e-mail) the customer
    // asked the collector not to use.
    CheckInfo{
        CheckId::medium_restriction,
        "Medium Restriction",
        "Check that the customer has not asked the collector not to use this medium of "
        "communication (12 CFR 1006.14(h))",
        CompliancePolicy::regulation_f,
    },
    // 15 U.S.C. 1692c(a)(2): a consumer known to be represented by an attorney.
    CheckInfo{
        CheckId::attorney_representation,
        "Attorney Representation",
        "Check that the customer is not known to be represented by an attorney about the debt "
        "(15 U.S.C. 1692c(a)(2))",
        CompliancePolicy::regulation_f,
    },
    // State law stricter than Regulation F (compliance/state_rules.hpp).
    CheckInfo{
        CheckId::state_call_limit,
        "State Call Limit",
        "Check the customer's state's limit on telephone communications, where it is stricter "
        "than Regulation F",
        CompliancePolicy::regulation_f,
    },
};
static_assert(
    [] {
        if (catalogue.size() != enum_values<CheckId>.size()) return false;
        for (std::size_t i = 0; i < catalogue.size(); ++i) {
            if (catalogue[i].id != enum_values<CheckId>[i]) return false;
            // The hosted checks come first: regulation-f evaluates them, then its own.
            if (i > 0 && catalogue[i].policy < catalogue[i - 1].policy) return false;
        }
        return true;
    }(),
    "the catalogue lists every CheckId once, in the order of the enum, the hosted checks first");

// The catalogue entry of a check: its name, description and policy.
[[nodiscard]] constexpr const CheckInfo& check_info(CheckId id) noexcept {
    return catalogue[static_cast<std::size_t>(id)];
}

namespace detail {
template <CompliancePolicy Policy>
[[nodiscard]] constexpr auto checks_added_by() {
    constexpr std::size_t count = [] {
        std::size_t n = 0;
        for (const CheckInfo& info : catalogue)
            n += info.policy == Policy ? 1 : 0;
        return n;
    }();
    std::array<CheckInfo, count> out{};
    std::size_t next = 0;
    for (const CheckInfo& info : catalogue) {
        if (info.policy == Policy) out[next++] = info;
    }
    return out;
}
}  // namespace detail

// The hosted policy's checks, in evaluation order. All of them are evaluated for every call, so
// a blocked call reports every reason at once.
inline constexpr auto all_checks = detail::checks_added_by<CompliancePolicy::hosted>();

// The checks the regulation-f policy evaluates after all_checks, in evaluation order.
inline constexpr auto regulation_f_checks =
    detail::checks_added_by<CompliancePolicy::regulation_f>();

[[nodiscard]] inline Check make_check(const CheckInfo& info, std::string reason) {
    return Check{info.id, std::string(info.name), std::string(info.description), std::move(reason)};
}

[[nodiscard]] inline Check make_check(CheckId id, std::string reason) {
    return make_check(check_info(id), std::move(reason));
}

}  // namespace collectcall::compliance
