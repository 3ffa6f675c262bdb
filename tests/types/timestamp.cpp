#include <collectcall/types/timestamp.hpp>

#include <chrono>
#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

using namespace std::literals;
using namespace std::chrono;
using collectcall::Timestamp;

TEST_CASE("Timestamp normalises RFC 3339 to UTC with milliseconds", "[types][timestamp]") {
    using row = std::tuple<std::string_view, std::string_view>;
    const auto [text, canonical] = GENERATE(table<std::string_view, std::string_view>({
        row{"2026-11-20T15:00:00Z", "2026-11-20T15:00:00.000Z"},
        row{"2026-11-20T15:00:00.000Z", "2026-11-20T15:00:00.000Z"},
        row{"2026-11-20T10:00:00-05:00", "2026-11-20T15:00:00.000Z"},
        row{"2026-11-20T20:30:00+05:30", "2026-11-20T15:00:00.000Z"},
        row{"2026-11-20T15:00:00+00:00", "2026-11-20T15:00:00.000Z"},
        row{"2026-11-20T15:00:00-00:00", "2026-11-20T15:00:00.000Z"},
        row{"2026-11-20t15:00:00z", "2026-11-20T15:00:00.000Z"},
        row{"2026-11-20T15:00:00.1Z", "2026-11-20T15:00:00.100Z"},
        row{"2026-11-20T15:00:00.12Z", "2026-11-20T15:00:00.120Z"},
        row{"2026-11-20T15:00:00.123Z", "2026-11-20T15:00:00.123Z"},
        row{"2026-11-20T15:00:00.123456789Z", "2026-11-20T15:00:00.123Z"},  // truncated
        row{"2026-11-20T15:00:00.9999Z", "2026-11-20T15:00:00.999Z"},       // never rounded up
        row{"2026-01-01T01:00:00+02:00", "2025-12-31T23:00:00.000Z"},       // back a year
        row{"2025-12-31T23:30:00-01:00", "2026-01-01T00:30:00.000Z"},       // forward a year
        row{"2024-02-29T23:59:59.999-23:59", "2024-03-01T23:58:59.999Z"},
        row{"2024-03-01T00:00:00+01:00", "2024-02-29T23:00:00.000Z"},
        row{"1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"},  // before the epoch
        row{"1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"},
        row{"0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000Z"},
        row{"9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"},
    }));
    INFO(text);
    const auto parsed = Timestamp::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == canonical);
    CHECK(Timestamp::parse(canonical).value() == parsed.value());
    CHECK(Timestamp::from_time(parsed.value().time()) == parsed.value());
}

TEST_CASE("Timestamp rejects other shapes and impossible times", "[types][timestamp]") {
    using row = std::tuple<std::string_view, std::string_view>;
    const auto [text, code] = GENERATE(table<std::string_view, std::string_view>({
        row{"", "format"},
        row{"2026-11-20", "format"},
        row{"2026-11-20T15:00:00", "format"},  // no offset
        row{"2026-11-20 15:00:00Z", "format"},
        row{"2026-11-20T15:00Z", "format"},
        row{"2026-11-20T15:00:00.Z", "format"},
        row{"2026-11-20T15:00:00,5Z", "format"},
        row{"2026-11-20T15:00:00+0500", "format"},
        row{"2026-11-20T15:00:00+05", "format"},
        row{"2026-11-20T15:00:00+05:00:00", "format"},
        row{"2026-11-20T15:00:00ZZ", "format"},
        row{"2026-11-20T15:00:00Z ", "format"},
        row{" 2026-11-20T15:00:00Z", "format"},
        row{"2026-11-20T15:00:00UTC", "format"},
        row{"2026-11-20T5:00:00Z", "format"},
        row{"2026-11-20T15:0a:00Z", "format"},
        row{"20261120T150000Z", "format"},
        row{"2026-11-20T24:00:00Z", "format"},
        row{"2026-11-20T15:60:00Z", "format"},
        row{"2016-12-31T23:59:60Z", "format"},  // leap second
        row{"2023-02-29T00:00:00Z", "format"},
        row{"2026-13-01T00:00:00Z", "format"},
        row{"2026-11-20T15:00:00+24:00", "format"},
        row{"2026-11-20T15:00:00+05:60", "format"},
        row{"2026-11-20T15:00:00.123+05:00\0"sv, "format"},
        row{"0000-01-01T00:00:00+00:01", "range"},
        row{"9999-12-31T23:59:59-00:01", "range"},
    }));
    INFO(text);
    const auto parsed = Timestamp::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == code);
    CHECK_FALSE(parsed.problem().message.empty());
}

TEST_CASE("Timestamp messages", "[types][timestamp]") {
    CHECK(Timestamp::parse("2026-11-20").problem().message ==
          "must be an RFC 3339 timestamp, e.g. 2026-11-20T15:00:00Z");
    CHECK(Timestamp::parse("2016-12-31T23:59:60Z").problem().message ==
          "leap seconds (:60) are not supported");
    CHECK(Timestamp::parse("2023-02-29T00:00:00Z").problem().message ==
          "must be a real date and time (RFC 3339)");
}

TEST_CASE("Timestamp is an instant", "[types][timestamp]") {
    const Timestamp t = Timestamp::parse("2026-11-20T10:00:00.250-05:00").value();
    CHECK(t.time() == sys_days{2026y / November / 20} + 15h + 250ms);
    CHECK(t == Timestamp::parse("2026-11-20T15:00:00.25Z").value());
    CHECK(t == Timestamp::parse("2026-11-21T00:00:00.250+09:00").value());
    CHECK(t != Timestamp::parse("2026-11-20T15:00:00.251Z").value());

    const Timestamp u = Timestamp::from_time(sys_days{2026y / November / 20} + 15h + 1ms);
    CHECK(u.view() == "2026-11-20T15:00:00.001Z");
    CHECK(Timestamp::from_time(sys_time<milliseconds>{}).view() == "1970-01-01T00:00:00.000Z");
    CHECK(Timestamp::from_time(sys_time<milliseconds>{-1ms}).view() == "1969-12-31T23:59:59.999Z");

    STATIC_REQUIRE(std::is_trivially_copyable_v<Timestamp>);
}
