// The compliance result of a call (SPEC.md 2.6): every check, passed or failed, with its reason.
#pragma once

#include <string>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include "collectcall/core/enum.hpp"

namespace collectcall {

// The checks of API.md section 8, in the order they are evaluated and reported; on the wire in
// kebab case ("is-active"). Their names and descriptions are in compliance/checks.hpp.
enum class CheckId {
    is_active,
    cease_and_desist_exclusion,
    four_voice_call_per_day,
    respectful_hours
};
BOOST_DESCRIBE_ENUM(CheckId, is_active, cease_and_desist_exclusion, four_voice_call_per_day,
                    respectful_hours)

struct Check {
    CheckId id = CheckId::is_active;
    std::string name;
    std::string description;
    std::string reason;  // the human-readable outcome

    friend bool operator==(const Check&, const Check&) = default;
};
BOOST_DESCRIBE_STRUCT(Check, (), (id, name, description, reason))

struct ComplianceResult {
    bool passed = false;
    std::vector<Check> checksPassed;
    std::vector<Check> checksFailed;

    friend bool operator==(const ComplianceResult&, const ComplianceResult&) = default;
};
BOOST_DESCRIBE_STRUCT(ComplianceResult, (), (passed, checksPassed, checksFailed))

}  // namespace collectcall
