// The fast pass. Most documents are valid and written without escapes, with their members in
// declaration order or near it. Such a document is read straight from its bytes, without
// simdjson's index: each key compared in place with the member it names (member_lookup, as the
// full pass does), each value scanned once and converted by the same functions as in the full
// pass (convert_string, convert_number), each required member and each cross-field rule checked
// the same way (finish_members, check_members). It follows kind_of<T> as the full pass does: one
// read_as overload per kind. At the first thing it does not take (any problem at all, an escape,
// an unknown or repeated key, a kind without a fast form, nesting past max_depth, a container past
// its bound) it gives up, and the document is read again from the start by the full pass, which
// reports every error. The fast pass reports none: a document's errors are always those of the
// full pass, and a document it takes is one the full pass takes, with the same value.
//
// What it takes is JSON (RFC 8259): it checks the grammar of everything it reads, refuses control
// characters in strings, and checks a string with a byte above 0x7F for UTF-8. Every scan is
// bounded by the end of the text; the wide loads read up to 63 bytes past it, which the padding
// of the document's buffer allows, and a look at one byte may read the byte at the end (NUL or
// white space, which ends any token).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/json_number.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read/convert.hpp"
#include "collectcall/core/read/kind.hpp"
#include "collectcall/core/read/members.hpp"
#include "collectcall/core/read/reader.hpp"
#include "collectcall/core/read/scan.hpp"
#include "collectcall/core/read/simdjson.hpp"
#include "collectcall/core/utf8.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall::detail {

template <class T>
inline constexpr bool is_validated_struct_v = false;
template <class T>
inline constexpr bool is_validated_struct_v<Validated<T>> = Described<T>;

// A new last element of `out` for the fast pass to fill: a described struct, alone or in a
// Validated, made Unfilled as read<T> makes its result (an element of a bulk body is more than a
// kilobyte, which value-initialisation would clear first). Should the pass give up, the full pass
// reads over every element it made.
template <class T>
COLLECTCALL_HOT T& emplace_unfilled(std::vector<T>& out) {
    if constexpr (Described<T>) {
        return out.emplace_back(Unfilled{});
    } else if constexpr (is_validated_struct_v<T>) {
        return out.emplace_back(std::in_place, Unfilled{});
    } else {
        return out.emplace_back();
    }
}

class FastReader {
  public:
    FastReader(const char* begin, const char* end, const ReadOptions& options, Reader& reader,
               std::string& scratch)
        : p_(begin), end_(end), options_(options), reader_(reader), scratch_(scratch) {}

    // Reads the whole text as one T followed only by white space.
    template <class T>
    bool document(T& out) {
        skip_space();
        if (!value(out)) return false;
        skip_space();
        return p_ == end_;
    }

    // Reads one value, as kind_of<T> says.
    template <class T>
    bool value(T& out) {
        return read_as(kind_tag<kind_of<T>>{}, out);
    }

    // One overload per ReadKind, for the T of that kind; the kinds without a fast form give up.
    template <class T>
    bool read_as(kind_tag<ReadKind::hook>, T&) {
        return false;  // a type's own reader works on the full pass's values
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::validated>, T& out) {
        // Only a valid item is taken: it has no errors to keep.
        if (!value(ValidatedAccess::value(out))) return false;
        ValidatedAccess::errors(out).clear();
        return true;
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::optional>, T& out);
    template <class T>
    bool read_as(kind_tag<ReadKind::patch>, T&) {
        return false;
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::not_allowed>, T&) {
        return false;
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::string>, T& out);
    template <class T>
    bool read_as(kind_tag<ReadKind::number>, T& out);
    template <class T>
    bool read_as(kind_tag<ReadKind::boolean>, T&) {
        return false;
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::null>, T&) {
        return false;
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::integer>, T&) {
        return false;
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::bounded_array>, T& out) {
        return array<typename T::value_type, T>(out);
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::array>, T& out) {
        if constexpr (std::is_same_v<typename T::value_type, bool>) {
            return false;  // vector<bool> hands out proxies: the full pass
        } else {
            return array<typename T::value_type, void>(out);
        }
    }
    template <class T>
    bool read_as(kind_tag<ReadKind::object>, T& out) {
        return object(out);
    }

  private:
    // The byte at p_, which never passes end_ while a read goes on: the byte at end_ (NUL or white
    // space, as the document's buffer is made) is read at the most, and matches nothing a caller
    // looks for.
    [[nodiscard]] char peek() const noexcept { return *p_; }
    void skip_space() noexcept {
        // A byte above the space ends it at once (the usual case: no white space between tokens).
        if (static_cast<unsigned char>(*p_) > ' ') [[likely]]
            return;
        while (p_ < end_ && is_json_space(*p_))
            ++p_;
    }
    bool null_literal() noexcept {
        if (end_ - p_ < 4 || std::memcmp(p_, "null", 4) != 0) return false;
        p_ += 4;
        return true;
    }
    bool enter() noexcept { return ++depth_ <= options_.max_depth; }

    // What follows a member or an element: a comma and more, the container's `close`, or
    // anything else (which the fast pass does not take).
    enum class After { more, closed, wrong };
    COLLECTCALL_HOT After after_value(char close) noexcept {
        skip_space();
        const char next = peek();
        ++p_;
        if (next == ',') {
            skip_space();
            return After::more;
        }
        return next == close ? After::closed : After::wrong;
    }
    void leave() noexcept { --depth_; }

    // A string, at its opening quote: where it lies when it has no escapes, else unescaped into
    // the thread's buffer (valid until the next string with escapes). `scanned` says what the scan
    // found out about the text on the way (ScannedText).
    COLLECTCALL_HOT std::optional<std::string_view> string(ScannedText& scanned) {
        const char* text = p_ + 1;
        bool high = false;
        const char* stop = scan_string(text, high);
        if (stop == end_) return std::nullopt;
        if (*stop != '"') [[unlikely]]
            return unescaped(text, stop, high, scanned);
        const std::string_view content(text, static_cast<std::size_t>(stop - text));
        if (high && !valid_utf8(content)) return std::nullopt;
        scanned = high ? ScannedText::utf8 : ScannedText::printable_ascii;
        p_ = stop + 1;
        return content;
    }

    // The rest of string(): from `text`, stopped at `stop` by a backslash or a control character.
    // The text is unescaped into scratch_, which is kept at its largest size (never shrunk by a
    // shorter text, so never cleared or refilled): plain runs are copied sixteen bytes at a time
    // and an escape's bytes stored in place, with no call per piece (a name with an accent
    // written as \u00e9 is three or four pieces).
    COLLECTCALL_OUT_OF_LINE std::optional<std::string_view> unescaped(const char* text,
                                                                      const char* stop, bool high,
                                                                      ScannedText& scanned) {
        bool control = false;  // an escape wrote a control character
        std::size_t used = 0;
        append_raw(text, stop, used);
        while (stop < end_ && *stop == '\\') {
            if (end_ - stop < 2) return std::nullopt;
            const char* at = stop + 2;
            // Room for the longest thing one escape writes (four bytes).
            char* out = room(used, 4);
            switch (stop[1]) {
                case '"':
                    out[used++] = '"';
                    break;
                case '\\':
                    out[used++] = '\\';
                    break;
                case '/':
                    out[used++] = '/';
                    break;
                case 'b':
                    out[used++] = '\b';
                    control = true;
                    break;
                case 'f':
                    out[used++] = '\f';
                    control = true;
                    break;
                case 'n':
                    out[used++] = '\n';
                    control = true;
                    break;
                case 'r':
                    out[used++] = '\r';
                    control = true;
                    break;
                case 't':
                    out[used++] = '\t';
                    control = true;
                    break;
                case 'u': {
                    std::uint32_t code = 0;
                    if (!hex4(stop + 2, code)) return std::nullopt;
                    at = stop + 6;
                    if (code >= 0xD800 && code <= 0xDBFF) {  // a high surrogate: its low one next
                        std::uint32_t low = 0;
                        if (end_ - at < 6 || at[0] != '\\' || at[1] != 'u' || !hex4(at + 2, low) ||
                            low < 0xDC00 || low > 0xDFFF)
                            return std::nullopt;
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        at += 6;
                    } else if (code >= 0xDC00 && code <= 0xDFFF) {
                        return std::nullopt;  // a low surrogate alone
                    }
                    control = control || code < 0x20;
                    used += put_utf8(out + used, code);
                    break;
                }
                default:
                    return std::nullopt;
            }
            const char* next = scan_string(at, high);
            if (next == end_) return std::nullopt;
            append_raw(at, next, used);
            stop = next;
        }
        if (stop == end_ || *stop != '"') return std::nullopt;  // a control character
        const std::string_view out(scratch_.data(), used);
        // The bytes above 0x7F are the text's own (an escape writes valid UTF-8).
        if (high && !valid_utf8(out)) return std::nullopt;
        scanned = control ? ScannedText::any : ScannedText::utf8;
        p_ = stop + 1;
        return out;
    }

    // scratch_'s bytes from `used` on, with room for `more` of them and sixteen beyond (for the
    // copies below, which write whole chunks).
    char* room(std::size_t used, std::size_t more) {
        const std::size_t needed = used + more + 16;
        if (needed > scratch_.size()) scratch_.resize(std::max(needed, 2 * scratch_.size()));
        return scratch_.data();
    }

    // Appends the document's bytes [from, to) to scratch_ at `used`, sixteen at a time: a copy
    // reads up to fifteen bytes past `to` (in the document's padding, as `to` is at most end_) and
    // writes them past the text, into the room made for them.
    void append_raw(const char* from, const char* to, std::size_t& used) {
        const auto n = static_cast<std::size_t>(to - from);
        char* out = room(used, n) + used;
        for (std::size_t i = 0; i < n; i += 16)
            std::memcpy(out + i, from + i, 16);
        used += n;
    }

    static bool valid_utf8(std::string_view text) noexcept {
        return text.size() <= 64 ? is_utf8(text)
                                 : simdjson::validate_utf8(text.data(), text.size());
    }

    bool hex4(const char* at, std::uint32_t& code) const noexcept {
        if (end_ - at < 4) return false;
        for (int i = 0; i < 4; ++i) {
            const char c = at[i];
            std::uint32_t digit = 0;
            if (c >= '0' && c <= '9') {
                digit = static_cast<std::uint32_t>(c - '0');
            } else if (c >= 'a' && c <= 'f') {
                digit = static_cast<std::uint32_t>(c - 'a' + 10);
            } else if (c >= 'A' && c <= 'F') {
                digit = static_cast<std::uint32_t>(c - 'A' + 10);
            } else {
                return false;
            }
            code = code << 4 | digit;
        }
        return true;
    }

    // Stores the UTF-8 bytes of `code` at `out`; returns how many (one to four).
    static std::size_t put_utf8(char* out, std::uint32_t code) noexcept {
        if (code < 0x80) {
            out[0] = static_cast<char>(code);
            return 1;
        }
        if (code < 0x800) {
            out[0] = static_cast<char>(0xC0 | code >> 6);
            out[1] = static_cast<char>(0x80 | (code & 0x3F));
            return 2;
        }
        if (code < 0x10000) {
            out[0] = static_cast<char>(0xE0 | code >> 12);
            out[1] = static_cast<char>(0x80 | (code >> 6 & 0x3F));
            out[2] = static_cast<char>(0x80 | (code & 0x3F));
            return 3;
        }
        out[0] = static_cast<char>(0xF0 | code >> 18);
        out[1] = static_cast<char>(0x80 | (code >> 12 & 0x3F));
        out[2] = static_cast<char>(0x80 | (code >> 6 & 0x3F));
        out[3] = static_cast<char>(0x80 | (code & 0x3F));
        return 4;
    }

    COLLECTCALL_HOT const char* scan_string(const char* p, bool& high) const noexcept {
        return detail::scan_string(p, end_, high);
    }

    // The text of what may be a number: the bytes a JSON number can hold, up to the first other
    // one (its grammar is for the caller to check).
    std::string_view number() noexcept {
        const char* start = p_;
        while (p_ < end_ && is_number_byte(*p_))
            ++p_;
        return std::string_view(start, static_cast<std::size_t>(p_ - start));
    }
    static bool is_number_byte(char c) noexcept {
        return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
    }

    template <class T>
    bool object(T& out);
    template <class T, class Bound>
    bool array(std::vector<T>& out);

    template <class T, std::size_t I>
    static bool member(FastReader& fast, T& out) {
        using D = boost::mp11::mp_at_c<described_members<T>, I>;
        return fast.value(out.*D::pointer);
    }
    template <class T>
    static constexpr auto members = []<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<bool (*)(FastReader&, T&), sizeof...(I)>{&member<T, I>...};
    }
    (std::make_index_sequence<boost::mp11::mp_size<described_members<T>>::value>{});

    const char* p_;
    const char* end_;
    const ReadOptions& options_;
    Reader& reader_;        // for a cross-field rule's verdict
    std::string& scratch_;  // where strings with escapes are unescaped
    std::size_t depth_ = 0;
};

template <class T>
bool FastReader::read_as(kind_tag<ReadKind::optional>, T& out) {
    if (peek() == 'n') {
        if (!null_literal()) return false;
        out.reset();
        return true;
    }
    return value(in_place_value(out));
}

template <class T>
bool FastReader::read_as(kind_tag<ReadKind::string>, T& out) {
    if (peek() != '"') return false;
    ScannedText scanned = ScannedText::any;
    const std::optional<std::string_view> text = string(scanned);
    if (!text) return false;
    if constexpr (ParsesScannedInto<T>) {
        // What the scan found out is not checked again (Text: UTF-8, control characters).
        if (scanned != ScannedText::any) return !T::parse_scanned_into(*text, scanned, out);
    }
    return convert_string(*text, options_, out, [](auto&&...) {});
}

template <class T>
bool FastReader::read_as(kind_tag<ReadKind::number>, T& out) {
    const char c = peek();
    if (c != '-' && (c < '0' || c > '9')) return false;
    if constexpr (HasPlainNumberPrefix<T>) {
        // The plain shape read where it lies, in one scan, when nothing after it could continue
        // the number (an exponent, more digits after a leading zero, a second point or sign).
        std::size_t length = 0;
        if (std::optional<T> plain = T::parse_plain_prefix(
                std::string_view(p_, static_cast<std::size_t>(end_ - p_)), length)) {
            if (p_ + length == end_ || !is_number_byte(p_[length])) {
                out = *plain;
                p_ += length;
                return true;
            }
        }
    }
    const std::string_view token = number();
    if constexpr (HasPlainNumbers<T>) {
        // parse_plain takes only JSON numbers (value_type.hpp): no grammar check first.
        if (std::optional<T> plain = T::parse_plain(token)) {
            out = *plain;
            return true;
        }
    }
    return is_json_number(token) && convert_number(token, out, [](auto&&...) {});
}

template <ReadKind K>
    struct fast_pass_reads : std::bool_constant < requires(FastReader& fast, AnyKind& out) {
    fast.read_as(kind_tag<K>{}, out);
} > {};
static_assert(covers_every_kind<fast_pass_reads>, "the fast pass reads every kind of kind.hpp");

template <class T>
bool FastReader::object(T& out) {
    using Members = described_members<T>;
    using Lookup = member_lookup<T>;
    constexpr std::size_t n = boost::mp11::mp_size<Members>::value;
    if constexpr (n > 64) {
        return false;  // more members than the bit sets below hold
    } else {
        if (peek() != '{' || !enter()) return false;
        ++p_;
        skip_space();
        std::uint64_t seen = 0;
        std::uint64_t nulls = 0;
        MemberHint hint;
        // The members in declaration order first, each key compared with the one member it may
        // be there, its key and colon at once (a document written from the struct, with members
        // left out or not): no lookup. A key out of that order (or written with white space
        // before its colon) leaves the rest of the object to the loop below, which takes keys in
        // any order. The steps are unrolled, one per member, each with its own test of whether
        // the document has that member and a direct call to its reader. (A loop would read every
        // member through one indirect call, whose target the processor mispredicts whenever the
        // members a document has change from one object to the next, as a bulk's items do.)
        bool closed = false;
        bool failed = false;  // a step failed: the fast pass gives up
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto I) COLLECTCALL_HOT_LAMBDA {
            constexpr std::size_t i = decltype(I)::value;
            if (closed || failed || !Lookup::is_key_with_colon(p_, i)) return;
            p_ += member_names<T>[i].size() + 3;
            const std::uint64_t bit = std::uint64_t{1} << i;
            seen |= bit;
            hint.saw(i);
            skip_space();
            if (peek() == 'n') nulls |= bit;
            if (!member<T, i>(*this, out)) {
                failed = true;
                return;
            }
            const After after = after_value('}');
            if (after == After::more) return;
            closed = after == After::closed;
            failed = after == After::wrong;
        });
        if (failed) return false;
        if (!closed && seen == 0 && peek() == '}') {
            ++p_;  // no member at all
        } else if (!closed) {
            while (true) {
                std::size_t i = hint.expected();
                if (i < n && Lookup::is_key_with_colon(p_, i)) [[likely]] {
                    // The member expected next, its key and colon in one comparison.
                    p_ += member_names<T>[i].size() + 3;
                } else {
                    if (peek() != '"') return false;
                    const char* raw = p_ + 1;
                    // The member expected next, else the one after it (an optional member left
                    // out), else the lookup by length, inlined here: out of line, a call for each
                    // key after a member the document leaves out costs more than it saves
                    // (benchmarks/suite, read/customer).
                    if (i >= n || !Lookup::is(raw, i)) {
                        i = hint.after_expected();
                        if (i >= n || !Lookup::is(raw, i)) i = Lookup::by_raw_key(raw);
                    }
                    if (i == n) return false;  // unknown, or a key with escapes
                    p_ = raw + member_names<T>[i].size() + 1;
                    if (p_ >= end_) return false;
                    skip_space();
                    if (peek() != ':') return false;
                    ++p_;
                }
                const std::uint64_t bit = std::uint64_t{1} << i;
                if ((seen & bit) != 0) return false;
                seen |= bit;
                hint.saw(i);
                skip_space();
                if (peek() == 'n') nulls |= bit;
                if (!members<T>[i](*this, out)) return false;
                const After after = after_value('}');
                if (after == After::more) continue;
                if (after == After::closed) break;
                return false;
            }
        }
        leave();

        bool complete = true;
        finish_members(
            out, [&](std::size_t i) { return (seen >> i & 1) != 0; },
            [&](std::size_t) { complete = false; });
        if (!complete) return false;

        if constexpr (HasMemberCheck<T>) {
            bool present[n + 1] = {};
            const bool failed[n + 1] = {};
            for (std::size_t i = 0; i < n; ++i)
                present[i] = ((seen & ~nulls) >> i & 1) != 0;
            const std::size_t before = reader_.error_count();
            check_members(out, present, failed, reader_);
            if (reader_.error_count() != before) return false;
        }
        return true;
    }
}

template <class T, class Bound>
bool FastReader::array(std::vector<T>& out) {
    std::size_t max_items = std::numeric_limits<std::size_t>::max();
    if constexpr (!std::is_void_v<Bound>) max_items = Bound::max_items(options_);
    if (peek() != '[' || !enter()) return false;
    ++p_;
    // As read_array does: room for as many elements as the rest of the text could hold.
    if constexpr (!std::is_void_v<Bound>) {
        out.reserve(std::min(max_items, static_cast<std::size_t>(end_ - p_) / 2));
    }
    skip_space();
    std::size_t index = 0;
    if (peek() == ']') {
        ++p_;
    } else {
        while (true) {
            if (index == max_items) return false;
            if (!value(index < out.size() ? out[index] : emplace_unfilled(out))) return false;
            ++index;
            const After after = after_value(']');
            if (after == After::more) continue;
            if (after == After::closed) break;
            return false;
        }
    }
    leave();
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(index), out.end());
    if constexpr (!std::is_void_v<Bound>) {
        if (index < Bound::min_items) return false;
    }
    return true;
}

}  // namespace collectcall::detail
