// How long the records of a customer's collection are kept (12 CFR 1006.100), and what counts as
// the collection activity that period runs from. A store keeps, per customer, the instant of its
// last activity and sweeps the customer's records together once that instant is older than the
// period; it needs nothing else from here.
#pragma once

#include <algorithm>
#include <chrono>

#include "collectcall/types/timestamp.hpp"

namespace collectcall::compliance {

// 12 CFR 1006.100(a): a debt collector retains the records that are evidence of compliance or
// noncompliance "until three years after" its last collection activity on the debt (one
// customer's collections are one debt, as section 14's counts take them). Three years as 1096
// days: no three calendar years hold more than one February 29, so none is longer, and a record
// is never swept before its three years are over.
inline constexpr std::chrono::days record_retention{3 * 365 + 1};

// The records retention keeps and sweeps together, per customer: the record of every compliance
// decision, the calls (with their events and analyses) and the SMS and e-mail interactions (with
// their analyses). The customer itself stays: it is the account's resource (the account deletes
// or deactivates it), and what it shows is its current state, not a record of activity.
//
// Collection activity, each at the instant given (the latest of them is the customer's last
// activity):
//  - every compliance decision (a contact attempt, blocked or placed, and any other decision the
//    record of decisions keeps), at its `at`;
//  - a call placed, at its createdAt, and its end, at the instant it ended;
//  - an SMS or e-mail stored (generated and sent, or imported as a record of a contact made
//    elsewhere), at activity_at below.
// Counting an inbound message as activity keeps the records longer, never shorter.

// The activity instant of an interaction: the later of when it happened (`timestamp`) and when
// it was recorded (`createdAt`), so that importing an old message does not make the customer's
// records due for sweeping the moment it is stored.
template <class Interaction>
[[nodiscard]] Timestamp::Time activity_at(const Interaction& interaction) {
    return std::max(interaction.timestamp.time(), interaction.createdAt.time());
}

// The sweep at `now` takes the records of the customers whose last activity is before this
// instant; a customer whose last activity is at or after it keeps all of its records.
[[nodiscard]] constexpr Timestamp::Time records_expire_before(Timestamp::Time now) noexcept {
    return now - record_retention;
}

// Whether a customer whose last collection activity was at `last_activity` keeps its records at
// `now`.
[[nodiscard]] constexpr bool records_kept(Timestamp::Time last_activity,
                                          Timestamp::Time now) noexcept {
    return last_activity >= records_expire_before(now);
}

}  // namespace collectcall::compliance
