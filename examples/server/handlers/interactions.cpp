// SMS and e-mail interactions (API.md section 13): imports one at a time and in bulk, the
// customer's interactions, generated messages, and the analysis of an interaction.
#include "handlers/interactions.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <collectcall/compliance/decision.hpp>
#include <collectcall/compliance/engine.hpp>
#include <collectcall/core/read.hpp>

#include "crypto.hpp"
#include "handlers/calls.hpp"
#include "rows.hpp"

namespace collectcall::server::handlers {

namespace {

// The customer of a /customers/{id}/... path; nullopt, and the request answered 404, when there
// is none.
std::optional<StoredCustomer> path_customer(Exchange& x, Store& store) {
    const auto id = x.path_id();
    auto customer = id ? store.find_customer(x.account, *id) : std::nullopt;
    if (!customer) x.not_found(api::customer_not_found_message);
    return customer;
}

// Whether a threadId a request gives, if any, is a thread of the customer's own
// (foreign_thread_error): another customer's would put the message in that customer's thread,
// where it would shape the next message written to them.
bool own_thread(Services& s, const Uuid& account, const StoredCustomer& customer,
                const std::optional<Uuid>& thread) {
    return !thread || *thread == customer.thread_id ||
           s.store.customer_has_thread(account, customer.customer.id, *thread);
}

// The change of standing an import makes: an inbound SMS that is an opt-out keyword restricts
// texts on receipt, analysed or not (API.md section 16, every policy); the first such message of
// the import is the one recorded. No change (an empty changer) for anything else.
StandingChanger opt_out_on_receipt(Services& s, const Uuid& account,
                                   std::span<const InteractionRecord> records, Time now) {
    const SmsInteractionData* keyword = nullptr;
    for (const InteractionRecord& record : records) {
        const auto* sms = std::get_if<SmsInteractionData>(&record);
        if (sms != nullptr && opts_out_on_receipt(*sms)) {
            keyword = sms;
            break;
        }
    }
    if (keyword == nullptr) return {};
    const CompliancePolicy policy = s.store.account_settings(account).policy;
    return [policy, now, interaction = keyword->id](StoredCustomer& stored) {
        Standing after = customer_standing(stored);
        after.restrictedMedia.add(ContactChannel::sms);
        return change_customer_standing(stored, after, now, policy, StandingCause::opt_out_keyword,
                                        interaction);
    };
}

template <class Request, class Make>
void import_one(Exchange& x, Services& s, Make make) {
    const auto customer = path_customer(x, s.store);
    if (!customer) return;
    auto body = read<Request>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    if (!own_thread(s, x.account, *customer, body.value().threadId))
        return x.fail_validation(ErrorList{foreign_thread_error()});
    const Uuid& id = customer->customer.id;
    const Time now = s.clock.now();
    auto record =
        make(body.value(), new_uuid(), id, customer->thread_id, Timestamp::from_time(now));
    const std::vector<InteractionRecord> records{record};
    s.store.insert_interactions(x.account, id, records,
                                opt_out_on_receipt(s, x.account, records, now));
    x.reply(200, std::move(record));
}

template <class Request, class Data, class Make>
void import_bulk(Exchange& x, Services& s, Make make) {
    const auto customer = path_customer(x, s.store);
    if (!customer) return;
    auto body = read<ImportBulkRequest<Request>>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    if (!s.charge_items(x, body.value().interactions.size())) return;
    const Uuid& id = customer->customer.id;
    const Time now = s.clock.now();
    const Timestamp created = Timestamp::from_time(now);
    ImportBulkResult<Data> result;
    std::vector<InteractionRecord> records;
    auto& items = body.value().interactions;
    std::vector<Uuid> own_threads;  // the threadIds found the customer's, each looked up once
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (!items[i].ok()) {
            result.add_invalid(i, std::move(items[i]).errors());
            continue;
        }
        // An item naming a thread not the customer's fails alone, as an invalid one.
        if (const std::optional<Uuid>& thread = items[i].value().threadId;
            thread &&
            std::find(own_threads.begin(), own_threads.end(), *thread) == own_threads.end()) {
            if (!own_thread(s, x.account, *customer, thread)) {
                result.add_invalid(i, ErrorList{foreign_thread_error()});
                continue;
            }
            own_threads.push_back(*thread);
        }
        Data record = make(items[i].value(), new_uuid(), id, customer->thread_id, created);
        records.emplace_back(record);
        result.add_imported(std::move(record));
    }
    // Every valid item, in one write: a failure of the store fails the request, not some items.
    if (!records.empty()) {
        s.store.insert_interactions(x.account, id, records,
                                    opt_out_on_receipt(s, x.account, records, now));
    }
    x.reply(200, std::move(result));
}

std::vector<std::string_view> words_of(const InteractionRecord& record) {
    return std::visit([](const auto& r) { return customer_words(r); }, record);
}

// The thread's last inbound message, which the next message answers: the part of its text that
// is read (message_writer::reply_context), or nullopt.
std::optional<std::string> last_inbound_text(Store& store, const Uuid& account,
                                             const Uuid& thread) {
    const auto last = store.last_inbound_interaction(account, thread);
    if (!last) return std::nullopt;
    const auto words = words_of(*last);
    if (words.empty()) return std::nullopt;
    return std::string(message_writer::reply_context(words.front()));
}

std::vector<TranscriptMessage> transcript_of(std::string_view stored) {
    auto messages = read<std::vector<TranscriptMessage>>(stored, stored_read_options());
    if (!messages) corrupt("transcript");
    return std::move(messages).value();
}

// Stores a generated message if the gate lets it be sent: sending it is a communication (API.md
// section 16), one evaluation through the gate on the customer's row as it is when the message
// is stored, in the transaction that stores it with the record `make` writes.
template <class Make>
std::optional<InteractionPlan> persist_through_gate(Exchange& x, Services& s, const Uuid& customer,
                                                    const compliance::ContactRequest& contact,
                                                    Make make) {
    const AccountSettings settings = s.store.account_settings(x.account);
    const Time now = s.clock.now();
    return s.store.record_interaction(x.account, customer, now - s.config.call_history,
                                      [&](const StoredCustomer& stored, std::span<const Time> calls,
                                          std::span<const Time> texts) {
                                          InteractionPlan plan;
                                          ContactHistory history;
                                          history.placed.assign(calls.begin(), calls.end());
                                          history.texts.assign(texts.begin(), texts.end());
                                          plan.decision =
                                              ask_gate(stored, history, settings, contact, now);
                                          plan.compliance = plan.decision->compliance;
                                          plan.store = plan.compliance->passed;
                                          plan.record = make(stored, Timestamp::from_time(now));
                                          return plan;
                                      });
}

}  // namespace

std::string next_sms_text(Store& store, const Uuid& account, const Customer& customer,
                          const Uuid& thread) {
    return write_sms(message_facts(customer), last_inbound_text(store, account, thread));
}

void handle(endpoint<Operation::import_sms>, Exchange& x, Services& s) {
    import_one<SmsImportRequest>(x, s, &sms_interaction);
}

void handle(endpoint<Operation::import_email>, Exchange& x, Services& s) {
    import_one<EmailImportRequest>(x, s, &email_interaction);
}

void handle(endpoint<Operation::import_sms_bulk>, Exchange& x, Services& s) {
    import_bulk<SmsImportRequest, SmsInteractionData>(x, s, &sms_interaction);
}

void handle(endpoint<Operation::import_email_bulk>, Exchange& x, Services& s) {
    import_bulk<EmailImportRequest, EmailInteractionData>(x, s, &email_interaction);
}

void handle(endpoint<Operation::list_interactions>, Exchange& x, Services& s) {
    const auto customer = path_customer(x, s.store);
    if (!customer) return;
    const Uuid& id = customer->customer.id;
    const api::PageOwner owner{api::PagedList::interactions, x.account.view(), id.view()};
    const auto page = x.page_request(owner);
    if (!page) return;
    Page<ListedInteraction> listed = s.store.list_interactions(x.account, id, *page);
    InteractionList list;
    for (ListedInteraction& item : listed.items) {
        if (auto* record = std::get_if<InteractionRecord>(&item)) {
            std::visit([&](auto& r) { list.add(std::move(r)); }, *record);
            continue;
        }
        CallDetails& call = std::get<CallDetails>(item);
        std::optional<std::vector<TranscriptMessage>> transcript;
        if (call.status != CallStatus::in_progress) {
            if (const auto stored = s.store.find_call_transcript(x.account, call.id))
                transcript = transcript_of(*stored);
        }
        list.add(std::move(call), std::move(transcript));
    }
    list.nextCursor = api::next_page_cursor(owner, listed.next);
    x.reply(200, std::move(list));
}

void handle(endpoint<Operation::generate_sms>, Exchange& x, Services& s) {
    const auto customer = path_customer(x, s.store);
    if (!customer) return;
    auto body = read<SmsGenerateRequest>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    const SmsGenerateRequest& request = body.value();
    if (!own_thread(s, x.account, *customer, request.threadId))
        return x.fail_validation(ErrorList{foreign_thread_error()});
    if (lacks_recipient(request)) return x.fail(api::errors::recipient_required);

    const Uuid& id = customer->customer.id;
    const Uuid thread = request.threadId.value_or(customer->thread_id);
    const std::string message = next_sms_text(s.store, x.account, customer->customer, thread);
    if (!request.persists()) return x.reply(200, SmsGenerateResult{message, {}});

    const auto plan = persist_through_gate(
        x, s, id, {ContactChannel::sms, ComplianceOperation::sms, request.to->view()},
        [&](const StoredCustomer&, const Timestamp& now) -> InteractionRecord {
            return generated_sms_interaction(request, message, new_uuid(), id, thread, now);
        });
    if (!plan) return x.not_found(api::customer_not_found_message);
    if (!plan->store) {
        return x.fail(
            api::errors::compliance_failed,
            compliance::failure_message(*plan->compliance, ContactChannel::sms), {},
            SmsGenerateBlocked{message, *plan->compliance, plan->decision->nextEligibleAt});
    }
    x.reply(200, SmsGenerateResult{message, thread});
}

void handle(endpoint<Operation::generate_email>, Exchange& x, Services& s) {
    const auto customer = path_customer(x, s.store);
    if (!customer) return;
    auto body = read<EmailGenerateRequest>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    const EmailGenerateRequest& request = body.value();
    if (!own_thread(s, x.account, *customer, request.threadId))
        return x.fail_validation(ErrorList{foreign_thread_error()});

    const Uuid& id = customer->customer.id;
    const Uuid thread = request.threadId.value_or(customer->thread_id);
    EmailDraft draft = write_email(message_facts(customer->customer),
                                   last_inbound_text(s.store, x.account, thread));
    if (!request.persists())
        return x.reply(200, EmailGenerateResult{draft.htmlBody, draft.plainTextBody, {}});

    const auto plan = persist_through_gate(
        x, s, id, {ContactChannel::email, ComplianceOperation::email},
        [&](const StoredCustomer& stored, const Timestamp& now) -> InteractionRecord {
            return generated_email_interaction(draft, stored.customer.email, new_uuid(), id, thread,
                                               now);
        });
    if (!plan) return x.not_found(api::customer_not_found_message);
    if (!plan->store) {
        return x.fail(api::errors::compliance_failed,
                      compliance::failure_message(*plan->compliance, ContactChannel::email), {},
                      EmailGenerateBlocked{draft.htmlBody, draft.plainTextBody, *plan->compliance,
                                           plan->decision->nextEligibleAt});
    }
    x.reply(200, EmailGenerateResult{draft.htmlBody, draft.plainTextBody, thread});
}

void handle(endpoint<Operation::analyze_interaction>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(interaction_not_found_message);
    AnalyzeInteractionRequest request;
    if (!x.body.empty()) {
        auto body = read<AnalyzeInteractionRequest>(x.body, s.read_options());
        if (!body) return x.fail_read(std::move(body).errors());
        request = body.value();
    }

    // An SMS or an e-mail, or else a call (a call's id is an interaction id: its text is its
    // transcript).
    StoredAnalysis analysis;
    analysis.interaction_id = *id;
    analysis.analysed_at = s.clock.now();
    std::vector<std::string_view> words;
    std::vector<TranscriptMessage> transcript;  // the call's, which `words` point into
    const auto record = s.store.find_interaction(x.account, *id);
    if (record) {
        analysis.channel =
            std::holds_alternative<SmsInteractionData>(*record) ? Channel::sms : Channel::email;
        analysis.customer_id = std::visit([](const auto& r) { return r.customerId; }, *record);
        words = words_of(*record);
    } else if (const auto call = s.store.find_call(x.account, *id)) {
        analysis.channel = Channel::voice;
        analysis.customer_id = call->customerId;
        if (const auto stored = s.store.find_call_transcript(x.account, *id)) {
            transcript = transcript_of(*stored);
            words = customer_words(transcript);
        }
    } else {
        return x.not_found(interaction_not_found_message);
    }
    if (words.empty()) return x.fail(api::errors::analysis_skipped);
    analysis.variables = analyse(words, analysis.channel);

    OutcomeApplier apply;
    if (request.applies_outcomes()) {
        // The stored analysis's variables (the first analysis of these words) with the stop
        // request of the same words: a request names the media it restricts (API.md section 16).
        const StopRequest stop = stop_request(words, analysis.channel);
        const CompliancePolicy policy = s.store.account_settings(x.account).policy;
        apply = [&, stop, policy](StoredCustomer& customer, const OutputVariables& variables) {
            const CustomerOutcomes outcomes = outcomes_of(variables, stop, analysis.channel);
            return change_customer_standing(
                customer, with_outcomes(customer_standing(customer), outcomes),
                analysis.analysed_at, policy, StandingCause::analysis, analysis.interaction_id);
        };
    }
    const StoredAnalysis stored = s.store.save_analysis(x.account, analysis, apply);
    x.reply(200, AnalyzeInteractionResult{stored.interaction_id, stored.channel, stored.variables});
}

void Interactions::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
