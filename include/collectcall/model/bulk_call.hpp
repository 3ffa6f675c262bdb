// POST /calls/bulk (API.md section 13): one agent, 1 to 100 distinct customers, each called as
// POST /customers/{id}/calls would call it; the answer reports every customer in request order,
// as the hosted service's BulkCreateCallsRequest and BulkCreateCallsResponse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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
#include "collectcall/model/call.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/detail/item_result_schema.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

// Customers of one bulk call request (the hosted service's limit).
inline constexpr std::size_t max_bulk_call_customers = 100;

// agentId is the same text as a single call's (the hosted document says uuid here and string
// there; an agent that places one call places many).
struct BulkCallRequest {
    Text agentId;
    BoundedVector<Uuid, 1, max_bulk_call_customers> customerIds;
    std::optional<Webhook> webhook;

    friend bool operator==(const BulkCallRequest&, const BulkCallRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCallRequest, (), (agentId, customerIds, webhook))

// The hosted service's text for a customer id given twice: the message of the `conflict` at each
// element that repeats an earlier one, and the 400's message.
inline constexpr std::string_view duplicate_customer_ids_message =
    "customerIds must not contain duplicates";

// Applied by read<BulkCallRequest>: each valid id that repeats an earlier one (ids compare as
// UUIDs, whatever the letter case) is a `conflict` at its place, /customerIds/<index>.
inline void collectcall_check(const BulkCallRequest& request, const MemberStates&,
                              RuleErrors& errors) {
    const auto& ids = request.customerIds;
    for (std::size_t i = 1; i < ids.size(); ++i) {
        if (ids[i].view().empty()) continue;  // invalid, with its own error
        for (std::size_t j = 0; j < i; ++j) {
            if (ids[j] == ids[i]) {
                errors.element_error<&BulkCallRequest::customerIds>(i, codes::conflict,
                                                                    duplicate_customer_ids_message);
                break;
            }
        }
    }
}

inline void collectcall_schema(schema_tag<BulkCallRequest>, SchemaBuilder& s) {
    s["description"] =
        "1 to 100 distinct customer ids (a repeated id is a `conflict` with the text "
        "\"customerIds must not contain duplicates\"), each called as a single call would be.";
    if (Json* properties = s.schema().find("properties")) {
        if (Json* ids = properties->find(member_name<&BulkCallRequest::customerIds>)) {
            (*ids)["uniqueItems"] = true;
        }
    }
}

// Whether `errors` (of a BulkCallRequest) include a repeated id: the 400 then answers with the
// hosted text as its message.
[[nodiscard]] inline bool has_duplicate_customer_ids(const ErrorList& errors) noexcept {
    for (const Error& e : errors) {
        if (e.code == codes::conflict && e.message == duplicate_customer_ids_message) return true;
    }
    return false;
}

// Placed: {customerId, success: true, data: <the call>}. Not placed: {customerId, success: false,
// error} with "Customer not found" or the compliance message of the 422 of a single call, and
// (extension) the blocked call's compliance.
struct BulkCallItemResult {
    Uuid customerId;
    bool success = false;
    Patch<Call> data;
    Patch<std::string> error;
    Patch<ComplianceResult> compliance;
    // A blocked call's next eligible time (extension, as a single call's 422 carries it): null
    // when no time will do. Absent on a placed call and an unknown customer.
    Patch<Timestamp> nextEligibleAt;
    // The call in progress that blocked it (extension, API.md section 16); absent otherwise.
    Patch<Uuid> blockedByCallId;

    friend bool operator==(const BulkCallItemResult&, const BulkCallItemResult&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCallItemResult, (),
                      (customerId, success, data, error, compliance, nextEligibleAt,
                       blockedByCallId))

inline void collectcall_schema(schema_tag<BulkCallItemResult>, SchemaBuilder& s) {
    detail::success_or_failure(s, {"data"}, {"error"});
    s["description"] =
        "nextEligibleAt (null when no time will do) on a blocked call; blockedByCallId when a "
        "call to the customer in progress blocked it.";
}

// The hosted names: `successful`, not the `succeeded` of the other bulk answers.
struct BulkCallSummary {
    std::int64_t total = 0;
    std::int64_t successful = 0;
    std::int64_t failed = 0;

    friend bool operator==(const BulkCallSummary&, const BulkCallSummary&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCallSummary, (), (total, successful, failed))

struct BulkCallResult {
    BulkCallSummary summary;
    std::vector<BulkCallItemResult> results;

    // The next customer's call was placed.
    void add_placed(const Uuid& customer_id, Call call) {
        BulkCallItemResult& item = results.emplace_back();
        item.customerId = customer_id;
        item.success = true;
        item.data = std::move(call);
        ++summary.successful;
        summary.total = static_cast<std::int64_t>(results.size());
    }
    // The next customer's call was not placed: unknown customer (no compliance), or blocked.
    void add_failed(const Uuid& customer_id, std::string error,
                    std::optional<ComplianceResult> compliance = std::nullopt) {
        BulkCallItemResult& item = results.emplace_back();
        item.customerId = customer_id;
        item.success = false;
        item.error = std::move(error);
        if (compliance) item.compliance = std::move(*compliance);
        ++summary.failed;
        summary.total = static_cast<std::int64_t>(results.size());
    }
    // The next customer's call was blocked by compliance: the 422's message, its compliance, its
    // next eligible time (nullopt: no time will do) and the call in progress that blocked it.
    void add_blocked(const Uuid& customer_id, std::string error, ComplianceResult compliance,
                     std::optional<Timestamp> next_eligible_at,
                     Patch<Uuid> blocked_by_call_id = {}) {
        add_failed(customer_id, std::move(error), std::move(compliance));
        BulkCallItemResult& item = results.back();
        if (next_eligible_at) {
            item.nextEligibleAt = *next_eligible_at;
        } else {
            item.nextEligibleAt = null;
        }
        item.blockedByCallId = std::move(blocked_by_call_id);
    }

    friend bool operator==(const BulkCallResult&, const BulkCallResult&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCallResult, (), (summary, results))

}  // namespace collectcall
