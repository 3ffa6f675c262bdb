// Agent calls: placing one or many (compliance first), reading them, and their recordings.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include <collectcall/compliance/engine.hpp>

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::create_call>, Exchange& x, Services& s);
void handle(endpoint<Operation::list_calls>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_call>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_call_recording>, Exchange& x, Services& s);
void handle(endpoint<Operation::create_calls>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_signed_url>, Exchange& x, Services& s);

// The earlier contacts compliance counts: calls placed, conversations had, texts sent.
struct ContactTimes {
    std::span<const Time> placed;
    std::span<const Time> conversations;
    std::span<const Time> texts;
};

// What compliance reads of a customer, its account and its history for a contact at `now` (a
// call, an SMS); the caller sets the channel. The input refers to `stored` and `history`.
compliance::ComplianceInput compliance_input(const StoredCustomer& stored,
                                             const AccountSettings& settings, Time now,
                                             ContactTimes history);

// The compliance decision (API.md section 14) on one contact with `stored` at `now` over
// `channel`: a call, a generated SMS and each step of a drip campaign decide alike.
ComplianceDecision decide_contact(const StoredCustomer& stored, const AccountSettings& settings,
                                  Time now, ContactTimes history, ContactChannel channel,
                                  ComplianceOperation operation);

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
