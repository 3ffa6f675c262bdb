// POST /customers/bulk (SPEC.md 4.2, API.md section 7): the request, whose items are validated
// one by one, and the per-item result.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/detail/item_result_schema.hpp"

namespace collectcall {

struct BulkCreateRequest {
    // Each item carries its own verdict: one bad item never fails the request. The length is
    // bounded while reading: items past the limit are never built.
    BoundedVector<Validated<CustomerCreate>, 1, &ReadOptions::max_bulk_items> customers;

    friend bool operator==(const BulkCreateRequest&, const BulkCreateRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCreateRequest, (), (customers))

inline void collectcall_schema(schema_tag<BulkCreateRequest>, SchemaBuilder& s) {
    s["description"] =
        "Each item is validated and created on its own: the response reports every item, and "
        "an invalid item does not fail the others.";
}

struct BulkSummary {
    std::int64_t total = 0;
    std::int64_t succeeded = 0;
    std::int64_t failed = 0;

    friend bool operator==(const BulkSummary&, const BulkSummary&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkSummary, (), (total, succeeded, failed))

// Created: {success: true, customer}. Failed: {externalId, success: false, error, details}.
struct BulkItemResult {
    Patch<std::string> externalId;
    bool success = false;
    Patch<Customer> customer;
    Patch<std::string> error;
    Patch<std::vector<Error>> details;

    friend bool operator==(const BulkItemResult&, const BulkItemResult&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkItemResult, (), (externalId, success, customer, error, details))

inline void collectcall_schema(schema_tag<BulkItemResult>, SchemaBuilder& s) {
    detail::success_or_failure(s, {"customer"}, {"error"});
}

struct BulkResult {
    BulkSummary summary;
    std::vector<BulkItemResult> results;

    friend bool operator==(const BulkResult&, const BulkResult&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkResult, (), (summary, results))

// The `error` string of a failed item (API.md section 7): its first few errors, then how many
// more the `details` hold, "validation failed: <path>: <message>; ...; and 97 more". The
// summary stays short however many errors the item has.
inline std::string validation_failure_summary(const ErrorList& errors) {
    constexpr std::size_t shown = 3;
    std::string text = "validation failed: ";
    std::size_t listed = 0;
    for (const Error& e : errors) {
        if (listed == shown || e.code == codes::too_many_errors) break;
        if (listed != 0) text += "; ";
        text += e.path.empty() ? std::string("/") : e.path;
        text += ": ";
        text += e.message;
        ++listed;
    }
    if (const std::size_t total = error_total(errors); total > listed) {
        text += "; and " + std::to_string(total - listed) + " more";
    }
    return text;
}

// The `error` of an item whose externalId is taken, by the store or by an earlier item of the same
// request (API.md section 7): the hosted service's text, with no final period.
[[nodiscard]] inline std::string bulk_duplicate_message(std::string_view external_id) {
    std::string out = "Customer with external ID '";
    out += external_id;
    out += "' already exists";
    return out;
}

// The answer to a bulk create (API.md section 7), in request order. `items` are the request's
// items; `stored` holds one element per valid item, in the same order, and `created[k]` says
// whether the store created `stored[k]` (false: its externalId was taken). `customer_of` projects
// an element of `stored` to its Customer (the identity when `stored` holds customers; e.g.
// `&StoredCustomer::customer` when the store's records wrap one).
//
// Nothing is copied that can be moved: the created customers and the failed items' errors are
// moved out of `stored` and `items`, which are left valid but unspecified. Throws
// std::invalid_argument, before touching anything, when `stored` or `created` does not have one
// element per valid item.
template <class Stored, class Projection = std::identity>
[[nodiscard]] BulkResult bulk_result(std::span<Validated<CustomerCreate>> items,
                                     std::span<Stored> stored, const std::vector<bool>& created,
                                     Projection customer_of = {}) {
    const auto valid = static_cast<std::size_t>(std::count_if(
        items.begin(), items.end(), [](const Validated<CustomerCreate>& i) { return i.ok(); }));
    if (stored.size() != valid || created.size() != valid) {
        throw std::invalid_argument(
            "bulk_result: one stored customer and one created flag per valid item");
    }
    BulkResult result;
    result.results.reserve(items.size());
    std::size_t next = 0;
    for (Validated<CustomerCreate>& item : items) {
        BulkItemResult& entry = result.results.emplace_back();
        entry.success = false;
        if (!item.ok()) {
            // The externalId that was sent, even when the item is invalid; null when none was.
            const std::string_view external_id = item.value().externalId.view();
            if (external_id.empty()) {
                entry.externalId = null;
            } else {
                entry.externalId = std::string(external_id);
            }
            entry.error = validation_failure_summary(item.errors());
            entry.details = std::move(item).errors();
            ++result.summary.failed;
            continue;
        }
        Customer& customer = std::invoke(customer_of, stored[next]);
        if (created[next++]) {
            entry.success = true;
            entry.customer.emplace(std::move(customer));
            ++result.summary.succeeded;
        } else {
            entry.externalId = customer.externalId.str();
            entry.error = bulk_duplicate_message(customer.externalId.view());
            ++result.summary.failed;
        }
    }
    result.summary.total = static_cast<std::int64_t>(items.size());
    return result;
}

}  // namespace collectcall
