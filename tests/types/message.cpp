// The texts of interactions: SmsBody, EmailBody, SegmentCount, and PastTimestamp.
#include "collectcall/types/message.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "collectcall/types/timestamp.hpp"

using namespace collectcall;

namespace {
std::string times(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}
}  // namespace

TEST_CASE("SmsBody: 1 to 1600 characters, line breaks allowed, other controls not") {
    CHECK(SmsBody::parse("a"));
    CHECK(SmsBody::parse(times("a", 1600)));
    CHECK(SmsBody::parse(times("\xF0\x9F\x99\x82", 1600)));  // characters, not bytes
    CHECK(SmsBody::parse("line one\nline two\r\n\tand\fmore"));
    CHECK(SmsBody::parse(" "));  // one character, as the hosted minLength
    CHECK(SmsBody::parse("").problem().code == codes::length);
    CHECK(SmsBody::parse(times("a", 1601)).problem().code == codes::length);
    CHECK(SmsBody::parse(times("\xF0\x9F\x99\x82", 1601)).problem().code == codes::length);
    CHECK(SmsBody::parse("bell\x07").problem().code == codes::format);
    CHECK(SmsBody::parse("del\x7F").problem().code == codes::format);
    CHECK(SmsBody::parse(std::string("nul\0", 4)).problem().code == codes::format);
    CHECK(SmsBody::parse("bad \xC3").problem().code == codes::format);
    CHECK(SmsBody::parse("x\xE2\x80\xA8y").value().view() == "x\xE2\x80\xA8y");
}

TEST_CASE("EmailBody: at most 256 KiB, may be empty, knows whether it has content") {
    CHECK(EmailBody::parse("").value().view().empty());
    CHECK_FALSE(EmailBody::parse("").value().has_content());
    CHECK_FALSE(EmailBody::parse(" \n\t\xC2\xA0\xE3\x80\x80").value().has_content());
    CHECK(EmailBody::parse(" x ").value().has_content());
    CHECK(EmailBody::parse("<p></p>").value().has_content());
    CHECK(EmailBody::parse(times("a", EmailBody::max_bytes)));
    CHECK(EmailBody::parse(times("a", EmailBody::max_bytes + 1)).problem().code == codes::length);
    CHECK(EmailBody::parse("\x1B[0m").problem().code == codes::format);
}

TEST_CASE("SegmentCount: an integer 1 to 255") {
    CHECK(SegmentCount::from_json_number("1").value().value() == 1);
    CHECK(SegmentCount::from_json_number("255").value().value() == 255);
    CHECK(SegmentCount::from_json_number("0").problem().code == codes::minimum);
    CHECK(SegmentCount::from_json_number("-3").problem().code == codes::minimum);
    CHECK(SegmentCount::from_json_number("256").problem().code == codes::range);
    CHECK(SegmentCount::from_json_number("99999999999999999999").problem().code == codes::range);
    CHECK(SegmentCount::from_json_number("1.0").problem().code == codes::type);
    CHECK(SegmentCount::from_json_number("1e1").problem().code == codes::type);
    std::string out;
    SegmentCount::of(42).append_json(out);
    CHECK(out == "42");
}

TEST_CASE("PastTimestamp: not more than five minutes after now") {
    using namespace std::chrono;
    ReadOptions options;
    options.now = sys_days{year{2026} / November / 20} + hours{15};  // 15:00:00.000Z
    CHECK(PastTimestamp::parse("2026-11-20T15:05:00Z", options));
    CHECK(PastTimestamp::parse("2026-11-20T10:05:00-05:00", options));
    CHECK(PastTimestamp::parse("1999-01-01T00:00:00Z", options));
    const auto late = PastTimestamp::parse("2026-11-20T15:05:00.001Z", options);
    REQUIRE_FALSE(late);
    CHECK(late.problem().code == codes::range);
    CHECK(PastTimestamp::parse("2026-11-20T15:00:00", options).problem().code == codes::format);
    const auto ok = PastTimestamp::parse("2026-11-20t09:00:00.5+00:00", options);
    REQUIRE(ok);
    CHECK(ok.value().view() == "2026-11-20T09:00:00.500Z");
    CHECK(ok.value().timestamp().view() == ok.value().view());
    // Without a "now", the clock: a time well ahead of it is refused, one behind it taken.
    CHECK_FALSE(PastTimestamp::parse("9999-01-01T00:00:00Z", ReadOptions{}));
    CHECK(PastTimestamp::parse("2000-01-01T00:00:00Z", ReadOptions{}));
    // Not before 1970 (API.md section 17): no message was sent in the year 0000.
    CHECK(PastTimestamp::parse("1970-01-01T00:00:00Z", options));
    CHECK(PastTimestamp::parse("1970-01-01T01:00:00+01:00", options));
    for (std::string_view early :
         {"1969-12-31T23:59:59.999Z", "0000-01-01T00:00:00Z", "1970-01-01T00:59:59+01:00"}) {
        CAPTURE(early);
        const auto refused = PastTimestamp::parse(early, options);
        REQUIRE_FALSE(refused);
        CHECK(refused.problem().code == codes::range);
    }
}
