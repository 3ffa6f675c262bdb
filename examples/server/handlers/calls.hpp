// Agent calls: placing one or many (compliance first), reading them, and their recordings.
#pragma once

#include <collectcall/compliance/engine.hpp>

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::create_call>, Exchange& x, Services& s);
void handle(endpoint<Operation::list_calls>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_call>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_call_recording>, Exchange& x, Services& s);
void handle(endpoint<Operation::create_calls>, Exchange& x, Services& s);
void handle(endpoint<Operation::get_signed_url>, Exchange& x, Services& s);

// What compliance reads of a customer and its account for a contact at `now` (a call, an SMS);
// the caller adds the history it counts and the channel.
compliance::ComplianceInput compliance_input(const StoredCustomer& stored,
                                             const AccountSettings& settings, Time now);

}  // namespace collectcall::server::handlers
