// POST /customers/bulk (SPEC.md 4.2, API.md section 7): the request, whose items are validated
// one by one, and the per-item result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/model/customer.hpp"

namespace collectcall {

struct BulkCreateRequest {
    // Each item carries its own verdict: one bad item never fails the request. The length is
    // bounded while reading: items past the limit are never built.
    BoundedVector<Validated<CustomerCreate>, 1, &ReadOptions::max_bulk_items> customers;

    friend bool operator==(const BulkCreateRequest&, const BulkCreateRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCreateRequest, (), (customers))

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

}  // namespace collectcall
