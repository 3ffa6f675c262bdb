// The account as GET /account shows it (model/account.hpp).
#include "collectcall/model/account.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"

using namespace collectcall;

TEST_CASE("Account: policy, window, limit, numbers and campaigns, written and read back") {
    Account account;
    account.id = Uuid::parse("11111111-2222-4333-8444-555555555555").value();
    account.name = "acme";
    account.compliancePolicy = CompliancePolicy::regulation_f;
    account.respectfulHours = {ClockTime::parse("08:00").value(),
                               ClockTime::parse("20:50").value()};
    account.maxCallsPerDay = 4;
    account.callerNumbers = {E164::parse("+12025550100").value()};
    account.dripCampaigns = {parse_drip_campaign("welcome").campaign.value()};
    const std::string json = write(account);
    CHECK(
        json ==
        R"({"id":"11111111-2222-4333-8444-555555555555","name":"acme",)"
        R"("compliancePolicy":"regulation-f","respectfulHours":{"start":"08:00","end":"20:50"},)"
        R"("maxCallsPerDay":4,"callerNumbers":["+12025550100"],"dripCampaigns":[{"name":"welcome",)"
        R"("steps":[{"channel":"call","days":0},{"channel":"sms","days":2},)"
        R"({"channel":"call","days":4}]}]})");
    auto back = read<Account>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == account);
}
