// The NANP area-code-to-zone table (area_codes.hpp).
#include "collectcall/compliance/area_codes.hpp"

#include <catch2/catch.hpp>
#include <iterator>
#include <string>

#include <date/tz.h>

#include "collectcall/compliance/local_time.hpp"

using namespace collectcall::compliance;

static_assert(nanp_area_code("+12125550100") == 212);
static_assert(phone_zones("+12125550100") == ZoneCandidates{Zone::new_york});

TEST_CASE("area codes: the table is sorted, each code once, each a valid NANP area code") {
    const auto& codes = area_code_table::codes;
    for (std::size_t i = 0; i < std::size(codes); ++i) {
        INFO(codes[i].code);
        if (i > 0) CHECK(codes[i - 1].code < codes[i].code);
        // NPA: [2-9][0-8][0-9]; N11 codes are service codes, not area codes.
        CHECK(codes[i].code >= 200);
        CHECK(codes[i].code / 10 % 10 != 9);
        CHECK(codes[i].code % 100 != 11);
        CHECK_FALSE(codes[i].zones.empty());
        // Every zone an area code gives is one its state may be in.
        const ZoneCandidates state = resolve_time_zones(codes[i].state, "");
        REQUIRE_FALSE(state.empty());
        for (Zone zone : codes[i].zones) {
            INFO(zone_name(zone));
            CHECK((state.contains(zone) || (codes[i].state == "AZ" && zone == Zone::denver)));
        }
        // Every one found by the lookup.
        CHECK(find_area_code(codes[i].code) == &codes[i]);
    }
    CHECK(std::size(codes) > 300);
}

TEST_CASE("area codes: numbers to zones, one zone or every zone the area touches") {
    CHECK(phone_zones("+13125550100") == ZoneCandidates{Zone::chicago});
    CHECK(phone_zones("+14155550100") == ZoneCandidates{Zone::los_angeles});
    CHECK(phone_zones("+19075550100") == (ZoneCandidates{Zone::anchorage, Zone::adak}));
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
