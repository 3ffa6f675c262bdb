// JsonObject: any JSON object, bounded (64 KiB, nested 16 deep), kept member for member. The
// hosted service's `collections.extensions` (API.md section 4): organisation-specific fields
// the service does not interpret but must echo exactly.
//
// It is read into a compact text of its own (insignificant white space dropped, strings
// re-escaped the way write() escapes, numbers kept as their exact text), written back as that
// text, merged by RFC 7396 (collectcall_merge, which merge_patch calls for it) and published in
// the schema as an object. A member that appears twice is `duplicate_field`, as anywhere else.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"

namespace collectcall {

class JsonObject {
  public:
    static constexpr std::size_t max_bytes = 64 * 1024;  // of the compact text
    static constexpr std::size_t max_depth = 16;         // the object itself is depth 1

    JsonObject() = default;  // {}

    // The compact JSON text of the object.
    [[nodiscard]] std::string_view view() const noexcept { return text_; }

    friend bool operator==(const JsonObject&, const JsonObject&) = default;

    // RFC 7396: `patch` merged into this object. A member set to null is removed, an object
    // merges into an object member by member, anything else replaces. nullopt when the result
    // would be larger than max_bytes.
    [[nodiscard]] std::optional<JsonObject> merged(const JsonObject& patch) const {
        JsonObject out;
        out.text_ = merge_text(text_, patch.text_);
        if (out.text_.size() > max_bytes) return std::nullopt;
        return out;
    }

    // Only the reader makes one from text it has checked and made compact.
    static JsonObject from_compact(std::string text) {
        JsonObject out;
        out.text_ = std::move(text);
        return out;
    }

  private:
    struct Member {
        std::string_view key;    // the key's JSON string token, quotes included
        std::string_view value;  // the value's compact text
    };

    // The end of the JSON string token that starts at `i` (a '"').
    static std::size_t string_end(std::string_view s, std::size_t i) noexcept {
        for (++i; i < s.size(); ++i) {
            if (s[i] == '\\') {
                ++i;
            } else if (s[i] == '"') {
                return i + 1;
            }
        }
        return s.size();
    }

    // The end of the compact value that starts at `i`.
    static std::size_t value_end(std::string_view s, std::size_t i) noexcept {
        if (s[i] == '"') return string_end(s, i);
        if (s[i] == '{' || s[i] == '[') {
            std::size_t depth = 0;
            while (i < s.size()) {
                const char c = s[i];
                if (c == '"') {
                    i = string_end(s, i);
                    continue;
                }
                if (c == '{' || c == '[') ++depth;
                if (c == '}' || c == ']') {
                    if (--depth == 0) return i + 1;
                }
                ++i;
            }
            return s.size();
        }
        while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']')
            ++i;
        return i;
    }

    // The members of a compact object text, in order.
    static std::vector<Member> members(std::string_view s) {
        std::vector<Member> out;
        std::size_t i = 1;  // after '{'
        while (i < s.size() && s[i] != '}') {
            const std::size_t key_end = string_end(s, i);
            const std::size_t value_start = key_end + 1;  // after ':'
            const std::size_t end = value_end(s, value_start);
            out.push_back(
                Member{s.substr(i, key_end - i), s.substr(value_start, end - value_start)});
            i = end < s.size() && s[end] == ',' ? end + 1 : end;
        }
        return out;
    }

    static std::string merge_text(std::string_view target, std::string_view patch) {
        std::vector<std::pair<std::string_view, std::string>> result;
        if (!target.empty() && target.front() == '{') {
            for (const Member& m : members(target))
                result.emplace_back(m.key, std::string(m.value));
        }
        for (const Member& m : members(patch)) {
            auto it = result.begin();
            while (it != result.end() && it->first != m.key)
                ++it;
            if (m.value == "null") {
                if (it != result.end()) result.erase(it);
                continue;
            }
            std::string value;
            if (m.value.front() == '{') {
                value = merge_text(
                    it != result.end() ? std::string_view(it->second) : std::string_view("{}"),
                    m.value);
            } else {
                value = std::string(m.value);
            }
            if (it != result.end()) {
                it->second = std::move(value);
            } else {
                result.emplace_back(m.key, std::move(value));
            }
        }
        std::string out = "{";
        for (const auto& [key, value] : result) {
            if (out.size() > 1) out += ',';
            out += key;
            out += ':';
            out += value;
        }
        out += '}';
        return out;
    }

    std::string text_ = "{}";
};

namespace detail {

struct JsonCopy {
    Reader& reader;
    Writer writer;
    bool too_deep = false;

    // Copies `value` compactly; past max_depth only checks it.
    void copy(ondemand::value& value, std::size_t depth) {
        const ondemand::json_type t = reader.type_of(value);
        switch (t) {
            case ondemand::json_type::object: {
                if (depth >= JsonObject::max_depth) {
                    too_deep = true;
                    reader.skip(value, t);
                    return;
                }
                const char* where = Reader::token_start(value);
                ondemand::object object;
                if (auto e = value.get_object().get(object))
                    reader.malformed(where, simdjson::error_message(e));
                reader.enter(where);
                writer.raw('{');
                std::vector<std::string> seen;
                bool first = true;
                for (auto field_result : object) {
                    ondemand::field field;
                    if (auto e = std::move(field_result).get(field)) reader.malformed(e);
                    std::string_view key;
                    if (auto e = field.unescaped_key().get(key)) reader.malformed(e);
                    std::string owned(key);
                    reader.push(owned);
                    bool duplicate = false;
                    for (const std::string& s : seen)
                        duplicate = duplicate || s == owned;
                    if (duplicate) {
                        reader.skip(field.value());
                        reader.error(codes::duplicate_field, "appears more than once");
                    } else {
                        if (!first) writer.raw(',');
                        first = false;
                        writer.string(owned);
                        writer.raw(':');
                        ondemand::value inner = field.value();
                        copy(inner, depth + 1);
                        seen.push_back(std::move(owned));
                    }
                    reader.pop();
                }
                writer.raw('}');
                reader.leave();
                return;
            }
            case ondemand::json_type::array: {
                if (depth >= JsonObject::max_depth) {
                    too_deep = true;
                    reader.skip(value, t);
                    return;
                }
                const char* where = Reader::token_start(value);
                ondemand::array array;
                if (auto e = value.get_array().get(array))
                    reader.malformed(where, simdjson::error_message(e));
                reader.enter(where);
                writer.raw('[');
                bool first = true;
                for (auto element_result : array) {
                    ondemand::value element;
                    if (auto e = std::move(element_result).get(element)) reader.malformed(e);
                    if (!first) writer.raw(',');
                    first = false;
                    copy(element, depth + 1);
                }
                writer.raw(']');
                reader.leave();
                return;
            }
            case ondemand::json_type::string: {
                std::string_view text;
                if (auto e = value.get_string().get(text)) {
                    reader.malformed(Reader::token_start(value), simdjson::error_message(e));
                }
                writer.string(text);
                return;
            }
            default:
                writer.raw(reader.scalar_token(value, t));
        }
    }
};

}  // namespace detail

inline bool collectcall_read(Reader& reader, ondemand::value& value, JsonObject& out) {
    const ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::object) {
        reader.type_error(value, t, "must be an object");
        return false;
    }
    const std::size_t errors_before = reader.error_count();
    std::string text;
    detail::JsonCopy copy{reader, Writer(text)};
    copy.copy(value, 0);
    copy.writer.flush();
    if (copy.too_deep) {
        reader.error(codes::range, "must not be nested more than 16 deep");
        return false;
    }
    if (text.size() > JsonObject::max_bytes) {
        reader.error(codes::length, "must be at most 65536 bytes");
        return false;
    }
    if (reader.error_count() != errors_before) return false;
    out = JsonObject::from_compact(std::move(text));
    return true;
}

inline void collectcall_write(Writer& writer, const JsonObject& value) {
    writer.raw(value.view());
}

// RFC 7396 for merge_patch: the patch's object merged into the target's.
inline std::optional<Problem> collectcall_merge(JsonObject& target, const JsonObject& patch) {
    auto merged = target.merged(patch);
    if (!merged) return Problem{codes::length, "must be at most 65536 bytes after the merge"};
    target = std::move(*merged);
    return std::nullopt;
}

inline void collectcall_schema(schema_tag<JsonObject>, SchemaBuilder& s) {
    s["type"] = "object";
    s["description"] =
        "Any JSON object, at most 64 KiB and nested at most 16 deep, kept member for member "
        "(numbers keep their exact text); a merge patch merges it by RFC 7396";
}

}  // namespace collectcall
