// The nlohmann::json peer: json::parse, then a binding over the described structs that looks each
// member up with find() (what `j.at("name").get_to(x)` does, without exceptions), and a size
// check for members the struct does not have. Its objects are std::maps, so of two members with
// the same name only one survives parsing: duplicates cannot be seen.
#include <type_traits>

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <nlohmann/json.hpp>

#include "peers/peers.hpp"
#include "peers/rules.hpp"

namespace peers::nlohmann_json {

namespace {

using json = nlohmann::json;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
using members_of = boost::describe::describe_members<T, boost::describe::mod_public |
                                                            boost::describe::mod_inherited>;

struct Binder {
    int errors = 0;

    void bind(const json& j, std::string& out) {
        if (!j.is_string()) return void(++errors);
        out = j.get_ref<const std::string&>();
    }
    void bind(const json& j, double& out) {
        if (!j.is_number()) return void(++errors);
        out = j.get<double>();
    }
    template <class T>
    void bind(const json& j, std::optional<T>& out) {
        if (j.is_null()) return out.reset();
        bind(j, out.emplace());
    }
    template <class T>
    requires boost::describe::has_describe_members<T>::value void bind(const json& j, T& out) {
        if (!j.is_object()) return void(++errors);
        std::size_t found = 0;
        boost::mp11::mp_for_each<members_of<T>>([&](auto D) {
            using M = std::remove_cvref_t<decltype(out.*D.pointer)>;
            const auto it = j.find(D.name);
            if (it == j.end()) {
                if constexpr (!is_optional<M>::value) ++errors;  // required
                return;
            }
            ++found;
            bind(*it, out.*D.pointer);
        });
        if (found != j.size()) ++errors;  // a member the struct does not have
    }
};

bool read_customer(const json& j, const Options& options, CustomerCreate& out) {
    CustomerCreate value;  // fresh: a member absent from this document stays absent
    Binder binder;
    binder.bind(j, value);
    out = std::move(value);
    return binder.errors == 0 && rules::validate(out, options) == 0;
}

template <class T>
void write_member(json& j, const char* name, const T& value);

template <class T>
json to_json_value(const T& value) {
    if constexpr (boost::describe::has_describe_members<T>::value) {
        json j = json::object();
        boost::mp11::mp_for_each<members_of<T>>(
            [&](auto D) { write_member(j, D.name, value.*D.pointer); });
        return j;
    } else if constexpr (is_optional<T>::value) {
        return value ? to_json_value(*value) : json(nullptr);
    } else if constexpr (std::is_same_v<T, std::vector<Error>>) {
        json j = json::array();
        for (const Error& e : value)
            j.push_back(to_json_value(e));
        return j;
    } else {
        return json(value);
    }
}

template <class T>
void write_member(json& j, const char* name, const T& value) {
    j[name] = to_json_value(value);
}

// A bulk item result leaves absent members out instead of writing null.
template <>
json to_json_value(const BulkItemResult& r) {
    json j = json::object();
    if (r.externalId) j["externalId"] = *r.externalId;
    j["success"] = r.success;
    if (r.customer) j["customer"] = to_json_value(*r.customer);
    if (r.error) j["error"] = *r.error;
    if (r.details) j["details"] = to_json_value(*r.details);
    return j;
}

}  // namespace

bool read(std::string_view text, const Options& options, CustomerCreate& out) {
    const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return false;
    return read_customer(j, options, out);
}

bool read(std::string_view text, const Options& options, BulkCreateRequest& out) {
    const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return false;
    const auto items = j.find("customers");
    if (items == j.end() || j.size() != 1 || !items->is_array()) return false;
    out.customers.clear();
    out.customers.reserve(items->size());
    for (const json& item : *items) {
        BulkItem& result = out.customers.emplace_back();
        result.ok = read_customer(item, options, result.value);
    }
    return !out.customers.empty() && out.customers.size() <= options.max_bulk_items;
}

std::string write(const Customer& value) {
    return to_json_value(value).dump();
}

std::string write(const BulkResult& value) {
    json j = json::object();
    j["summary"] = to_json_value(value.summary);
    json& results = j["results"] = json::array();
    for (const BulkItemResult& r : value.results)
        results.push_back(to_json_value(r));
    return j.dump();
}

}  // namespace peers::nlohmann_json
