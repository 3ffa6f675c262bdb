// ClockTime: a time of day on a 24-hour clock, "HH:MM", from "00:00" to "24:00" (the end of the
// day, for the end of a period). What a calling window and a customer's designated inconvenient
// times are written in.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "collectcall/core/chrono.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"

namespace collectcall {

// The minutes since midnight of "HH:MM" (00:00 to 24:00); nullopt for any other text.
[[nodiscard]] constexpr std::optional<std::chrono::minutes> parse_clock(
    std::string_view text) noexcept {
    if (text.size() != 5 || text[2] != ':') return std::nullopt;
    for (std::size_t i : {0U, 1U, 3U, 4U}) {
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
    }
    const int hh = (text[0] - '0') * 10 + (text[1] - '0');
    const int mm = (text[3] - '0') * 10 + (text[4] - '0');
    if (mm > 59 || hh > 24 || (hh == 24 && mm != 0)) return std::nullopt;
    return std::chrono::minutes{hh * 60 + mm};
}

class ClockTime {
  public:
    // Midnight at the start of the day, so that structs holding one can be built member by
    // member.
    constexpr ClockTime() noexcept { assign(std::chrono::minutes{0}); }

    static Parsed<ClockTime> parse(std::string_view text) noexcept {
        const auto minutes = parse_clock(text);
        if (!minutes) return Problem{codes::format, "must be a time of day HH:MM, 00:00 to 24:00"};
        return ClockTime(*minutes);
    }

    // A time of day in whole minutes; nullopt outside 00:00 to 24:00.
    [[nodiscard]] static constexpr std::optional<ClockTime> from_minutes(
        std::chrono::minutes minutes) noexcept {
        if (minutes < std::chrono::minutes{0} || minutes > std::chrono::hours{24}) {
            return std::nullopt;
        }
        return ClockTime(minutes);
    }

    [[nodiscard]] constexpr std::string_view view() const noexcept {
        return {text_.data(), text_.size()};
    }
    [[nodiscard]] constexpr std::chrono::minutes minutes() const noexcept { return minutes_; }

    friend constexpr bool operator==(const ClockTime&, const ClockTime&) = default;

  private:
    constexpr explicit ClockTime(std::chrono::minutes minutes) noexcept { assign(minutes); }

    constexpr void assign(std::chrono::minutes minutes) noexcept {
        minutes_ = minutes;
        const auto m = static_cast<unsigned>(minutes.count());
        text_ = {static_cast<char>('0' + m / 600), static_cast<char>('0' + m / 60 % 10), ':',
                 static_cast<char>('0' + m % 60 / 10), static_cast<char>('0' + m % 10)};
    }

    std::chrono::minutes minutes_{0};
    std::array<char, 5> text_{};
};

namespace schema_patterns {

inline constexpr std::string_view clock_time = "^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<ClockTime>, Schema& s) {
    s["type"] = "string";
    s["description"] = "A time of day HH:MM on a 24-hour clock, 00:00 to 24:00";
    s["pattern"] = schema_patterns::clock_time;
    s["examples"].push_back("09:00");
}

}  // namespace collectcall
