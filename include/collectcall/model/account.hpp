// The caller's account as GET /account (extension) shows it: the settings its calls depend on,
// set by `init` (API.md sections 8, 14 and 15).
#pragma once

#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/model/compliance.hpp"
#include "collectcall/model/drip_campaign.hpp"
#include "collectcall/types/clock_time.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

// The calling window of the hosted checks in the customer's local time, half-open: a call at
// `start` is inside, one at `end` outside (`init --respectful-hours HH:MM-HH:MM`).
struct CallingWindow {
    ClockTime start;
    ClockTime end;

    friend bool operator==(const CallingWindow&, const CallingWindow&) = default;
};
BOOST_DESCRIBE_STRUCT(CallingWindow, (), (start, end))

struct Account {
    Uuid id;
    std::string name;
    CompliancePolicy compliancePolicy = CompliancePolicy::hosted;  // `init --compliance`
    CallingWindow respectfulHours;
    unsigned maxCallsPerDay = 0;      // four-voice-call-per-day's limit
    std::vector<E164> callerNumbers;  // the pool calls come from (API.md section 8)
    std::vector<DripCampaignDefinition> dripCampaigns;  // `init --campaign`

    friend bool operator==(const Account&, const Account&) = default;
};
BOOST_DESCRIBE_STRUCT(Account, (),
                      (id, name, compliancePolicy, respectfulHours, maxCallsPerDay, callerNumbers,
                       dripCampaigns))

}  // namespace collectcall
