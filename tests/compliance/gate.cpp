// compliance::gate and contact_input: the question asked of the engine for a contact with a
// stored customer, and the decision it answers.
#include "collectcall/compliance/gate.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <utility>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/model/openapi.hpp"
#include "support.hpp"

namespace compliance = collectcall::compliance;
using collectcall::CheckId;
using collectcall::ComplianceOperation;
using collectcall::CompliancePolicy;
using collectcall::ContactChannel;
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

TEST_CASE("contact_input: the customer's address, standing, history, time and the rules") {
    const Customer customer = austin_customer();
    const std::vector<CallTime> placed{utc(2026, 11, 20, 14, 0), utc(2026, 11, 19, 16, 0)};
    const std::vector<CallTime> texts{utc(2026, 11, 18, 16, 0)};
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const compliance::RespectfulHours window{std::chrono::minutes{9 * 60},
                                             std::chrono::minutes{17 * 60}};
    const compliance::ComplianceInput in =
        compliance::contact_input(customer, {true, false}, {.placed_calls = placed, .texts = texts},
                                  {window, 2, collectcall::CompliancePolicy::hosted}, {}, now);
    CHECK(in.active);
    CHECK_FALSE(in.cease_and_desist);
    CHECK(in.state == "TX");
    CHECK(in.zip5 == "78701");
    CHECK(in.placed_calls.data() == placed.data());
    CHECK(in.placed_calls.size() == 2);
    CHECK(in.sent_texts.data() == texts.data());
    CHECK(in.now == now);
    CHECK(in.window.start == window.start);
    CHECK(in.window.end == window.end);
    CHECK(in.max_calls_per_day == 2);
    CHECK(in.channel == ContactChannel::call);
    CHECK(in.operation == collectcall::ComplianceOperation::call);
    // What the engine decides from it: 09:00 in Austin, one call today of two allowed.
    CHECK(compliance::evaluate(in).passed);
}

TEST_CASE("gate: a deactivated customer, a cease-and-desist, a day's limit reached") {
    const Customer customer = austin_customer();
    const std::vector<CallTime> placed{utc(2026, 11, 20, 14, 0)};
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const compliance::ContactHistory history{.placed_calls = placed};

    const auto inactive = compliance::gate(customer, {false, false}, history, {}, {}, now);
    CHECK(failed(inactive.compliance, CheckId::is_active));
    CHECK_FALSE(failed(inactive.compliance, CheckId::cease_and_desist_exclusion));
    CHECK_FALSE(inactive.nextEligibleAt.has_value());

    const auto ceased = compliance::gate(customer, {true, true}, history, {}, {}, now);
    CHECK(failed(ceased.compliance, CheckId::cease_and_desist_exclusion));
    CHECK_FALSE(failed(ceased.compliance, CheckId::is_active));

    const auto limited = compliance::gate(customer, {}, history, {.max_calls_per_day = 1}, {}, now);
    CHECK(failed(limited.compliance, CheckId::four_voice_call_per_day));
    // Tomorrow at 08:00 in Austin (CST, UTC-6).
    REQUIRE(limited.nextEligibleAt.has_value());
    CHECK(limited.nextEligibleAt->time() == utc(2026, 11, 21, 14, 0));
    // The account's default allows it, and the decision says so.
    const auto allowed = compliance::gate(customer, {}, history, {}, {}, now);
    CHECK(allowed.compliance.passed);
    CHECK(allowed.nextEligibleAt->time() == now);
    CHECK(allowed.operation == collectcall::ComplianceOperation::call);
    CHECK(allowed.channel == ContactChannel::call);
    CHECK(allowed.counts.callsToday == 1);
    CHECK(allowed.blockedByCallId.absent());
}

TEST_CASE("gate: restricted media and an attorney reach the engine, by medium") {
    const Customer customer = austin_customer();
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const compliance::CustomerStanding no_calls{.restricted_media = {ContactChannel::call}};
    const compliance::ContactRules regulation_f{.policy = CompliancePolicy::regulation_f};
    const auto call = compliance::gate(customer, no_calls, {}, regulation_f, {}, now);
    CHECK(failed(call.compliance, CheckId::medium_restriction));
    CHECK_FALSE(call.nextEligibleAt.has_value());
    const auto text = compliance::gate(customer, no_calls, {}, regulation_f,
                                       {ContactChannel::sms, ComplianceOperation::sms}, now);
    CHECK(text.compliance.passed);
    CHECK(text.channel == ContactChannel::sms);
    const auto email =
        compliance::gate(customer, {.restricted_media = {ContactChannel::email}}, {}, {},
                         {ContactChannel::email, ComplianceOperation::email}, now);
    CHECK(failed(email.compliance, CheckId::cease_and_desist_exclusion));
    CHECK(email.operation == ComplianceOperation::email);
    const compliance::ComplianceInput represented =
        compliance::contact_input(customer, {.attorney_represented = true}, {}, {}, {}, now);
    CHECK(represented.attorney_represented);
    CHECK(represented.restricted_media.empty());
}

TEST_CASE("gate: a call in progress blocks a call under regulation-f, and a drip call step") {
    const Customer customer = austin_customer();
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const std::vector<CallTime> placed{now - std::chrono::seconds{1}};
    const collectcall::Uuid first =
        collectcall::Uuid::parse("0b7e6a52-3c1d-4f2e-9a8b-7c6d5e4f3a21").value();
    const std::vector<compliance::OngoingCall> ongoing{{first, placed.front()}};
    const compliance::ContactHistory history{.placed_calls = placed, .calls_in_progress = ongoing};
    const compliance::ContactRules regulation_f{.policy = CompliancePolicy::regulation_f};

    const auto second = compliance::gate(customer, {}, history, regulation_f, {}, now);
    CHECK_FALSE(second.compliance.passed);
    REQUIRE(second.compliance.checksFailed.size() == 1);
    CHECK(second.compliance.checksFailed[0].id == CheckId::call_frequency);
    CHECK(second.compliance.checksFailed[0].reason ==
          "A call to this customer is in progress (0b7e6a52-3c1d-4f2e-9a8b-7c6d5e4f3a21)");
    CHECK_FALSE(second.nextEligibleAt.has_value());
    REQUIRE(second.blockedByCallId.has_value());
    CHECK(*second.blockedByCallId == first);
    CHECK(compliance::waits_for_call(second));
    CHECK(collectcall::compliance::failure_message(second.compliance) ==
          "Customer not eligible for call. Failed rules: Call Frequency (A call to this customer "
          "is in progress (0b7e6a52-3c1d-4f2e-9a8b-7c6d5e4f3a21))");

    // A text is another medium; once the call has ended the next call passes.
    CHECK(compliance::gate(customer, {}, history, regulation_f,
                           {ContactChannel::sms, ComplianceOperation::sms}, now)
              .compliance.passed);
    const compliance::ContactHistory ended{.placed_calls = placed};
    CHECK(compliance::gate(customer, {}, ended, regulation_f, {}, now).compliance.passed);

    // Under hosted a single call does not wait (the hosted service's checks), a drip call step
    // does (every policy), with the same answer.
    const auto hosted = compliance::gate(customer, {}, history, {}, {}, now);
    CHECK(hosted.compliance.passed);
    CHECK_FALSE(compliance::waits_for_call(hosted));
    const auto step = compliance::gate(customer, {}, history, {},
                                       {ContactChannel::call, ComplianceOperation::drip_step}, now);
    CHECK_FALSE(step.compliance.passed);
    CHECK(step.compliance.checksFailed.size() == 1);
    CHECK(step.compliance.checksFailed[0].id == CheckId::call_frequency);
    CHECK(compliance::waits_for_call(step));
    CHECK_FALSE(step.nextEligibleAt.has_value());
}

TEST_CASE("gate: a customer without a state is placed by the ZIP Code alone") {
    Customer customer = austin_customer();
    customer.address.state.reset();
    const CallTime now = utc(2026, 11, 20, 15, 0);
    const compliance::ComplianceInput in = compliance::contact_input(customer, {}, {}, {}, {}, now);
    CHECK(in.state.empty());
    CHECK(in.zip5 == "78701");
    CHECK(in.placed_calls.empty());
}

TEST_CASE("gate: the policy, and under regulation-f the phones and designated times") {
    Customer customer = austin_customer();
    customer.secondaryPhone = collectcall::E164::parse("+12135550123").value();
    customer.inconvenientTimes =
        collectcall::InconvenientTimes{{{collectcall::Weekday::fri},
                                        collectcall::ClockTime::parse("08:00").value(),
                                        collectcall::ClockTime::parse("12:00").value()}};
    const CallTime now = utc(2026, 11, 20, 15, 0);  // Friday 09:00 in Austin, 07:00 in LA
    const compliance::ComplianceInput hosted =
        compliance::contact_input(customer, {}, {}, {}, {}, now);
    CHECK(hosted.policy == collectcall::CompliancePolicy::hosted);
    CHECK(compliance::evaluate(hosted).passed);  // the hosted checks read neither
    const compliance::ComplianceInput in = compliance::contact_input(
        customer, {}, {}, {.policy = collectcall::CompliancePolicy::regulation_f}, {}, now);
    CHECK(in.policy == collectcall::CompliancePolicy::regulation_f);
    CHECK(in.phone_numbers[0] == customer.primaryPhone.view());
    CHECK(in.phone_numbers[1] == "+12135550123");
    REQUIRE(in.inconvenient_times.size() == 1);
    CHECK(in.inconvenient_times.data() == customer.inconvenientTimes->data());
    CHECK(failed(compliance::evaluate(in), CheckId::inconvenient_time));
}

TEST_CASE("gate: an SMS to another number adds that number's zone under regulation-f") {
    // 12:30 in Austin is 08:30 in Honolulu; at 11:30 in Austin it is 07:30 there.
    const Customer customer = austin_customer();
    const compliance::ContactRules regulation_f{.policy = CompliancePolicy::regulation_f};
    const compliance::ContactRequest to_hawaii{ContactChannel::sms, ComplianceOperation::sms,
                                               "+18085550100"};
    const CallTime early = utc(2026, 11, 20, 17, 30);
    const auto blocked = compliance::gate(customer, {}, {}, regulation_f, to_hawaii, early);
    CHECK_FALSE(blocked.compliance.passed);
    REQUIRE(blocked.compliance.checksFailed.size() == 1);
    CHECK(blocked.compliance.checksFailed[0].id == CheckId::inconvenient_time);
    CHECK(blocked.compliance.checksFailed[0].reason ==
          "Customer local time is 07:30 (Pacific/Honolulu, outside 8am-9pm)");
    CHECK(blocked.candidateZones ==
          std::vector<std::string>{"America/Chicago", "Pacific/Honolulu"});
    REQUIRE(blocked.nextEligibleAt.has_value());
    CHECK(blocked.nextEligibleAt->time() == utc(2026, 11, 20, 18, 0));  // 08:00 in Honolulu
    // To the customer's own number, or under hosted (section 16's rule is not "every policy"),
    // the address's zone alone decides.
    CHECK(compliance::gate(
              customer, {}, {}, regulation_f,
              {ContactChannel::sms, ComplianceOperation::sms, customer.primaryPhone.view()}, early)
              .compliance.passed);
    const auto hosted = compliance::gate(customer, {}, {}, {}, to_hawaii, early);
    CHECK(hosted.compliance.passed);
    CHECK(hosted.candidateZones == std::vector<std::string>{"America/Chicago"});
    // A call has no `to` of its own: the number is not read.
    CHECK(compliance::gate(customer, {}, {}, regulation_f,
                           {ContactChannel::call, ComplianceOperation::call, "+18085550100"}, early)
              .compliance.passed);
}
