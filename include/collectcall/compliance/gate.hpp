// The contact gate (API.md section 16): every outbound contact with a customer — a call (single,
// bulk item, drip campaign call step), a persisted SMS (generated, drip campaign SMS step), a
// persisted e-mail — is one evaluation, asked here, of the checks of its medium under the
// account's policy, answered with the record of the decision (decision.hpp) and its next eligible
// time. A service asks the gate with what it has stored (the customer, its standing, its contact
// history, the account's rules) and what it is about to do; it assembles no check itself.
//
// Answers a caller acts on:
// - `compliance.passed`: make the contact (and count it).
// - blocked, `nextEligibleAt` set: the same contact passes at that instant if nothing else
//   happens; a scheduler waits until then.
// - blocked by a call in progress (waits_for_call(decision): the decision's `blockedByCallId`;
//   `nextEligibleAt` is null): the contact waits for that call to end, however long it lasts; a
//   scheduler asks again once it has ended (it is not uncontactable). Under regulation-f every
//   call waits so, and a drip campaign's call step under every policy (one_call_at_a_time).
// - blocked, `nextEligibleAt` null, no blocking call: no time will do until the customer's
//   standing changes (inactive, cease and desist, the medium restricted, an attorney).
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "collectcall/compliance/decision.hpp"
#include "collectcall/compliance/engine.hpp"
#include "collectcall/compliance/local_time.hpp"
#include "collectcall/compliance/next_eligible.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/customer.hpp"

namespace collectcall::compliance {

// What a customer's record says of whether they may be contacted, beyond their fields: the API
// deactivates and activates a customer, records a cease-and-desist request (final), the media
// the customer asked the collector not to use (12 CFR 1006.14(h)) and an attorney's
// representation (API.md sections 13, 14 and 16).
struct CustomerStanding {
    bool active = true;
    bool cease_and_desist = false;
    RestrictedMedia restricted_media{};
    bool attorney_represented = false;
};

// The rules an account sets for its contacts: the local hours in which a customer may be called
// or texted, the most voice calls per customer per local day, and the compliance policy (API.md
// section 14).
struct ContactRules {
    RespectfulHours window{};
    unsigned max_calls_per_day = default_max_calls_per_day;
    CompliancePolicy policy = CompliancePolicy::hosted;
    // The state rules (state_rules.hpp): the built-in table unless a test gives another. The
    // history given to the gate reaches history_required(state_rules) back.
    StateRules state_rules = state_call_limits;
};

// The customer's earlier contacts, as far back as history_required(rules.state_rules) reaches
// (at least; required_history for the built-in rules): the instants of the calls placed (those
// in progress included), of those that were telephone conversations (a transcript with a turn of
// the customer's), of the text messages sent, and the calls still in progress with their ids. In
// any order.
struct ContactHistory {
    std::span<const CallTime> placed_calls{};
    std::span<const CallTime> conversations{};
    std::span<const CallTime> texts{};
    std::span<const OngoingCall> calls_in_progress{};
};

// The contact asked for: its medium, what asks for it, and for a text message the number it goes
// to (E.164; empty: the customer's primary phone).
struct ContactRequest {
    ContactChannel medium = ContactChannel::call;
    ComplianceOperation operation = ComplianceOperation::call;
    std::string_view to{};
};

// The engine's input for `request` at `now`. It refers to `customer` and `history`: both outlive
// it. (A scheduler that looks further ahead than one contact, such as a drip campaign's, starts
// from this input.)
[[nodiscard]] inline ComplianceInput contact_input(const Customer& customer,
                                                   const CustomerStanding& standing,
                                                   const ContactHistory& history,
                                                   const ContactRules& rules,
                                                   const ContactRequest& request, CallTime now) {
    ComplianceInput input;
    input.active = standing.active;
    input.cease_and_desist = standing.cease_and_desist;
    input.restricted_media = standing.restricted_media;
    input.attorney_represented = standing.attorney_represented;
    input.state = customer.address.state ? customer.address.state->view() : std::string_view{};
    input.zip5 = customer.address.zip.view();
    input.placed_calls = history.placed_calls;
    input.conversations = history.conversations;
    input.sent_texts = history.texts;
    input.calls_in_progress = history.calls_in_progress;
    input.now = now;
    input.window = rules.window;
    input.max_calls_per_day = rules.max_calls_per_day;
    input.policy = rules.policy;
    input.state_rules = rules.state_rules;
    input.channel = request.medium;
    input.operation = request.operation;
    if (request.medium == ContactChannel::sms) input.to_number = request.to;
    input.phone_numbers = {customer.primaryPhone.view(), customer.secondaryPhone
                                                             ? customer.secondaryPhone->view()
                                                             : std::string_view{}};
    if (customer.inconvenientTimes.has_value())
        input.inconvenient_times = *customer.inconvenientTimes;
    return input;
}

// The gate: the decision on `request` to `customer` at `now` — every check of its medium under
// the account's policy, the record of the evaluation (operation, candidate zones, local times,
// counts), `nextEligibleAt` (`now` when it passes), and when a call in progress blocks it, that
// call's id (`blockedByCallId`).
[[nodiscard]] inline ComplianceDecision gate(const Customer& customer,
                                             const CustomerStanding& standing,
                                             const ContactHistory& history,
                                             const ContactRules& rules,
                                             const ContactRequest& request, CallTime now) {
    return decide(contact_input(customer, standing, history, rules, request, now),
                  request.operation);
}

// Whether `decision` blocked its contact because a call to the customer is in progress: the
// contact is to be asked again once that call (`decision.blockedByCallId`) has ended; it is not
// a customer no time will do for.
[[nodiscard]] inline bool waits_for_call(const ComplianceDecision& decision) noexcept {
    return decision.blockedByCallId.has_value();
}

}  // namespace collectcall::compliance
