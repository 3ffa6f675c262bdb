#include <collectcall/types/date.hpp>

#include <chrono>
#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

#include <collectcall/core/value_type.hpp>

using namespace std::literals;
using namespace std::chrono;
using collectcall::Date;
using collectcall::PastDate;

TEST_CASE("Date accepts real calendar dates in 1900-2100", "[types][date]") {
    using row = std::tuple<std::string_view, int, unsigned, unsigned>;
    const auto [text, y, m, d] = GENERATE(table<std::string_view, int, unsigned, unsigned>({
        row{"2024-02-29", 2024, 2, 29},  // leap year
        row{"2000-02-29", 2000, 2, 29},  // divisible by 400: leap
        row{"1904-02-29", 1904, 2, 29},
        row{"2023-02-28", 2023, 2, 28},
        row{"1900-01-01", 1900, 1, 1},
        row{"2100-12-31", 2100, 12, 31},
        row{"1999-04-30", 1999, 4, 30},
        row{"1980-05-17", 1980, 5, 17},
        row{"2023-12-31", 2023, 12, 31},
    }));
    INFO(text);
    const auto parsed = Date::parse(text);
    REQUIRE(parsed.ok());
    const Date& date = parsed.value();
    CHECK(date.view() == text);
    CHECK(date.year() == y);
    CHECK(date.month() == m);
    CHECK(date.day() == d);
    CHECK(date.days() == sys_days{year{y} / month{m} / day{d}});
    CHECK(Date::from_days(date.days()) == date);
}

TEST_CASE("Date rejects impossible days and bad shapes as format, other years as range",
          "[types][date]") {
    using row = std::tuple<std::string_view, std::string_view>;
    const auto [text, code] = GENERATE(table<std::string_view, std::string_view>({
        row{"2023-02-29", "format"},  // not a leap year
        row{"1900-02-29", "format"},  // divisible by 100, not by 400
        row{"2100-02-29", "format"},
        row{"2023-02-30", "format"},
        row{"2024-04-31", "format"},
        row{"2023-13-01", "format"},
        row{"2023-00-10", "format"},
        row{"2023-01-00", "format"},
        row{"2023-01-32", "format"},
        row{"1899-12-31", "range"},
        row{"2101-01-01", "range"},
        row{"1899-02-29", "range"},
        row{"0000-01-01", "range"},
        row{"9999-12-31", "range"},
        row{"", "format"},
        row{"2023-1-01", "format"},
        row{"2023-01-1", "format"},
        row{"20230101", "format"},
        row{"2023/01/01", "format"},
        row{"01-01-2023", "format"},
        row{" 2023-01-01", "format"},
        row{"2023-01-01 ", "format"},
        row{"2023-01-01T00:00:00Z", "format"},
        row{"+2023-01-01", "format"},
        row{"2023-0a-01", "format"},
        row{"２０２３-01-01", "format"},
        row{"2023-01-0\0"sv, "format"},
    }));
    INFO(text);
    const auto parsed = Date::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == code);
    CHECK_FALSE(parsed.problem().message.empty());
}

TEST_CASE("Date messages tell the user what is wrong", "[types][date]") {
    CHECK(Date::parse("2023/01/01").problem().message == "must be a date YYYY-MM-DD");
    CHECK(Date::parse("2023-02-29").problem().message == "must be a real calendar date YYYY-MM-DD");
    CHECK(Date::parse("1899-12-31").problem().message == "year must be between 1900 and 2100");
}

TEST_CASE("Date converts to and from sys_days", "[types][date]") {
    const Date leap = Date::from_days(sys_days{2024y / February / 29});
    CHECK(leap.view() == "2024-02-29");
    CHECK(Date::from_days(sys_days{1900y / January / 1}).view() == "1900-01-01");
    CHECK(Date::from_days(sys_days{2100y / December / 31}).view() == "2100-12-31");
    CHECK(Date::from_days(sys_days{1969y / December / 31}).view() == "1969-12-31");
    CHECK(Date::parse("2024-03-01").value().days() - leap.days() == days{1});
    CHECK(Date::parse("1970-01-01").value().days().time_since_epoch() == days{0});
}

TEST_CASE("The civil calendar's arithmetic agrees with std::chrono's year_month_day",
          "[types][date]") {
    // Every day of the years -1 to 10000 (a Timestamp's whole range and a day on either side),
    // each era boundary included, both ways.
    const sys_days first = year{-1} / January / 1;
    const sys_days last = year{10001} / January / 1;
    std::size_t mismatches = 0;
    std::size_t days_checked = 0;
    for (sys_days day = first; day < last; day += days{1}) {
        const year_month_day expected{day};
        const collectcall::detail::CivilDate civil = collectcall::detail::civil_from_days(day);
        const bool same = civil.year == static_cast<int>(expected.year()) &&
                          civil.month == static_cast<unsigned>(expected.month()) &&
                          civil.day == static_cast<unsigned>(expected.day()) &&
                          collectcall::detail::days_from_civil(civil) == day;
        if (!same) ++mismatches;
        ++days_checked;
    }
    CHECK(days_checked == 3'653'156);  // 10,002 years, 2,426 of them leap (year 0 is one)
    CHECK(mismatches == 0);
    STATIC_REQUIRE(collectcall::detail::days_from_civil({1970, 1, 1}) == sys_days{});
    STATIC_REQUIRE(collectcall::detail::days_from_civil({2000, 3, 1}) == sys_days{days{11017}});
    STATIC_REQUIRE(collectcall::detail::civil_from_days(sys_days{days{-1}}).year == 1969);
}

TEST_CASE("Date equality compares the day", "[types][date]") {
    CHECK(Date::parse("2024-02-29").value() == Date::parse("2024-02-29").value());
    CHECK(Date::parse("2024-02-29").value() != Date::parse("2024-02-28").value());
    STATIC_REQUIRE(std::is_trivially_copyable_v<Date>);
    STATIC_REQUIRE(collectcall::StringValue<Date>);
}

TEST_CASE("PastDate refuses a date after ReadOptions' today", "[types][date]") {
    collectcall::ReadOptions options;
    options.today = sys_days{2026y / November / 20};

    const auto today = PastDate::parse("2026-11-20", options);
    REQUIRE(today.ok());
    CHECK(today.value().view() == "2026-11-20");
    CHECK(today.value().date() == Date::parse("2026-11-20").value());

    CHECK(PastDate::parse("1980-05-17", options).ok());
    CHECK(PastDate::parse("1900-01-01", options).ok());

    const auto tomorrow = PastDate::parse("2026-11-21", options);
    REQUIRE_FALSE(tomorrow.ok());
    CHECK(tomorrow.problem().code == collectcall::codes::range);
    CHECK(tomorrow.problem().message == "must not be in the future");

    // The Date's own problems come through unchanged.
    CHECK(PastDate::parse("2023-02-29", options).problem().code == collectcall::codes::format);
    CHECK(PastDate::parse("1899-12-31", options).problem().code == collectcall::codes::range);
    CHECK(PastDate::parse("1899-12-31", options).problem().message ==
          "year must be between 1900 and 2100");

    options.today = sys_days{2026y / November / 21};
    CHECK(PastDate::parse("2026-11-21", options).ok());
}

TEST_CASE("PastDate without a fixed today uses the system clock", "[types][date]") {
    const collectcall::ReadOptions options;
    CHECK(PastDate::parse("2000-01-01", options).ok());
    CHECK(PastDate::parse("2100-12-31", options).problem().code == collectcall::codes::range);
}

TEST_CASE("PastDate needs the read context", "[types][date]") {
    STATIC_REQUIRE(collectcall::ContextStringValue<PastDate>);
    STATIC_REQUIRE_FALSE(collectcall::StringValue<PastDate>);
    STATIC_REQUIRE(std::is_trivially_copyable_v<PastDate>);
}

TEST_CASE("Date and PastDate parse_into agree with parse and change nothing on failure",
          "[types][date]") {
    collectcall::ReadOptions options;
    options.today = sys_days{2025y / June / 15};
    const auto text = GENERATE(as<std::string_view>{}, "2024-02-29", "1900-01-01", "2025-06-15",
                               "2025-06-16", "2100-12-31", "2023-02-29", "1899-12-31", "2024-13-01",
                               "2024-1-01", "", "2024-02-2x");
    INFO(text);
    const auto parsed = Date::parse(text);
    Date date = Date::parse("2000-01-01").value();
    const auto problem = Date::parse_into(text, date);
    REQUIRE(problem.has_value() != parsed.ok());
    if (parsed.ok()) {
        CHECK(date == parsed.value());
    } else {
        CHECK(problem->code == parsed.problem().code);
        CHECK(problem->message == parsed.problem().message);
        CHECK(date.view() == "2000-01-01");
    }

    const auto past = PastDate::parse(text, options);
    PastDate past_date = PastDate::parse("2000-01-01", options).value();
    const auto past_problem = PastDate::parse_into(text, options, past_date);
    REQUIRE(past_problem.has_value() != past.ok());
    if (past.ok()) {
        CHECK(past_date == past.value());
    } else {
        CHECK(past_problem->code == past.problem().code);
        CHECK(past_problem->message == past.problem().message);
        CHECK(past_date.view() == "2000-01-01");
    }
}
