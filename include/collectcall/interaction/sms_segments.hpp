// How many segments an SMS takes, as a carrier counts them (3GPP TS 23.038 and 23.040; API.md
// section 13).
//
// A text made only of characters of the GSM 03.38 7-bit default alphabet and its extension table
// is sent in GSM-7: one segment holds 160 septets, a segment of a concatenated message 153 (the
// concatenation header takes the other seven). A character of the extension table (form feed,
// ^ { } \ [ ~ ] | and the euro sign) is an escape and the character: two septets. Any other
// character makes the whole text UCS-2: one segment holds 70 UTF-16 code units, a segment of a
// concatenated message 67, and a character outside the Basic Multilingual Plane (an emoji) is two
// code units. As senders do, a two-unit character (an escape pair, a surrogate pair) is never
// split between two segments: when it does not fit in what is left of one, the segment ends early.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "collectcall/core/utf8.hpp"

namespace collectcall::sms {

enum class Encoding { gsm7, ucs2 };

// One segment alone, and each segment of a concatenated message.
inline constexpr std::size_t gsm7_single = 160;
inline constexpr std::size_t gsm7_concatenated = 153;
inline constexpr std::size_t ucs2_single = 70;
inline constexpr std::size_t ucs2_concatenated = 67;

// The characters of the default alphabet (one septet), in the order of the standard's table.
inline constexpr char32_t gsm7_basic[] = {
    U'@', U'£', U'$', U'¥', U'è', U'é', U'ù', U'ì', U'ò',  U'Ç', U'\n', U'Ø', U'ø', U'\r', U'Å',
    U'å', U'Δ', U'_', U'Φ', U'Γ', U'Λ', U'Ω', U'Π', U'Ψ',  U'Σ', U'Θ',  U'Ξ', U'Æ', U'æ',  U'ß',
    U'É', U' ', U'!', U'"', U'#', U'¤', U'%', U'&', U'\'', U'(', U')',  U'*', U'+', U',',  U'-',
    U'.', U'/', U'0', U'1', U'2', U'3', U'4', U'5', U'6',  U'7', U'8',  U'9', U':', U';',  U'<',
    U'=', U'>', U'?', U'¡', U'A', U'B', U'C', U'D', U'E',  U'F', U'G',  U'H', U'I', U'J',  U'K',
    U'L', U'M', U'N', U'O', U'P', U'Q', U'R', U'S', U'T',  U'U', U'V',  U'W', U'X', U'Y',  U'Z',
    U'Ä', U'Ö', U'Ñ', U'Ü', U'§', U'¿', U'a', U'b', U'c',  U'd', U'e',  U'f', U'g', U'h',  U'i',
    U'j', U'k', U'l', U'm', U'n', U'o', U'p', U'q', U'r',  U's', U't',  U'u', U'v', U'w',  U'x',
    U'y', U'z', U'ä', U'ö', U'ñ', U'ü', U'à',
};
static_assert(sizeof gsm7_basic / sizeof gsm7_basic[0] == 127,
              "the default alphabet has 128 positions, one of which (0x1B) is the escape");

// The characters of the extension table (an escape and the character: two septets).
inline constexpr char32_t gsm7_extension[] = {U'\f', U'^', U'{', U'}', U'\\',
                                              U'[',  U'~', U']', U'|', U'€'};

namespace detail {

// Septets of the characters below U+0100 (Latin-1), looked up rather than searched for.
inline constexpr auto latin1_septets = [] {
    std::array<unsigned char, 0x100> table{};
    for (char32_t c : gsm7_basic) {
        if (c < 0x100) table[c] = 1;
    }
    for (char32_t c : gsm7_extension) {
        if (c < 0x100) table[c] = 2;
    }
    return table;
}();

}  // namespace detail

// Septets a character takes in GSM-7: 1, 2, or 0 when the default alphabet cannot send it.
[[nodiscard]] constexpr std::size_t gsm7_septets(char32_t c) noexcept {
    if (c < 0x100) return detail::latin1_septets[c];
    for (char32_t basic : gsm7_basic) {
        if (basic == c) return 1;
    }
    for (char32_t extended : gsm7_extension) {
        if (extended == c) return 2;
    }
    return 0;
}

struct Segments {
    Encoding encoding = Encoding::gsm7;
    std::size_t units = 0;  // septets (GSM-7) or UTF-16 code units (UCS-2)
    std::size_t count = 1;  // segments
    friend bool operator==(const Segments&, const Segments&) = default;
};

namespace detail {

// Calls `each(code_point)` for every character of UTF-8 `text`; a byte that does not start a
// well-formed sequence stands for U+FFFD, as a sender would replace it.
template <class Each>
void for_each_code_point(std::string_view text, Each&& each) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        if (s[i] < 0x80) {
            each(static_cast<char32_t>(s[i]));
            ++i;
            continue;
        }
        const std::size_t length = collectcall::detail::utf8_sequence_length(s + i, n - i);
        if (length == 0) {
            each(char32_t{0xFFFD});
            ++i;
            continue;
        }
        char32_t c = s[i] & (length == 2 ? 0x1FU : length == 3 ? 0x0FU : 0x07U);
        for (std::size_t k = 1; k < length; ++k)
            c = c << 6 | (s[i + k] & 0x3FU);
        each(c);
        i += length;
    }
}

// Segments of `per_segment` units holding characters of 1 or 2 units, none split.
class Packer {
  public:
    explicit constexpr Packer(std::size_t per_segment) noexcept : per_segment_(per_segment) {}
    constexpr void add(std::size_t units) noexcept {
        if (used_ + units > per_segment_) {
            ++count_;
            used_ = 0;
        }
        used_ += units;
    }
    [[nodiscard]] constexpr std::size_t count() const noexcept { return count_; }

  private:
    std::size_t per_segment_;
    std::size_t used_ = 0;
    std::size_t count_ = 1;
};

}  // namespace detail

// The encoding, size and segment count of an SMS whose text is `text` (UTF-8). An empty text is
// one (empty) segment.
[[nodiscard]] inline Segments segments(std::string_view text) noexcept {
    Segments out;
    bool gsm = true;
    std::size_t septets = 0;
    std::size_t code_units = 0;
    detail::for_each_code_point(text, [&](char32_t c) {
        const std::size_t s = gsm7_septets(c);
        if (s == 0) gsm = false;
        septets += s;
        code_units += c > 0xFFFF ? 2 : 1;
    });
    out.encoding = gsm ? Encoding::gsm7 : Encoding::ucs2;
    out.units = gsm ? septets : code_units;
    const std::size_t single = gsm ? gsm7_single : ucs2_single;
    if (out.units <= single) return out;
    detail::Packer packer(gsm ? gsm7_concatenated : ucs2_concatenated);
    detail::for_each_code_point(
        text, [&](char32_t c) { packer.add(gsm ? gsm7_septets(c) : (c > 0xFFFF ? 2 : 1)); });
    out.count = packer.count();
    return out;
}

}  // namespace collectcall::sms
