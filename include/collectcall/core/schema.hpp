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
// add"), so that a rule the schema cannot see never goes unmentioned by accident. The `$defs`
// name of a described struct is its unqualified name (template arguments joined by '_'); to
// choose another, declare
//
//     std::string collectcall_schema_name(collectcall::schema_tag<T>);
//
// Every type of the library declares its schema beside its reading and writing, in its own
// header. One that only sets keywords and calls the builder takes the builder as a template
// parameter, so that its header needs only core/schema_tag.hpp and not this engine (the value
// types, JsonObject, and the customer's models: a program that reads and writes customers
// compiles no schema code); one that builds Json values of its own takes a SchemaBuilder. This
// header knows no type of the library beyond core/.
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
#include "collectcall/core/check.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/core/write.hpp"

namespace collectcall {

// A JSON value that keeps the order of object members, for building documents such as schemas.
// Numbers are kept as their text, so that 9007199254740992 or 0.1 are written as given.
class Json {
  public:
    enum class Kind : unsigned char { null, boolean, number, string, array, object, raw };

    // Building a schema is not on any hot path, while its code is compiled into every program
    // that derives one: what a line such as `s["type"] = "string"` calls (the constructors,
    // operator[]) is kept out of line, so that each such line compiles to a few calls.
    Json() = default;
    Json(std::nullptr_t) {}       // NOLINT
    Json(bool value);             // NOLINT
    Json(const char* text);       // NOLINT
    Json(std::string_view text);  // NOLINT
    Json(std::string text);       // NOLINT
    template <class Int>
    requires(std::is_integral_v<Int> && !std::is_same_v<Int, bool>) Json(Int value)  // NOLINT
        : Json(integer_text(value)) {}

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
    Json& operator[](std::string_view key);
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
    struct Number {
        std::string text;
    };
    explicit Json(Number number);
    // Every integer as one of the two widest types, so that one function of each is compiled.
    template <class Int>
    static Number integer_text(Int value) {
        if constexpr (std::is_signed_v<Int>) {
            return signed_text(value);
        } else {
            return unsigned_text(value);
        }
    }
    static Number signed_text(long long value);
    static Number unsigned_text(unsigned long long value);

    Kind kind_ = Kind::null;
    bool boolean_ = false;
    std::string text_;
    std::vector<std::string> keys_;  // object member names, parallel to values_
    std::vector<Json> values_;       // object member values, or array items
};

COLLECTCALL_OUT_OF_LINE inline Json::Json(bool value) : kind_(Kind::boolean), boolean_(value) {}
COLLECTCALL_OUT_OF_LINE inline Json::Json(const char* text) : kind_(Kind::string), text_(text) {}
COLLECTCALL_OUT_OF_LINE inline Json::Json(std::string_view text)
    : kind_(Kind::string), text_(text) {}
COLLECTCALL_OUT_OF_LINE inline Json::Json(std::string text)
    : kind_(Kind::string), text_(std::move(text)) {}
COLLECTCALL_OUT_OF_LINE inline Json::Json(Number number)
    : kind_(Kind::number), text_(std::move(number.text)) {}
COLLECTCALL_OUT_OF_LINE inline Json::Number Json::signed_text(long long value) {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    return Number{std::string(digits, end)};
}
COLLECTCALL_OUT_OF_LINE inline Json::Number Json::unsigned_text(unsigned long long value) {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    return Number{std::string(digits, end)};
}

COLLECTCALL_OUT_OF_LINE inline Json& Json::operator[](std::string_view key) {
    if (kind_ == Kind::null) kind_ = Kind::object;
    if (Json* found = find(key)) return *found;
    return append(std::string(key), Json());
}

namespace detail {

// The name of the type argument in the signature of qualified_type_name<T> as the compiler spells
// it: parsed by one function for every T.
COLLECTCALL_OUT_OF_LINE inline std::string_view type_in_signature(std::string_view f) {
#if defined(__clang__) || defined(__GNUC__)
    // "... [with T = NAME; ...]" or "... [T = NAME]"
    const std::size_t start = f.find("T = ") + 4;
    std::size_t end = f.find(';', start);
    if (end == std::string_view::npos) end = f.rfind(']');
    return f.substr(start, end - start);
#elif defined(_MSC_VER)
    // "... qualified_type_name<struct NAME>(void)"
    std::size_t start = f.find("qualified_type_name<") + 20;
    for (std::string_view prefix : {"struct ", "class "}) {
        if (f.substr(start, prefix.size()) == prefix) start += prefix.size();
    }
    return f.substr(start, f.rfind(">(") - start);
#else
    (void)f;
    return "Object";
#endif
}

// The fully qualified name of T as the compiler spells it, e.g. "collectcall::Envelope<X>".
template <class T>
std::string_view qualified_type_name() {
#if defined(__clang__) || defined(__GNUC__)
    return type_in_signature(__PRETTY_FUNCTION__);
#elif defined(_MSC_VER)
    return type_in_signature(__FUNCSIG__);
#else
    return type_in_signature({});
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
        } else if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                   c == '_') {
            word += c;
        } else {
            flush();
        }
    }
    flush();
    return name.empty() ? std::string("Object") : name;
}

// One address per type, without RTTI.
template <class T>
inline constexpr char type_key = 0;

}  // namespace detail

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
    // A member of a described struct as its object schema shows it: built from a table of these
    // (member_table) by one function (object_schema), so that a struct adds a row per member
    // rather than code.
    enum class MemberKind : unsigned char {
        required,     // a plain member: its schema, and its name in "required"
        defaulted,    // a plain member its struct's collectcall_defaulted names: its schema
        nullable,     // std::optional or Patch: its value's schema or null
        not_allowed,  // NotAllowed: {"not": {}}
    };
    struct MemberRow {
        const char* name;
        MemberKind kind;
        Json (*schema)(SchemaBuilder&);  // of the member (required, defaulted) or of its value
    };
    template <class T, class D>
    static constexpr MemberKind member_kind() {
        using M = std::remove_cvref_t<decltype(std::declval<T&>().*D::pointer)>;
        if constexpr (std::is_same_v<M, NotAllowed>) {
            return MemberKind::not_allowed;
        } else if constexpr (is_optional_v<M> || is_patch_v<M>) {
            return MemberKind::nullable;
        } else if constexpr (is_required_member_v<T, D>) {
            return MemberKind::required;
        } else {
            return MemberKind::defaulted;
        }
    }
    template <class M>
    static Json schema_in(SchemaBuilder& builder) {
        return builder.schema_of<M>();
    }
    template <class T, class D>
    static constexpr MemberRow member_row() {
        using M = std::remove_cvref_t<decltype(std::declval<T&>().*D::pointer)>;
        constexpr MemberKind kind = member_kind<T, D>();
        if constexpr (kind == MemberKind::not_allowed) {
            return {D::name, kind, nullptr};
        } else if constexpr (kind == MemberKind::nullable) {
            return {D::name, kind, &schema_in<typename M::value_type>};
        } else {
            return {D::name, kind, &schema_in<M>};
        }
    }
    template <class T, template <class...> class L, class... D>
    static constexpr std::array<MemberRow, sizeof...(D)> member_table(L<D...>) {
        return {member_row<T, D>()...};
    }
    // Which members of T are required (patch_of): names and kinds only, so that no member's
    // schema is compiled for it.
    struct MemberKindRow {
        const char* name;
        MemberKind kind;
    };
    template <class T, template <class...> class L, class... D>
    static constexpr std::array<MemberKindRow, sizeof...(D)> member_kinds(L<D...>) {
        return {MemberKindRow{D::name, member_kind<T, D>()}...};
    }
    Json object_schema(const MemberRow* members, std::size_t count);
    // What define<T> does for every T, given T's key, name and build function.
    std::string define_named(const void* key, std::string (*name_of)(),
                             Json (SchemaBuilder::*build)());
    // What schema_of<T> does for every described T: {"$ref"} to its definition.
    Json ref_to_named(const void* key, std::string (*name_of)(), Json (SchemaBuilder::*build)());
    // What build_other<T> does for every vector, given its items' schema.
    static Json array_schema(Json items);
    static Json bounded_array_schema(Json items, std::size_t min_items, std::size_t max_items);
    // {"$ref": ...} to the definition `name`.
    [[nodiscard]] Json ref_schema(std::string_view name) const {
        Json reference = Json::object();
        reference["$ref"] = ref(name);
        return reference;
    }
    static Json enum_schema(const std::string_view* names, std::size_t count);

    // A type's collectcall_schema overload as a plain function, and what runs it on the schema
    // it completes: compiled once, not once for each type that has one.
    using Hook = void (*)(SchemaBuilder&);
    template <class T>
    static void call_hook(SchemaBuilder& builder) {
        collectcall_schema(schema_tag<T>{}, builder);
    }
    Json with_hook(Json schema, Hook hook);

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
    static constexpr auto members = member_kinds<Target>(described_members<Target>{});
    for (const MemberKindRow& m : members) {
        // A value that can be absent but not null: null is not a valid patch of it either.
        if (m.kind != MemberKind::required && m.kind != MemberKind::defaulted) continue;
        if (Json* member = properties->find(m.name)) *member = non_nullable(std::move(*member));
    }
}

COLLECTCALL_OUT_OF_LINE inline std::string SchemaBuilder::define_named(
    const void* key, std::string (*name_of)(), Json (SchemaBuilder::*build)()) {
    for (const auto& [type, name] : named_) {
        if (type == key) return name;
    }
    // A name already taken by another type gets a number.
    const std::string base = name_of();
    std::string name = base;
    for (int n = 2; definitions_.contains(name); ++n)
        name = base + std::to_string(n);
    named_.emplace_back(key, name);
    // Reserved first, so that a struct that refers to itself finds its name.
    definitions_[name] = Json::object();
    Json built = (this->*build)();
    *definitions_.find(name) = std::move(built);
    return name;
}

COLLECTCALL_OUT_OF_LINE inline Json SchemaBuilder::ref_to_named(const void* key,
                                                                std::string (*name_of)(),
                                                                Json (SchemaBuilder::*build)()) {
    return ref_schema(define_named(key, name_of, build));
}

template <class T>
std::string SchemaBuilder::define() {
    return define_named(&detail::type_key<T>, &schema_name<T>, &SchemaBuilder::build_named<T>);
}

template <class T>
Json SchemaBuilder::schema_of() {
    if constexpr (Described<T> || DescribedEnum<T>) {
        return ref_to_named(&detail::type_key<T>, &schema_name<T>, &SchemaBuilder::build_named<T>);
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

COLLECTCALL_OUT_OF_LINE inline Json SchemaBuilder::object_schema(const MemberRow* members,
                                                                 std::size_t count) {
    Json object = Json::object();
    object["type"] = "object";
    Json properties = Json::object();
    Json required = Json::array();
    for (std::size_t i = 0; i < count; ++i) {
        const MemberRow& m = members[i];
        switch (m.kind) {
            case MemberKind::not_allowed: {
                Json never = Json::object();
                never["not"] = Json::object();
                never["description"] = "cannot be set";
                properties[m.name] = std::move(never);
                break;
            }
            case MemberKind::nullable:
                properties[m.name] = nullable(m.schema(*this));
                break;
            case MemberKind::required:
                properties[m.name] = m.schema(*this);
                required.push_back(m.name);
                break;
            case MemberKind::defaulted:
                properties[m.name] = m.schema(*this);
                break;
        }
    }
    object["properties"] = std::move(properties);
    if (required.size() != 0) object["required"] = std::move(required);
    object["additionalProperties"] = false;
    return object;
}

template <class T>
Json SchemaBuilder::build_object() {
    static constexpr auto members = member_table<T>(described_members<T>{});
    if constexpr (HasSchemaHook<T>) {
        return with_hook(object_schema(members.data(), members.size()), &call_hook<T>);
    } else {
        static_assert(!HasMemberCheck<T> && !has_patch_members_v<T>,
                      "this struct has a cross-field rule (collectcall_check) or Patch members, "
                      "which its descriptions alone do not tell the schema: declare "
                      "collectcall_schema(schema_tag<T>, SchemaBuilder&) next to it");
        return object_schema(members.data(), members.size());
    }
}

COLLECTCALL_OUT_OF_LINE inline Json SchemaBuilder::with_hook(Json schema, Hook hook) {
    {
        Scope scope(*this, schema);
        hook(*this);
    }
    return schema;
}

COLLECTCALL_OUT_OF_LINE inline Json SchemaBuilder::enum_schema(const std::string_view* names,
                                                               std::size_t count) {
    Json out = Json::object();
    out["type"] = "string";
    Json values = Json::array();
    for (std::size_t i = 0; i < count; ++i)
        values.push_back(names[i]);
    out["enum"] = std::move(values);
    return out;
}

template <class T>
Json SchemaBuilder::build_enum() {
    if constexpr (HasSchemaHook<T>) {
        return with_hook(enum_schema(enum_names<T>.data(), enum_names<T>.size()), &call_hook<T>);
    } else {
        return enum_schema(enum_names<T>.data(), enum_names<T>.size());
    }
}

template <class T>
Json SchemaBuilder::build_other() {
    Json out = Json::object();
    if constexpr (HasSchemaHook<T>) {
        out = with_hook(std::move(out), &call_hook<T>);
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
        out = array_schema(schema_of<typename T::value_type>());
    } else if constexpr (is_bounded_vector_v<T>) {
        out = bounded_array_schema(schema_of<typename T::value_type>(), T::min_items,
                                   T::default_max_items());
    } else {
        static_assert(sizeof(T) == 0,
                      "collectcall has no schema for this type: declare "
                      "collectcall_schema(schema_tag<T>, SchemaBuilder&) next to it");
    }
    return out;
}

COLLECTCALL_OUT_OF_LINE inline Json SchemaBuilder::array_schema(Json items) {
    Json out = Json::object();
    out["type"] = "array";
    out["items"] = std::move(items);
    return out;
}

COLLECTCALL_OUT_OF_LINE inline Json SchemaBuilder::bounded_array_schema(Json items,
                                                                        std::size_t min_items,
                                                                        std::size_t max_items) {
    Json out = array_schema(std::move(items));
    if (min_items != 0) out["minItems"] = static_cast<std::int64_t>(min_items);
    out["maxItems"] = static_cast<std::int64_t>(max_items);
    return out;
}

// ---- Documents --------------------------------------------------------------------------------

inline constexpr std::string_view json_schema_dialect =
    "https://json-schema.org/draft/2020-12/schema";

namespace detail {

// The document of json_schema_value: `body` with its dialect, its title when it has one, and the
// definitions it refers to.
inline Json schema_document(const SchemaBuilder& builder, Json body, const std::string* title) {
    Json document = Json::object();
    document["$schema"] = json_schema_dialect;
    if (title != nullptr) document["title"] = *title;
    if (body.is_object()) {
        for (std::size_t i = 0; i < body.keys().size(); ++i) {
            document[body.keys()[i]] = std::move(body.values()[i]);
        }
    }
    if (builder.definitions().size() != 0) document["$defs"] = builder.definitions();
    return document;
}

// T's schema built inline by `builder`, as a plain function (json_schema_value_of).
template <class T>
Json inline_schema_in(SchemaBuilder& builder) {
    return builder.inline_schema_of<T>();
}

// What json_schema_value<T> does for every T, given the function that builds T's schema and,
// for a named T (a described struct or enum), the one that names it.
COLLECTCALL_OUT_OF_LINE inline Json json_schema_value_of(Json (*build)(SchemaBuilder&),
                                                         std::string (*title_of)()) {
    SchemaBuilder builder("#/$defs/");
    Json body = build(builder);
    if (title_of != nullptr) {
        const std::string title = title_of();
        return schema_document(builder, std::move(body), &title);
    }
    return schema_document(builder, std::move(body), nullptr);
}

COLLECTCALL_OUT_OF_LINE inline std::string json_schema_text_of(Json (*build)(SchemaBuilder&),
                                                               std::string (*title_of)()) {
    return json_schema_value_of(build, title_of).dump();
}

}  // namespace detail

// The schema of T as a value: for a described struct the object schema itself, with the
// structs it refers to under $defs.
template <class T>
Json json_schema_value() {
    if constexpr (Described<T> || DescribedEnum<T>) {
        return detail::json_schema_value_of(&detail::inline_schema_in<T>, &schema_name<T>);
    } else {
        return detail::json_schema_value_of(&detail::inline_schema_in<T>, nullptr);
    }
}

// The JSON Schema (draft 2020-12) of what read<T> accepts, as compact JSON. Deterministic: the
// same T gives the same bytes.
template <class T>
std::string json_schema() {
    if constexpr (Described<T> || DescribedEnum<T>) {
        return detail::json_schema_text_of(&detail::inline_schema_in<T>, &schema_name<T>);
    } else {
        return detail::json_schema_text_of(&detail::inline_schema_in<T>, nullptr);
    }
}

}  // namespace collectcall
