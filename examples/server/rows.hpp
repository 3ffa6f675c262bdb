// The rows of the stores, written once for both backends: the columns a customer and a call are
// selected with, and how such a row becomes a model. A backend hands its row to these through a
// view with text(c), is_null(c), integer(c) and boolean(c) (sqlite.hpp's SqliteRow,
// postgres.hpp's PgRow); column c counts from 0 in the order of the list.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <collectcall/collectcall.hpp>
#include <collectcall/compliance/checks.hpp>
// The reader of the row types of this file (StoredCompliance), which no list of
// collectcall/extern.hpp names.
#include <collectcall/core/read.hpp>

#include "columns.hpp"
#include "store.hpp"

// The columns of a customer row, for `SELECT ` COLLECTCALL_CUSTOMER_COLUMNS ` FROM customers`.
// Macros, so that a statement stays one string literal (SQLite's statement cache is keyed by its
// address).
#define COLLECTCALL_CUSTOMER_COLUMNS                                                            \
    "id, body, thread_id, active, cease_and_desist, created_at, updated_at, restricted_media, " \
    "attorney_represented, disputed"
// The columns of a call row (its events are another table's).
#define COLLECTCALL_CALL_COLUMNS                                                           \
    "id, thread_id, to_number, from_number, compliance, created_at, customer_id, status, " \
    "ended_reason, duration_ms"
// The columns of an account's settings (AccountSettings, but the caller numbers).
#define COLLECTCALL_ACCOUNT_SETTINGS_COLUMNS \
    "window_start_minutes, window_end_minutes, max_calls_per_day, compliance_policy"
// The columns of an SMS or e-mail interaction row.
#define COLLECTCALL_INTERACTION_COLUMNS "channel, data"
// The columns an interaction is inserted with, in the order each backend binds them.
#define COLLECTCALL_INTERACTION_INSERT_COLUMNS                                         \
    "id, account_id, customer_id, thread_id, channel, direction, timestamp_ms, data, " \
    "created_at"
// The columns of an analysis row.
#define COLLECTCALL_ANALYSIS_COLUMNS \
    "interaction_id, customer_id, channel, variables, outcomes_applied, created_at"
// The columns a customer is inserted with, in the order each backend binds them.
#define COLLECTCALL_CUSTOMER_INSERT_COLUMNS                                                \
    "id, account_id, external_id, thread_id, active, cease_and_desist, body, created_at, " \
    "updated_at"

namespace collectcall::server {

inline constexpr int customer_insert_column_count = 9;

// The stores keep times as milliseconds since the epoch where they compare them, and as RFC 3339
// text where they show them.
inline std::int64_t to_ms(Time t) {
    return t.time_since_epoch().count();
}
inline std::string timestamp_text(Time t) {
    return std::string(Timestamp::from_time(t).view());
}

// Stored documents were valid when written; reading them back must not apply rules relative to
// today (a date of birth is never "in the future" of the data it was accepted with, whatever
// clock the server runs on now).
inline const ReadOptions& stored_read_options() {
    static const ReadOptions options = [] {
        ReadOptions o;
        o.today = std::chrono::sys_days{std::chrono::year{9999} / 12 / 31};
        return o;
    }();
    return options;
}

// A row selected with COLLECTCALL_CUSTOMER_COLUMNS.
template <class Row>
StoredCustomer customer_from_row(const Row& row) {
    StoredCustomer stored;
    auto body = read<CustomerCreate>(row.text(1), stored_read_options());
    if (!body) corrupt("customer");
    static_cast<CustomerCreate&>(stored.customer) = std::move(body).value();
    stored.customer.id = parse_column<Uuid>(row.text(0), "customer id");
    stored.thread_id = parse_column<Uuid>(row.text(2), "thread id");
    stored.active = row.boolean(3);
    stored.cease_and_desist = row.boolean(4);
    stored.customer.createdAt = parse_column<Timestamp>(row.text(5), "createdAt");
    stored.customer.updatedAt = parse_column<Timestamp>(row.text(6), "updatedAt");
    const auto media = RestrictedMedia::from_bits(static_cast<unsigned>(row.integer(7)));
    if (!media) corrupt("restricted media");
    stored.customer.restrictedMedia = *media;
    stored.customer.attorneyRepresented = row.boolean(8);
    stored.customer.disputed = row.boolean(9);
    return stored;
}

// A row selected with COLLECTCALL_ACCOUNT_SETTINGS_COLUMNS.
template <class Row>
void settings_from_row(const Row& row, AccountSettings& settings) {
    settings.window = compliance::RespectfulHours{std::chrono::minutes{row.integer(0)},
                                                  std::chrono::minutes{row.integer(1)}};
    settings.max_calls_per_day = static_cast<unsigned>(row.integer(2));
    settings.policy = parse_column<CompliancePolicy>(row.text(3), "compliance policy");
}

// The account as GET /account shows it, but its drip campaigns.
inline Account account_view(const Uuid& id, std::string name, const AccountSettings& settings) {
    Account out;
    out.id = id;
    out.name = std::move(name);
    out.compliancePolicy = settings.policy;
    out.respectfulHours = {ClockTime::from_minutes(settings.window.start).value_or(ClockTime{}),
                           ClockTime::from_minutes(settings.window.end).value_or(ClockTime{})};
    out.maxCallsPerDay = settings.max_calls_per_day;
    out.callerNumbers = settings.caller_numbers;
    return out;
}

// A row (name, steps) of drip_campaigns; steps as write() makes them.
template <class Row>
DripCampaignDefinition campaign_from_row(const Row& row) {
    DripCampaignDefinition out;
    out.name = std::string(row.text(0));
    auto steps = read<std::vector<DripStepDefinition>>(row.text(1), stored_read_options());
    if (!steps) corrupt("drip campaign");
    out.steps = std::move(steps).value();
    return out;
}

// A check as a calls row keeps it: its id and reason, the catalogue having its name and
// description (compliance::check_info), which would otherwise be half the row. Rows written
// before schema version 6 hold them in full and are read as written.
struct StoredCheck {
    CheckId id = CheckId::is_active;
    Patch<std::string> name;
    Patch<std::string> description;
    std::string reason;
};
BOOST_DESCRIBE_STRUCT(StoredCheck, (), (id, name, description, reason))

struct StoredCompliance {
    bool passed = false;
    std::vector<StoredCheck> checksPassed;
    std::vector<StoredCheck> checksFailed;
};
BOOST_DESCRIBE_STRUCT(StoredCompliance, (), (passed, checksPassed, checksFailed))

// The calls.compliance column of a call's compliance.
inline std::string compliance_column(const ComplianceResult& compliance) {
    const auto stored = [](const std::vector<Check>& checks) {
        std::vector<StoredCheck> out;
        out.reserve(checks.size());
        for (const Check& check : checks)
            out.push_back(StoredCheck{check.id, {}, {}, check.reason});
        return out;
    };
    return write(StoredCompliance{compliance.passed, stored(compliance.checksPassed),
                                  stored(compliance.checksFailed)});
}

// A call's compliance from its calls.compliance column.
inline ComplianceResult compliance_from_column(std::string_view column) {
    auto stored = read<StoredCompliance>(column, stored_read_options());
    if (!stored) corrupt("compliance");
    const auto checks = [](std::vector<StoredCheck>& from) {
        std::vector<Check> out;
        out.reserve(from.size());
        for (StoredCheck& check : from) {
            const compliance::CheckInfo& info = compliance::check_info(check.id);
            out.push_back(Check{
                check.id, check.name.has_value() ? std::move(*check.name) : std::string(info.name),
                check.description.has_value() ? std::move(*check.description)
                                              : std::string(info.description),
                std::move(check.reason)});
        }
        return out;
    };
    StoredCompliance& s = stored.value();
    return ComplianceResult{s.passed, checks(s.checksPassed), checks(s.checksFailed)};
}

// --- The retention sweep (Store::sweep) ------------------------------------------------------

// The most rows a record takes with it: a decision is one row; an interaction has its analysis;
// a call has its analysis and, for each of its events (one of each type at most), the event and
// that event's webhook message.
inline constexpr std::int64_t decision_rows = 1;
inline constexpr std::int64_t interaction_rows = 2;
inline constexpr std::int64_t call_rows =
    2 + 2 * static_cast<std::int64_t>(enum_values<CallEventType>.size());

// The customers' records one transaction of the sweep deletes, each record whole: a kind of
// record is asked for as many as fit in the rows left, so the transaction never deletes more than
// retention_batch_rows.
class RetentionBatch {
  public:
    // How many records taking up to `rows_each` rows each fit in what is left.
    [[nodiscard]] std::int64_t room(std::int64_t rows_each) const noexcept {
        return left_ / rows_each;
    }
    // Of the `asked` records of one kind of the customer, `taken` were deleted, with `rows` rows
    // in all. Fewer taken than asked: the customer has none of that kind left.
    void took(std::int64_t asked, std::int64_t taken, std::int64_t rows) noexcept {
        left_ -= rows;
        deleted_ += rows;
        if (asked == 0 || taken == asked) emptied_ = false;
    }
    // Every kind of the current customer's records is gone (its last activity is then cleared).
    [[nodiscard]] bool customer_emptied() const noexcept { return emptied_; }
    // The next customer.
    void next_customer() noexcept { emptied_ = true; }
    // No call fits any more: the transaction ends here.
    [[nodiscard]] bool full() const noexcept { return left_ < call_rows; }
    [[nodiscard]] std::int64_t deleted() const noexcept { return deleted_; }

  private:
    std::int64_t left_ = retention_batch_rows;
    std::int64_t deleted_ = 0;
    bool emptied_ = true;
};

// One transaction of the sweep: the rows it deleted, and whether another may find more.
struct SweepChunk {
    std::int64_t deleted = 0;
    bool more = false;
};

// Runs `chunk` (one transaction of the store, a SweepChunk) until one finds nothing more: how
// many rows went.
template <class Chunk>
std::int64_t sweep_in_chunks(Chunk&& chunk) {
    std::int64_t deleted = 0;
    for (;;) {
        const SweepChunk one = chunk();
        deleted += one.deleted;
        if (!one.more) return deleted;
    }
}

// A decision as a row keeps it (calls.decision, compliance_decisions.body): without its
// compliance, which the row's compliance column holds (compliance_column).
inline std::string decision_column(const ComplianceDecision& decision) {
    ComplianceDecision context = decision;
    context.compliance = {};
    return write(context);
}

// A drip campaign enrolment, stored as its JSON document (API.md section 15).
inline DripEnrolment enrolment_from_column(std::string_view body) {
    auto enrolment = read<DripEnrolment>(body, stored_read_options());
    if (!enrolment) corrupt("drip campaign enrolment");
    return std::move(enrolment).value();
}

// The webhook of a row's columns `url` and `secret` (NULL: none).
template <class Row>
std::optional<Webhook> webhook_from_row(const Row& row, int url, int secret) {
    if (row.is_null(url)) return std::nullopt;
    Webhook webhook;
    webhook.url = parse_column<Url>(row.text(url), "webhook url");
    if (!row.is_null(secret)) webhook.secretId = parse_column<Uuid>(row.text(secret), "secretId");
    return webhook;
}

// The next_ms column of an enrolment: when its next step runs, NULL when none will.
inline std::optional<std::int64_t> enrolment_next_ms(const DripEnrolment& enrolment) {
    if (enrolment.status != DripCampaignStatus::in_progress || !enrolment.nextStepAt)
        return std::nullopt;
    return to_ms(enrolment.nextStepAt->time());
}

// A decision from its row's decision and compliance columns.
inline ComplianceDecision decision_from_columns(std::string_view body,
                                                std::string_view compliance) {
    auto decision = read<ComplianceDecision>(body, stored_read_options());
    if (!decision) corrupt("compliance decision");
    ComplianceDecision out = std::move(decision).value();
    out.compliance = compliance_from_column(compliance);
    return out;
}

// Whether a call's transcript (a JSON array of TranscriptMessage, as its column holds it) shows a
// telephone conversation: what the calls.conversation column keeps from the call's end on.
inline bool conversation_from_column(std::string_view transcript) {
    auto turns = read<std::vector<TranscriptMessage>>(transcript, stored_read_options());
    if (!turns) corrupt("transcript");
    return is_conversation(turns.value());
}

// A row (created_ms, conversation) of a call to the customer, added to what compliance counts.
template <class Row>
void add_call_to_history(ContactHistory& history, const Row& row) {
    const Time at{std::chrono::milliseconds{row.integer(0)}};
    history.placed.push_back(at);
    if (row.boolean(1)) history.conversations.push_back(at);
}

// A row (id, created_ms) of a call to the customer still in progress, added to what compliance
// reads (one call at a time, API.md section 16).
template <class Row>
void add_call_in_progress(ContactHistory& history, const Row& row) {
    history.in_progress.push_back(
        compliance::OngoingCall{parse_column<Uuid>(row.text(0), "call id"),
                                Time{std::chrono::milliseconds{row.integer(1)}}});
}

// The channel column of an interaction row: its data's `channel`.
[[nodiscard]] inline std::string_view interaction_channel(const InteractionRecord& record) {
    return std::holds_alternative<SmsInteractionData>(record) ? enum_name(SmsChannel::sms)
                                                              : enum_name(EmailChannel::email);
}

// The direction column of an interaction row.
[[nodiscard]] inline std::string_view interaction_direction(const InteractionRecord& record) {
    return std::visit([](const auto& r) { return enum_name(r.direction); }, record);
}

// The data column of an interaction row: the record as the API shows it.
[[nodiscard]] inline std::string interaction_data(const InteractionRecord& record) {
    return std::visit([](const auto& r) { return write(r); }, record);
}

// A row selected with COLLECTCALL_INTERACTION_COLUMNS.
template <class Row>
InteractionRecord interaction_from_row(const Row& row) {
    const auto data = [&]<class Data>(std::type_identity<Data>) -> InteractionRecord {
        auto parsed = read<Data>(row.text(1), stored_read_options());
        if (!parsed) corrupt("interaction");
        return std::move(parsed).value();
    };
    if (row.text(0) == enum_name(SmsChannel::sms))
        return data(std::type_identity<SmsInteractionData>{});
    if (row.text(0) == enum_name(EmailChannel::email)) {
        return data(std::type_identity<EmailInteractionData>{});
    }
    corrupt("interaction channel");
}

// A row selected with COLLECTCALL_CALL_COLUMNS; the caller adds the call's events.
template <class Row>
CallDetails call_from_row(const Row& row) {
    CallDetails call;
    call.id = parse_column<Uuid>(row.text(0), "call id");
    call.threadId = parse_column<Uuid>(row.text(1), "thread id");
    call.toPhoneNumber = parse_column<E164>(row.text(2), "toPhoneNumber");
    call.fromPhoneNumber = parse_column<E164>(row.text(3), "fromPhoneNumber");
    call.compliance = compliance_from_column(row.text(4));
    call.createdAt = parse_column<Timestamp>(row.text(5), "createdAt");
    call.customerId = parse_column<Uuid>(row.text(6), "customer id");
    call.status = parse_column<CallStatus>(row.text(7), "call status");
    if (!row.is_null(8)) call.endedReason = parse_column<EndedReason>(row.text(8), "endedReason");
    if (!row.is_null(9)) call.durationMs = row.integer(9);
    return call;
}

// A row of `SELECT id, name FROM clients`.
template <class Row>
Client client_from_row(const Row& row) {
    return Client{parse_column<Uuid>(row.text(0), "client id"),
                  parse_column<Text>(row.text(1), "client name")};
}

// A row selected with COLLECTCALL_ANALYSIS_COLUMNS.
template <class Row>
StoredAnalysis analysis_from_row(const Row& row) {
    StoredAnalysis analysis;
    analysis.interaction_id = parse_column<Uuid>(row.text(0), "interaction id");
    analysis.customer_id = parse_column<Uuid>(row.text(1), "customer id");
    analysis.channel = parse_column<Channel>(row.text(2), "analysis channel");
    auto variables = read<OutputVariables>(row.text(3), stored_read_options());
    if (!variables) corrupt("analysis");
    analysis.variables = variables.value();
    analysis.outcomes_applied = row.boolean(4);
    analysis.analysed_at = parse_column<Timestamp>(row.text(5), "analysis createdAt").time();
    return analysis;
}

// A row of `SELECT type, created_at FROM call_events`.
template <class Row>
CallEvent event_from_row(const Row& row) {
    return CallEvent{parse_column<CallEventType>(row.text(0), "event type"),
                     parse_column<Timestamp>(row.text(1), "event createdAt")};
}

}  // namespace collectcall::server
