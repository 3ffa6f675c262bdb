// The members of ValueReader (read/value_reader.hpp, the read hook), over the full pass's Reader
// and simdjson's values.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/read/reader.hpp"
#include "collectcall/core/read/simdjson.hpp"
#include "collectcall/core/read/value_reader.hpp"

namespace collectcall {

template <class T>
bool read_value(Reader& reader, ondemand::value& value, T& out);

namespace detail {

// The full pass's way into the hook, and the hook's to the full pass's value.
struct HookAccess {
    template <class T>
    static bool read(Reader& reader, ondemand::value& value, T& out) {
        ValueReader in(reader, &value, reader.path_depth());
        const bool ok = collectcall_read(in, out);
        in.finish();
        return ok;
    }
    static ondemand::value& value(const ValueReader& in) noexcept {
        return *static_cast<ondemand::value*>(in.value_);
    }
};

}  // namespace detail

inline JsonType ValueReader::type() {
    if (consumed_) throw std::logic_error("a ValueReader's type is asked before its value is read");
    switch (reader_->type_of(detail::HookAccess::value(*this))) {
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

inline std::optional<std::string_view> ValueReader::string() {
    consume();
    return reader_->string(detail::HookAccess::value(*this));
}

inline std::optional<std::string_view> ValueReader::number() {
    consume();
    return reader_->number_token(detail::HookAccess::value(*this));
}

inline std::optional<bool> ValueReader::boolean() {
    bool b = false;
    if (!read(b)) return std::nullopt;
    return b;
}

inline std::optional<std::string_view> ValueReader::scalar() {
    consume();
    ondemand::value& value = detail::HookAccess::value(*this);
    const ondemand::json_type t = reader_->type_of(value);
    if (t == ondemand::json_type::object || t == ondemand::json_type::array ||
        t == ondemand::json_type::string) {
        reader_->type_error(value, t, "must be a number, true, false or null");
        return std::nullopt;
    }
    return reader_->scalar_token(value, t);
}

template <class T>
bool ValueReader::read(T& out) {
    consume();
    return read_value(*reader_, detail::HookAccess::value(*this), out);
}

inline bool ValueReader::object_members(
    detail::FunctionRef<void(std::string_view, ValueReader&)> member) {
    consume();
    ondemand::value& value = detail::HookAccess::value(*this);
    const ondemand::json_type t = reader_->type_of(value);
    if (t != ondemand::json_type::object) {
        reader_->type_error(value, t, "must be an object");
        return false;
    }
    const std::size_t before = reader_->error_count();
    auto each = [&](ondemand::field& field) {
        std::string_view key;
        if (auto e = field.unescaped_key().get(key)) reader_->malformed(e);
        reader_->rename_top(key);
        ValueReader in(*reader_, &field.value(), reader_->path_depth());
        member(key, in);
        in.finish();
    };
    reader_->push(std::string_view{});  // renamed for each member
    reader_->each_member(value, detail::FunctionRef<void(ondemand::field&)>(each));
    reader_->pop();
    return reader_->error_count() == before;
}

inline bool ValueReader::array_elements(detail::FunctionRef<void(ValueReader&)> element) {
    consume();
    ondemand::value& value = detail::HookAccess::value(*this);
    const ondemand::json_type t = reader_->type_of(value);
    if (t != ondemand::json_type::array) {
        reader_->type_error(value, t, "must be an array");
        return false;
    }
    const std::size_t before = reader_->error_count();
    std::size_t index = 0;
    auto each = [&](ondemand::value& item) {
        reader_->push(index++);
        ValueReader in(*reader_, &item, reader_->path_depth());
        element(in);
        in.finish();
        reader_->pop();
    };
    reader_->each_element(value, detail::FunctionRef<void(ondemand::value&)>(each));
    return reader_->error_count() == before;
}

inline void ValueReader::error(std::string_view code, std::string_view message) {
    reader_->error_at(path_depth_, code, message);
}

inline void ValueReader::member_error(std::string_view member, std::string_view code,
                                      std::string_view message) {
    if (reader_->path_depth() != path_depth_)
        throw std::logic_error("ValueReader::member_error inside the reading of a part");
    reader_->member_error(member, code, message);
}

inline const ReadOptions& ValueReader::options() const noexcept {
    return reader_->options();
}

inline void ValueReader::consume() {
    if (consumed_) throw std::logic_error("a ValueReader's value is read once");
    consumed_ = true;
}

inline void ValueReader::finish() {
    if (!consumed_) reader_->skip(detail::HookAccess::value(*this));
}

}  // namespace collectcall
