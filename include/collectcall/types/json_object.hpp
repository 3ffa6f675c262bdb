// JsonObject: any JSON object, bounded (64 KiB, nested 16 deep), kept member for member. The
// hosted service's `collections.extensions` (API.md section 4): organisation-specific fields
// the service does not interpret but must echo exactly.
//
// It is read into a compact text of its own (insignificant white space dropped, strings
// re-escaped the way write() escapes, numbers kept as their exact text), written back as that
// text, merged by RFC 7396 (collectcall_merge, which merge_patch calls for it) and published in
// the schema as an object. A member that appears twice is `duplicate_field`, as anywhere else.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <forward_list>
#include <memory>
#include <memory_resource>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/schema_tag.hpp"
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
    // would be larger than max_bytes. A template of its one argument type, so that the merge is
    // compiled only in a file that merges.
    template <std::same_as<JsonObject> Patch>
    [[nodiscard]] std::optional<JsonObject> merged(const Patch& patch) const {
        JsonObject out;
        out.text_ = merge_text<Patch>(text_, patch.text_);
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

    // Calls f(member) for each member of a compact object text, in order.
    template <class F>
    static void for_each_member(std::string_view s, F&& f) {
        std::size_t i = 1;  // after '{'
        while (i < s.size() && s[i] != '}') {
            const std::size_t key_end = string_end(s, i);
            const std::size_t value_start = key_end + 1;  // after ':'
            const std::size_t end = value_end(s, value_start);
            f(Member{s.substr(i, key_end - i), s.substr(value_start, end - value_start)});
            i = end < s.size() && s[end] == ',' ? end + 1 : end;
        }
    }

    // RFC 7396's MergePatch on compact texts. The target's members are found by binary search
    // in an index sorted by key (the compact form of a key is the same text for the same
    // unescaped key, as the reader re-escapes every key one way): a merge costs n log n in the
    // members, not their product. A patch names each key once (the reader refuses duplicates),
    // so each target member is replaced or removed at most once; a removed one is marked by a
    // value with no data. (Patch is merged()'s.)
    template <class Patch>
    static std::string merge_text(std::string_view target, std::string_view patch) {
        std::vector<Member> result;
        if (!target.empty() && target.front() == '{') {
            for_each_member(target, [&](const Member& m) { result.push_back(m); });
        }
        // Each key's first bytes after its quote, big-endian, decide most comparisons without
        // a call to memcmp or a load from the text (no compact key has a NUL byte, so the
        // zeros that pad a short key order as the full comparison does).
        struct Sorted {
            std::uint64_t prefix;
            std::size_t index;
        };
        const auto prefix_of = [](std::string_view key) {
            std::uint64_t prefix = 0;
            for (std::size_t b = 1; b < 9; ++b) {
                prefix = prefix << 8 | (b < key.size() ? static_cast<unsigned char>(key[b]) : 0U);
            }
            return prefix;
        };
        std::vector<Sorted> by_key(result.size());
        for (std::size_t i = 0; i < by_key.size(); ++i)
            by_key[i] = Sorted{prefix_of(result[i].key), i};
        std::stable_sort(by_key.begin(), by_key.end(), [&](const Sorted& a, const Sorted& b) {
            return a.prefix != b.prefix ? a.prefix < b.prefix
                                        : result[a.index].key < result[b.index].key;
        });
        // The objects merged member into member (a list: its elements never move).
        std::forward_list<std::string> merged;
        for_each_member(patch, [&](const Member& m) {
            const Sorted wanted{prefix_of(m.key), 0};
            const auto at = std::lower_bound(
                by_key.begin(), by_key.end(), wanted, [&](const Sorted& a, const Sorted& b) {
                    return a.prefix != b.prefix ? a.prefix < b.prefix : result[a.index].key < m.key;
                });
            const bool found = at != by_key.end() && result[at->index].key == m.key &&
                               result[at->index].value.data() != nullptr;
            if (m.value == "null") {
                if (found) result[at->index].value = {};
                return;
            }
            std::string_view value = m.value;
            if (m.value.front() == '{') {
                value = merged.emplace_front(merge_text<Patch>(
                    found ? result[at->index].value : std::string_view("{}"), m.value));
            }
            if (found) {
                result[at->index].value = value;
            } else {
                result.push_back(Member{m.key, value});
            }
        });
        std::string out;
        out.reserve(target.size() + patch.size());
        out += '{';
        for (const Member& m : result) {
            if (m.value.data() == nullptr) continue;
            if (out.size() > 1) out += ',';
            out += m.key;
            out += ':';
            out += m.value;
        }
        out += '}';
        return out;
    }

    std::string text_ = "{}";
};

namespace detail {

// Where the keys of a JsonObject being read are kept: one buffer per thread, as large as the
// most keys a JsonObject within its bound holds need (64 KiB of compact text holds at most 13,108
// members, whose tree nodes take less than 1 MiB), so that no key costs an allocation. Its pages
// are touched only as keys need them, and stay for the next document.
inline std::span<std::byte> key_arena() {
    constexpr std::size_t size = std::size_t{1} << 20;
    thread_local const std::unique_ptr<std::byte[]> buffer(new std::byte[size]);
    return {buffer.get(), size};
}

// Reads a JsonObject's value into its compact text in one scan through the read hook, which
// stops copying at the first bound the value passes (its compact size, its depth): the error is
// reported at the JsonObject, and the rest of the value is left unread, which the hook skips and
// checks to be JSON, without copying it or comparing its keys. Within an object the keys seen so
// far are kept in a balanced tree (in one arena per value): each duplicate is found in log n
// comparisons. The keys are the hook's unescaped views, which stay valid for the whole document,
// so "a" and "\u0061" are one member.
struct JsonObjectCopy {
    // A key as the tree holds it: its first eight bytes, big-endian, decide most comparisons
    // without a load from the key's text (the zeros that pad a short key order before any byte,
    // as a shorter string does before a longer one it begins; a NUL inside a key is told apart
    // by the full comparison that equal prefixes fall back to).
    struct Key {
        std::uint64_t prefix;
        std::string_view text;
        static Key of(std::string_view text) noexcept {
            std::uint64_t prefix = 0;
            for (std::size_t b = 0; b < 8; ++b) {
                prefix = prefix << 8 | (b < text.size() ? static_cast<unsigned char>(text[b]) : 0U);
            }
            return Key{prefix, text};
        }
        struct Less {
            bool operator()(const Key& a, const Key& b) const noexcept {
                return a.prefix != b.prefix ? a.prefix < b.prefix : a.text < b.text;
            }
        };
    };

    ValueReader& whole;  // the JsonObject's value: where a bound is reported
    Writer writer;
    std::pmr::memory_resource* arena;
    bool failed = false;   // an error was reported
    bool stopped = false;  // a bound was passed: the rest is only checked

    void exceeded(std::string_view code, std::string_view message) {
        whole.error(code, message);
        failed = stopped = true;
    }
    void check_size() {
        if (writer.size() > JsonObject::max_bytes && !stopped) [[unlikely]]
            exceeded(codes::length, "must be at most 65536 bytes");
    }

    void copy(ValueReader& in, std::size_t depth) {
        if (stopped) return;  // left unread: skipped
        switch (in.type()) {
            case JsonType::object: {
                if (depth >= JsonObject::max_depth) {
                    return exceeded(codes::range, "must not be nested more than 16 deep");
                }
                writer.raw('{');
                std::pmr::set<Key, Key::Less> seen(arena);
                bool first = true;
                in.object([&](std::string_view key, ValueReader& member) {
                    if (stopped) return;
                    if (!seen.insert(Key::of(key)).second) {
                        member.error(codes::duplicate_field, "appears more than once");
                        failed = true;
                        return;
                    }
                    if (!first) writer.raw(',');
                    first = false;
                    writer.string(key);
                    writer.raw(':');
                    check_size();
                    copy(member, depth + 1);
                });
                writer.raw('}');
                return check_size();
            }
            case JsonType::array: {
                if (depth >= JsonObject::max_depth) {
                    return exceeded(codes::range, "must not be nested more than 16 deep");
                }
                writer.raw('[');
                bool first = true;
                in.array([&](ValueReader& element) {
                    if (!first) writer.raw(',');
                    first = false;
                    copy(element, depth + 1);
                });
                writer.raw(']');
                return check_size();
            }
            case JsonType::string:
                if (const std::optional<std::string_view> text = in.string()) writer.string(*text);
                return check_size();
            default:
                if (const std::optional<std::string_view> token = in.scalar()) writer.raw(*token);
                return check_size();
        }
    }
};

}  // namespace detail

// A value past a bound is `length` (past 64 KiB) or `range` (past 16 deep) at the member. Out of
// line: the readers of the structs that hold one stay as small as before.
COLLECTCALL_OUT_OF_LINE inline bool collectcall_read(ValueReader& in, JsonObject& out) {
    if (in.type() != JsonType::object) {
        return in.object([](std::string_view, ValueReader&) {});  // "must be an object"
    }
    std::string text;
    const std::span<std::byte> keys = detail::key_arena();
    std::pmr::monotonic_buffer_resource arena(keys.data(), keys.size());
    detail::JsonObjectCopy copy{in, Writer(text), &arena};
    copy.copy(in, 0);
    if (copy.failed) return false;
    copy.writer.flush();
    out = JsonObject::from_compact(std::move(text));
    return true;
}

inline void collectcall_write(Writer& writer, const JsonObject& value) {
    writer.raw(value.view());
}

// RFC 7396 for merge_patch: the patch's object merged into the target's (a template for the
// reason merged() is one).
template <std::same_as<JsonObject> T>
std::optional<Problem> collectcall_merge(T& target, const T& patch) {
    auto merged = target.merged(patch);
    if (!merged) return Problem{codes::length, "must be at most 65536 bytes after the merge"};
    target = std::move(*merged);
    return std::nullopt;
}

template <class Schema>
void collectcall_schema(schema_tag<JsonObject>, Schema& s) {
    s["type"] = "object";
    s["description"] =
        "Any JSON object, at most 64 KiB and nested at most 16 deep, kept member for member "
        "(numbers keep their exact text); a merge patch merges it by RFC 7396";
}

}  // namespace collectcall
