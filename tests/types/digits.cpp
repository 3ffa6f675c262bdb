#include <collectcall/types/digits.hpp>

#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

#include "parse_into.hpp"

using namespace std::literals;
using collectcall::Digits;

TEST_CASE("Digits<4> accepts exactly four ASCII digits", "[types][digits]") {
    const auto text = GENERATE(as<std::string_view>{}, "1234", "0000", "9999", "0042");
    const auto parsed = Digits<4>::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == text);
}

TEST_CASE("Digits<4> reports a wrong count as length and a wrong character as format",
          "[types][digits]") {
    using row = std::tuple<std::string_view, std::string_view>;
    const auto [text, code] = GENERATE(table<std::string_view, std::string_view>({
        row{"", "length"},
        row{"123", "length"},
        row{"12345", "length"},
        row{"12-34", "length"},
        row{" 1234", "length"},
        row{"abc", "length"},
        row{"12a4", "format"},
        row{"-123", "format"},
        row{"12 4", "format"},
        row{"1.23", "format"},
        row{"１２３４", "format"},  // four full-width digits: four characters, none ASCII
        row{"١٢٣٤", "format"},      // Arabic-Indic digits
        row{"123\0"sv, "format"},
    }));
    INFO(text);
    const auto parsed = Digits<4>::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == code);
    if (code == "length") {
        CHECK(parsed.problem().message == "must be exactly 4 digits");
    } else {
        CHECK(parsed.problem().message == "must contain only the digits 0-9");
    }
}

TEST_CASE("Digits<N> says N in its message", "[types][digits]") {
    CHECK(Digits<1>::parse("12").problem().message == "must be exactly 1 digit");
    CHECK(Digits<10>::parse("12").problem().message == "must be exactly 10 digits");
    CHECK(Digits<123>::parse("12").problem().message == "must be exactly 123 digits");
    CHECK(Digits<10>::parse("0123456789").value().view() == "0123456789");
    CHECK(Digits<1>::parse("7").value().view() == "7");
}

TEST_CASE("Digits<N> equality and storage", "[types][digits]") {
    CHECK(Digits<4>::parse("1234").value() == Digits<4>::parse("1234").value());
    CHECK(Digits<4>::parse("1234").value() != Digits<4>::parse("1235").value());
    STATIC_REQUIRE(std::is_trivially_copyable_v<Digits<4>>);
    STATIC_REQUIRE(sizeof(Digits<4>) == 4);
}

TEST_CASE("Digits::parse_into gives parse()'s verdict and value, and keeps `out` on failure",
          "[types][digits]") {
    const auto text =
        GENERATE(as<std::string_view>{}, "1234", "0000", "123", "12345", "12a4", "１２３４", "");
    check_parse_into_agrees_with_parse<Digits<4>>(text, "9876");
}
