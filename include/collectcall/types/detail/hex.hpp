// Hexadecimal, written and read: webhook signatures, the recording link's signature, page
// cursors. No cryptography here, so that the model reads a page cursor without OpenSSL.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "collectcall/types/detail/ascii.hpp"

namespace collectcall::detail {

// Lower-case hexadecimal, two digits per byte.
inline std::string hex_encode(std::span<const unsigned char> bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 0x0f];
    }
    return out;
}

// Exactly out.size() bytes of hexadecimal (either case), nothing else. `out` is left partly
// written when the text is not.
inline bool hex_decode_exact(std::string_view text, std::span<unsigned char> out) noexcept {
    if (text.size() != out.size() * 2) return false;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char hi = text[2 * i];
        const char lo = text[2 * i + 1];
        if (!is_hex(hi) || !is_hex(lo)) return false;
        out[i] = static_cast<unsigned char>((hex_value(hi) << 4) | hex_value(lo));
    }
    return true;
}

// Exactly out.size() bytes of lower-case hexadecimal, as hex_encode writes them: for what has
// one spelling (the recording link's signature, a page cursor: API.md section 17).
inline bool lower_hex_decode_exact(std::string_view text, std::span<unsigned char> out) noexcept {
    for (char c : text) {
        if (is_upper(c)) return false;
    }
    return hex_decode_exact(text, out);
}

}  // namespace collectcall::detail
