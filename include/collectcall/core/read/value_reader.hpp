// The read hook: how a type of your own is read from JSON. Write, beside the type (found by ADL),
//
//     bool collectcall_read(collectcall::ValueReader& in, T& out);
//
// returning true when `out` holds a valid value and otherwise having reported why through
// `in.error(code, message)`. `in` is one JSON value of the document, read once: as a string, a
// number's exact text, a boolean, any scalar's text, an object member by member or an array
// element by element (paths and nesting depth are kept for you), or as any type the library
// reads (`in.read(part)`). A value the function does not read is skipped, and checked to be JSON.
// Every error is reported with the JSON Pointer of the value it is reported on, and reading goes
// on; malformed JSON ends the document and unwinds through the function.
//
// A type read through the hook is read by the full pass (read.hpp): a document holding one is not
// taken by the fast pass. docs/read-hook.md shows a type written against the hook.
//
// This header declares ValueReader without simdjson, so that a type's header can define its hook
// for the price of a class declaration (core/readable.hpp); its members are defined by
// read/hook.hpp, which the reader includes.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/function_ref.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

class Reader;

namespace detail {
struct HookAccess;
}  // namespace detail

// The JSON type of a value.
enum class JsonType { object, array, string, number, boolean, null };

class ValueReader {
  public:
    ValueReader(const ValueReader&) = delete;
    ValueReader& operator=(const ValueReader&) = delete;

    // The JSON type of the value, without reading it (asked before it is read).
    [[nodiscard]] JsonType type();

    // A string's text, unescaped; anything else is a `type` error ("must be a string"). The text
    // stays valid while the document is read.
    std::optional<std::string_view> string();

    // A number's exact text (as written, checked against the JSON grammar); anything else is a
    // `type` error ("must be a number").
    std::optional<std::string_view> number();

    // true or false; anything else is a `type` error ("must be true or false").
    std::optional<bool> boolean();

    // The exact text of a number, true, false or null; a string, object or array is a `type`
    // error ("must be a number, true, false or null").
    std::optional<std::string_view> scalar();

    // Reads the value as any type the library reads (a value type, a described struct, a type
    // with a hook of its own), reporting its errors. True when `out` holds a valid value.
    template <class T>
    bool read(T& out);

    // Reads an object: `member(key, value)` is called for each member in document order, with
    // the member's unescaped key (valid while the document is read) and its value as a
    // ValueReader whose path ends in the key. Keys are given as they come, repeated ones too.
    // Anything but an object is a `type` error ("must be an object"). True when the value was an
    // object and no error was reported while it was read.
    template <class Member>
    bool object(Member&& member) {
        return object_members(detail::FunctionRef<void(std::string_view, ValueReader&)>(member));
    }

    // Reads an array: `element(value)` is called for each element in order, its path ending in
    // its index. Anything but an array is a `type` error ("must be an array"). True when the value
    // was an array and no error was reported while it was read.
    template <class Element>
    bool array(Element&& element) {
        return array_elements(detail::FunctionRef<void(ValueReader&)>(element));
    }

    // Reports a problem with this value, at its path: also from inside the reading of one of its
    // members or elements (a bound of the whole value passed deep inside it).
    void error(std::string_view code, std::string_view message);

    // Reports a problem with a member of this object that is not in it (a required member), at
    // the member's path. Called once object() has returned, not from inside it.
    void member_error(std::string_view member, std::string_view code, std::string_view message);

    // The options the document is read with (ReadOptions::today, the bounds).
    [[nodiscard]] const ReadOptions& options() const noexcept;

  private:
    friend struct detail::HookAccess;

    // `value` is the full pass's simdjson value (read/hook.hpp).
    ValueReader(Reader& reader, void* value, std::size_t path_depth) noexcept
        : reader_(&reader), value_(value), path_depth_(path_depth) {}

    bool object_members(detail::FunctionRef<void(std::string_view, ValueReader&)> member);
    bool array_elements(detail::FunctionRef<void(ValueReader&)> element);

    // A value is read once (simdjson's values go forward only).
    void consume();
    // A value left unread is skipped, so that malformed JSON inside it is still found.
    void finish();

    Reader* reader_;
    void* value_;
    std::size_t path_depth_;
    bool consumed_ = false;
};

}  // namespace collectcall
