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
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <simdjson.h>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/read/reader.hpp"

namespace collectcall {

template <class T>
bool read_value(Reader& reader, ondemand::value& value, T& out);

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
    [[nodiscard]] JsonType type() {
        if (consumed_)
            throw std::logic_error("a ValueReader's type is asked before its value is read");
        switch (reader_->type_of(*value_)) {
            case ondemand::json_type::object:
                return JsonType::object;
            case ondemand::json_type::array:
                return JsonType::array;
            case ondemand::json_type::string:
                return JsonType::string;
            case ondemand::json_type::number:
                return JsonType::number;
            case ondemand::json_type::boolean:
                return JsonType::boolean;
            case ondemand::json_type::null:
                break;
        }
        return JsonType::null;
    }

    // A string's text, unescaped; anything else is a `type` error ("must be a string"). The text
    // stays valid while the document is read.
    std::optional<std::string_view> string() {
        consume();
        return reader_->string(*value_);
    }

    // A number's exact text (as written, checked against the JSON grammar); anything else is a
    // `type` error ("must be a number").
    std::optional<std::string_view> number() {
        consume();
        return reader_->number_token(*value_);
    }

    // true or false; anything else is a `type` error ("must be true or false").
    std::optional<bool> boolean() {
        bool b = false;
        if (!read(b)) return std::nullopt;
        return b;
    }

    // The exact text of a number, true, false or null; a string, object or array is a `type`
    // error ("must be a number, true, false or null").
    std::optional<std::string_view> scalar() {
        consume();
        const ondemand::json_type t = reader_->type_of(*value_);
        if (t == ondemand::json_type::object || t == ondemand::json_type::array ||
            t == ondemand::json_type::string) {
            reader_->type_error(*value_, t, "must be a number, true, false or null");
            return std::nullopt;
        }
        return reader_->scalar_token(*value_, t);
    }

    // Reads the value as any type the library reads (a value type, a described struct, a type
    // with a hook of its own), reporting its errors. True when `out` holds a valid value.
    template <class T>
    bool read(T& out) {
        consume();
        return read_value(*reader_, *value_, out);
    }

    // Reads an object: `member(key, value)` is called for each member in document order, with
    // the member's unescaped key (valid while the document is read) and its value as a
    // ValueReader whose path ends in the key. Keys are given as they come, repeated ones too.
    // Anything but an object is a `type` error ("must be an object"). True when the value was an
    // object and no error was reported while it was read.
    template <class Member>
    bool object(Member&& member) {
        consume();
        const ondemand::json_type t = reader_->type_of(*value_);
        if (t != ondemand::json_type::object) {
            reader_->type_error(*value_, t, "must be an object");
            return false;
        }
        const char* where = Reader::token_start(*value_);
        ondemand::object object;
        if (auto e = value_->get_object().get(object))
            reader_->malformed(where, simdjson::error_message(e));
        const std::size_t before = reader_->error_count();
        reader_->enter(where);
        reader_->push(std::string_view{});  // renamed for each member
        for (auto field_result : object) {
            if (auto e = field_result.error()) reader_->malformed(e);
            ondemand::field&& field = std::move(field_result).value_unsafe();
            std::string_view key;
            if (auto e = field.unescaped_key().get(key)) reader_->malformed(e);
            reader_->rename_top(key);
            ValueReader value(*reader_, field.value());
            member(key, value);
            value.finish();
        }
        reader_->pop();
        reader_->leave();
        return reader_->error_count() == before;
    }

    // Reads an array: `element(value)` is called for each element in order, its path ending in
    // its index. Anything but an array is a `type` error ("must be an array"). True when the value
    // was an array and no error was reported while it was read.
    template <class Element>
    bool array(Element&& element) {
        consume();
        const ondemand::json_type t = reader_->type_of(*value_);
        if (t != ondemand::json_type::array) {
            reader_->type_error(*value_, t, "must be an array");
            return false;
        }
        const char* where = Reader::token_start(*value_);
        ondemand::array array;
        if (auto e = value_->get_array().get(array))
            reader_->malformed(where, simdjson::error_message(e));
        const std::size_t before = reader_->error_count();
        reader_->enter(where);
        std::size_t index = 0;
        for (auto element_result : array) {
            if (auto e = element_result.error()) reader_->malformed(e);
            ondemand::value&& item = std::move(element_result).value_unsafe();
            reader_->push(index++);
            ValueReader value(*reader_, item);
            element(value);
            value.finish();
            reader_->pop();
        }
        reader_->leave();
        return reader_->error_count() == before;
    }

    // Reports a problem with this value, at its path: also from inside the reading of one of its
    // members or elements (a bound of the whole value passed deep inside it).
    void error(std::string_view code, std::string_view message) {
        reader_->error_at(path_depth_, code, message);
    }

    // Reports a problem with a member of this object that is not in it (a required member), at
    // the member's path. Called once object() has returned, not from inside it.
    void member_error(std::string_view member, std::string_view code, std::string_view message) {
        if (reader_->path_depth() != path_depth_)
            throw std::logic_error("ValueReader::member_error inside the reading of a part");
        reader_->member_error(member, code, message);
    }

    // The options the document is read with (ReadOptions::today, the bounds).
    [[nodiscard]] const ReadOptions& options() const noexcept { return reader_->options(); }

  private:
    friend struct detail::HookAccess;

    ValueReader(Reader& reader, ondemand::value& value) noexcept
        : reader_(&reader), value_(&value), path_depth_(reader.path_depth()) {}

    // A value is read once (simdjson's values go forward only).
    void consume() {
        if (consumed_) throw std::logic_error("a ValueReader's value is read once");
        consumed_ = true;
    }
    // A value left unread is skipped, so that malformed JSON inside it is still found.
    void finish() {
        if (!consumed_) reader_->skip(*value_);
    }

    Reader* reader_;
    ondemand::value* value_;
    std::size_t path_depth_;
    bool consumed_ = false;
};

namespace detail {

// The full pass's way into the hook.
struct HookAccess {
    template <class T>
    static bool read(Reader& reader, ondemand::value& value, T& out) {
        ValueReader in(reader, value);
        const bool ok = collectcall_read(in, out);
        in.finish();
        return ok;
    }
};

}  // namespace detail

}  // namespace collectcall
