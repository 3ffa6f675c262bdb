#include "collectcall/compliance/checks.hpp"

#include <catch2/catch.hpp>

using collectcall::compliance::all_checks;
using collectcall::compliance::make_check;
namespace checks = collectcall::compliance::checks;

TEST_CASE("checks: every check, in evaluation order, with its human name") {
    REQUIRE(all_checks.size() == 4);
    CHECK(all_checks[0].id == "is-active");
    CHECK(all_checks[1].id == "cease-and-desist-exclusion");
    CHECK(all_checks[2].id == "four-voice-call-per-day");
    CHECK(all_checks[3].id == "respectful-hours");
    CHECK(all_checks[0].name == "Is Active");
    CHECK(all_checks[1].name == "Cease and Desist Exclusion");
    CHECK(all_checks[2].name == "Four Voice Calls Per Day");
    CHECK(all_checks[3].name == "Respectful Hours");
    for (const auto& check : all_checks)
        CHECK_FALSE(check.description.empty());
}

TEST_CASE("checks: make_check copies the check's data and adds the reason") {
    const auto check = make_check(checks::is_active, "Customer is active");
    CHECK(check.id == "is-active");
    CHECK(check.name == "Is Active");
    CHECK(check.description == "Customer is active");
    CHECK(check.reason == "Customer is active");
}
