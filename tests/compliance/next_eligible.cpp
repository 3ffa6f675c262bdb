// The next eligible time (next_eligible.hpp): worked examples across daylight saving time and
// split zones, then properties over generated inputs checked against a brute-force oracle.
#include "collectcall/compliance/next_eligible.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"

using namespace collectcall;
using namespace collectcall::compliance;
using compliance_test::local;
using compliance_test::utc;
using namespace std::chrono_literals;

namespace {

ComplianceInput customer(std::string_view state, std::string_view zip, CallTime now) {
    ComplianceInput in;
    in.active = true;
    in.state = state;
    in.zip5 = zip;
    in.now = now;
    return in;
}

// The oracle: the first instant, `now` or a whole minute after it up to 8 days later, at which
// evaluate passes, found by trying each in turn. It knows nothing of boundaries; it relies on
// one fact of the inputs the tests generate: every rule's edges lie on whole minutes (zone
// offsets in whole minutes, windows and periods in HH:MM, local midnights), so a passing run
// that starts after `now` starts on a whole minute.
std::optional<CallTime> oracle(ComplianceInput in) {
    const CallTime start = in.now;
    if (evaluate(in).passed) return start;
    CallTime t = std::chrono::ceil<std::chrono::minutes>(start);
    if (t == start) t += 1min;
    for (; t <= start + date::days{8}; t += 1min) {
        in.now = t;
        if (evaluate(in).passed) return t;
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("next eligible: an eligible customer now, a closed window, a full day") {
    auto in = customer("NY", "10001", local("America/New_York", 2026, 1, 15, 10, 0, 7));
    CHECK(next_eligible(in) == in.now);
    // 20:50 is outside: tomorrow at 08:00.
    in.now = local("America/New_York", 2026, 1, 15, 20, 50);
    CHECK(next_eligible(in) == local("America/New_York", 2026, 1, 16, 8, 0));
    // Before the window: today at 08:00.
    in.now = local("America/New_York", 2026, 1, 15, 3, 0);
    CHECK(next_eligible(in) == local("America/New_York", 2026, 1, 15, 8, 0));
    // Four calls today: the day rolls over, then the window opens.
    const std::vector<CallTime> calls(4, local("America/New_York", 2026, 1, 15, 9, 0));
    in.placed_calls = calls;
    in.now = local("America/New_York", 2026, 1, 15, 10, 0);
    CHECK(next_eligible(in) == local("America/New_York", 2026, 1, 16, 8, 0));
    // Inactive or cease and desist: never.
    in.active = false;
    CHECK_FALSE(next_eligible(in));
    in.active = true;
    in.cease_and_desist = true;
    CHECK_FALSE(next_eligible(in));
}

TEST_CASE("next eligible: days away, past the search's first stretches") {
    // Seven calls in three days under regulation-f: the customer is next eligible once the
    // first day's calls leave the seven-day window, days later, in the third stretch of the
    // search (after a day, then two more).
    auto in = customer("NY", "10001", local("America/New_York", 2026, 1, 15, 10, 0));
    in.policy = CompliancePolicy::regulation_f;
    const std::vector<CallTime> calls{local("America/New_York", 2026, 1, 13, 9, 0),
                                      local("America/New_York", 2026, 1, 13, 12, 0),
                                      local("America/New_York", 2026, 1, 13, 15, 0),
                                      local("America/New_York", 2026, 1, 14, 9, 0),
                                      local("America/New_York", 2026, 1, 14, 12, 0),
                                      local("America/New_York", 2026, 1, 15, 9, 0),
                                      local("America/New_York", 2026, 1, 15, 9, 30)};
    in.placed_calls = calls;
    const std::optional<CallTime> next = next_eligible(in);
    REQUIRE(next);
    CHECK(*next > in.now + date::days{3});
    CHECK(next == oracle(in));
}

TEST_CASE("next eligible: across daylight saving time changes") {
    // Spring forward, New York, 2026-03-08: the window opens at 08:00 EDT, 12:00 UTC.
    auto in = customer("NY", "10001", utc(2026, 3, 8, 5, 0));  // 00:00 EST
    CHECK(next_eligible(in) == utc(2026, 3, 8, 12, 0));
    // Fall back, 2026-11-01: 08:00 EST, 13:00 UTC.
    in.now = utc(2026, 11, 1, 5, 30);  // the first 01:30
    CHECK(next_eligible(in) == utc(2026, 11, 1, 13, 0));
    // A window that starts inside the hour that repeats opens at its first occurrence; one that
    // starts inside the hour that is skipped opens at the jump.
    in.window = RespectfulHours{90min, 20h};
    in.now = utc(2026, 11, 1, 4, 0);  // 00:00 EDT
    CHECK(next_eligible(in) == utc(2026, 11, 1, 5, 30));
    in.now = utc(2026, 3, 8, 5, 0);            // 00:00 EST
    in.window = RespectfulHours{150min, 20h};  // 02:30 does not exist on 2026-03-08
    CHECK(next_eligible(in) == utc(2026, 3, 8, 7, 0));
    CHECK_FALSE(evaluate([&] {
                    auto before = in;
                    before.now = utc(2026, 3, 8, 6, 59, 59);
                    return before;
                }())
                    .passed);

    // A window that ends inside the repeated hour is entered again when the clock falls back:
    // 00:00-01:30, at 01:45 EDT (05:45 UTC) the next instant inside is 01:00 EST (06:00 UTC).
    in.window = RespectfulHours{0min, 90min};
    in.now = utc(2026, 11, 1, 5, 45);
    CHECK(next_eligible(in) == utc(2026, 11, 1, 6, 0));
    // One that starts inside it is entered at both 01:30s: 01:30-01:45, at 01:50 EDT (05:50 UTC)
    // the next is 01:30 EST (06:30 UTC), not the next day.
    in.window = RespectfulHours{90min, 105min};
    in.now = utc(2026, 11, 1, 5, 50);
    CHECK(next_eligible(in) == utc(2026, 11, 1, 6, 30));
}

TEST_CASE("next eligible: a split zone opens with the later zone and closes with the earlier") {
    // Van Horn (79855), Central or Mountain: 08:00 Mountain opens, 20:50 Central closes.
    auto in = customer("TX", "79855", utc(2026, 1, 15, 3, 0));  // 21:00 Central
    CHECK(next_eligible(in) == local("America/Denver", 2026, 1, 15, 8, 0));
    // The Navajo Nation in July: 08:00 Phoenix is 09:00 Denver, so Phoenix decides.
    in = customer("AZ", "86515", utc(2026, 7, 15, 3, 0));
    CHECK(next_eligible(in) == local("America/Phoenix", 2026, 7, 15, 8, 0));
}

TEST_CASE("next eligible: windows that never meet, and the search's bound") {
    // A military address in Asia and the Pacific (Diego Garcia, UTC+6, to Kwajalein, UTC+12)
    // and a New York number under regulation-f: 08:00-21:00 in all of them never happens at
    // once (New York and Diego Garcia meet from 13:00 to 15:00 UTC, Kwajalein opens at 20:00).
    auto in = customer("AP", "96201", utc(2026, 1, 15, 0, 0));
    in.policy = CompliancePolicy::regulation_f;
    in.phone_numbers = {"+12125550100", ""};
    CHECK_FALSE(permanently_ineligible(in));
    CHECK_FALSE(next_eligible(in));
    // Under the hosted policy the number is not location evidence.
    in.policy = CompliancePolicy::hosted;
    CHECK(next_eligible(in));
}

namespace {

// An address for every distinct candidate set the ZIP Code table produces.
struct Address {
    std::string state;
    std::string zip;
};

std::vector<Address> addresses_of_every_candidate_set() {
    std::map<std::vector<int>, Address> sets;
    const auto add = [&](std::string state, std::string zip) {
        std::vector<int> key;
        for (Zone zone : resolve_time_zones(state, zip))
            key.push_back(static_cast<int>(zone));
        if (!key.empty()) sets.emplace(key, Address{std::move(state), std::move(zip)});
    };
    const auto five = [](std::uint32_t zip) {
        std::string out = std::to_string(zip);
        return std::string(5 - out.size(), '0') + out;
    };
    for (const auto& run : zone_table::zip_runs) {
        add(std::string(zone_table::states[run.state].state), five(run.first));
        add(std::string(zone_table::states[run.state].state), five(run.last));
    }
    for (const auto& state : zone_table::states)
        add(std::string(state.state), "");
    std::vector<Address> out;
    for (auto& [key, address] : sets)
        out.push_back(address);
    return out;
}

}  // namespace

TEST_CASE("next eligible: properties over generated inputs, against a brute-force oracle") {
    const std::vector<Address> addresses = addresses_of_every_candidate_set();
    REQUIRE(addresses.size() > 20);
    std::mt19937_64 random(20260308);
    const auto uniform = [&](long long low, long long high) {
        return std::uniform_int_distribution<long long>(low, high)(random);
    };
    const auto chance = [&](int percent) { return uniform(1, 100) <= percent; };
    const auto& codes = zone_table::area_codes;
    // Instants near 2026's daylight saving time changes, near local midnights and window edges,
    // and anywhere in the year.
    const std::vector<CallTime> anchors{utc(2026, 3, 8, 0, 0), utc(2026, 11, 1, 0, 0),
                                        utc(2026, 3, 29, 0, 0), utc(2026, 10, 25, 0, 0)};

    constexpr int cases = 200;
    int eligible_now = 0, later = 0, never_permanent = 0, never_apart = 0;
    for (int i = 0; i < cases; ++i) {
        // Some customers in Massachusetts, whose rule counts calls and texts (state-call-limit),
        // one of them with a ZIP Code of another state; the rest one of each candidate set.
        const Address massachusetts[] = {{"MA", "02108"}, {"MA", "01002"}, {"NH", "02108"}};
        const Address& address = chance(15)
                                     ? massachusetts[static_cast<std::size_t>(uniform(0, 2))]
                                     : addresses[static_cast<std::size_t>(uniform(
                                           0, static_cast<long long>(addresses.size()) - 1))];
        ComplianceInput in = customer(address.state, address.zip, {});
        // A quarter of the accounts have a window of their own, in quarter hours.
        if (chance(25)) {
            const auto start = std::chrono::minutes{uniform(0, 95) * 15};
            const auto end = std::min<std::chrono::minutes>(
                start + std::chrono::minutes{uniform(1, 64) * 15}, 24h);
            in.window = RespectfulHours{start, end};
        }
        in.policy = chance(50) ? CompliancePolicy::regulation_f : CompliancePolicy::hosted;
        const auto medium = uniform(0, 99);
        in.channel = medium < 70   ? ContactChannel::call
                     : medium < 90 ? ContactChannel::sms
                                   : ContactChannel::email;
        in.active = !chance(4);
        in.cease_and_desist = chance(4);
        for (ContactChannel restricted : enum_values<ContactChannel>) {
            if (chance(4)) in.restricted_media.add(restricted);
        }
        in.attorney_represented = chance(4);
        std::string phones[2];
        for (std::string& phone : phones) {
            if (chance(50)) {
                const auto& code = codes[static_cast<std::size_t>(
                    uniform(0, static_cast<long long>(std::size(codes)) - 1))];
                phone = "+1" + std::to_string(code.code) + "5550100";
            }
        }
        in.phone_numbers = {phones[0], phones[1]};
        // A text to a number of its own (its zone a candidate under regulation-f).
        std::string to;
        if (chance(30)) {
            const auto& code = codes[static_cast<std::size_t>(
                uniform(0, static_cast<long long>(std::size(codes)) - 1))];
            to = "+1" + std::to_string(code.code) + "5550199";
        }
        in.to_number = to;

        // Now: around an anchor or anywhere in 2026, at a random second; often moved to just
        // before or after a local midnight or a window edge of a candidate zone.
        CallTime now = chance(60)
                           ? anchors[static_cast<std::size_t>(uniform(0, 3))] +
                                 std::chrono::seconds{uniform(-2 * 86400, 2 * 86400)}
                           : utc(2026, 1, 1, 0, 0) + std::chrono::seconds{uniform(0, 364 * 86400)};
        in.now = now;
        if (chance(40)) {
            const ZoneSet zones = candidate_zones(in);
            const Zone zone = zones[static_cast<std::size_t>(
                uniform(0, static_cast<long long>(zones.size()) - 1))];
            const auto* tz = date::locate_zone(zone_name(zone));
            const std::chrono::minutes edges[] = {0min, in.window.start, in.window.end, 8h, 21h};
            const auto day = std::chrono::floor<date::days>(tz->to_local(now));
            now = CallTime{tz->to_sys(day + edges[uniform(0, 4)],
                                      chance(50) ? date::choose::earliest : date::choose::latest)} +
                  std::chrono::seconds{uniform(-90, 90)};
            in.now = now;
        }

        // Some at night around a candidate zone's change of daylight saving time, with a window
        // in the small hours, so that the window's edges fall in the hour skipped or repeated
        // (under the hosted policy: Regulation F's 08:00-21:00 would leave no time at all).
        if (chance(12)) {
            in.policy = CompliancePolicy::hosted;
            const ZoneSet zones = candidate_zones(in);
            const auto* tz = date::locate_zone(zone_name(zones[0]));
            const auto info = tz->get_info(std::chrono::floor<std::chrono::seconds>(
                anchors[static_cast<std::size_t>(uniform(0, 3))] - date::days{30}));
            if (info.end < CallTime{date::sys_days{date::year{2027} / 1 / 1}}) {
                now = CallTime{info.end} + std::chrono::minutes{uniform(-180, 180)};
                in.now = now;
                const auto start = std::chrono::minutes{uniform(0, 12) * 15};
                in.window =
                    RespectfulHours{start, start + std::chrono::minutes{uniform(1, 8) * 15}};
            }
        }

        // History: up to a dozen calls over the past eight days (some on the same day), some of
        // them conversations, and a few text messages.
        std::vector<CallTime> calls, conversations, texts;
        const auto count = uniform(0, 12);
        for (long long c = 0; c < count; ++c) {
            const CallTime at = chance(30) && !calls.empty()
                                    ? calls.back() + std::chrono::minutes{uniform(1, 120)}
                                    : now - std::chrono::seconds{uniform(0, 8 * 86400)};
            if (at > now) continue;
            calls.push_back(at);
            if (chance(15)) conversations.push_back(at);
        }
        for (long long t = uniform(0, 3); t > 0; --t)
            texts.push_back(now - std::chrono::seconds{uniform(0, 8 * 86400)});
        in.placed_calls = calls;
        in.conversations = conversations;
        in.sent_texts = texts;
        // Now and then a call still in progress: under regulation-f a call waits for it.
        std::vector<OngoingCall> in_progress;
        if (chance(5) && !calls.empty()) {
            in_progress.push_back(
                {Uuid::parse("3f2c1d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f").value(), calls.back()});
        }
        in.calls_in_progress = in_progress;
        std::vector<InconvenientTime> designated;
        for (long long p = uniform(0, 2); p > 0; --p) {
            InconvenientTime period;
            for (Weekday day : enum_values<Weekday>) {
                if (chance(40)) period.days.push_back(day);
            }
            const auto from = std::chrono::minutes{uniform(0, 95) * 15};
            period.from = *ClockTime::from_minutes(from);
            period.to = *ClockTime::from_minutes(
                std::chrono::minutes{(from.count() + uniform(1, 24) * 15) % (24 * 60)});
            designated.push_back(period);
        }
        in.inconvenient_times = designated;

        const bool regulation_f = in.policy == CompliancePolicy::regulation_f;
        const bool permanent =
            !in.active || in.cease_and_desist || in.restricted_media.contains(in.channel) ||
            (regulation_f && in.attorney_represented) ||
            (regulation_f && in.channel == ContactChannel::call && !in_progress.empty());
        INFO("case " << i << ": " << address.state << ' ' << address.zip << ", "
                     << enum_name(in.policy) << ' ' << enum_name(in.channel) << ", phones "
                     << phones[0] << ' ' << phones[1] << ", now " << date::format("%FT%TZ", now)
                     << ", " << calls.size() << " calls, " << conversations.size()
                     << " conversations, " << texts.size() << " texts, " << designated.size()
                     << " designated periods");

        // Contacts older than required_history change no verdict: a store may keep less.
        {
            ComplianceInput recent = in;
            std::vector<CallTime> recent_calls, recent_texts;
            for (CallTime t : calls) {
                if (t >= now - required_history) recent_calls.push_back(t);
            }
            for (CallTime t : texts) {
                if (t >= now - required_history) recent_texts.push_back(t);
            }
            // Calls a little older than that, which must not count.
            recent_calls.push_back(now - required_history - 1h);
            recent_calls.push_back(now - required_history - 30h);
            recent.placed_calls = recent_calls;
            recent.sent_texts = recent_texts;
            CHECK(evaluate(recent) == evaluate(in));
        }

        const std::optional<CallTime> next = next_eligible(in);
        CHECK(permanently_ineligible(in) == permanent);
        if (permanent) {
            CHECK_FALSE(next);
            ++never_permanent;
            continue;
        }
        const std::optional<CallTime> expected = oracle(in);
        if (expected) {
            // The oracle found one within 8 days: the same instant.
            REQUIRE(next);
            CHECK(*next == *expected);
        } else {
            // None within 8 days: none at all, or later than the oracle looks.
            CHECK((!next || *next > now + date::days{8}));
        }
        if (next) {
            CHECK(*next >= now);
            ComplianceInput at = in;
            at.now = *next;
            CHECK(evaluate(at).passed);
            if (*next - 1s >= now) {
                at.now = *next - 1s;
                CHECK_FALSE(evaluate(at).passed);
            }
            (*next == now ? eligible_now : later) += 1;
        } else {
            // Not permanent yet never: the zones' windows (and the designated periods) leave no
            // instant, whatever the history: without it, the oracle finds none either.
            ComplianceInput fresh = in;
            fresh.placed_calls = {};
            fresh.conversations = {};
            fresh.sent_texts = {};
            CHECK_FALSE(oracle(fresh));
            ++never_apart;
        }
    }
    INFO("eligible now " << eligible_now << ", later " << later << ", never (permanent) "
                         << never_permanent << ", never (zones apart) " << never_apart);
    // The generator reaches every kind of answer.
    CHECK(eligible_now > 0);
    CHECK(later > cases / 4);
    CHECK(never_permanent > 0);
}
