// Samples of every answer of the operations of API.md section 13, written by the library as the
// server will write them (in the envelope), for hosted_models.py, which validates each against the
// hosted service's own component schema; and the texts API.md quotes from the hosted service,
// which it compares with the hosted document's examples.
//
// Output lines:
//   {"kind":"sample","schema":"<hosted component>","name":...,"document":{...}}
//   {"kind":"text","path":"<hosted path>","status":"<status>","text":...}
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <collectcall/collectcall.hpp>

using namespace collectcall;

namespace {

const Uuid request_id = Uuid::parse("9f1e2d3c-4b5a-4697-8877-665544332211").value();
const Uuid customer = Uuid::parse("7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a").value();
const Uuid thread = Uuid::parse("1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f").value();
const Uuid interaction = Uuid::parse("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e").value();
const Timestamp created = Timestamp::parse("2026-11-20T15:00:00Z").value();

ReadOptions options() {
    using namespace std::chrono;
    ReadOptions o;
    o.today = sys_days{year{2026} / November / 20};
    o.now = sys_days{year{2026} / November / 20} + hours{15};
    return o;
}

template <class T>
T must_read(std::string_view json) {
    Result<T> result = read<T>(json, options());
    if (!result.ok()) {
        std::cerr << "hosted_samples: an example does not read: " << json << "\n";
        std::exit(1);
    }
    return std::move(result).value();
}

void emit_sample(std::string_view schema, std::string_view name, std::string document) {
    Json line = Json::object();
    line["kind"] = "sample";
    line["schema"] = schema;
    line["name"] = name;
    line["document"] = Json::raw(std::move(document));
    std::cout << line.dump() << '\n';
}

// An answer, in the envelope.
template <class T>
void sample(std::string_view schema, std::string_view name, const T& data) {
    emit_sample(schema, name, write(Envelope<T>{request_id, true, data}));
}

// A webhook body: sent as it is, not in the envelope.
template <class T>
void body_sample(std::string_view schema, std::string_view name, const T& body) {
    emit_sample(schema, name, write(body));
}

void text(std::string_view path, std::string_view status, std::string_view value) {
    Json line = Json::object();
    line["kind"] = "text";
    line["path"] = path;
    line["status"] = status;
    line["text"] = value;
    std::cout << line.dump() << '\n';
}

}  // namespace

int main() {
    namespace x = openapi_examples;

    // SMS imports.
    const auto sms_request = must_read<SmsImportRequest>(x::sms_import);
    const SmsInteractionData sms =
        sms_interaction(sms_request, interaction, customer, thread, created);
    sample("SmsImportResponse", "imported", sms);
    SmsImportBulkResult sms_bulk;
    sms_bulk.add_imported(sms);
    auto bulk_request = read<SmsImportBulkRequest>(
        R"({"interactions":[{"direction":"outbound","timestamp":"2026-11-20T14:00:00Z",)"
        R"("from":"+1","to":"+15125550100","body":""}]})",
        options());
    sms_bulk.add_invalid(1, std::move(bulk_request.value().interactions[0]).errors());
    sms_bulk.add_failed(2, "Customer not found");
    sample("SmsImportBulkResponse", "partial", sms_bulk);
    sample("SmsImportBulkResponse", "empty", SmsImportBulkResult{});

    // E-mail imports, with and without the optional members.
    auto email_request = must_read<EmailImportRequest>(x::email_import);
    const EmailInteractionData email =
        email_interaction(email_request, interaction, customer, thread, created);
    sample("EmailImportResponse", "imported", email);
    email_request.messageId.reset();
    email_request.plainTextBody.reset();
    email_request.htmlBody = EmailBody::parse("<p>Hello</p>").value();
    const EmailInteractionData bare =
        email_interaction(email_request, interaction, customer, thread, created);
    sample("EmailImportResponse", "without messageId", bare);
    EmailImportBulkResult email_bulk;
    email_bulk.add_imported(email);
    email_bulk.add_imported(bare);
    email_bulk.add_failed(2, std::string(email_body_conflict_message));
    sample("EmailImportBulkResponse", "partial", email_bulk);

    // Generated messages, persisted or not.
    CustomerCreate someone = must_read<CustomerCreate>(x::customer_create_collections);
    const MessageFacts facts = message_facts(someone);
    sample("SmsGenerateResponse", "persisted",
           SmsGenerateResult{write_sms(facts, std::string_view("call me back")), thread});
    sample("SmsGenerateResponse", "not persisted", SmsGenerateResult{write_sms(facts, {}), {}});
    const EmailDraft draft = write_email(facts, std::string_view("I dispute this"));
    sample("EmailGenerateResponse", "persisted",
           EmailGenerateResult{draft.htmlBody, draft.plainTextBody, thread});
    sample("EmailGenerateResponse", "not persisted",
           EmailGenerateResult{draft.htmlBody, draft.plainTextBody, {}});

    // Analysis of each channel.
    for (auto [channel, words] : {std::pair{Channel::sms, std::string_view("STOP")},
                                  std::pair{Channel::email, std::string_view("call me back")},
                                  std::pair{Channel::voice, std::string_view("I will pay")}}) {
        sample("AnalyzeInteractionResponse", enum_name(channel),
               AnalyzeInteractionResult{interaction, channel, analyse(words, channel)});
    }

    // Clients.
    sample("ClientListResponse", "two", must_read<ClientList>(x::client_list));
    sample("ClientListResponse", "none", ClientList{});

    // The recording link.
    sample("GetSignedUrlResponse", "link",
           SignedUrl{must_read<SignedUrlRequest>(x::signed_url_request).callId,
                     "http://127.0.0.1:8080/api/v1/calls/5a6b7c8d-1e2f-4a3b-8c4d-5e6f7a8b9c0d/"
                     "recording?expires=1795000000&durationMs=61000&signature=ab12"});

    // Bulk calls: placed, blocked (with its compliance), unknown customer.
    BulkCallResult calls;
    calls.add_placed(customer, must_read<Call>(x::call));
    const Call blocked = must_read<BlockedCall>(x::blocked_call);
    calls.add_failed(thread,
                     "Customer not eligible for call. Failed rules: Respectful Hours Check "
                     "(Customer local time is 07:00 (outside respectful hours 8am-8:50pm))",
                     blocked.compliance);
    calls.add_failed(interaction, "Customer not found");
    calls.add_blocked(request_id,
                      "Customer not eligible for call. Failed rules: Is Active "
                      "(Customer is not active)",
                      blocked.compliance, std::nullopt);
    calls.add_blocked(customer,
                      "Customer not eligible for call. Failed rules: Respectful Hours Check "
                      "(Customer local time is 07:00 (outside respectful hours 8am-8:50pm))",
                      blocked.compliance, created);
    sample("BulkCreateCallsResponse", "partial", calls);

    // Drip campaign webhooks: each step's body as the hosted DripCampaignWebhook (a oneOf, so
    // each body must match exactly one of its three shapes).
    DripEnrolment enrolment =
        enrol(parse_drip_campaign("welcome").campaign.value(), request_id, customer, created);
    CallFacts call;
    call.id = interaction;
    call.customerId = customer;
    call.threadId = thread;
    call.toPhoneNumber = someone.primaryPhone;
    call.fromPhoneNumber = E164::parse("+14155550199").value();
    call.createdAt = created;
    body_sample("DripCampaignWebhook", "call-created", drip_call_created_event(enrolment, call));
    CallEnding ending;
    ending.endedReason = EndedReason::customer_ended_call;
    ending.durationMs = 61000;
    ending.endedAt = Timestamp::parse("2026-11-20T15:01:01Z").value();
    TranscriptMessage turn;
    turn.role = MessageRole::user;
    turn.message = "I will pay on Friday.";
    turn.startedAt = created;
    turn.endedAt = ending.endedAt;
    turn.endTime = ending.endedAt;
    turn.duration = 3000;
    ending.messages.push_back(turn);
    body_sample("DripCampaignWebhook", "call-ended",
                drip_call_ended_event(enrolment, call, ending,
                                      "http://127.0.0.1:8080/api/v1/calls/x/recording?s=1"));
    enrolment.status = DripCampaignStatus::completed;
    body_sample(
        "DripCampaignWebhook", "sms",
        drip_sms_event(enrolment, thread,
                       DripSmsDetails{request_id, someone.primaryPhone, call.fromPhoneNumber,
                                      write_sms(facts, {}), created}));

    // The hosted texts API.md quotes.
    text("/calls/bulk", "400", duplicate_customer_ids_message);
    text("/customers/{customerId}/interactions/sms/generate", "422", sms_to_required_message);
    text("/interactions/{interactionId}/analyze", "400", analysis_skipped_message);
    text("/interactions/{interactionId}/analyze", "404", interaction_not_found_message);
    return 0;
}
