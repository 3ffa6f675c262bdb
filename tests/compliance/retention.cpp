// How long a customer's records are kept (compliance/retention.hpp): three years after its last
// collection activity (12 CFR 1006.100(a)).
#include "collectcall/compliance/retention.hpp"

#include <catch2/catch.hpp>
#include <chrono>

#include <date/date.h>

#include "collectcall/model/interaction.hpp"

using namespace collectcall;
using namespace collectcall::compliance;
using std::chrono::days;
using std::chrono::hours;
using std::chrono::milliseconds;

TEST_CASE("retention: no three calendar years are longer than the retention") {
    // Every start day of a 400-year Gregorian cycle: the same day three years on is at most the
    // retention later, and some are exactly that (a February 29 between).
    bool some_reach_it = false;
    for (date::sys_days day = date::sys_days{date::year{2000} / 1 / 1};
         day < date::sys_days{date::year{2400} / 1 / 1}; day += date::days{1}) {
        const date::year_month_day ymd{day};
        const date::year_month_day later = ymd + date::years{3};
        // February 29 three years on is March 1.
        const date::sys_days end =
            later.ok() ? date::sys_days{later}
                       : date::sys_days{later.year() / later.month() / date::last} + date::days{1};
        const days length = end - day;
        REQUIRE(length <= record_retention);
        some_reach_it = some_reach_it || length == record_retention;
    }
    CHECK(some_reach_it);
}

TEST_CASE("retention: a customer's records are kept until the retention after its last activity") {
    const Timestamp::Time last = Timestamp::parse("2026-11-20T15:00:00Z").value().time();
    CHECK(records_kept(last, last));
    CHECK(records_kept(last, last + record_retention));
    CHECK_FALSE(records_kept(last, last + record_retention + milliseconds{1}));
    CHECK(records_expire_before(last + record_retention) == last);
    // A later activity starts the period again.
    const Timestamp::Time later = last + days{400};
    CHECK(records_kept(later, last + record_retention + hours{1}));
}

TEST_CASE("retention: an interaction's activity is the later of when it happened and was stored") {
    SmsInteractionData sms;
    sms.timestamp = Timestamp::parse("2022-01-05T10:00:00Z").value();
    sms.createdAt = Timestamp::parse("2026-11-20T15:00:00Z").value();
    CHECK(activity_at(sms) == sms.createdAt.time());
    // Imported with a timestamp a little ahead of the server's clock.
    sms.timestamp = Timestamp::parse("2026-11-20T15:04:00Z").value();
    CHECK(activity_at(sms) == sms.timestamp.time());
}
