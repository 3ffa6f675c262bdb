// The compliance engine's input for one contact with a stored customer: what the store keeps
// (the customer, the account's settings, the contacts counted) as the library's ComplianceInput.
// The input refers to its sources, which must outlive it.
#pragma once

#include <collectcall/compliance/decision.hpp>

#include "store.hpp"

namespace collectcall::server {

[[nodiscard]] inline compliance::ComplianceInput compliance_input(const StoredCustomer& stored,
                                                                  const AccountSettings& settings,
                                                                  const ContactHistory& history,
                                                                  Time now,
                                                                  ContactChannel channel) {
    const CustomerCreate& customer = stored.customer;
    compliance::ComplianceInput in;
    in.active = stored.active;
    in.cease_and_desist = stored.cease_and_desist;
    in.state = customer.address.state ? customer.address.state->view() : std::string_view{};
    in.zip5 = customer.address.zip.view();
    in.placed_calls = history.placed;
    in.now = now;
    in.window = settings.window;
    in.max_calls_per_day = settings.max_calls_per_day;
    in.policy = settings.policy;
    in.channel = channel;
    in.phone_numbers = {customer.primaryPhone.view(), customer.secondaryPhone
                                                          ? customer.secondaryPhone->view()
                                                          : std::string_view{}};
    in.conversations = history.conversations;
    in.sent_texts = history.texts;
    if (customer.inconvenientTimes.has_value()) in.inconvenient_times = *customer.inconvenientTimes;
    in.asked_not_to_call = stored.do_not_call;
    in.attorney_represented = stored.attorney_represented;
    return in;
}

}  // namespace collectcall::server
