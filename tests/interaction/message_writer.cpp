// The deterministic message writer (interaction/message_writer.hpp): templates by topic, one GSM-7
// segment for every SMS, nothing but the first name, creditor and balance of the customer.
#include "collectcall/interaction/message_writer.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "collectcall/core/read.hpp"
#include "collectcall/interaction/sms_segments.hpp"

using namespace collectcall;

namespace {

std::string times(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

const std::optional<std::string_view> inbound_cases[] = {
    std::nullopt,
    std::string_view("STOP"),
    std::string_view("call me back"),
    std::string_view("I will pay on Friday"),
    std::string_view("not my debt"),
    std::string_view("talk to my lawyer"),
    std::string_view("ok thanks"),
};

}  // namespace

TEST_CASE("write_sms: one GSM-7 segment whatever the name and the last message") {
    const std::string names[] = {
        "Ann",
        "José",
        "Zoë",
        times("A", 24),
        times("A", 25),
        times("W", 200),
        "  Bo  ",
        "{Ann}",
        "Ann\xF0\x9F\x99\x82",
        "\xE6\x9D\x8E\xE5\xB0\x8F\xE9\xBE\x99",
        "",
        "   ",
        times("\xC3\x84", 24),  // Ä: one septet, two bytes
    };
    for (const std::string& name : names) {
        for (const auto& inbound : inbound_cases) {
            INFO(name << " / " << (inbound ? *inbound : "(none)"));
            const std::string sms = write_sms(MessageFacts{name, "Bank", "$1.00"}, inbound);
            const sms::Segments s = sms::segments(sms);
            CHECK(s.encoding == sms::Encoding::gsm7);
            CHECK(s.count == 1);
            CHECK(s.units <= sms::gsm7_single);
            CHECK(sms.find("Reply STOP to opt out.") != std::string::npos);
        }
    }
}

TEST_CASE("write_sms: the name when it fits the alphabet and the length, else none") {
    const auto first = [](std::string_view name) {
        return write_sms(MessageFacts{std::string(name), "", ""}, std::nullopt);
    };
    CHECK(first("Ann").rfind("Hi Ann, this is a message about your account.", 0) == 0);
    CHECK(first("José").rfind("Hi José, ", 0) == 0);
    CHECK(first("  Bo  ").rfind("Hi Bo, ", 0) == 0);
    CHECK(first(times("A", 24)).rfind("Hi " + times("A", 24) + ", ", 0) == 0);
    CHECK(first(times("A", 25)).rfind("Hi, this is", 0) == 0);
    CHECK(first("Zoë").rfind("Hi, this is", 0) == 0);    // ë is not GSM-7
    CHECK(first("{Ann}").rfind("Hi, this is", 0) == 0);  // no escapes in a name
    CHECK(first("").rfind("Hi, this is", 0) == 0);
}

TEST_CASE("write_sms: the last inbound message chooses the reply; same input, same text") {
    const MessageFacts facts{"Ann", "", ""};
    CHECK(write_sms(facts, std::nullopt) ==
          "Hi Ann, this is a message about your account. Reply here or call us to talk about "
          "your options. Reply STOP to opt out.");
    // The answer to a stop request says it was received, and promises nothing the server does
    // not do: a request the server applied restricts texts, and then no SMS is sent.
    CHECK(write_sms(facts, std::string_view("STOP")) ==
          "Hi Ann, we have received your request. Reply STOP to opt out.");
    CHECK(write_sms(facts, std::string_view("Stop texting me")).find("not text") ==
          std::string::npos);
    CHECK(write_sms(facts, std::string_view("Can you call me back?")) ==
          "Hi Ann, thank you. An agent will call you back during business hours. Reply STOP to "
          "opt out.");
    CHECK(write_sms(facts, std::string_view("I'll pay Friday")).find("commitment to pay") !=
          std::string::npos);
    CHECK(write_sms(facts, std::string_view("I dispute it")).find("dispute") != std::string::npos);
    CHECK(write_sms(facts, std::string_view("my attorney")).find("attorney") != std::string::npos);
    CHECK(write_sms(facts, std::string_view("hello")).find("thank you for your message") !=
          std::string::npos);
    for (const auto& inbound : inbound_cases)
        CHECK(write_sms(facts, inbound) == write_sms(facts, inbound));
    // The customer's words are never repeated.
    CHECK(write_sms(facts, std::string_view("my secret code is 4242")).find("4242") ==
          std::string::npos);
}

TEST_CASE("message_facts and the e-mail: first name, creditor and balance, nothing else") {
    auto customer = read<CustomerCreate>(
        R"({"externalId":"crm-77","firstName":"Ann","lastName":"Leeworth","email":"ann@example.com",)"
        R"("primaryPhone":"+15125550100","address":{"zip":"78701"},"ssnLastFour":"9876",)"
        R"("dateOfBirth":"1971-03-04","collections":{"totalBalance":1234.5,)"
        R"("originalCreditor":"A&B <Bank>","originalAccountNumber":"ACCT-55555"}})");
    REQUIRE(customer.ok());
    const MessageFacts facts = message_facts(customer.value());
    CHECK(facts.first_name == "Ann");
    CHECK(facts.creditor == "A&B <Bank>");
    CHECK(facts.balance == "$1,234.50");

    for (const auto& inbound : inbound_cases) {
        const EmailDraft email = write_email(facts, inbound);
        const std::string sms = write_sms(facts, inbound);
        for (const std::string& text : {email.plainTextBody, email.htmlBody, sms}) {
            for (std::string_view secret : {"9876", "1971", "03-04", "55555", "ACCT", "Leeworth",
                                            "crm-77", "5125550100", "ann@example.com"}) {
                INFO(text);
                CHECK(text.find(secret) == std::string::npos);
            }
        }
        CHECK(email == write_email(facts, inbound));
    }

    const EmailDraft email = write_email(facts, std::nullopt);
    CHECK(email.plainTextBody ==
          "Dear Ann,\n\nWe are writing to you about your account.\n\nOur records show a balance "
          "of $1,234.50 on your account with A&B <Bank>.\n\nYou can reply to this e-mail or call "
          "us to talk about your payment options. If you do not want to receive e-mails from "
          "us, reply to this e-mail with the word UNSUBSCRIBE.\n\nThis communication is from a "
          "debt collector. This is an attempt to collect a debt and any information obtained "
          "will be used for that purpose.\n\nBest regards,\nAccounts team");
    CHECK(email.htmlBody.rfind("<p>Dear Ann,</p><p>We are writing to you about your account.</p>"
                               "<p>Our records show a balance of $1,234.50 on your account with "
                               "A&amp;B &lt;Bank&gt;.</p>",
                               0) == 0);
    CHECK(email.htmlBody.find("<p>Best regards,<br>Accounts team</p>") != std::string::npos);

    // Without collections, no balance line; an HTML name is escaped.
    const EmailDraft plain = write_email(MessageFacts{"<b>Al</b>", "", ""},
                                         std::string_view("I dispute this"), Channel::email);
    CHECK(plain.plainTextBody.find("balance") == std::string::npos);
    CHECK(plain.plainTextBody.find("We have noted your dispute.") != std::string::npos);
    CHECK(plain.htmlBody.rfind("<p>Dear &lt;b&gt;Al&lt;/b&gt;,</p>", 0) == 0);
}

TEST_CASE("every e-mail says how to opt out of e-mail, and the way it says works (1006.6(e))") {
    for (const auto& inbound : inbound_cases) {
        INFO((inbound ? *inbound : "(none)"));
        const EmailDraft email = write_email(MessageFacts{"Ann", "Bank", "$5.00"}, inbound);
        CHECK(email.plainTextBody.find(message_writer::email_opt_out) != std::string::npos);
        CHECK(email.htmlBody.find(message_writer::email_opt_out) != std::string::npos);
        // No reply promises that contact stops.
        CHECK(email.plainTextBody.find("stop contacting") == std::string::npos);
    }
    // The reply it asks for is a stop request about e-mail, and about e-mail only.
    const StopRequest reply = stop_request("UNSUBSCRIBE", Channel::email);
    CHECK(reply == StopRequest{.email = true});
    CHECK(write_email(MessageFacts{"Ann", "", ""}, std::string_view("stop e-mailing me"))
              .plainTextBody.find("We have received your request about how we contact you.") !=
          std::string::npos);
}

TEST_CASE("dollars: thousands separators, at least two decimals, never rounded") {
    const auto d = [](std::string_view amount) { return dollars(Money::parse(amount).value()); };
    CHECK(d("0") == "$0.00");
    CHECK(d("5") == "$5.00");
    CHECK(d("100") == "$100.00");
    CHECK(d("1234.5") == "$1,234.50");
    CHECK(d("1000000") == "$1,000,000.00");
    CHECK(d("999999.99") == "$999,999.99");
    CHECK(d("0.125") == "$0.125");
}

TEST_CASE("The next message answers a bounded prefix of the last one") {
    using message_writer::reply_context;
    using message_writer::reply_context_bytes;
    const MessageFacts facts{"Ann", "", ""};
    const std::string filler = times("some words of an earlier message ", 8000);  // 264 KB
    REQUIRE(filler.size() > 256 * 1024);

    // A request at the start of a long message is answered; one past the context is not read.
    CHECK(write_sms(facts, "Stop texting me. " + filler) == write_sms(facts, "STOP"));
    const std::string late = filler.substr(0, reply_context_bytes + 100) + " stop texting me";
    CHECK(write_sms(facts, late) == write_sms(facts, "ok thanks"));
    CHECK(write_email(facts, late).plainTextBody ==
          write_email(facts, std::string_view("ok thanks")).plainTextBody);

    // The context ends before the word that crosses its size, and is the message when shorter.
    const std::string_view context = reply_context(filler);
    CHECK(context.size() <= reply_context_bytes);
    CHECK(context.size() > reply_context_bytes - 40);
    CHECK(filler[context.size()] == ' ');
    CHECK(reply_context("short") == "short");
    // One word longer than the context is cut, never inside a UTF-8 sequence.
    const std::string word = times("é", reply_context_bytes);  // two bytes each
    const std::string_view cut = reply_context(word);
    CHECK(cut.size() == reply_context_bytes);
    const std::string odd = "x" + word;
    CHECK(reply_context(odd).size() == reply_context_bytes - 1);
}
