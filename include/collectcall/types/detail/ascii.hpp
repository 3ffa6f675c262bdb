// ASCII character classes and fixed-width digit scanners shared by the value types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace collectcall::detail {

// Not <cctype>: its answers depend on the C locale and it is undefined for negative chars,
// while every rule here is about ASCII and nothing else (a full-width digit is not a digit).
constexpr bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}
constexpr bool is_upper(char c) noexcept {
    return c >= 'A' && c <= 'Z';
}
constexpr bool is_lower(char c) noexcept {
    return c >= 'a' && c <= 'z';
}
constexpr bool is_alpha(char c) noexcept {
    return is_upper(c) || is_lower(c);
}
constexpr bool is_alnum(char c) noexcept {
    return is_alpha(c) || is_digit(c);
}
constexpr bool is_hex(char c) noexcept {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

constexpr char to_lower(char c) noexcept {
    return is_upper(c) ? static_cast<char>(c + 32) : c;
}

// Precondition: is_hex(c).
constexpr std::uint8_t hex_value(char c) noexcept {
    if (is_digit(c)) return static_cast<std::uint8_t>(c - '0');
    return static_cast<std::uint8_t>(to_lower(c) - 'a' + 10);
}

constexpr bool all_digits(std::string_view text) noexcept {
    for (char c : text) {
        if (!is_digit(c)) return false;
    }
    return true;
}

// Precondition: all_digits(text) and text.size() <= 9, so the value cannot overflow.
constexpr unsigned digits_value(std::string_view text) noexcept {
    unsigned value = 0;
    for (char c : text)
        value = value * 10 + static_cast<unsigned>(c - '0');
    return value;
}

// Writes `value` as exactly `width` decimal digits, zero-padded; the caller guarantees it fits.
constexpr void write_digits(char* out, unsigned value, std::size_t width) noexcept {
    for (std::size_t i = width; i > 0; --i) {
        out[i - 1] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
}

// Without leading and trailing spaces and horizontal tabs: HTTP's optional white space around a
// field value or a list element (RFC 9110, section 5.6.3).
constexpr std::string_view trim_blanks(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// ASCII case-insensitive comparison against a lowercase literal.
constexpr bool iequals_lower(std::string_view text, std::string_view lower) noexcept {
    if (text.size() != lower.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (to_lower(text[i]) != lower[i]) return false;
    }
    return true;
}

}  // namespace collectcall::detail
