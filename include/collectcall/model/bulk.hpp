// POST /customers/bulk (SPEC.md 4.2, API.md section 7): the request, whose items are validated
// one by one, and the per-item result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/model/customer.hpp"

namespace collectcall {

struct BulkCreateRequest {
    // Each item carries its own verdict: one bad item never fails the request.
    std::vector<Validated<CustomerCreate>> customers;

    friend bool operator==(const BulkCreateRequest&, const BulkCreateRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCreateRequest, (), (customers))

inline void collectcall_check(const BulkCreateRequest& request, const MemberStates& members,
                              Reader& reader) {
    if (!members.present("customers") || members.failed("customers")) return;
    const std::size_t limit = reader.options().max_bulk_items;
    if (request.customers.empty() || request.customers.size() > limit) {
        reader.member_error("customers", codes::length,
                            "must have 1 to " + std::to_string(limit) + " items");
    }
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

struct BulkResult {
    BulkSummary summary;
    std::vector<BulkItemResult> results;

    friend bool operator==(const BulkResult&, const BulkResult&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkResult, (), (summary, results))

// The `error` string of a failed item: "validation failed: <path>: <message>; ...".
inline std::string validation_failure_summary(const ErrorList& errors) {
    std::string text = "validation failed: ";
    for (std::size_t i = 0; i < errors.size(); ++i) {
        if (i != 0) text += "; ";
        text += errors[i].path.empty() ? std::string("/") : errors[i].path;
        text += ": ";
        text += errors[i].message;
    }
    return text;
}

}  // namespace collectcall
