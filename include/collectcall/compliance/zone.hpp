// The IANA zones the compliance checks can name, and ZoneCandidates, the zones a customer may be
// in. The zone tables (zone_tables.hpp, generated) and their lookups (time_zone.hpp,
// area_codes.hpp) answer in these.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace collectcall::compliance {

// Every IANA zone the tables can answer. The Indiana, Kentucky and Michigan zones carry the same
// rules today as New York or Chicago; they are used because they are the names those places
// have in the tz database.
enum class Zone : std::uint8_t {
    new_york,
    chicago,
    denver,
    phoenix,
    los_angeles,
    boise,
    indianapolis,
    louisville,
    detroit,
    menominee,
    anchorage,
    adak,
    honolulu,
    puerto_rico,
    st_thomas,
    guam,
    saipan,
    pago_pago,
    chuuk,
    pohnpei,
    kosrae,
    majuro,
    palau,
    tegucigalpa,
    sao_paulo,
    azores,
    berlin,
    dubai,
    tokyo,
    chagos,
    kwajalein,
};

inline constexpr std::size_t zone_count = static_cast<std::size_t>(Zone::kwajalein) + 1;

inline constexpr std::array<std::string_view, zone_count> zone_names{
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Phoenix",
    "America/Los_Angeles",
    "America/Boise",
    "America/Indiana/Indianapolis",
    "America/Kentucky/Louisville",
    "America/Detroit",
    "America/Menominee",
    "America/Anchorage",
    "America/Adak",
    "Pacific/Honolulu",
    "America/Puerto_Rico",
    "America/St_Thomas",
    "Pacific/Guam",
    "Pacific/Saipan",
    "Pacific/Pago_Pago",
    "Pacific/Chuuk",
    "Pacific/Pohnpei",
    "Pacific/Kosrae",
    "Pacific/Majuro",
    "Pacific/Palau",
    "America/Tegucigalpa",
    "America/Sao_Paulo",
    "Atlantic/Azores",
    "Europe/Berlin",
    "Asia/Dubai",
    "Asia/Tokyo",
    "Indian/Chagos",
    "Pacific/Kwajalein",
};

[[nodiscard]] constexpr std::string_view zone_name(Zone zone) noexcept {
    return zone_names[static_cast<std::size_t>(zone)];
}

// The zones a customer may be in, most likely first; empty when the address names no known
// state. More than one means the location is ambiguous.
class ZoneCandidates {
  public:
    static constexpr std::size_t capacity = 8;

    constexpr ZoneCandidates() noexcept = default;
    constexpr ZoneCandidates(std::initializer_list<Zone> zones) noexcept {
        for (Zone zone : zones)
            add(zone);
    }

    // Adds a zone unless it is already there; a full list ignores further zones (no entry of
    // zone_tables.hpp needs more than `capacity`, which a test checks).
    constexpr void add(Zone zone) noexcept {
        if (contains(zone) || size_ == capacity) return;
        zones_[size_++] = zone;
    }

    [[nodiscard]] constexpr bool contains(Zone zone) const noexcept {
        for (std::size_t i = 0; i < size_; ++i) {
            if (zones_[i] == zone) return true;
        }
        return false;
    }
    [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
    [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] constexpr bool ambiguous() const noexcept { return size_ > 1; }
    [[nodiscard]] constexpr Zone operator[](std::size_t i) const noexcept { return zones_[i]; }
    [[nodiscard]] constexpr std::string_view name(std::size_t i) const noexcept {
        return zone_name(zones_[i]);
    }
    [[nodiscard]] constexpr const Zone* begin() const noexcept { return zones_.data(); }
    [[nodiscard]] constexpr const Zone* end() const noexcept { return zones_.data() + size_; }

    friend constexpr bool operator==(const ZoneCandidates&, const ZoneCandidates&) = default;

  private:
    std::array<Zone, capacity> zones_{};
    std::uint8_t size_ = 0;
};

}  // namespace collectcall::compliance
