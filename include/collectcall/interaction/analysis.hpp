// The rule-based analyser of an interaction's text (API.md section 13): what the customer asked
// for or said, as the output variables of POST /interactions/{id}/analyze. A pure function with
// documented word lists (docs/interactions.md), so that another service gets the same verdicts.
//
// The text is cut into words: ASCII letters are folded to lower case, apostrophes (' and U+2019)
// are dropped so that "don't" is the word "dont", and every other ASCII character that is not a
// letter or a digit separates words (non-ASCII letters stay inside their word). A hyphen ('-',
// U+2010, U+2011) separates words too, with one exception: after a lone "e" and before a letter
// it is dropped, so that "e-mail", "E-mails" and "e-mailing" are the words "email", "emails" and
// "emailing", as they are spelled without it ("opt-out" stays "opt out"). A phrase matches whole
// consecutive words only: "stop calling" is in "Please STOP calling!!", "stop" is not in
// "nonstop" or "unstoppable", "cease" is not in "deceased". Letters spelled apart ("s t o p") are
// separate words and match nothing.
//
// stop-requests is true when a message is an opt-out keyword alone (the keywords of API.md
// section 16, STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT, which CTIA's
// Messaging Principles and Best Practices name as the standard opt-out keywords of text
// messaging, possibly with courtesy words: "Stop please", "STOP!!!"), or when a stop phrase
// appears anywhere ("stop texting me", "do not contact", "cease and desist"). A keyword inside a
// longer sentence is not a request: "I'm at the bus stop" and "end of the month" are not. Each
// rule may also list exceptions, phrases taken out of the text before matching ("attorney
// general" is not an attorney; "can't pay tomorrow" is not a promise to pay tomorrow).
//
// A stop request names the media it is about where it can (stop_request): "stop calling" the
// calls, "stop texting" the texts, "stop e-mailing" the e-mails (12 CFR 1006.14(h) lets a consumer
// restrict one medium); a keyword alone, "unsubscribe" or "remove me" the medium the message came
// by (a carrier's STOP ends the texts, an e-mail's "unsubscribe" the e-mails); and "do not contact
// me", "leave me alone" or "cease" is general: it names no medium (in writing, it is the
// cease-and-desist of 15 U.S.C. 1692c(c)).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"

namespace collectcall {

// The channels of an interaction (the hosted AnalyzeInteractionResponse's channel).
enum class Channel { sms, voice, email };
BOOST_DESCRIBE_ENUM(Channel, sms, voice, email)

// The output variables of an analysis. On the wire an object with one boolean per variable, named
// as the hosted service names them ("stop-requests", ...).
struct OutputVariables {
    bool stop_requests = false;
    bool human_follow_up_requested = false;
    bool payment_promised = false;
    bool dispute = false;
    bool attorney_represented = false;

    friend bool operator==(const OutputVariables&, const OutputVariables&) = default;
};

namespace analysis {

// One rule: the phrases that set its variable, and the phrases taken out of the text first.
struct Rule {
    std::string_view variable;  // the wire name
    bool OutputVariables::*member;
    std::span<const std::string_view> phrases;
    std::span<const std::string_view> exceptions;
};

// Words a message may add to an opt-out keyword and still be one ("stop please").
inline constexpr std::string_view courtesy_words[] = {
    "please", "pls", "plz", "now", "thanks", "thank", "you", "ok", "okay", "just", "immediately",
};

// The opt-out keywords of text messaging: API.md section 16's list, the standard keywords of
// CTIA's Messaging Principles and Best Practices (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT,
// and REVOKE and OPTOUT added for the revocation of consent). They count when they are (with
// courtesy words) the whole message; an inbound SMS that is one of them and nothing else
// restricts texts on receipt, as a carrier would (is_opt_out_keyword).
inline constexpr std::string_view stop_keywords[] = {
    "stop", "stopall", "unsubscribe", "cancel", "end", "quit", "revoke", "optout",
};

// Stop phrases that name a medium: the calls, the texts, the e-mails.
inline constexpr std::string_view stop_call_phrases[] = {
    "stop calling", "stop call", "stop calls",    "cease calling",
    "do not call",  "dont call", "no more calls",
};
inline constexpr std::string_view stop_text_phrases[] = {
    "stop texting",   "stop text",     "stop texts",    "stop messaging",
    "stop messages",  "cease texting", "do not text",   "dont text",
    "do not message", "dont message",  "no more texts", "no more messages",
};
inline constexpr std::string_view stop_email_phrases[] = {
    "stop emailing", "stop email", "stop emails",    "cease emailing",
    "do not email",  "dont email", "no more emails",
};
// Stop phrases about the medium the message came by: a list the sender asks to be taken off.
inline constexpr std::string_view stop_this_medium_phrases[] = {
    "unsubscribe", "opt out", "optout", "remove me", "take me off", "stop sending",
};
// Stop phrases that name no medium, looked for after the phrases above are taken out ("cease
// calling" names the calls; "cease and desist" none).
inline constexpr std::string_view stop_general_phrases[] = {
    "stop contacting", "stop bothering", "stop harassing", "stop all",
    "do not contact",  "dont contact",   "leave me alone", "cease",
};

inline constexpr std::string_view human_follow_up_phrases[] = {
    "speak to a person",
    "speak with a person",
    "speak to someone",
    "speak with someone",
    "speak to a human",
    "speak to an agent",
    "speak to a real",
    "talk to a person",
    "talk with a person",
    "talk to someone",
    "talk with someone",
    "talk to a human",
    "talk to an agent",
    "talk to a real",
    "real person",
    "call me back",
    "call me",
    "give me a call",
    "callback",
    "call back",
    "representative",
    "supervisor",
    "a human",
};
// "Don't call me" asks for the opposite of a call.
inline constexpr std::string_view human_follow_up_exceptions[] = {
    "dont call", "do not call", "never call", "stop call", "stop calling", "no more calls",
};

inline constexpr std::string_view payment_phrases[] = {
    "i will pay",
    "ill pay",
    "i can pay",
    "i promise to pay",
    "i am going to pay",
    "im going to pay",
    "going to pay",
    "i will make a payment",
    "ill make a payment",
    "i can make a payment",
    "i will send a payment",
    "ill send a payment",
    "i will send the payment",
    "set up a payment",
    "payment plan",
    "pay tomorrow",
    "pay today",
    "pay next week",
    "pay on friday",
    "pay by friday",
    "pay in full",
};
inline constexpr std::string_view payment_exceptions[] = {
    "cant pay",     "cannot pay",       "can not pay",   "wont pay",
    "will not pay", "not going to pay", "unable to pay", "refuse to pay",
    "dont pay",     "do not pay",       "not pay",
};

inline constexpr std::string_view dispute_phrases[] = {
    "dispute",           "disputing",    "disputed",          "not my debt",     "not my account",
    "not mine",          "i dont owe",   "i do not owe",      "dont owe",        "do not owe",
    "never owed",        "already paid", "paid this off",     "paid it off",     "wrong person",
    "identity theft",    "fraud",        "validate the debt", "verify the debt", "debt validation",
    "validation notice",
};

inline constexpr std::string_view attorney_phrases[] = {
    "attorney",
    "attorneys",
    "lawyer",
    "lawyers",
    "law firm",
    "legal counsel",
    "my counsel",
    "represented by counsel",
    "legal representation",
};
inline constexpr std::string_view attorney_exceptions[] = {"attorney general", "attorneys general"};

// Every rule, in the order of the output variables.
inline constexpr std::array<Rule, 5> rules{{
    // Set by stop_request (below), from the keyword and stop phrase lists above.
    {"stop-requests", &OutputVariables::stop_requests, {}, {}},
    {"human-follow-up-requested", &OutputVariables::human_follow_up_requested,
     human_follow_up_phrases, human_follow_up_exceptions},
    {"payment-promised", &OutputVariables::payment_promised, payment_phrases, payment_exceptions},
    {"dispute", &OutputVariables::dispute, dispute_phrases, {}},
    {"attorney-represented", &OutputVariables::attorney_represented, attorney_phrases,
     attorney_exceptions},
}};

// The words of `text`, as the header describes them.
[[nodiscard]] inline std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string word;
    const auto flush = [&] {
        if (!word.empty()) out.push_back(std::move(word));
        word.clear();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\'') continue;
        // U+2019 RIGHT SINGLE QUOTATION MARK, the apostrophe of typed text: E2 80 99.
        if (c == 0xE2 && text.substr(i, 3) == "\xE2\x80\x99") {
            i += 2;
            continue;
        }
        // '-', U+2010 HYPHEN (E2 80 90), U+2011 NON-BREAKING HYPHEN (E2 80 91).
        std::size_t hyphen = 0;
        if (c == '-') {
            hyphen = 1;
        } else if (c == 0xE2 &&
                   (text.substr(i, 3) == "\xE2\x80\x90" || text.substr(i, 3) == "\xE2\x80\x91")) {
            hyphen = 3;
        }
        if (hyphen != 0) {
            const std::size_t next = i + hyphen;
            const bool letter_next =
                next < text.size() && ((text[next] >= 'a' && text[next] <= 'z') ||
                                       (text[next] >= 'A' && text[next] <= 'Z'));
            if (!(word == "e" && letter_next)) flush();  // "e-mail" is "email"
            i = next - 1;
            continue;
        }
        if (c >= 'A' && c <= 'Z') {
            word += static_cast<char>(c - 'A' + 'a');
        } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80) {
            word += static_cast<char>(c);
        } else {
            flush();
        }
    }
    flush();
    return out;
}

// The words of a phrase (its words are separated by single spaces).
[[nodiscard]] inline std::vector<std::string_view> phrase_words(std::string_view phrase) {
    std::vector<std::string_view> out;
    while (!phrase.empty()) {
        const std::size_t space = phrase.find(' ');
        out.push_back(phrase.substr(0, space));
        if (space == std::string_view::npos) break;
        phrase.remove_prefix(space + 1);
    }
    return out;
}

// Where `phrase` starts in `text` at or after `from`, as whole words; text.size() when nowhere.
[[nodiscard]] inline std::size_t find_phrase(const std::vector<std::string>& text,
                                             const std::vector<std::string_view>& phrase,
                                             std::size_t from = 0) {
    if (phrase.empty() || phrase.size() > text.size()) return text.size();
    for (std::size_t i = from; i + phrase.size() <= text.size(); ++i) {
        std::size_t k = 0;
        while (k < phrase.size() && text[i + k] == phrase[k])
            ++k;
        if (k == phrase.size()) return i;
    }
    return text.size();
}

// `text` without every occurrence of the exception phrases (each replaced by a word no phrase
// has, so that the words around it do not join into a phrase).
[[nodiscard]] inline std::vector<std::string> without(
    std::vector<std::string> text, std::span<const std::string_view> exceptions) {
    for (std::string_view exception : exceptions) {
        const std::vector<std::string_view> phrase = phrase_words(exception);
        for (std::size_t at = find_phrase(text, phrase); at < text.size();
             at = find_phrase(text, phrase, at + 1)) {
            for (std::size_t k = 0; k < phrase.size(); ++k)
                text[at + k].assign(1, '|');
        }
    }
    return text;
}

[[nodiscard]] inline bool contains_any(const std::vector<std::string>& text,
                                       std::span<const std::string_view> phrases) {
    for (std::string_view phrase : phrases) {
        if (find_phrase(text, phrase_words(phrase)) < text.size()) return true;
    }
    return false;
}

template <std::size_t N>
[[nodiscard]] bool is_one_of(std::string_view word, const std::string_view (&list)[N]) {
    for (std::string_view candidate : list) {
        if (candidate == word) return true;
    }
    return false;
}

// Whether the message is an opt-out keyword alone, with courtesy words at most.
[[nodiscard]] inline bool is_stop_keyword_message(const std::vector<std::string>& text) {
    bool keyword = false;
    for (const std::string& word : text) {
        if (is_one_of(word, stop_keywords)) {
            keyword = true;
        } else if (!is_one_of(word, courtesy_words)) {
            return false;
        }
    }
    return keyword;
}

// Whether an inbound SMS is an opt-out keyword a carrier honours on receipt (API.md section 16):
// the whole body, trimmed and case-insensitive, is one of stop_keywords. Punctuation and quotes
// around the keyword do not count ("STOP.", "'Stop'", "STOP!!" are the keyword), but any other
// word does: "Stop please" is a stop request for the analyser (analyse, stop_request), not a
// keyword, and "I'm at the bus stop" is neither.
[[nodiscard]] inline bool is_opt_out_keyword(std::string_view body) {
    const std::vector<std::string> text = words(body);
    return text.size() == 1 && is_one_of(text.front(), stop_keywords);
}

// The lines of an e-mail that are the customer's own: a line starting with '>' quotes an earlier
// message, which is not what the customer says now.
[[nodiscard]] inline std::string unquoted(std::string_view email) {
    std::string out;
    while (!email.empty()) {
        const std::size_t end = email.find('\n');
        const std::string_view line = email.substr(0, end);
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos || line[first] != '>') {
            out += line;
            out += '\n';
        }
        if (end == std::string_view::npos) break;
        email.remove_prefix(end + 1);
    }
    return out;
}

// The words of one message of `channel`, as the rules read them.
[[nodiscard]] inline std::vector<std::string> message_words(std::string_view message,
                                                            Channel channel) {
    return words(channel == Channel::email ? unquoted(message) : std::string(message));
}

}  // namespace analysis

// What a stop request asks to stop: the media it names, or none named (`general`). Empty when
// the messages make no stop request (stop-requests false).
struct StopRequest {
    bool call = false;   // the calls
    bool sms = false;    // the text messages
    bool email = false;  // the e-mails
    // A request that names no medium ("do not contact me", "cease and desist").
    bool general = false;

    [[nodiscard]] bool any() const noexcept { return call || sms || email || general; }
    friend bool operator==(const StopRequest&, const StopRequest&) = default;
};

namespace analysis {

// The stop request of one message's words received on `channel`.
inline void add_stop_request(StopRequest& out, const std::vector<std::string>& text,
                             Channel channel) {
    bool& this_medium = channel == Channel::voice ? out.call
                        : channel == Channel::sms ? out.sms
                                                  : out.email;
    if (is_stop_keyword_message(text) || contains_any(text, stop_this_medium_phrases))
        this_medium = true;
    if (contains_any(text, stop_call_phrases)) out.call = true;
    if (contains_any(text, stop_text_phrases)) out.sms = true;
    if (contains_any(text, stop_email_phrases)) out.email = true;
    std::vector<std::string> rest = without(text, stop_call_phrases);
    rest = without(std::move(rest), stop_text_phrases);
    rest = without(std::move(rest), stop_email_phrases);
    if (contains_any(rest, stop_general_phrases)) out.general = true;
}

}  // namespace analysis

// The stop request of the customer's messages on `channel` (as analyse reads them): every medium
// one of them names, and whether one names none. stop_request(...).any() is the stop-requests
// variable of analyse.
[[nodiscard]] inline StopRequest stop_request(std::span<const std::string_view> messages,
                                              Channel channel) {
    StopRequest out;
    for (std::string_view message : messages)
        analysis::add_stop_request(out, analysis::message_words(message, channel), channel);
    return out;
}

[[nodiscard]] inline StopRequest stop_request(std::string_view message, Channel channel) {
    return stop_request(std::span<const std::string_view>(&message, 1), channel);
}

// The output variables of the customer's messages on `channel`: one SMS or e-mail body, or the
// customer's turns of a call's transcript, one message a turn. A variable is true when one of the
// messages sets it.
[[nodiscard]] inline OutputVariables analyse(std::span<const std::string_view> messages,
                                             Channel channel) {
    OutputVariables out;
    StopRequest stop;
    for (std::string_view message : messages) {
        const std::vector<std::string> text = analysis::message_words(message, channel);
        analysis::add_stop_request(stop, text, channel);
        for (const analysis::Rule& rule : analysis::rules) {
            if (analysis::contains_any(analysis::without(text, rule.exceptions), rule.phrases)) {
                out.*rule.member = true;
            }
        }
    }
    out.stop_requests = stop.any();
    return out;
}

// The same for a single message.
[[nodiscard]] inline OutputVariables analyse(std::string_view message, Channel channel) {
    return analyse(std::span<const std::string_view>(&message, 1), channel);
}

// ---- On the wire ------------------------------------------------------------------------------

inline void collectcall_write(Writer& writer, const OutputVariables& value) {
    writer.raw('{');
    bool first = true;
    for (const analysis::Rule& rule : analysis::rules) {
        if (!first) writer.raw(',');
        first = false;
        writer.string(rule.variable);
        writer.raw(':');
        writer.boolean(value.*rule.member);
    }
    writer.raw('}');
}

// Every variable is required, each once; any other member is unknown.
inline bool collectcall_read(ValueReader& in, OutputVariables& out) {
    if (in.type() != JsonType::object) {
        return in.object([](std::string_view, ValueReader&) {});  // "must be an object"
    }
    std::array<bool, analysis::rules.size()> seen{};
    out = {};
    bool ok = in.object([&](std::string_view key, ValueReader& member) {
        std::size_t i = 0;
        while (i < analysis::rules.size() && analysis::rules[i].variable != key)
            ++i;
        if (i == analysis::rules.size()) {
            member.error(codes::unknown_field, "is not a known member");
        } else if (seen[i]) {
            member.error(codes::duplicate_field, "appears more than once");
        } else {
            seen[i] = true;
            member.read(out.*analysis::rules[i].member);
        }
    });
    for (std::size_t i = 0; i < seen.size(); ++i) {
        if (!seen[i]) {
            in.member_error(analysis::rules[i].variable, codes::required, "is required");
            ok = false;
        }
    }
    return ok;
}

inline void collectcall_schema(schema_tag<OutputVariables>, SchemaBuilder& s) {
    s["type"] = "object";
    s["description"] =
        "The analysis outcome: one boolean per variable of the rule-based analyser "
        "(docs/interactions.md).";
    Json required = Json::array();
    for (const analysis::Rule& rule : analysis::rules) {
        s["properties"][rule.variable]["type"] = "boolean";
        required.push_back(rule.variable);
    }
    s["required"] = std::move(required);
    s["additionalProperties"] = false;
}

}  // namespace collectcall
