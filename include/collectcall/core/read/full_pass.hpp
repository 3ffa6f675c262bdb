// The full pass: one pass of simdjson On-Demand that reports every error. Each object is iterated
// once and each key dispatched to its member (out-of-order keys cost no extra pass); a presence
// bitset gives required, duplicate and unknown members in the same pass. Field errors are
// collected and reading goes on; only a structural error (malformed JSON, invalid UTF-8, trailing
// content, nesting too deep) stops it. read_value follows kind_of<T> (kind.hpp): one read_as
// overload per kind.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read/convert.hpp"
#include "collectcall/core/read/hook.hpp"
#include "collectcall/core/read/kind.hpp"
#include "collectcall/core/read/members.hpp"
#include "collectcall/core/read/reader.hpp"
#include "collectcall/core/read/scan.hpp"
#include "collectcall/core/read/simdjson.hpp"
#include "collectcall/core/read/value_reader.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

// Reads one value of any supported type. Returns true when `out` holds a valid value; otherwise
// the problems were reported to `reader`.
template <class T>
bool read_value(Reader& reader, ondemand::value& value, T& out);

namespace detail {

// A part that failed is made fresh out of line, like every path only a value with a problem
// takes (Reader::error, type_error, string_the_long_way): the functions that read valid values
// stay small, with fewer registers to save and restore on every call.
template <class T>
COLLECTCALL_OUT_OF_LINE void reset_part(T& out) {
    out = T{};
}

// Reads a member or an element. A value that fails is left as a fresh one would be (read<T> fills
// a default T; read_into reads over a value that held something else).
template <class T>
bool read_part(Reader& reader, ondemand::value& value, T& out) {
    if constexpr (read_whole<T>) {
        if (read_value(reader, value, out)) [[likely]]
            return true;
        reset_part(out);
        return false;
    } else {
        return read_value(reader, value, out);
    }
}

template <class T>
bool read_integer(Reader& reader, ondemand::value& value, T& out) {
    auto token = reader.number_token(value);
    if (!token) return false;
    std::string_view text = *token;
    bool negative = !text.empty() && text.front() == '-';
    if (negative) text.remove_prefix(1);
    if (text.find_first_of(".eE") != std::string_view::npos) {
        reader.error(codes::type, "must be an integer");
        return false;
    }
    // Accumulate as the negative magnitude so that the minimum of a signed type fits.
    using Wide = std::conditional_t<std::is_signed_v<T>, std::intmax_t, std::uintmax_t>;
    Wide result = 0;
    bool overflow = false;
    for (char c : text) {
        Wide digit = static_cast<Wide>(c - '0');
        if constexpr (std::is_signed_v<T>) {
            if (result < (std::numeric_limits<T>::min() + digit) / 10) overflow = true;
            if (!overflow) result = result * 10 - digit;
        } else {
            if (result > (std::numeric_limits<T>::max() - digit) / 10) overflow = true;
            if (!overflow) result = result * 10 + digit;
        }
    }
    if constexpr (std::is_signed_v<T>) {
        if (!negative && result == std::numeric_limits<T>::min()) overflow = true;
        // Not when it overflowed: -min would be undefined for the widest type.
        if (!negative && !overflow) result = -result;
    } else {
        if (negative && result != 0) {
            reader.error(codes::minimum, "must be >= 0");
            return false;
        }
    }
    if (overflow) {
        reader.error(codes::range, "is out of range");
        return false;
    }
    out = static_cast<T>(result);
    return true;
}

// Reads an array into `out`. With a bound (BoundedVector), the element past `max_items` is not
// built: one `length` error at the array, then reading stops.
template <class T, class Bound = void>
bool read_array(Reader& reader, ondemand::value& value, std::vector<T>& out) {
    constexpr bool bounded = !std::is_void_v<Bound>;
    std::size_t max_items = std::numeric_limits<std::size_t>::max();
    if constexpr (bounded) max_items = Bound::max_items(reader.options());
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::array) {
        reader.type_error(value, t, "must be an array");
        return false;
    }
    const char* where = Reader::token_start(value);
    ondemand::array array;
    if (auto e = value.get_array().get(array)) reader.malformed(where, simdjson::error_message(e));
    reader.enter(where);
    std::size_t before = reader.error_count();
    // A bounded array (a bulk body's items) gets its storage at once rather than by a doubling
    // growth that moves every element several times: as many elements as the rest of the
    // document could hold (two bytes each at the least), never more than the bound.
    if constexpr (bounded) out.reserve(std::min(max_items, reader.bytes_after(where) / 2));
    std::size_t index = 0;
    for (auto element_result : array) {
        if (auto e = element_result.error()) reader.malformed(e);
        ondemand::value&& element = std::move(element_result).value_unsafe();
        if constexpr (bounded) {
            if (index == max_items) [[unlikely]] {
                reader.error(codes::length, Bound::length_message(max_items));
                reader.stop();
            }
        }
        reader.push(index);
        // The elements already there (read_into) are read over, keeping what they own.
        if constexpr (std::is_same_v<T, bool>) {  // vector<bool> hands out proxies
            bool b = false;
            read_value(reader, element, b);
            if (index < out.size()) {
                out[index] = b;
            } else {
                out.push_back(b);
            }
        } else {
            read_part(reader, element, index < out.size() ? out[index] : out.emplace_back());
        }
        ++index;
        reader.pop();
    }
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(index), out.end());
    reader.leave();
    if constexpr (bounded) {
        if (index < Bound::min_items) reader.error(codes::length, Bound::length_message(max_items));
    }
    return reader.error_count() == before;
}

// Finds the member a key names, comparing the raw key in the input buffer (always padded, so
// reading a little past a key is safe): the member expected next (read_members' hint), where a
// document in declaration order or its reverse hits; then, out of line, by the key's length
// (found by a search for its closing quote that stops at the longest name's length), the names of
// that length; for a key with escapes, its unescaped form. n when no member has the name.
template <class T>
COLLECTCALL_OUT_OF_LINE std::size_t match_other_member(ondemand::field& field, const char* raw,
                                                       Reader& reader,
                                                       std::string_view& unescaped) {
    constexpr auto& names = member_names<T>;
    constexpr std::size_t n = names.size();
    if (const std::size_t i = member_lookup<T>::by_raw_key(raw); i != n) return i;
    if (auto e = field.unescaped_key().get(unescaped))
        reader.malformed(raw, simdjson::error_message(e));
    for (std::size_t i = 0; i < n; ++i) {
        if (names[i] == unescaped) return i;
    }
    return n;
}

template <class T>
COLLECTCALL_HOT std::size_t match_member(ondemand::field& field, std::size_t hint, Reader& reader,
                                         std::string_view& unescaped) {
    using Lookup = member_lookup<T>;
    const char* raw = field.key().raw();
    if (hint < Lookup::n && Lookup::is(raw, hint)) [[likely]]
        return hint;
    return match_other_member<T>(field, raw, reader, unescaped);
}

// Reads member I of T: one function per member, so that the member a key names is reached by
// one indirect call rather than a call into a switch over them all.
template <class T, std::size_t I>
bool read_member(Reader& reader, ondemand::value& value, T& out) {
    using D = boost::mp11::mp_at_c<described_members<T>, I>;
    return read_part(reader, value, out.*D::pointer);
}

template <class T>
inline constexpr auto member_readers = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<bool (*)(Reader&, ondemand::value&, T&), sizeof...(I)>{&read_member<T, I>...};
}
(std::make_index_sequence<boost::mp11::mp_size<described_members<T>>::value>{});

// Reads the members of an object that starts at `where`.
template <class T>
bool read_members(Reader& reader, ondemand::object& object, const char* where, T& out) {
    using Members = described_members<T>;
    constexpr std::size_t n = boost::mp11::mp_size<Members>::value;
    constexpr auto& names = member_names<T>;

    reader.enter(where);
    const std::size_t before = reader.error_count();

    // What a cross-field rule may ask (MemberStates) is recorded only for a struct that has one.
    constexpr bool checked = HasMemberCheck<T>;
    bool seen[n + 1] = {};
    [[maybe_unused]] bool present[checked ? n + 1 : 1] = {};
    [[maybe_unused]] bool failed[checked ? n + 1 : 1] = {};
    MemberHint hint;
    reader.push(std::string_view{});  // renamed for each member
    for (auto field_result : object) {
        // Used where it is rather than copied out with get(): the copy of a field just built
        // member by member stalls on store forwarding (here and in every loop of this file).
        if (auto e = field_result.error()) reader.malformed(e);
        ondemand::field&& field = std::move(field_result).value_unsafe();
        std::string_view unescaped;
        const std::size_t i = match_member<T>(field, hint.expected(), reader, unescaped);
        if (i == n) {
            reader.rename_top(unescaped);
            reader.skip(field.value());
            reader.error(codes::unknown_field, "is not a known member");
            continue;
        }
        hint.saw(i);
        reader.rename_top(names[i]);
        if (seen[i]) {
            reader.skip(field.value());
            reader.error(codes::duplicate_field, "appears more than once");
            if constexpr (checked) failed[i] = true;
        } else {
            seen[i] = true;
            [[maybe_unused]] const std::size_t member_before = reader.error_count();
            ondemand::value& member_value = field.value();
            if constexpr (checked) {
                // Only `null` starts with 'n' (anything else malformed has already stopped us).
                present[i] = *Reader::token_start(member_value) != 'n';
            }
            member_readers<T>[i](reader, member_value, out);
            if constexpr (checked) failed[i] = reader.error_count() != member_before;
        }
    }
    reader.pop();
    reader.leave();

    finish_members(
        out, [&](std::size_t i) { return seen[i]; },
        [&](std::size_t i) { reader.member_error(names[i], codes::required, "is required"); });
    if constexpr (checked) check_members(out, present, failed, reader);
    return reader.error_count() == before;
}

template <class T>
bool read_object(Reader& reader, ondemand::value& value, T& out) {
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::object) {
        reader.type_error(value, t, "must be an object");
        return false;
    }
    const char* where = Reader::token_start(value);
    ondemand::object object;
    if (auto e = value.get_object().get(object))
        reader.malformed(where, simdjson::error_message(e));
    return read_members(reader, object, where, out);
}

// One overload per ReadKind, for the T of that kind (kind_of<T>).

template <class T>
bool read_as(kind_tag<ReadKind::hook>, Reader& reader, ondemand::value& value, T& out) {
    return HookAccess::read(reader, value, out);
}

// A Validated<T> gathers its errors apart (an error scope) and keeps them, with paths relative
// to itself; it is always a valid part of the enclosing document.
template <class T>
bool read_as(kind_tag<ReadKind::validated>, Reader& reader, ondemand::value& value, T& out) {
    const Reader::ErrorScope outer = reader.open_error_scope();
    read_value(reader, value, ValidatedAccess::value(out));
    ErrorList& errors = ValidatedAccess::errors(out);
    errors = reader.close_error_scope(outer);
    if (!errors.empty()) {
        // The path of the item itself, built only when it has errors.
        const std::size_t prefix = reader.current_path().size();
        for (Error& e : errors) {
            if (e.code != codes::too_many_errors) e.path.erase(0, prefix);
        }
    }
    return true;
}

template <class T>
bool read_as(kind_tag<ReadKind::optional>, Reader& reader, ondemand::value& value, T& out) {
    // Only null starts with 'n' (what else does is malformed, which scalar_token reports).
    if (*Reader::token_start(value) == 'n') {
        reader.scalar_token(value, ondemand::json_type::null);
        out.reset();
        return true;
    }
    if (read_value(reader, value, in_place_value(out))) return true;
    out.reset();
    return false;
}

template <class T>
bool read_as(kind_tag<ReadKind::patch>, Reader& reader, ondemand::value& value, T& out) {
    if (*Reader::token_start(value) == 'n') {
        reader.scalar_token(value, ondemand::json_type::null);
        out.set_null();
        return true;
    }
    typename T::value_type inner{};
    if (!read_value(reader, value, inner)) {
        out.reset();
        return false;
    }
    out = std::move(inner);
    return true;
}

template <class T>
bool read_as(kind_tag<ReadKind::not_allowed>, Reader& reader, ondemand::value& value, T&) {
    reader.skip(value);
    reader.error(codes::not_allowed, "cannot be set");
    return false;
}

template <class T>
COLLECTCALL_HOT bool read_as(kind_tag<ReadKind::string>, Reader& reader, ondemand::value& value,
                             T& out) {
    auto text = reader.string(value);
    if (!text) return false;
    return convert_string(
        *text, reader.options(), out,
        [&](std::string_view code, std::string_view message) { reader.error(code, message); });
}

template <class T>
COLLECTCALL_HOT bool read_as(kind_tag<ReadKind::number>, Reader& reader, ondemand::value& value,
                             T& out) {
    if constexpr (HasPlainNumbers<T>) {
        // The plain shape first (digits, maybe a point and digits: Money's 1234.56), which is a
        // JSON number whenever parse_plain accepts it: no type() and no grammar check.
        if (const char c = *Reader::token_start(value); c >= '0' && c <= '9') {
            const std::string_view token = trim_json_space(value.raw_json_token());
            if (std::optional<T> plain = T::parse_plain(token)) {
                out = *plain;
                return true;
            }
        }
    }
    auto token = reader.number_token(value);
    if (!token) return false;
    return convert_number(*token, out, [&](std::string_view code, std::string_view message) {
        reader.error(code, message);
    });
}

template <class T>
bool read_as(kind_tag<ReadKind::boolean>, Reader& reader, ondemand::value& value, T& out) {
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::boolean) {
        reader.type_error(value, t, "must be true or false");
        return false;
    }
    out = Reader::is_literal(reader.scalar_token(value, t), "true");
    return true;
}

template <class T>
bool read_as(kind_tag<ReadKind::null>, Reader& reader, ondemand::value& value, T&) {
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::null) {
        reader.type_error(value, t, "must be null");
        return false;
    }
    reader.scalar_token(value, t);
    return true;
}

template <class T>
bool read_as(kind_tag<ReadKind::integer>, Reader& reader, ondemand::value& value, T& out) {
    return read_integer(reader, value, out);
}

template <class T>
bool read_as(kind_tag<ReadKind::bounded_array>, Reader& reader, ondemand::value& value, T& out) {
    return read_array<typename T::value_type, T>(reader, value, out);
}

template <class T>
bool read_as(kind_tag<ReadKind::array>, Reader& reader, ondemand::value& value, T& out) {
    return read_array(reader, value, out);
}

template <class T>
bool read_as(kind_tag<ReadKind::object>, Reader& reader, ondemand::value& value, T& out) {
    return read_object(reader, value, out);
}

template <ReadKind K>
    struct full_pass_reads
    : std::bool_constant < requires(Reader& reader, ondemand::value& value, AnyKind& out) {
    read_as(kind_tag<K>{}, reader, value, out);
} > {};
static_assert(covers_every_kind<full_pass_reads>, "the full pass reads every kind of kind.hpp");

}  // namespace detail

template <class T>
bool read_value(Reader& reader, ondemand::value& value, T& out) {
    return detail::read_as(detail::kind_tag<detail::kind_of<T>>{}, reader, value, out);
}

}  // namespace collectcall
