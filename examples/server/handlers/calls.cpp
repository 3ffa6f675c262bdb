#include "handlers/calls.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <collectcall/compliance/engine.hpp>
#include <collectcall/core/read.hpp>
#include <collectcall/webhook/recording.hpp>
#include <collectcall/webhook/resolver.hpp>

#include "compliance_input.hpp"
#include "crypto.hpp"
#include "output.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::create_call>, Exchange& x, Services& s) {
    // The order of API.md section 8: the customer (404), the body (400), the agent (403), then
    // compliance.
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    if (!s.store.find_customer(x.account, *id)) return x.not_found(api::customer_not_found_message);

    auto body = read<CallRequest>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    CallRequest& request = body.value();

    if (request.webhook) {
        ErrorList errors;
        const Url& url = request.webhook->url;
        const auto resolution =
            s.resolver.resolve(url.host(), url.port(), s.config.allow_private_webhooks);
        switch (resolution.status) {
            case webhook::ResolveStatus::ok:
                break;
            case webhook::ResolveStatus::temporary_failure:
                x.response.set_header("Retry-After", "5");
                return x.fail(api::errors::unavailable,
                              "the webhook host could not be resolved now; retry later");
            case webhook::ResolveStatus::invalid_host:
                errors.push_back(
                    Error{"/webhook/url", std::string(codes::format), resolution.message});
                break;
            case webhook::ResolveStatus::does_not_resolve:
            case webhook::ResolveStatus::timed_out:
                errors.push_back(
                    Error{"/webhook/url", std::string(codes::not_found), resolution.message});
                break;
            case webhook::ResolveStatus::refused:
                errors.push_back(
                    Error{"/webhook/url", std::string(codes::not_allowed), resolution.message});
                break;
        }
        // Without a secretId the deliveries are unsigned (API.md section 9).
        const auto& secret_id = request.webhook->secretId;
        if (secret_id && !s.store.find_webhook_secret(x.account, *secret_id)) {
            errors.push_back(Error{"/webhook/secretId", std::string(codes::not_found),
                                   "is not a webhook secret of this account"});
        }
        if (!errors.empty()) return x.fail_validation(std::move(errors));
    }

    if (!s.store.agent_assigned(x.account, request.agentId.view())) {
        return x.fail(api::errors::agent_not_assigned);
    }

    const AccountSettings settings = s.store.account_settings(x.account);
    const Time now = s.clock.now();
    const auto plan = s.store.place_call(
        x.account, *id, now - s.config.call_history,
        [&](const StoredCustomer& stored, const ContactHistory& history) {
            CallPlan plan;
            plan.decision = compliance::decide(
                compliance_input(stored, settings, history, now, ContactChannel::call),
                ComplianceOperation::call);
            plan.call.id = new_uuid();
            plan.call.threadId = stored.thread_id;
            plan.call.toPhoneNumber = stored.customer.primaryPhone;
            const auto from = caller_number(settings.caller_numbers, stored.customer.primaryPhone);
            // init gives every account a number: an empty pool is a broken store.
            if (!from) throw std::runtime_error("the account has no caller number");
            plan.call.fromPhoneNumber = *from;
            plan.call.compliance = plan.decision.compliance;
            plan.call.createdAt = Timestamp::from_time(now);
            plan.place = plan.call.compliance.passed;
            if (!plan.place) plan.call.nextEligibleAt = plan.decision.nextEligibleAt;
            plan.agent_id = std::string(request.agentId.view());
            plan.webhook = request.webhook;
            return plan;
        });
    if (!plan) return x.not_found(api::customer_not_found_message);
    if (!plan->place) {
        // Blocked: not placed, not counted; the data shows what would have been called, and
        // when it could be (nextEligibleAt).
        return x.fail(api::errors::compliance_failed,
                      compliance::failure_message(plan->call.compliance), {}, plan->call);
    }
    s.dialer.placed(PlacedCall{x.account, *id, *plan});
    x.reply(200, static_cast<const Call&>(plan->call));
}

void handle(endpoint<Operation::list_calls>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    if (!s.store.find_customer(x.account, *id)) return x.not_found(api::customer_not_found_message);
    x.reply(200, CallList{s.store.list_calls(x.account, *id)});
}

void handle(endpoint<Operation::get_call>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::call_not_found_message);
    auto call = s.store.find_call(x.account, *id);
    if (!call) return x.not_found(api::call_not_found_message);
    x.reply(200, std::move(*call));
}

namespace {

class RecordingSource final : public http::BodySource {
  public:
    explicit RecordingSource(std::int64_t duration_ms) : wav_(duration_ms) {}
    [[nodiscard]] std::size_t size() const override { return wav_.size(); }
    [[nodiscard]] std::string_view read(std::size_t offset,
                                        std::span<char> scratch) const override {
        const std::size_t n = std::min(scratch.size(), wav_.size() - offset);
        wav_.copy(offset, scratch.data(), n);
        return {scratch.data(), n};
    }

  private:
    webhook::SilentWav wav_;
};

}  // namespace

void handle(endpoint<Operation::get_call_recording>, Exchange& x, Services& s) {
    // Bare (API.md section 1): the signed link is the credential, the answer is the audio.
    const auto id = x.path_id();
    std::int64_t duration_ms = 0;
    const auto verdict =
        id && s.config.recording
            ? s.config.recording->check(id->view(), x.request.get_param_value("expires"),
                                        x.request.get_param_value("durationMs"),
                                        x.request.get_param_value("signature"), duration_ms)
            : webhook::RecordingLink::invalid;
    switch (verdict) {
        case webhook::RecordingLink::invalid:
            return x.not_found(api::recording_not_found_message);
        case webhook::RecordingLink::expired:
            return x.fail(api::errors::link_expired);
        case webhook::RecordingLink::ok:
            break;
    }
    // Made as it is sent: a connection holds its place in the file, not the file.
    x.context.source = http::send_source(
        x.request, x.response, std::make_shared<const RecordingSource>(duration_ms), "audio/wav");
}

}  // namespace collectcall::server::handlers
