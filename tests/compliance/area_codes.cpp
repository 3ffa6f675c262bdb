// The NANP area-code-to-zone table (area_codes.hpp).
#include "collectcall/compliance/area_codes.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

#include <date/tz.h>

#include "collectcall/compliance/local_time.hpp"

using namespace collectcall::compliance;

static_assert(nanp_area_code("+12125550100") == 212);
static_assert(phone_zones("+12125550100") == ZoneCandidates{Zone::new_york});

TEST_CASE("area codes: the table is sorted, each code once, each a valid NANP area code") {
    const auto& codes = zone_table::area_codes;
    for (std::size_t i = 0; i < std::size(codes); ++i) {
        INFO(codes[i].code);
        if (i > 0) CHECK(codes[i - 1].code < codes[i].code);
        // NPA: [2-9][0-8][0-9]; N11 codes are service codes, not area codes.
        CHECK(codes[i].code >= 200);
        CHECK(codes[i].code <= 999);
        CHECK(codes[i].code / 10 % 10 != 9);
        CHECK(codes[i].code % 100 != 11);
        REQUIRE(codes[i].state < std::size(zone_table::states));
        REQUIRE(codes[i].zones < std::size(zone_table::zone_sets));
        const ZoneCandidates zones = area_code_zones(codes[i]);
        CHECK_FALSE(zones.empty());
        // Every zone an area code gives is one its state may be in, but where the Navajo Nation
        // keeps daylight saving time (928, Arizona) and where libphonenumber's map places
        // Unalaska in Hawaii's zone (907, Alaska: "1907581|Pacific/Honolulu").
        const ZoneCandidates state = resolve_time_zones(area_code_state(codes[i]), "");
        REQUIRE_FALSE(state.empty());
        for (Zone zone : zones) {
            INFO(zone_name(zone));
            CHECK((state.contains(zone) ||
                   (area_code_state(codes[i]) == "AZ" && zone == Zone::denver) ||
                   (codes[i].code == 907 && zone == Zone::honolulu)));
        }
        // Every one found by the lookup.
        CHECK(find_area_code(codes[i].code) == &codes[i]);
    }
    CHECK(std::size(codes) > 300);
}

TEST_CASE("area codes: every area code in service has its zones") {
    // zone_table::area_codes_in_service is what libphonenumber's metadata lists for the 50
    // states, DC and the territories (regions US, PR, VI, GU, MP, AS), as the generator read it.
    const auto& in_service = zone_table::area_codes_in_service;
    CHECK(std::size(in_service) > 300);
    for (std::size_t i = 0; i < std::size(in_service); ++i) {
        INFO(in_service[i]);
        if (i > 0) CHECK(in_service[i - 1] < in_service[i]);
        const auto* entry = find_area_code(in_service[i]);
        REQUIRE(entry != nullptr);
        CHECK_FALSE(area_code_zones(*entry).empty());
    }
    // The territories, each its own libphonenumber region.
    for (std::uint16_t code : {340, 670, 671, 684, 787, 939}) {
        INFO(code);
        CHECK(std::binary_search(std::begin(in_service), std::end(in_service), code));
    }
    // Toll-free and Canadian codes are not in service for a US region.
    for (std::uint16_t code : {800, 888, 416, 604, 876}) {
        INFO(code);
        CHECK_FALSE(std::binary_search(std::begin(in_service), std::end(in_service), code));
        CHECK(find_area_code(code) == nullptr);
    }
}

TEST_CASE("area codes: the codes and zones public data added") {
    // Area codes in service missing from the hand-typed table, each with its zone and state in
    // libphonenumber (resources/timezones/map_data.txt "1738|America/Los_Angeles",
    // "1748|America/Denver", "1821|America/New_York"; resources/geocoding/en/1.txt
    // "738|California", "748|Colorado", "821|South Carolina").
    CHECK(phone_zones("+17385550100") == ZoneCandidates{Zone::los_angeles});
    CHECK(area_code_state(*find_area_code(738)) == "CA");
    CHECK(phone_zones("+17485550100") == ZoneCandidates{Zone::denver});
    CHECK(area_code_state(*find_area_code(748)) == "CO");
    CHECK(phone_zones("+18215550100") == ZoneCandidates{Zone::new_york});
    CHECK(area_code_state(*find_area_code(821)) == "SC");
    // Zones libphonenumber gives a prefix inside a code, added to the curated ones: 689 (Florida)
    // "1689|America/Chicago"; 907 (Alaska) "1907581|Pacific/Honolulu" (Unalaska).
    CHECK(phone_zones("+16895550100") == (ZoneCandidates{Zone::new_york, Zone::chicago}));
    CHECK(phone_zones("+19075550100") ==
          (ZoneCandidates{Zone::anchorage, Zone::adak, Zone::honolulu}));
}

TEST_CASE("area codes: numbers to zones, one zone or every zone the area touches") {
    CHECK(phone_zones("+13125550100") == ZoneCandidates{Zone::chicago});
    CHECK(phone_zones("+14155550100") == ZoneCandidates{Zone::los_angeles});
    CHECK(phone_zones("+19315550100") == ZoneCandidates{Zone::chicago});
    CHECK(phone_zones("+14235550100") == (ZoneCandidates{Zone::new_york, Zone::chicago}));
    CHECK(phone_zones("+18505550100") == (ZoneCandidates{Zone::chicago, Zone::new_york}));
    CHECK(phone_zones("+19155550100") == ZoneCandidates{Zone::denver});
    CHECK(phone_zones("+19285550100") == (ZoneCandidates{Zone::phoenix, Zone::denver}));
    CHECK(phone_zones("+17875550100") == ZoneCandidates{Zone::puerto_rico});
    // Toll-free, Canadian, Caribbean, foreign and malformed numbers locate no one.
    CHECK(phone_zones("+18005550100").empty());
    CHECK(phone_zones("+14165550100").empty());  // Toronto
    CHECK(phone_zones("+18765550100").empty());  // Jamaica
    CHECK(phone_zones("+442071234567").empty());
    CHECK(phone_zones("").empty());
    CHECK(phone_zones("+1212555010").empty());
    CHECK(phone_zones("+1A125550100").empty());
    CHECK(find_area_code(0) == nullptr);
    CHECK(find_area_code(999) == nullptr);
}
