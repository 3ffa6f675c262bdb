#include <collectcall/types/e164.hpp>

#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

#include "parse_into.hpp"

using namespace std::literals;
using collectcall::E164;

TEST_CASE("E164 accepts + then 2 to 15 digits with a first digit 1-9", "[types][e164]") {
    const auto text = GENERATE(as<std::string_view>{}, "+12025550100", "+442071838750", "+12",
                               "+91", "+123456789012345", "+999999999999999", "+10000000000");
    INFO(text);
    const auto parsed = E164::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == text);
    CHECK(parsed.value().country_and_number() == text.substr(1));
}

TEST_CASE("E164 rejects everything else as a format error", "[types][e164]") {
    const auto text = GENERATE(as<std::string_view>{}, "", "+", "+1", "+0", "+01", "+0123456789",
                               "+1234567890123456",  // 16 digits
                               "12025550100", "0012025550100", "++12025550100", "+1 202 555 0100",
                               "+1-202-555-0100", "+1(202)5550100", "(202) 555-0100",
                               " +12025550100", "+12025550100 ", "+1202555010a", "+1202555010.",
                               "+１２０２５５５０１００",  // full-width digits
                               "+1202555\0"
                               "0100"sv,
                               "+12025550100\n");
    INFO(text);
    const auto parsed = E164::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "must be E.164: + then 2 to 15 digits, first digit 1-9");
}

TEST_CASE("E164 gives the NANP area code only for +1 and ten digits", "[types][e164]") {
    using row = std::tuple<std::string_view, std::string_view>;
    const auto [text, area] = GENERATE(table<std::string_view, std::string_view>({
        row{"+12025550100", "202"}, row{"+13125550100", "312"}, row{"+442071838750", ""},  // not +1
        row{"+1202555010", ""},    // +1 and nine digits
        row{"+120255501000", ""},  // +1 and eleven digits
        row{"+22025550100", ""},   // eleven digits but country 2
    }));
    INFO(text);
    CHECK(E164::parse(text).value().nanp_area_code() == area);
}

TEST_CASE("E164 equality compares the number", "[types][e164]") {
    const E164 a = E164::parse("+12025550100").value();
    const E164 b = E164::parse("+12025550100").value();
    const E164 c = E164::parse("+12025550101").value();
    const E164 d = E164::parse("+1202555010").value();
    CHECK(a == b);
    CHECK(a != c);
    CHECK(a != d);
    E164 copy = c;
    copy = a;
    CHECK(copy == a);
    CHECK(copy.view() == "+12025550100");
}

TEST_CASE("E164 holds its digits inline and validates without throwing", "[types][e164]") {
    STATIC_REQUIRE(std::is_trivially_copyable_v<E164>);
    STATIC_REQUIRE(noexcept(E164::parse("")));
}

TEST_CASE("E164::check gives the verdict of parse", "[types][e164]") {
    const auto text =
        GENERATE(as<std::string_view>{}, "+12125550123", "+44", "+4", "+0123", "12125550123",
                 "+1212555012a", "+1234567890123456", "+123456789012345", "", "+");
    INFO(text);
    const auto parsed = E164::parse(text);
    const auto problem = E164::check(text);
    CHECK(problem.has_value() != parsed.ok());
    if (problem) CHECK(problem->message == parsed.problem().message);
}

TEST_CASE("E164::parse_into gives parse()'s verdict and value, and keeps `out` on failure",
          "[types][e164]") {
    const auto text =
        GENERATE(as<std::string_view>{}, "+12", "+1234567", "+12345678", "+447911123456",
                 "+123456789012345", "+1234567890123456", "+0123", "12345", "+1 234", "");
    check_parse_into_agrees_with_parse<E164>(text, "+15551234567");
}
