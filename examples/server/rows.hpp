// The rows of the stores, written once for both backends: the row structs that customers,
// calls, interactions, clients and analyses are selected and inserted with (their columns, the
// reading of a row and the binding of an insert come from their descriptions: sql/row.hpp), and
// how such a row becomes a model.
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
#include "sql/row.hpp"
#include "store.hpp"

namespace collectcall::server {

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

// A customer's row as it is selected.
struct CustomerRow {
    Uuid id;
    std::string body;  // the CustomerCreate, as write() makes it
    Uuid thread_id;
    bool active = true;
    bool cease_and_desist = false;
    Timestamp created_at;
    Timestamp updated_at;
    std::int64_t restricted_media = 0;  // RestrictedMedia's bits
    bool attorney_represented = false;
    bool disputed = false;
};
BOOST_DESCRIBE_STRUCT(CustomerRow, (),
                      (id, body, thread_id, active, cease_and_desist, created_at, updated_at,
                       restricted_media, attorney_represented, disputed))

// A customer's row as it is inserted, its texts read where they lie.
struct CustomerInsert {
    std::string_view id;
    std::string_view account_id;
    std::string_view external_id;
    std::string_view thread_id;
    bool active = true;
    bool cease_and_desist = false;
    std::string_view body;
    std::string_view created_at;
    std::string_view updated_at;
};
BOOST_DESCRIBE_STRUCT(CustomerInsert, (),
                      (id, account_id, external_id, thread_id, active, cease_and_desist, body,
                       created_at, updated_at))

// A customer from its row (CustomerRow's columns).
template <class Row>
StoredCustomer customer_from_row(const Row& selected) {
    CustomerRow row = sql::read_row<CustomerRow>(selected);
    StoredCustomer stored;
    auto body = read<CustomerCreate>(row.body, stored_read_options());
    if (!body) corrupt("customer");
    static_cast<CustomerCreate&>(stored.customer) = std::move(body).value();
    stored.customer.id = row.id;
    stored.thread_id = row.thread_id;
    stored.active = row.active;
    stored.cease_and_desist = row.cease_and_desist;
    stored.customer.createdAt = std::move(row.created_at);
    stored.customer.updatedAt = std::move(row.updated_at);
    const auto media = RestrictedMedia::from_bits(static_cast<unsigned>(row.restricted_media));
    if (!media) corrupt("restricted media");
    stored.customer.restrictedMedia = *media;
    stored.customer.attorneyRepresented = row.attorney_represented;
    stored.customer.disputed = row.disputed;
    return stored;
}

// An account's settings as its row keeps them (AccountSettings, but the caller numbers).
struct SettingsRow {
    std::int64_t window_start_minutes = 0;
    std::int64_t window_end_minutes = 0;
    std::int64_t max_calls_per_day = 0;
    CompliancePolicy compliance_policy = CompliancePolicy::hosted;
};
BOOST_DESCRIBE_STRUCT(SettingsRow, (),
                      (window_start_minutes, window_end_minutes, max_calls_per_day,
                       compliance_policy))

// The settings of a row of SettingsRow's columns.
template <class Row>
void settings_from_row(const Row& selected, AccountSettings& settings) {
    const SettingsRow row = sql::read_row<SettingsRow>(selected);
    settings.window = compliance::RespectfulHours{std::chrono::minutes{row.window_start_minutes},
                                                  std::chrono::minutes{row.window_end_minutes}};
    settings.max_calls_per_day = static_cast<unsigned>(row.max_calls_per_day);
    settings.policy = row.compliance_policy;
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

// A row of drip_campaigns; steps as write() makes them.
struct CampaignRow {
    std::string name;
    std::string steps;
};
BOOST_DESCRIBE_STRUCT(CampaignRow, (), (name, steps))

template <class Row>
DripCampaignDefinition campaign_from_row(const Row& selected) {
    CampaignRow row = sql::read_row<CampaignRow>(selected);
    DripCampaignDefinition out;
    out.name = std::move(row.name);
    auto steps = read<std::vector<DripStepDefinition>>(row.steps, stored_read_options());
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

// An SMS or e-mail interaction's row as it is selected.
struct InteractionRow {
    std::string channel;
    std::string data;  // the record as the API shows it
};
BOOST_DESCRIBE_STRUCT(InteractionRow, (), (channel, data))

// An interaction's row as it is inserted.
struct InteractionInsert {
    std::string_view id;
    std::string_view account_id;
    std::string_view customer_id;
    std::string_view thread_id;
    std::string_view channel;
    std::string_view direction;
    std::int64_t timestamp_ms = 0;
    std::string data;
    std::string_view created_at;
};
BOOST_DESCRIBE_STRUCT(InteractionInsert, (),
                      (id, account_id, customer_id, thread_id, channel, direction, timestamp_ms,
                       data, created_at))

template <class Row>
InteractionRecord interaction_from_row(const Row& selected) {
    const InteractionRow row = sql::read_row<InteractionRow>(selected);
    const auto data = [&]<class Data>(std::type_identity<Data>) -> InteractionRecord {
        auto parsed = read<Data>(row.data, stored_read_options());
        if (!parsed) corrupt("interaction");
        return std::move(parsed).value();
    };
    if (row.channel == enum_name(SmsChannel::sms))
        return data(std::type_identity<SmsInteractionData>{});
    if (row.channel == enum_name(EmailChannel::email)) {
        return data(std::type_identity<EmailInteractionData>{});
    }
    corrupt("interaction channel");
}

// A call's row as it is selected (its events are another table's): the columns of the call as
// placed, after those the dialer sets when it ends it (CallEnd's).
struct CallRow : CallEnd {
    Uuid id;
    Uuid thread_id;
    E164 to_number;
    E164 from_number;
    std::string compliance;  // compliance_column
    Timestamp created_at;
    Uuid customer_id;
};
BOOST_DESCRIBE_STRUCT(CallRow, (CallEnd),
                      (id, thread_id, to_number, from_number, compliance, created_at, customer_id))

// A call from its row; the caller adds the call's events.
inline CallDetails call_from_row(CallRow row) {
    CallDetails call;
    call.id = row.id;
    call.threadId = row.thread_id;
    call.toPhoneNumber = std::move(row.to_number);
    call.fromPhoneNumber = std::move(row.from_number);
    call.compliance = compliance_from_column(row.compliance);
    call.createdAt = std::move(row.created_at);
    call.customerId = row.customer_id;
    sql::assign_members(static_cast<const CallEnd&>(row), call);
    return call;
}

// A client's row as it is selected.
struct ClientsRow {
    Uuid id;
    decltype(Client::name) name;
};
BOOST_DESCRIBE_STRUCT(ClientsRow, (), (id, name))

inline Client client_from_row(ClientsRow row) {
    return Client{row.id, std::move(row.name)};
}

// An analysis's row as it is selected.
struct AnalysisRow {
    Uuid interaction_id;
    Uuid customer_id;
    Channel channel = Channel::sms;
    std::string variables;  // OutputVariables, as write() makes them
    bool outcomes_applied = false;
    Timestamp created_at;
};
BOOST_DESCRIBE_STRUCT(AnalysisRow, (),
                      (interaction_id, customer_id, channel, variables, outcomes_applied,
                       created_at))

inline StoredAnalysis analysis_from_row(const AnalysisRow& row) {
    StoredAnalysis analysis;
    analysis.interaction_id = row.interaction_id;
    analysis.customer_id = row.customer_id;
    analysis.channel = row.channel;
    auto variables = read<OutputVariables>(row.variables, stored_read_options());
    if (!variables) corrupt("analysis");
    analysis.variables = variables.value();
    analysis.outcomes_applied = row.outcomes_applied;
    analysis.analysed_at = row.created_at.time();
    return analysis;
}

// A call event's row as it is selected.
struct EventRow {
    CallEventType type = CallEventType::call_created;
    Timestamp created_at;
};
BOOST_DESCRIBE_STRUCT(EventRow, (), (type, created_at))

inline CallEvent event_from_row(EventRow row) {
    return CallEvent{row.type, std::move(row.created_at)};
}

}  // namespace collectcall::server
