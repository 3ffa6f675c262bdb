// UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
#pragma once

#include <cstddef>
#include <string_view>

namespace collectcall::detail {

// Length of the well-formed UTF-8 sequence at s[0] (RFC 3629), or 0.
inline std::size_t utf8_sequence_length(const unsigned char* s, std::size_t available) noexcept {
    const unsigned char c = s[0];
    auto cont = [&](std::size_t i) { return i < available && (s[i] & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && s[1] < 0xA0) return 0;  // overlong
        if (c == 0xED && s[1] > 0x9F) return 0;  // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && s[1] < 0x90) return 0;  // overlong
        if (c == 0xF4 && s[1] > 0x8F) return 0;  // beyond U+10FFFF
        return 4;
    }
    return 0;
}

// Whether `text` is well-formed UTF-8, a sequence at a time: for the short texts of a document
// (a name with an accent), which a call to a vectorised validator would cost more than.
inline bool is_utf8(std::string_view text) noexcept {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        if (s[i] < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = utf8_sequence_length(s + i, n - i);
        if (length == 0) return false;
        i += length;
    }
    return true;
}

}  // namespace collectcall::detail
