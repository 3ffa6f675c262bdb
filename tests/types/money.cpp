#include <collectcall/types/money.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

#include <collectcall/core/value_type.hpp>

using namespace std::literals;
using collectcall::Money;

TEST_CASE("Money keeps awkward decimals exactly and writes them back plainly", "[types][money]") {
    using row = std::tuple<std::string_view, std::string_view, std::uint64_t, unsigned>;
    const auto [text, written, significand, scale] =
        GENERATE(table<std::string_view, std::string_view, std::uint64_t, unsigned>({
            row{"0", "0", 0, 0},
            row{"-0", "0", 0, 0},
            row{"-0.0", "0", 0, 0},
            row{"0.000", "0", 0, 0},
            row{"0e10", "0", 0, 0},
            row{"-0E-10", "0", 0, 0},
            row{"0.0e999999999999999999999999", "0", 0, 0},
            row{"0.1", "0.1", 1, 1},
            row{"0.01", "0.01", 1, 2},
            row{"0.3", "0.3", 3, 1},
            row{"0.30000000000000004", "0.30000000000000004", 30000000000000004, 17},
            row{"1234.56", "1234.56", 123456, 2},
            row{"19.99", "19.99", 1999, 2},
            row{"100", "100", 100, 0},
            row{"100.00", "100", 100, 0},
            row{"1.50", "1.5", 15, 1},
            row{"1.5", "1.5", 15, 1},
            row{"15e-1", "1.5", 15, 1},
            row{"10e-1", "1", 1, 0},
            row{"2e0", "2", 2, 0},
            row{"1e2", "100", 100, 0},
            row{"1E+2", "100", 100, 0},
            row{"1e+02", "100", 100, 0},
            row{"12.3400e1", "123.4", 1234, 1},
            row{"1.5e-3", "0.0015", 15, 4},
            row{"0.000001", "0.000001", 1, 6},
            row{"1e-19", "0.0000000000000000001", 1, 19},
            row{"0.1234567890123456789", "0.1234567890123456789", 1234567890123456789, 19},
            row{"123456789.0123456789", "123456789.0123456789", 1234567890123456789, 10},
            row{"4.2e15", "4200000000000000", 4200000000000000, 0},
            row{"9007199254740991", "9007199254740991", 9007199254740991, 0},
            row{"9007199254740992", "9007199254740992", 9007199254740992, 0},
            row{"9007199254740992.000", "9007199254740992", 9007199254740992, 0},
            row{"9.007199254740992e15", "9007199254740992", 9007199254740992, 0},
            row{"90071992547409920e-1", "9007199254740992", 9007199254740992, 0},
            row{"9007199254740991.999", "9007199254740991.999", 9007199254740991999, 3},
            row{"0.00000000000000000000000000000000000000000001e30", "0.00000000000001", 1, 14},
            row{"1000000000000000000000e-10", "100000000000", 100000000000, 0},
        }));
    INFO(text);
    const auto parsed = Money::from_json_number(text);
    REQUIRE(parsed.ok());
    const Money& money = parsed.value();
    CHECK(money.to_string() == written);
    CHECK(money.significand() == significand);
    CHECK(money.scale() == scale);

    std::string out = "[";
    money.append_json(out);
    CHECK(out == "[" + std::string(written));

    // The written text reads back as the same value, and plain parse() agrees.
    CHECK(Money::parse(written).value() == money);
    CHECK(Money::parse(text).value() == money);
}

TEST_CASE("Money refuses negative, too large and too precise values", "[types][money]") {
    using row = std::tuple<std::string_view, std::string_view, std::string_view>;
    const auto [text, code, message] =
        GENERATE(table<std::string_view, std::string_view, std::string_view>({
            row{"-0.01", "minimum", "must be >= 0"},
            row{"-1", "minimum", "must be >= 0"},
            row{"-1e400", "minimum", "must be >= 0"},
            row{"-1e-400", "minimum", "must be >= 0"},
            row{"9007199254740993", "range", "must be at most 9007199254740992 (2^53)"},
            row{"9007199254740992.5", "range", "must be at most 9007199254740992 (2^53)"},
            row{"9007199254740992.0000000001", "range", "must be at most 9007199254740992 (2^53)"},
            row{"9.007199254740993e15", "range", "must be at most 9007199254740992 (2^53)"},
            row{"10000000000000000", "range", "must be at most 9007199254740992 (2^53)"},
            row{"1e16", "range", "must be at most 9007199254740992 (2^53)"},
            row{"99999999999999999999", "range", "must be at most 9007199254740992 (2^53)"},
            row{"1e400", "range", "must be at most 9007199254740992 (2^53)"},
            row{"1e99999999999999999999", "range", "must be at most 9007199254740992 (2^53)"},
            row{"0.12345678901234567891", "format", "must have at most 19 significant digits"},
            row{"1.2345678901234567891", "format", "must have at most 19 significant digits"},
            row{"1234567890.1234567891", "format", "must have at most 19 significant digits"},
            row{"1e-20", "format", "must have at most 19 digits after the decimal point"},
            row{"0.00000000000000000001", "format",
                "must have at most 19 digits after the decimal point"},
            row{"1e-400", "format", "must have at most 19 digits after the decimal point"},
            row{"1e-99999999999999999999", "format",
                "must have at most 19 digits after the decimal point"},
        }));
    INFO(text);
    const auto parsed = Money::from_json_number(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == code);
    CHECK(parsed.problem().message == message);
    CHECK(Money::parse(text).problem().code == code);
}

TEST_CASE("Money::parse accepts the JSON number grammar and nothing else", "[types][money]") {
    const auto text =
        GENERATE(as<std::string_view>{}, "", "-", "+1", ".5", "5.", "01", "-01", "00", "1e", "1e+",
                 "1E-", "1.e2", "1.5e", " 1", "1 ", "1,5", "1_000", "0x10", "NaN", "Infinity",
                 "-Infinity", "abc", "1.2.3", "1e2e3", "--1", "１", "1\0"sv);
    INFO(text);
    const auto parsed = Money::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "must be a number");
}

TEST_CASE("Money equality compares values, not spellings", "[types][money]") {
    const Money a = Money::parse("1.5").value();
    CHECK(a == Money::parse("1.50").value());
    CHECK(a == Money::parse("15e-1").value());
    CHECK(a == Money::parse("0.015e2").value());
    CHECK(a != Money::parse("1.05").value());
    CHECK(a != Money::parse("15").value());
    CHECK(Money::parse("0").value() == Money::parse("-0.000e5").value());
    CHECK(Money::parse("100").value() == Money::parse("1e2").value());
}

TEST_CASE("Money meets the number-value contract and holds no heap state", "[types][money]") {
    STATIC_REQUIRE(collectcall::NumberValue<Money>);
    STATIC_REQUIRE(std::is_trivially_copyable_v<Money>);
    STATIC_REQUIRE(noexcept(Money::parse("")));
}

TEST_CASE("Money's plain fast path agrees with the general reading", "[types][money]") {
    // "e0" keeps the value and sends the text through the general reading; every plain text up
    // to the fast path's limits (and past them) must get the same verdict and value both ways.
    std::uint64_t state = 12345;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<unsigned>(state >> 33);
    };
    std::size_t compared = 0;
    for (int n = 0; n < 20000; ++n) {
        std::string text;
        const unsigned int_digits = next() % 18;  // 0 (no integer part) to 17 digits
        for (unsigned i = 0; i < int_digits; ++i)
            text +=
                static_cast<char>('0' + (i == 0 && next() % 4 != 0 ? 1 + next() % 9 : next() % 10));
        if (next() % 3 != 0) {
            text += '.';
            const unsigned decimals = next() % 7;  // 0 (malformed) to 6
            for (unsigned i = 0; i < decimals; ++i)
                text += static_cast<char>('0' + (next() % 3 == 0 ? 0 : next() % 10));
        }
        INFO(text);
        const auto fast = Money::parse(text);
        const auto general = Money::parse(text + "e0");
        REQUIRE(fast.ok() == general.ok());
        if (fast.ok()) {
            CHECK(fast.value() == general.value());
            CHECK(fast.value().to_string() == general.value().to_string());
        } else {
            CHECK(fast.problem().code == general.problem().code);
        }
        ++compared;
    }
    CHECK(compared == 20000);
}
