#include "handlers/calls.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <collectcall/api/webhook_target.hpp>
#include <collectcall/compliance/decision.hpp>
#include <collectcall/compliance/gate.hpp>
#include <collectcall/core/read.hpp>
#include <collectcall/webhook/recording.hpp>
#include <collectcall/webhook/resolver.hpp>

#include "crypto.hpp"
#include "output.hpp"

namespace collectcall::server::handlers {

namespace {

// The customer's standing as the store keeps it: the media the customer restricted (12 CFR
// 1006.14(h)) are the customer's restrictedMedia (API.md section 16).
compliance::CustomerStanding standing_of(const StoredCustomer& stored) {
    compliance::CustomerStanding standing;
    standing.active = stored.active;
    standing.cease_and_desist = stored.cease_and_desist;
    standing.restricted_media = stored.customer.restrictedMedia;
    standing.attorney_represented = stored.customer.attorneyRepresented;
    return standing;
}

compliance::ContactHistory history_of(const ContactHistory& history) {
    return {history.placed, history.conversations, history.texts, history.in_progress};
}

compliance::ContactRules rules_of(const AccountSettings& settings) {
    return {settings.window, settings.max_calls_per_day, settings.policy};
}

}  // namespace

compliance::ComplianceInput gate_input(const StoredCustomer& stored, const ContactHistory& history,
                                       const AccountSettings& settings,
                                       const compliance::ContactRequest& request, Time now) {
    return compliance::contact_input(stored.customer, standing_of(stored), history_of(history),
                                     rules_of(settings), request, now);
}

ComplianceDecision ask_gate(const StoredCustomer& stored, const ContactHistory& history,
                            const AccountSettings& settings,
                            const compliance::ContactRequest& request, Time now) {
    return compliance::gate(stored.customer, standing_of(stored), history_of(history),
                            rules_of(settings), request, now);
}

E164 caller_number_for(const StoredCustomer& stored, const AccountSettings& settings) {
    const auto from = caller_number(settings.caller_numbers, stored.customer.primaryPhone);
    // init gives every account a number: an empty pool is a broken store.
    if (!from) throw std::runtime_error("the account has no caller number");
    return *from;
}

CallPlan plan_call(const StoredCustomer& stored, const ContactHistory& history,
                   const AccountSettings& settings, Time now, ComplianceOperation operation,
                   std::string_view agent_id, const std::optional<Webhook>& webhook) {
    CallPlan plan;
    plan.decision = ask_gate(stored, history, settings, {ContactChannel::call, operation}, now);
    plan.call.id = new_time_ordered_uuid();
    plan.call.threadId = stored.thread_id;
    plan.call.toPhoneNumber = stored.customer.primaryPhone;
    plan.call.fromPhoneNumber = caller_number_for(stored, settings);
    plan.call.compliance = plan.decision.compliance;
    plan.call.createdAt = Timestamp::from_time(now);
    plan.place = plan.call.compliance.passed;
    if (!plan.place) {
        plan.call.nextEligibleAt = plan.decision.nextEligibleAt;
        plan.call.blockedByCallId = plan.decision.blockedByCallId;
    }
    plan.agent_id = std::string(agent_id);
    plan.webhook = webhook;
    return plan;
}

// The webhook of a call request: its host resolves to an allowed address and its secretId is the
// account's (API.md section 9). False when it is not, and the request has been answered.
bool check_webhook(const Webhook& webhook, Exchange& x, Services& s) {
    const Url& url = webhook.url;
    const auto resolution =
        s.resolver.resolve(url.host(), url.port(), s.config.allow_private_webhooks);
    if (api::retry_webhook_lookup(resolution.status)) {
        x.response.set_header("Retry-After",
                              std::to_string(api::webhook_lookup_retry_after.count()));
        x.fail(api::errors::unavailable, std::string(api::webhook_lookup_unavailable_message));
        return false;
    }
    ErrorList errors;
    if (auto error = api::webhook_url_error(resolution, "/webhook/url"))
        errors.push_back(std::move(*error));
    // Without a secretId the deliveries are unsigned (API.md section 9).
    if (webhook.secretId && !s.store.find_webhook_secret(x.account, *webhook.secretId))
        errors.push_back(api::unknown_webhook_secret("/webhook/secretId"));
    if (errors.empty()) return true;
    x.fail_validation(std::move(errors));
    return false;
}

namespace {

// One call to one customer, as POST /customers/{id}/calls and each customer of POST /calls/bulk
// make it: compliance decided on the customer's row inside the store's transaction (the daily
// count holds however calls interleave, across processes on PostgreSQL), the call stored and
// handed to the dialer when every check passes. nullopt: the account has no such customer.
std::optional<CallPlan> place_call(const Uuid& account, const Uuid& customer,
                                   std::string_view agent_id, const std::optional<Webhook>& webhook,
                                   const AccountSettings& settings, ComplianceOperation operation,
                                   Services& s, bool charged = false) {
    const Time now = s.clock.now();
    auto plan =
        s.store.place_call(account, customer, now - s.config.call_history,
                           [&](const StoredCustomer& stored, const ContactHistory& history) {
                               CallPlan decided = plan_call(stored, history, settings, now,
                                                            operation, agent_id, webhook);
                               decided.charged = charged;
                               return decided;
                           });
    if (plan && plan->place) s.dialer.placed(PlacedCall{account, customer, *plan});
    return plan;
}

}  // namespace

void handle(endpoint<Operation::create_call>, Exchange& x, Services& s) {
    // The order of API.md section 8: the customer (404), the body (400), the agent (403), then
    // compliance. The customer is looked up before an answer of the body's or the agent's; a
    // request that goes on to compliance finds it missing in place_call (which writes nothing
    // then), rather than reading and parsing the customer twice.
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    const auto missing = [&] { return !s.store.find_customer(x.account, *id); };

    auto body = read<CallRequest>(x.body, s.read_options());
    if (!body) {
        if (missing()) return x.not_found(api::customer_not_found_message);
        return x.fail_read(std::move(body).errors());
    }
    const CallRequest& request = body.value();
    if (request.webhook) {
        if (missing()) return x.not_found(api::customer_not_found_message);
        if (!check_webhook(*request.webhook, x, s)) return;
    }
    if (!s.store.agent_assigned(x.account, request.agentId.view())) {
        if (missing()) return x.not_found(api::customer_not_found_message);
        return x.fail(api::errors::agent_not_assigned);
    }

    const auto plan = place_call(x.account, *id, request.agentId.view(), request.webhook,
                                 s.store.account_settings(x.account), ComplianceOperation::call, s);
    if (!plan) return x.not_found(api::customer_not_found_message);
    if (!plan->place) {
        // Blocked: not placed, not counted; the data shows what would have been called, and
        // when it could be (nextEligibleAt).
        return x.fail(api::errors::compliance_failed,
                      compliance::failure_message(plan->call.compliance), {}, plan->call);
    }
    x.reply(200, static_cast<const Call&>(plan->call));
}

void handle(endpoint<Operation::create_calls>, Exchange& x, Services& s) {
    // The whole request first, in the order of API.md section 13: the body, the agent, the
    // webhook; then each customer as a single call would treat it.
    auto body = read<BulkCallRequest>(x.body, s.read_options());
    if (!body) {
        ErrorList errors = std::move(body).errors();
        if (has_duplicate_customer_ids(errors)) {
            return x.fail(api::errors::validation_failed,
                          std::string(duplicate_customer_ids_message), std::move(errors));
        }
        return x.fail_read(std::move(errors));
    }
    const BulkCallRequest& request = body.value();
    if (!s.charge_items(x, request.customerIds.size())) return;
    if (!s.store.agent_assigned(x.account, request.agentId.view())) {
        return x.fail(api::errors::agent_not_assigned);
    }
    if (request.webhook && !check_webhook(*request.webhook, x, s)) return;
    // Read before the first write: an Idempotency-Key request holds SQLite's writer from its
    // first write to its answer (store.hpp).
    const AccountSettings settings = s.store.account_settings(x.account);
    // Each customer's call or decision is a transaction of its own: the items' rows are charged
    // to the daily budget together first, so that a bulk past it is refused whole (API.md
    // section 17) rather than cut short.
    s.store.charge_rows(x.account, static_cast<std::int64_t>(request.customerIds.size()));

    BulkCallResult result;
    for (const Uuid& customer : request.customerIds) {
        const auto plan = place_call(x.account, customer, request.agentId.view(), request.webhook,
                                     settings, ComplianceOperation::bulk_call, s, true);
        if (!plan) {
            result.add_failed(customer, std::string(api::customer_not_found_message));
        } else if (plan->place) {
            result.add_placed(customer, plan->call);
        } else {
            result.add_blocked(customer, compliance::failure_message(plan->call.compliance),
                               plan->call.compliance, plan->call.nextEligibleAt,
                               plan->call.blockedByCallId);
        }
    }
    x.reply(200, std::move(result));
}

void handle(endpoint<Operation::get_signed_url>, Exchange& x, Services& s) {
    auto body = read<SignedUrlRequest>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    const Uuid& id = body.value().callId;
    const auto call = s.store.find_call(x.account, id);
    // A call without a recording (in progress, never answered) has no link: the same 404 as an
    // unknown one.
    if (!call || !has_recording(*call) || !s.config.recording) {
        return x.not_found(api::call_not_found_message);
    }
    x.reply(200, SignedUrl{id, s.config.recording->url(id.view(), call->durationMs.value_or(0))});
}

void handle(endpoint<Operation::list_calls>, Exchange& x, Services& s) {
    reply_customer_page<CallList>(x, s.store, api::PagedList::calls,
                                  [&](const Uuid& customer, const api::PageRequest& page) {
                                      return s.store.list_calls(x.account, customer, page);
                                  });
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

void Calls::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
