// json_schema<T>(): the JSON Schema (draft 2020-12) of what read<T> accepts, derived from the
// same descriptions and value types that read<T> uses.
//
// Members: a plain T is required; std::optional<T> and Patch<T> may be absent or null
// (`"type": [..., "null"]`, or `anyOf` around a `$ref`); NotAllowed must be absent
// (`{"not": {}}`). Every object has `additionalProperties: false`, as read<T> refuses unknown
// members. A described struct nested in another becomes a `$defs` entry and a `$ref`.
//
// Customisation point, the same for a value type of your own and for a described struct:
//
//     void collectcall_schema(collectcall::schema_tag<T>, collectcall::SchemaBuilder& schema);
//
// found by ADL (declare it next to T). For a type that is not described it fills an empty
// schema object (`schema["type"] = "string"; schema["pattern"] = ...`). For a described
// struct it is called with the object schema already generated and adds what the descriptions
// cannot tell, e.g. a cross-field rule as `if`/`then`; likewise for a described enum, whose
// schema is {"type": "string", "enum": [its wire names]} and a named definition like a struct.
// A described struct that has a cross-field
// rule (collectcall_check) or Patch members must provide one (an empty one says "nothing to
// add"), so that a rule the schema cannot see never goes unmentioned by accident; the library's
// models have theirs in collectcall/model/openapi.hpp. The `$defs` name of a described struct
// is its unqualified name (template arguments joined by '_'); to choose another, declare
//
//     std::string collectcall_schema_name(collectcall::schema_tag<T>);
//
// The schema knowledge of the library's value types (E164, Zip, Date, ...) lives here, so that
// the types themselves stay lean.
#pragma once

#include <array>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/core/value_type.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/types/date.hpp"
#include "collectcall/types/digits.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/email.hpp"
#include "collectcall/types/message.hpp"
#include "collectcall/types/money.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/url.hpp"
#include "collectcall/types/us_state.hpp"
#include "collectcall/types/uuid.hpp"
#include "collectcall/types/zip.hpp"

namespace collectcall {

// A JSON value that keeps the order of object members, for building documents such as schemas.
// Numbers are kept as their text, so that 9007199254740992 or 0.1 are written as given.
class Json {
  public:
    enum class Kind : unsigned char { null, boolean, number, string, array, object, raw };

    Json() = default;
    Json(std::nullptr_t) {}                                                  // NOLINT
    Json(bool value) : kind_(Kind::boolean), boolean_(value) {}              // NOLINT
    Json(const char* text) : kind_(Kind::string), text_(text) {}             // NOLINT
    Json(std::string_view text) : kind_(Kind::string), text_(text) {}        // NOLINT
    Json(std::string text) : kind_(Kind::string), text_(std::move(text)) {}  // NOLINT
    template <class Int>
    requires(std::is_integral_v<Int> && !std::is_same_v<Int, bool>) Json(Int value)
        : kind_(Kind::number) {  // NOLINT
        char digits[24];
        auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
        text_.assign(digits, end);
    }

    static Json object() { return Json(Kind::object); }
    static Json array() { return Json(Kind::array); }
    static Json array(std::initializer_list<Json> items) {
        Json a(Kind::array);
        a.values_.assign(items.begin(), items.end());
        return a;
    }
    // A number given by its JSON text. Precondition: is_json_number(text).
    static Json number(std::string_view text) {
        Json n(Kind::number);
        n.text_ = text;
        return n;
    }
    // Any JSON text, written verbatim: examples kept as documents, or (in tests) text that no
    // value can produce, such as a lone surrogate escape. Precondition for a valid document:
    // `text` is valid JSON.
    static Json raw(std::string_view text) {
        Json r(Kind::raw);
        r.text_ = text;
        return r;
    }

    [[nodiscard]] Kind kind() const noexcept { return kind_; }
    [[nodiscard]] bool is_null() const noexcept { return kind_ == Kind::null; }
    [[nodiscard]] bool is_object() const noexcept { return kind_ == Kind::object; }
    [[nodiscard]] bool is_array() const noexcept { return kind_ == Kind::array; }
    [[nodiscard]] bool is_string() const noexcept { return kind_ == Kind::string; }
    // The text of a string, number or raw value.
    [[nodiscard]] const std::string& text() const noexcept { return text_; }
    [[nodiscard]] bool boolean() const noexcept { return boolean_; }

    // Object access. operator[] turns a null into an empty object, and appends a member that
    // is not there yet (as null).
    Json& operator[](std::string_view key) {
        if (kind_ == Kind::null) kind_ = Kind::object;
        if (Json* found = find(key)) return *found;
        return append(std::string(key), Json());
    }
    [[nodiscard]] Json* find(std::string_view key) noexcept {
        for (std::size_t i = 0; i < keys_.size(); ++i) {
            if (keys_[i] == key) return &values_[i];
        }
        return nullptr;
    }
    [[nodiscard]] const Json* find(std::string_view key) const noexcept {
        return const_cast<Json*>(this)->find(key);
    }
    [[nodiscard]] bool contains(std::string_view key) const noexcept {
        return find(key) != nullptr;
    }
    bool erase(std::string_view key) {
        for (std::size_t i = 0; i < keys_.size(); ++i) {
            if (keys_[i] == key) {
                keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(i));
                values_.erase(values_.begin() + static_cast<std::ptrdiff_t>(i));
                return true;
            }
        }
        return false;
    }
    // Appends a member even when one of the same name exists: a document with a duplicate
    // member can be built on purpose (tests). Turns a null into an object.
    Json& append(std::string key, Json value) {
        if (kind_ == Kind::null) kind_ = Kind::object;
        keys_.push_back(std::move(key));
        values_.push_back(std::move(value));
        return values_.back();
    }
    [[nodiscard]] const std::vector<std::string>& keys() const noexcept { return keys_; }

    // Array access, and the member values of an object in order. push_back turns a null into
    // an array.
    Json& push_back(Json value) {
        if (kind_ == Kind::null) kind_ = Kind::array;
        values_.push_back(std::move(value));
        return values_.back();
    }
    [[nodiscard]] std::vector<Json>& values() noexcept { return values_; }
    [[nodiscard]] const std::vector<Json>& values() const noexcept { return values_; }
    [[nodiscard]] std::size_t size() const noexcept { return values_.size(); }

    // Compact JSON.
    void write(Writer& writer) const {
        switch (kind_) {
            case Kind::null:
                writer.null();
                return;
            case Kind::boolean:
                writer.boolean(boolean_);
                return;
            case Kind::number:
            case Kind::raw:
                writer.raw(text_);
                return;
            case Kind::string:
                writer.string(text_);
                return;
            case Kind::array:
                writer.raw('[');
                for (std::size_t i = 0; i < values_.size(); ++i) {
                    if (i != 0) writer.raw(',');
                    values_[i].write(writer);
                }
                writer.raw(']');
                return;
            case Kind::object:
                writer.raw('{');
                for (std::size_t i = 0; i < values_.size(); ++i) {
                    if (i != 0) writer.raw(',');
                    writer.string(keys_[i]);
                    writer.raw(':');
                    values_[i].write(writer);
                }
                writer.raw('}');
                return;
        }
    }
    [[nodiscard]] std::string dump() const {
        std::string out;
        Writer writer(out);
        write(writer);
        writer.flush();
        return out;
    }

    friend void collectcall_write(Writer& writer, const Json& value) { value.write(writer); }
    friend bool operator==(const Json& a, const Json& b) {
        return a.kind_ == b.kind_ && a.boolean_ == b.boolean_ && a.text_ == b.text_ &&
               a.keys_ == b.keys_ && a.values_ == b.values_;
    }

  private:
    explicit Json(Kind kind) : kind_(kind) {}

    Kind kind_ = Kind::null;
    bool boolean_ = false;
    std::string text_;
    std::vector<std::string> keys_;  // object member names, parallel to values_
    std::vector<Json> values_;       // object member values, or array items
};

// Selects the schema of T in collectcall_schema overloads.
template <class T>
struct schema_tag {
    using type = T;
};

namespace detail {

// The fully qualified name of T as the compiler spells it, e.g. "collectcall::Envelope<X>".
template <class T>
std::string_view qualified_type_name() {
#if defined(__clang__) || defined(__GNUC__)
    std::string_view f = __PRETTY_FUNCTION__;  // "... [with T = NAME; ...]" or "... [T = NAME]"
    const std::size_t start = f.find("T = ") + 4;
    std::size_t end = f.find(';', start);
    if (end == std::string_view::npos) end = f.rfind(']');
    return f.substr(start, end - start);
#elif defined(_MSC_VER)
    std::string_view f = __FUNCSIG__;  // "... qualified_type_name<struct NAME>(void)"
    std::size_t start = f.find("qualified_type_name<") + 20;
    for (std::string_view prefix : {"struct ", "class "}) {
        if (f.substr(start, prefix.size()) == prefix) start += prefix.size();
    }
    return f.substr(start, f.rfind(">(") - start);
#else
    return "Object";
#endif
}

// "ns::Envelope<ns::Customer>" -> "Envelope_Customer"; a null_t argument (ErrorEnvelope<>) is
// left out. The result is safe in a URI fragment.
inline std::string schema_name_from(std::string_view spelled) {
    // An anonymous namespace is spelled differently by each compiler; it is left out like any
    // other qualifier.
    std::string qualified(spelled);
    for (std::string_view anonymous :
         {"{anonymous}::", "(anonymous namespace)::", "`anonymous namespace'::"}) {
        for (std::size_t at; (at = qualified.find(anonymous)) != std::string::npos;) {
            qualified.erase(at, anonymous.size());
        }
    }
    std::string name;
    std::string word;
    auto flush = [&] {
        if (word != "null_t" && !word.empty()) {
            if (!name.empty()) name += '_';
            name += word;
        }
        word.clear();
    };
    for (std::size_t i = 0; i < qualified.size(); ++i) {
        const char c = qualified[i];
        if (c == ':') {
            word.clear();  // drop the namespace or enclosing class qualifier
        } else if (is_alnum(c) || c == '_') {
            word += c;
        } else {
            flush();
        }
    }
    flush();
    return name.empty() ? std::string("Object") : name;
}

template <class T>
struct is_validated : std::false_type {};
template <class T>
struct is_validated<Validated<T>> : std::true_type {};

// One address per type, without RTTI.
template <class T>
inline constexpr char type_key = 0;

}  // namespace detail

// A described struct with a rule that its member types do not show.
template <class T>
concept HasCrossFieldCheck = requires(const T& value, const MemberStates& members, Reader& reader) {
    collectcall_check(value, members, reader);
};

template <class T>
inline constexpr bool has_patch_members_v = []<template <class...> class L, class... D>(L<D...>) {
    return (is_patch_v<std::remove_cvref_t<decltype(std::declval<T&>().*D::pointer)>> || ...);
}(described_members<T>{});

// Builds the schema of one type, and collects the named definitions ($defs, or an OpenAPI
// document's components/schemas) of the described structs it refers to.
class SchemaBuilder {
  public:
    // `definitions_prefix` is what a $ref puts before a definition's name.
    explicit SchemaBuilder(std::string definitions_prefix = "#/$defs/")
        : prefix_(std::move(definitions_prefix)) {}

    // The schema being built by a collectcall_schema overload.
    [[nodiscard]] Json& schema() noexcept { return *current_; }
    Json& operator[](std::string_view keyword) { return (*current_)[keyword]; }

    // The schema of T to use inside another one: a {"$ref"} for a described struct (its
    // definition is added once), the schema itself for anything else.
    template <class T>
    Json schema_of();

    // The schema of T itself, a described struct written out rather than referred to (the root
    // of a document).
    template <class T>
    Json inline_schema_of();

    // The name under which T is defined, adding its definition if needed. T is described.
    template <class T>
    std::string define();

    // The $ref of a definition name.
    [[nodiscard]] std::string ref(std::string_view name) const {
        return prefix_ + std::string(name);
    }

    // The definitions collected so far, in the order they were first needed.
    [[nodiscard]] const Json& definitions() const noexcept { return definitions_; }

    // `schema`, or null.
    static Json nullable(Json schema);
    // Undoes nullable(): `schema` without null.
    static Json non_nullable(Json schema);

    // For a struct used as a merge patch of Target (each member a Patch<V> named like a member of
    // Target): a member that Target requires cannot be cleared, so null is taken out of its
    // schema (merge_patch reports `not_allowed` for it). Call from the patch struct's
    // collectcall_schema overload.
    template <class Target>
    void patch_of();

  private:
    template <class T>
    Json build_object();
    template <class T>
    Json build_enum();
    template <class T>
    Json build_named() {
        if constexpr (DescribedEnum<T>) {
            return build_enum<T>();
        } else {
            return build_object<T>();
        }
    }
    template <class T>
    Json build_other();

    struct Scope {
        SchemaBuilder& builder;
        Json* saved;
        Scope(SchemaBuilder& b, Json& node) : builder(b), saved(b.current_) { b.current_ = &node; }
        ~Scope() { builder.current_ = saved; }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
    };

    std::string prefix_;
    Json definitions_ = Json::object();
    std::vector<std::pair<const void*, std::string>> named_;  // type -> definition name
    Json scratch_;
    Json* current_ = &scratch_;
};

// ---- The library's value types ----------------------------------------------------------------

namespace schema_patterns {

// ECMA-262 regular expressions, as JSON Schema specifies. They use no \d, \w, \s or `.`, whose
// meaning differs between regex engines, only explicit classes. In ECMA-262 `$` is the end of
// the string; Python's re, Java and .NET also let it match before a final newline, so the types
// of fixed length (Uuid, Date, Digits<N>) carry minLength/maxLength too, which closes that gap
// for them in every engine.
inline constexpr std::string_view e164 = "^\\+[1-9][0-9]{1,14}$";
inline constexpr std::string_view zip = "^[0-9]{5}(?:-[0-9]{4})?$";
// Real calendar dates of the years 1900-2100, leap days included (2000-02-29 yes,
// 1900-02-29 and 2100-02-29 no).
inline constexpr std::string_view date =
    "^(?:(?:19[0-9]{2}|20[0-9]{2}|2100)-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
    "|(?:19|20)(?:0[48]|[2468][048]|[13579][26])-02-29|2000-02-29)$";
inline constexpr std::string_view timestamp =
    "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:"
    "[0-5][0-9](?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$";
inline constexpr std::string_view uuid =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
// The WHATWG HTML "valid e-mail address" (the pattern its specification gives).
inline constexpr std::string_view email =
    "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    "(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$";
// Text: a character that is neither white space (Unicode White_Space) nor a control character
// somewhere, and (under "not") no control character (U+0000-U+001F, U+007F) anywhere. Neither
// is anchored, so they mean the same in every regex engine, including those where `$` also
// matches before a final newline.
inline constexpr std::string_view text_visible =
    "[^\\u0000-\\u0020\\u007F\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F"
    "\\u3000]";
inline constexpr std::string_view control = "[\\u0000-\\u001F\\u007F]";
// The control characters a message (an SMS or e-mail body) may not hold: all but tab, line
// feed, form feed and carriage return.
inline constexpr std::string_view message_control =
    "[\\u0000-\\u0008\\u000B\\u000E-\\u001F\\u007F]";

// Url: what Url::parse accepts, http(s) with a host name, dotted quad or bracketed IPv6
// address, an optional port 1-65535, and RFC 3986 characters or percent-encodings after it.
inline std::string url() {
    const std::string h = "[0-9A-Fa-f]{1,4}";
    const std::string dec = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
    const std::string ipv4 = dec + "(?:\\." + dec + "){3}";
    auto repeat = [](const std::string& what, int lo, int hi) {
        return "(?:" + what + "){" + std::to_string(lo) +
               (lo == hi ? "" : "," + std::to_string(hi)) + "}";
    };
    // RFC 4291 2.2: eight groups, or "::" standing for at least one zero group, optionally
    // ending in a dotted quad (two groups).
    std::string ipv6 = "(?:" + repeat(h + ":", 7, 7) + h + "|" + repeat(h + ":", 6, 6) + ipv4;
    for (int left = 0; left <= 7; ++left) {
        const int right = 7 - left;
        ipv6 += '|';
        if (left > 0) ipv6 += (left > 1 ? repeat(h + ":", left - 1, left - 1) : "") + h;
        ipv6 += "::";
        if (right > 0) {
            ipv6 += "(?:" + h + (right > 1 ? repeat(":" + h, 0, right - 1) : "") + ")?";
        }
    }
    for (int left = 0; left <= 5; ++left) {
        ipv6 += '|';
        if (left > 0) ipv6 += (left > 1 ? repeat(h + ":", left - 1, left - 1) : "") + h;
        ipv6 += "::" + repeat(h + ":", 0, 5 - left) + ipv4;
    }
    ipv6 += ')';
    const std::string end = "(?:[:/?#]|$)";
    const std::string label = "[A-Za-z0-9_-]{1,63}";
    // At most 253 characters before an optional final dot; a last label that is all digits or
    // starts with 0x is allowed only in a dotted quad.
    const std::string host_name = "(?=[^:/?#]{1,253}\\.?" + end + ")(?:" + label +
                                  "\\.)*(?![0-9]+\\.?" + end + ")(?!0[xX])" + label + "\\.?";
    const std::string port =
        "0*(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]"
        ")";
    const std::string rest_char = "(?:[-A-Za-z0-9._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})";
    return "^[Hh][Tt][Tt][Pp][Ss]?://(?:\\[" + ipv6 + "\\]|" + ipv4 + "\\.?(?=" + end + ")|" +
           host_name + ")(?::" + port + ")?(?=[/?#]|$)" + rest_char + "*(?:#" + rest_char + "*)?$";
}

}  // namespace schema_patterns

inline void collectcall_schema(schema_tag<E164>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] = "E.164 phone number: + then 2 to 15 digits, the first 1-9";
    s["minLength"] = 3;
    s["maxLength"] = 16;
    s["pattern"] = schema_patterns::e164;
    s["examples"] = Json::array({"+12025550123"});
}

inline void collectcall_schema(schema_tag<Zip>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] = "US ZIP Code: 12345 or 12345-1234";
    s["pattern"] = schema_patterns::zip;
    s["examples"] = Json::array({"78701", "78701-1234"});
}

inline void collectcall_schema(schema_tag<Date>, SchemaBuilder& s) {
    s["type"] = "string";
    s["format"] = "date";
    s["description"] = "A real calendar date YYYY-MM-DD in the years 1900-2100";
    s["minLength"] = 10;
    s["maxLength"] = 10;
    s["pattern"] = schema_patterns::date;
    s["examples"] = Json::array({"1985-04-12"});
}

inline void collectcall_schema(schema_tag<PastDate>, SchemaBuilder& s) {
    collectcall_schema(schema_tag<Date>{}, s);
    s["description"] =
        "A real calendar date YYYY-MM-DD in the years 1900-2100, not after today (UTC)";
}

inline void collectcall_schema(schema_tag<Timestamp>, SchemaBuilder& s) {
    s["type"] = "string";
    s["format"] = "date-time";
    s["description"] = "RFC 3339 timestamp; the service writes UTC with milliseconds";
    s["pattern"] = schema_patterns::timestamp;
    s["examples"] = Json::array({"2026-11-20T15:00:00.000Z"});
}

inline void collectcall_schema(schema_tag<PastTimestamp>, SchemaBuilder& s) {
    collectcall_schema(schema_tag<Timestamp>{}, s);
    s["description"] =
        "RFC 3339 timestamp, not more than 5 minutes in the future; the service writes UTC with "
        "milliseconds";
}

inline void collectcall_schema(schema_tag<SmsBody>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] =
        "1 to 1600 characters; no control characters other than tab, line feed, form feed and "
        "carriage return";
    s["minLength"] = 1;
    s["maxLength"] = static_cast<std::int64_t>(SmsBody::max_characters);
    s["not"]["type"] = "string";
    s["not"]["pattern"] = schema_patterns::message_control;
}

inline void collectcall_schema(schema_tag<EmailBody>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] =
        "At most 256 KiB of UTF-8; no control characters other than tab, line feed, form feed "
        "and carriage return";
    // A bound in characters: every body within 256 KiB has at most that many, but a body of
    // characters of several bytes can have fewer and still be too long.
    s["maxLength"] = static_cast<std::int64_t>(EmailBody::max_bytes);
    s["not"]["type"] = "string";
    s["not"]["pattern"] = schema_patterns::message_control;
}

inline void collectcall_schema(schema_tag<SegmentCount>, SchemaBuilder& s) {
    s["type"] = "integer";
    s["description"] = "SMS segments, 1 to 255; computed from the body when absent";
    s["minimum"] = 1;
    s["maximum"] = static_cast<std::int64_t>(SegmentCount::max_value);
}

inline void collectcall_schema(schema_tag<Uuid>, SchemaBuilder& s) {
    s["type"] = "string";
    s["format"] = "uuid";
    s["minLength"] = 36;
    s["maxLength"] = 36;
    s["pattern"] = schema_patterns::uuid;
    s["examples"] = Json::array({"3f0c8a4e-6f1d-4c55-9a53-2b1f6f0e9c11"});
}

inline void collectcall_schema(schema_tag<Email>, SchemaBuilder& s) {
    s["type"] = "string";
    s["format"] = "email";
    s["description"] = "E-mail address per the WHATWG HTML grammar, at most 254 characters";
    s["maxLength"] = static_cast<std::int64_t>(Email::max_size);
    s["pattern"] = schema_patterns::email;
    s["examples"] = Json::array({"ann.lee@example.com"});
}

inline void collectcall_schema(schema_tag<Money>, SchemaBuilder& s) {
    s["type"] = "number";
    s["description"] =
        "Exact decimal amount >= 0, at most 2^53, at most 19 significant digits and 19 decimal "
        "places; echoed in plain notation without trailing zeros";
    s["minimum"] = 0;
    s["maximum"] = static_cast<std::int64_t>(Money::max_value);
    s["examples"] = Json::array({Json::number("1234.56")});
}

inline void collectcall_schema(schema_tag<Text>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] =
        "1 to 200 characters after trimming white space (stored as sent), no control characters";
    s["minLength"] = 1;
    s["maxLength"] = static_cast<std::int64_t>(Text::max_code_points);
    s["pattern"] = schema_patterns::text_visible;
    // "type" inside, so that the `not` does not refuse null where the member is nullable.
    s["not"]["type"] = "string";
    s["not"]["pattern"] = schema_patterns::control;
}

template <std::size_t N>
void collectcall_schema(schema_tag<Digits<N>>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] = "Exactly " + std::to_string(N) + " ASCII digits";
    s["minLength"] = N;
    s["maxLength"] = N;
    s["pattern"] = "^[0-9]{" + std::to_string(N) + "}$";
}

inline void collectcall_schema(schema_tag<UsState>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] =
        "USPS two-letter code, in any letter case (stored upper case): a state, DC, a territory "
        "or a military state";
    // Every listed code with each letter in either case: "[Nn][Yy]".
    std::string pattern = "^(?:";
    for (std::size_t i = 0; i < UsState::all_codes.size(); i += 2) {
        if (i != 0) pattern += '|';
        for (std::size_t j = i; j < i + 2; ++j) {
            const char upper = UsState::all_codes[j];
            pattern += '[';
            pattern += upper;
            pattern += static_cast<char>(upper - 'A' + 'a');
            pattern += ']';
        }
    }
    pattern += ")$";
    s["minLength"] = 2;
    s["maxLength"] = 2;
    s["pattern"] = std::move(pattern);
}

inline void collectcall_schema(schema_tag<Url>, SchemaBuilder& s) {
    s["type"] = "string";
    s["format"] = "uri";
    s["description"] =
        "Absolute http:// or https:// URL without user information; other characters "
        "percent-encoded";
    s["maxLength"] = static_cast<std::int64_t>(Url::max_size);
    s["pattern"] = schema_patterns::url();
    s["examples"] = Json::array({"https://hooks.example.com/calls"});
}

// An item read on its own has the schema of the item: a client sends only valid items.
template <class T>
void collectcall_schema(schema_tag<Validated<T>>, SchemaBuilder& s) {
    s.schema() = s.schema_of<T>();
}

// ---- SchemaBuilder ----------------------------------------------------------------------------

template <class T>
concept HasSchemaHook = requires(SchemaBuilder& builder) {
    collectcall_schema(schema_tag<T>{}, builder);
};

template <class T>
std::string schema_name() {
    if constexpr (requires { collectcall_schema_name(schema_tag<T>{}); }) {
        return std::string(collectcall_schema_name(schema_tag<T>{}));
    } else {
        return detail::schema_name_from(detail::qualified_type_name<T>());
    }
}

inline Json SchemaBuilder::nullable(Json schema) {
    Json* type = schema.find("type");
    const bool only_ref = schema.contains("$ref") && schema.keys().size() == 1;
    if (type != nullptr && type->is_string() && !schema.contains("const") && !only_ref) {
        if (type->text() == "null") return schema;
        *type = Json::array({type->text(), "null"});
        if (Json* values = schema.find("enum")) values->push_back(nullptr);
        return schema;
    }
    if (type != nullptr && type->is_array()) {
        for (const Json& t : type->values()) {
            if (t.is_string() && t.text() == "null") return schema;
        }
    }
    Json null_schema = Json::object();
    null_schema["type"] = "null";
    Json wrapper = Json::object();
    wrapper["anyOf"] = Json::array({std::move(schema), std::move(null_schema)});
    return wrapper;
}

inline Json SchemaBuilder::non_nullable(Json schema) {
    if (Json* type = schema.find("type"); type != nullptr && type->is_array()) {
        Json kept = Json::array();
        for (Json& t : type->values()) {
            if (!(t.is_string() && t.text() == "null")) kept.push_back(std::move(t));
        }
        *type = kept.size() == 1 ? std::move(kept.values().front()) : std::move(kept);
        if (Json* values = schema.find("enum")) {
            Json non_null = Json::array();
            for (Json& v : values->values()) {
                if (!v.is_null()) non_null.push_back(std::move(v));
            }
            *values = std::move(non_null);
        }
        return schema;
    }
    if (Json* any = schema.find("anyOf");
        any != nullptr && schema.keys().size() == 1 && any->size() == 2) {
        const Json* second = any->values()[1].find("type");
        if (second != nullptr && second->is_string() && second->text() == "null") {
            return std::move(any->values()[0]);
        }
    }
    return schema;
}

template <class Target>
void SchemaBuilder::patch_of() {
    Json* properties = schema().find("properties");
    if (properties == nullptr) return;
    boost::mp11::mp_for_each<described_members<Target>>([&](auto D) {
        using M = std::remove_cvref_t<decltype(std::declval<Target&>().*D.pointer)>;
        if constexpr (is_required_member_v<M>) {
            if (Json* member = properties->find(D.name)) *member = non_nullable(std::move(*member));
        }
    });
}

template <class T>
std::string SchemaBuilder::define() {
    const void* key = &detail::type_key<T>;
    for (const auto& [type, name] : named_) {
        if (type == key) return name;
    }
    // A name already taken by another type gets a number.
    const std::string base = schema_name<T>();
    std::string name = base;
    for (int n = 2; definitions_.contains(name); ++n)
        name = base + std::to_string(n);
    named_.emplace_back(key, name);
    // Reserved first, so that a struct that refers to itself finds its name.
    definitions_[name] = Json::object();
    Json built = build_named<T>();
    *definitions_.find(name) = std::move(built);
    return name;
}

template <class T>
Json SchemaBuilder::schema_of() {
    if constexpr (Described<T> || DescribedEnum<T>) {
        Json ref = Json::object();
        ref["$ref"] = this->ref(define<T>());
        return ref;
    } else {
        return build_other<T>();
    }
}

template <class T>
Json SchemaBuilder::inline_schema_of() {
    if constexpr (Described<T> || DescribedEnum<T>) {
        return build_named<T>();
    } else {
        return build_other<T>();
    }
}

template <class T>
Json SchemaBuilder::build_object() {
    Json object = Json::object();
    object["type"] = "object";
    Json properties = Json::object();
    Json required = Json::array();
    boost::mp11::mp_for_each<described_members<T>>([&](auto D) {
        using M = std::remove_cvref_t<decltype(std::declval<T&>().*D.pointer)>;
        if constexpr (std::is_same_v<M, NotAllowed>) {
            Json never = Json::object();
            never["not"] = Json::object();
            never["description"] = "cannot be set";
            properties[D.name] = std::move(never);
        } else if constexpr (is_optional_v<M> || is_patch_v<M>) {
            properties[D.name] = nullable(schema_of<typename M::value_type>());
        } else {
            properties[D.name] = schema_of<M>();
            required.push_back(D.name);
        }
    });
    object["properties"] = std::move(properties);
    if (required.size() != 0) object["required"] = std::move(required);
    object["additionalProperties"] = false;

    if constexpr (HasSchemaHook<T>) {
        Scope scope(*this, object);
        collectcall_schema(schema_tag<T>{}, *this);
    } else {
        static_assert(!HasCrossFieldCheck<T> && !has_patch_members_v<T>,
                      "this struct has a cross-field rule (collectcall_check) or Patch members, "
                      "which its descriptions alone do not tell the schema: declare "
                      "collectcall_schema(schema_tag<T>, SchemaBuilder&) next to it (for the "
                      "library's models, include collectcall/model/openapi.hpp)");
    }
    return object;
}

template <class T>
Json SchemaBuilder::build_enum() {
    Json out = Json::object();
    out["type"] = "string";
    Json values = Json::array();
    for (std::string_view name : enum_names<T>)
        values.push_back(name);
    out["enum"] = std::move(values);
    if constexpr (HasSchemaHook<T>) {
        Scope scope(*this, out);
        collectcall_schema(schema_tag<T>{}, *this);
    }
    return out;
}

template <class T>
Json SchemaBuilder::build_other() {
    Json out = Json::object();
    if constexpr (HasSchemaHook<T>) {
        Scope scope(*this, out);
        collectcall_schema(schema_tag<T>{}, *this);
    } else if constexpr (is_optional_v<T> || is_patch_v<T>) {
        out = nullable(schema_of<typename T::value_type>());
    } else if constexpr (std::is_same_v<T, NotAllowed>) {
        out["not"] = Json::object();
    } else if constexpr (std::is_same_v<T, null_t>) {
        out["type"] = "null";
    } else if constexpr (std::is_same_v<T, bool>) {
        out["type"] = "boolean";
    } else if constexpr (std::is_integral_v<T>) {
        out["type"] = "integer";
        out["minimum"] = std::numeric_limits<T>::min();
        out["maximum"] = std::numeric_limits<T>::max();
    } else if constexpr (std::is_same_v<T, std::string>) {
        out["type"] = "string";
    } else if constexpr (is_vector_v<T>) {
        out["type"] = "array";
        out["items"] = schema_of<typename T::value_type>();
    } else if constexpr (is_bounded_vector_v<T>) {
        out["type"] = "array";
        out["items"] = schema_of<typename T::value_type>();
        if (T::min_items != 0) out["minItems"] = static_cast<std::int64_t>(T::min_items);
        out["maxItems"] = static_cast<std::int64_t>(T::default_max_items());
    } else {
        static_assert(sizeof(T) == 0,
                      "collectcall has no schema for this type: declare "
                      "collectcall_schema(schema_tag<T>, SchemaBuilder&) next to it");
    }
    return out;
}

// ---- Documents --------------------------------------------------------------------------------

inline constexpr std::string_view json_schema_dialect =
    "https://json-schema.org/draft/2020-12/schema";

// The schema of T as a value: for a described struct the object schema itself, with the
// structs it refers to under $defs.
template <class T>
Json json_schema_value() {
    SchemaBuilder builder("#/$defs/");
    Json body = builder.inline_schema_of<T>();
    Json document = Json::object();
    document["$schema"] = json_schema_dialect;
    if constexpr (Described<T> || DescribedEnum<T>) document["title"] = schema_name<T>();
    if (body.is_object()) {
        for (std::size_t i = 0; i < body.keys().size(); ++i) {
            document[body.keys()[i]] = std::move(body.values()[i]);
        }
    }
    if (builder.definitions().size() != 0) document["$defs"] = builder.definitions();
    return document;
}

// The JSON Schema (draft 2020-12) of what read<T> accepts, as compact JSON. Deterministic: the
// same T gives the same bytes.
template <class T>
std::string json_schema() {
    return json_schema_value<T>().dump();
}

}  // namespace collectcall
