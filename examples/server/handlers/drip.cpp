// Drip campaigns (API.md section 15): enrolment, its state, its cancellation, and the run of each
// due step (a call placed as POST .../calls places one, or a generated SMS sent), each decided on
// the customer's row inside the store's transaction that records what it made.
#include "handlers/drip.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <collectcall/compliance/decision.hpp>
#include <collectcall/compliance/drip_schedule.hpp>
#include <collectcall/compliance/gate.hpp>
#include <collectcall/core/read.hpp>

#include "crypto.hpp"
#include "handlers/calls.hpp"
#include "handlers/interactions.hpp"

namespace collectcall::server::handlers {

namespace {

constexpr std::string_view not_a_campaign = "is not a drip campaign of this account";

// The contacts compliance counts, with one more made at `now` on `channel`.
ContactHistory history_after(const ContactHistory& history, ContactChannel channel, Time now) {
    ContactHistory after = history;
    if (channel == ContactChannel::call) after.placed.push_back(now);
    if (channel == ContactChannel::sms) after.texts.push_back(now);
    return after;
}

// Runs the due step of `e` at `now`: its decision recorded; when it passes, the call or SMS made
// and the step completed; either way the steps left scheduled again as a sequence from what is
// now known, or the enrolment canceled when its next step can never run.
DripStepPlan run_step(DripEnrolment& e, const StoredCustomer& stored, const ContactHistory& history,
                      const std::optional<Webhook>& webhook, const AccountSettings& settings,
                      const std::optional<std::string>& sms_text, Time now) {
    DripStepPlan plan;
    DripStep* step = next_pending_step(e);
    if (step == nullptr) {
        e.status = DripCampaignStatus::completed;
        e.nextStepAt.reset();
        return plan;
    }
    const ContactChannel channel = step->channel;
    // An SMS step whose text was not written (the step that was due when the text would have
    // been was run meanwhile, by another process): left as it is, for the next round.
    if (channel == ContactChannel::sms && !sms_text) return plan;
    std::optional<CallPlan> call;
    if (channel == ContactChannel::call) {
        call =
            plan_call(stored, history, settings, now, ComplianceOperation::drip_step, "", webhook);
        plan.decision = call->decision;
    } else {
        plan.decision = ask_gate(
            stored, history, settings,
            {channel, ComplianceOperation::drip_step, stored.customer.primaryPhone.view()}, now);
    }
    const ComplianceDecision& decision = *plan.decision;
    if (!decision.compliance.passed) {
        // Not run now: the step, and the steps after it, from when it can run (the sequence of
        // compliance/drip_schedule.hpp). A call in progress blocks a call step until it ends,
        // which no clock tells: the step is tried again a short while later, and the enrolment
        // goes on (API.md section 16).
        compliance::ComplianceInput input =
            gate_input(stored, history, settings, {channel, ComplianceOperation::drip_step}, now);
        if (compliance::waits_for_call(decision))
            input.now = now + compliance::call_in_progress_retry;
        if (!compliance::schedule_steps(e, input)) cancel(e, DripEndReason::customer_uncontactable);
        return plan;
    }

    const Timestamp ran = Timestamp::from_time(now);
    step->status = DripStepStatus::completed;
    step->ranAt = ran;
    step->nextEligibleAt.reset();
    std::optional<DripSmsDetails> sms;
    if (call) {
        call->drip_id = e.id;
        step->interactionId = call->call.id;
        plan.call = std::move(call);
    } else {
        const E164 from = caller_number_for(stored, settings);
        SmsGenerateRequest request;
        request.from = from;
        request.to = stored.customer.primaryPhone;
        request.threadId = stored.thread_id;
        const SmsInteractionData record = generated_sms_interaction(
            request, *sms_text, new_uuid(), stored.customer.id, stored.thread_id, ran);
        step->interactionId = record.id;
        sms = DripSmsDetails{record.id, stored.customer.primaryPhone, from, *sms_text, ran};
        plan.sms = record;
    }

    // The later steps, as compliance sees them with this contact made.
    const ContactHistory after = history_after(history, channel, now);
    const compliance::ComplianceInput input =
        gate_input(stored, after, settings, {channel, ComplianceOperation::drip_step}, now);
    if (!compliance::schedule_steps(e, input)) cancel(e, DripEndReason::customer_uncontactable);
    if (sms && webhook) plan.event = write(drip_sms_event(e, stored.thread_id, std::move(*sms)));
    return plan;
}

}  // namespace

void handle(endpoint<Operation::enrol_drip_campaign>, Exchange& x, Services& s) {
    // As a call: the customer (404), the body (400), then compliance.
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    if (!s.store.find_customer(x.account, *id)) return x.not_found(api::customer_not_found_message);
    auto body = read<DripEnrolRequest>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    const DripEnrolRequest& request = body.value();
    const Account account = s.store.account(x.account);
    const auto campaign = std::find_if(
        account.dripCampaigns.begin(), account.dripCampaigns.end(),
        [&](const DripCampaignDefinition& c) { return c.name == request.campaignName.view(); });
    if (campaign == account.dripCampaigns.end()) {
        return x.fail_validation(
            {Error{"/campaignName", std::string(codes::not_found), std::string(not_a_campaign)}});
    }
    if (request.webhook && !check_webhook(*request.webhook, x, s)) return;

    const AccountSettings settings = s.store.account_settings(x.account);
    const Time now = s.clock.now();
    ContactChannel first = ContactChannel::call;
    const auto result = s.store.enrol_drip(
        x.account, *id, campaign->name, now - s.config.call_history,
        [&](const StoredCustomer& stored, const ContactHistory& history) {
            DripEnrolPlan plan;
            plan.enrolment = enrol(*campaign, new_uuid(), *id, Timestamp::from_time(now));
            plan.webhook = request.webhook;
            compliance::ComplianceInput input =
                gate_input(stored, history, settings,
                           {ContactChannel::call, ComplianceOperation::drip_step}, now);
            plan.store = compliance::schedule_steps(plan.enrolment, input);
            if (!plan.store) {
                // Why the first step can never run, as the gate sees it now: recorded, and
                // answered (API.md section 16).
                first = plan.enrolment.steps.front().channel;
                plan.decision = ask_gate(
                    stored, history, settings,
                    {first, ComplianceOperation::enrolment, stored.customer.primaryPhone.view()},
                    now);
            }
            return plan;
        });
    if (!result) return x.not_found(api::customer_not_found_message);
    if (result->already_enrolled) return x.fail(api::errors::already_enrolled);
    if (!result->plan.store) {
        const ComplianceDecision& refused = result->plan.decision.value();
        return x.fail(api::errors::compliance_failed,
                      compliance::failure_message(refused.compliance, first), {},
                      enrol_refused(refused.compliance, refused.nextEligibleAt));
    }
    x.reply(200, result->plan.enrolment);
}

void handle(endpoint<Operation::list_drip_campaigns>, Exchange& x, Services& s) {
    reply_customer_page<DripEnrolmentList>(x, s.store, api::PagedList::drip_enrolments,
                                           [&](const Uuid& customer, const api::PageRequest& page) {
                                               return s.store.list_drip_enrolments(x.account,
                                                                                   customer, page);
                                           });
}

void handle(endpoint<Operation::cancel_drip_campaign>, Exchange& x, Services& s) {
    const auto customer = x.path_id(0);
    if (!customer || !s.store.find_customer(x.account, *customer))
        return x.not_found(api::customer_not_found_message);
    DripCancelRequest request;
    if (!x.body.empty()) {
        auto body = read<DripCancelRequest>(x.body, s.read_options());
        if (!body) return x.fail_read(std::move(body).errors());
        request = body.value();
    }
    const auto id = x.path_id(1);
    if (!id) return x.not_found(api::drip_campaign_not_found_message);

    bool finished = false;
    const auto enrolment =
        s.store.update_drip_enrolment(x.account, *customer, *id, [&](DripEnrolment& e) {
            if (e.status != DripCampaignStatus::in_progress) {
                finished = true;
                return false;
            }
            cancel(e, end_reason(request.reason.value_or(DripCancelReason::customer_converted)));
            if (!request.reason) e.canceledReason.set_null();
            return true;
        });
    if (!enrolment) return x.not_found(api::drip_campaign_not_found_message);
    if (finished) {
        return x.fail(
            api::errors::drip_campaign_finished,
            "The drip campaign has already " +
                std::string(enrolment->status == DripCampaignStatus::completed ? "completed."
                                                                               : "been canceled."));
    }
    x.reply(200, *enrolment);
}

std::size_t run_due_drip_steps(Services& s, std::size_t limit) {
    const Time now = s.clock.now();
    const std::vector<DueEnrolment> due = s.store.due_drip_enrolments(now, limit);
    for (const DueEnrolment& enrolment : due) {
        const auto customer = s.store.find_customer(enrolment.account, enrolment.customer);
        if (!customer) continue;
        const AccountSettings settings = s.store.account_settings(enrolment.account);
        // An SMS step's text, written before the transaction from the thread as it is (a bounded
        // prefix of its last inbound message); a call step reads no message.
        std::optional<std::string> text;
        if (enrolment.channel == ContactChannel::sms) {
            text =
                next_sms_text(s.store, enrolment.account, customer->customer, customer->thread_id);
        }
        const auto plan = s.store.run_drip_step(
            enrolment.account, enrolment.id, now, now - s.config.call_history,
            [&](DripEnrolment& e, const StoredCustomer& stored, const ContactHistory& history,
                const std::optional<Webhook>& webhook) {
                return run_step(e, stored, history, webhook, settings, text, now);
            });
        if (plan && plan->call) {
            s.dialer.placed(PlacedCall{enrolment.account, enrolment.customer, *plan->call});
        }
    }
    return due.size();
}

void DripCampaigns::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
