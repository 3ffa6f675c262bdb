#include <collectcall/types/us_state.hpp>

#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

#include "parse_into.hpp"

using collectcall::UsState;

TEST_CASE("UsState accepts every USPS code of API.md", "[types][us_state]") {
    const auto text = GENERATE(
        as<std::string_view>{}, "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI",
        "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT",
        "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD",
        "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",  // the 50 states
        "DC", "PR", "GU", "VI", "AS", "MP", "FM", "MH", "PW", "AA", "AE", "AP");
    const auto parsed = UsState::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == text);
}

TEST_CASE("UsState knows exactly 62 distinct codes", "[types][us_state]") {
    REQUIRE(UsState::all_codes.size() == 2 * 62);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < UsState::all_codes.size(); i += 2) {
        seen.emplace(UsState::all_codes.substr(i, 2));
    }
    CHECK(seen.size() == 62);
}

TEST_CASE("UsState accepts any letter case and keeps the upper-case code", "[types][us_state]") {
    for (std::string_view text : {"ny", "Ny", "nY", "NY"}) {
        INFO(text);
        const auto parsed = UsState::parse(text);
        REQUIRE(parsed.ok());
        CHECK(parsed.value().view() == "NY");
    }
    CHECK(UsState::parse("aa").value().view() == "AA");
    CHECK(UsState::parse("pw").value().view() == "PW");
}

TEST_CASE("UsState rejects unknown and malformed codes", "[types][us_state]") {
    const auto text = GENERATE(as<std::string_view>{}, "xx", "uk", "XX", "AB", "UK", "n1", "1n",
                               "CZ",  // Canal Zone, retired
                               "N", "NYC", "", " NY", "NY ", "N Y", "New York", "ＮＹ");
    INFO(text);
    const auto parsed = UsState::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "must be a two-letter USPS state code, e.g. NY");
}

TEST_CASE("UsState equality and storage", "[types][us_state]") {
    CHECK(UsState::parse("NY").value() == UsState::parse("NY").value());
    CHECK(UsState::parse("NY").value() != UsState::parse("NJ").value());
    STATIC_REQUIRE(std::is_trivially_copyable_v<UsState>);
}

TEST_CASE("UsState accepts exactly the listed codes among all pairs of uppercase letters",
          "[types][us_state]") {
    std::size_t accepted = 0;
    for (char a = 'A'; a <= 'Z'; ++a) {
        for (char b = 'A'; b <= 'Z'; ++b) {
            const std::string code{a, b};
            bool listed = false;
            for (std::size_t i = 0; i < collectcall::UsState::all_codes.size(); i += 2)
                listed = listed || collectcall::UsState::all_codes.substr(i, 2) == code;
            INFO(code);
            CHECK(collectcall::UsState::parse(code).ok() == listed);
            accepted += listed ? 1 : 0;
        }
    }
    CHECK(accepted == 62);
}

TEST_CASE("UsState::parse_into gives parse()'s verdict and value, and keeps `out` on failure",
          "[types][us_state]") {
    const auto text =
        GENERATE(as<std::string_view>{}, "NY", "ny", "Gu", "XX", "N", "NYC", "1A", "");
    check_parse_into_agrees_with_parse<UsState>(text, "CA");
}
