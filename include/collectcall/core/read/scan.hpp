// The byte scanners of the reader: white space, the search for a byte in a padded document (keys,
// strings), and where a JSON string's text stops (the fast pass's strings).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "collectcall/core/inlining.hpp"

namespace collectcall::detail {

inline bool is_json_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

inline std::string_view trim_json_space(std::string_view token) {
    while (!token.empty()) {
        char c = token.back();
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        token.remove_suffix(1);
    }
    return token;
}

// Where the first `a` or `b` is in the `n` bytes at `p` of the document (n when there is none):
// inline, sixteen bytes at a time where SSE2 is (a call to memchr costs more than the scan of a
// string or a key). Reads up to 15 bytes past the n, which the padding of the document's buffer
// allows.
COLLECTCALL_HOT std::size_t find_in_document(const char* p, std::size_t n, char a,
                                             char b) noexcept {
#if defined(__SSE2__)
    const __m128i first = _mm_set1_epi8(a);
    const __m128i second = _mm_set1_epi8(b);
    for (std::size_t i = 0; i < n; i += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const auto found = static_cast<unsigned>(_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(chunk, first), _mm_cmpeq_epi8(chunk, second))));
        if (found != 0) return std::min(n, i + static_cast<std::size_t>(std::countr_zero(found)));
    }
    return n;
#else
    for (std::size_t i = 0; i < n; ++i) {
        if (p[i] == a || p[i] == b) return i;
    }
    return n;
#endif
}
COLLECTCALL_HOT std::size_t find_in_document(const char* p, std::size_t n, char c) noexcept {
#if defined(__SSE2__)
    return find_in_document(p, n, c, c);
#else
    const void* found = std::memchr(p, c, n);
    return found == nullptr ? n : static_cast<std::size_t>(static_cast<const char*>(found) - p);
#endif
}

// Where a JSON string's text stops: the first '"', '\\' or control character from `p` (`end`
// when there is none before it); `high` is set when a byte above 0x7E comes first (0x7F, or any
// byte of a multi-byte UTF-8 sequence): text without one is printable ASCII throughout. The vector
// forms read up to 63 bytes past `end`, which the padding of the document's buffer allows. One
// form per instruction set, each tested against the scalar one (tests/core/fast_pass.cpp).
COLLECTCALL_HOT const char* scan_string_scalar(const char* p, const char* end,
                                               bool& high) noexcept {
    for (; p < end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\' || c < 0x20) return p;
        high = high || c >= 0x7F;
    }
    return end;
}
#if defined(__SSE2__)
COLLECTCALL_HOT const char* scan_string_sse2(const char* p, const char* end, bool& high) noexcept {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i controls = _mm_set1_epi8(0x1F);
    for (; p < end; p += 16) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(c, controls), c);
        const auto stops = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(c, quote), _mm_cmpeq_epi8(c, backslash)), control)));
        // A byte above 0x7E: its own top bit, or that of the byte plus one (0x7F).
        const auto highs = static_cast<unsigned>(
            _mm_movemask_epi8(_mm_or_si128(c, _mm_add_epi8(c, _mm_set1_epi8(1)))));
        if (stops != 0) {
            const auto at = static_cast<unsigned>(std::countr_zero(stops));
            high = high || (highs & ((1U << at) - 1)) != 0;
            return p + at < end ? p + at : end;
        }
        high = high || highs != 0;
    }
    return end;
}
#endif
COLLECTCALL_HOT const char* scan_string(const char* p, const char* end, bool& high) noexcept {
#if defined(__SSE2__)
    return scan_string_sse2(p, end, high);
#else
    return scan_string_scalar(p, end, high);
#endif
}

}  // namespace collectcall::detail
