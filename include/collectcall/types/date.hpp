// Date: a real calendar date YYYY-MM-DD in the years 1900-2100; PastDate: one not after today.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "collectcall/core/chrono.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/core/value_type.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

namespace detail {

struct CivilDate {
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
};

constexpr bool is_leap_year(int year) noexcept {
    return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

// Precondition: 1 <= month <= 12.
constexpr unsigned days_in_month(int year, unsigned month) noexcept {
    constexpr std::array<unsigned char, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap_year(year) ? 29U : days[month - 1];
}

constexpr bool is_real_date(const CivilDate& date) noexcept {
    return date.month >= 1 && date.month <= 12 && date.day >= 1 &&
           date.day <= days_in_month(date.year, date.month);
}

// The day of a date of the proleptic Gregorian calendar, and the date of a day, as
// std::chrono's year_month_day converts them. The calendar repeats every 400 years (146,097
// days); within such an era, years are counted from March, so that February, the month of the
// leap day, comes last and a month's first day follows from its number alone (153 days to five
// months from March).
constexpr std::chrono::sys_days days_from_civil(const CivilDate& date) noexcept {
    const int year = date.year - (date.month <= 2 ? 1 : 0);
    const int era = (year >= 0 ? year : year - 399) / 400;
    const auto year_of_era = static_cast<unsigned>(year - era * 400);                    // 0-399
    const unsigned month_from_march = date.month > 2 ? date.month - 3 : date.month + 9;  // 0-11
    const unsigned day_of_year = (153 * month_from_march + 2) / 5 + date.day - 1;        // 0-365
    const unsigned day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;  // 0-146096
    // 719,468 days from 0000-03-01 to 1970-01-01.
    return std::chrono::sys_days{std::chrono::days{static_cast<std::int64_t>(era) * 146097 +
                                                   static_cast<std::int64_t>(day_of_era) - 719468}};
}

constexpr CivilDate civil_from_days(std::chrono::sys_days day) noexcept {
    const std::int64_t days = day.time_since_epoch().count() + 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto day_of_era = static_cast<unsigned>(days - era * 146097);  // 0-146096
    const unsigned year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const unsigned day_of_year =
        day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const unsigned month_from_march = (5 * day_of_year + 2) / 153;  // 0-11
    const unsigned month = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
    const auto year = static_cast<int>(static_cast<std::int64_t>(year_of_era) + era * 400);
    return CivilDate{month <= 2 ? year + 1 : year, month,
                     day_of_year - (153 * month_from_march + 2) / 5 + 1};
}

// Reads the shape "DDDD-DD-DD" (ASCII digits) without judging the numbers. Shared with
// Timestamp, whose first ten characters are the same.
constexpr bool scan_date_shape(std::string_view text, CivilDate& out) noexcept {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
    // Eight digits at fixed places, checked together and without a loop: a date is read several
    // times per document.
    const auto digit = [&](std::size_t i) {
        return static_cast<unsigned>(static_cast<unsigned char>(text[i])) - unsigned{'0'};
    };
    const unsigned y0 = digit(0), y1 = digit(1), y2 = digit(2), y3 = digit(3);
    const unsigned m0 = digit(5), m1 = digit(6), d0 = digit(8), d1 = digit(9);
    const bool shape = (y0 <= 9) & (y1 <= 9) & (y2 <= 9) & (y3 <= 9) & (m0 <= 9) & (m1 <= 9) &
                       (d0 <= 9) & (d1 <= 9);
    if (!shape) return false;
    out = {static_cast<int>(y0 * 1000 + y1 * 100 + y2 * 10 + y3), m0 * 10 + m1, d0 * 10 + d1};
    return true;
}

// Writes `date` as "DDDD-DD-DD" at `out` (ten characters), the shape scan_date_shape reads; a
// Date's text and a Timestamp's first ten characters. Precondition: a year of 0-9999.
constexpr void write_date(char* out, const CivilDate& date) noexcept {
    write_digits(out, static_cast<unsigned>(date.year), 4);
    out[4] = '-';
    write_digits(out + 5, date.month, 2);
    out[7] = '-';
    write_digits(out + 8, date.day, 2);
}

}  // namespace detail

class PastDate;

// 16 bytes aligned to 16: a Date is copied with one vector move. At its natural 14 bytes the
// compiler copies it as two overlapping 8-byte halves, and every copy of a Date just built stalls
// on store forwarding (several per date read).
class alignas(16) Date {
  public:
    // An empty placeholder (view() is empty), so that structs holding a Date can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Date() = default;

    static constexpr int min_year = 1900;
    static constexpr int max_year = 2100;

    // `format` for a wrong shape or a day that does not exist (2023-02-29, 2024-04-31), `range`
    // for a real date outside 1900-2100. Only the extended form with hyphens is accepted: the
    // field is documented as YYYY-MM-DD, and 20240229 or 2024-2-29 are more likely mistakes.
    static Parsed<Date> parse(std::string_view text) noexcept {
        detail::CivilDate date;
        if (std::optional<Problem> problem = check(text, date)) return *problem;
        return Date(date);
    }

    // parse() into an existing value, written in place (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, Date& out) noexcept {
        detail::CivilDate date;
        if (std::optional<Problem> problem = check(text, date)) return problem;
        out.assign(date, text);
        return std::nullopt;
    }

    // The verdict of parse(), and the date it reads when valid.
    static std::optional<Problem> check(std::string_view text, detail::CivilDate& date) noexcept {
        if (!detail::scan_date_shape(text, date)) {
            return Problem{codes::format, "must be a date YYYY-MM-DD"};
        }
        // Month and day are checked before the year so that 2023-13-01 is a format error even in
        // a year that would also be out of range; the leap-day check needs the year, and comes
        // after it so that 1899-02-29 is reported as out of range, which is the real problem.
        if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31) {
            return impossible();
        }
        if (date.year < min_year || date.year > max_year) {
            return Problem{codes::range, "year must be between 1900 and 2100"};
        }
        if (!detail::is_real_date(date)) return impossible();
        return std::nullopt;
    }

    // Precondition: the year of `days` is within 1900-2100.
    [[nodiscard]] static Date from_days(std::chrono::sys_days days) noexcept {
        const detail::CivilDate civil = detail::civil_from_days(days);
        assert(civil.year >= min_year && civil.year <= max_year);
        return Date(civil);
    }

    // Empty for the placeholder, whose text is all zero bytes.
    [[nodiscard]] std::string_view view() const noexcept {
        return month_ == 0 ? std::string_view{} : std::string_view{text_.data(), text_.size()};
    }
    [[nodiscard]] int year() const noexcept { return year_; }
    [[nodiscard]] unsigned month() const noexcept { return month_; }
    [[nodiscard]] unsigned day() const noexcept { return day_; }

    // The placeholder (year 0, month 0, day 0) is not a date; it answers 1970-01-01 rather than
    // an unspecified day.
    [[nodiscard]] std::chrono::sys_days days() const noexcept {
        if (month_ == 0) return std::chrono::sys_days{};
        return detail::days_from_civil({year_, month_, day_});
    }

    friend bool operator==(const Date&, const Date&) = default;

  private:
    friend class PastDate;  // PastDate::parse_into writes its date in place

    static constexpr Problem impossible() noexcept {
        return {codes::format, "must be a real calendar date YYYY-MM-DD"};
    }

    explicit Date(const detail::CivilDate& date) noexcept { assign(date); }

    // `text` is the date's own text, already checked to be YYYY-MM-DD: copied, not rebuilt.
    void assign(const detail::CivilDate& date, std::string_view text) noexcept {
        year_ = static_cast<std::int16_t>(date.year);
        month_ = static_cast<std::uint8_t>(date.month);
        day_ = static_cast<std::uint8_t>(date.day);
        std::memcpy(text_.data(), text.data(), text_.size());
    }

    void assign(const detail::CivilDate& date) noexcept {
        year_ = static_cast<std::int16_t>(date.year);
        month_ = static_cast<std::uint8_t>(date.month);
        day_ = static_cast<std::uint8_t>(date.day);
        detail::write_date(text_.data(), date);
    }

    std::array<char, 10> text_{};
    std::int16_t year_ = 0;
    std::uint8_t month_ = 0;
    std::uint8_t day_ = 0;
};

// A Date that is not after "today" (ReadOptions::today_or_now(), a UTC calendar day): a date of
// birth, a charge-off date. There is deliberately no parse(text) without the options, so that no
// caller can forget which day "today" is (tests and a frozen server clock depend on it).
class PastDate {
  public:
    // An empty placeholder (view() is empty), so that structs holding a PastDate can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    PastDate() = default;

    static Parsed<PastDate> parse(std::string_view text, const ReadOptions& options) {
        Parsed<Date> date = Date::parse(text);
        if (!date) return date.problem();
        if (date.value().days() > options.today_or_now()) {
            return Problem{codes::range, "must not be in the future"};
        }
        return PastDate(date.value());
    }

    // parse() into an existing value, written in place (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, const ReadOptions& options,
                                             PastDate& out) {
        detail::CivilDate civil;
        if (std::optional<Problem> problem = Date::check(text, civil)) return problem;
        const std::chrono::sys_days day = detail::days_from_civil(civil);
        if (day > options.today_or_now()) return Problem{codes::range, "must not be in the future"};
        out.date_.assign(civil, text);
        return std::nullopt;
    }

    [[nodiscard]] std::string_view view() const noexcept { return date_.view(); }
    [[nodiscard]] const Date& date() const noexcept { return date_; }

    friend bool operator==(const PastDate&, const PastDate&) = default;

  private:
    explicit PastDate(const Date& date) noexcept : date_(date) {}

    Date date_;
};

namespace schema_patterns {

// Real calendar dates of the years 1900-2100, leap days included (2000-02-29 yes,
// 1900-02-29 and 2100-02-29 no).
inline constexpr std::string_view date =
    "^(?:(?:19[0-9]{2}|20[0-9]{2}|2100)-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
    "|(?:19|20)(?:0[48]|[2468][048]|[13579][26])-02-29|2000-02-29)$";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Date>, Schema& s) {
    s["type"] = "string";
    s["format"] = "date";
    s["description"] = "A real calendar date YYYY-MM-DD in the years 1900-2100";
    s["minLength"] = 10;
    s["maxLength"] = 10;
    s["pattern"] = schema_patterns::date;
    s["examples"].push_back("1985-04-12");
}

template <class Schema>
void collectcall_schema(schema_tag<PastDate>, Schema& s) {
    collectcall_schema(schema_tag<Date>{}, s);
    s["description"] =
        "A real calendar date YYYY-MM-DD in the years 1900-2100, not after today (UTC)";
}

}  // namespace collectcall
