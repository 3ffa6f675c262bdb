// The regulation-f policy: each rule against worked examples written from the regulation's text
// (docs/compliance.md), and the hosted policy beside it unchanged.
#include "collectcall/compliance/regulation_f.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "collectcall/compliance/engine.hpp"
#include "collectcall/compliance/gate.hpp"
#include "collectcall/compliance/next_eligible.hpp"
#include "support.hpp"

using namespace collectcall;
using namespace collectcall::compliance;
using compliance_test::find;
using compliance_test::ids;
using compliance_test::local;
using compliance_test::utc;
using namespace std::chrono_literals;

namespace {

constexpr std::string_view new_york = "America/New_York";

ComplianceInput regulation_f(std::string_view state, std::string_view zip, CallTime now) {
    ComplianceInput in;
    in.active = true;
    in.state = state;
    in.zip5 = zip;
    in.now = now;
    in.policy = CompliancePolicy::regulation_f;
    return in;
}

InconvenientTime period(std::vector<Weekday> days, std::string_view from, std::string_view to) {
    return {
        {days.begin(), days.end()}, ClockTime::parse(from).value(), ClockTime::parse(to).value()};
}

}  // namespace

TEST_CASE("regulation-f: every check is evaluated, in order, after the hosted four") {
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 10, 0));
    auto result = evaluate(in);
    CHECK(result.passed);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion four-voice-call-per-day respectful-hours "
          "call-frequency inconvenient-time medium-restriction attorney-representation "
          "state-call-limit");
    REQUIRE(result.checksPassed.size() == 9);
    CHECK(result.checksPassed[4].name == "Call Frequency");
    CHECK(result.checksPassed[4].reason ==
          "Customer has had 0 calls within 7 consecutive days (America/New_York), within the "
          "limit of 7, and no telephone conversation within the last 7 days");
    CHECK(result.checksPassed[5].reason ==
          "Customer local time is 10:00 (America/New_York, within 8am-9pm)");
    CHECK(result.checksPassed[6].reason == "Customer has not asked not to be called");
    CHECK(result.checksPassed[7].reason ==
          "Customer is not known to be represented by an attorney");
    CHECK(result.checksPassed[8].reason ==
          "No state limit stricter than Regulation F applies (NY)");

    // Every failure at once: the checks are all evaluated.
    in.active = false;
    in.restricted_media = {ContactChannel::call};
    in.attorney_represented = true;
    result = evaluate(in);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion four-voice-call-per-day respectful-hours "
          "call-frequency inconvenient-time medium-restriction attorney-representation "
          "state-call-limit");
    REQUIRE(result.checksFailed.size() == 3);
    CHECK(enum_name(result.checksFailed[1].id) == "medium-restriction");
    CHECK(result.checksFailed[2].reason == "Customer is represented by an attorney about the debt");
    CHECK(failure_message(result) ==
          "Customer not eligible for call. Failed rules: Is Active (Customer is not active), "
          "Medium Restriction (Customer has asked not to be called), Attorney Representation "
          "(Customer is represented by an attorney about the debt)");
}

TEST_CASE("regulation-f: the hosted policy is the four checks alone, whatever else is given") {
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 10, 0));
    in.policy = CompliancePolicy::hosted;
    in.restricted_media = {ContactChannel::sms, ContactChannel::email};  // not the call's medium
    in.attorney_represented = true;
    in.phone_numbers = {"+12135550100", ""};
    const std::vector<CallTime> calls(7, local(new_york, 2026, 1, 2, 10, 0));
    in.placed_calls = calls;
    const std::vector<OngoingCall> in_progress{
        {Uuid::parse("3f2c1d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f").value(), calls.front()}};
    in.calls_in_progress = in_progress;  // a single call does not wait under hosted
    const auto result = evaluate(in);
    CHECK(result.passed);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion four-voice-call-per-day respectful-hours");
}

TEST_CASE("every policy: a restricted medium blocks, under hosted in cease-and-desist-exclusion") {
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 10, 0));
    in.policy = CompliancePolicy::hosted;
    in.restricted_media = {ContactChannel::call};
    auto result = evaluate(in);
    CHECK_FALSE(result.passed);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion four-voice-call-per-day respectful-hours");
    REQUIRE(result.checksFailed.size() == 1);
    CHECK(result.checksFailed[0].reason == "Customer has asked not to be called");
    CHECK(failure_message(result) ==
          "Customer not eligible for call. Failed rules: Cease and Desist Exclusion (Customer "
          "has asked not to be called)");
    CHECK_FALSE(next_eligible(in).has_value());
    // Which medium: a text to a customer who asked not to be texted.
    in.channel = ContactChannel::sms;
    CHECK(evaluate(in).passed);
    in.restricted_media.add(ContactChannel::sms);
    CHECK(find(evaluate(in), "cease-and-desist-exclusion").reason ==
          "Customer has asked not to be texted");
    // A cease-and-desist request says so first.
    in.cease_and_desist = true;
    CHECK(find(evaluate(in), "cease-and-desist-exclusion").reason ==
          "Customer has requested cease and desist");
    // Under regulation-f medium-restriction says it, and cease-and-desist-exclusion passes.
    in.cease_and_desist = false;
    in.policy = CompliancePolicy::regulation_f;
    result = evaluate(in);
    CHECK(find(result, "cease-and-desist-exclusion").passed);
    CHECK(find(result, "medium-restriction").reason == "Customer has asked not to be texted");
    CHECK_FALSE(find(result, "medium-restriction").passed);
    CHECK_FALSE(next_eligible(in).has_value());
}

TEST_CASE("e-mail: is-active, cease-and-desist and its restriction; under regulation-f the time") {
    // 06:30 in New York: no call or text, but an e-mail under hosted reads no clock.
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 6, 30));
    in.channel = ContactChannel::email;
    in.policy = CompliancePolicy::hosted;
    const std::vector<CallTime> calls(9, local(new_york, 2026, 1, 6, 6, 0));
    in.placed_calls = calls;
    in.attorney_represented = true;
    auto result = evaluate(in);
    CHECK(result.passed);
    CHECK(ids(result) == "is-active cease-and-desist-exclusion");
    CHECK(next_eligible(in) == in.now);
    in.restricted_media = {ContactChannel::email};
    result = evaluate(in);
    CHECK(find(result, "cease-and-desist-exclusion").reason ==
          "Customer has asked not to be e-mailed");
    CHECK(failure_message(result, ContactChannel::email) ==
          "Customer not eligible for email. Failed rules: Cease and Desist Exclusion (Customer "
          "has asked not to be e-mailed)");
    CHECK_FALSE(next_eligible(in).has_value());

    // Under regulation-f: inconvenient-time, medium-restriction, attorney-representation; no
    // counts (Regulation F's and the states' count calls and texts).
    in.policy = CompliancePolicy::regulation_f;
    in.restricted_media = {};
    in.attorney_represented = false;
    result = evaluate(in);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion inconvenient-time medium-restriction "
          "attorney-representation");
    CHECK_FALSE(result.passed);
    CHECK(find(result, "inconvenient-time").reason ==
          "Customer local time is 06:30 (America/New_York, outside 8am-9pm)");
    CHECK(next_eligible(in) == local(new_york, 2026, 1, 6, 8, 0));
    in.attorney_represented = true;
    CHECK_FALSE(find(evaluate(in), "attorney-representation").passed);
    CHECK_FALSE(next_eligible(in).has_value());
}

TEST_CASE("call-frequency: more than seven calls within seven consecutive days") {
    // 12 CFR 1006.14(b)(2)(i)(A): seven calls are allowed within seven consecutive days; the
    // eighth is refused. One call a day, Monday 2026-01-05 to Sunday 2026-01-11, at 10:00.
    std::vector<CallTime> calls;
    for (unsigned day = 5; day <= 10; ++day)
        calls.push_back(local(new_york, 2026, 1, day, 10, 0));
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 11, 10, 0));
    in.placed_calls = calls;
    // The seventh call, on Sunday, is allowed: six before it.
    auto seventh = find(evaluate(in), "call-frequency");
    CHECK(seventh.passed);
    CHECK(seventh.reason ==
          "Customer has had 6 calls within 7 consecutive days (America/New_York), within the "
          "limit of 7, and no telephone conversation within the last 7 days");
    calls.push_back(local(new_york, 2026, 1, 11, 10, 0));
    in.placed_calls = calls;
    // The eighth, later on Sunday, is refused.
    in.now = local(new_york, 2026, 1, 11, 15, 0);
    const auto eighth = evaluate(in);
    CHECK_FALSE(eighth.passed);
    CHECK(find(eighth, "call-frequency").reason ==
          "Customer has had 7 calls within 7 consecutive days (America/New_York), reaching the "
          "limit of 7, and no telephone conversation within the last 7 days");
    CHECK(eighth.checksFailed.size() == 1);
    // Monday's seven days (Tuesday to Monday) hold six: allowed from Monday 00:00, so from the
    // window's opening at 08:00.
    in.now = local(new_york, 2026, 1, 11, 23, 59, 59);
    CHECK_FALSE(find(evaluate(in), "call-frequency").passed);
    in.now = local(new_york, 2026, 1, 12, 0, 0);
    CHECK(find(evaluate(in), "call-frequency").passed);
    in.now = local(new_york, 2026, 1, 11, 15, 0);
    CHECK(next_eligible(in) == local(new_york, 2026, 1, 12, 8, 0));

    // Seven calls within seven days but not in any run of seven with today: a call on the
    // first of seven days eight days ago has left.
    calls.front() = local(new_york, 2026, 1, 4, 10, 0);
    in.placed_calls = calls;
    in.now = local(new_york, 2026, 1, 11, 15, 0);
    CHECK(find(evaluate(in), "call-frequency").passed);

    // Any seven consecutive days: a call already placed later today counts in the runs ahead.
    std::vector<CallTime> ahead(7, local(new_york, 2026, 1, 20, 9, 0));
    in.placed_calls = ahead;
    in.max_calls_per_day = 10;
    in.now = local(new_york, 2026, 1, 14, 10, 0);  // 2026-01-14..20 is a run of seven days
    CHECK_FALSE(find(evaluate(in), "call-frequency").passed);
    in.now = local(new_york, 2026, 1, 13, 10, 0);
    CHECK(find(evaluate(in), "call-frequency").passed);
}

TEST_CASE("call-frequency: seven days after a telephone conversation") {
    // 12 CFR 1006.14(b)(2)(i)(B): a conversation on Monday 2026-01-05 at 10:00 (the day of the
    // conversation is the first of the seven): calls are refused until Sunday 2026-01-11, and
    // allowed again on Monday 2026-01-12.
    const std::vector<CallTime> calls{local(new_york, 2026, 1, 5, 10, 0)};
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 5, 14, 0));
    in.placed_calls = calls;
    in.conversations = calls;
    for (unsigned day = 5; day <= 11; ++day) {
        INFO("day " << day);
        in.now = local(new_york, 2026, 1, day, 14, 0);
        const auto found = find(evaluate(in), "call-frequency");
        CHECK_FALSE(found.passed);
        CHECK(found.reason ==
              "Customer has had 1 call within 7 consecutive days (America/New_York), within "
              "the limit of 7, and a telephone conversation on 2026-01-05 (America/New_York): "
              "no call before 2026-01-12");
    }
    in.now = local(new_york, 2026, 1, 12, 14, 0);
    CHECK(evaluate(in).passed);
    // Earlier on the Monday of the conversation, before it, a call was allowed.
    in.now = local(new_york, 2026, 1, 5, 9, 0);
    CHECK(find(evaluate(in), "call-frequency").passed);
    // The next eligible time from Monday afternoon: the next Monday at 08:00.
    in.now = local(new_york, 2026, 1, 5, 14, 0);
    CHECK(next_eligible(in) == local(new_york, 2026, 1, 12, 8, 0));
}

TEST_CASE("call-frequency: the conversation's day is the customer's local day in every zone") {
    // Van Horn, Texas (79855) may be on Central or Mountain time. A conversation at 23:30
    // Mountain on Monday 2026-01-05 is 00:30 on Tuesday in Chicago: the lockout ends with
    // Chicago's Monday 2026-01-12 at the earliest, Mountain's a day sooner; both must be over.
    const std::vector<CallTime> calls{utc(2026, 1, 6, 6, 30)};
    auto in = regulation_f("TX", "79855", utc(2026, 1, 12, 17, 0));  // 11:00 Chicago, Monday
    in.placed_calls = calls;
    in.conversations = calls;
    const auto found = find(evaluate(in), "call-frequency");
    CHECK_FALSE(found.passed);
    CHECK(found.reason ==
          "Customer has had 1 call within 7 consecutive days (America/Chicago), within the limit "
          "of 7, and a telephone conversation on 2026-01-06 (America/Chicago): no call before "
          "2026-01-13");
    // Chicago's midnight, then 08:00 Mountain (the later window opening) on the 13th.
    CHECK(next_eligible(in) == local("America/Denver", 2026, 1, 13, 8, 0));
}

TEST_CASE("inconvenient-time: 8am to 9pm wherever the address and the phone numbers place them") {
    // An address in San Francisco and a New York mobile number: Regulation F's own example of
    // conflicting location evidence (official interpretation 6(b)(1)(i)-2). At 18:30 Pacific it
    // is 21:30 in New York: inconvenient there, though inside the hosted window in California.
    auto in = regulation_f("CA", "94105", local("America/Los_Angeles", 2026, 1, 6, 18, 30));
    in.phone_numbers = {"+12125550100", ""};
    auto result = evaluate(in);
    CHECK_FALSE(result.passed);
    CHECK(find(result, "respectful-hours").passed);
    CHECK(find(result, "inconvenient-time").reason ==
          "Customer local time is 21:30 (America/New_York, outside 8am-9pm)");
    // 17:59 Pacific is 20:59 in New York: convenient in both.
    in.now = local("America/Los_Angeles", 2026, 1, 6, 17, 59);
    result = evaluate(in);
    CHECK(result.passed);
    CHECK(find(result, "inconvenient-time").reason ==
          "Customer local time is 17:59 (America/Los_Angeles, within 8am-9pm in every candidate "
          "zone)");
    // The window narrowed to 08:00-18:00 Pacific: at 07:00 Pacific (10:00 New York) the
    // address's zone decides.
    in.now = local("America/Los_Angeles", 2026, 1, 6, 7, 0);
    CHECK(find(evaluate(in), "inconvenient-time").reason ==
          "Customer local time is 07:00 (America/Los_Angeles, outside 8am-9pm)");
    in.now = local("America/Los_Angeles", 2026, 1, 6, 18, 30);
    CHECK(next_eligible(in) == local("America/Los_Angeles", 2026, 1, 7, 8, 0));

    // The secondary number counts as well; an area code the table lacks (toll free) adds none.
    in.phone_numbers = {"+18005550100", "+12125550100"};
    CHECK_FALSE(find(evaluate(in), "inconvenient-time").passed);
    in.phone_numbers = {"+18005550100", ""};
    CHECK(find(evaluate(in), "inconvenient-time").passed);
}

TEST_CASE("inconvenient-time: the times the customer designated inconvenient") {
    // "Don't call me at work": weekdays 09:00 to 17:00, in the customer's local time.
    const std::vector<InconvenientTime> designated{period(
        {Weekday::mon, Weekday::tue, Weekday::wed, Weekday::thu, Weekday::fri}, "09:00", "17:00")};
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 10, 0));  // Tuesday
    in.inconvenient_times = designated;
    auto found = find(evaluate(in), "inconvenient-time");
    CHECK_FALSE(found.passed);
    CHECK(found.reason ==
          "Customer local time is 10:00 (America/New_York, tue), in a time the customer "
          "designated inconvenient (mon,tue,wed,thu,fri 09:00-17:00)");
    in.now = local(new_york, 2026, 1, 6, 8, 59);
    CHECK(find(evaluate(in), "inconvenient-time").passed);
    in.now = local(new_york, 2026, 1, 6, 17, 0);
    found = find(evaluate(in), "inconvenient-time");
    CHECK(found.passed);
    CHECK(found.reason ==
          "Customer local time is 17:00 (America/New_York, within 8am-9pm), "
          "outside the times the customer designated inconvenient");
    in.now = local(new_york, 2026, 1, 10, 10, 0);  // Saturday
    CHECK(find(evaluate(in), "inconvenient-time").passed);
    in.now = local(new_york, 2026, 1, 6, 10, 0);
    CHECK(next_eligible(in) == local(new_york, 2026, 1, 6, 17, 0));

    // A period past midnight: Friday 20:00 to Saturday 10:00.
    const std::vector<InconvenientTime> weekend{period({Weekday::fri}, "20:00", "10:00")};
    in.inconvenient_times = weekend;
    in.now = local(new_york, 2026, 1, 9, 19, 59);  // Friday
    CHECK(find(evaluate(in), "inconvenient-time").passed);
    in.now = local(new_york, 2026, 1, 9, 20, 0);
    CHECK_FALSE(find(evaluate(in), "inconvenient-time").passed);
    in.now = local(new_york, 2026, 1, 10, 9, 59);  // Saturday
    CHECK_FALSE(find(evaluate(in), "inconvenient-time").passed);
    CHECK(next_eligible(in) == local(new_york, 2026, 1, 10, 10, 0));
    in.now = local(new_york, 2026, 1, 11, 9, 0);  // Sunday: Saturday is not named
    CHECK(find(evaluate(in), "inconvenient-time").passed);
}

TEST_CASE("medium-restriction and attorney-representation: no time will do") {
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 10, 0));
    in.restricted_media = {ContactChannel::call};
    CHECK_FALSE(find(evaluate(in), "medium-restriction").passed);
    CHECK_FALSE(next_eligible(in).has_value());
    // A text message is another medium.
    in.channel = ContactChannel::sms;
    CHECK(evaluate(in).passed);
    CHECK(next_eligible(in) == in.now);
    in.attorney_represented = true;
    CHECK(find(evaluate(in), "attorney-representation").reason ==
          "Customer is represented by an attorney about the debt");
    CHECK_FALSE(next_eligible(in).has_value());

    // The pure functions themselves.
    CHECK(check_medium_restriction({}, ContactChannel::call).passed);
    CHECK_FALSE(check_medium_restriction({ContactChannel::call}, ContactChannel::call).passed);
    CHECK(check_medium_restriction({ContactChannel::call}, ContactChannel::email).passed);
    CHECK(check_medium_restriction({ContactChannel::email}, ContactChannel::email).reason ==
          "Customer has asked not to be e-mailed");
    CHECK(check_attorney_representation(false).passed);
    CHECK_FALSE(check_attorney_representation(true).passed);
}

TEST_CASE("state-call-limit: Massachusetts, two telephone communications in seven days") {
    // 209 CMR 18.16(1)(d) and 940 CMR 7.04(1)(f). Calls on Monday and Wednesday; the third, on
    // Friday, is refused.
    const std::vector<CallTime> calls{local(new_york, 2026, 1, 5, 10, 0),
                                      local(new_york, 2026, 1, 7, 10, 0)};
    auto in = regulation_f("MA", "02108", local(new_york, 2026, 1, 9, 10, 0));
    in.placed_calls = calls;
    auto result = evaluate(in);
    CHECK_FALSE(result.passed);
    REQUIRE(result.checksFailed.size() == 1);
    CHECK(
        result.checksFailed[0].reason ==
        "Customer has had 2 telephone communications within 7 consecutive days "
        "(America/New_York), reaching the Massachusetts limit of 2 in 7 days (209 CMR 18.16(1)(d); "
        "940 CMR 7.04(1)(f))");
    // Regulation F alone would allow it; so does the hosted policy.
    CHECK(find(result, "call-frequency").passed);
    in.policy = CompliancePolicy::hosted;
    CHECK(evaluate(in).passed);
    in.policy = CompliancePolicy::regulation_f;
    // Monday's call leaves the run on the next Monday: allowed from its window's opening.
    CHECK(next_eligible(in) == local(new_york, 2026, 1, 12, 8, 0));

    // Text messages are telephone communications there: a call and a text block a third.
    const std::vector<CallTime> one_call{calls.front()};
    const std::vector<CallTime> one_text{local(new_york, 2026, 1, 7, 10, 0)};
    in.placed_calls = one_call;
    in.sent_texts = one_text;
    CHECK_FALSE(find(evaluate(in), "state-call-limit").passed);
    // And a text message is limited too, where Regulation F's call counts do not apply.
    in.channel = ContactChannel::sms;
    result = evaluate(in);
    CHECK_FALSE(result.passed);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion respectful-hours inconvenient-time "
          "medium-restriction attorney-representation state-call-limit");

    // Outside Massachusetts text messages and two calls are nothing to the state check.
    in.state = "NY";
    in.zip5 = "10001";
    in.channel = ContactChannel::call;
    in.placed_calls = calls;
    in.sent_texts = {};
    CHECK(find(evaluate(in), "state-call-limit").reason ==
          "No state limit stricter than Regulation F applies (NY)");

    // An address whose state and ZIP Code disagree may be in either: the strictest applies.
    in.state = "NH";
    in.zip5 = "02108";
    CHECK(
        find(evaluate(in), "state-call-limit").reason ==
        "Customer has had 2 telephone communications within 7 consecutive days "
        "(America/New_York), reaching the Massachusetts limit of 2 in 7 days (209 CMR 18.16(1)(d); "
        "940 CMR 7.04(1)(f))");
    in.state = "MA";
    in.zip5 = "03301";  // Concord, New Hampshire
    CHECK_FALSE(find(evaluate(in), "state-call-limit").passed);
}

TEST_CASE("state-call-limit: the table and the candidate states") {
    CHECK(candidate_states("ma", "02108").size == 1);
    const auto both = candidate_states("NH", "02108");
    REQUIRE(both.size == 2);
    CHECK(both[0] == "NH");
    CHECK(both[1] == "MA");
    CHECK(candidate_states("ZZ", "").size == 0);
    CHECK(candidate_states("", "02108")[0] == "MA");
    REQUIRE(strictest_state_limit(both) != nullptr);
    CHECK(strictest_state_limit(both)->citation == "209 CMR 18.16(1)(d); 940 CMR 7.04(1)(f)");
    CHECK(strictest_state_limit(candidate_states("NY", "10001")) == nullptr);
    for (const auto& rule : state_call_limits) {
        INFO(rule.state);
        CHECK_FALSE(resolve_time_zones(rule.state, "").empty());  // a state the tables know
        CHECK(rule.max < regulation_f_max_calls);  // stricter than Regulation F, or not listed
        CHECK(rule.days >= 7);
    }
}

TEST_CASE("regulation-f: a text message passes the checks section 14 names, and no call count") {
    // Five calls today and seven this week: a text message is still allowed in New York.
    std::vector<CallTime> calls(3, local(new_york, 2026, 1, 5, 10, 0));
    calls.insert(calls.end(), 5, local(new_york, 2026, 1, 6, 9, 0));
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 10, 0));
    in.placed_calls = calls;
    in.conversations = calls;
    in.channel = ContactChannel::sms;
    auto result = evaluate(in);
    CHECK(result.passed);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion respectful-hours inconvenient-time "
          "medium-restriction attorney-representation state-call-limit");
    // The hosted policy's text message: three checks.
    in.policy = CompliancePolicy::hosted;
    CHECK(ids(evaluate(in)) == "is-active cease-and-desist-exclusion respectful-hours");
    in.channel = ContactChannel::call;
    CHECK_FALSE(evaluate(in).passed);
}

TEST_CASE("regulation-f: an address with no time zone fails the time checks, for good") {
    auto in = regulation_f("ZZ", "00000", utc(2026, 1, 15, 17, 0));
    const auto result = evaluate(in);
    CHECK(find(result, "call-frequency").reason ==
          "Customer local day is unknown (no time zone for the customer's address)");
    CHECK(find(result, "inconvenient-time").reason ==
          "Customer local time is unknown (no time zone for the customer's address)");
    CHECK_FALSE(find(result, "state-call-limit").passed);
    CHECK_FALSE(next_eligible(in).has_value());
}

TEST_CASE("call-frequency: the pure function over a table of histories") {
    // Days of January 2026 in New York (Monday the 5th to Sunday the 18th), calls at 10:00.
    struct Row {
        std::vector<unsigned> call_days;
        std::vector<unsigned> conversation_days;
        unsigned today;
        bool passes;
    };
    const std::vector<Row> rows{
        {{}, {}, 5, true},
        {{5, 6, 7, 8, 9, 10}, {}, 11, true},       // the 7th in 7 days
        {{5, 6, 7, 8, 9, 10, 11}, {}, 11, false},  // the 8th
        {{5, 6, 7, 8, 9, 10, 11}, {}, 12, true},   // the 5th has left the run
        {{5, 5, 5, 5, 6, 6, 6}, {}, 11, false},    // seven in the run, however spread
        {{5, 5, 5, 5, 6, 6, 6}, {}, 12, true},
        {{5}, {5}, 5, false},         // later on the day of the conversation
        {{5}, {5}, 11, false},        // the seventh day of the period
        {{5}, {5}, 12, true},         // the eighth
        {{5, 9}, {5, 9}, 12, false},  // the later conversation decides
        {{5, 9}, {5, 9}, 16, true},
    };
    const Zone zones[] = {Zone::new_york};
    for (const Row& row : rows) {
        std::vector<CallTime> calls, conversations;
        for (unsigned day : row.call_days)
            calls.push_back(local(new_york, 2026, 1, day, 10, 0));
        for (unsigned day : row.conversation_days)
            conversations.push_back(local(new_york, 2026, 1, day, 10, 0));
        const CallTime now = local(new_york, 2026, 1, row.today, 15, 0);
        INFO("today " << row.today << ", " << calls.size() << " calls");
        CHECK(check_call_frequency(zones, calls, conversations, now).passed == row.passes);
    }
}

TEST_CASE("inconvenient-time: the pure function over a table of zones and times") {
    struct Row {
        std::vector<Zone> zones;
        int utc_hour;
        int utc_minute;
        bool passes;
    };
    // Wednesday 2026-07-15 (UTC hours before 06:00 are on the 16th), daylight saving time: New
    // York UTC-4, Denver -6, Phoenix and Los Angeles -7, Honolulu -10.
    const std::vector<Row> rows{
        {{Zone::new_york}, 12, 0, true},                       // 08:00
        {{Zone::new_york}, 11, 59, false},                     // 07:59
        {{Zone::new_york}, 0, 59, true},                       // 20:59
        {{Zone::new_york}, 1, 0, false},                       // 21:00
        {{Zone::new_york, Zone::los_angeles}, 14, 59, false},  // 07:59 in Los Angeles
        {{Zone::new_york, Zone::los_angeles}, 15, 0, true},
        {{Zone::new_york, Zone::honolulu}, 18, 0, true},  // 14:00 and 08:00
        {{Zone::new_york, Zone::honolulu}, 17, 59, false},
        {{Zone::phoenix, Zone::denver}, 14, 0, false},  // 07:00 in Phoenix
        {{Zone::phoenix, Zone::denver}, 15, 0, true},
        {{Zone::phoenix, Zone::denver}, 2, 59, true},  // 20:59 in Denver
        {{Zone::phoenix, Zone::denver}, 3, 0, false},
    };
    for (const Row& row : rows) {
        const CallTime now = utc(2026, 7, row.utc_hour < 6 ? 16 : 15, row.utc_hour, row.utc_minute);
        INFO(row.utc_hour << ':' << row.utc_minute << " UTC, " << row.zones.size() << " zones");
        const bool passed = check_inconvenient_time(row.zones, {}, now).passed;
        CHECK(passed == row.passes);
    }
}

TEST_CASE("rules are data: a 30-day rule reads 30 days back; its next eligible time is exact") {
    // A test table: at most one telephone communication in 30 days in New York.
    const StateCallLimit table[] = {{"NY", "New York (test)", 1, 30, false, "a test rule"}};
    CHECK(longest_rule_period(table) == date::days{30});
    CHECK(history_required(table) == std::chrono::days{31});
    CHECK(search_horizon(table) == std::chrono::days{39});
    // The built-in table's longest period is Regulation F's seven days.
    CHECK(longest_rule_period(state_call_limits) == regulation_f_period);
    CHECK(required_history == std::chrono::days{8});
    CHECK(next_eligible_horizon == std::chrono::days{16});

    // A call 20 days back, on Wednesday 2025-12-17.
    const std::vector<CallTime> calls{local(new_york, 2025, 12, 17, 10, 0)};
    auto in = regulation_f("NY", "10001", local(new_york, 2026, 1, 6, 10, 0));
    in.placed_calls = calls;
    CHECK(evaluate(in).passed);  // no New York rule in the built-in table
    in.state_rules = table;
    const auto result = evaluate(in);
    CHECK_FALSE(result.passed);
    CHECK(ids(result) ==
          "is-active cease-and-desist-exclusion four-voice-call-per-day respectful-hours "
          "call-frequency inconvenient-time medium-restriction attorney-representation "
          "state-call-limit");
    REQUIRE(result.checksFailed.size() == 1);
    CHECK(result.checksFailed[0].reason ==
          "Customer has had 1 telephone communication within 30 consecutive days "
          "(America/New_York), reaching the New York (test) limit of 1 in 30 days (a test rule)");
    // The last run of 30 days holding 2025-12-17 ends on 2026-01-15: free from the 16th, at
    // 08:00 (the window).
    const auto next = next_eligible(in);
    REQUIRE(next);
    CHECK(*next == local(new_york, 2026, 1, 16, 8, 0));
    ComplianceInput at = in;
    at.now = *next;
    CHECK(evaluate(at).passed);
    at.now = *next - 1s;
    CHECK_FALSE(evaluate(at).passed);
    at.now = local(new_york, 2026, 1, 15, 20, 0);  // inside the window, the last day of the run
    CHECK_FALSE(find(evaluate(at), "state-call-limit").passed);

    // Through the gate, with the table in the account's rules: the same decision.
    Customer customer;
    customer.address.state = UsState::parse("NY").value();
    customer.address.zip = Zip::parse("10001").value();
    customer.primaryPhone = E164::parse("+12125550123").value();
    const auto decision = gate(customer, {}, {.placed_calls = calls},
                               {.policy = CompliancePolicy::regulation_f, .state_rules = table}, {},
                               local(new_york, 2026, 1, 6, 10, 0));
    CHECK_FALSE(decision.compliance.passed);
    REQUIRE(decision.nextEligibleAt.has_value());
    CHECK(decision.nextEligibleAt->time() == local(new_york, 2026, 1, 16, 8, 0));
}
