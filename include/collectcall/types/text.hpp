// Text: a string of 1 to 200 code points after trimming white space, without control characters.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/core/value_type.hpp"
#include "collectcall/types/detail/ascii.hpp"
#include "collectcall/types/detail/inline_string.hpp"

namespace collectcall {

namespace detail {

// Unicode's White_Space property (PropList.txt), which is what "after trimming white space"
// means for a name typed with a no-break or ideographic space.
constexpr bool is_unicode_white_space(char32_t c) noexcept {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

}  // namespace detail

class Text {
  public:
    // An empty placeholder (view() is empty), so that structs holding a Text can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Text() = default;

    static constexpr std::size_t max_code_points = 200;

    // The value is stored exactly as sent (a name is the customer's to spell); only the length
    // rule looks at the trimmed text, so "  " is empty while " Ann " is three code points.
    // Length counts code points, not bytes or grapheme clusters: "José" is 4, "李小龙" is 3, a
    // single emoji is 1. ASCII tab, line feed and carriage return are white space but also
    // control characters, and control characters are refused wherever they appear.
    static Parsed<Text> parse(std::string_view text) {
        if (std::optional<Problem> problem = check(text)) return *problem;
        return Text(text);
    }

    // parse() into an existing value, reusing its storage (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, Text& out) {
        if (std::optional<Problem> problem = check(text)) [[unlikely]]
            return problem;
        out.text_.assign(text);
        return std::nullopt;
    }

    // parse_into() for text the JSON reader has scanned (value_type.hpp): what the scan vouches for
    // is not checked again. Printable ASCII needs only its trimmed length; valid UTF-8 without a
    // control character below 0x20, with no white space to trim at either end, needs only a count
    // of its code points and a look for 0x7F. Anything else goes the general way.
    static std::optional<Problem> parse_scanned_into(std::string_view text, ScannedText scanned,
                                                     Text& out) {
        const bool valid = scanned == ScannedText::printable_ascii
                               ? !text.empty() && trimmed_fits(text)
                               : scanned == ScannedText::utf8 && untrimmed_utf8_fits(text);
        if (!valid) [[unlikely]]
            return parse_into(text, out);
        out.text_.assign(text);
        return std::nullopt;
    }

    // The verdict of parse() without building a value: nullopt when `text` is valid. The usual
    // text, printable ASCII, is judged inline and only the rest by a call.
    static std::optional<Problem> check(std::string_view text) noexcept {
        if (is_valid_printable_ascii(text)) return std::nullopt;
        return check_general(text);
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_.view(); }
    [[nodiscard]] std::string str() const { return std::string(text_.view()); }

    friend bool operator==(const Text&, const Text&) = default;

  private:
    // check() for any text: decodes UTF-8, trims Unicode white space, counts code points.
    COLLECTCALL_OUT_OF_LINE static std::optional<Problem> check_general(
        std::string_view text) noexcept {
        std::size_t count = 0;  // code points seen
        std::size_t first = 0;  // index of the first non-white-space one
        std::size_t end = 0;    // one past the last non-white-space one
        bool seen = false;
        for (std::size_t i = 0; i < text.size();) {
            // ASCII needs no decoding (and no bounds-checked substr to decode from), and printable
            // ASCII other than the space (most of a name that has an accent) no other test.
            char32_t c = static_cast<unsigned char>(text[i]);
            if (c > 0x20 && c < 0x7F) [[likely]] {
                if (!seen) first = count;
                seen = true;
                end = ++count;
                ++i;
                continue;
            }
            std::size_t size = 1;
            if (c >= 0x80) {
                size = decode(std::string_view(text.data() + i, text.size() - i), c);
                if (size == 0) return Problem{codes::format, "must be valid UTF-8"};
            }
            if (c < 0x20 || c == 0x7F) {
                return Problem{codes::format, "control characters are not allowed"};
            }
            if (!detail::is_unicode_white_space(c)) {
                if (!seen) first = count;
                seen = true;
                end = count + 1;
            }
            ++count;
            i += size;
        }
        if (!seen) return Problem{codes::length, "must not be empty"};
        if (end - first > max_code_points) {
            return Problem{codes::length, "must be at most 200 characters"};
        }
        return std::nullopt;
    }

    // The common case, every byte printable ASCII (0x20-0x7E): no decoding, no control
    // characters, and the only white space is ' '. Anything else (including every text with a
    // problem) is left to the general path, so this answers only "valid".
    static bool is_valid_printable_ascii(std::string_view text) noexcept {
        // Eight bytes at a time: a byte is outside 0x20-0x7E when its high bit is set, when
        // subtracting 0x20 borrows (below 0x20) or when adding 1 carries into the high bit
        // (0x7F). Borrows and carries may cross into a neighbour byte only from a byte that is
        // itself outside the range, so the verdict for the word is exact.
        constexpr std::uint64_t ones = 0x0101010101010101;
        constexpr std::uint64_t highs = 0x8080808080808080;
        const char* p = text.data();
        const std::size_t n = text.size();
        if (n == 0) return false;
        const auto outside = [](std::uint64_t w) {
            return ((w | ((w - 0x20 * ones) & ~w) | (w + ones)) & highs) != 0;
        };
        // The last word overlaps the one before it (or, under eight bytes, is made of the
        // text's own bytes): every byte is looked at and no byte past the text.
        if (n <= 8) return !outside(detail::load_short(p, n)) && trimmed_fits(text);
        std::uint64_t w = 0;
        for (std::size_t i = 0; i + 8 < n; i += 8) {
            std::memcpy(&w, p + i, 8);
            if (outside(w)) return false;
        }
        std::memcpy(&w, p + n - 8, 8);
        return !outside(w) && trimmed_fits(text);
    }

    // Whether valid UTF-8 text without a control character below 0x20 is valid with nothing to
    // trim: neither its first nor its last code point white space, no 0x7F, and at most
    // max_code_points code points (the bytes that do not continue a sequence, 10xxxxxx). False
    // leaves the text to check_general, which decides.
    static bool untrimmed_utf8_fits(std::string_view text) noexcept {
        const char* p = text.data();
        const std::size_t n = text.size();
        if (n == 0) return false;
        std::size_t last = n - 1;  // where the last code point starts
        while (last > 0 && (static_cast<unsigned char>(p[last]) & 0xC0) == 0x80)
            --last;
        if (white_space_at(text, 0) || white_space_at(text, last)) return false;
        constexpr std::uint64_t ones = 0x0101010101010101;
        constexpr std::uint64_t highs = 0x8080808080808080;
        std::size_t continuations = 0;
        std::uint64_t del = 0;  // the high bit of a byte set where the byte is 0x7F
        std::size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            std::uint64_t w = 0;
            std::memcpy(&w, p + i, 8);
            continuations += static_cast<std::size_t>(std::popcount(w & ~(w << 1) & highs));
            const std::uint64_t x = w ^ (0x7F * ones);  // a zero byte where w has 0x7F
            del |= (x - ones) & ~x & highs;
        }
        for (; i < n; ++i) {
            const auto c = static_cast<unsigned char>(p[i]);
            continuations += (c & 0xC0) == 0x80 ? 1 : 0;
            del |= c == 0x7F ? highs : 0;
        }
        return del == 0 && n - continuations <= max_code_points;
    }

    // Whether the code point at `at` of valid UTF-8 text is white space.
    static bool white_space_at(std::string_view text, std::size_t at) noexcept {
        char32_t c = 0;
        decode(text.substr(at), c);
        return detail::is_unicode_white_space(c);
    }

    // Whether printable ASCII text has 1 to max_code_points characters after trimming spaces.
    static bool trimmed_fits(std::string_view text) noexcept {
        const char* p = text.data();
        const std::size_t n = text.size();
        // Nothing to trim (the usual case): its length in bytes is its length in code points.
        if (p[0] != ' ' && p[n - 1] != ' ') return n <= max_code_points;
        const std::size_t first = text.find_first_not_of(' ');
        if (first == std::string_view::npos) return false;
        return text.find_last_not_of(' ') - first < max_code_points;
    }

    // Decodes one code point from the front of `s`; returns its size in bytes, or 0 when the
    // bytes are not well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
    // U+10FFFF, no truncated sequence). The JSON reader already guarantees this, but parse() is
    // public and may be called on anything.
    static constexpr std::size_t decode(std::string_view s, char32_t& out) noexcept {
        const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
        const unsigned char lead = byte(0);
        std::size_t size = 0;
        char32_t minimum = 0;
        if (lead < 0x80) {
            out = lead;
            return 1;
        }
        if ((lead & 0xE0) == 0xC0) {
            size = 2, minimum = 0x80, out = lead & 0x1FU;
        } else if ((lead & 0xF0) == 0xE0) {
            size = 3, minimum = 0x800, out = lead & 0x0FU;
        } else if ((lead & 0xF8) == 0xF0) {
            size = 4, minimum = 0x10000, out = lead & 0x07U;
        } else {
            return 0;  // a continuation byte or 0xF8-0xFF in lead position
        }
        if (s.size() < size) return 0;
        for (std::size_t i = 1; i < size; ++i) {
            if ((byte(i) & 0xC0) != 0x80) return 0;
            out = out << 6 | (byte(i) & 0x3FU);
        }
        if (out < minimum || out > 0x10FFFF || (out >= 0xD800 && out <= 0xDFFF)) return 0;
        return size;
    }

    explicit Text(std::string_view text) : text_(text) {}

    detail::InlineString<32> text_;
};

namespace schema_patterns {

// Text: a character that is neither white space (Unicode White_Space) nor a control character
// somewhere, and (under "not") no control character (U+0000-U+001F, U+007F) anywhere. Neither
// is anchored, so they mean the same in every regex engine, including those where `$` also
// matches before a final newline.
inline constexpr std::string_view text_visible =
    "[^\\u0000-\\u0020\\u007F\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F"
    "\\u3000]";

inline constexpr std::string_view control = "[\\u0000-\\u001F\\u007F]";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Text>, Schema& s) {
    s["type"] = "string";
    s["description"] =
        "1 to 200 characters after trimming white space (stored as sent), no control characters";
    s["minLength"] = 1;
    s["maxLength"] = static_cast<std::int64_t>(Text::max_code_points);
    s["pattern"] = schema_patterns::text_visible;
    // "type" inside, so that the `not` does not refuse null where the member is nullable.
    s["not"]["type"] = "string";
    s["not"]["pattern"] = schema_patterns::control;
}

}  // namespace collectcall
