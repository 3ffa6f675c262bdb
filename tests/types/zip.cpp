#include <collectcall/types/zip.hpp>

#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

#include "parse_into.hpp"

using namespace std::literals;
using collectcall::Zip;

TEST_CASE("Zip accepts 12345 and 12345-1234", "[types][zip]") {
    using row = std::tuple<std::string_view, std::string_view>;
    const auto [text, five] = GENERATE(table<std::string_view, std::string_view>({
        row{"12345", "12345"},
        row{"00501", "00501"},
        row{"12345-6789", "12345"},
        row{"99950-0001", "99950"},
        row{"00000-0000", "00000"},
    }));
    INFO(text);
    const auto parsed = Zip::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == text);
    CHECK(parsed.value().five() == five);
}

TEST_CASE("Zip rejects other shapes as a format error", "[types][zip]") {
    const auto text =
        GENERATE(as<std::string_view>{}, "", "1234", "123456", "123451234", "12345-", "12345-123",
                 "12345-12345", "12345 1234", "12345_1234", "12345--1234", "-12345", " 12345",
                 "12345 ", "1234a", "12345-123a", "abcde",
                 "１２３４５",      // full-width digits
                 "12345-１２３４",  // full-width extension
                 "١٢٣٤٥",           // Arabic-Indic digits
                 "123\0"
                 "5"sv);
    INFO(text);
    const auto parsed = Zip::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "must be 12345 or 12345-1234");
}

TEST_CASE("Zip equality distinguishes the +4 extension", "[types][zip]") {
    CHECK(Zip::parse("12345").value() == Zip::parse("12345").value());
    CHECK(Zip::parse("12345").value() != Zip::parse("12345-0000").value());
    CHECK(Zip::parse("12345-0001").value() != Zip::parse("12345-0002").value());
    STATIC_REQUIRE(std::is_trivially_copyable_v<Zip>);
}

TEST_CASE("Zip::parse_into gives parse()'s verdict and value, and keeps `out` on failure",
          "[types][zip]") {
    const auto text = GENERATE(as<std::string_view>{}, "12345", "12345-6789", "00000", "1234",
                               "123456", "12345-678", "12345 6789", "1234a", "", "12345-67890");
    check_parse_into_agrees_with_parse<Zip>(text, "99999");
}
