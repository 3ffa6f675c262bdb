// The deterministic message writer of the sandbox (API.md section 13): the next SMS or e-mail to a
// customer, written from fixed templates where the hosted service uses a language model. Pure
// functions: the same facts give the same text, byte for byte.
//
// What a message may say about the customer is only what MessageFacts holds: the first name, the
// original creditor and the balance. The SSN, the date of birth and the account number are never
// among its inputs, so no template can leak them. What the customer last wrote (the thread's last
// inbound message) chooses the reply's opening sentence, through the analyser
// (interaction/analysis.hpp); its words are never repeated.
//
// An SMS is one GSM-7 segment at most (160 septets): every template is plain GSM-7 and at most
// 160 septets with the longest name it may carry; a first name is used only when it is made of
// characters of the GSM 03.38 default alphabet and has at most 24 of them, and is left out
// ("Hi,") otherwise. Every SMS and every e-mail tells the customer how to opt out of that medium,
// as Regulation F asks of every electronic communication (12 CFR 1006.6(e)): an SMS ends with
// "Reply STOP to opt out." (the carrier keyword, which restricts texts on receipt); an e-mail
// says to reply UNSUBSCRIBE (a stop request about e-mail for the analyser). Every e-mail also
// carries the notice of 15 U.S.C. 1692e(11).
//
// A reply never promises what the server does not do: the answer to a stop request says it was
// received, not that no more messages will come. A request the server has applied restricts the
// medium, and then no reply is sent at all.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/interaction/analysis.hpp"
#include "collectcall/interaction/sms_segments.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/types/money.hpp"

namespace collectcall {

// What a message may tell about the customer.
struct MessageFacts {
    std::string first_name;
    std::string creditor;  // the original creditor; empty when unknown
    std::string balance;   // the total balance as written in a message ("$1,234.50"); empty: none
};

// "$1,234.50": the amount with thousands separators and at least two decimals (more when the
// amount has them: an exact amount is never rounded).
[[nodiscard]] inline std::string dollars(const Money& amount) {
    const std::string text = amount.to_string();
    const std::size_t point = text.find('.');
    const std::string whole = text.substr(0, point);
    std::string fraction = point == std::string::npos ? std::string() : text.substr(point + 1);
    while (fraction.size() < 2)
        fraction += '0';
    std::string out = "$";
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i != 0 && (whole.size() - i) % 3 == 0) out += ',';
        out += whole[i];
    }
    out += '.';
    out += fraction;
    return out;
}

// The facts of a customer that a message may use, and nothing else.
[[nodiscard]] inline MessageFacts message_facts(const CustomerCreate& customer) {
    MessageFacts facts;
    facts.first_name = customer.firstName.str();
    if (customer.collections) {
        if (customer.collections->originalCreditor) {
            facts.creditor = customer.collections->originalCreditor->str();
        }
        facts.balance = dollars(customer.collections->totalBalance);
    }
    return facts;
}

namespace message_writer {

// What the customer's last message asked for, which the reply answers first.
enum class Topic { none, stop, human, payment, dispute, attorney, other };

// How much of the last inbound message the next message answers: its first 4 KiB, ended before
// the word that crosses that size. It bounds what writing a message costs whatever the thread
// holds (API.md section 17: a 256 KiB e-mail is not analysed again for every SMS); a reply says
// what it asks for first, and quotes the earlier messages after.
inline constexpr std::size_t reply_context_bytes = 4096;

[[nodiscard]] constexpr std::string_view reply_context(std::string_view message) noexcept {
    if (message.size() <= reply_context_bytes) return message;
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    std::size_t end = reply_context_bytes;  // message[end] is the first byte left out
    while (end > 0 && !space(message[end]))
        --end;
    if (end == 0) {  // one word longer than the context: cut it, not a UTF-8 sequence
        end = reply_context_bytes;
        while (end > 0 && (static_cast<unsigned char>(message[end]) & 0xC0) == 0x80)
            --end;
    }
    return message.substr(0, end);
}

[[nodiscard]] inline Topic topic_of(std::optional<std::string_view> last_inbound, Channel channel) {
    if (!last_inbound) return Topic::none;
    const OutputVariables v = analyse(reply_context(*last_inbound), channel);
    if (v.stop_requests) return Topic::stop;
    if (v.attorney_represented) return Topic::attorney;
    if (v.dispute) return Topic::dispute;
    if (v.human_follow_up_requested) return Topic::human;
    if (v.payment_promised) return Topic::payment;
    return Topic::other;
}

// The SMS templates, by topic: "Hi <name>, " comes before each (or "Hi, "), and the opt-out
// instruction after it.
inline constexpr std::array<std::string_view, 7> sms_templates{
    "this is a message about your account. Reply here or call us to talk about your options.",
    "we have received your request.",
    "thank you. An agent will call you back during business hours.",
    "thank you for your commitment to pay. We will confirm the details.",
    "we have noted your dispute and will send you information about the debt.",
    "thank you. We will contact your attorney from now on.",
    "thank you for your message. Reply here or call us to talk about your options.",
};

// The opt-out instruction every SMS ends with (12 CFR 1006.6(e)): the carrier keyword, which
// restricts texts the moment the reply is imported (analysis::is_opt_out_keyword).
inline constexpr std::string_view sms_opt_out = "Reply STOP to opt out.";

// The longest first name an SMS carries.
inline constexpr std::size_t sms_max_name = 24;

// Every template is one septet a character and fits one segment after "Hi <longest name>, ".
static_assert(
    [] {
        for (std::string_view text : sms_templates) {
            std::size_t septets = std::string_view("Hi , ").size() + sms_max_name + 1;
            for (std::string_view part : {text, sms_opt_out}) {
                for (char c : part) {
                    if (sms::gsm7_septets(static_cast<unsigned char>(c)) != 1) return false;
                    ++septets;
                }
            }
            if (septets > sms::gsm7_single) return false;
        }
        return true;
    }(),
    "an SMS template leaves the default alphabet or one segment");

// The first name as an SMS carries it: trimmed of spaces, GSM-7 default-alphabet characters only
// (no escapes), at most sms_max_name of them; empty when the name is not such a name.
[[nodiscard]] inline std::string sms_name(std::string_view first_name) {
    const std::size_t first = first_name.find_first_not_of(' ');
    if (first == std::string_view::npos) return {};
    first_name = first_name.substr(first, first_name.find_last_not_of(' ') - first + 1);
    std::size_t count = 0;
    bool plain = true;
    sms::detail::for_each_code_point(first_name, [&](char32_t c) {
        ++count;
        if (sms::gsm7_septets(c) != 1 || c == U'\n' || c == U'\r') plain = false;
    });
    if (!plain || count > sms_max_name) return {};
    return std::string(first_name);
}

// The e-mail's opening sentence, by topic.
inline constexpr std::array<std::string_view, 7> email_openings{
    "We are writing to you about your account.",
    "We have received your request about how we contact you.",
    "Thank you for your message. An agent will call you back during business hours.",
    "Thank you for your commitment to pay. We will confirm the details with you.",
    "We have noted your dispute. We will send you information about the debt and will not "
    "collect it until we have done so.",
    "Thank you for letting us know that an attorney represents you. We will contact your "
    "attorney from now on.",
    "Thank you for your message.",
};

inline constexpr std::string_view email_closing =
    "You can reply to this e-mail or call us to talk about your payment options.";
// The opt-out instruction of every e-mail (12 CFR 1006.6(e)): a reply that is the word alone is
// a stop request about e-mail (interaction/analysis.hpp).
inline constexpr std::string_view email_opt_out =
    "If you do not want to receive e-mails from us, reply to this e-mail with the word "
    "UNSUBSCRIBE.";
inline constexpr std::string_view email_notice =
    "This communication is from a debt collector. This is an attempt to collect a debt and any "
    "information obtained will be used for that purpose.";
inline constexpr std::string_view email_signature = "Accounts team";
// A persisted e-mail's subject and sender. The sandbox sends no mail: its outbound records come
// from an address of example.com, a domain reserved for examples (RFC 2606).
inline constexpr std::string_view email_subject = "About your account";
inline constexpr std::string_view email_sender = "accounts@example.com";

[[nodiscard]] inline std::string html_escaped(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

}  // namespace message_writer

// The next SMS to the customer: "Hi <first name>, " and the template of what the thread's last
// inbound message asked for (message_writer::sms_templates). One GSM-7 segment.
[[nodiscard]] inline std::string write_sms(const MessageFacts& facts,
                                           std::optional<std::string_view> last_inbound) {
    using namespace message_writer;
    const std::string name = sms_name(facts.first_name);
    std::string out = name.empty() ? std::string("Hi, ") : "Hi " + name + ", ";
    out += sms_templates[static_cast<std::size_t>(topic_of(last_inbound, Channel::sms))];
    out += ' ';
    out += sms_opt_out;
    return out;
}

// The two bodies of an e-mail.
struct EmailDraft {
    std::string plainTextBody;
    std::string htmlBody;
    friend bool operator==(const EmailDraft&, const EmailDraft&) = default;
};

// The next e-mail to the customer, in plain text and HTML with the same paragraphs:
//
//   Dear <first name>,
//   <the opening of what the thread's last inbound message asked for>
//   Our records show a balance of <balance> on your account with <creditor>.   (when known)
//   <closing> · <opt-out instruction> · <debt collector notice> · Best regards, Accounts team
[[nodiscard]] inline EmailDraft write_email(const MessageFacts& facts,
                                            std::optional<std::string_view> last_inbound,
                                            Channel inbound_channel = Channel::email) {
    using namespace message_writer;
    std::string name = facts.first_name;
    if (const std::size_t first = name.find_first_not_of(' '); first != std::string::npos) {
        name = name.substr(first, name.find_last_not_of(' ') - first + 1);
    } else {
        name.clear();
    }
    std::array<std::string, 6> paragraphs;
    paragraphs[0] = name.empty() ? std::string("Hello,") : "Dear " + name + ",";
    paragraphs[1] =
        email_openings[static_cast<std::size_t>(topic_of(last_inbound, inbound_channel))];
    if (!facts.balance.empty()) {
        paragraphs[2] = "Our records show a balance of " + facts.balance + " on your account";
        paragraphs[2] +=
            facts.creditor.empty() ? std::string(".") : " with " + facts.creditor + ".";
    }
    paragraphs[3] = std::string(email_closing) + " " + std::string(email_opt_out);
    paragraphs[4] = std::string(email_notice);
    paragraphs[5] = "Best regards,\n" + std::string(email_signature);

    EmailDraft draft;
    for (const std::string& p : paragraphs) {
        if (p.empty()) continue;
        if (!draft.plainTextBody.empty()) draft.plainTextBody += "\n\n";
        draft.plainTextBody += p;
        std::string html = html_escaped(p);
        for (std::size_t at = html.find('\n'); at != std::string::npos; at = html.find('\n', at)) {
            html.replace(at, 1, "<br>");
        }
        draft.htmlBody += "<p>" + html + "</p>";
    }
    return draft;
}

}  // namespace collectcall
