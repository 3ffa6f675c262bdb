// The JSON number grammar (RFC 8259 section 6), checked on a number's own text.
#pragma once

#include <string_view>

namespace collectcall {

// number = [ "-" ] int [ frac ] [ exp ]; int = "0" / ( digit1-9 *DIGIT )
constexpr bool is_json_number(std::string_view text) noexcept {
    std::size_t i = 0;
    const std::size_t n = text.size();
    auto digit = [&](std::size_t at) { return at < n && text[at] >= '0' && text[at] <= '9'; };
    if (i < n && text[i] == '-') ++i;
    if (!digit(i)) return false;
    if (text[i] == '0') {
        ++i;
    } else {
        while (digit(i))
            ++i;
    }
    if (i < n && text[i] == '.') {
        ++i;
        if (!digit(i)) return false;
        while (digit(i))
            ++i;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
        if (!digit(i)) return false;
        while (digit(i))
            ++i;
    }
    return i == n;
}

}  // namespace collectcall
