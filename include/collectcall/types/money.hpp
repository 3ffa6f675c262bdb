// Money: an exact non-negative decimal read from a number's own text, written back digit for digit.
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

// The value is significand × 10^-scale, normalised (no trailing zeros in the significand when
// scale > 0; zero is 0 × 10^0), so that 1.50, 1.5 and 15e-1 are the same Money and the defaulted
// == compares values. A binary double cannot hold 0.1 or 1234.56, so none is ever involved:
// the text is scanned digit by digit and an exponent only moves the decimal point.
class Money {
  public:
    // Zero, so that structs holding a Money can be built member by member; read<T> never returns
    // it for a required member that was not sent.
    Money() = default;

    static constexpr unsigned max_significant_digits = 19;  // every 19-digit integer fits 64 bits
    static constexpr unsigned max_scale = 19;               // and so does 10^19
    static constexpr std::uint64_t max_value = 9007199254740992;  // 2^53, API.md section 4

    // Precondition: `token` is a JSON number (the reader has checked it). It is checked again
    // anyway, which costs nothing next to the scan.
    static Parsed<Money> from_json_number(std::string_view token) noexcept { return parse(token); }

    // The same rules for plain text, e.g. a value loaded back from a database. The accepted
    // syntax is the JSON number grammar (so "1234.56" and "1.5e3", but not "+1", ".5", "01"
    // or " 1"). In order: not a number is `format`; a negative non-zero value is `minimum`
    // (-0 and -0.0 are zero); above 2^53 is `range`; more than 19 significant digits or
    // more than 19 digits after the decimal point is `format` (1e-400 is such a number, 1e400
    // is out of range).
    static Parsed<Money> parse(std::string_view text) noexcept {
        if (std::optional<Money> plain = parse_plain(text)) return *plain;
        constexpr Problem not_number{codes::format, "must be a number"};
        const std::size_t size = text.size();
        std::size_t at = 0;
        const bool negative = at < size && text[at] == '-';
        if (negative) ++at;

        const std::size_t int_begin = at;
        if (at < size && text[at] == '0') {
            ++at;
        } else if (at < size && detail::is_digit(text[at])) {
            while (at < size && detail::is_digit(text[at]))
                ++at;
        } else {
            return not_number;
        }
        const std::string_view int_digits = text.substr(int_begin, at - int_begin);

        std::string_view frac_digits;
        if (at < size && text[at] == '.') {
            const std::size_t begin = ++at;
            while (at < size && detail::is_digit(text[at]))
                ++at;
            if (at == begin) return not_number;
            frac_digits = text.substr(begin, at - begin);
        }

        // Saturates: any exponent this large already decides the outcome (zero, range or too
        // many decimal places), and the arithmetic below stays far from overflow.
        constexpr std::int64_t exponent_cap = 1'000'000'000'000;
        std::int64_t exponent = 0;
        if (at < size && (text[at] == 'e' || text[at] == 'E')) {
            ++at;
            bool negative_exponent = false;
            if (at < size && (text[at] == '+' || text[at] == '-')) {
                negative_exponent = text[at] == '-';
                ++at;
            }
            const std::size_t begin = at;
            for (; at < size && detail::is_digit(text[at]); ++at) {
                if (exponent < exponent_cap) exponent = exponent * 10 + (text[at] - '0');
            }
            if (at == begin) return not_number;
            if (negative_exponent) exponent = -exponent;
        }
        if (at != size) return not_number;

        // The digits of integer and fraction part read as one string D; the decimal point sits
        // after int_digits.size() digits of D, then moves by the exponent.
        const std::size_t count = int_digits.size() + frac_digits.size();
        const auto digit = [&](std::size_t i) -> unsigned {
            if (i >= count) return 0;  // zeros appended by a positive exponent
            const char c =
                i < int_digits.size() ? int_digits[i] : frac_digits[i - int_digits.size()];
            return static_cast<unsigned>(c - '0');
        };
        std::size_t first = 0;  // first non-zero digit of D
        while (first < count && digit(first) == 0)
            ++first;
        if (first == count) return Money(0, 0);
        if (negative) return Problem{codes::minimum, "must be >= 0"};
        std::size_t last = count - 1;  // last non-zero digit of D
        while (digit(last) == 0)
            --last;

        const auto point = static_cast<std::int64_t>(int_digits.size()) + exponent;
        // The value is d.ddd × 10^magnitude, d being D[first].
        const std::int64_t magnitude = point - 1 - static_cast<std::int64_t>(first);
        constexpr Problem too_large{codes::range, "must be at most 9007199254740992 (2^53)"};
        if (magnitude >= 16) return too_large;  // >= 10^16 > 2^53
        if (magnitude == 15) {
            std::uint64_t integer = 0;
            for (std::size_t i = first; i <= first + 15; ++i)
                integer = integer * 10 + digit(i);
            if (integer > max_value || (integer == max_value && last > first + 15)) {
                return too_large;
            }
        }
        if (last - first + 1 > max_significant_digits) {
            return Problem{codes::format, "must have at most 19 significant digits"};
        }
        // Exponent of the last significant digit: the scale when negative.
        const std::int64_t low = point - 1 - static_cast<std::int64_t>(last);
        if (low < -static_cast<std::int64_t>(max_scale)) {
            return Problem{codes::format, "must have at most 19 digits after the decimal point"};
        }

        std::uint64_t significand = 0;
        for (std::size_t i = first; i <= last; ++i)
            significand = significand * 10 + digit(i);
        // A value below 10^16 with its last significant digit at 10^low: low <= 15.
        for (std::int64_t i = 0; i < low; ++i)
            significand *= 10;
        return Money(significand, low < 0 ? static_cast<unsigned>(-low) : 0U);
    }

    // The shape nearly every amount has, read in one pass: an integer part of at most 15 digits
    // (below 10^15, so within 2^53) and at most 4 decimals, no sign, no exponent. nullopt for
    // anything else, which parse() then reads in general; both give the same value.
    static std::optional<Money> parse_plain(std::string_view text) noexcept {
        std::size_t length = 0;
        std::optional<Money> plain = parse_plain_prefix(text, length);
        if (length != text.size()) return std::nullopt;
        return plain;
    }

    // parse_plain() of the front of `text`: the plain shape up to the first byte that is neither a
    // digit nor its one decimal point, its size in `length` (value_type.hpp). "0" takes only its
    // zero: "012" is a 0 followed by more.
    static std::optional<Money> parse_plain_prefix(std::string_view text,
                                                   std::size_t& length) noexcept {
        const std::size_t n = text.size();
        if (n == 0 || !detail::is_digit(text[0])) return std::nullopt;
        std::uint64_t value = 0;
        std::size_t i = 0;
        if (text[0] == '0') {
            i = 1;
        } else {
            for (; i < n && detail::is_digit(text[i]); ++i) {
                if (i == 15) return std::nullopt;
                value = value * 10 + static_cast<unsigned>(text[i] - '0');
            }
        }
        unsigned scale = 0;
        if (i < n && text[i] == '.') {
            const std::size_t begin = ++i;
            for (; i < n && detail::is_digit(text[i]); ++i) {
                if (i - begin == 4) return std::nullopt;
                value = value * 10 + static_cast<unsigned>(text[i] - '0');
                ++scale;
            }
            if (i == begin) return std::nullopt;
            // Trailing zeros of the decimals, found in the text: the usual amount has none and
            // needs no division (a 64-bit divide by a variable is the slowest step here).
            while (scale > 0 && text[begin + scale - 1] == '0') {
                value = value / 10;  // by a constant: a multiply
                --scale;
            }
        }
        length = i;
        return Money(value, scale);
    }

    // Plain decimal notation, no exponent, no trailing zeros: 1234.56, 0.1, 100, 0.
    void append_json(std::string& out) const {
        std::array<char, 20> digits{};  // 2^64 - 1 has 20 digits
        const auto written =
            std::to_chars(digits.data(), digits.data() + digits.size(), significand_);
        const auto n = static_cast<std::size_t>(written.ptr - digits.data());
        if (scale_ == 0) {
            out.append(digits.data(), n);
        } else if (n > scale_) {
            out.append(digits.data(), n - scale_);
            out += '.';
            out.append(digits.data() + (n - scale_), scale_);
        } else {
            out += "0.";
            out.append(scale_ - n, '0');
            out.append(digits.data(), n);
        }
    }

    [[nodiscard]] std::string to_string() const {
        std::string out;
        append_json(out);
        return out;
    }

    [[nodiscard]] std::uint64_t significand() const noexcept { return significand_; }
    [[nodiscard]] unsigned scale() const noexcept { return scale_; }

    friend bool operator==(const Money&, const Money&) = default;

  private:
    Money(std::uint64_t significand, unsigned scale) noexcept
        : significand_(significand), scale_(scale) {}

    std::uint64_t significand_ = 0;
    unsigned scale_ = 0;
};

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Money>, Schema& s) {
    using Json = std::remove_cvref_t<decltype(s.schema())>;
    s["type"] = "number";
    s["description"] =
        "Exact decimal amount >= 0, at most 2^53, at most 19 significant digits and 19 decimal "
        "places; echoed in plain notation without trailing zeros";
    s["minimum"] = 0;
    s["maximum"] = static_cast<std::int64_t>(Money::max_value);
    s["examples"].push_back(Json::number("1234.56"));
}

}  // namespace collectcall
