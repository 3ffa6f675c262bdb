#include "collectcall/compliance/checks.hpp"

#include <catch2/catch.hpp>

using collectcall::compliance::all_checks;
using collectcall::compliance::make_check;

TEST_CASE("checks: every check, in evaluation order, with its human name") {
    REQUIRE(all_checks.size() == 4);
    CHECK(collectcall::enum_name(all_checks[0].id) == "is-active");
    CHECK(collectcall::enum_name(all_checks[1].id) == "cease-and-desist-exclusion");
    CHECK(collectcall::enum_name(all_checks[2].id) == "four-voice-call-per-day");
    CHECK(collectcall::enum_name(all_checks[3].id) == "respectful-hours");
    CHECK(all_checks[0].name == "Is Active");
    CHECK(all_checks[1].name == "Cease and Desist Exclusion");
    CHECK(all_checks[2].name == "Four Voice Call Per Day");
    CHECK(all_checks[3].name == "Respectful Hours Check");
    // The hosted service's descriptions, word for word (API.md section 8).
    CHECK(all_checks[0].description == "Check if customer is active");
    CHECK(all_checks[1].description ==
          "Prevent calling customers who have requested cease and desist");
    CHECK(all_checks[2].description ==
          "Check if customer has had four or fewer voice calls today within the current "
          "respectful hours window");
    CHECK(all_checks[3].description ==
          "Check if the customer's local time is within respectful hours");
}

TEST_CASE("checks: make_check copies the check's data and adds the reason") {
    const auto check = make_check(collectcall::CheckId::is_active, "Customer is active");
    CHECK(collectcall::enum_name(check.id) == "is-active");
    CHECK(check.name == "Is Active");
    CHECK(check.description == "Check if customer is active");
    CHECK(check.reason == "Customer is active");
}

TEST_CASE("checks: check_info finds every check of both policies by its id") {
    using collectcall::CheckId;
    using collectcall::compliance::check_info;
    STATIC_REQUIRE(check_info(CheckId::state_call_limit).name == "State Call Limit");
    for (const auto& info : all_checks) {
        CHECK(check_info(info.id).name == info.name);
        CHECK(info.policy == collectcall::CompliancePolicy::hosted);
    }
    for (const auto& info : collectcall::compliance::regulation_f_checks) {
        CHECK(check_info(info.id).name == info.name);
        CHECK(info.policy == collectcall::CompliancePolicy::regulation_f);
    }
    // Both lists together are the catalogue, in the order of the enum.
    REQUIRE(all_checks.size() + collectcall::compliance::regulation_f_checks.size() ==
            collectcall::enum_values<CheckId>.size());
    CHECK(collectcall::compliance::regulation_f_checks.front().id == CheckId::call_frequency);
    for (CheckId id : collectcall::enum_values<CheckId>)
        CHECK(check_info(id).id == id);
}
