// The customer's clock: instants as seen in the IANA zones of time_zone.hpp, through Howard
// Hinnant's date/tz (CMake target date::date-tz, alias collectcall::compliance, which carries the
// definitions its library was built with).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <exception>
#include <string>

// date/tz's classes differ with USE_OS_TZDB, so a translation unit must see the definitions its
// library was built with (Debian's: USE_OS_TZDB=1); the date::date-tz target supplies them.
#if !defined(USE_OS_TZDB)
#error "local_time.hpp: build with the definitions of date::date-tz (e.g. -DUSE_OS_TZDB=1)"
#endif
#include <date/tz.h>

#include "collectcall/compliance/time_zone.hpp"

namespace collectcall::compliance {

using CallTime = std::chrono::sys_time<std::chrono::milliseconds>;
using LocalTime = date::local_time<std::chrono::milliseconds>;

// Every zone the tables can name, each at most once, in the order added: the union of an
// address's candidates and those of the customer's phone numbers. It never overflows.
class ZoneSet {
  public:
    ZoneSet() = default;
    explicit ZoneSet(const ZoneCandidates& zones) noexcept { add(zones); }

    void add(Zone zone) noexcept {
        for (std::size_t i = 0; i < size_; ++i) {
            if (zones_[i] == zone) return;
        }
        zones_[size_++] = zone;
    }
    void add(const ZoneCandidates& zones) noexcept {
        for (Zone zone : zones)
            add(zone);
    }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] Zone operator[](std::size_t i) const noexcept { return zones_[i]; }
    [[nodiscard]] const Zone* begin() const noexcept { return zones_.data(); }
    [[nodiscard]] const Zone* end() const noexcept { return zones_.data() + size_; }

  private:
    std::array<Zone, zone_count> zones_{};
    std::size_t size_ = 0;
};

namespace detail {

// locate_zone searches the whole database, so each zone the table can name is located once per
// process. A zone the installed database lacks stays null and fails the time checks.
[[nodiscard]] inline const date::time_zone* locate(Zone zone) noexcept {
    static const std::array<const date::time_zone*, zone_count> located = [] {
        std::array<const date::time_zone*, zone_count> out{};
        for (std::size_t i = 0; i < zone_count; ++i) {
            try {
                out[i] = date::locate_zone(zone_names[i]);
            } catch (const std::exception&) {
                out[i] = nullptr;
            }
        }
        return out;
    }();
    return located[static_cast<std::size_t>(zone)];
}

// Whether every zone of the set is in the installed database (and the set is not empty): only
// then is the customer's local time known.
template <class Zones>
[[nodiscard]] bool all_located(const Zones& zones) noexcept {
    if (zones.empty()) return false;
    for (Zone zone : zones) {
        if (locate(zone) == nullptr) return false;
    }
    return true;
}

// The local calendar day of an instant.
[[nodiscard]] inline date::local_days local_date(const date::time_zone& tz, CallTime at) {
    return std::chrono::floor<date::days>(tz.to_local(at));
}

// The first instant of a local calendar day. Local midnight may not exist or may repeat where a
// zone shifts at midnight; the earliest instant keeps consecutive days contiguous.
[[nodiscard]] inline CallTime day_start(const date::time_zone& tz, date::local_days day) {
    return CallTime{tz.to_sys(day, date::choose::earliest)};
}

inline void append_two_digits(std::string& out, long long value) {
    out += static_cast<char>('0' + value / 10 % 10);
    out += static_cast<char>('0' + value % 10);
}

// "HH:MM" of a time of day (24:00 allowed for the end of a window).
[[nodiscard]] inline std::string clock_text(std::chrono::minutes time_of_day) {
    std::string out;
    const long long minutes = time_of_day.count();
    append_two_digits(out, minutes / 60);
    out += ':';
    append_two_digits(out, minutes % 60);
    return out;
}

// A time of day as the hosted service writes it in reasons: "8am", "8:50pm", "12pm", "12am".
[[nodiscard]] inline std::string hosted_clock_text(std::chrono::minutes time_of_day) {
    const long long minutes = time_of_day.count() % (24 * 60);
    const long long hour = minutes / 60;
    std::string out = std::to_string(hour % 12 == 0 ? 12 : hour % 12);
    if (minutes % 60 != 0) {
        out += ':';
        append_two_digits(out, minutes % 60);
    }
    out += hour < 12 ? "am" : "pm";
    return out;
}

// "2026-01-15" for a local day.
[[nodiscard]] inline std::string date_text(date::local_days day) {
    return date::format("%F", day);
}

// "2026-01-15T20:30:00" for a local time (to the second).
[[nodiscard]] inline std::string local_time_text(LocalTime local) {
    return date::format("%FT%T", std::chrono::floor<std::chrono::seconds>(local));
}

}  // namespace detail

}  // namespace collectcall::compliance
