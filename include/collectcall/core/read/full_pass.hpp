// The full pass: one pass of simdjson On-Demand that reports every error. Each object is iterated
// once and each key dispatched to its member (out-of-order keys cost no extra pass); a presence
// bitset gives required, duplicate and unknown members in the same pass. One object loop and one
// array loop serve every type, each type described to them by a table (ObjectType, ArrayType).
// Field errors are collected and reading goes on; only a structural error (malformed JSON,
// invalid UTF-8, trailing content, nesting too deep) stops it. read_value follows kind_of<T>
// (kind.hpp): one read_as overload per kind.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
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
#include "collectcall/core/function_ref.hpp"
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

// The object and array loops are written once, for every type: a type is described to them by
// a table of what is its own (ObjectType, ArrayType), and the code made for each type is that
// table and the small functions it points to. What the loops do with simdjson is compiled once
// per program rather than once per type.

// A described struct as the object loop sees it.
struct ObjectType {
    using ReadMember = bool (*)(Reader&, ondemand::value&, void* object);
    std::size_t size;               // members
    const std::string_view* names;  // in declaration order
    const ReadMember* readers;      // reads member i into the object
    // The member a raw key names, the one expected next (MemberHint) first; size when no member
    // has the raw key's text (an unknown key, or one with escapes).
    std::size_t (*match)(const char* raw, std::size_t expected) noexcept;
    // What follows the last key: members the document lacks (finish_members), then the
    // cross-field rule when there is one (check_members) with what each member was.
    void (*finish)(void* object, const bool* seen, const bool* present, const bool* failed,
                   Reader& reader);
};

// A vector of T as the array loop sees it, with a bound (BoundedVector) or without.
struct ArrayType {
    // Reads element `index` of the vector: over the one there (read_into), or a new one at the
    // end. A failed element is left as a fresh one would be.
    bool (*read_element)(Reader&, ondemand::value&, void* vector, std::size_t index);
    void (*truncate)(void* vector, std::size_t size);
    void (*reserve)(void* vector, std::size_t size);
    std::size_t (*max_items)(const ReadOptions&);  // null without a bound
    std::size_t min_items;
};

// Reads an array. With a bound, the element past its max_items is not built: one `length` error
// at the array, then reading stops.
inline bool read_array(Reader& reader, ondemand::value& value, const ArrayType& type, void* out) {
    const bool bounded = type.max_items != nullptr;
    const std::size_t max_items =
        bounded ? type.max_items(reader.options()) : std::numeric_limits<std::size_t>::max();
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::array) {
        reader.type_error(value, t, "must be an array");
        return false;
    }
    const char* where = Reader::token_start(value);
    const std::size_t before = reader.error_count();
    std::size_t index = 0;
    auto element = [&](ondemand::value& item) {
        if (index == max_items) [[unlikely]] {
            reader.error(codes::length, length_message(type.min_items, max_items));
            reader.stop();
        }
        // A bounded array (a bulk body's items) gets its storage at once rather than by a
        // doubling growth that moves every element several times: as many elements as the rest
        // of the document could hold (two bytes each at the least), never more than the bound.
        if (bounded && index == 0)
            type.reserve(out, std::min(max_items, reader.bytes_after(where) / 2));
        reader.push(index);
        type.read_element(reader, item, out, index);
        ++index;
        reader.pop();
    };
    reader.each_element(value, FunctionRef<void(ondemand::value&)>(element));
    type.truncate(out, index);
    if (bounded && index < type.min_items)
        reader.error(codes::length, length_message(type.min_items, max_items));
    return reader.error_count() == before;
}

template <class T>
bool read_element(Reader& reader, ondemand::value& value, void* vector, std::size_t index) {
    std::vector<T>& out = *static_cast<std::vector<T>*>(vector);
    // The elements already there (read_into) are read over, keeping what they own.
    if constexpr (std::is_same_v<T, bool>) {  // vector<bool> hands out proxies
        bool b = false;
        const bool read = read_value(reader, value, b);
        if (index < out.size()) {
            out[index] = b;
        } else {
            out.push_back(b);
        }
        return read;
    } else {
        return read_part(reader, value, index < out.size() ? out[index] : out.emplace_back());
    }
}

template <class T>
void truncate_vector(void* vector, std::size_t size) {
    std::vector<T>& out = *static_cast<std::vector<T>*>(vector);
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(size), out.end());
}

template <class T>
void reserve_vector(void* vector, std::size_t size) {
    static_cast<std::vector<T>*>(vector)->reserve(size);
}

// The table of a vector of T; Bound is the BoundedVector, or void.
template <class T, class Bound>
inline constexpr ArrayType array_type = [] {
    ArrayType type{&read_element<T>, &truncate_vector<T>, &reserve_vector<T>, nullptr, 0};
    if constexpr (!std::is_void_v<Bound>) {
        type.max_items = &Bound::max_items;
        type.min_items = Bound::min_items;
    }
    return type;
}();

// Finds the member a key names, for what ObjectType::match leaves: a key with escapes is
// compared in its unescaped form. Returns type.size when no member has the name.
COLLECTCALL_COLD inline std::size_t match_unescaped(ondemand::field& field, const char* raw,
                                                    Reader& reader, const ObjectType& type,
                                                    std::string_view& unescaped) {
    if (auto e = field.unescaped_key().get(unescaped))
        reader.malformed(raw, simdjson::error_message(e));
    for (std::size_t i = 0; i < type.size; ++i) {
        if (type.names[i] == unescaped) return i;
    }
    return type.size;
}

// What an object records of each member, for a struct of up to `inline_members` members on the
// stack.
class MemberFlags {
  public:
    explicit MemberFlags(std::size_t size) {
        bool* flags = inline_;
        if (size > inline_members) {
            heap_ = std::make_unique<bool[]>(3 * size);
            flags = heap_.get();
        } else {
            std::memset(inline_, 0, 3 * size);
        }
        seen = flags;
        present = flags + size;
        failed = flags + 2 * size;
    }
    bool* seen;
    bool* present;
    bool* failed;

  private:
    static constexpr std::size_t inline_members = 64;
    bool inline_[3 * inline_members];
    std::unique_ptr<bool[]> heap_;
};

// Reads the members of an object that starts at `where`.
// Reads the members of an object.
inline bool read_object(Reader& reader, ondemand::value& value, const ObjectType& type, void* out) {
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::object) {
        reader.type_error(value, t, "must be an object");
        return false;
    }
    const std::size_t n = type.size;
    const std::size_t before = reader.error_count();
    MemberFlags flags(n);
    MemberHint hint;
    auto member = [&](ondemand::field& field) {
        std::string_view unescaped;
        const char* raw = field.key().raw();
        std::size_t i = type.match(raw, hint.expected());
        if (i == n) [[unlikely]]
            i = match_unescaped(field, raw, reader, type, unescaped);
        if (i == n) {
            reader.rename_top(unescaped);
            reader.skip(field.value());
            reader.error(codes::unknown_field, "is not a known member");
            return;
        }
        hint.saw(i);
        reader.rename_top(type.names[i]);
        if (flags.seen[i]) {
            reader.skip(field.value());
            reader.error(codes::duplicate_field, "appears more than once");
            flags.failed[i] = true;
        } else {
            flags.seen[i] = true;
            const std::size_t member_before = reader.error_count();
            ondemand::value& member_value = field.value();
            // Only `null` starts with 'n' (anything else malformed has already stopped us).
            flags.present[i] = *Reader::token_start(member_value) != 'n';
            type.readers[i](reader, member_value, out);
            flags.failed[i] = reader.error_count() != member_before;
        }
    };
    reader.push(std::string_view{});  // renamed for each member
    reader.each_member(value, FunctionRef<void(ondemand::field&)>(member));
    reader.pop();

    type.finish(out, flags.seen, flags.present, flags.failed, reader);
    return reader.error_count() == before;
}

// Reads a member or an element of type T: one function per type, which every member and element
// of that type calls.
template <class T>
COLLECTCALL_OUT_OF_LINE bool read_part_of(Reader& reader, ondemand::value& value, T& out) {
    return read_part(reader, value, out);
}

// Reads member I of T.
template <class T, std::size_t I>
bool read_member(Reader& reader, ondemand::value& value, void* object) {
    using D = boost::mp11::mp_at_c<described_members<T>, I>;
    return read_part_of(reader, value, static_cast<T*>(object)->*D::pointer);
}

template <class T>
std::size_t match_member(const char* raw, std::size_t expected) noexcept {
    using Lookup = member_lookup<T>;
    if (expected < Lookup::n && Lookup::is(raw, expected)) [[likely]]
        return expected;
    return Lookup::by_raw_key(raw);
}

template <class T>
void finish_object(void* object, const bool* seen, const bool* present, const bool* failed,
                   Reader& reader) {
    T& out = *static_cast<T*>(object);
    finish_members(
        out, [&](std::size_t i) { return seen[i]; },
        [&](std::size_t i) {
            reader.member_error(member_names<T>[i], codes::required, "is required");
        });
    if constexpr (HasMemberCheck<T>) check_members(out, present, failed, reader);
}

template <class T>
inline constexpr auto member_readers = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<ObjectType::ReadMember, sizeof...(I)>{&read_member<T, I>...};
}
(std::make_index_sequence<boost::mp11::mp_size<described_members<T>>::value>{});

template <class T>
inline constexpr ObjectType object_type{member_names<T>.size(), member_names<T>.data(),
                                        member_readers<T>.data(), &match_member<T>,
                                        &finish_object<T>};

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
    return read_array(reader, value, array_type<typename T::value_type, T>,
                      static_cast<std::vector<typename T::value_type>*>(&out));
}

template <class T>
bool read_as(kind_tag<ReadKind::array>, Reader& reader, ondemand::value& value, T& out) {
    return read_array(reader, value, array_type<typename T::value_type, void>, &out);
}

template <class T>
bool read_as(kind_tag<ReadKind::object>, Reader& reader, ondemand::value& value, T& out) {
    return read_object(reader, value, object_type<T>, &out);
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
