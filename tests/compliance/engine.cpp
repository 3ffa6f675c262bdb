#include "collectcall/compliance/engine.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include <date/date.h>
#include <date/tz.h>

using collectcall::ComplianceResult;
using collectcall::compliance::CallTime;
using collectcall::compliance::ComplianceInput;
using collectcall::compliance::evaluate;
using collectcall::compliance::failure_message;
using collectcall::compliance::RespectfulHours;
using collectcall::compliance::zone_names;
using namespace std::chrono_literals;

namespace {

// An instant given as UTC wall time.
CallTime utc(int y, unsigned m, unsigned d, int hh, int mm, int ss = 0, int ms = 0) {
    return CallTime{date::sys_days{date::year{y} / m / d}} + std::chrono::hours{hh} +
           std::chrono::minutes{mm} + std::chrono::seconds{ss} + std::chrono::milliseconds{ms};
}

// An instant given as wall time in a zone (the earlier one where the wall time repeats).
CallTime local(std::string_view zone, int y, unsigned m, unsigned d, int hh, int mm, int ss = 0,
               int ms = 0) {
    const auto wall = date::local_days{date::year{y} / m / d} + std::chrono::hours{hh} +
                      std::chrono::minutes{mm} + std::chrono::seconds{ss} +
                      std::chrono::milliseconds{ms};
    return CallTime{date::locate_zone(zone)->to_sys(wall, date::choose::earliest)};
}

ComplianceInput customer(std::string_view state, std::string_view zip, CallTime now,
                         const std::vector<CallTime>& calls = {}) {
    ComplianceInput in;
    in.active = true;
    in.cease_and_desist = false;
    in.state = state;
    in.zip5 = zip;
    in.placed_calls = calls;
    in.now = now;
    return in;
}

// The check with this id, wherever it landed, and whether it passed.
struct Found {
    bool passed = false;
    std::string reason;
};

Found find(const ComplianceResult& result, std::string_view id) {
    for (const auto& check : result.checksPassed) {
        if (collectcall::enum_name(check.id) == id) return {true, check.reason};
    }
    for (const auto& check : result.checksFailed) {
        if (collectcall::enum_name(check.id) == id) return {false, check.reason};
    }
    FAIL("no check " << id);
    return {};
}

Found hours(const ComplianceResult& result) {
    return find(result, "respectful-hours");
}
Found count(const ComplianceResult& result) {
    return find(result, "four-voice-call-per-day");
}

}  // namespace

TEST_CASE("engine: every zone the table names is in the installed time zone database") {
    for (std::string_view name : zone_names) {
        INFO(name);
        CHECK_NOTHROW(date::locate_zone(name));
    }
}

TEST_CASE("engine: the fourth call of the day is allowed, the fifth is blocked") {
    const auto now = local("America/New_York", 2026, 1, 15, 14, 0);
    std::vector<CallTime> calls{
        local("America/New_York", 2026, 1, 15, 8, 0),
        local("America/New_York", 2026, 1, 15, 9, 30),
        local("America/New_York", 2026, 1, 15, 11, 0),
    };
    auto result = evaluate(customer("NY", "10001", now, calls));
    CHECK(result.passed);
    CHECK(count(result).passed);
    CHECK(count(result).reason ==
          "Customer has had 3 voice calls today within respectful hours window "
          "(America/New_York), within the limit of 4");

    calls.push_back(local("America/New_York", 2026, 1, 15, 12, 0));
    result = evaluate(customer("NY", "10001", now, calls));
    CHECK_FALSE(result.passed);
    CHECK_FALSE(count(result).passed);
    CHECK(count(result).reason ==
          "Customer has had 4 voice calls today within respectful hours window "
          "(America/New_York), exceeding the limit of 4");
}

TEST_CASE("engine: the daily limit is the account's") {
    const auto now = local("America/Chicago", 2026, 1, 15, 14, 0);
    const std::vector<CallTime> calls{local("America/Chicago", 2026, 1, 15, 9, 0)};
    auto in = customer("IL", "60601", now, calls);
    in.max_calls_per_day = 2;
    CHECK(count(evaluate(in)).reason ==
          "Customer has had 1 voice call today within respectful hours window "
          "(America/Chicago), within the limit of 2");
    in.max_calls_per_day = 1;
    CHECK(count(evaluate(in)).reason ==
          "Customer has had 1 voice call today within respectful hours window "
          "(America/Chicago), exceeding the limit of 1");
    in.placed_calls = {};
    CHECK(count(evaluate(in)).passed);
}

TEST_CASE("engine: the day is the customer's local calendar day, midnight to midnight") {
    // 22:30 in New York is already the next day in UTC: the calls of the local morning count.
    const auto now = local("America/New_York", 2026, 1, 15, 20, 30);
    const std::vector<CallTime> calls{
        local("America/New_York", 2026, 1, 14, 23, 59, 59, 999),  // yesterday, just
        local("America/New_York", 2026, 1, 14, 23, 59, 59, 999),
        local("America/New_York", 2026, 1, 14, 23, 59, 59, 999),
        local("America/New_York", 2026, 1, 14, 23, 59, 59, 999),
        local("America/New_York", 2026, 1, 15, 0, 0),  // today, just
        local("America/New_York", 2026, 1, 16, 0, 0),  // tomorrow
    };
    const auto result = evaluate(customer("NY", "10001", now, calls));
    CHECK(count(result).passed);
    CHECK(count(result).reason ==
          "Customer has had 1 voice call today within respectful hours window "
          "(America/New_York), within the limit of 4");

    // The same calls seen a minute after local midnight: yesterday's four are not today's.
    const auto after_midnight = local("America/New_York", 2026, 1, 15, 0, 1);
    CHECK(count(evaluate(customer("NY", "10001", after_midnight, calls))).passed);
    // And a millisecond before it, yesterday had four.
    const auto before_midnight = local("America/New_York", 2026, 1, 14, 23, 59, 59, 999);
    CHECK_FALSE(count(evaluate(customer("NY", "10001", before_midnight, calls))).passed);
}

TEST_CASE("engine: a call later on the same local day counts too") {
    const auto now = local("America/New_York", 2026, 1, 15, 10, 0);
    const std::vector<CallTime> calls(4, local("America/New_York", 2026, 1, 15, 18, 0));
    CHECK_FALSE(count(evaluate(customer("NY", "10001", now, calls))).passed);
}

TEST_CASE("engine: spring forward in New York (2026-03-08), a 23-hour day") {
    // 01:59:59 EST is followed by 03:00:00 EDT.
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 3, 8, 6, 59, 59)))).reason ==
          "Customer local time is 01:59 (outside respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 3, 8, 7, 0)))).reason ==
          "Customer local time is 03:00 (outside respectful hours 8am-8:50pm)");
    // 08:00 EDT is 12:00 UTC, an hour earlier in UTC than the day before.
    CHECK_FALSE(hours(evaluate(customer("NY", "10001", utc(2026, 3, 8, 11, 59)))).passed);
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 3, 8, 12, 0)))).reason ==
          "Customer local time is 08:00 (America/New_York, within respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 3, 7, 12, 59)))).reason ==
          "Customer local time is 07:59 (outside respectful hours 8am-8:50pm)");
    // 20:50 EDT is 00:50 UTC on the 9th.
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 3, 9, 0, 49)))).passed);
    CHECK_FALSE(hours(evaluate(customer("NY", "10001", utc(2026, 3, 9, 0, 50)))).passed);

    // The local day runs from 05:00 UTC (00:00 EST) to 04:00 UTC on the 9th (00:00 EDT).
    const std::vector<CallTime> calls{
        utc(2026, 3, 8, 4, 59),  // 23:59 EST on the 7th
        utc(2026, 3, 8, 5, 0),   // 00:00 EST
        utc(2026, 3, 8, 13, 0),  // 09:00 EDT
        utc(2026, 3, 9, 3, 59),  // 23:59 EDT
        utc(2026, 3, 9, 4, 0),   // 00:00 EDT on the 9th
    };
    CHECK(count(evaluate(customer("NY", "10001", utc(2026, 3, 8, 16, 0), calls))).reason ==
          "Customer has had 3 voice calls today within respectful hours window "
          "(America/New_York), within the limit of 4");
}

TEST_CASE("engine: fall back in New York (2026-11-01), a 25-hour day") {
    // 01:30 happens twice, both outside the window.
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 11, 1, 5, 30)))).reason ==
          "Customer local time is 01:30 (outside respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 11, 1, 6, 30)))).reason ==
          "Customer local time is 01:30 (outside respectful hours 8am-8:50pm)");
    // 08:00 EST is 13:00 UTC, an hour later in UTC than the day before.
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 11, 1, 12, 59)))).reason ==
          "Customer local time is 07:59 (outside respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 10, 31, 12, 0)))).passed);
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 11, 1, 13, 0)))).passed);
    // 20:50 EST is 01:50 UTC on the 2nd.
    CHECK(hours(evaluate(customer("NY", "10001", utc(2026, 11, 2, 1, 49)))).passed);
    CHECK_FALSE(hours(evaluate(customer("NY", "10001", utc(2026, 11, 2, 1, 50)))).passed);

    // The local day runs from 04:00 UTC (00:00 EDT) to 05:00 UTC on the 2nd (00:00 EST).
    const std::vector<CallTime> calls{
        utc(2026, 11, 1, 3, 59),  // 23:59 EDT on October 31
        utc(2026, 11, 1, 4, 0),   // 00:00 EDT
        utc(2026, 11, 1, 5, 30),  // 01:30 EDT
        utc(2026, 11, 1, 6, 30),  // 01:30 EST
        utc(2026, 11, 2, 4, 59),  // 23:59 EST
        utc(2026, 11, 2, 5, 0),   // 00:00 EST on the 2nd
    };
    CHECK(count(evaluate(customer("NY", "10001", utc(2026, 11, 1, 18, 0), calls))).reason ==
          "Customer has had 4 voice calls today within respectful hours window "
          "(America/New_York), exceeding the limit of 4");
}

TEST_CASE("engine: the window is half-open, 08:00 inside and 20:50 outside") {
    const auto at = [](int hh, int mm, int ss = 0, int ms = 0) {
        return hours(evaluate(
            customer("IL", "60601", local("America/Chicago", 2026, 6, 10, hh, mm, ss, ms))));
    };
    CHECK_FALSE(at(7, 59, 59, 999).passed);
    CHECK(at(7, 59).reason == "Customer local time is 07:59 (outside respectful hours 8am-8:50pm)");
    CHECK(at(8, 0).passed);
    CHECK(at(8, 0).reason ==
          "Customer local time is 08:00 (America/Chicago, within respectful hours 8am-8:50pm)");
    CHECK(at(14, 30).reason ==
          "Customer local time is 14:30 (America/Chicago, within respectful hours 8am-8:50pm)");
    CHECK(at(20, 49).passed);
    CHECK(at(20, 49).reason ==
          "Customer local time is 20:49 (America/Chicago, within respectful hours 8am-8:50pm)");
    CHECK(at(20, 49, 59, 999).passed);
    CHECK_FALSE(at(20, 50).passed);
    CHECK(at(20, 50).reason ==
          "Customer local time is 20:50 (outside respectful hours 8am-8:50pm)");
    CHECK(at(20, 55).reason ==
          "Customer local time is 20:55 (outside respectful hours 8am-8:50pm)");
    CHECK_FALSE(at(21, 0).passed);
    CHECK_FALSE(at(0, 0).passed);
}

TEST_CASE("engine: the window is the account's") {
    auto in = customer("NY", "10001", local("America/New_York", 2026, 1, 15, 9, 15));
    in.window = RespectfulHours{std::chrono::hours{9} + std::chrono::minutes{30}, 20h};
    CHECK(hours(evaluate(in)).reason ==
          "Customer local time is 09:15 (outside respectful hours 9:30am-8pm)");
    in.window = RespectfulHours{0h, 24h};
    CHECK(hours(evaluate(in)).reason ==
          "Customer local time is 09:15 (America/New_York, within respectful hours 12am-12am)");

    // A window that ends before it starts, or leaves the day, allows nothing.
    in.window = RespectfulHours{21h, 8h};
    CHECK(hours(evaluate(in)).reason ==
          "Respectful hours window 21:00-08:00 is not valid (it must lie within 00:00-24:00 and "
          "start before it ends)");
    in.window = RespectfulHours{8h, 25h};
    CHECK_FALSE(hours(evaluate(in)).passed);
    in.window = RespectfulHours{8h, 8h};
    CHECK_FALSE(hours(evaluate(in)).passed);
}

TEST_CASE("engine: states that span zones resolve by ZIP Code") {
    // 15:30 UTC on a January day: 08:30 in El Paso and Denver, 09:30 in Chicago.
    const auto now = utc(2026, 1, 15, 15, 30);
    CHECK(hours(evaluate(customer("TX", "79901", now))).reason ==
          "Customer local time is 08:30 (America/Denver, within respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("TX", "75201", now))).reason ==
          "Customer local time is 09:30 (America/Chicago, within respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("FL", "32501", now))).reason ==
          "Customer local time is 09:30 (America/Chicago, within respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("FL", "33101", now))).reason ==
          "Customer local time is 10:30 (America/New_York, within respectful hours 8am-8:50pm)");

    // 13:30 UTC: 08:30 in Indianapolis, but 07:30 in Gary.
    const auto morning = utc(2026, 1, 15, 13, 30);
    CHECK(hours(evaluate(customer("IN", "46204", morning))).reason ==
          "Customer local time is 08:30 (America/Indiana/Indianapolis, within respectful hours "
          "8am-8:50pm)");
    CHECK(hours(evaluate(customer("IN", "46401", morning))).reason ==
          "Customer local time is 07:30 (outside respectful hours 8am-8:50pm)");
}

TEST_CASE("engine: an ambiguous location must be inside the window in every candidate zone") {
    // Van Horn, Texas (79855) may be on Central or Mountain time.
    // 14:30 UTC: 08:30 Central, 07:30 Mountain: blocked, and Mountain decided.
    auto result = evaluate(customer("TX", "79855", utc(2026, 1, 15, 14, 30)));
    CHECK_FALSE(result.passed);
    CHECK(hours(result).reason ==
          "Customer local time is 07:30 (America/Denver, outside respectful hours 8am-8:50pm)");
    // 02:30 UTC: 20:30 Central, 19:30 Mountain: allowed; the first candidate is named.
    result = evaluate(customer("TX", "79855", utc(2026, 1, 16, 2, 30)));
    CHECK(result.passed);
    CHECK(hours(result).reason ==
          "Customer local time is 20:30 (America/Chicago, within respectful hours 8am-8:50pm)");
    // 03:30 UTC: 21:30 Central: blocked by Central.
    CHECK(hours(evaluate(customer("TX", "79855", utc(2026, 1, 16, 3, 30)))).reason ==
          "Customer local time is 21:30 (America/Chicago, outside respectful hours 8am-8:50pm)");
}

TEST_CASE("engine: an ambiguous location must be under the limit in every zone's local day") {
    const auto now = utc(2026, 1, 15, 18, 0);  // 12:00 Central, 11:00 Mountain
    std::vector<CallTime> calls{
        utc(2026, 1, 15, 15, 0),
        utc(2026, 1, 15, 16, 0),
        utc(2026, 1, 15, 17, 0),
    };
    CHECK(count(evaluate(customer("TX", "79855", now, calls))).passed);

    // 06:30 UTC is 00:30 today in Chicago but 23:30 yesterday in Denver.
    calls.push_back(utc(2026, 1, 15, 6, 30));
    auto result = evaluate(customer("TX", "79855", now, calls));
    CHECK_FALSE(result.passed);
    CHECK(count(result).reason ==
          "Customer has had 4 voice calls today within respectful hours window "
          "(America/Chicago), exceeding the limit of 4");

    // 06:30 UTC tomorrow is 23:30 today in Denver but tomorrow in Chicago.
    calls.back() = utc(2026, 1, 16, 6, 30);
    result = evaluate(customer("TX", "79855", now, calls));
    CHECK_FALSE(result.passed);
    CHECK(count(result).reason ==
          "Customer has had 4 voice calls today within respectful hours window "
          "(America/Denver), exceeding the limit of 4");
}

TEST_CASE("engine: Arizona keeps MST all year; the Navajo Nation does not") {
    // 15:00 UTC is 08:00 in Phoenix in January and in July alike.
    CHECK(hours(evaluate(customer("AZ", "85004", utc(2026, 1, 15, 15, 0)))).passed);
    CHECK(hours(evaluate(customer("AZ", "85004", utc(2026, 7, 15, 15, 0)))).reason ==
          "Customer local time is 08:00 (America/Phoenix, within respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("AZ", "85004", utc(2026, 7, 15, 14, 59)))).reason ==
          "Customer local time is 07:59 (outside respectful hours 8am-8:50pm)");
    // In July, Denver is an hour ahead of Phoenix: 03:30 UTC is 20:30 in Phoenix, 21:30 in
    // Window Rock.
    CHECK(hours(evaluate(customer("AZ", "85004", utc(2026, 7, 16, 3, 30)))).passed);
    CHECK(hours(evaluate(customer("AZ", "86515", utc(2026, 7, 16, 3, 30)))).reason ==
          "Customer local time is 21:30 (America/Denver, outside respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("AZ", "86515", utc(2026, 7, 15, 14, 30)))).reason ==
          "Customer local time is 07:30 (America/Phoenix, outside respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("AZ", "86515", utc(2026, 7, 15, 16, 0)))).passed);
}

TEST_CASE("engine: Hawaii keeps HST all year") {
    CHECK(hours(evaluate(customer("HI", "96813", utc(2026, 7, 15, 18, 0)))).reason ==
          "Customer local time is 08:00 (Pacific/Honolulu, within respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("HI", "96813", utc(2026, 1, 15, 17, 59)))).reason ==
          "Customer local time is 07:59 (outside respectful hours 8am-8:50pm)");
    CHECK_FALSE(hours(evaluate(customer("HI", "96813", utc(2026, 1, 16, 7, 0)))).passed);
}

TEST_CASE("engine: all four checks are evaluated, in order, even when the first fails") {
    const auto now = local("America/New_York", 2026, 1, 15, 7, 0);
    const std::vector<CallTime> calls(4, local("America/New_York", 2026, 1, 15, 6, 0));
    auto in = customer("NY", "10001", now, calls);
    in.active = false;
    in.cease_and_desist = true;
    const auto result = evaluate(in);
    CHECK_FALSE(result.passed);
    CHECK(result.checksPassed.empty());
    REQUIRE(result.checksFailed.size() == 4);
    CHECK(collectcall::enum_name(result.checksFailed[0].id) == "is-active");
    CHECK(result.checksFailed[0].name == "Is Active");
    CHECK(result.checksFailed[0].reason == "Customer is not active");
    CHECK(collectcall::enum_name(result.checksFailed[1].id) == "cease-and-desist-exclusion");
    CHECK(result.checksFailed[1].reason == "Customer has requested cease and desist");
    CHECK(collectcall::enum_name(result.checksFailed[2].id) == "four-voice-call-per-day");
    CHECK(collectcall::enum_name(result.checksFailed[3].id) == "respectful-hours");

    CHECK(failure_message(result) ==
          "Customer not eligible for call. Failed rules: Is Active (Customer is not active), "
          "Cease and Desist Exclusion (Customer has requested cease and desist), Four Voice "
          "Call Per Day (Customer has had 4 voice calls today within respectful hours window "
          "(America/New_York), exceeding the limit of 4), Respectful Hours Check (Customer local "
          "time is "
          "07:00 (outside respectful hours 8am-8:50pm))");
}

TEST_CASE("engine: an eligible customer passes every check, in order") {
    const auto result =
        evaluate(customer("NY", "10001", local("America/New_York", 2026, 1, 15, 10, 0)));
    CHECK(result.passed);
    CHECK(result.checksFailed.empty());
    REQUIRE(result.checksPassed.size() == 4);
    CHECK(collectcall::enum_name(result.checksPassed[0].id) == "is-active");
    CHECK(result.checksPassed[0].reason == "Customer is active");
    CHECK(collectcall::enum_name(result.checksPassed[1].id) == "cease-and-desist-exclusion");
    CHECK(result.checksPassed[1].reason == "Customer has not requested cease and desist");
    CHECK(collectcall::enum_name(result.checksPassed[2].id) == "four-voice-call-per-day");
    CHECK(collectcall::enum_name(result.checksPassed[3].id) == "respectful-hours");
    CHECK(result.checksPassed[3].description ==
          "Check if the customer's local time is within respectful hours");
    CHECK(failure_message(result).empty());
}

TEST_CASE("engine: a cease-and-desist customer inside the window fails that check alone") {
    auto in = customer("CA", "94105", local("America/Los_Angeles", 2026, 1, 15, 10, 0));
    in.cease_and_desist = true;
    const auto result = evaluate(in);
    CHECK_FALSE(result.passed);
    REQUIRE(result.checksFailed.size() == 1);
    REQUIRE(result.checksPassed.size() == 3);
    CHECK(collectcall::enum_name(result.checksPassed[0].id) == "is-active");
    CHECK(collectcall::enum_name(result.checksPassed[1].id) == "four-voice-call-per-day");
    CHECK(collectcall::enum_name(result.checksPassed[2].id) == "respectful-hours");
    CHECK(failure_message(result) ==
          "Customer not eligible for call. Failed rules: Cease and Desist Exclusion (Customer "
          "has requested cease and desist)");
}

TEST_CASE("engine: an address with no time zone fails the time checks safely") {
    const auto result = evaluate(customer("ZZ", "00000", utc(2026, 1, 15, 17, 0)));
    CHECK_FALSE(result.passed);
    CHECK(result.checksPassed.size() == 2);
    CHECK(count(result).reason ==
          "Customer local day is unknown (no time zone for the customer's address)");
    CHECK(hours(result).reason ==
          "Customer local time is unknown (no time zone for the customer's address)");
}

TEST_CASE("a calling window is written as init --respectful-hours takes it", "[compliance]") {
    using collectcall::compliance::parse_respectful_hours;
    CHECK(to_string(RespectfulHours{}) == "08:00-20:50");
    for (const char* text : {"00:00-24:00", "09:05-17:59", "23:59-24:00", "08:00-20:50"}) {
        INFO(text);
        const auto window = parse_respectful_hours(text);
        REQUIRE(window);
        CHECK(to_string(*window) == text);
    }
}

TEST_CASE("engine: a Navajo Nation ZIP Code is held to Mountain daylight time too") {
    // 20:40 MST in Phoenix is 21:40 MDT on the Navajo Nation on a July evening: inside the
    // window in one candidate zone, outside it in the other, so the call is refused.
    const CallTime evening = local("America/Phoenix", 2026, 7, 15, 20, 40);
    CHECK(evening == local("America/Denver", 2026, 7, 15, 21, 40));
    for (std::string_view zip : {"86016", "86020", "86033", "86044", "86045", "86053", "86510"}) {
        INFO(zip);
        CHECK_FALSE(hours(evaluate(customer("AZ", zip, evening))).passed);
    }
    // Gray Mountain (86016) at 21:40 MDT; Flagstaff (86001), off the reservation, at the same
    // instant is inside the window.
    CHECK(hours(evaluate(customer("AZ", "86016", evening))).reason ==
          "Customer local time is 21:40 (America/Denver, outside respectful hours 8am-8:50pm)");
    CHECK(hours(evaluate(customer("AZ", "86001", evening))).passed);
}
