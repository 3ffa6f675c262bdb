// US time-zone resolution from a postal address: USPS state code and ZIP Code to the IANA zones
// the customer may be in. Regulation F (12 CFR 1006.6(b)(1)) protects the consumer's local time,
// so where an address does not say which side of a zone line a customer lives on, every zone it
// may be in is returned, and the caller must honour all of them.
//
// How the table was built, and what it can and cannot promise:
// - Zone lines follow counties (49 CFR part 71); ZIP Codes do not. A 3-digit ZIP prefix (the
//   USPS sectional centre) that lies wholly in one zone maps to that zone. A prefix that
//   straddles a zone line maps to every zone it touches.
// - Inside a straddling prefix, runs of ZIP Codes whose whole delivery area lies in one zone are
//   listed with that zone. "Whole delivery area" means every county that the ZIP Code Tabulation
//   Area touches (Census 2010 ZCTA-to-county relationship), so a ZIP Code that crosses a county
//   line on the zone boundary stays ambiguous. A ZIP Code the Census does not tabulate (PO boxes,
//   unique and newer ZIP Codes) stays ambiguous unless it falls inside a run of its neighbours.
// - A ZIP Code outside every prefix of its state (a delivery area that crosses a state line, or
//   a typo) gets every zone of the state. A state in one zone needs no ZIP Code at all.
// - Places that keep another zone's clock unofficially are ambiguous too: the consumer lives by
//   the clock on the wall (Phenix City AL, Kenton OK, Jackpot NV, Hyder AK, the Navajo Nation).
//   The Navajo Nation is no county: an Arizona ZIP Code gets Mountain time with daylight saving
//   (America/Denver) as a candidate when its delivery area (its ZCTA) includes any Navajo Nation
//   land (the Census American Indian Area boundaries), however little.
// - Where the sources leave a ZIP Code in doubt, it gets the candidate: a zone too many only
//   narrows the calling window, a zone missing lets a call through at the wrong hour.
// The lookup needs no heap and is constexpr.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace collectcall::compliance {

// Every IANA zone the table can answer. The Indiana, Kentucky and Michigan zones carry the same
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

    // Adds a zone unless it is already there; a full list ignores further zones (the table
    // below never needs more than `capacity`, which a test checks).
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

namespace zone_table {

// Every zone a state or territory spans: the answer for a ZIP Code the rules do not cover.
struct StateZones {
    std::string_view state;
    ZoneCandidates zones;
};

// ZIP Codes first..last (5 digits, inclusive) of one state. The narrowest rule containing a
// ZIP Code decides, so a prefix rule can be refined by ZIP Code rules inside it.
struct ZipRule {
    std::string_view state;
    std::uint32_t first;
    std::uint32_t last;
    ZoneCandidates zones;
};

constexpr ZipRule prefix(std::string_view state, std::uint32_t p, ZoneCandidates zones) {
    return {state, p * 100, p * 100 + 99, zones};
}
constexpr ZipRule prefixes(std::string_view state, std::uint32_t first, std::uint32_t last,
                           ZoneCandidates zones) {
    return {state, first * 100, last * 100 + 99, zones};
}
constexpr ZipRule zip(std::string_view state, std::uint32_t z, ZoneCandidates zones) {
    return {state, z, z, zones};
}
constexpr ZipRule zips(std::string_view state, std::uint32_t first, std::uint32_t last,
                       ZoneCandidates zones) {
    return {state, first, last, zones};
}

using enum Zone;

// clang-format off
inline constexpr StateZones states[] = {
    // Eastern.
    {"CT", {new_york}}, {"DC", {new_york}}, {"DE", {new_york}}, {"GA", {new_york}},
    {"MA", {new_york}}, {"MD", {new_york}}, {"ME", {new_york}}, {"NC", {new_york}},
    {"NH", {new_york}}, {"NJ", {new_york}}, {"NY", {new_york}}, {"OH", {new_york}},
    {"PA", {new_york}}, {"RI", {new_york}}, {"SC", {new_york}}, {"VA", {new_york}},
    {"VT", {new_york}}, {"WV", {new_york}},
    // Central.
    {"AR", {chicago}}, {"IA", {chicago}}, {"IL", {chicago}}, {"LA", {chicago}},
    {"MN", {chicago}}, {"MO", {chicago}}, {"MS", {chicago}}, {"WI", {chicago}},
    // Mountain, Pacific, Hawaii.
    {"CO", {denver}}, {"MT", {denver}}, {"NM", {denver}}, {"UT", {denver}}, {"WY", {denver}},
    {"CA", {los_angeles}}, {"WA", {los_angeles}},
    {"HI", {honolulu}},
    // States that span zones: the ZIP Code rules below decide.
    {"AL", {chicago, new_york}},
    {"AK", {anchorage, adak, los_angeles}},
    {"AZ", {phoenix, denver}},
    {"FL", {new_york, chicago}},
    {"ID", {boise, los_angeles}},
    {"IN", {indianapolis, chicago}},
    {"KS", {chicago, denver}},
    {"KY", {new_york, louisville, chicago}},
    {"MI", {detroit, menominee}},
    {"ND", {chicago, denver}},
    {"NE", {chicago, denver}},
    {"NV", {los_angeles, denver}},
    {"OK", {chicago, denver}},
    {"OR", {los_angeles, boise}},
    {"SD", {chicago, denver}},
    {"TN", {chicago, new_york}},
    {"TX", {chicago, denver}},
    // Territories and freely associated states.
    {"PR", {puerto_rico}}, {"VI", {st_thomas}}, {"GU", {guam}}, {"MP", {saipan}},
    {"AS", {pago_pago}}, {"MH", {majuro}}, {"PW", {palau}},
    {"FM", {chuuk, pohnpei, kosrae}},  // Yap and Chuuk UTC+10, Pohnpei and Kosrae UTC+11
    // Military mail (APO/FPO/DPO) says nothing about where the person is. Each region gets its
    // most common post first, then the zones at its western and eastern edges, so that a call
    // fits the window wherever in the region the customer is:
    // AA (the Americas except Canada): Guantanamo Bay, Honduras (UTC-6), Brazil (UTC-3).
    {"AA", {new_york, tegucigalpa, sao_paulo}},
    // AE (Europe, Middle East, Africa): Germany, the Azores (UTC-1), the Gulf (UTC+4).
    // Canada, also AE, is not covered: its zones are too far west to share a window.
    {"AE", {berlin, azores, dubai}},
    // AP (Asia and the Pacific): Japan and Korea, Diego Garcia (UTC+6), Kwajalein (UTC+12).
    {"AP", {tokyo, chagos, kwajalein}},
};

inline constexpr ZipRule rules[] = {
    // ---- Alabama: Central. Towns by Columbus and West Point, Georgia keep Eastern time
    // unofficially (Phenix City, Smiths Station, Lanett, Valley and their neighbours).
    prefixes("AL", 350, 369, {chicago}),
    zips("AL", 36854, 36856, {chicago, new_york}), zips("AL", 36858, 36860, {chicago, new_york}),
    zips("AL", 36862, 36863, {chicago, new_york}), zips("AL", 36867, 36872, {chicago, new_york}),
    zips("AL", 36874, 36875, {chicago, new_york}), zip("AL", 36877, {chicago, new_york}),

    // ---- Alaska: Alaska time. West of 169°30'W is Hawaii-Aleutian time (49 CFR 71.12): Adak
    // and Atka. The Pribilofs lie west of that line but keep Alaska time: both. Hyder keeps
    // Pacific time with Stewart, British Columbia, across the border: both.
    prefixes("AK", 995, 999, {anchorage}),
    zip("AK", 99546, {adak}), zip("AK", 99547, {adak}),
    zip("AK", 99591, {anchorage, adak}), zip("AK", 99660, {anchorage, adak}),
    zip("AK", 99923, {anchorage, los_angeles}),

    // ---- Arizona: MST all year, except the Navajo Nation, which observes daylight saving time
    // (Mountain). The Hopi Reservation inside it does not, but its post offices also serve
    // Navajo chapters, so they are ambiguous like the rest.
    prefixes("AZ", 850, 865, {phoenix}),
    prefix("AZ", 865, {phoenix, denver}),  // Chinle, Fort Defiance, Ganado, Window Rock, ...
    zip("AZ", 86004, {phoenix, denver}),   // Flagstaff east (reaches the reservation: doubtful)
    zip("AZ", 86016, {phoenix, denver}),   // Gray Mountain
    zip("AZ", 86020, {phoenix, denver}),                  // Cameron
    zip("AZ", 86025, {phoenix, denver}),                  // Holbrook (reservation to the north)
    zips("AZ", 86030, 86031, {phoenix, denver}),          // Hotevilla, Indian Wells
    zips("AZ", 86033, 86036, {phoenix, denver}),  // Kayenta, Keams Canyon, Leupp, Marble Canyon
    zip("AZ", 86039, {phoenix, denver}),                  // Kykotsmovi
    zip("AZ", 86040, {phoenix, denver}),                  // Page (LeChee)
    zips("AZ", 86042, 86045, {phoenix, denver}),  // Polacca, Second Mesa, Tonalea, Tuba City
    zip("AZ", 86047, {phoenix, denver}),                  // Winslow (Dilkon, Teesto)
    zips("AZ", 86053, 86054, {phoenix, denver}),          // Kaibeto, Shonto

    // ---- Florida: Eastern, except the panhandle west of the Apalachicola River: Central.
    // Gulf County is split along the Intracoastal Waterway (Port St. Joe, south of it, keeps
    // Eastern time), so its ZIP Codes stay ambiguous.
    prefixes("FL", 320, 349, {new_york}),
    prefix("FL", 325, {chicago}),                // Pensacola, Fort Walton Beach, Crestview
    prefix("FL", 324, {chicago, new_york}),      // Panama City and the central panhandle
    zips("FL", 32401, 32455, {chicago}), zips("FL", 32459, 32464, {chicago}),
    zip("FL", 32466, {chicago}),

    // ---- Micronesia: one ZIP Code for each state. Yap keeps Chuuk's time (UTC+10).
    zip("FM", 96941, {pohnpei}), zip("FM", 96942, {chuuk}), zip("FM", 96943, {chuuk}),
    zip("FM", 96944, {kosrae}),

    // ---- Idaho: Mountain (America/Boise), except the panhandle: Pacific. Idaho County is split
    // at the Salmon River (Pacific north of it), so its ZIP Codes in 835 are ambiguous; those of
    // 836 lie south of the river.
    prefixes("ID", 832, 838, {boise}),
    prefix("ID", 838, {los_angeles}),            // Coeur d'Alene, Sandpoint, Moscow
    prefix("ID", 835, {los_angeles, boise}),     // Lewiston, Orofino, Grangeville, Riggins
    zips("ID", 83501, 83520, {los_angeles}), zips("ID", 83523, 83524, {los_angeles}),
    zip("ID", 83535, {los_angeles}), zip("ID", 83537, {los_angeles}),
    zips("ID", 83540, 83541, {los_angeles}), zips("ID", 83543, 83546, {los_angeles}),
    zip("ID", 83548, {los_angeles}), zip("ID", 83553, {los_angeles}),
    zip("ID", 83555, {los_angeles}),

    // ---- Indiana: Eastern, except the Chicago and Evansville corners: Central. Central
    // counties: Jasper, Lake, LaPorte, Newton, Porter, Starke in the northwest; Gibson, Perry,
    // Posey, Spencer, Vanderburgh, Warrick in the southwest.
    prefixes("IN", 460, 479, {indianapolis}),
    prefix("IN", 464, {chicago}),                // Gary
    prefix("IN", 477, {chicago}),                // Evansville
    prefix("IN", 463, {chicago, indianapolis}),  // Hammond, Valparaiso; North Judson by Pulaski
    zips("IN", 46301, 46365, {chicago}), zips("IN", 46368, 46373, {chicago}),
    zips("IN", 46375, 46394, {chicago}),
    prefix("IN", 465, {indianapolis, chicago}),  // South Bend area; Knox, Hamlet (Starke)
    zips("IN", 46501, 46510, {indianapolis}), zips("IN", 46514, 46530, {indianapolis}),
    zips("IN", 46531, 46534, {chicago}), zips("IN", 46536, 46550, {indianapolis}),
    zip("IN", 46553, {indianapolis}), zips("IN", 46555, 46562, {indianapolis}),
    zips("IN", 46565, 46573, {indianapolis}), zips("IN", 46580, 46595, {indianapolis}),
    prefix("IN", 469, {indianapolis, chicago}),  // Kokomo; Winamac and Monterey by Starke
    zips("IN", 46901, 46959, {indianapolis}), zips("IN", 46961, 46967, {indianapolis}),
    zips("IN", 46970, 46994, {indianapolis}), zip("IN", 46998, {indianapolis}),
    prefix("IN", 471, {indianapolis, chicago}),  // New Albany; English, Leavenworth by Perry
    zips("IN", 47102, 47117, {indianapolis}), zips("IN", 47119, 47136, {indianapolis}),
    zips("IN", 47138, 47177, {indianapolis}),
    prefix("IN", 475, {indianapolis, chicago}),  // Vincennes, Jasper (Eastern); Tell City (Central)
    zips("IN", 47501, 47512, {indianapolis}), zips("IN", 47514, 47515, {chicago}),
    zips("IN", 47516, 47519, {indianapolis}), zip("IN", 47520, {chicago}),
    zips("IN", 47521, 47522, {indianapolis}), zip("IN", 47523, {chicago}),
    zip("IN", 47524, {indianapolis}), zip("IN", 47525, {chicago}),
    zips("IN", 47527, 47529, {indianapolis}), zip("IN", 47531, {chicago}),
    zip("IN", 47535, {indianapolis}), zips("IN", 47536, 47537, {chicago}),
    zips("IN", 47542, 47546, {indianapolis}), zips("IN", 47550, 47552, {chicago}),
    zips("IN", 47553, 47568, {indianapolis}), zip("IN", 47574, {chicago}),
    zip("IN", 47575, {indianapolis}), zips("IN", 47576, 47577, {chicago}),
    zip("IN", 47578, {indianapolis}), zip("IN", 47579, {chicago}),
    zips("IN", 47580, 47585, {indianapolis}), zips("IN", 47586, 47588, {chicago}),
    zips("IN", 47590, 47598, {indianapolis}),
    prefix("IN", 476, {chicago, indianapolis}),  // Evansville area; Hazleton by Pike
    zips("IN", 47601, 47616, {chicago}), zips("IN", 47620, 47639, {chicago}),
    zips("IN", 47648, 47654, {chicago}), zips("IN", 47665, 47683, {chicago}),
    prefix("IN", 479, {indianapolis, chicago}),  // Lafayette; Rensselaer, Kentland (Central)
    zips("IN", 47901, 47921, {indianapolis}), zip("IN", 47922, {chicago}),
    zips("IN", 47923, 47942, {indianapolis}), zip("IN", 47943, {chicago}),
    zip("IN", 47944, {indianapolis}), zips("IN", 47949, 47950, {indianapolis}),
    zip("IN", 47951, {chicago}), zips("IN", 47952, 47955, {indianapolis}),
    zip("IN", 47958, {indianapolis}), zip("IN", 47960, {indianapolis}),
    zips("IN", 47963, 47964, {chicago}), zips("IN", 47965, 47975, {indianapolis}),
    zips("IN", 47980, 47994, {indianapolis}), zip("IN", 47997, {indianapolis}),

    // ---- Kansas: Central, except Greeley, Hamilton, Sherman and Wallace counties: Mountain.
    prefixes("KS", 660, 679, {chicago}),
    prefix("KS", 677, {chicago, denver}),        // Colby; Goodland, Sharon Springs (Mountain)
    zips("KS", 67701, 67731, {chicago}), zip("KS", 67733, {denver}), zip("KS", 67734, {chicago}),
    zip("KS", 67735, {denver}), zips("KS", 67736, 67740, {chicago}),
    zips("KS", 67743, 67757, {chicago}), zip("KS", 67758, {denver}), zip("KS", 67762, {denver}),
    zip("KS", 67764, {chicago}),
    prefix("KS", 678, {chicago, denver}),        // Dodge City; Syracuse, Tribune (Mountain)
    zips("KS", 67801, 67835, {chicago}), zip("KS", 67836, {denver}),
    zips("KS", 67837, 67855, {chicago}), zips("KS", 67859, 67877, {chicago}),
    zip("KS", 67879, {denver}), zips("KS", 67880, 67882, {chicago}),

    // ---- Kentucky: Eastern in the east (Louisville area: America/Kentucky/Louisville),
    // Central in the west. The line runs between Meade, Hardin, Larue, Marion, Casey, Pulaski
    // and Wayne (Eastern) and Breckinridge, Grayson, Hart, Green, Taylor, Adair, Russell and
    // Clinton (Central).
    prefixes("KY", 400, 418, {new_york}),
    prefixes("KY", 420, 427, {chicago}),
    prefix("KY", 402, {louisville}),             // Louisville
    prefix("KY", 400, {louisville, chicago}),    // Louisville area; Bradfordsville by Taylor
    zips("KY", 40003, 40008, {louisville}), zips("KY", 40010, 40078, {louisville}),
    prefix("KY", 401, {louisville, chicago}),    // Meade, Bullitt (Eastern); Breckinridge
    zips("KY", 40104, 40110, {louisville}), zips("KY", 40111, 40115, {chicago}),
    zips("KY", 40117, 40118, {louisville}), zip("KY", 40119, {chicago}),
    zip("KY", 40121, {louisville}), zip("KY", 40140, {chicago}),
    zips("KY", 40143, 40146, {chicago}), zip("KY", 40150, {louisville}),
    zip("KY", 40152, {chicago}), zip("KY", 40155, {louisville}),
    zips("KY", 40160, 40165, {louisville}), zips("KY", 40170, 40171, {chicago}),
    zip("KY", 40177, {louisville}), zip("KY", 40178, {chicago}),
    prefix("KY", 425, {new_york, chicago}),      // Somerset; Russell County edge
    zips("KY", 42501, 42519, {new_york}), zip("KY", 42533, {new_york}),
    zip("KY", 42541, {new_york}), zips("KY", 42553, 42567, {new_york}),
    prefix("KY", 426, {new_york, chicago}),      // McCreary (Eastern); Albany, Jamestown
    zips("KY", 42603, 42629, {chicago}), zip("KY", 42631, {new_york}),
    zips("KY", 42634, 42638, {new_york}), zips("KY", 42647, 42653, {new_york}),
    prefix("KY", 427, {new_york, chicago}),      // Elizabethtown (Eastern); Campbellsville
    zip("KY", 42701, {new_york}), zips("KY", 42713, 42715, {chicago}), zip("KY", 42717, {chicago}),
    zips("KY", 42721, 42722, {chicago}), zip("KY", 42724, {new_york}),
    zips("KY", 42726, 42731, {chicago}), zip("KY", 42732, {new_york}), zip("KY", 42740, {new_york}),
    zips("KY", 42741, 42746, {chicago}), zip("KY", 42748, {new_york}),
    zips("KY", 42749, 42754, {chicago}), zips("KY", 42758, 42762, {chicago}),
    zip("KY", 42765, {chicago}), zip("KY", 42776, {new_york}), zip("KY", 42782, {chicago}),
    zip("KY", 42788, {new_york}),

    // ---- Michigan: Eastern, except the four Upper Peninsula counties on the Wisconsin border
    // (Dickinson, Gogebic, Iron, Menominee): Central.
    prefixes("MI", 480, 499, {detroit}),
    prefix("MI", 498, {detroit, menominee}),     // Marquette, Escanaba; Iron Mountain, Menominee
    zips("MI", 49801, 49802, {menominee}), zips("MI", 49805, 49806, {detroit}),
    zip("MI", 49808, {detroit}), zip("MI", 49812, {menominee}), zip("MI", 49814, {detroit}),
    zip("MI", 49815, {menominee}), zips("MI", 49816, 49820, {detroit}),
    zip("MI", 49821, {menominee}), zips("MI", 49822, 49829, {detroit}), zip("MI", 49833, {detroit}),
    zip("MI", 49834, {menominee}), zips("MI", 49835, 49841, {detroit}),
    zips("MI", 49847, 49848, {menominee}), zip("MI", 49849, {detroit}),
    zip("MI", 49852, {menominee}), zips("MI", 49853, 49855, {detroit}),
    zip("MI", 49858, {menominee}), zips("MI", 49861, 49862, {detroit}),
    zip("MI", 49863, {menominee}), zips("MI", 49864, 49868, {detroit}),
    zip("MI", 49870, {menominee}), zips("MI", 49871, 49872, {detroit}),
    zips("MI", 49873, 49877, {menominee}), zip("MI", 49878, {detroit}), zip("MI", 49880, {detroit}),
    zip("MI", 49881, {menominee}), zips("MI", 49883, 49885, {detroit}),
    zips("MI", 49886, 49887, {menominee}), zip("MI", 49891, {detroit}),
    zips("MI", 49892, 49893, {menominee}), zips("MI", 49894, 49895, {detroit}),
    zip("MI", 49896, {menominee}),
    prefix("MI", 499, {detroit, menominee}),     // Houghton; Ironwood, Iron River
    zip("MI", 49901, {detroit}), zips("MI", 49902, 49903, {menominee}),
    zips("MI", 49905, 49910, {detroit}), zip("MI", 49911, {menominee}),
    zips("MI", 49912, 49913, {detroit}), zip("MI", 49915, {menominee}),
    zips("MI", 49916, 49919, {detroit}), zip("MI", 49920, {menominee}),
    zips("MI", 49921, 49925, {detroit}), zip("MI", 49927, {menominee}),
    zips("MI", 49929, 49934, {detroit}), zips("MI", 49935, 49938, {menominee}),
    zips("MI", 49942, 49946, {detroit}), zips("MI", 49948, 49958, {detroit}),
    zip("MI", 49959, {menominee}), zips("MI", 49960, 49965, {detroit}),
    zips("MI", 49968, 49969, {menominee}), zips("MI", 49970, 49971, {detroit}),

    // ---- Nebraska: Central, except the Panhandle and the southwest: Mountain (Arthur, Banner,
    // Box Butte, Chase, Cheyenne, Dawes, Deuel, Dundy, Garden, Grant, Hooker, Keith, Kimball,
    // Morrill, Perkins, Scotts Bluff, Sheridan, Sioux, and western Cherry County).
    prefixes("NE", 680, 693, {chicago}),
    prefix("NE", 693, {denver}),                 // Alliance, Scottsbluff, Chadron
    prefix("NE", 690, {chicago, denver}),        // McCook; Imperial, Benkelman (Mountain)
    zips("NE", 69001, 69020, {chicago}), zip("NE", 69021, {denver}), zip("NE", 69022, {chicago}),
    zip("NE", 69023, {denver}), zips("NE", 69024, 69026, {chicago}), zip("NE", 69027, {denver}),
    zips("NE", 69028, 69029, {chicago}), zip("NE", 69030, {denver}), zip("NE", 69032, {chicago}),
    zip("NE", 69033, {denver}), zips("NE", 69034, 69036, {chicago}), zip("NE", 69037, {denver}),
    zips("NE", 69038, 69040, {chicago}), zip("NE", 69041, {denver}),
    zips("NE", 69042, 69044, {chicago}), zip("NE", 69046, {chicago}),
    prefix("NE", 691, {chicago, denver}),        // North Platte; Ogallala, Sidney (Mountain)
    zips("NE", 69101, 69120, {chicago}), zips("NE", 69121, 69122, {denver}),
    zip("NE", 69123, {chicago}), zips("NE", 69125, 69129, {denver}), zip("NE", 69130, {chicago}),
    zip("NE", 69131, {denver}), zip("NE", 69132, {chicago}), zip("NE", 69133, {denver}),
    zip("NE", 69138, {chicago}), zips("NE", 69140, 69141, {denver}),
    zips("NE", 69142, 69143, {chicago}), zips("NE", 69144, 69150, {denver}),
    zip("NE", 69151, {chicago}), zips("NE", 69153, 69156, {denver}), zip("NE", 69157, {chicago}),
    zip("NE", 69162, {denver}), zips("NE", 69163, 69165, {chicago}), zip("NE", 69167, {chicago}),
    zip("NE", 69168, {denver}), zips("NE", 69170, 69171, {chicago}),
    prefix("NE", 692, {chicago, denver}),        // Valentine; Cherry County is split
    zip("NE", 69210, {chicago}), zip("NE", 69214, {chicago}), zip("NE", 69217, {chicago}),
    zip("NE", 69201, {chicago}),                 // Valentine, in eastern Cherry County

    // ---- Nevada: Pacific. West Wendover keeps Mountain time officially; Jackpot, Mountain
    // City and Owyhee (Duck Valley) keep it unofficially, with Idaho and Utah.
    prefixes("NV", 889, 898, {los_angeles}),
    zip("NV", 89883, {denver}),
    zip("NV", 89825, {los_angeles, denver}),
    zips("NV", 89831, 89832, {los_angeles, denver}),

    // ---- North Dakota: Central, except the southwest: Mountain (Adams, Billings, Bowman,
    // Golden Valley, Grant, Hettinger, Slope, Stark, most of Dunn and Sioux, and the south of
    // McKenzie, whose line is uncertain: McKenzie ZIP Codes stay ambiguous).
    prefixes("ND", 580, 588, {chicago}),
    prefix("ND", 585, {chicago, denver}),        // Bismarck; Fort Yates, Elgin (Mountain)
    zips("ND", 58501, 58505, {chicago}), zips("ND", 58521, 58524, {chicago}),
    zips("ND", 58528, 58529, {denver}), zips("ND", 58530, 58532, {chicago}),
    zip("ND", 58533, {denver}), zip("ND", 58538, {denver}), zips("ND", 58540, 58561, {chicago}),
    zip("ND", 58562, {denver}), zip("ND", 58563, {chicago}), zip("ND", 58564, {denver}),
    zips("ND", 58565, 58566, {chicago}), zips("ND", 58568, 58569, {denver}),
    zips("ND", 58571, 58581, {chicago}),
    prefix("ND", 586, {denver, chicago}),        // Dickinson; Glen Ullin, Hebron (Central)
    zips("ND", 58601, 58623, {denver}), zips("ND", 58626, 58630, {denver}),
    zip("ND", 58632, {denver}), zips("ND", 58639, 58656, {denver}),
    prefix("ND", 587, {chicago, denver}),        // Minot; Mandaree, New Town (McKenzie)
    zips("ND", 58701, 58756, {chicago}), zips("ND", 58758, 58762, {chicago}),
    zips("ND", 58765, 58795, {chicago}),
    prefix("ND", 588, {chicago, denver}),        // Williston; Watford City (McKenzie)
    zip("ND", 58830, {chicago}), zip("ND", 58833, {chicago}), zips("ND", 58843, 58845, {chicago}),
    zips("ND", 58849, 58853, {chicago}), zip("ND", 58856, {chicago}),

    // ---- Oklahoma: Central. Kenton, at the tip of the Panhandle, keeps Mountain time
    // unofficially.
    prefixes("OK", 730, 749, {chicago}),
    zip("OK", 73946, {chicago, denver}),

    // ---- Oregon: Pacific, except Malheur County: Mountain (America/Boise), but for its south
    // around McDermitt, which keeps Pacific time.
    prefixes("OR", 970, 979, {los_angeles}),
    prefix("OR", 977, {los_angeles, boise}),     // Bend; Fields (Harney) touches Malheur
    zips("OR", 97701, 97707, {los_angeles}), zips("OR", 97711, 97761, {los_angeles}),
    prefix("OR", 979, {boise, los_angeles}),     // Ontario, Vale, Nyssa
    zips("OR", 97904, 97905, {los_angeles}),
    zip("OR", 97901, {boise}), zip("OR", 97903, {boise}),                  // Adrian, Brogan
    zip("OR", 97906, {boise}), zips("OR", 97908, 97909, {boise}),          // Harper, Ironside
    zip("OR", 97911, {boise}), zips("OR", 97913, 97914, {boise}),   // Juntura, Nyssa, Ontario
    zip("OR", 97918, {boise}), zip("OR", 97920, {boise}),                  // Vale, Westfall

    // ---- South Dakota: Central east of the Missouri, Mountain west of it (Bennett, Butte,
    // Corson, Custer, Dewey, Fall River, Haakon, Harding, Jackson, Lawrence, Meade, Oglala
    // Lakota, Pennington, Perkins, Stanley, Ziebach); Jones, Lyman, Mellette, Todd and Tripp,
    // west of the river, are Central.
    prefixes("SD", 570, 577, {chicago}),
    prefix("SD", 577, {denver}),                 // Rapid City, Spearfish, Sturgis
    prefix("SD", 574, {chicago, denver}),        // Aberdeen; Gettysburg by Lake Oahe
    zips("SD", 57401, 57441, {chicago}), zips("SD", 57445, 57481, {chicago}),
    prefix("SD", 575, {chicago, denver}),        // Pierre (Central); Philip, Kadoka (Mountain)
    zips("SD", 57501, 57520, {chicago}), zips("SD", 57522, 57531, {chicago}),
    zips("SD", 57533, 57536, {chicago}), zip("SD", 57537, {denver}),
    zips("SD", 57538, 57541, {chicago}), zip("SD", 57543, {denver}), zip("SD", 57544, {chicago}),
    zip("SD", 57547, {denver}), zip("SD", 57548, {chicago}), zip("SD", 57551, {denver}),
    zip("SD", 57553, {denver}), zips("SD", 57555, 57559, {chicago}),
    zips("SD", 57562, 57566, {chicago}), zip("SD", 57567, {denver}),
    zips("SD", 57568, 57572, {chicago}), zip("SD", 57574, {denver}), zip("SD", 57576, {chicago}),
    zip("SD", 57577, {denver}), zips("SD", 57579, 57585, {chicago}),
    prefix("SD", 576, {denver, chicago}),        // Lemmon, Eagle Butte; Mobridge (Central)
    zips("SD", 57620, 57630, {denver}), zips("SD", 57631, 57632, {chicago}),
    zips("SD", 57633, 57645, {denver}), zips("SD", 57646, 57648, {chicago}),
    zips("SD", 57649, 57661, {denver}),

    // ---- Tennessee: Central, except East Tennessee: Eastern (Anderson, Bledsoe, Blount,
    // Bradley, Campbell, Carter, Claiborne, Cocke, Grainger, Greene, Hamblen, Hamilton,
    // Hancock, Hawkins, Jefferson, Johnson, Knox, Loudon, McMinn, Meigs, Monroe, Morgan, Polk,
    // Rhea, Roane, Scott, Sevier, Sullivan, Unicoi, Union, Washington).
    prefixes("TN", 370, 385, {chicago}),
    prefix("TN", 376, {new_york}),               // Johnson City, Kingsport, Bristol
    prefix("TN", 379, {new_york}),               // Knoxville
    prefix("TN", 373, {new_york, chicago}),      // Cleveland, Athens (Eastern); Tullahoma (Central)
    zip("TN", 37301, {chicago}), zips("TN", 37302, 37303, {new_york}),
    zips("TN", 37305, 37306, {chicago}), zips("TN", 37307, 37312, {new_york}),
    zip("TN", 37313, {chicago}), zips("TN", 37315, 37317, {new_york}), zip("TN", 37318, {chicago}),
    zips("TN", 37321, 37323, {new_york}), zip("TN", 37324, {chicago}),
    zips("TN", 37325, 37326, {new_york}), zip("TN", 37328, {chicago}), zip("TN", 37329, {new_york}),
    zip("TN", 37330, {chicago}), zips("TN", 37331, 37333, {new_york}),
    zips("TN", 37334, 37335, {chicago}), zip("TN", 37336, {new_york}),
    zips("TN", 37339, 37340, {chicago}), zip("TN", 37341, {new_york}), zip("TN", 37342, {chicago}),
    zip("TN", 37343, {new_york}), zips("TN", 37345, 37348, {chicago}),
    zips("TN", 37350, 37351, {new_york}), zip("TN", 37352, {chicago}),
    zips("TN", 37353, 37354, {new_york}), zips("TN", 37355, 37360, {chicago}),
    zips("TN", 37361, 37363, {new_york}), zips("TN", 37365, 37366, {chicago}),
    zips("TN", 37369, 37373, {new_york}), zips("TN", 37374, 37376, {chicago}),
    zip("TN", 37380, {chicago}), zips("TN", 37381, 37385, {new_york}),
    zips("TN", 37387, 37388, {chicago}), zip("TN", 37391, {new_york}),
    zips("TN", 37394, 37398, {chicago}),
    prefix("TN", 374, {new_york, chicago}),      // Chattanooga; its west reaches Marion County
    zips("TN", 37402, 37404, {new_york}), zips("TN", 37406, 37416, {new_york}),
    zip("TN", 37421, {new_york}),
    prefix("TN", 377, {new_york, chicago}),      // Knoxville area; Crab Orchard (Cumberland)
    zips("TN", 37701, 37722, {new_york}), zip("TN", 37723, {chicago}),
    zips("TN", 37724, 37725, {new_york}), zips("TN", 37727, 37779, {new_york}),
    prefix("TN", 378, {new_york, chicago}),      // Morristown, Oak Ridge; Rockwood by Cumberland
    zips("TN", 37801, 37853, {new_york}), zips("TN", 37857, 37892, {new_york}),
    prefix("TN", 385, {chicago, new_york}),      // Cookeville; Allardt (Scott), Pikeville edge
    zip("TN", 38501, {chicago}), zips("TN", 38505, 38571, {chicago}),
    zips("TN", 38573, 38589, {chicago}),

    // ---- Texas: Central, except El Paso and Hudspeth counties: Mountain (49 CFR 71.8).
    prefix("TX", 733, {chicago}),                // Austin (IRS)
    prefixes("TX", 750, 797, {chicago}),
    prefix("TX", 799, {denver}),                 // El Paso
    prefix("TX", 885, {denver}),                 // El Paso (PO boxes and firms)
    prefix("TX", 798, {chicago, denver}),        // El Paso County towns, Hudspeth; Big Bend
    zip("TX", 79821, {denver}), zips("TX", 79830, 79834, {chicago}),
    zips("TX", 79835, 79839, {denver}), zips("TX", 79842, 79846, {chicago}),
    zip("TX", 79848, {chicago}), zips("TX", 79849, 79851, {denver}), zip("TX", 79852, {chicago}),
    zip("TX", 79853, {denver}), zip("TX", 79854, {chicago}),
};
// clang-format on

}  // namespace zone_table

namespace detail {

[[nodiscard]] constexpr char ascii_upper(char c) noexcept {
    return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

// The first five digits of "12345" or "12345-6789"; nothing otherwise.
[[nodiscard]] constexpr bool parse_zip5(std::string_view zip, std::uint32_t& out) noexcept {
    if (zip.size() != 5 && zip.size() != 10) return false;
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < zip.size(); ++i) {
        if (i == 5) {
            if (zip[i] != '-') return false;
            continue;
        }
        if (zip[i] < '0' || zip[i] > '9') return false;
        if (i < 5) value = value * 10 + static_cast<std::uint32_t>(zip[i] - '0');
    }
    out = value;
    return true;
}

}  // namespace detail

namespace zone_table {

// The state (or territory, or military "state") each USPS 3-digit ZIP prefix serves, as runs of
// 5-digit ZIP Codes: what an address without a state, or with one that disagrees with its ZIP
// Code, is located by. The narrowest run containing a ZIP Code decides (969 is shared by the
// Pacific territories; 96799 is American Samoa inside Hawaii's 967).
struct PrefixState {
    std::uint32_t first;
    std::uint32_t last;
    std::string_view state;
};

constexpr PrefixState served(std::uint32_t first3, std::uint32_t last3, std::string_view state) {
    return {first3 * 100, last3 * 100 + 99, state};
}

// clang-format off
inline constexpr PrefixState prefix_states[] = {
    served(5, 5, "NY"),     served(6, 7, "PR"),     served(8, 8, "VI"),     served(9, 9, "PR"),
    served(10, 27, "MA"),   served(28, 29, "RI"),   served(30, 38, "NH"),   served(39, 49, "ME"),
    served(50, 59, "VT"),   served(55, 55, "MA"),   served(60, 69, "CT"),   served(70, 89, "NJ"),
    served(90, 98, "AE"),   served(100, 149, "NY"), served(150, 196, "PA"), served(197, 199, "DE"),
    served(200, 200, "DC"), served(201, 201, "VA"), served(202, 205, "DC"), served(206, 219, "MD"),
    served(220, 246, "VA"), served(247, 268, "WV"), served(270, 289, "NC"), served(290, 299, "SC"),
    served(300, 319, "GA"), served(320, 349, "FL"), served(340, 340, "AA"), served(350, 369, "AL"),
    served(370, 385, "TN"), served(386, 397, "MS"), served(398, 399, "GA"), served(400, 427, "KY"),
    served(430, 459, "OH"), served(460, 479, "IN"), served(480, 499, "MI"), served(500, 528, "IA"),
    served(530, 549, "WI"), served(550, 567, "MN"), served(569, 569, "DC"), served(570, 577, "SD"),
    served(580, 588, "ND"), served(590, 599, "MT"), served(600, 629, "IL"), served(630, 658, "MO"),
    served(660, 679, "KS"), served(680, 693, "NE"), served(700, 715, "LA"), served(716, 729, "AR"),
    served(730, 749, "OK"), served(733, 733, "TX"), served(750, 799, "TX"), served(800, 816, "CO"),
    served(820, 831, "WY"), served(832, 838, "ID"), served(840, 847, "UT"), served(850, 865, "AZ"),
    served(870, 884, "NM"), served(885, 885, "TX"), served(889, 898, "NV"), served(900, 961, "CA"),
    served(962, 966, "AP"), served(967, 968, "HI"), served(970, 979, "OR"), served(980, 994, "WA"),
    served(995, 999, "AK"),
    {96799, 96799, "AS"},   {96910, 96932, "GU"},   {96939, 96940, "PW"},   {96941, 96944, "FM"},
    {96950, 96952, "MP"},   {96960, 96970, "MH"},
};
// clang-format on

}  // namespace zone_table

namespace detail {

// Every zone of one state (upper case) that the ZIP Code may be in: the narrowest ZIP Code rule
// of that state containing it, else every zone of the state; none for an unknown state.
[[nodiscard]] constexpr ZoneCandidates state_zones(std::string_view upper, bool has_zip,
                                                   std::uint32_t zip5) noexcept {
    const zone_table::StateZones* found = nullptr;
    for (const auto& entry : zone_table::states) {
        if (entry.state == upper) {
            found = &entry;
            break;
        }
    }
    if (found == nullptr) return {};
    if (found->zones.size() == 1 || !has_zip) return found->zones;
    const zone_table::ZipRule* best = nullptr;
    for (const auto& rule : zone_table::rules) {
        if (rule.state != upper || zip5 < rule.first || zip5 > rule.last) continue;
        if (best == nullptr || rule.last - rule.first < best->last - best->first) best = &rule;
    }
    return best != nullptr ? best->zones : found->zones;
}

}  // namespace detail

// The state a ZIP Code's prefix serves; empty when no state has it.
[[nodiscard]] constexpr std::string_view zip_state(std::string_view zip) noexcept {
    std::uint32_t zip5 = 0;
    if (!detail::parse_zip5(zip, zip5)) return {};
    const zone_table::PrefixState* best = nullptr;
    for (const auto& run : zone_table::prefix_states) {
        if (zip5 < run.first || zip5 > run.last) continue;
        if (best == nullptr || run.last - run.first < best->last - best->first) best = &run;
    }
    return best != nullptr ? best->state : std::string_view{};
}

// Every zone the customer may be in: those of `state` when one is given (in any letter case),
// then those of the state the ZIP Code's prefix serves; a ZIP Code and a state that disagree
// give the union (API.md section 8), the state's zones first. `zip` is "12345" or "12345-6789"; a
// state that spans zones with a ZIP Code outside its prefixes gives every zone of the state. Empty
// when neither locates the customer.
[[nodiscard]] constexpr ZoneCandidates resolve_time_zones(std::string_view state,
                                                          std::string_view zip) noexcept {
    std::uint32_t zip5 = 0;
    const bool has_zip = detail::parse_zip5(zip, zip5);
    ZoneCandidates out;
    if (state.size() == 2) {
        const char code[2] = {detail::ascii_upper(state[0]), detail::ascii_upper(state[1])};
        for (Zone zone : detail::state_zones(std::string_view(code, 2), has_zip, zip5))
            out.add(zone);
    }
    const std::string_view served = zip_state(zip);
    if (!served.empty()) {
        for (Zone zone : detail::state_zones(served, has_zip, zip5))
            out.add(zone);
    }
    return out;
}

}  // namespace collectcall::compliance
