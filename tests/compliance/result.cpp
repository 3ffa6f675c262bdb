// The compliance result model (collectcall/model/compliance.hpp).
#include "collectcall/model/compliance.hpp"

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

using collectcall::Check;
using collectcall::ComplianceResult;

namespace {

template <class T>
std::vector<std::string> member_names() {
    std::vector<std::string> names;
    using members = boost::describe::describe_members<T, boost::describe::mod_public>;
    boost::mp11::mp_for_each<members>([&](auto member) { names.emplace_back(member.name); });
    return names;
}

}  // namespace

TEST_CASE("compliance result: the members are described with their wire names") {
    CHECK(member_names<Check>() == std::vector<std::string>{"id", "name", "description", "reason"});
    CHECK(member_names<ComplianceResult>() ==
          std::vector<std::string>{"passed", "checksPassed", "checksFailed"});
}

TEST_CASE("compliance result: a failed check has the shape of a passed one; equality is by value") {
    const Check check{collectcall::CheckId::is_active, "Is Active", "Customer is active",
                      "Customer is not active"};
    ComplianceResult a;
    CHECK_FALSE(a.passed);
    a.checksFailed.push_back(check);
    ComplianceResult b = a;
    CHECK(a == b);
    b.checksFailed.front().reason = "Customer is active";
    CHECK_FALSE(a == b);
}
