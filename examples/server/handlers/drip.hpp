// Drip campaigns (API.md section 15): a customer's enrolment, its state and its cancellation,
// and the scheduler's work, which runs each due step once at its first compliant instant.
#pragma once

#include <cstddef>

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "drip-campaigns", run by serve() (the end of
// handlers/drip.cpp).
struct DripCampaigns {
    static constexpr ResourceTag tag = "drip-campaigns";
    static void serve(Exchange& x, Services& s);
};

// Runs the steps due at the clock's now, at most `limit` (a step whose compliance does not pass
// now is moved to its next eligible time; an enrolment whose customer can never be contacted
// again is canceled). Returns how many enrolments were looked at: `limit` means there may be
// more.
std::size_t run_due_drip_steps(Services& s, std::size_t limit);

}  // namespace collectcall::server::handlers
