// ASCII character classes and fixed-width digit scanners shared by the value types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

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

// Whether all eight bytes of `w` are ASCII digits: a byte is one when its high nibble is 3 and
// stays 3 after adding 6. Adding 6 carries into the next byte only from a byte of 0xFA or more,
// whose own high nibble already says no, so the verdict for the word is exact.
constexpr bool word_all_digits(std::uint64_t w) noexcept {
    constexpr std::uint64_t highs = 0xF0F0F0F0F0F0F0F0;
    constexpr std::uint64_t sixes = 0x0606060606060606;
    return ((w & highs) | (((w + sixes) & highs) >> 4)) == 0x3333333333333333;
}

// The bytes at p, p + n / 2 and p + n - 1 (1 <= n < 4) or two overlapping 4-byte loads (4 <= n
// <= 8), as one word: the word holds only bytes of the text, so a check that is true of every
// byte of the word is true of the text. Precondition: 1 <= n <= 8.
inline std::uint64_t load_short(const char* p, std::size_t n) noexcept {
    if (n >= 4) {
        std::uint32_t lo = 0;
        std::uint32_t hi = 0;
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + n - 4, 4);
        return lo | std::uint64_t{hi} << 32;
    }
    const std::uint64_t a = static_cast<unsigned char>(p[0]);
    const std::uint64_t b = static_cast<unsigned char>(p[n / 2]);
    const std::uint64_t c = static_cast<unsigned char>(p[n - 1]);
    return a | b << 8 | c << 16 | a << 24 | b << 32 | c << 40 | a << 48 | b << 56;
}

constexpr bool all_digits(std::string_view text) noexcept {
    if (std::is_constant_evaluated()) {
        for (char c : text) {
            if (!is_digit(c)) return false;
        }
        return true;
    }
    // Eight bytes at a time, the last word overlapping the one before it.
    const char* p = text.data();
    const std::size_t n = text.size();
    if (n == 0) return true;
    if (n <= 8) return word_all_digits(load_short(p, n));
    std::uint64_t w = 0;
    for (std::size_t i = 0; i + 8 < n; i += 8) {
        std::memcpy(&w, p + i, 8);
        if (!word_all_digits(w)) return false;
    }
    std::memcpy(&w, p + n - 8, 8);
    return word_all_digits(w);
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
