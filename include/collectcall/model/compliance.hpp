// The compliance result of a call (SPEC.md 2.6): every check, passed or failed, with its reason.
#pragma once

#include <string>
#include <vector>

#include <boost/describe/class.hpp>

namespace collectcall {

struct Check {
    std::string id;
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
