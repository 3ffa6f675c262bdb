// SMS and e-mail interactions (API.md section 13): imports one at a time and in bulk, the
// customer's interactions, generated messages, and the analysis of an interaction.
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <collectcall/compliance/engine.hpp>

#include "api.hpp"
#include "api_context.hpp"
#include "rows.hpp"

namespace collectcall::server {

namespace {

// The customer of a /customers/{id}/... path; nullopt, and the request answered 404, when there
// is none.
std::optional<StoredCustomer> path_customer(Api::Context& ctx, Store& store) {
    const auto id = ctx.path_id();
    auto customer = id ? store.find_customer(ctx.account, *id) : std::nullopt;
    if (!customer) ctx.not_found(api::customer_not_found_message);
    return customer;
}

template <class Request, class Make>
void import_one(Api::Context& ctx, Store& store, const ReadOptions& options, Time now, Make make) {
    const auto customer = path_customer(ctx, store);
    if (!customer) return;
    auto body = read<Request>(ctx.body, options);
    if (!body) return ctx.fail_read(std::move(body).errors());
    const Uuid& id = customer->customer.id;
    auto record =
        make(body.value(), new_uuid(), id, customer->thread_id, Timestamp::from_time(now));
    store.insert_interactions(ctx.account, id, std::vector<InteractionRecord>{record});
    ctx.reply(200, std::move(record));
}

template <class Request, class Data, class Make>
void import_bulk(Api::Context& ctx, Store& store, const ReadOptions& options, Time now, Make make) {
    const auto customer = path_customer(ctx, store);
    if (!customer) return;
    auto body = read<ImportBulkRequest<Request>>(ctx.body, options);
    if (!body) return ctx.fail_read(std::move(body).errors());
    const Uuid& id = customer->customer.id;
    const Timestamp created = Timestamp::from_time(now);
    ImportBulkResult<Data> result;
    std::vector<InteractionRecord> records;
    auto& items = body.value().interactions;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (!items[i].ok()) {
            result.add_invalid(i, std::move(items[i]).errors());
            continue;
        }
        Data record = make(items[i].value(), new_uuid(), id, customer->thread_id, created);
        records.emplace_back(record);
        result.add_imported(std::move(record));
    }
    // Every valid item, in one write: a failure of the store fails the request, not some items.
    if (!records.empty()) store.insert_interactions(ctx.account, id, records);
    ctx.reply(200, std::move(result));
}

std::vector<std::string_view> words_of(const InteractionRecord& record) {
    return std::visit([](const auto& r) { return customer_words(r); }, record);
}

// The thread's last inbound message, which the next message answers: its text, or nullopt.
std::optional<std::string> last_inbound_text(Store& store, const Uuid& account,
                                             const Uuid& thread) {
    const auto last = store.last_inbound_interaction(account, thread);
    if (!last) return std::nullopt;
    const auto words = words_of(*last);
    if (words.empty()) return std::nullopt;
    return std::string(words.front());
}

std::vector<TranscriptMessage> transcript_of(std::string_view stored) {
    auto messages = read<std::vector<TranscriptMessage>>(stored, stored_read_options());
    if (!messages) corrupt("transcript");
    return std::move(messages).value();
}

// Records what an analysis found on its customer; true when something changed.
bool record_outcomes(StoredCustomer& customer, const CustomerOutcomes& outcomes, Time now) {
    bool changed = false;
    const auto set = [&](bool StoredCustomer::*flag, bool value) {
        if (value && !(customer.*flag)) {
            customer.*flag = true;
            changed = true;
        }
    };
    set(&StoredCustomer::cease_and_desist, outcomes.cease_and_desist);
    set(&StoredCustomer::do_not_call, outcomes.do_not_call);
    set(&StoredCustomer::attorney_represented, outcomes.attorney_represented);
    set(&StoredCustomer::disputed, outcomes.disputed);
    if (changed) customer.customer.updatedAt = Timestamp::from_time(now);
    return changed;
}

}  // namespace

void Api::import_sms(Context& ctx) {
    import_one<SmsImportRequest>(ctx, store_, read_options(), clock_.now(), &sms_interaction);
}

void Api::import_email(Context& ctx) {
    import_one<EmailImportRequest>(ctx, store_, read_options(), clock_.now(), &email_interaction);
}

void Api::import_sms_bulk(Context& ctx) {
    import_bulk<SmsImportRequest, SmsInteractionData>(ctx, store_, read_options(), clock_.now(),
                                                      &sms_interaction);
}

void Api::import_email_bulk(Context& ctx) {
    import_bulk<EmailImportRequest, EmailInteractionData>(ctx, store_, read_options(), clock_.now(),
                                                          &email_interaction);
}

void Api::list_interactions(Context& ctx) {
    const auto customer = path_customer(ctx, store_);
    if (!customer) return;
    const Uuid& id = customer->customer.id;
    InteractionList list;
    for (InteractionRecord& record : store_.list_interactions(ctx.account, id))
        std::visit([&](auto& r) { list.add(std::move(r)); }, record);
    for (CallDetails& call : store_.list_calls(ctx.account, id)) {
        std::optional<std::vector<TranscriptMessage>> transcript;
        if (call.status != CallStatus::in_progress) {
            if (const auto stored = store_.find_call_transcript(ctx.account, call.id))
                transcript = transcript_of(*stored);
        }
        list.add(std::move(call), std::move(transcript));
    }
    list.sort_newest_first();
    ctx.reply(200, std::move(list));
}

void Api::generate_sms(Context& ctx) {
    const auto customer = path_customer(ctx, store_);
    if (!customer) return;
    auto body = read<SmsGenerateRequest>(ctx.body, read_options());
    if (!body) return ctx.fail_read(std::move(body).errors());
    const SmsGenerateRequest& request = body.value();
    if (lacks_recipient(request)) return ctx.fail(api::errors::recipient_required);

    const Uuid& id = customer->customer.id;
    const Uuid thread = request.threadId.value_or(customer->thread_id);
    const std::string message = write_sms(message_facts(customer->customer),
                                          last_inbound_text(store_, ctx.account, thread));
    if (!request.persists()) return ctx.reply(200, SmsGenerateResult{message, {}});

    // Sending it is a communication: the SMS checks of API.md section 14 decide, on the
    // customer's row as it is when the message is stored.
    const AccountSettings settings = store_.account_settings(ctx.account);
    const Time now = clock_.now();
    const auto plan = store_.record_interaction(
        ctx.account, id, now - config_.call_history,
        [&](const StoredCustomer& stored, std::span<const Time> calls, std::span<const Time>) {
            compliance::ComplianceInput input = compliance_input(stored, settings, now);
            input.channel = ContactChannel::sms;
            input.placed_calls = calls;
            InteractionPlan plan;
            plan.compliance = compliance::evaluate(input);
            plan.store = plan.compliance->passed;
            plan.record = generated_sms_interaction(request, message, new_uuid(), id, thread,
                                                    Timestamp::from_time(now));
            return plan;
        });
    if (!plan) return ctx.not_found(api::customer_not_found_message);
    if (!plan->store) {
        return ctx.fail(api::errors::compliance_failed,
                        compliance::failure_message(*plan->compliance, ContactChannel::sms), {},
                        SmsGenerateBlocked{message, *plan->compliance});
    }
    ctx.reply(200, SmsGenerateResult{message, thread});
}

void Api::generate_email(Context& ctx) {
    const auto customer = path_customer(ctx, store_);
    if (!customer) return;
    auto body = read<EmailGenerateRequest>(ctx.body, read_options());
    if (!body) return ctx.fail_read(std::move(body).errors());
    const EmailGenerateRequest& request = body.value();

    const Uuid& id = customer->customer.id;
    const Uuid thread = request.threadId.value_or(customer->thread_id);
    EmailDraft draft = write_email(message_facts(customer->customer),
                                   last_inbound_text(store_, ctx.account, thread));
    EmailGenerateResult result{draft.htmlBody, draft.plainTextBody, {}};
    if (request.persists()) {
        store_.insert_interactions(ctx.account, id,
                                   std::vector<InteractionRecord>{generated_email_interaction(
                                       draft, customer->customer.email, new_uuid(), id, thread,
                                       Timestamp::from_time(clock_.now()))});
        result.threadId = thread;
    }
    ctx.reply(200, std::move(result));
}

void Api::analyze_interaction(Context& ctx) {
    const auto id = ctx.path_id();
    if (!id) return ctx.not_found(interaction_not_found_message);
    AnalyzeInteractionRequest request;
    if (!ctx.body.empty()) {
        auto body = read<AnalyzeInteractionRequest>(ctx.body, read_options());
        if (!body) return ctx.fail_read(std::move(body).errors());
        request = body.value();
    }

    // An SMS or an e-mail, or else a call (a call's id is an interaction id: its text is its
    // transcript).
    StoredAnalysis analysis;
    analysis.interaction_id = *id;
    analysis.analysed_at = clock_.now();
    std::vector<std::string_view> words;
    std::vector<TranscriptMessage> transcript;  // the call's, which `words` point into
    const auto record = store_.find_interaction(ctx.account, *id);
    if (record) {
        analysis.channel =
            std::holds_alternative<SmsInteractionData>(*record) ? Channel::sms : Channel::email;
        analysis.customer_id = std::visit([](const auto& r) { return r.customerId; }, *record);
        words = words_of(*record);
    } else if (const auto call = store_.find_call(ctx.account, *id)) {
        analysis.channel = Channel::voice;
        analysis.customer_id = call->customerId;
        if (const auto stored = store_.find_call_transcript(ctx.account, *id)) {
            transcript = transcript_of(*stored);
            words = customer_words(transcript);
        }
    } else {
        return ctx.not_found(interaction_not_found_message);
    }
    if (words.empty()) return ctx.fail(api::errors::analysis_skipped);
    analysis.variables = analyse(words, analysis.channel);

    OutcomeApplier apply;
    if (request.applies_outcomes()) {
        apply = [&](StoredCustomer& customer, const OutputVariables& variables) {
            return record_outcomes(customer, outcomes_of(variables, analysis.channel),
                                   analysis.analysed_at);
        };
    }
    const StoredAnalysis stored = store_.save_analysis(ctx.account, analysis, apply);
    ctx.reply(200,
              AnalyzeInteractionResult{stored.interaction_id, stored.channel, stored.variables});
}

}  // namespace collectcall::server
