// The RapidJSON peer: Document::Parse with UTF-8 validation into MemoryPoolAllocators over
// reused buffers (RapidJSON's documented "user buffer" setup), then one loop over each object's
// members that dispatches on the key. RapidJSON keeps every member it parsed, so duplicates are
// seen. Writing goes through rapidjson::Writer straight from the structs.
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include "peers/peers.hpp"
#include "peers/rules.hpp"

namespace peers::rapidjson_dom {

namespace {

using Allocator = rapidjson::MemoryPoolAllocator<rapidjson::CrtAllocator>;
using Document = rapidjson::GenericDocument<rapidjson::UTF8<>, Allocator, Allocator>;
using Value = Document::ValueType;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
using members_of = boost::describe::describe_members<T, boost::describe::mod_public |
                                                            boost::describe::mod_inherited>;

template <class T>
inline constexpr auto member_names = []<template <class...> class L, class... D>(L<D...>) {
    return std::array<std::string_view, sizeof...(D)>{std::string_view(D::name)...};
}(members_of<T>{});

struct Binder {
    int errors = 0;

    void bind(const Value& v, std::string& out) {
        if (!v.IsString()) return void(++errors);
        out.assign(v.GetString(), v.GetStringLength());
    }
    void bind(const Value& v, double& out) {
        if (!v.IsNumber()) return void(++errors);
        out = v.GetDouble();
    }
    template <class T>
    void bind(const Value& v, std::optional<T>& out) {
        if (v.IsNull()) return out.reset();
        bind(v, out.emplace());
    }
    template <class T>
    requires boost::describe::has_describe_members<T>::value void bind(const Value& v, T& out) {
        using Members = members_of<T>;
        constexpr std::size_t n = boost::mp11::mp_size<Members>::value;
        constexpr auto& names = member_names<T>;
        if (!v.IsObject()) return void(++errors);
        std::array<bool, n> seen{};
        for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
            const std::string_view key(m->name.GetString(), m->name.GetStringLength());
            std::size_t i = 0;
            while (i < n && names[i] != key)
                ++i;
            if (i == n || seen[i]) {  // unknown or duplicate
                ++errors;
                continue;
            }
            seen[i] = true;
            boost::mp11::mp_with_index<n>(i, [&](auto I) {
                using D = boost::mp11::mp_at_c<Members, decltype(I)::value>;
                bind(m->value, out.*D::pointer);
            });
        }
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto I) {
            using D = boost::mp11::mp_at_c<Members, decltype(I)::value>;
            using M = std::remove_cvref_t<decltype(out.*D::pointer)>;
            if constexpr (!is_optional<M>::value) {
                if (!seen[I]) ++errors;  // required
            }
        });
    }
};

bool read_customer(const Value& v, const Options& options, CustomerCreate& out) {
    CustomerCreate value;  // fresh: a member absent from this document stays absent
    Binder binder;
    binder.bind(v, value);
    out = std::move(value);
    return binder.errors == 0 && rules::validate(out, options) == 0;
}

// Reused memory for one document's values and the parser's stack; more spills to the heap.
struct Scratch {
    std::array<char, 64 * 1024> values;
    std::array<char, 16 * 1024> stack;
};

Scratch& scratch() {
    thread_local Scratch s;
    return s;
}

template <class F>
bool with_document(std::string_view text, F&& use) {
    Scratch& s = scratch();
    Allocator value_allocator(s.values.data(), s.values.size());
    Allocator stack_allocator(s.stack.data(), s.stack.size());
    Document document(&value_allocator, s.stack.size(), &stack_allocator);
    document.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
    if (document.HasParseError()) return false;
    return use(static_cast<const Value&>(document));
}

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_value(Writer& w, const std::string& s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
void write_value(Writer& w, bool v) {
    w.Bool(v);
}
void write_value(Writer& w, double v) {
    w.Double(v);
}
void write_value(Writer& w, std::int64_t v) {
    w.Int64(v);
}
void write_value(Writer& w, const BulkItemResult& r);
template <class T>
void write_value(Writer& w, const std::optional<T>& v);
template <class T>
void write_value(Writer& w, const std::vector<T>& v);

template <class T>
requires boost::describe::has_describe_members<T>::value void write_value(Writer& w,
                                                                          const T& value) {
    w.StartObject();
    boost::mp11::mp_for_each<members_of<T>>([&](auto D) {
        w.Key(D.name);
        write_value(w, value.*D.pointer);
    });
    w.EndObject();
}

template <class T>
void write_value(Writer& w, const std::optional<T>& v) {
    if (v) {
        write_value(w, *v);
    } else {
        w.Null();
    }
}

template <class T>
void write_value(Writer& w, const std::vector<T>& v) {
    w.StartArray();
    for (const T& item : v)
        write_value(w, item);
    w.EndArray();
}

// Absent members of a bulk item result are left out.
void write_value(Writer& w, const BulkItemResult& r) {
    w.StartObject();
    if (r.externalId) {
        w.Key("externalId");
        write_value(w, *r.externalId);
    }
    w.Key("success");
    w.Bool(r.success);
    if (r.customer) {
        w.Key("customer");
        write_value(w, *r.customer);
    }
    if (r.error) {
        w.Key("error");
        write_value(w, *r.error);
    }
    if (r.details) {
        w.Key("details");
        write_value(w, *r.details);
    }
    w.EndObject();
}

template <class T>
std::string write_document(const T& value) {
    rapidjson::StringBuffer buffer;
    Writer writer(buffer);
    write_value(writer, value);
    return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

bool read(std::string_view text, const Options& options, CustomerCreate& out) {
    return with_document(text, [&](const Value& v) { return read_customer(v, options, out); });
}

bool read(std::string_view text, const Options& options, BulkCreateRequest& out) {
    return with_document(text, [&](const Value& v) {
        if (!v.IsObject() || v.MemberCount() != 1) return false;
        const auto items = v.FindMember("customers");
        if (items == v.MemberEnd() || !items->value.IsArray()) return false;
        out.customers.clear();
        out.customers.reserve(items->value.Size());
        for (const Value& item : items->value.GetArray()) {
            BulkItem& result = out.customers.emplace_back();
            result.ok = read_customer(item, options, result.value);
        }
        return !out.customers.empty() && out.customers.size() <= options.max_bulk_items;
    });
}

std::string write(const Customer& value) {
    return write_document(value);
}
std::string write(const BulkResult& value) {
    return write_document(value);
}

}  // namespace peers::rapidjson_dom
