// The rule-based analyser (interaction/analysis.hpp): its word lists, word boundaries, case and
// punctuation, exceptions, and the output variables on the wire.
#include "collectcall/interaction/analysis.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"

using namespace collectcall;

namespace {

// The variables set, as letters: s(top), h(uman), p(ayment), d(ispute), a(ttorney).
std::string flags(const OutputVariables& v) {
    std::string out;
    if (v.stop_requests) out += 's';
    if (v.human_follow_up_requested) out += 'h';
    if (v.payment_promised) out += 'p';
    if (v.dispute) out += 'd';
    if (v.attorney_represented) out += 'a';
    return out;
}

struct Case {
    std::string_view text;
    std::string_view expected;
};

}  // namespace

TEST_CASE("analyse: stop requests in their usual spellings, case and punctuation") {
    const Case cases[] = {
        {"STOP", "s"},
        {"stop", "s"},
        {"Stop.", "s"},
        {"Stop!!", "s"},
        {"  STOP  ", "s"},
        {"\"stop\"", "s"},
        {"Stop please", "s"},
        {"please STOP now", "s"},
        {"STOP STOP STOP", "s"},
        {"UNSUBSCRIBE", "s"},
        {"unsubscribe me from this list", "s"},
        {"END", "s"},
        {"Quit", "s"},
        {"cancel", "s"},
        {"STOPALL", "s"},
        {"Revoke", "s"},
        {"opt-out", "s"},
        {"OptOut", "s"},
        {"Please stop calling me.", "s"},
        {"stop texting me!!!", "s"},
        {"STOP CONTACTING ME", "s"},
        {"Do not contact me again", "s"},
        {"don't text me", "s"},
        {"Don\xE2\x80\x99t email me", "s"},
        {"I want you to cease all contact.", "s"},
        {"This is a cease and desist letter", "s"},
        {"Leave me alone", "s"},
        {"no more calls", "s"},
        {"Remove me from your list", "s"},
        {"DON'T CALL ME", "s"},  // a stop request, not a request to be called
        {"do not call me back", "s"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        CHECK(flags(analyse(c.text, Channel::sms)) == c.expected);
    }
}

TEST_CASE("analyse: texts that merely contain the letters") {
    const Case cases[] = {
        {"unstoppable", ""},
        {"nonstop", ""},
        {"We talked nonstop", ""},
        {"My father is deceased", ""},
        {"The deceased account holder", ""},
        {"I'm at the bus stop", ""},
        {"bus stop", ""},  // a keyword counts alone or with courtesy words only
        {"s t o p", ""},   // spelled apart: separate letters, no keyword
        {"st0p", ""},
        {"stopped by yesterday", ""},
        {"Can you stop by the office?", ""},
        {"The end of the month works", ""},
        {"Don't cancel my plan", ""},
        {"endless", ""},
        {"callbacks are fine", ""},
        {"predispute", ""},
        {"attorneyship", ""},
        {"", ""},
        {"!!!", ""},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        CHECK(flags(analyse(c.text, Channel::sms)) == c.expected);
    }
}

TEST_CASE("analyse: human follow-up, payment, dispute, attorney") {
    const Case cases[] = {
        {"Can I speak to a person?", "h"},
        {"please CALL ME BACK", "h"},
        {"Call me tomorrow at 5", "h"},
        {"I want a representative", "h"},
        {"Let me talk to a real human", "h"},
        {"I will pay on Friday", "p"},
        {"I'll pay next week.", "p"},
        {"ok i can pay today", "p"},
        {"Can we set up a payment plan?", "p"},
        {"I can't pay tomorrow", ""},
        {"I will not pay", ""},
        {"I refuse to pay today", ""},
        {"This is not my debt", "d"},
        {"I don't owe you anything", "d"},
        {"I DISPUTE this", "d"},
        {"Already paid!", "d"},
        {"Talk to my lawyer", "a"},
        {"I have an attorney.", "a"},
        {"My attorneys will handle it", "a"},
        {"I'll report you to the Attorney General", ""},
        {"Not my debt, talk to my attorney, and stop calling", "sda"},
        {"I'll pay today, call me back", "hp"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        CHECK(flags(analyse(c.text, Channel::sms)) == c.expected);
    }
}

TEST_CASE("analyse: e-mail quotes are not the customer's words; call turns one by one") {
    const std::string_view reply =
        "Thanks, I will pay on Friday.\n\n> Reply STOP to opt out\n> stop";
    CHECK(flags(analyse(reply, Channel::email)) == "p");
    CHECK(flags(analyse(reply, Channel::sms)) == "sp");  // an SMS has no quoting convention
    CHECK(flags(analyse("STOP\n", Channel::email)) == "s");

    const std::vector<std::string_view> turns{"Hello?", "Who is this?", "Stop."};
    CHECK(flags(analyse(turns, Channel::voice)) == "s");
    const std::vector<std::string_view> joined{"Hello? Who is this? Stop."};
    CHECK(flags(analyse(joined, Channel::voice)).empty());  // "stop" inside a sentence
}

TEST_CASE("analyse: the same text gives the same verdict") {
    const std::string_view text = "please call me back, I dispute this and will pay in full";
    CHECK(analyse(text, Channel::sms) == analyse(text, Channel::sms));
    CHECK(flags(analyse(text, Channel::sms)) == "hpd");
}

TEST_CASE("words: a hyphen separates words but joins e-mail") {
    using V = std::vector<std::string>;
    CHECK(analysis::words("Stop e-mailing me.") == V{"stop", "emailing", "me"});
    CHECK(analysis::words("E-Mail, e-mails") == V{"email", "emails"});
    CHECK(analysis::words("e\xE2\x80\x90mail e\xE2\x80\x91mail") == V{"email", "email"});
    CHECK(analysis::words("opt-out") == V{"opt", "out"});
    CHECK(analysis::words("cease-and-desist") == V{"cease", "and", "desist"});
    CHECK(analysis::words("type-e-mail") == V{"type", "email"});
    CHECK(analysis::words("e-") == V{"e"});
    CHECK(analysis::words("e-5") == V{"e", "5"});
    CHECK(analysis::words("be-mail") == V{"be", "mail"});  // only a lone e joins
    CHECK(analysis::words("x\xE2\x80\x90y") == V{"x", "y"});
    CHECK(flags(analyse("Stop e-mailing me.", Channel::email)) == "s");
    CHECK(flags(analyse("No more e-mails please", Channel::sms)) == "s");
}

namespace {

// The stop request as letters: c(all), s(ms), e(mail), g(eneral).
std::string media(const StopRequest& r) {
    std::string out;
    if (r.call) out += 'c';
    if (r.sms) out += 's';
    if (r.email) out += 'e';
    if (r.general) out += 'g';
    return out;
}

}  // namespace

TEST_CASE("stop_request: the medium a request names, the medium it came by, or none") {
    struct MediaCase {
        std::string_view text;
        Channel channel;
        std::string_view expected;
    };
    const MediaCase cases[] = {
        {"Stop texting me", Channel::voice, "s"},
        {"stop text me", Channel::email, "s"},
        {"Please stop messaging me", Channel::sms, "s"},
        {"don't text me", Channel::voice, "s"},
        {"Stop calling me!", Channel::sms, "c"},
        {"stop call me", Channel::email, "c"},
        {"Do not call me", Channel::sms, "c"},
        {"Cease calling me", Channel::email, "c"},  // "cease" here names the calls
        {"Stop e-mailing me.", Channel::sms, "e"},
        {"stop emailing me", Channel::voice, "e"},
        {"Don't email me", Channel::sms, "e"},
        {"Stop email me", Channel::sms, "e"},
        {"no more e-mails", Channel::sms, "e"},
        {"stop calling and texting me", Channel::email, "c"},  // "and texting" is no phrase
        {"stop calling, stop texting", Channel::email, "cs"},
        {"Do not contact me", Channel::sms, "g"},
        {"I want you to cease all contact.", Channel::email, "g"},
        {"This is a cease and desist letter", Channel::email, "g"},
        {"Leave me alone", Channel::voice, "g"},
        {"Stop calling me. Do not contact me again.", Channel::voice, "cg"},
        // A keyword alone, or a list to be taken off: the medium the message came by.
        {"STOP", Channel::sms, "s"},
        {"Stop please", Channel::sms, "s"},
        {"UNSUBSCRIBE", Channel::email, "e"},
        {"unsubscribe me from this list", Channel::email, "e"},
        {"Remove me", Channel::sms, "s"},
        {"Stop.", Channel::voice, "c"},
        // No request.
        {"I'm at the bus stop", Channel::sms, ""},
        {"My father is deceased", Channel::sms, ""},
        {"email me the details", Channel::sms, ""},
        {"", Channel::sms, ""},
    };
    for (const MediaCase& c : cases) {
        INFO(c.text << " / " << enum_name(c.channel));
        const StopRequest got = stop_request(c.text, c.channel);
        CHECK(media(got) == c.expected);
        // stop-requests is true exactly when the request names something.
        CHECK(analyse(c.text, c.channel).stop_requests == got.any());
    }
    // A call's turns, one message a turn: a medium in one, a general request in another.
    const std::vector<std::string_view> turns{"Hello?", "Stop texting me.", "Do not contact me."};
    CHECK(media(stop_request(turns, Channel::voice)) == "sg");
}

TEST_CASE("is_opt_out_keyword: the whole body is the keyword, trimmed, any case") {
    for (std::string_view keyword : analysis::stop_keywords) {
        INFO(keyword);
        CHECK(analysis::is_opt_out_keyword(keyword));
    }
    for (std::string_view yes :
         {"STOP", "stop", "Stop", " STOP \n", "STOP.", "Stop!!", "'stop'", "\"STOP\"", "StopAll",
          "OPTOUT", "Unsubscribe", "end", "QUIT", "cancel", "Revoke"}) {
        INFO(yes);
        CHECK(analysis::is_opt_out_keyword(yes));
    }
    for (std::string_view no :
         {"I'm at the bus stop", "stop please", "STOP STOP", "Stop texting", "s t o p", "st0p",
          "nonstop", "opt-out", "stop\xF0\x9F\x99\x82", "", "  ", "!!!", "the end", "Can't stop"}) {
        INFO(no);
        CHECK_FALSE(analysis::is_opt_out_keyword(no));
    }
}

TEST_CASE("OutputVariables: hosted names on the wire, every one required") {
    OutputVariables v;
    v.stop_requests = true;
    v.dispute = true;
    const std::string json = write(v);
    CHECK(json ==
          R"({"stop-requests":true,"human-follow-up-requested":false,"payment-promised":false,)"
          R"("dispute":true,"attorney-represented":false})");
    auto back = read<OutputVariables>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == v);

    auto bad =
        read<OutputVariables>(R"({"stop-requests":1,"dispute":false,"dispute":true,"mood":"calm",)"
                              R"("payment-promised":false,"attorney-represented":false})");
    REQUIRE_FALSE(bad.ok());
    std::vector<std::string> got;
    for (const Error& e : bad.errors())
        got.push_back(e.path + " " + e.code);
    CHECK(got == std::vector<std::string>{"/stop-requests type", "/dispute duplicate_field",
                                          "/mood unknown_field",
                                          "/human-follow-up-requested required"});
    CHECK_FALSE(read<OutputVariables>("[]").ok());
}
