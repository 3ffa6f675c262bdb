// Agent calls: placing one or many (compliance first), reading them, and their recordings.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include <collectcall/compliance/gate.hpp>

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "calls", run by serve() (the end of handlers/calls.cpp).
struct Calls {
    static constexpr ResourceTag tag = "calls";
    static void serve(Exchange& x, Services& s);
};

// The contact gate (compliance/gate.hpp) asked about `request` to `stored` at `now`, from the
// customer, its contacts and the account's settings as the store has them: a call, a bulk item,
// a drip campaign's step, a persisted SMS or e-mail are decided there alike. `history` is read
// as the store gave it (the calls in progress included).
ComplianceDecision ask_gate(const StoredCustomer& stored, const ContactHistory& history,
                            const AccountSettings& settings,
                            const compliance::ContactRequest& request, Time now);

// The gate's input for the same question, for a scheduler that looks further ahead (a drip
// campaign's steps). It refers to `stored` and `history`.
compliance::ComplianceInput gate_input(const StoredCustomer& stored, const ContactHistory& history,
                                       const AccountSettings& settings,
                                       const compliance::ContactRequest& request, Time now);

// The account's number that calls and texts `stored` (the pool's choice for its phone).
E164 caller_number_for(const StoredCustomer& stored, const AccountSettings& settings);

// The plan of one call to a customer at `now`, decided on the customer and its contacts inside
// the store's transaction: POST .../calls, each item of POST /calls/bulk and a drip campaign's
// call step decide a call alike.
CallPlan plan_call(const StoredCustomer& stored, const ContactHistory& history,
                   const AccountSettings& settings, Time now, ComplianceOperation operation,
                   std::string_view agent_id, const std::optional<Webhook>& webhook);

// The webhook of a request: its host resolves to an allowed address and its secretId is the
// account's (API.md section 9). False when it is not, and the request has been answered.
bool check_webhook(const Webhook& webhook, Exchange& x, Services& s);

}  // namespace collectcall::server::handlers
