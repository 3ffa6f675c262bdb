// The record of a compliance decision (model/compliance.hpp, compliance/decision.hpp), and the
// value types a customer's designated inconvenient times are read with.
#include "collectcall/compliance/decision.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"
#include "support.hpp"

using namespace collectcall;
using namespace collectcall::compliance;
using compliance_test::local;

TEST_CASE("decision: a blocked call's record, written and read back") {
    constexpr std::string_view new_york = "America/New_York";
    const std::vector<CallTime> calls{local(new_york, 2026, 1, 5, 10, 0),
                                      local(new_york, 2026, 1, 7, 10, 0)};
    const std::vector<CallTime> texts{local(new_york, 2026, 1, 8, 12, 0)};
    ComplianceInput in;
    in.active = true;
    in.state = "MA";
    in.zip5 = "02108";
    in.policy = CompliancePolicy::regulation_f;
    in.phone_numbers = {"+13125550100", ""};
    in.placed_calls = calls;
    in.conversations = std::span<const CallTime>(calls).first(1);
    in.sent_texts = texts;
    in.now = local(new_york, 2026, 1, 9, 10, 0, 30);

    const ComplianceDecision decision = decide(in, ComplianceOperation::drip_step);
    CHECK(decision.at.view() == "2026-01-09T15:00:30.000Z");
    CHECK(decision.operation == ComplianceOperation::drip_step);
    CHECK(decision.policy == CompliancePolicy::regulation_f);
    CHECK(decision.channel == ContactChannel::call);
    CHECK(decision.candidateZones ==
          std::vector<std::string>{"America/New_York", "America/Chicago"});
    REQUIRE(decision.localTimes.size() == 2);
    CHECK(decision.localTimes[0].localTime == "2026-01-09T10:00:30");
    CHECK(decision.localTimes[1].zone == "America/Chicago");
    CHECK(decision.localTimes[1].localTime == "2026-01-09T09:00:30");
    CHECK(decision.counts.callsToday == 0);
    CHECK(decision.counts.callsInSevenDays == 2);
    CHECK(decision.counts.communicationsInSevenDays == 3);
    REQUIRE(decision.counts.lastConversationAt);
    CHECK(decision.counts.lastConversationAt->view() == "2026-01-05T15:00:00.000Z");
    CHECK_FALSE(decision.compliance.passed);
    CHECK(decision.compliance == evaluate(in));
    REQUIRE(decision.nextEligibleAt);
    CHECK(decision.nextEligibleAt->time() == next_eligible(in));

    const std::string json = write(decision);
    CHECK(json.find(R"("operation":"drip-step","policy":"regulation-f","channel":"call")") !=
          std::string::npos);
    const auto back = read<ComplianceDecision>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == decision);
    CHECK(write(back.value()) == json);

    // Allowed at once: the next eligible time is the decision's own instant. Never: null.
    in.placed_calls = {};
    in.conversations = {};
    in.sent_texts = {};
    const auto allowed = decide(in, ComplianceOperation::call);
    CHECK(allowed.compliance.passed);
    CHECK(allowed.nextEligibleAt == allowed.at);
    in.attorney_represented = true;
    const auto never = decide(in, ComplianceOperation::sms);
    CHECK_FALSE(never.nextEligibleAt);
    const std::string never_json = write(never);
    CHECK(never_json.find(R"("nextEligibleAt":null)") != std::string::npos);
    CHECK(read<ComplianceDecision>(never_json).value() == never);
}

TEST_CASE("decision: designated inconvenient times are read and written as HH:MM") {
    const auto ok = read<InconvenientTime>(R"({"days":["mon","fri"],"from":"09:00","to":"24:00"})");
    REQUIRE(ok.ok());
    CHECK(ok.value().days == std::vector<Weekday>{Weekday::mon, Weekday::fri});
    CHECK(ok.value().from.minutes() == std::chrono::hours{9});
    CHECK(ok.value().to.minutes() == std::chrono::hours{24});
    CHECK(write(ok.value()) == R"({"days":["mon","fri"],"from":"09:00","to":"24:00"})");

    const auto bad = read<InconvenientTime>(R"({"days":["monday"],"from":"9:00","to":"24:01"})");
    REQUIRE_FALSE(bad.ok());
    std::vector<std::string> paths;
    for (const auto& error : bad.errors())
        paths.push_back(error.path);
    CHECK(paths == std::vector<std::string>{"/days/0", "/from", "/to"});

    CHECK(ClockTime::parse("00:00").value().view() == "00:00");
    CHECK(ClockTime::parse("23:59").value().minutes() == std::chrono::minutes{23 * 60 + 59});
    for (const char* text : {"24:01", "25:00", "12:60", "1200", "12:0", "+1:00", " 12:00", ""}) {
        INFO(text);
        CHECK_FALSE(ClockTime::parse(text).ok());
    }
    CHECK(ClockTime::from_minutes(std::chrono::minutes{-1}) == std::nullopt);
    CHECK(ClockTime::from_minutes(std::chrono::minutes{8 * 60 + 5})->view() == "08:05");
}
