// The Boost.JSON peer. Parsing reuses one boost::json::parser per thread over a
// monotonic_resource with a stack-like buffer, as Boost.JSON's documentation advises for speed.
// Binding is value_to<T>. Boost.JSON 1.81's own conversion of described structs cannot serve:
// it requires every member to be present (an absent optional member fails) and the object to
// have exactly as many members as the struct. So the described structs get a tag_invoke of
// their own (the library's customisation point) that allows absent optional members and turns
// extra members into an error. Objects keep one member per name: duplicates cannot be seen.
#include <array>
#include <cstddef>
#include <type_traits>

#include <boost/describe/members.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>

#include "peers/peers.hpp"
#include "peers/rules.hpp"

// A stored customer has a described base; Boost.JSON's own conversion flattens it once asked to.
template <>
struct boost::json::is_described_class<peers::Customer> : std::true_type {};

namespace peers {

namespace {
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
using members_of = boost::describe::describe_members<T, boost::describe::mod_public |
                                                            boost::describe::mod_inherited>;
}  // namespace

// value_to<T> for the described peer structs (found by ADL in namespace peers).
template <class T>
requires boost::describe::has_describe_members<T>::value boost::json::result<T> tag_invoke(
    boost::json::try_value_to_tag<T>, const boost::json::value& jv) {
    const boost::json::object* object = jv.if_object();
    if (object == nullptr) return boost::system::error_code(boost::json::error::not_object);
    T out{};
    boost::system::error_code ec;
    std::size_t found = 0;
    boost::mp11::mp_for_each<members_of<T>>([&](auto D) {
        if (ec) return;
        using M = std::remove_cvref_t<decltype(out.*D.pointer)>;
        const boost::json::value* member = object->if_contains(D.name);
        if (member == nullptr) {
            if constexpr (!is_optional<M>::value) ec = boost::json::error::unknown_name;
            return;
        }
        ++found;
        auto converted = boost::json::try_value_to<M>(*member);
        if (!converted) {
            ec = converted.error();
            return;
        }
        out.*D.pointer = std::move(*converted);
    });
    if (!ec && found != object->size()) ec = boost::json::error::size_mismatch;
    if (ec) return ec;
    return out;
}

// A bulk item never fails the request: it carries its own verdict. The thread's options give it
// "today" (value_to has no context argument in 1.81).
namespace {
thread_local const Options* current_options = nullptr;
}

boost::json::result<BulkItem> tag_invoke(boost::json::try_value_to_tag<BulkItem>,
                                         const boost::json::value& jv) {
    BulkItem item;
    auto customer = boost::json::try_value_to<CustomerCreate>(jv);
    if (customer) {
        item.value = std::move(*customer);
        item.ok = rules::validate(item.value, *current_options) == 0;
    }
    return item;
}

// value_from for a bulk item result: absent members are left out, not written null.
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, const BulkItemResult& r) {
    boost::json::object& object = jv.emplace_object();
    if (r.externalId) object.emplace("externalId", *r.externalId);
    object.emplace("success", r.success);
    if (r.customer)
        object.emplace("customer", boost::json::value_from(*r.customer, object.storage()));
    if (r.error) object.emplace("error", *r.error);
    if (r.details) object.emplace("details", boost::json::value_from(*r.details, object.storage()));
}

namespace boost_json {

namespace {

// Scratch memory for one document's DOM; a larger document spills into the heap.
struct Scratch {
    alignas(std::max_align_t) std::array<unsigned char, 64 * 1024> buffer;
    boost::json::parser parser{boost::json::storage_ptr(), parse_options()};

    static boost::json::parse_options parse_options() {
        boost::json::parse_options options;
        options.max_depth = 64;  // as collectcall
        return options;
    }
};

Scratch& scratch() {
    thread_local Scratch s;
    return s;
}

// Parses `text` into `resource`. Returned by value: a move keeps the value's memory resource,
// where an assignment to a value of another resource would copy the whole tree.
boost::json::value parse(std::string_view text, boost::json::monotonic_resource& resource,
                         bool& ok) {
    boost::json::parser& parser = scratch().parser;
    parser.reset(&resource);
    boost::system::error_code ec;
    parser.write(text.data(), text.size(), ec);
    ok = !ec;
    if (!ok) return nullptr;
    return parser.release();
}

}  // namespace

bool read(std::string_view text, const Options& options, CustomerCreate& out) {
    boost::json::monotonic_resource resource(scratch().buffer.data(), scratch().buffer.size());
    bool ok = false;
    const boost::json::value jv = parse(text, resource, ok);
    if (!ok) return false;
    auto customer = boost::json::try_value_to<CustomerCreate>(jv);
    if (!customer) return false;
    out = std::move(*customer);
    return rules::validate(out, options) == 0;
}

bool read(std::string_view text, const Options& options, BulkCreateRequest& out) {
    boost::json::monotonic_resource resource(scratch().buffer.data(), scratch().buffer.size());
    bool ok = false;
    const boost::json::value jv = parse(text, resource, ok);
    if (!ok) return false;
    current_options = &options;
    auto request = boost::json::try_value_to<BulkCreateRequest>(jv);
    current_options = nullptr;
    if (!request) return false;
    out = std::move(*request);
    return !out.customers.empty() && out.customers.size() <= options.max_bulk_items;
}

std::string write(const Customer& value) {
    boost::json::monotonic_resource resource(scratch().buffer.data(), scratch().buffer.size());
    return boost::json::serialize(boost::json::value_from(value, &resource));
}

std::string write(const BulkResult& value) {
    boost::json::monotonic_resource resource(scratch().buffer.data(), scratch().buffer.size());
    return boost::json::serialize(boost::json::value_from(value, &resource));
}

}  // namespace boost_json

}  // namespace peers
