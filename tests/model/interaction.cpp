// Interactions (model/interaction.hpp): the SMS and e-mail imports and their records, the bulk
// imports, the generate and analyze requests and answers.
#include "collectcall/model/interaction.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/interaction/message_writer.hpp"
#include "collectcall/model/openapi.hpp"

using namespace collectcall;

namespace {

std::vector<std::string> describe(const ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

// "Now" is 2026-11-20T15:00:00Z.
ReadOptions at_now() {
    using namespace std::chrono;
    ReadOptions options;
    options.today = sys_days{year{2026} / November / 20};
    options.now = sys_days{year{2026} / November / 20} + hours{15};
    return options;
}

std::string times(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

Uuid uuid(std::string_view text) {
    return Uuid::parse(text).value();
}

const Uuid customer = uuid("7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a");
const Uuid thread = uuid("1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f");
const Timestamp created = Timestamp::parse("2026-11-20T15:00:00Z").value();

std::string sms_with(std::string_view member, std::string_view value) {
    std::string doc = R"({"direction":"inbound","timestamp":"2026-11-20T14:58:00Z",)"
                      R"("from":"+15125550100","to":"+15125550111","body":"hi")";
    doc += ",\"";
    doc += member;
    doc += "\":";
    doc += value;
    doc += '}';
    return doc;
}

}  // namespace

TEST_CASE("SmsImportRequest: the hosted members and their rules") {
    auto ok = read<SmsImportRequest>(openapi_examples::sms_import, at_now());
    REQUIRE(ok.ok());
    CHECK(ok.value().direction == InteractionDirection::inbound);
    CHECK(ok.value().body.view() == "Can you call me back tomorrow?");
    CHECK_FALSE(ok.value().threadId.has_value());
    CHECK_FALSE(ok.value().segments.has_value());
    auto back = read<SmsImportRequest>(write(ok.value()), at_now());
    REQUIRE(back.ok());
    CHECK(back.value() == ok.value());

    CHECK(read<SmsImportRequest>(sms_with("segments", "3"), at_now()).ok());
    CHECK(read<SmsImportRequest>(sms_with("threadId", "null"), at_now()).ok());

    auto missing = read<SmsImportRequest>(R"({"body":""})", at_now());
    CHECK(describe(missing.errors()) ==
          std::vector<std::string>{"/body length", "/direction required", "/timestamp required",
                                   "/from required", "/to required"});

    auto bad = read<SmsImportRequest>(
        R"({"direction":"sideways","timestamp":"2026-11-20T15:05:00.001Z","from":"5125550100",)"
        R"("to":"+15125550111","body":")" +
            times("a", 1601) + R"(","segments":0,"threadId":"x","channel":"sms"})",
        at_now());
    CHECK(describe(bad.errors()) ==
          std::vector<std::string>{"/direction format", "/timestamp range", "/from format",
                                   "/body length", "/segments minimum", "/threadId format",
                                   "/channel unknown_field"});
    // Five minutes ahead is the limit, and the body is counted in characters.
    std::string edge = R"({"direction":"outbound","timestamp":"2026-11-20T15:05:00Z",)"
                       R"("from":"+15125550100","to":"+15125550111","body":")" +
                       times("\xF0\x9F\x99\x82", 1600) + "\"}";
    CHECK(read<SmsImportRequest>(edge, at_now()).ok());
    CHECK(describe(read<SmsImportRequest>(sms_with("segments", "256"), at_now()).errors()) ==
          std::vector<std::string>{"/segments range"});
    CHECK(describe(read<SmsImportRequest>(sms_with("segments", "1.5"), at_now()).errors()) ==
          std::vector<std::string>{"/segments type"});
}

TEST_CASE("sms_interaction: the record of an import, segments computed when not given") {
    auto request = read<SmsImportRequest>(openapi_examples::sms_import, at_now());
    REQUIRE(request.ok());
    const Uuid id = uuid("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e");
    SmsInteractionData record = sms_interaction(request.value(), id, customer, thread, created);
    CHECK(write(record) == openapi_examples::sms_interaction);
    CHECK(record.segments.value() == 1);

    auto long_one = read<SmsImportRequest>(
        sms_with("threadId", "\"0E7A9D5C-1B2F-4A3E-9C8D-7F6E5D4C3B2A\""), at_now());
    REQUIRE(long_one.ok());
    long_one.value().body = SmsBody::parse(times("a", 161)).value();
    record = sms_interaction(long_one.value(), id, customer, thread, created);
    CHECK(record.segments.value() == 2);
    CHECK(record.threadId.view() == "0e7a9d5c-1b2f-4a3e-9c8d-7f6e5d4c3b2a");
    long_one.value().segments = SegmentCount::of(7);  // the client's count is kept
    CHECK(sms_interaction(long_one.value(), id, customer, thread, created).segments.value() == 7);

    auto read_back = read<SmsInteractionData>(openapi_examples::sms_interaction);
    REQUIRE(read_back.ok());
    CHECK(read_back.value() == sms_interaction(request.value(), id, customer, thread, created));
}

TEST_CASE("EmailImportRequest: at least one body with content, a conflict otherwise") {
    const std::string head =
        R"({"direction":"inbound","timestamp":"2026-11-20T14:00:00Z","from":"a@example.com",)"
        R"("to":["b@example.com"],"subject":"Hello")";
    const auto errors = [&](std::string_view rest) {
        return describe(
            read<EmailImportRequest>(head + std::string(rest) + "}", at_now()).errors());
    };
    CHECK(errors(R"(,"plainTextBody":"x")").empty());
    CHECK(errors(R"(,"htmlBody":"<p>x</p>")").empty());
    CHECK(errors(R"(,"plainTextBody":"","htmlBody":"<p>x</p>")").empty());
    CHECK(errors(R"(,"plainTextBody":"x","htmlBody":null)").empty());
    CHECK(errors("") == std::vector<std::string>{" conflict"});
    CHECK(errors(R"(,"plainTextBody":null,"htmlBody":null)") ==
          std::vector<std::string>{" conflict"});
    CHECK(errors(R"(,"plainTextBody":"")") == std::vector<std::string>{"/plainTextBody conflict"});
    CHECK(errors(R"(,"plainTextBody":" \n ","htmlBody":"")") ==
          std::vector<std::string>{"/plainTextBody conflict"});
    CHECK(errors(R"(,"plainTextBody":null,"htmlBody":"\t")") ==
          std::vector<std::string>{"/htmlBody conflict"});
    // A body with an error of its own is not also a conflict.
    CHECK(errors(R"(,"plainTextBody":")" + times("a", EmailBody::max_bytes + 1) + "\"") ==
          std::vector<std::string>{"/plainTextBody length"});
    CHECK(errors(R"(,"plainTextBody":1)") == std::vector<std::string>{"/plainTextBody type"});

    auto conflict = read<EmailImportRequest>(head + "}", at_now());
    REQUIRE(conflict.errors().size() == 1);
    CHECK(conflict.errors()[0].message == email_body_conflict_message);
}

TEST_CASE("EmailImportRequest: addresses, lists, optional members") {
    auto ok = read<EmailImportRequest>(openapi_examples::email_import, at_now());
    REQUIRE(ok.ok());
    CHECK_FALSE(ok.value().cc.has_value());
    CHECK(ok.value().messageId->view() == "abc123@mail.example.com");

    std::string many = R"({"direction":"outbound","timestamp":"2026-11-20T14:00:00Z",)"
                       R"("from":"a@example.com","subject":"s","plainTextBody":"x","to":[)";
    for (int i = 0; i < 50; ++i)
        many += std::string(i == 0 ? "" : ",") + "\"u" + std::to_string(i) + "@example.com\"";
    CHECK(read<EmailImportRequest>(many + "]}", at_now()).ok());
    CHECK(describe(read<EmailImportRequest>(many + R"(,"x@example.com"]})", at_now()).errors()) ==
          std::vector<std::string>{"/to length"});

    auto bad = read<EmailImportRequest>(
        R"({"direction":"inbound","timestamp":"2026-11-20T14:00:00Z","from":"not-an-address",)"
        R"("to":[],"cc":["ok@example.com","bad@"],"bcc":null,"subject":"  ",)"
        R"("plainTextBody":"x","threadId":"thread-1"})",
        at_now());
    CHECK(describe(bad.errors()) == std::vector<std::string>{"/from format", "/to length",
                                                             "/cc/1 format", "/subject length",
                                                             "/threadId format"});
}

TEST_CASE("email_interaction: cc and bcc default to [], absent members are left out") {
    auto request = read<EmailImportRequest>(openapi_examples::email_import, at_now());
    REQUIRE(request.ok());
    const Uuid id = uuid("3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f");
    const EmailInteractionData record =
        email_interaction(request.value(), id, customer, thread, created);
    CHECK(write(record) == openapi_examples::email_interaction);

    request.value().messageId.reset();
    const std::string json =
        write(email_interaction(request.value(), id, customer, thread, created));
    CHECK(json.find("messageId") == std::string::npos);
    CHECK(json.find("htmlBody") == std::string::npos);
    CHECK(json.find("null") == std::string::npos);
    auto back = read<EmailInteractionData>(json);
    REQUIRE(back.ok());
    CHECK(back.value().messageId.absent());
}

TEST_CASE("Bulk imports: 1 to 100 items, each with its own verdict; the answer in order") {
    const std::string item = std::string(openapi_examples::sms_import);
    std::string two = R"({"interactions":[)" + item + R"(,{"direction":"inbound"}]})";
    auto request = read<SmsImportBulkRequest>(two, at_now());
    REQUIRE(request.ok());
    REQUIRE(request.value().interactions.size() == 2);
    CHECK(request.value().interactions[0].ok());
    CHECK(describe(request.value().interactions[1].errors()) ==
          std::vector<std::string>{"/timestamp required", "/from required", "/to required",
                                   "/body required"});

    CHECK(describe(read<SmsImportBulkRequest>(R"({"interactions":[]})", at_now()).errors()) ==
          std::vector<std::string>{"/interactions length"});
    std::string over = R"({"interactions":[)";
    for (std::size_t i = 0; i <= max_import_items; ++i)
        over += (i == 0 ? "" : ",") + item;
    CHECK(describe(read<SmsImportBulkRequest>(over + "]}", at_now()).errors()) ==
          std::vector<std::string>{"/interactions length"});

    SmsImportBulkResult result;
    const Uuid id = uuid("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e");
    result.add_imported(
        sms_interaction(request.value().interactions[0].value(), id, customer, thread, created));
    auto invalid = read<SmsImportRequest>(
        R"({"direction":"inbound","timestamp":"2026-11-20T14:58:00Z","from":"5125550100",)"
        R"("to":"+15125550111","body":"Can you call me back tomorrow?"})",
        at_now());
    REQUIRE_FALSE(invalid.ok());
    result.add_invalid(1, std::move(invalid).errors());
    CHECK(result.summary == BulkSummary{2, 1, 1});
    CHECK(write(result) == openapi_examples::sms_import_bulk_result);
    auto back = read<SmsImportBulkResult>(write(result));
    REQUIRE(back.ok());
    CHECK(back.value() == result);

    EmailImportBulkResult emails;
    emails.add_failed(0, "Customer not found");
    CHECK(write(emails) ==
          R"({"summary":{"total":1,"succeeded":0,"failed":1},"results":[{"success":false,)"
          R"("index":0,"error":"Customer not found"}]})");
}

TEST_CASE("Generate and analyze requests: defaults true, persist needs a recipient") {
    auto sms = read<SmsGenerateRequest>(R"({"from":"+15125550111"})");
    REQUIRE(sms.ok());
    CHECK(sms.value().persists());
    CHECK(lacks_recipient(sms.value()));
    auto no_persist = read<SmsGenerateRequest>(R"({"from":"+15125550111","persist":false})");
    REQUIRE(no_persist.ok());
    CHECK_FALSE(lacks_recipient(no_persist.value()));
    auto with_to = read<SmsGenerateRequest>(openapi_examples::sms_generate_request);
    REQUIRE(with_to.ok());
    CHECK_FALSE(lacks_recipient(with_to.value()));
    CHECK(read<SmsGenerateRequest>(R"({"from":"+15125550111","persist":null})").value().persists());
    CHECK(describe(read<SmsGenerateRequest>(R"({"persist":"yes","to":"x"})").errors()) ==
          std::vector<std::string>{"/persist type", "/to format", "/from required"});
    CHECK(sms_to_required_message == "The 'to' field is required when persist is true");

    CHECK(read<EmailGenerateRequest>("{}").value().persists());
    CHECK_FALSE(read<EmailGenerateRequest>(R"({"persist":false})").value().persists());
    CHECK(describe(read<EmailGenerateRequest>(R"({"to":"a@b"})").errors()) ==
          std::vector<std::string>{"/to unknown_field"});

    CHECK(read<AnalyzeInteractionRequest>("{}").value().applies_outcomes());
    CHECK_FALSE(
        read<AnalyzeInteractionRequest>(R"({"applyOutcomes":false})").value().applies_outcomes());

    SmsGenerateResult generated{"Hi", {}};
    CHECK(write(generated) == R"({"message":"Hi"})");
    generated.threadId = thread;
    CHECK(write(generated) ==
          R"({"message":"Hi","threadId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"})");
    // The OpenAPI example is what the writer says to Ann after "Can you call me back tomorrow?".
    const SmsGenerateResult example{
        write_sms(MessageFacts{"Ann", "", ""}, std::string_view("Can you call me back tomorrow?")),
        thread};
    CHECK(write(example) == openapi_examples::sms_generate_result);
    EmailGenerateResult email{"<p>x</p>", "x", {}};
    CHECK(write(email) == R"({"htmlBody":"<p>x</p>","plainTextBody":"x"})");

    AnalyzeInteractionResult analysis;
    analysis.interactionId = uuid("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e");
    analysis.channel = Channel::sms;
    analysis.outputVariables = analyse("Can you call me back tomorrow?", Channel::sms);
    CHECK(write(analysis) == openapi_examples::analyze_result);
    auto back = read<AnalyzeInteractionResult>(write(analysis));
    REQUIRE(back.ok());
    CHECK(back.value() == analysis);
}

TEST_CASE("InteractionList: SMS, e-mail and calls newest first, each under its channel") {
    auto sms = read<SmsImportRequest>(sms_with("threadId", "null"), at_now());
    REQUIRE(sms.ok());
    SmsInteractionData older = sms_interaction(
        sms.value(), uuid("00000000-0000-4000-8000-000000000001"), customer, thread, created);
    SmsInteractionData same_time = older;
    same_time.id = uuid("00000000-0000-4000-8000-000000000002");
    auto email = read<EmailImportRequest>(openapi_examples::email_import, at_now());
    REQUIRE(email.ok());
    EmailInteractionData newest = email_interaction(
        email.value(), uuid("00000000-0000-4000-8000-000000000003"), customer, thread, created);
    newest.timestamp = Timestamp::parse("2026-11-20T14:59:30Z").value();
    CallDetails call;
    call.id = uuid("00000000-0000-4000-8000-000000000004");
    call.createdAt = Timestamp::parse("2026-11-20T14:59:00Z").value();

    InteractionList list;
    list.add(older);
    list.add(call, std::nullopt);
    list.add(same_time);
    list.add(newest);
    list.sort_newest_first();
    REQUIRE(list.interactions.size() == 4);
    CHECK(list.interactions[0].channel == Channel::email);
    CHECK(list.interactions[0].email.value() == newest);
    CHECK(list.interactions[1].channel == Channel::voice);
    CHECK(list.interactions[1].transcript.absent());
    CHECK(list.interactions[2].sms.value().id == older.id);  // same instant: order kept
    CHECK(list.interactions[3].sms.value().id == same_time.id);
    const std::string json = write(list);
    CHECK(
        json.find(
            R"({"interactions":[{"channel":"email","timestamp":"2026-11-20T14:59:30.000Z","email":{)") ==
        0);
    CHECK(json.find(R"("channel":"voice","timestamp":"2026-11-20T14:59:00.000Z","call":{)") !=
          std::string::npos);
    CHECK(json.find("transcript") == std::string::npos);
}

TEST_CASE("Interaction schemas: the rules the types carry") {
    const std::string sms = json_schema<SmsImportRequest>();
    CHECK(sms.find(R"("maxLength":1600)") != std::string::npos);
    CHECK(sms.find(R"("required":["direction","timestamp","from","to","body"])") !=
          std::string::npos);
    const std::string email = json_schema<EmailImportRequest>();
    CHECK(email.find(R"("anyOf":[{"required":["plainTextBody"])") != std::string::npos);
    CHECK(email.find(R"("maxItems":50,"default":[])") != std::string::npos);
    CHECK(json_schema<SmsGenerateRequest>().find(
              R"("persist":{"type":["boolean","null"],"default":true})") != std::string::npos);
    CHECK(json_schema<AnalyzeInteractionRequest>().find(R"("default":true)") != std::string::npos);
    CHECK(json_schema<SmsImportBulkRequest>().find(R"("title":"SmsImportBulkRequest")") !=
          std::string::npos);
    const std::string result = json_schema<EmailImportBulkResult>();
    CHECK(result.find(R"("EmailImportItemResult":{)") != std::string::npos);
    CHECK(result.find(R"("required":["success","index","error"])") != std::string::npos);
    CHECK(json_schema<AnalyzeInteractionResult>().find(R"("stop-requests":{"type":"boolean"})") !=
          std::string::npos);
}
