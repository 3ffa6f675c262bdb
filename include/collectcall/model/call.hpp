// Calls: the request of POST /customers/{id}/calls (SPEC.md 4.4, 2.7) and the call object
// (SPEC.md 2.5 plus createdAt; GET /calls/{id} adds its state, API.md section 8).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include "collectcall/core/enum.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/url.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

// The closed sets of a call (API.md sections 8 and 9), on the wire in kebab case (core/enum.hpp).
enum class CallStatus { in_progress, completed, canceled };
BOOST_DESCRIBE_ENUM(CallStatus, in_progress, completed, canceled)

enum class CallEventType { call_created, call_ended };
BOOST_DESCRIBE_ENUM(CallEventType, call_created, call_ended)

enum class EndedReason {
    customer_did_not_answer,
    voicemail,
    customer_ended_call,
    agent_ended_call,
    silence_timed_out,
    unknown,
};
BOOST_DESCRIBE_ENUM(EndedReason, customer_did_not_answer, voicemail, customer_ended_call,
                    agent_ended_call, silence_timed_out, unknown)

// Where a call's events go. Without secretId the deliveries are unsigned (as the hosted
// service); with one, they are signed with that secret of the caller's account.
struct Webhook {
    Url url;
    std::optional<Uuid> secretId;

    friend bool operator==(const Webhook&, const Webhook&) = default;
};
BOOST_DESCRIBE_STRUCT(Webhook, (), (url, secretId))

struct CallRequest {
    Text agentId;
    std::optional<Webhook> webhook;

    friend bool operator==(const CallRequest&, const CallRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(CallRequest, (), (agentId, webhook))

// The data of the create-call response, placed (200) or blocked by compliance (422).
struct Call {
    Uuid id;
    Uuid threadId;
    E164 toPhoneNumber;
    E164 fromPhoneNumber;
    ComplianceResult compliance;
    Timestamp createdAt;

    friend bool operator==(const Call&, const Call&) = default;
};
BOOST_DESCRIBE_STRUCT(Call, (),
                      (id, threadId, toPhoneNumber, fromPhoneNumber, compliance, createdAt))

// The data of a 422 compliance_failed: the call that was not placed and (extension) when it
// could be (API.md section 14): the earliest instant at which every check would pass if nothing
// else happened, null when no time will do (inactive, cease and desist, a restricted medium,
// attorney representation, a call in progress); and (extension, API.md section 16) the call in
// progress that blocked it, absent when none did.
struct BlockedCall : Call {
    std::optional<Timestamp> nextEligibleAt;
    Patch<Uuid> blockedByCallId;

    friend bool operator==(const BlockedCall&, const BlockedCall&) = default;
};
BOOST_DESCRIBE_STRUCT(BlockedCall, (Call), (nextEligibleAt, blockedByCallId))

inline void collectcall_schema(schema_tag<BlockedCall>, SchemaBuilder& s) {
    s["description"] =
        "A call compliance blocked. blockedByCallId is present when a call to the customer in "
        "progress blocked it (regulation-f: one call at a time); nextEligibleAt is then null.";
}

struct CallEvent {
    CallEventType type = CallEventType::call_created;
    Timestamp createdAt;

    friend bool operator==(const CallEvent&, const CallEvent&) = default;
};
BOOST_DESCRIBE_STRUCT(CallEvent, (), (type, createdAt))

// A placed call with its current state, as GET /calls/{id} and GET /customers/{id}/calls return it.
struct CallDetails : Call {
    Uuid customerId;
    CallStatus status = CallStatus::in_progress;
    std::optional<EndedReason> endedReason;  // once ended
    std::optional<std::int64_t> durationMs;  // once ended
    std::vector<CallEvent> events;

    friend bool operator==(const CallDetails&, const CallDetails&) = default;
};
BOOST_DESCRIBE_STRUCT(CallDetails, (Call), (customerId, status, endedReason, durationMs, events))

struct CallList {
    std::vector<CallDetails> calls;
    // The cursor of the next page (api/page.hpp); null on the last page.
    std::optional<std::string> nextCursor;

    friend bool operator==(const CallList&, const CallList&) = default;
};
BOOST_DESCRIBE_STRUCT(CallList, (), (calls, nextCursor))

// The number a call comes from (API.md section 8): the first number of the account's pool in the
// customer's NANP area code, else the pool's first number; nullopt when the pool is empty (what
// that means is the caller's decision).
[[nodiscard]] inline std::optional<E164> caller_number(std::span<const E164> pool,
                                                       const E164& customer_phone) noexcept {
    if (pool.empty()) return std::nullopt;
    const std::string_view area = customer_phone.nanp_area_code();
    if (!area.empty()) {
        for (const E164& number : pool) {
            if (number.nanp_area_code() == area) return number;
        }
    }
    return pool.front();
}

}  // namespace collectcall
