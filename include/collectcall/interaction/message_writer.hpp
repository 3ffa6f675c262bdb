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
// ("Hi,") otherwise. Every SMS ends with the opt-out notice Regulation F asks of electronic
// communications (12 CFR 1006.6(e)); every e-mail with the notice of 15 U.S.C. 1692e(11).
#pragma once

#include <array>
#include <cstddef>
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

[[nodiscard]] inline Topic topic_of(std::optional<std::string_view> last_inbound, Channel channel) {
    if (!last_inbound) return Topic::none;
    const OutputVariables v = analyse(*last_inbound, channel);
    if (v.stop_requests) return Topic::stop;
    if (v.attorney_represented) return Topic::attorney;
    if (v.dispute) return Topic::dispute;
    if (v.human_follow_up_requested) return Topic::human;
    if (v.payment_promised) return Topic::payment;
    return Topic::other;
}

// The SMS templates, by topic: "Hi <name>, " or "Hi, " comes before each.
inline constexpr std::array<std::string_view, 7> sms_templates{
    "this is a message about your account. Reply here or call us to talk about your options. "
    "Reply STOP to opt out.",
    "we have received your request and will not text you again. Reply STOP to opt out.",
    "thank you. An agent will call you back during business hours. Reply STOP to opt out.",
    "thank you for your commitment to pay. We will confirm the details. Reply STOP to opt out.",
    "we have noted your dispute and will send you information about the debt. Reply STOP to "
    "opt out.",
    "thank you. We will contact your attorney from now on. Reply STOP to opt out.",
    "thank you for your message. Reply here or call us to talk about your options. Reply STOP "
    "to opt out.",
};

// The longest first name an SMS carries.
inline constexpr std::size_t sms_max_name = 24;

// Every template is one septet a character and fits one segment after "Hi <longest name>, ".
static_assert(
    [] {
        for (std::string_view text : sms_templates) {
            std::size_t septets = std::string_view("Hi , ").size() + sms_max_name;
            for (char c : text) {
                if (sms::gsm7_septets(static_cast<unsigned char>(c)) != 1) return false;
                ++septets;
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
    "We have received your request to stop contacting you, and we will respect it.",
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
//   <closing> · <debt collector notice> · Best regards, Accounts team
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
    std::array<std::string, 5> paragraphs;
    paragraphs[0] = name.empty() ? std::string("Hello,") : "Dear " + name + ",";
    paragraphs[1] =
        email_openings[static_cast<std::size_t>(topic_of(last_inbound, inbound_channel))];
    if (!facts.balance.empty()) {
        paragraphs[2] = "Our records show a balance of " + facts.balance + " on your account";
        paragraphs[2] +=
            facts.creditor.empty() ? std::string(".") : " with " + facts.creditor + ".";
    }
    paragraphs[3] = std::string(email_closing) + " " + std::string(email_notice);
    paragraphs[4] = "Best regards,\n" + std::string(email_signature);

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
