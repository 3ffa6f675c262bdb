// The compliance input of an agent call to a customer (SPEC.md section 8, API.md section 8):
// what the engine (compliance/engine.hpp) is asked, made from the customer as stored, the calls
// already placed to them and the account's rules, so that every service calling a customer
// asks the same question.
#pragma once

#include <span>
#include <string_view>

#include "collectcall/compliance/engine.hpp"
#include "collectcall/compliance/local_time.hpp"
#include "collectcall/model/customer.hpp"

namespace collectcall::compliance {

// What a customer's record says of whether they may be called, beyond their fields: the API
// deactivates and activates a customer, records a cease-and-desist request (final), and an
// analysis records a request not to be called and an attorney's representation (API.md
// sections 13 and 14).
struct CustomerStanding {
    bool active = true;
    bool cease_and_desist = false;
    bool asked_not_to_call = false;
    bool attorney_represented = false;
};

// The rules an account sets for its calls: the local hours in which a customer may be called,
// the most voice calls per customer per local day, and the compliance policy (API.md section 14).
struct CallRules {
    RespectfulHours window{};
    unsigned max_calls_per_day = default_max_calls_per_day;
    CompliancePolicy policy = CompliancePolicy::hosted;
};

// The input of a call at `now` to `customer`, whose earlier calls were placed at `placed_calls`
// (any order; the engine counts those of the local day). The customer's phone numbers and
// designated inconvenient times are read under regulation-f; the caller adds the conversations
// and text messages that policy counts. The input refers to the customer and to `placed_calls`:
// both outlive it.
[[nodiscard]] inline ComplianceInput call_input(const Customer& customer, CustomerStanding standing,
                                                std::span<const CallTime> placed_calls,
                                                CallTime now, CallRules rules) {
    ComplianceInput input;
    input.active = standing.active;
    input.cease_and_desist = standing.cease_and_desist;
    input.asked_not_to_call = standing.asked_not_to_call;
    input.attorney_represented = standing.attorney_represented;
    input.state = customer.address.state ? customer.address.state->view() : std::string_view{};
    input.zip5 = customer.address.zip.view();
    input.placed_calls = placed_calls;
    input.now = now;
    input.window = rules.window;
    input.max_calls_per_day = rules.max_calls_per_day;
    input.policy = rules.policy;
    input.phone_numbers = {customer.primaryPhone.view(), customer.secondaryPhone
                                                             ? customer.secondaryPhone->view()
                                                             : std::string_view{}};
    if (customer.inconvenientTimes.has_value())
        input.inconvenient_times = *customer.inconvenientTimes;
    return input;
}

}  // namespace collectcall::compliance
