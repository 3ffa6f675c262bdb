// Timestamp: an RFC 3339 date-time, kept as a UTC instant with millisecond precision.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/core/chrono.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/core/value_type.hpp"
#include "collectcall/types/date.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

class Timestamp {
  public:
    // An empty placeholder (view() is empty), so that structs holding a Timestamp can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Timestamp() = default;

    using Time = std::chrono::sys_time<std::chrono::milliseconds>;

    // Accepts RFC 3339 section 5.6 date-time: YYYY-MM-DDTHH:MM:SS, an optional fraction of any
    // length, then Z or an offset ±HH:MM ("T" and "Z" in either case, as the RFC allows). The
    // instant is normalised to UTC, so 2026-11-20T10:00:00-05:00 and 2026-11-20T15:00:00Z are
    // equal and both read back as 2026-11-20T15:00:00.000Z. Digits of the fraction beyond
    // milliseconds are truncated (never rounded up into the next second). A leap second (:60)
    // is refused: std::chrono's system clock cannot represent it.
    static Parsed<Timestamp> parse(std::string_view text) noexcept {
        constexpr Problem bad{codes::format,
                              "must be an RFC 3339 timestamp, e.g. 2026-11-20T15:00:00Z"};
        constexpr std::size_t seconds_end = 19;  // "YYYY-MM-DDTHH:MM:SS"
        if (text.size() <= seconds_end) return bad;
        detail::CivilDate date;
        if (!detail::scan_date_shape(text.substr(0, 10), date)) return bad;
        if ((text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':') return bad;
        const std::string_view hh = text.substr(11, 2);
        const std::string_view mm = text.substr(14, 2);
        const std::string_view ss = text.substr(17, 2);
        if (!detail::all_digits(hh) || !detail::all_digits(mm) || !detail::all_digits(ss)) {
            return bad;
        }

        std::size_t at = seconds_end;
        unsigned millis = 0;
        if (text[at] == '.') {
            const std::size_t begin = ++at;
            for (; at < text.size() && detail::is_digit(text[at]); ++at) {
                if (at - begin < 3) millis = millis * 10 + static_cast<unsigned>(text[at] - '0');
            }
            if (at == begin) return bad;
            for (std::size_t n = at - begin; n < 3; ++n)
                millis *= 10;
        }

        int offset_minutes = 0;
        if (at == text.size()) return bad;
        if (text[at] == 'Z' || text[at] == 'z') {
            ++at;
        } else if (text[at] == '+' || text[at] == '-') {
            const std::string_view offset = text.substr(at);
            if (offset.size() != 6 || offset[3] != ':' ||
                !detail::all_digits(offset.substr(1, 2)) ||
                !detail::all_digits(offset.substr(4, 2))) {
                return bad;
            }
            const unsigned offset_hours = detail::digits_value(offset.substr(1, 2));
            const unsigned offset_mins = detail::digits_value(offset.substr(4, 2));
            if (offset_hours > 23 || offset_mins > 59) return bad;
            offset_minutes = static_cast<int>(offset_hours * 60 + offset_mins);
            // "-00:00" means "offset unknown" in RFC 3339; the instant is the same as Z.
            if (offset[0] == '-') offset_minutes = -offset_minutes;
            at += offset.size();
        } else {
            return bad;
        }
        if (at != text.size()) return bad;

        const unsigned hour = detail::digits_value(hh);
        const unsigned minute = detail::digits_value(mm);
        const unsigned second = detail::digits_value(ss);
        if (second == 60) return Problem{codes::format, "leap seconds (:60) are not supported"};
        if (!detail::is_real_date(date) || hour > 23 || minute > 59 || second > 59) {
            return Problem{codes::format, "must be a real date and time (RFC 3339)"};
        }

        using namespace std::chrono;
        const sys_days day = detail::days_from_civil(date);
        const Time time = day + hours{hour} + minutes{minute} + seconds{second} +
                          milliseconds{millis} - minutes{offset_minutes};
        // The canonical text has a four-digit year, which an offset could push out of.
        if (time < earliest() || time >= end_of_range()) {
            return Problem{codes::range, "must be between the years 0000 and 9999 in UTC"};
        }
        return Timestamp(time);
    }

    // Precondition: the instant falls in the years 0000-9999 (UTC).
    [[nodiscard]] static Timestamp from_time(Time time) noexcept {
        assert(time >= earliest() && time < end_of_range());
        return Timestamp(time);
    }

    // Canonical form, always 24 characters: 2026-11-20T15:00:00.000Z.
    [[nodiscard]] std::string_view view() const noexcept {
        return text_[0] == '\0' ? std::string_view{} : std::string_view{text_.data(), text_.size()};
    }
    [[nodiscard]] Time time() const noexcept { return time_; }

    // The text is a function of the instant, so comparing both compares the instant.
    friend bool operator==(const Timestamp&, const Timestamp&) = default;

  private:
    static constexpr Time earliest() noexcept { return Time{detail::days_from_civil({0, 1, 1})}; }
    static constexpr Time end_of_range() noexcept {
        return Time{detail::days_from_civil({10000, 1, 1})};
    }

    explicit Timestamp(Time time) noexcept : time_(time) {
        using namespace std::chrono;
        const sys_days day = floor<days>(time);
        const auto ms = static_cast<unsigned>((time - day).count());  // 0 .. 86'399'999
        char* out = text_.data();
        detail::write_date(out, detail::civil_from_days(day));
        out[10] = 'T';
        detail::write_digits(out + 11, ms / 3'600'000, 2);
        out[13] = ':';
        detail::write_digits(out + 14, ms / 60'000 % 60, 2);
        out[16] = ':';
        detail::write_digits(out + 17, ms / 1000 % 60, 2);
        out[19] = '.';
        detail::write_digits(out + 20, ms % 1000, 3);
        out[23] = 'Z';
    }

    Time time_{};  // the epoch for the placeholder, never indeterminate
    std::array<char, 24> text_{};
};

// A Timestamp from 1970-01-01 to five minutes after "now" (ReadOptions::now_or_clock()): when a
// message was sent or received (API.md sections 13 and 17). The five minutes allow for the clocks
// of the sender and of this service disagreeing a little; a time further ahead, or before any
// text message or e-mail could have been sent, is a mistake (`range`). As with PastDate there is
// no parse(text) without the options, so that no caller forgets which instant "now" is.
class PastTimestamp {
  public:
    // An empty placeholder (view() is empty); read<T> never returns one for a required member.
    PastTimestamp() = default;

    static constexpr std::chrono::minutes allowed_skew{5};

    static Parsed<PastTimestamp> parse(std::string_view text, const ReadOptions& options) {
        Parsed<Timestamp> parsed = Timestamp::parse(text);
        if (!parsed) return parsed.problem();
        if (parsed.value().time() > options.now_or_clock() + allowed_skew) {
            return Problem{codes::range, "must not be more than 5 minutes in the future"};
        }
        if (parsed.value().time() < Timestamp::Time{}) {
            return Problem{codes::range, "must not be before 1970-01-01T00:00:00Z"};
        }
        PastTimestamp out;
        out.timestamp_ = parsed.value();
        return out;
    }

    // Precondition: `timestamp` is not more than allowed_skew after the "now" it will be judged by.
    [[nodiscard]] static PastTimestamp from_timestamp(const Timestamp& timestamp) noexcept {
        PastTimestamp out;
        out.timestamp_ = timestamp;
        return out;
    }

    [[nodiscard]] std::string_view view() const noexcept { return timestamp_.view(); }
    [[nodiscard]] const Timestamp& timestamp() const noexcept { return timestamp_; }

    friend bool operator==(const PastTimestamp&, const PastTimestamp&) = default;

  private:
    Timestamp timestamp_;
};

namespace schema_patterns {

inline constexpr std::string_view timestamp =
    "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:"
    "[0-5][0-9](?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Timestamp>, Schema& s) {
    s["type"] = "string";
    s["format"] = "date-time";
    s["description"] = "RFC 3339 timestamp; the service writes UTC with milliseconds";
    s["pattern"] = schema_patterns::timestamp;
    s["examples"].push_back("2026-11-20T15:00:00.000Z");
}

template <class Schema>
void collectcall_schema(schema_tag<PastTimestamp>, Schema& s) {
    collectcall_schema(schema_tag<Timestamp>{}, s);
    // The timestamp's pattern with its year from 1970 (the year as written: an offset east of
    // UTC can still name an instant of 1969, which the library refuses).
    constexpr std::string_view any_year = "^[0-9]{4}";
    s["pattern"] = "^(?:19[7-9][0-9]|[2-9][0-9]{3})" +
                   std::string(schema_patterns::timestamp.substr(any_year.size()));
    s["description"] =
        "RFC 3339 timestamp from 1970-01-01T00:00:00Z to 5 minutes in the future; the service "
        "writes UTC with milliseconds";
}

}  // namespace collectcall
