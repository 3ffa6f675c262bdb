// Interactions (API.md section 13): the SMS and e-mail records of a customer's thread, imported
// one at a time or in bulk, the sandbox's generated messages, and the analysis of an interaction.
// Member names are the hosted service's (SmsImportRequest, SmsInteractionData, EmailImportRequest,
// EmailInteractionData, ...); a member its answers declare without `nullable` is left out when it
// has no value (Patch), and the answers add the message's own text as extension members.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/interaction/analysis.hpp"
#include "collectcall/interaction/message_writer.hpp"
#include "collectcall/interaction/sms_segments.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/detail/item_result_schema.hpp"
#include "collectcall/model/webhook.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/email.hpp"
#include "collectcall/types/message.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

enum class InteractionDirection { inbound, outbound };
BOOST_DESCRIBE_ENUM(InteractionDirection, inbound, outbound)

// The channel member of an SMS or an e-mail record: a single value each, as the hosted schemas.
enum class SmsChannel { sms };
BOOST_DESCRIBE_ENUM(SmsChannel, sms)
enum class EmailChannel { email };
BOOST_DESCRIBE_ENUM(EmailChannel, email)

// Items of one bulk import (the hosted service's limit).
inline constexpr std::size_t max_import_items = 100;
// Addresses in each of an e-mail's to, cc and bcc.
inline constexpr std::size_t max_email_recipients = 50;

namespace detail {

// A member of an object schema defaults to `value` when absent (or null).
inline void member_default(SchemaBuilder& s, std::string_view member, Json value) {
    if (Json* properties = s.schema().find("properties")) {
        if (Json* schema = properties->find(member)) (*schema)["default"] = std::move(value);
    }
}

}  // namespace detail

// ---- Threads -----------------------------------------------------------------------------------

// A threadId given to an import or a generated message must name a thread of the customer's own
// (API.md section 17): the customer's thread (one per customer, shared by its calls: API.md
// section 8), or a thread the customer's stored SMS and e-mails already use (those imported with
// a threadId of their own before the rule). Any other, another customer's or one never used, is
// this detail: `not_found` at /threadId (relative to its item in a bulk, as every item's details).
[[nodiscard]] inline Error foreign_thread_error() {
    return Error{"/threadId", std::string(codes::not_found), "is not a thread of this customer"};
}

// ---- SMS ---------------------------------------------------------------------------------------

// POST /customers/{id}/interactions/sms/import. Without threadId the SMS joins the customer's
// thread, and with one it must be a thread of the customer's (foreign_thread_error); without
// segments, the count is computed from the body (sms::segments).
struct SmsImportRequest {
    InteractionDirection direction = InteractionDirection::inbound;
    PastTimestamp timestamp;
    E164 from;
    E164 to;
    SmsBody body;
    std::optional<Uuid> threadId;
    std::optional<SegmentCount> segments;

    friend bool operator==(const SmsImportRequest&, const SmsImportRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(SmsImportRequest, (),
                      (direction, timestamp, from, to, body, threadId, segments))

// A stored SMS as the API returns it: the hosted SmsInteractionData, then from, to, body and
// segments (extension).
struct SmsInteractionData {
    Uuid id;
    Uuid threadId;
    SmsChannel channel = SmsChannel::sms;
    InteractionDirection direction = InteractionDirection::inbound;
    Uuid customerId;
    Timestamp timestamp;
    Timestamp createdAt;
    E164 from;
    E164 to;
    SmsBody body;
    SegmentCount segments;

    friend bool operator==(const SmsInteractionData&, const SmsInteractionData&) = default;
};
BOOST_DESCRIBE_STRUCT(SmsInteractionData, (),
                      (id, threadId, channel, direction, customerId, timestamp, createdAt, from, to,
                       body, segments))

inline void collectcall_schema(schema_tag<SmsInteractionData>, SchemaBuilder& s) {
    s["description"] =
        "A stored SMS: the hosted SmsInteractionData, and (extension) from, to, body and "
        "segments.";
}

// The record of an imported SMS: the request's threadId or else `customer_thread`, the request's
// segments or else the count a carrier would make of the body.
[[nodiscard]] inline SmsInteractionData sms_interaction(const SmsImportRequest& request,
                                                        const Uuid& id, const Uuid& customer_id,
                                                        const Uuid& customer_thread,
                                                        const Timestamp& created_at) {
    SmsInteractionData out;
    out.id = id;
    out.threadId = request.threadId.value_or(customer_thread);
    out.direction = request.direction;
    out.customerId = customer_id;
    out.timestamp = request.timestamp.timestamp();
    out.createdAt = created_at;
    out.from = request.from;
    out.to = request.to;
    out.body = request.body;
    out.segments = request.segments ? *request.segments
                                    : SegmentCount::of(static_cast<std::uint32_t>(
                                          sms::segments(request.body.view()).count));
    return out;
}

// ---- E-mail ------------------------------------------------------------------------------------

// POST /customers/{id}/interactions/email/import. cc and bcc absent or null are empty lists; at
// least one of plainTextBody and htmlBody must have content (a character that is not white space;
// `conflict` otherwise). threadId, a string in the hosted request, must be a UUID here: it is one
// in every answer.
struct EmailImportRequest {
    InteractionDirection direction = InteractionDirection::inbound;
    PastTimestamp timestamp;
    Email from;
    BoundedVector<Email, 1, max_email_recipients> to;
    std::optional<BoundedVector<Email, 0, max_email_recipients>> cc;
    std::optional<BoundedVector<Email, 0, max_email_recipients>> bcc;
    Text subject;
    std::optional<EmailBody> plainTextBody;
    std::optional<EmailBody> htmlBody;
    std::optional<Uuid> threadId;
    std::optional<Text> messageId;

    friend bool operator==(const EmailImportRequest&, const EmailImportRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(EmailImportRequest, (),
                      (direction, timestamp, from, to, cc, bcc, subject, plainTextBody, htmlBody,
                       threadId, messageId))

// The rule "at least one of plainTextBody and htmlBody has content": where its `conflict` is
// reported (the first of them that is present, else the e-mail itself), and its message.
inline constexpr std::string_view email_body_conflict_message =
    "plainTextBody or htmlBody must have content";

// Applied by read<EmailImportRequest>. A body that is present but invalid has its own error
// already, and then the rule is not judged.
inline void collectcall_check(const EmailImportRequest& email, const MemberStates& members,
                              RuleErrors& errors) {
    using E = EmailImportRequest;
    if (members.failed<&E::plainTextBody>() || members.failed<&E::htmlBody>()) return;
    const bool content = (email.plainTextBody && email.plainTextBody->has_content()) ||
                         (email.htmlBody && email.htmlBody->has_content());
    if (content) return;
    if (members.present<&E::plainTextBody>()) {
        errors.member_error<&E::plainTextBody>(codes::conflict, email_body_conflict_message);
    } else if (members.present<&E::htmlBody>()) {
        errors.member_error<&E::htmlBody>(codes::conflict, email_body_conflict_message);
    } else {
        errors.error(codes::conflict, email_body_conflict_message);
    }
}

inline void collectcall_schema(schema_tag<EmailImportRequest>, SchemaBuilder& s) {
    s["description"] =
        "An e-mail to import. At least one of plainTextBody and htmlBody must have content, a "
        "character that is not white space (a `conflict` error otherwise). cc and bcc absent or "
        "null are empty lists.";
    Json any = Json::array();
    for (std::string_view body : {member_name<&EmailImportRequest::plainTextBody>,
                                  member_name<&EmailImportRequest::htmlBody>}) {
        Json one = Json::object();
        one["required"] = Json::array({body});
        one["properties"][body]["type"] = "string";
        one["properties"][body]["pattern"] = schema_patterns::text_visible;
        any.push_back(std::move(one));
    }
    s["anyOf"] = std::move(any);
    detail::member_default(s, member_name<&EmailImportRequest::cc>, Json::array());
    detail::member_default(s, member_name<&EmailImportRequest::bcc>, Json::array());
}

// A stored e-mail as the API returns it: the hosted EmailInteractionData (messageId left out when
// there is none), then the addresses, subject and bodies (extension; a body left out when there
// is none).
struct EmailInteractionData {
    Uuid id;
    Patch<Text> messageId;
    Uuid threadId;
    EmailChannel channel = EmailChannel::email;
    InteractionDirection direction = InteractionDirection::inbound;
    Uuid customerId;
    Timestamp timestamp;
    Timestamp createdAt;
    Email from;
    std::vector<Email> to;
    std::vector<Email> cc;
    std::vector<Email> bcc;
    Text subject;
    Patch<EmailBody> plainTextBody;
    Patch<EmailBody> htmlBody;

    friend bool operator==(const EmailInteractionData&, const EmailInteractionData&) = default;
};
BOOST_DESCRIBE_STRUCT(EmailInteractionData, (),
                      (id, messageId, threadId, channel, direction, customerId, timestamp,
                       createdAt, from, to, cc, bcc, subject, plainTextBody, htmlBody))

inline void collectcall_schema(schema_tag<EmailInteractionData>, SchemaBuilder& s) {
    s["description"] =
        "A stored e-mail: the hosted EmailInteractionData, and (extension) its addresses, subject "
        "and bodies. messageId and a body without a value are left out.";
}

// The record of an imported e-mail: the request's threadId or else `customer_thread`.
[[nodiscard]] inline EmailInteractionData email_interaction(const EmailImportRequest& request,
                                                            const Uuid& id, const Uuid& customer_id,
                                                            const Uuid& customer_thread,
                                                            const Timestamp& created_at) {
    EmailInteractionData out;
    out.id = id;
    if (request.messageId) out.messageId = *request.messageId;
    out.threadId = request.threadId.value_or(customer_thread);
    out.direction = request.direction;
    out.customerId = customer_id;
    out.timestamp = request.timestamp.timestamp();
    out.createdAt = created_at;
    out.from = request.from;
    out.to.assign(request.to.begin(), request.to.end());
    if (request.cc) out.cc.assign(request.cc->begin(), request.cc->end());
    if (request.bcc) out.bcc.assign(request.bcc->begin(), request.bcc->end());
    out.subject = request.subject;
    if (request.plainTextBody) out.plainTextBody = *request.plainTextBody;
    if (request.htmlBody) out.htmlBody = *request.htmlBody;
    return out;
}

// ---- Bulk imports ------------------------------------------------------------------------------

// {interactions: [1..100]}: each item carries its own verdict, and is stored on its own.
template <class Item>
struct ImportBulkRequest {
    BoundedVector<Validated<Item>, 1, max_import_items> interactions;

    friend bool operator==(const ImportBulkRequest&, const ImportBulkRequest&) = default;
    BOOST_DESCRIBE_CLASS(ImportBulkRequest, (), (interactions), (), ())
};
using SmsImportBulkRequest = ImportBulkRequest<SmsImportRequest>;
using EmailImportBulkRequest = ImportBulkRequest<EmailImportRequest>;
inline std::string collectcall_schema_name(schema_tag<SmsImportBulkRequest>) {
    return "SmsImportBulkRequest";
}
inline std::string collectcall_schema_name(schema_tag<EmailImportBulkRequest>) {
    return "EmailImportBulkRequest";
}

// Imported: {success: true, interaction}. Failed: {success: false, index, error, details}, where
// error is the summary of the item's errors (validation_failure_summary) and details (extension)
// are all of them, with paths relative to the item.
template <class Data>
struct ImportItemResult {
    bool success = false;
    Patch<Data> interaction;
    Patch<std::int64_t> index;
    Patch<std::string> error;
    Patch<std::vector<Error>> details;

    friend bool operator==(const ImportItemResult&, const ImportItemResult&) = default;
    BOOST_DESCRIBE_CLASS(ImportItemResult, (), (success, interaction, index, error, details), (),
                         ())
};

template <class Data>
void collectcall_schema(schema_tag<ImportItemResult<Data>>, SchemaBuilder& s) {
    detail::success_or_failure(s, {"interaction"}, {"index", "error"});
}
inline std::string collectcall_schema_name(schema_tag<ImportItemResult<SmsInteractionData>>) {
    return "SmsImportItemResult";
}
inline std::string collectcall_schema_name(schema_tag<ImportItemResult<EmailInteractionData>>) {
    return "EmailImportItemResult";
}

// {summary: {total, succeeded, failed}, results}, in request order.
template <class Data>
struct ImportBulkResult {
    BulkSummary summary;
    std::vector<ImportItemResult<Data>> results;

    // The next item was imported.
    void add_imported(Data interaction) {
        ImportItemResult<Data>& item = results.emplace_back();
        item.success = true;
        item.interaction = std::move(interaction);
        ++summary.succeeded;
        summary.total = static_cast<std::int64_t>(results.size());
    }
    // The next item (at `index` of the request) failed: invalid, with its errors, or refused for
    // `error` (e.g. by the store), without details.
    void add_failed(std::size_t index, std::string error, std::vector<Error> details = {}) {
        ImportItemResult<Data>& item = results.emplace_back();
        item.success = false;
        item.index = static_cast<std::int64_t>(index);
        item.error = std::move(error);
        if (!details.empty()) item.details = std::move(details);
        ++summary.failed;
        summary.total = static_cast<std::int64_t>(results.size());
    }
    void add_invalid(std::size_t index, ErrorList errors) {
        std::string summary_text = validation_failure_summary(errors);
        add_failed(index, std::move(summary_text), std::move(errors));
    }

    friend bool operator==(const ImportBulkResult&, const ImportBulkResult&) = default;
    BOOST_DESCRIBE_CLASS(ImportBulkResult, (), (summary, results), (), ())
};
using SmsImportBulkResult = ImportBulkResult<SmsInteractionData>;
using EmailImportBulkResult = ImportBulkResult<EmailInteractionData>;
inline std::string collectcall_schema_name(schema_tag<SmsImportBulkResult>) {
    return "SmsImportBulkResult";
}
inline std::string collectcall_schema_name(schema_tag<EmailImportBulkResult>) {
    return "EmailImportBulkResult";
}

// ---- Generated messages ------------------------------------------------------------------------

// POST /customers/{id}/interactions/sms/generate. persist absent or null is true; persisting
// needs `to` (a 422 with the hosted text otherwise: sms_to_required_message).
struct SmsGenerateRequest {
    E164 from;
    std::optional<E164> to;
    std::optional<bool> persist;
    std::optional<Uuid> threadId;

    [[nodiscard]] bool persists() const noexcept { return persist.value_or(true); }

    friend bool operator==(const SmsGenerateRequest&, const SmsGenerateRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(SmsGenerateRequest, (), (from, to, persist, threadId))

inline void collectcall_schema(schema_tag<SmsGenerateRequest>, SchemaBuilder& s) {
    s["description"] =
        "persist (default true) stores the generated SMS as an outbound interaction; then `to` "
        "is required (422 otherwise).";
    detail::member_default(s, member_name<&SmsGenerateRequest::persist>, true);
}

inline constexpr std::string_view sms_to_required_message =
    "The 'to' field is required when persist is true";

// Whether the request asks to persist an SMS without saying where it goes.
[[nodiscard]] inline bool lacks_recipient(const SmsGenerateRequest& request) noexcept {
    return request.persists() && !request.to.has_value();
}

// POST /customers/{id}/interactions/email/generate. persist absent or null is true.
struct EmailGenerateRequest {
    std::optional<bool> persist;
    std::optional<Uuid> threadId;

    [[nodiscard]] bool persists() const noexcept { return persist.value_or(true); }

    friend bool operator==(const EmailGenerateRequest&, const EmailGenerateRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(EmailGenerateRequest, (), (persist, threadId))

inline void collectcall_schema(schema_tag<EmailGenerateRequest>, SchemaBuilder& s) {
    s["description"] =
        "persist (default true) stores the generated e-mail as an outbound interaction.";
    detail::member_default(s, member_name<&EmailGenerateRequest::persist>, true);
}

// The answers: threadId only when the message was persisted.
struct SmsGenerateResult {
    std::string message;
    Patch<Uuid> threadId;

    friend bool operator==(const SmsGenerateResult&, const SmsGenerateResult&) = default;
};
BOOST_DESCRIBE_STRUCT(SmsGenerateResult, (), (message, threadId))

inline void collectcall_schema(schema_tag<SmsGenerateResult>, SchemaBuilder& s) {
    s["description"] = "threadId is present only when the message was persisted.";
}

struct EmailGenerateResult {
    std::string htmlBody;
    std::string plainTextBody;
    Patch<Uuid> threadId;

    friend bool operator==(const EmailGenerateResult&, const EmailGenerateResult&) = default;
};
BOOST_DESCRIBE_STRUCT(EmailGenerateResult, (), (htmlBody, plainTextBody, threadId))

inline void collectcall_schema(schema_tag<EmailGenerateResult>, SchemaBuilder& s) {
    s["description"] = "threadId is present only when the e-mail was persisted.";
}

// The data of a 422 compliance_failed of a generated SMS that was to be sent: the message that
// was written, the compliance that kept it from being sent, and the first instant at which it
// could be (null when no time will do; API.md section 14) (extension).
struct SmsGenerateBlocked {
    std::string message;
    ComplianceResult compliance;
    std::optional<Timestamp> nextEligibleAt;

    friend bool operator==(const SmsGenerateBlocked&, const SmsGenerateBlocked&) = default;
};
BOOST_DESCRIBE_STRUCT(SmsGenerateBlocked, (), (message, compliance, nextEligibleAt))

// The same for a generated e-mail that was to be sent (API.md section 16: e-mail passes the
// gate): its two bodies, the compliance that kept it from being sent, its next eligible time.
struct EmailGenerateBlocked {
    std::string htmlBody;
    std::string plainTextBody;
    ComplianceResult compliance;
    std::optional<Timestamp> nextEligibleAt;

    friend bool operator==(const EmailGenerateBlocked&, const EmailGenerateBlocked&) = default;
};
BOOST_DESCRIBE_STRUCT(EmailGenerateBlocked, (),
                      (htmlBody, plainTextBody, compliance, nextEligibleAt))

// The record of a generated SMS that is persisted: outbound, from the request's `from` to its
// `to` (lacks_recipient(request) is false), at `now`, one segment or more as a carrier counts.
[[nodiscard]] inline SmsInteractionData generated_sms_interaction(
    const SmsGenerateRequest& request, std::string_view message, const Uuid& id,
    const Uuid& customer_id, const Uuid& thread, const Timestamp& now) {
    SmsImportRequest sms;
    sms.direction = InteractionDirection::outbound;
    sms.timestamp = PastTimestamp::from_timestamp(now);
    sms.from = request.from;
    sms.to = request.to.value_or(E164{});
    sms.body = SmsBody::parse(message).value();
    sms.threadId = thread;
    return sms_interaction(sms, id, customer_id, thread, now);
}

// The record of a generated e-mail that is persisted: outbound, from message_writer's sender to
// the customer's address, with its subject, at `now`.
[[nodiscard]] inline EmailInteractionData generated_email_interaction(
    const EmailDraft& draft, const Email& to, const Uuid& id, const Uuid& customer_id,
    const Uuid& thread, const Timestamp& now) {
    EmailInteractionData out;
    out.id = id;
    out.threadId = thread;
    out.direction = InteractionDirection::outbound;
    out.customerId = customer_id;
    out.timestamp = now;
    out.createdAt = now;
    out.from = Email::parse(message_writer::email_sender).value();
    out.to.push_back(to);
    out.subject = Text::parse(message_writer::email_subject).value();
    out.plainTextBody = EmailBody::parse(draft.plainTextBody).value();
    out.htmlBody = EmailBody::parse(draft.htmlBody).value();
    return out;
}

// ---- Analysis ----------------------------------------------------------------------------------

// POST /interactions/{id}/analyze: applyOutcomes absent or null is true.
struct AnalyzeInteractionRequest {
    std::optional<bool> applyOutcomes;

    [[nodiscard]] bool applies_outcomes() const noexcept { return applyOutcomes.value_or(true); }

    friend bool operator==(const AnalyzeInteractionRequest&,
                           const AnalyzeInteractionRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(AnalyzeInteractionRequest, (), (applyOutcomes))

inline void collectcall_schema(schema_tag<AnalyzeInteractionRequest>, SchemaBuilder& s) {
    s["description"] =
        "applyOutcomes (default true) applies the outcomes to the customer: a written stop "
        "request sets cease-and-desist, and so on (docs/interactions.md).";
    detail::member_default(s, member_name<&AnalyzeInteractionRequest::applyOutcomes>, true);
}

// The hosted text of an interaction with nothing to analyse (an unanswered call).
inline constexpr std::string_view analysis_skipped_message = "Analysis was skipped.";
inline constexpr std::string_view interaction_not_found_message = "Interaction not found";

// The customer's words in an interaction, which the analyser reads and the message writer answers:
// an inbound SMS's body, an inbound e-mail's plain text (else its HTML), a call's turns of the
// customer. None (nothing to analyse: analysis_skipped_message) for an outbound message, which
// holds the collector's words, and for a call the customer did not speak in.
[[nodiscard]] inline std::vector<std::string_view> customer_words(const SmsInteractionData& sms) {
    if (sms.direction != InteractionDirection::inbound) return {};
    return {sms.body.view()};
}
[[nodiscard]] inline std::vector<std::string_view> customer_words(
    const EmailInteractionData& email) {
    if (email.direction != InteractionDirection::inbound) return {};
    if (email.plainTextBody.has_value() && email.plainTextBody.value().has_content())
        return {email.plainTextBody.value().view()};
    if (email.htmlBody.has_value()) return {email.htmlBody.value().view()};
    return {};
}
[[nodiscard]] inline std::vector<std::string_view> customer_words(
    const std::vector<TranscriptMessage>& transcript) {
    std::vector<std::string_view> out;
    for (const TranscriptMessage& turn : transcript) {
        if (turn.role == MessageRole::user) out.push_back(turn.message);
    }
    return out;
}

// What an analysis records on its customer when its outcomes are applied (API.md sections 13,
// 14 and 16). A stop request restricts the media it names (12 CFR 1006.14(h)); one that names
// none is, made in writing (SMS, e-mail), a cease-and-desist (15 U.S.C. 1692c(c)), and made in a
// call a restriction of every medium (calls, texts, e-mail): the consumer said it aloud, and a
// spoken request is not the written notice of 1692c(c). Attorney representation
// (15 U.S.C. 1692c(a)(2)) and a dispute are recorded whatever the channel. The other variables
// (a follow-up asked for, a payment promised) record nothing.
struct CustomerOutcomes {
    bool cease_and_desist = false;
    RestrictedMedia restricted;  // the media to restrict (added to those already restricted)
    bool attorney_represented = false;
    bool disputed = false;

    friend bool operator==(const CustomerOutcomes&, const CustomerOutcomes&) = default;
};

// `stop` is the stop request of the same words (stop_request), read only when the variables
// have stop-requests.
[[nodiscard]] inline CustomerOutcomes outcomes_of(const OutputVariables& variables,
                                                  const StopRequest& stop, Channel channel) {
    CustomerOutcomes out;
    if (variables.stop_requests) {
        if (stop.call) out.restricted.add(ContactChannel::call);
        if (stop.sms) out.restricted.add(ContactChannel::sms);
        if (stop.email) out.restricted.add(ContactChannel::email);
        if (stop.general && channel == Channel::voice) {
            for (ContactChannel medium : enum_values<ContactChannel>)
                out.restricted.add(medium);
        }
        out.cease_and_desist = stop.general && channel != Channel::voice;
    }
    out.attorney_represented = variables.attorney_represented;
    out.disputed = variables.dispute;
    return out;
}

// The standing after `outcomes` are recorded: they only ever add (a stop request is never
// withdrawn by an analysis).
[[nodiscard]] inline Standing with_outcomes(Standing standing, const CustomerOutcomes& outcomes) {
    standing.restrictedMedia.add(outcomes.restricted);
    standing.ceaseAndDesist = standing.ceaseAndDesist || outcomes.cease_and_desist;
    standing.attorneyRepresented = standing.attorneyRepresented || outcomes.attorney_represented;
    standing.disputed = standing.disputed || outcomes.disputed;
    return standing;
}

// Whether an imported SMS restricts texts on receipt (API.md section 16, every policy): an
// inbound message whose whole body is an opt-out keyword (analysis::is_opt_out_keyword), as a
// carrier would honour it, analysed or not.
[[nodiscard]] inline bool opts_out_on_receipt(const SmsInteractionData& sms) {
    return sms.direction == InteractionDirection::inbound &&
           analysis::is_opt_out_keyword(sms.body.view());
}

struct AnalyzeInteractionResult {
    Uuid interactionId;
    Channel channel = Channel::sms;
    OutputVariables outputVariables;

    friend bool operator==(const AnalyzeInteractionResult&,
                           const AnalyzeInteractionResult&) = default;
};
BOOST_DESCRIBE_STRUCT(AnalyzeInteractionResult, (), (interactionId, channel, outputVariables))

// ---- A customer's interactions -----------------------------------------------------------------

// One interaction of GET /customers/{id}/interactions (extension): its channel, when it happened
// (an SMS's or e-mail's timestamp, a call's createdAt), and the record under the member of its
// channel: `sms`, `email`, or `call` with the call's `transcript` once it has ended.
struct CustomerInteraction {
    Channel channel = Channel::sms;
    Timestamp timestamp;
    Patch<SmsInteractionData> sms;
    Patch<EmailInteractionData> email;
    Patch<CallDetails> call;
    Patch<std::vector<TranscriptMessage>> transcript;

    friend bool operator==(const CustomerInteraction&, const CustomerInteraction&) = default;
};
BOOST_DESCRIBE_STRUCT(CustomerInteraction, (), (channel, timestamp, sms, email, call, transcript))

inline void collectcall_schema(schema_tag<CustomerInteraction>, SchemaBuilder& s) {
    s["description"] =
        "One interaction of the customer: its channel, when it happened, and its record under "
        "the member of that channel (sms, email, or call with the call's transcript once it "
        "has ended); the other members are left out.";
}

// Every interaction of a customer (calls, SMS, e-mail), newest first.
struct InteractionList {
    std::vector<CustomerInteraction> interactions;
    // The cursor of the next page (api/page.hpp); null on the last page.
    std::optional<std::string> nextCursor;

    void add(SmsInteractionData sms) {
        CustomerInteraction& item = interactions.emplace_back();
        item.channel = Channel::sms;
        item.timestamp = sms.timestamp;
        item.sms = std::move(sms);
    }
    void add(EmailInteractionData email) {
        CustomerInteraction& item = interactions.emplace_back();
        item.channel = Channel::email;
        item.timestamp = email.timestamp;
        item.email = std::move(email);
    }
    void add(CallDetails call, std::optional<std::vector<TranscriptMessage>> transcript) {
        CustomerInteraction& item = interactions.emplace_back();
        item.channel = Channel::voice;
        item.timestamp = call.createdAt;
        item.call = std::move(call);
        if (transcript) item.transcript = std::move(*transcript);
    }
    // Newest first; interactions of the same instant keep the order they were added in.
    void sort_newest_first() {
        std::stable_sort(interactions.begin(), interactions.end(),
                         [](const CustomerInteraction& a, const CustomerInteraction& b) {
                             return a.timestamp.time() > b.timestamp.time();
                         });
    }

    friend bool operator==(const InteractionList&, const InteractionList&) = default;
};
BOOST_DESCRIBE_STRUCT(InteractionList, (), (interactions, nextCursor))

}  // namespace collectcall
