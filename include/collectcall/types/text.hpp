// BoundedText<N>: a string of 1 to N code points after trimming white space, without control
// characters. Text is BoundedText<200>, the rule of names, externalId, address lines and every
// other free string of the API (API.md section 4); a member with a limit of its own states it in
// its type, as Digits<N> does.
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
#include "collectcall/types/detail/numbered_message.hpp"

namespace collectcall {

namespace detail {

// Unicode's White_Space property (PropList.txt), which is what "after trimming white space"
// means for a name typed with a no-break or ideographic space.
constexpr bool is_unicode_white_space(char32_t c) noexcept {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

// What BoundedText<N> finds out about a text whatever N is; the template only compares the
// counts with its limit, so every limit shares these.

// Decodes one code point from the front of `s`; returns its size in bytes, or 0 when the bytes
// are not well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF,
// no truncated sequence). The JSON reader already guarantees this, but parse() is public and may
// be called on anything.
constexpr std::size_t text_decode(std::string_view s, char32_t& out) noexcept {
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

// The characters of any text: a `format` problem (not UTF-8, a control character), found in the
// order of the text, or nullopt and in `trimmed` the number of code points from the first to the
// last that is not white space (0 when there is none).
inline std::optional<Problem> text_characters(std::string_view text,
                                              std::size_t& trimmed) noexcept {
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
            size = text_decode(std::string_view(text.data() + i, text.size() - i), c);
            if (size == 0) return Problem{codes::format, "must be valid UTF-8"};
        }
        if (c < 0x20 || c == 0x7F) {
            return Problem{codes::format, "control characters are not allowed"};
        }
        if (!is_unicode_white_space(c)) {
            if (!seen) first = count;
            seen = true;
            end = count + 1;
        }
        ++count;
        i += size;
    }
    trimmed = seen ? end - first : 0;
    return std::nullopt;
}

// Whether every byte of a non-empty text is printable ASCII (0x20-0x7E): no decoding, no control
// characters, and the only white space is ' '.
inline bool all_printable_ascii(std::string_view text) noexcept {
    // Eight bytes at a time: a byte is outside 0x20-0x7E when its high bit is set, when
    // subtracting 0x20 borrows (below 0x20) or when adding 1 carries into the high bit
    // (0x7F). Borrows and carries may cross into a neighbour byte only from a byte that is
    // itself outside the range, so the verdict for the word is exact.
    constexpr std::uint64_t ones = 0x0101010101010101;
    constexpr std::uint64_t highs = 0x8080808080808080;
    const char* p = text.data();
    const std::size_t n = text.size();
    const auto outside = [](std::uint64_t w) {
        return ((w | ((w - 0x20 * ones) & ~w) | (w + ones)) & highs) != 0;
    };
    // The last word overlaps the one before it (or, under eight bytes, is made of the
    // text's own bytes): every byte is looked at and no byte past the text.
    if (n <= 8) return !outside(load_short(p, n));
    std::uint64_t w = 0;
    for (std::size_t i = 0; i + 8 < n; i += 8) {
        std::memcpy(&w, p + i, 8);
        if (outside(w)) return false;
    }
    std::memcpy(&w, p + n - 8, 8);
    return !outside(w);
}

// The length of printable ASCII text after trimming spaces (0 when it is all spaces or empty).
inline std::size_t trimmed_ascii_length(std::string_view text) noexcept {
    const char* p = text.data();
    const std::size_t n = text.size();
    if (n == 0) return 0;
    // Nothing to trim (the usual case): its length in bytes is its length in code points.
    if (p[0] != ' ' && p[n - 1] != ' ') return n;
    const std::size_t first = text.find_first_not_of(' ');
    if (first == std::string_view::npos) return 0;
    return text.find_last_not_of(' ') - first + 1;
}

// Whether the code point at `at` of valid UTF-8 text is white space.
inline bool text_white_space_at(std::string_view text, std::size_t at) noexcept {
    char32_t c = 0;
    text_decode(text.substr(at), c);
    return is_unicode_white_space(c);
}

// For valid UTF-8 text without a control character below 0x20: its number of code points (the
// bytes that do not continue a sequence, 10xxxxxx) when there is nothing to trim (neither its
// first nor its last code point white space) and no 0x7F, and 0 otherwise (empty text included),
// which leaves the text to text_characters.
inline std::size_t untrimmed_utf8_code_points(std::string_view text) noexcept {
    const char* p = text.data();
    const std::size_t n = text.size();
    if (n == 0) return 0;
    std::size_t last = n - 1;  // where the last code point starts
    while (last > 0 && (static_cast<unsigned char>(p[last]) & 0xC0) == 0x80)
        --last;
    if (text_white_space_at(text, 0) || text_white_space_at(text, last)) return 0;
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
    return del == 0 ? n - continuations : 0;
}

}  // namespace detail

// The limit is a template argument so that a model member states it in its type
// (`BoundedText<64> reference;`), and the error message, the JSON Schema's maxLength and the
// reader's checks all follow from it. The common limit keeps the short name `Text`, so that the
// many members under it read as they always have, and the 200 is written once.
template <std::size_t MaxCodePoints>
class BoundedText {
    static_assert(MaxCodePoints > 0, "BoundedText<0> would refuse every text");

  public:
    // An empty placeholder (view() is empty), so that structs holding a text can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    BoundedText() = default;

    static constexpr std::size_t max_code_points = MaxCodePoints;

    // The value is stored exactly as sent (a name is the customer's to spell); only the length
    // rule looks at the trimmed text, so "  " is empty while " Ann " is three code points.
    // Length counts code points, not bytes or grapheme clusters: "José" is 4, "李小龙" is 3, a
    // single emoji is 1. ASCII tab, line feed and carriage return are white space but also
    // control characters, and control characters are refused wherever they appear.
    static Parsed<BoundedText> parse(std::string_view text) {
        if (std::optional<Problem> problem = check(text)) return *problem;
        return BoundedText(text);
    }

    // parse() into an existing value, reusing its storage (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, BoundedText& out) {
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
                                                     BoundedText& out) {
        const bool valid =
            scanned == ScannedText::printable_ascii
                ? fits(detail::trimmed_ascii_length(text))
                : scanned == ScannedText::utf8 && fits(detail::untrimmed_utf8_code_points(text));
        if (!valid) [[unlikely]]
            return parse_into(text, out);
        out.text_.assign(text);
        return std::nullopt;
    }

    // The verdict of parse() without building a value: nullopt when `text` is valid. The usual
    // text, printable ASCII, is judged inline and only the rest by a call.
    static std::optional<Problem> check(std::string_view text) noexcept {
        if (!text.empty() && detail::all_printable_ascii(text) &&
            fits(detail::trimmed_ascii_length(text)))
            return std::nullopt;
        return check_general(text);
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_.view(); }
    [[nodiscard]] std::string str() const { return std::string(text_.view()); }

    friend bool operator==(const BoundedText&, const BoundedText&) = default;

  private:
    // Whether a trimmed length in code points is within 1 to MaxCodePoints.
    static constexpr bool fits(std::size_t code_points) noexcept {
        return code_points != 0 && code_points <= MaxCodePoints;
    }

    // check() for any text: the characters first (decoding UTF-8, in the order of the text),
    // then the length after trimming Unicode white space.
    COLLECTCALL_OUT_OF_LINE static std::optional<Problem> check_general(
        std::string_view text) noexcept {
        std::size_t trimmed = 0;
        if (std::optional<Problem> problem = detail::text_characters(text, trimmed)) return problem;
        if (trimmed == 0) return Problem{codes::length, "must not be empty"};
        if (trimmed > MaxCodePoints) return Problem{codes::length, too_long_message()};
        return std::nullopt;
    }

    static constexpr std::string_view too_long_message() noexcept {
        if constexpr (MaxCodePoints == 1) {
            return detail::numbered_message<"must be at most ", MaxCodePoints, " character">();
        } else {
            return detail::numbered_message<"must be at most ", MaxCodePoints, " characters">();
        }
    }

    explicit BoundedText(std::string_view text) : text_(text) {}

    detail::InlineString<32> text_;
};

// Names, externalId, address lines and every other free string of the API.
using Text = BoundedText<200>;

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

// JSON Schema (core/schema.hpp). maxLength counts every character, white space included, so it
// refuses some texts that trimming makes valid (docs/schema.md).
template <std::size_t MaxCodePoints, class Schema>
void collectcall_schema(schema_tag<BoundedText<MaxCodePoints>>, Schema& s) {
    s["type"] = "string";
    s["description"] =
        (MaxCodePoints == 1 ? std::string("1 character")
                            : "1 to " + std::to_string(MaxCodePoints) + " characters") +
        " after trimming white space (stored as sent), no control characters";
    s["minLength"] = 1;
    s["maxLength"] = static_cast<std::int64_t>(MaxCodePoints);
    s["pattern"] = schema_patterns::text_visible;
    // "type" inside, so that the `not` does not refuse null where the member is nullable.
    s["not"]["type"] = "string";
    s["not"]["pattern"] = schema_patterns::control;
}

}  // namespace collectcall
