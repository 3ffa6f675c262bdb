// Agent calls: placing one or many (compliance first), reading them, and their recordings.
#pragma once

#include <span>

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

}  // namespace collectcall::server::handlers
