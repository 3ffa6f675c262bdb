// POST /calls/bulk and POST /calls/get-signed-url (API.md section 13).
#include <collectcall/compliance/engine.hpp>

#include "api.hpp"
#include "api_context.hpp"

namespace collectcall::server {

void Api::create_calls(Context& ctx) {
    // The whole request first, in the order of API.md section 13: the body, the agent, the
    // webhook; then each customer as a single call would treat it.
    auto body = read<BulkCallRequest>(ctx.body, read_options());
    if (!body) {
        ErrorList errors = std::move(body).errors();
        if (has_duplicate_customer_ids(errors)) {
            return ctx.fail(api::errors::validation_failed,
                            std::string(duplicate_customer_ids_message), std::move(errors));
        }
        return ctx.fail_read(std::move(errors));
    }
    const BulkCallRequest& request = body.value();
    if (!store_.agent_assigned(ctx.account, request.agentId.view())) {
        return ctx.fail(api::errors::agent_not_assigned);
    }
    if (request.webhook && !check_webhook(ctx, *request.webhook)) return;

    const AccountSettings settings = store_.account_settings(ctx.account);
    const Time now = clock_.now();
    BulkCallResult result;
    for (const Uuid& customer : request.customerIds) {
        const auto plan = place_call(ctx.account, customer, request.agentId.view(), request.webhook,
                                     settings, now);
        if (!plan) {
            result.add_failed(customer, std::string(api::customer_not_found_message));
        } else if (plan->place) {
            result.add_placed(customer, plan->call);
        } else {
            result.add_failed(customer, compliance::failure_message(plan->call.compliance),
                              plan->call.compliance);
        }
    }
    ctx.reply(200, std::move(result));
}

void Api::get_signed_url(Context& ctx) {
    auto body = read<SignedUrlRequest>(ctx.body, read_options());
    if (!body) return ctx.fail_read(std::move(body).errors());
    const Uuid& id = body.value().callId;
    const auto call = store_.find_call(ctx.account, id);
    // A call without a recording (in progress, never answered) has no link: the same 404 as an
    // unknown one.
    if (!call || !has_recording(*call) || !config_.recording) {
        return ctx.not_found(api::call_not_found_message);
    }
    ctx.reply(200, SignedUrl{id, config_.recording->url(id.view(), call->durationMs.value_or(0))});
}

}  // namespace collectcall::server
