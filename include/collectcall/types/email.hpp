// Email: an address matching the WHATWG HTML "valid e-mail address" grammar, at most 254 bytes.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
#include <immintrin.h>
#endif

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/detail/ascii.hpp"
#include "collectcall/types/detail/inline_string.hpp"

namespace collectcall {

class Email {
  public:
    // An empty placeholder (view() is empty), so that structs holding an Email can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Email() = default;

    static constexpr std::size_t max_size = 254;

    // The grammar is the one browsers apply to <input type="email">, on purpose a "willful
    // violation" of RFC 5322: no quoted local parts, comments or IP literals, but dots anywhere in
    // the local part (a..b@x is valid). The domain is one or more labels of 1-63 letters, digits
    // and inner hyphens; a top-level domain is not required (a@b is valid) and a trailing dot is
    // not allowed. 254 is the longest address that fits SMTP's 256-octet path with its <>.
    // Nothing is folded: the local part is case-sensitive by RFC 5321.
    static Parsed<Email> parse(std::string_view text) {
        if (std::optional<Problem> problem = check(text)) return *problem;
        return Email(text);
    }

    // parse() into an existing value, reusing its storage (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, Email& out) {
        if (std::optional<Problem> problem = check(text)) return problem;
        out.text_.assign(text);
        return std::nullopt;
    }

    // The same verdict as parse() without building a value (parse() copies the text, which
    // allocates beyond the short-string buffer): nullopt when `text` is a valid address.
    static constexpr std::optional<Problem> check(std::string_view text) noexcept {
        if (!std::is_constant_evaluated() && is_short_valid(text)) return std::nullopt;
        if (text.size() > max_size) return Problem{codes::length, "must be at most 254 characters"};
        constexpr Problem bad{codes::format, "must be an e-mail address like name@example.com"};
        // '@' is not a local-part character: the first byte that is not one must be the '@'
        // (one scan, no search for the '@' first).
        std::size_t at = 0;
        while (at < text.size() && is_local_char(text[at]))
            ++at;
        if (at == 0 || at == text.size() || text[at] != '@') return bad;
        if (!is_domain({text.data() + at + 1, text.size() - at - 1})) return bad;
        return std::nullopt;
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_.view(); }

    friend bool operator==(const Email&, const Email&) = default;

  private:
    // One table lookup per character rather than a search of the specials.
    static constexpr auto local_chars = [] {
        std::array<bool, 256> table{};
        for (int c = 0; c < 256; ++c)
            table[c] = detail::is_alnum(static_cast<char>(c));
        for (char c : std::string_view(".!#$%&'*+/=?^_`{|}~-"))
            table[static_cast<unsigned char>(c)] = true;
        return table;
    }();

    static constexpr bool is_local_char(char c) noexcept {
        return local_chars[static_cast<unsigned char>(c)];
    }

    // Letters, digits and '-': what a domain label is made of.
    static constexpr auto label_chars = [] {
        std::array<bool, 256> table{};
        for (int c = 0; c < 256; ++c)
            table[c] = detail::is_alnum(static_cast<char>(c));
        table['-'] = true;
        return table;
    }();

    // Label by label: a run of label characters (a table lookup each), then its bounds checked
    // once, rather than every character tested for a dot, a letter or digit, and a hyphen.
    static constexpr bool is_domain(std::string_view domain) noexcept {
        const std::size_t n = domain.size();
        std::size_t i = 0;
        while (i < n) {
            const std::size_t start = i;
            while (i < n && label_chars[static_cast<unsigned char>(domain[i])])
                ++i;
            // Also rejects an empty domain and two dots in a row; a second '@' ends the run.
            if (i == start || i - start > 63 || domain[start] == '-' || domain[i - 1] == '-') {
                return false;
            }
            if (i == n) return true;
            if (domain[i] != '.') return false;
            ++i;
        }
        return false;  // empty, or a trailing dot
    }

    // Whether `text` is a valid address, judged at once for an address of at most 64 bytes
    // where AVX-512 (BW and VBMI) is: every byte classified by one table lookup, then the grammar
    // checked on bit masks (no loop, no branch per byte). False for anything else, valid or not,
    // which the scan above then judges; so it only ever says "valid" early.
    static bool is_short_valid(std::string_view text) noexcept {
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
        const std::size_t n = text.size();
        if (n == 0 || n > 64) return false;
        const __mmask64 in = n == 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
        // The bytes past the text are not read (a masked load does not touch them).
        const __m512i bytes = _mm512_maskz_loadu_epi8(in, text.data());
        const __m512i low = _mm512_loadu_si512(ascii_classes.data());
        const __m512i high = _mm512_loadu_si512(ascii_classes.data() + 64);
        // The class of each byte's low seven bits; a byte above 0x7F is in neither class.
        const __m512i classes = _mm512_permutex2var_epi8(low, bytes, high);
        const std::uint64_t ascii = in & ~std::uint64_t{_mm512_movepi8_mask(bytes)};
        const std::uint64_t local = ascii & _mm512_test_epi8_mask(classes, _mm512_set1_epi8(1));
        const std::uint64_t label = ascii & _mm512_test_epi8_mask(classes, _mm512_set1_epi8(2));
        const std::uint64_t dot = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('.'));
        const std::uint64_t hyphen = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('-'));
        const std::uint64_t at_sign = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('@'));
        // The local part: the bytes before the first that is not a local-part character, which
        // must be an '@' after at least one.
        const std::uint64_t not_local = in & ~local;
        if (not_local == 0) return false;
        const int at = std::countr_zero(not_local);
        if (at == 0 || (at_sign >> at & 1) == 0) return false;
        // The domain: every byte after the '@' a label character or a dot; a label starts after
        // the '@' or a dot and ends before a dot or at the end, and neither starts nor ends with a
        // hyphen, nor is empty (a dot where one starts, or at the end). 62 bytes at most: every
        // label is under 64.
        const std::uint64_t domain = in & ~((std::uint64_t{2} << at) - 1);
        if (domain == 0 || (domain & ~(label | dot)) != 0) return false;
        const std::uint64_t last = std::uint64_t{1} << (n - 1);
        const std::uint64_t starts = (domain & (~domain + 1)) | ((dot << 1) & domain);
        const std::uint64_t ends = last | ((dot >> 1) & domain);
        return ((starts | last) & dot) == 0 && ((starts | ends) & hyphen) == 0;
#else
        (void)text;
        return false;
#endif
    }

#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
    // The two tables above for ASCII, as one byte per character: 1 for a local-part character,
    // 2 for a label character.
    alignas(64) static constexpr std::array<char, 128> ascii_classes = [] {
        std::array<char, 128> table{};
        for (std::size_t c = 0; c < 128; ++c)
            table[c] = static_cast<char>((local_chars[c] ? 1 : 0) | (label_chars[c] ? 2 : 0));
        return table;
    }();
#endif

    explicit Email(std::string_view text) : text_(text) {}

    detail::InlineString<40> text_;
};

namespace schema_patterns {

// The WHATWG HTML "valid e-mail address" (the pattern its specification gives).
inline constexpr std::string_view email =
    "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    "(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Email>, Schema& s) {
    s["type"] = "string";
    s["format"] = "email";
    s["description"] = "E-mail address per the WHATWG HTML grammar, at most 254 characters";
    s["maxLength"] = static_cast<std::int64_t>(Email::max_size);
    s["pattern"] = schema_patterns::email;
    s["examples"].push_back("ann.lee@example.com");
}

}  // namespace collectcall
