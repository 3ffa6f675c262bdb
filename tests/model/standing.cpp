// The customer's standing (API.md section 16): restricted media on the wire, the read-only
// members of a customer, the record of a change, and what an analysis or an import changes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/interaction.hpp"
#include "collectcall/model/openapi.hpp"

using namespace collectcall;

namespace {

std::vector<std::string> paths_and_codes(const ErrorList& errors) {
    std::vector<std::string> out;
    for (const Error& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

}  // namespace

TEST_CASE("RestrictedMedia: names in the order of the enum, each once") {
    CHECK(write(RestrictedMedia{}) == "[]");
    CHECK(write(RestrictedMedia{ContactChannel::email, ContactChannel::call}) ==
          R"(["call","email"])");
    auto read_back = read<RestrictedMediaUpdate>(R"({"media":["email","sms","call"]})");
    REQUIRE(read_back.ok());
    CHECK(read_back.value().media ==
          RestrictedMedia{ContactChannel::call, ContactChannel::sms, ContactChannel::email});
    CHECK(write(read_back.value()) == R"({"media":["call","sms","email"]})");

    auto bad = read<RestrictedMediaUpdate>(R"({"media":["sms","fax",1,"sms","email","email"]})");
    REQUIRE_FALSE(bad.ok());
    CHECK(paths_and_codes(bad.errors()) ==
          std::vector<std::string>{"/media/1 format", "/media/2 type", "/media/3 conflict",
                                   "/media/5 conflict"});
    CHECK(paths_and_codes(read<RestrictedMediaUpdate>(R"({"media":{}})").errors()) ==
          std::vector<std::string>{"/media type"});
    CHECK(paths_and_codes(read<RestrictedMediaUpdate>(R"({})").errors()) ==
          std::vector<std::string>{"/media required"});

    // The store's compact form.
    const RestrictedMedia all{ContactChannel::call, ContactChannel::sms, ContactChannel::email};
    CHECK(RestrictedMedia::from_bits(all.bits()) == all);
    CHECK(RestrictedMedia::from_bits(0) == RestrictedMedia{});
    CHECK(RestrictedMedia{ContactChannel::call}.bits() == 1);  // the migration's value
    CHECK_FALSE(RestrictedMedia::from_bits(all.bits() + 1));
}

TEST_CASE("Customer: the standing is answered and read-only") {
    auto customer = read<Customer>(openapi_examples::customer);
    REQUIRE(customer.ok());
    CHECK(customer.value().restrictedMedia.empty());
    Customer c = customer.value();
    c.restrictedMedia.add(ContactChannel::sms);
    c.disputed = true;
    const std::string json = write(c);
    CHECK(json.find(R"("restrictedMedia":["sms"],"attorneyRepresented":false,"disputed":true)") !=
          std::string::npos);
    auto back = read<Customer>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == c);

    // A hosted service's answer has no standing: it reads as none. A value there must still be
    // valid.
    const std::string_view example = openapi_examples::customer;
    const std::string hosted =
        std::string(example.substr(0, example.find(R"(,"restrictedMedia")"))) + "}";
    auto from_hosted = read<Customer>(hosted);
    REQUIRE(from_hosted.ok());
    CHECK(from_hosted.value().restrictedMedia.empty());
    CHECK_FALSE(from_hosted.value().attorneyRepresented);
    CHECK_FALSE(from_hosted.value().disputed);
    CHECK(from_hosted.value().id == customer.value().id);
    auto partial = read<Customer>(hosted.substr(0, hosted.size() - 1) + R"(,"disputed":"no"})");
    CHECK(paths_and_codes(partial.errors()) == std::vector<std::string>{"/disputed type"});
    // The members the hosted answer does have are still required.
    auto no_id = read<Customer>(std::string(R"({"id":null,)") + hosted.substr(1));
    CHECK_FALSE(no_id.ok());
    // Read into a value that had a standing, an answer without one leaves none.
    Customer reused = c;
    REQUIRE(read_into(hosted, reused).empty());
    CHECK(reused.restrictedMedia.empty());
    CHECK_FALSE(reused.disputed);

    // Not in a create body (like id), not in a patch.
    const std::string_view minimal = openapi_examples::customer_create_minimal;
    auto created = read<CustomerCreate>(std::string(minimal.substr(0, minimal.size() - 1)) +
                                        R"(,"restrictedMedia":[]})");
    CHECK(paths_and_codes(created.errors()) ==
          std::vector<std::string>{"/restrictedMedia unknown_field"});
    auto patch = read<CustomerPatch>(R"({"disputed":false,"restrictedMedia":["sms"]})");
    CHECK(paths_and_codes(patch.errors()) ==
          std::vector<std::string>{"/disputed not_allowed", "/restrictedMedia not_allowed"});

    // The schema says they are the server's.
    const std::string text = json_schema<Customer>();
    CHECK(text.find(R"("readOnly":true)") != std::string::npos);
}

TEST_CASE("standing_record: a record of the decisions list with no evaluation") {
    const Timestamp at = Timestamp::parse("2026-11-20T15:00:00.000Z").value();
    Standing before;
    Standing after;
    after.restrictedMedia.add(ContactChannel::sms);
    const Uuid sms = Uuid::parse("0f8fad5b-d9cb-469f-a165-70867728950e").value();
    const ComplianceDecision record = standing_record(
        at, CompliancePolicy::regulation_f, StandingCause::opt_out_keyword, before, after, sms);
    const std::string json = write(record);
    CHECK(json ==
          R"({"at":"2026-11-20T15:00:00.000Z","operation":"standing","policy":"regulation-f",)"
          R"("candidateZones":[],"localTimes":[],"counts":{"callsToday":0,"callsInSevenDays":0,)"
          R"("communicationsInSevenDays":0,"lastConversationAt":null},"compliance":{"passed":)"
          R"(true,"checksPassed":[],"checksFailed":[]},"nextEligibleAt":null,"standing":{)"
          R"("cause":"opt-out-keyword","interactionId":"0f8fad5b-d9cb-469f-a165-70867728950e",)"
          R"("before":{"restrictedMedia":[],"ceaseAndDesist":false,"attorneyRepresented":false,)"
          R"("disputed":false},"after":{"restrictedMedia":["sms"],"ceaseAndDesist":false,)"
          R"("attorneyRepresented":false,"disputed":false}}})");
    auto back = read<ComplianceDecision>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == record);
    // An evaluation keeps its channel and has no standing.
    ComplianceDecision evaluation;
    evaluation.at = at;
    CHECK(write(evaluation).find(R"("channel":"call")") != std::string::npos);
    CHECK(write(evaluation).find("standing") == std::string::npos);
}

TEST_CASE("outcomes_of: a stop request restricts what it names; a general one by channel") {
    OutputVariables stop;
    stop.stop_requests = true;
    const auto outcomes = [&](std::string_view text, Channel channel) {
        return outcomes_of(analyse(text, channel), stop_request(text, channel), channel);
    };
    const RestrictedMedia all{ContactChannel::call, ContactChannel::sms, ContactChannel::email};

    CHECK(outcomes("Stop e-mailing me.", Channel::email).restricted ==
          RestrictedMedia{ContactChannel::email});
    CHECK_FALSE(outcomes("Stop e-mailing me.", Channel::email).cease_and_desist);
    CHECK(outcomes("STOP", Channel::sms).restricted == RestrictedMedia{ContactChannel::sms});
    CHECK(outcomes("stop texting me", Channel::voice).restricted ==
          RestrictedMedia{ContactChannel::sms});
    // General: in writing a cease-and-desist, in a call every medium.
    const CustomerOutcomes written = outcomes("Do not contact me", Channel::sms);
    CHECK(written.cease_and_desist);
    CHECK(written.restricted.empty());
    const CustomerOutcomes spoken =
        outcomes("Stop calling me. Do not contact me again.", Channel::voice);
    CHECK_FALSE(spoken.cease_and_desist);
    CHECK(spoken.restricted == all);
    // Nothing asked: nothing restricted; the other outcomes whatever the channel.
    const CustomerOutcomes other = outcomes("I dispute this, talk to my lawyer", Channel::voice);
    CHECK(other.restricted.empty());
    CHECK(other.disputed);
    CHECK(other.attorney_represented);
    // A stored analysis without stop-requests restricts nothing, whatever the words say.
    CHECK(outcomes_of(OutputVariables{}, stop_request("STOP", Channel::sms), Channel::sms) ==
          CustomerOutcomes{});

    // Outcomes only add.
    Standing standing;
    standing.restrictedMedia.add(ContactChannel::call);
    standing.disputed = true;
    const Standing after = with_outcomes(standing, written);
    CHECK(after.restrictedMedia == RestrictedMedia{ContactChannel::call});
    CHECK(after.ceaseAndDesist);
    CHECK(after.disputed);
}

TEST_CASE("opts_out_on_receipt: an inbound SMS that is a keyword alone") {
    const auto sms = [](std::string_view body, InteractionDirection direction) {
        SmsInteractionData out;
        out.direction = direction;
        out.body = SmsBody::parse(body).value();
        return out;
    };
    CHECK(opts_out_on_receipt(sms("STOP", InteractionDirection::inbound)));
    CHECK(opts_out_on_receipt(sms(" Stop. ", InteractionDirection::inbound)));
    CHECK_FALSE(opts_out_on_receipt(sms("STOP", InteractionDirection::outbound)));
    CHECK_FALSE(opts_out_on_receipt(sms("Stop please", InteractionDirection::inbound)));
    CHECK_FALSE(opts_out_on_receipt(sms("I'm at the bus stop", InteractionDirection::inbound)));
}
