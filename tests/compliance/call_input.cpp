// compliance::call_input: the question asked of the engine for a call to a stored customer.
#include "collectcall/compliance/call_input.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <utility>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/model/openapi.hpp"
#include "support.hpp"

namespace compliance = collectcall::compliance;
using collectcall::CheckId;
using collectcall::Customer;
using compliance::CallTime;
using compliance_test::utc;

namespace {

Customer austin_customer() {
    auto customer = collectcall::read<Customer>(collectcall::openapi_examples::customer);
    REQUIRE(customer);
    return std::move(customer).value();
}

bool failed(const collectcall::ComplianceResult& result, CheckId id) {
    for (const auto& check : result.checksFailed) {
        if (check.id == id) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("call_input: the customer's address, standing, calls, time and the account's rules") {
    const Customer customer = austin_customer();
    const std::vector<CallTime> placed{utc(2026, 11, 20, 14, 0), utc(2026, 11, 19, 16, 0)};
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const compliance::RespectfulHours window{std::chrono::minutes{9 * 60},
                                             std::chrono::minutes{17 * 60}};
    const compliance::ComplianceInput in = compliance::call_input(
        customer, {true, false}, placed, now, {window, 2, collectcall::CompliancePolicy::hosted});
    CHECK(in.active);
    CHECK_FALSE(in.cease_and_desist);
    CHECK(in.state == "TX");
    CHECK(in.zip5 == "78701");
    CHECK(in.placed_calls.data() == placed.data());
    CHECK(in.placed_calls.size() == 2);
    CHECK(in.now == now);
    CHECK(in.window.start == window.start);
    CHECK(in.window.end == window.end);
    CHECK(in.max_calls_per_day == 2);
    // What the engine decides from it: 09:00 in Austin, one call today of two allowed.
    CHECK(compliance::evaluate(in).passed);
}

TEST_CASE("call_input: a deactivated customer, a cease-and-desist, a day's limit reached") {
    const Customer customer = austin_customer();
    const std::vector<CallTime> placed{utc(2026, 11, 20, 14, 0)};
    const CallTime now = utc(2026, 11, 20, 15, 0);

    const auto inactive =
        compliance::evaluate(compliance::call_input(customer, {false, false}, placed, now, {}));
    CHECK(failed(inactive, CheckId::is_active));
    CHECK_FALSE(failed(inactive, CheckId::cease_and_desist_exclusion));

    const auto ceased =
        compliance::evaluate(compliance::call_input(customer, {true, true}, placed, now, {}));
    CHECK(failed(ceased, CheckId::cease_and_desist_exclusion));
    CHECK_FALSE(failed(ceased, CheckId::is_active));

    const auto limited = compliance::evaluate(
        compliance::call_input(customer, {true, false}, placed, now, {.max_calls_per_day = 1}));
    CHECK(failed(limited, CheckId::four_voice_call_per_day));
    // The account's default allows it.
    CHECK(compliance::evaluate(compliance::call_input(customer, {}, placed, now, {})).passed);
}

TEST_CASE("call_input: a request not to be called and an attorney reach the engine") {
    const Customer customer = austin_customer();
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const compliance::ComplianceInput asked =
        compliance::call_input(customer, {.asked_not_to_call = true}, {}, now, {});
    CHECK(asked.asked_not_to_call);
    CHECK_FALSE(asked.attorney_represented);
    const compliance::ComplianceInput represented =
        compliance::call_input(customer, {.attorney_represented = true}, {}, now, {});
    CHECK(represented.attorney_represented);
    CHECK_FALSE(represented.asked_not_to_call);
}

TEST_CASE("call_input: a customer without a state is placed by the ZIP Code alone") {
    Customer customer = austin_customer();
    customer.address.state.reset();
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const compliance::ComplianceInput in = compliance::call_input(customer, {}, {}, now, {});
    CHECK(in.state.empty());
    CHECK(in.zip5 == "78701");
    CHECK(in.placed_calls.empty());
}

TEST_CASE("call_input: the policy, and under regulation-f the phones and designated times") {
    Customer customer = austin_customer();
    customer.secondaryPhone = collectcall::E164::parse("+12135550123").value();
    customer.inconvenientTimes =
        collectcall::InconvenientTimes{{{collectcall::Weekday::fri},
                                        collectcall::ClockTime::parse("08:00").value(),
                                        collectcall::ClockTime::parse("12:00").value()}};
    const CallTime now = utc(2026, 11, 20, 15, 0);  // Friday 09:00 in Austin, 07:00 in LA
    const compliance::ComplianceInput hosted = compliance::call_input(customer, {}, {}, now, {});
    CHECK(hosted.policy == collectcall::CompliancePolicy::hosted);
    CHECK(compliance::evaluate(hosted).passed);  // the hosted checks read neither
    const compliance::ComplianceInput in = compliance::call_input(
        customer, {}, {}, now, {.policy = collectcall::CompliancePolicy::regulation_f});
    CHECK(in.policy == collectcall::CompliancePolicy::regulation_f);
    CHECK(in.phone_numbers[0] == customer.primaryPhone.view());
    CHECK(in.phone_numbers[1] == "+12135550123");
    REQUIRE(in.inconvenient_times.size() == 1);
    CHECK(in.inconvenient_times.data() == customer.inconvenientTimes->data());
    CHECK(failed(compliance::evaluate(in), CheckId::inconvenient_time));
}
