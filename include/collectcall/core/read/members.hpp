// The members of a described struct as both passes see them: which are required, how a key finds
// its member (member_lookup, MemberHint), and what both passes do once an object's last key is
// read (finish_members, and check_members: the cross-field rule of check.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <boost/mp11/algorithm.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/check.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read/reader.hpp"
#include "collectcall/core/read/scan.hpp"
#include "collectcall/core/read/simdjson.hpp"

namespace collectcall {

namespace detail {

// Converts to a default-initialised T, built where the conversion's result goes (no copy, no
// move). A described struct that the reader is about to fill is made this way where a failed
// read throws it away (the value of read<T>, an optional member): the reader writes every member
// (a member the document lacks is reset), and value-initialisation would first clear the whole
// object, inline text buffers and all (a customer is more than a kilobyte). Not for a
// Validated<T>, whose value is seen even when it failed.
struct Unfilled {
    template <class T>
    operator T() const {  // NOLINT(google-explicit-constructor): converting is its purpose
        T value;
        return value;
    }
};

// The value of an optional to read into, made in place when there is none (no temporary to move
// from, and no stall reloading it): a described struct Unfilled, anything else by default.
template <class T>
COLLECTCALL_HOT T& in_place_value(std::optional<T>& out) {
    if (!out.has_value()) {
        if constexpr (Described<T>) {
            out.emplace(Unfilled{});
        } else {
            out.emplace();
        }
    }
    return *out;
}

// Empties a member the document does not have, keeping the storage a string or vector owns.
template <class T>
void forget(T& out) {
    if constexpr (std::is_same_v<T, std::string> || is_vector_v<T> || is_bounded_vector_v<T>) {
        out.clear();
    } else {
        out = T{};
    }
}

// The member names of T grouped by length, so that a key is compared only with the names as
// long as it is: whatever the order of the keys, a lookup costs a scan for the closing quote and
// usually one comparison.
template <class T>
struct member_lookup {
    static constexpr auto& names = member_names<T>;
    static constexpr std::size_t n = names.size();
    static constexpr std::size_t max_length = [] {
        std::size_t longest = 0;
        for (std::string_view name : names)
            longest = std::max(longest, name.size());
        return longest;
    }();
    // Member indices ordered by name length (declaration order within a length)...
    static constexpr std::array<std::size_t, n> by_length = [] {
        std::array<std::size_t, n> order{};
        std::size_t at = 0;
        for (std::size_t length = 0; length <= max_length; ++length) {
            for (std::size_t i = 0; i < n; ++i) {
                if (names[i].size() == length) order[at++] = i;
            }
        }
        return order;
    }();
    // ...and where the names of each length start in that order.
    static constexpr std::array<std::size_t, max_length + 2> starts = [] {
        std::array<std::size_t, max_length + 2> first{};
        for (std::size_t length = 0; length <= max_length; ++length) {
            std::size_t count = 0;
            for (std::string_view name : names)
                count += name.size() == length ? 1 : 0;
            first[length + 1] = first[length] + count;
        }
        return first;
    }();
#if defined(__SSE2__)
    // Each name followed by its closing quote, as 16-byte chunks with a mask of the bytes that
    // count: a key is compared in one or two loads, whatever the name's length.
    static constexpr std::size_t chunks = (max_length + 1 + 15) / 16;
    struct Chunks {
        std::array<std::array<char, 16>, chunks> bytes{};
        std::array<unsigned, chunks> mask{};
    };
    static constexpr std::array<Chunks, n> chunked = [] {
        std::array<Chunks, n> table{};
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t b = 0; b <= names[i].size(); ++b) {
                table[i].bytes[b / 16][b % 16] = b < names[i].size() ? names[i][b] : '"';
                table[i].mask[b / 16] |= 1U << (b % 16);
            }
        }
        return table;
    }();
    // Each name as a key written with its colon and no white space between, `"name":`, in the same
    // form: the fast pass matches the key it expects and the colon in one comparison.
    static constexpr std::size_t key_chunks = (max_length + 3 + 15) / 16;
    struct KeyChunks {
        std::array<std::array<char, 16>, key_chunks> bytes{};
        std::array<unsigned, key_chunks> mask{};
    };
    static constexpr std::array<KeyChunks, n> keys_with_colon = [] {
        std::array<KeyChunks, n> table{};
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t size = names[i].size();
            for (std::size_t b = 0; b < size + 3; ++b) {
                table[i].bytes[b / 16][b % 16] = b == 0 || b == size + 1 ? '"'
                                                 : b == size + 2         ? ':'
                                                                         : names[i][b - 1];
                table[i].mask[b / 16] |= 1U << (b % 16);
            }
        }
        return table;
    }();
#else
    // Each name followed by its closing quote, as little-endian 64-bit words with a mask of the
    // bytes that count: a key is compared in at most a few loads, whatever the name's length.
    static constexpr std::size_t words = (max_length + 1 + 7) / 8;
    struct Key {
        std::array<std::uint64_t, words> word{};
        std::array<std::uint64_t, words> mask{};
    };
    static constexpr std::array<Key, n> keys = [] {
        std::array<Key, n> table{};
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t b = 0; b <= names[i].size(); ++b) {
                const auto byte =
                    static_cast<unsigned char>(b < names[i].size() ? names[i][b] : '"');
                table[i].word[b / 8] |= std::uint64_t{byte} << (8 * (b % 8));
                table[i].mask[b / 8] |= std::uint64_t{0xFF} << (8 * (b % 8));
            }
        }
        return table;
    }();
#endif
    // The member a raw key names, found by the key's length (a search for its closing quote that
    // stops at the longest name's length) among the names of that length; n when no name is the
    // key's raw text (an unknown key, or one with escapes).
    COLLECTCALL_HOT static std::size_t by_raw_key(const char* raw) noexcept {
        if (const std::size_t length = find_in_document(raw, max_length + 1, '"');
            length <= max_length) {
            for (std::size_t k = starts[length]; k < starts[length + 1]; ++k) {
                if (is(raw, by_length[k])) return by_length[k];
            }
        }
        return n;
    }

    // Whether the key at `raw` is name i. The wide loads read at most 64 bytes from the key's
    // start, which the document's padding allows past its closing quote; a struct with a name too
    // long for that compares byte by byte, stopping at the first difference (the key's closing
    // quote at the latest, as no name has a quote).
    static bool is(const char* raw, std::size_t i) noexcept {
#if defined(__SSE2__)
        if constexpr (16 * chunks <= simdjson::SIMDJSON_PADDING) return equal(raw, chunked[i]);
#else
        if constexpr (std::endian::native == std::endian::little &&
                      8 * words <= simdjson::SIMDJSON_PADDING) {
            const Key& key = keys[i];
            std::uint64_t differ = 0;
            for (std::size_t w = 0; w < words; ++w) {
                std::uint64_t loaded = 0;
                std::memcpy(&loaded, raw + 8 * w, 8);
                differ |= (loaded ^ key.word[w]) & key.mask[w];
            }
            return differ == 0;
        }
#endif
        const std::string_view name = names[i];
        for (std::size_t b = 0; b < name.size(); ++b) {
            if (raw[b] != name[b]) return false;
        }
        return raw[name.size()] == '"';
    }

    // Whether `at` (a key's opening quote) holds member i's key and its colon with no white space
    // between, `"name":`. It reads at most 64 bytes from `at`, which the document's padding
    // allows, and says no wherever keys are not compared this way (without SSE2, or for a name too
    // long for the padding): the caller then reads the key the longer way. Since the byte after
    // the document is NUL or white space, which is in no key, a match lies inside the document.
    COLLECTCALL_HOT static bool is_key_with_colon(const char* at, std::size_t i) noexcept {
#if defined(__SSE2__)
        if constexpr (16 * key_chunks <= simdjson::SIMDJSON_PADDING) {
            return equal(at, keys_with_colon[i]);
        }
#endif
        (void)at;
        (void)i;
        return false;
    }

#if defined(__SSE2__)
    // is() for a name given as its chunks (Chunks, or KeyChunks for is_key_with_colon).
    template <class Name>
    COLLECTCALL_HOT static bool equal(const char* raw, const Name& name) noexcept {
        unsigned differ = 0;
        for (std::size_t c = 0; c < name.bytes.size(); ++c) {
            const __m128i loaded = _mm_loadu_si128(reinterpret_cast<const __m128i*>(raw + 16 * c));
            const __m128i expected =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(name.bytes[c].data()));
            const auto same =
                static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(loaded, expected)));
            differ |= ~same & name.mask[c];
        }
        return differ == 0;
    }
#endif
};

// The member expected next in an object: the one after the last (declaration order), or the one
// before it once a key came before the last in that order (documents written in reverse), so that
// both orders are matched by the first comparison; any other order is found by the lookup by
// length.
class MemberHint {
  public:
    // A member index, or one that is none (-1 or past the last).
    [[nodiscard]] std::size_t expected() const noexcept { return static_cast<std::size_t>(next_); }
    // The one after it in the same order: the next when the document left out the expected one.
    [[nodiscard]] std::size_t after_expected() const noexcept {
        return static_cast<std::size_t>(next_ + step_);
    }
    void saw(std::size_t i) noexcept {
        const auto at = static_cast<std::ptrdiff_t>(i);
        if (at != next_) [[unlikely]]
            step_ = at > next_ - step_ ? 1 : -1;  // after or before the last member
        next_ = at + step_;
    }

  private:
    std::ptrdiff_t next_ = 0;
    std::ptrdiff_t step_ = 1;  // from the last member to the next: 1 or -1
};

// What both passes do after an object's last key: each member the document did not have is
// emptied (forget), and `missing(I)` is told of each one among them that is required, in
// declaration order. `seen(I)` says whether member I was in the document.
template <class T, class Seen, class Missing>
COLLECTCALL_HOT void finish_members(T& out, Seen&& seen, Missing&& missing) {
    using Members = described_members<T>;
    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<boost::mp11::mp_size<Members>::value>>(
        [&](auto I) {
            using D = boost::mp11::mp_at_c<Members, decltype(I)::value>;
            if (!seen(I)) {
                if constexpr (is_required_member_v<T, D>) missing(I);
                forget(out.*D::pointer);
            }
        });
}

// The reader's side of RuleErrors: a rule's problem reported to the Reader, at the member and
// the element it names below the object being read.
struct RuleAccess {
    static RuleErrors errors_for(Reader& reader) noexcept { return RuleErrors(&report, &reader); }
    COLLECTCALL_COLD static void report(void* context, std::string_view member, std::size_t index,
                                        std::string_view code, std::string_view message) {
        Reader& reader = *static_cast<Reader*>(context);
        if (member.empty()) return reader.error(code, message);
        reader.push(member);
        if (index != RuleErrors::no_index) reader.push(index);
        reader.error(code, message);
        if (index != RuleErrors::no_index) reader.pop();
        reader.pop();
    }
};

// Runs T's cross-field rule over an object read, with what each member was: `present[i]` and
// `failed[i]` for member i of described_members<T>.
template <class T>
void check_members(const T& out, const bool* present, const bool* failed, Reader& reader) {
    const MemberStates states(member_names<T>.data(), member_names<T>.size(), present, failed);
    RuleErrors errors = RuleAccess::errors_for(reader);
    collectcall_check(out, states, errors);
}

}  // namespace detail

}  // namespace collectcall
