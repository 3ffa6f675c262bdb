// The one description of how a type is read, which both passes follow: kind_of<T> says what T is
// to the reader, and each pass has one overload per ReadKind (read_as in full_pass.hpp,
// FastReader::read_as in fast_pass.hpp). A new kind is one enumerator here and one overload in
// each pass; a pass that lacks the overload for some kind does not compile (covers_every_kind).
#pragma once

#include <string>
#include <type_traits>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read/convert.hpp"
#include "collectcall/core/read/simdjson.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

class Reader;
class ValueReader;
template <class T>
class Validated;

// Whether T has the read hook: `bool collectcall_read(collectcall::ValueReader&, T&)`, found by
// ADL (read/value_reader.hpp).
template <class T>
concept HasReadHook = requires(ValueReader& in, T& out) {
    { collectcall_read(in, out) } -> std::same_as<bool>;
};

namespace detail {

template <class T>
inline constexpr bool is_validated_v = false;
template <class T>
inline constexpr bool is_validated_v<Validated<T>> = true;

// The former read hook, which handed a type simdjson's value and the Reader.
template <class T>
concept HasFormerReadHook = requires(Reader& reader, simdjson::ondemand::value& value, T& out) {
    collectcall_read(reader, value, out);
};

enum class ReadKind {
    hook,           // a type of its own reader (HasReadHook)
    validated,      // Validated<T>: a part whose errors stay with it
    optional,       // std::optional<T>: absent or null, or a T
    patch,          // Patch<T>: absent, null or a T, told apart
    not_allowed,    // NotAllowed: a member that must not be given
    string,         // from a JSON string: std::string, a described enum, a StringValue
    number,         // from a number's exact text: a NumberValue (Money)
    boolean,        // bool
    null,           // null_t
    integer,        // the integer types but bool
    bounded_array,  // BoundedVector<T, ...>: an array with a bound on its items
    array,          // std::vector<T>
    object,         // a described struct
};
BOOST_DESCRIBE_ENUM(ReadKind, hook, validated, optional, patch, not_allowed, string, number,
                    boolean, null, integer, bounded_array, array, object)

template <class T>
consteval ReadKind read_kind() {
    // The first that applies, in this order: a hook wins over what the type also is.
    if constexpr (HasReadHook<T>) {
        return ReadKind::hook;
    } else if constexpr (is_validated_v<T>) {
        return ReadKind::validated;
    } else if constexpr (is_optional_v<T>) {
        return ReadKind::optional;
    } else if constexpr (is_patch_v<T>) {
        return ReadKind::patch;
    } else if constexpr (std::is_same_v<T, NotAllowed>) {
        return ReadKind::not_allowed;
    } else if constexpr (from_json_string<T>) {
        return ReadKind::string;
    } else if constexpr (NumberValue<T>) {
        return ReadKind::number;
    } else if constexpr (std::is_same_v<T, bool>) {
        return ReadKind::boolean;
    } else if constexpr (std::is_same_v<T, null_t>) {
        return ReadKind::null;
    } else if constexpr (Integer<T>) {
        return ReadKind::integer;
    } else if constexpr (is_bounded_vector_v<T>) {
        return ReadKind::bounded_array;
    } else if constexpr (is_vector_v<T>) {
        return ReadKind::array;
    } else if constexpr (Described<T>) {
        return ReadKind::object;
    } else {
        static_assert(!HasFormerReadHook<T>,
                      "collectcall_read(Reader&, simdjson::ondemand::value&, T&) is no longer the "
                      "read hook: write bool collectcall_read(collectcall::ValueReader&, T&) "
                      "(collectcall/core/read/value_reader.hpp)");
        static_assert(sizeof(T) == 0,
                      "collectcall cannot read this type: describe it with BOOST_DESCRIBE_STRUCT, "
                      "meet StringValue/NumberValue, or write bool "
                      "collectcall_read(collectcall::ValueReader&, T&) found by ADL");
        return ReadKind::object;
    }
}

// What T is to the reader.
template <class T>
inline constexpr ReadKind kind_of = read_kind<T>();

template <ReadKind K>
using kind_tag = std::integral_constant<ReadKind, K>;

// Whether a failed read leaves `out` as it found it: a value type, a Patch; not the containers
// of parts, which keep their valid parts, nor the types that read themselves.
template <class T>
inline constexpr bool read_whole = [] {
    switch (kind_of<T>) {
        case ReadKind::hook:
        case ReadKind::validated:
        case ReadKind::optional:
        case ReadKind::bounded_array:
        case ReadKind::array:
        case ReadKind::object:
            return false;
        case ReadKind::patch:
        case ReadKind::not_allowed:
        case ReadKind::string:
        case ReadKind::number:
        case ReadKind::boolean:
        case ReadKind::null:
        case ReadKind::integer:
            return true;
    }
    return true;
}();

// A type no overload of a pass refuses by its declaration: what covers_every_kind asks a pass to
// read, for each kind.
struct AnyKind {};

// Whether Reads<K>::value holds for every ReadKind: a pass states with it that it has an
// overload for each.
template <template <ReadKind> class Reads>
inline constexpr bool covers_every_kind = [] {
    bool all = true;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<ReadKind>>(
        [&](auto D) { all = all && Reads<decltype(D)::value>::value; });
    return all;
}();

}  // namespace detail

}  // namespace collectcall
