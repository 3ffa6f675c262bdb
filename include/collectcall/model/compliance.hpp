// The compliance result of a call (SPEC.md 2.6): every check, passed or failed, with its reason;
// the compliance policies (API.md section 14), a customer's designated inconvenient times, and
// the record of one compliance decision.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/types/clock_time.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

// The checks of API.md sections 8 and 14, in the order they are evaluated and reported; on the
// wire in kebab case ("is-active"). The first four are the hosted service's; the rest are added
// by the regulation-f policy. Their names, descriptions and policies are in
// compliance/checks.hpp.
BOOST_DEFINE_ENUM_CLASS(CheckId, is_active, cease_and_desist_exclusion, four_voice_call_per_day,
                        respectful_hours, call_frequency, inconvenient_time, medium_restriction,
                        attorney_representation, state_call_limit)

struct Check {
    CheckId id = CheckId::is_active;
    std::string name;
    std::string description;
    std::string reason;  // the human-readable outcome

    friend bool operator==(const Check&, const Check&) = default;
};
BOOST_DESCRIBE_STRUCT(Check, (), (id, name, description, reason))

struct ComplianceResult {
    bool passed = false;
    std::vector<Check> checksPassed;
    std::vector<Check> checksFailed;

    friend bool operator==(const ComplianceResult&, const ComplianceResult&) = default;
};
BOOST_DESCRIBE_STRUCT(ComplianceResult, (), (passed, checksPassed, checksFailed))

// An account's compliance policy (`init --compliance`): "hosted" is the hosted service's four
// checks; "regulation-f" adds the rules of Regulation F (12 CFR part 1006), the FDCPA and
// stricter state law (docs/compliance.md).
enum class CompliancePolicy { hosted, regulation_f };
BOOST_DESCRIBE_ENUM(CompliancePolicy, hosted, regulation_f)

// How the customer is contacted: a voice call, a text message or an e-mail. On the wire "call",
// "sms", "email" (a medium of communication of 12 CFR 1006.14(h)).
enum class ContactChannel { call, sms, email };
BOOST_DESCRIBE_ENUM(ContactChannel, call, sms, email)

// What asked for the decision: a single call, an item of a bulk call, a drip campaign's step, a
// persisted SMS, a persisted e-mail, or an enrolment in a drip campaign (recorded when refused:
// its first step can never run); `standing` is the record of a change of the customer's standing
// (StandingChange), no evaluation.
enum class ComplianceOperation { call, bulk_call, drip_step, sms, email, standing, enrolment };
BOOST_DESCRIBE_ENUM(ComplianceOperation, call, bulk_call, drip_step, sms, email, standing,
                    enrolment)

// The media a customer asked the collector not to use (12 CFR 1006.14(h)): a set of
// ContactChannel, on the wire the list of their names in the order of the enum
// (`["call", "email"]`). `bits()` and `from_bits()` are a store's compact form of it.
class RestrictedMedia {
  public:
    constexpr RestrictedMedia() noexcept = default;
    constexpr RestrictedMedia(std::initializer_list<ContactChannel> media) noexcept {
        for (ContactChannel medium : media)
            add(medium);
    }

    [[nodiscard]] constexpr bool contains(ContactChannel medium) const noexcept {
        return (bits_ & bit(medium)) != 0;
    }
    [[nodiscard]] constexpr bool empty() const noexcept { return bits_ == 0; }
    constexpr void add(ContactChannel medium) noexcept { bits_ |= bit(medium); }
    constexpr void remove(ContactChannel medium) noexcept {
        bits_ &= static_cast<unsigned>(~bit(medium));
    }
    // Every medium of `other` added.
    constexpr void add(RestrictedMedia other) noexcept { bits_ |= other.bits_; }

    // The media, in the order of the enum.
    [[nodiscard]] std::vector<ContactChannel> media() const {
        std::vector<ContactChannel> out;
        for (ContactChannel medium : enum_values<ContactChannel>) {
            if (contains(medium)) out.push_back(medium);
        }
        return out;
    }

    [[nodiscard]] constexpr unsigned bits() const noexcept { return bits_; }
    // nullopt when `bits` names a medium the enum does not have.
    [[nodiscard]] static constexpr std::optional<RestrictedMedia> from_bits(
        unsigned bits) noexcept {
        if ((bits & ~all_bits()) != 0) return std::nullopt;
        RestrictedMedia out;
        out.bits_ = bits;
        return out;
    }

    friend constexpr bool operator==(RestrictedMedia, RestrictedMedia) noexcept = default;

  private:
    [[nodiscard]] static constexpr unsigned bit(ContactChannel medium) noexcept {
        return 1U << static_cast<unsigned>(medium);
    }
    [[nodiscard]] static constexpr unsigned all_bits() noexcept {
        unsigned all = 0;
        for (ContactChannel medium : enum_values<ContactChannel>)
            all |= bit(medium);
        return all;
    }

    unsigned bits_ = 0;
};

enum class Weekday { mon, tue, wed, thu, fri, sat, sun };
BOOST_DESCRIBE_ENUM(Weekday, mon, tue, wed, thu, fri, sat, sun)

// A time the customer has told the collector is inconvenient for them (12 CFR 1006.6(b)(1)),
// in the customer's local time: from `from` (inside) to `to` (outside) on each of `days`. A
// period whose `to` is not after its `from` runs past midnight: from `from` to 24:00 on the day
// named and from 00:00 to `to` on the next ("22:00" to "07:00").
struct InconvenientTime {
    BoundedVector<Weekday, 1, 7> days;
    ClockTime from;
    ClockTime to;

    friend bool operator==(const InconvenientTime&, const InconvenientTime&) = default;
};
BOOST_DESCRIBE_STRUCT(InconvenientTime, (), (days, from, to))

// The most periods a customer may designate (customer member `inconvenientTimes`).
inline constexpr std::size_t max_inconvenient_times = 20;
using InconvenientTimes = BoundedVector<InconvenientTime, 0, max_inconvenient_times>;

// The customer's wall clock in one candidate zone at the instant of a decision:
// "2026-01-15T20:30:00" (local, no offset).
struct ZoneLocalTime {
    std::string zone;  // IANA name
    std::string localTime;

    friend bool operator==(const ZoneLocalTime&, const ZoneLocalTime&) = default;
};
BOOST_DESCRIBE_STRUCT(ZoneLocalTime, (), (zone, localTime))

// The counts a decision was made on, each the largest over the candidate zones' calendars.
struct ComplianceCounts {
    unsigned callsToday = 0;                      // calls placed in the local calendar day
    unsigned callsInSevenDays = 0;                // calls in the busiest 7 consecutive local days
    unsigned communicationsInSevenDays = 0;       // calls and text messages, likewise
    std::optional<Timestamp> lastConversationAt;  // the latest telephone conversation, if any

    friend bool operator==(const ComplianceCounts&, const ComplianceCounts&) = default;
};
BOOST_DESCRIBE_STRUCT(ComplianceCounts, (),
                      (callsToday, callsInSevenDays, communicationsInSevenDays, lastConversationAt))

// ---- The customer's standing (API.md section 16) -----------------------------------------------

// On the wire, restricted media are the list of their names in the order of the enum
// (`["call", "email"]`). Read back, each element must be a medium (an enum error at its place)
// and may be given once: a repeated one is a `conflict` at its place, /.../<index>.
inline void collectcall_write(Writer& writer, const RestrictedMedia& value) {
    writer.raw('[');
    bool first = true;
    for (ContactChannel medium : value.media()) {
        if (!first) writer.raw(',');
        first = false;
        writer.string(enum_name(medium));
    }
    writer.raw(']');
}

inline bool collectcall_read(ValueReader& in, RestrictedMedia& out) {
    out = {};
    bool ok = true;
    const bool array = in.array([&](ValueReader& item) {
        ContactChannel medium{};
        if (!item.read(medium)) return;
        if (out.contains(medium)) {
            item.error(codes::conflict, "is listed more than once");
            ok = false;
            return;
        }
        out.add(medium);
    });
    return array && ok;
}

template <class Schema>
void collectcall_schema(schema_tag<RestrictedMedia>, Schema& s) {
    s["type"] = "array";
    s["items"] = s.template schema_of<ContactChannel>();
    s["uniqueItems"] = true;
    s["description"] =
        "Media the customer asked not to be contacted by (12 CFR 1006.14(h)): \"call\", "
        "\"sms\", \"email\", each at most once, in that order.";
}

// What the customer has told the collector, as it decides their contacts: the media they asked
// not to be contacted by, a cease-and-desist (15 U.S.C. 1692c(c)), representation by an attorney
// (15 U.S.C. 1692c(a)(2)), a dispute of the debt.
struct Standing {
    RestrictedMedia restrictedMedia;
    bool ceaseAndDesist = false;
    bool attorneyRepresented = false;
    bool disputed = false;

    friend bool operator==(const Standing&, const Standing&) = default;
};
BOOST_DESCRIBE_STRUCT(Standing, (),
                      (restrictedMedia, ceaseAndDesist, attorneyRepresented, disputed))

// What changed a customer's standing: an inbound SMS that is an opt-out keyword, imported
// (opt-out-keyword); the outcomes of an analysis applied (analysis); POST .../do-not-call;
// PUT .../restricted-media (restricted-media); POST .../cease-and-desist.
enum class StandingCause {
    opt_out_keyword,
    analysis,
    do_not_call,
    restricted_media,
    cease_and_desist
};
BOOST_DESCRIBE_ENUM(StandingCause, opt_out_keyword, analysis, do_not_call, restricted_media,
                    cease_and_desist)

// A change of the customer's standing, recorded in the list of decisions (operation
// `standing`): what it was before and after, what changed it, and the interaction whose words did
// (the imported SMS, the analysed SMS, e-mail or call), when one did.
struct StandingChange {
    StandingCause cause = StandingCause::restricted_media;
    Patch<Uuid> interactionId;
    Standing before;
    Standing after;

    friend bool operator==(const StandingChange&, const StandingChange&) = default;
};
BOOST_DESCRIBE_STRUCT(StandingChange, (), (cause, interactionId, before, after))

// The body of PUT /customers/{id}/restricted-media (extension, API.md section 16): the media the
// customer asked not to be contacted by, replacing those recorded (an operator records a request
// made elsewhere, or clears one made in error). `[]` clears them all.
struct RestrictedMediaUpdate {
    RestrictedMedia media;

    friend bool operator==(const RestrictedMediaUpdate&, const RestrictedMediaUpdate&) = default;
};
BOOST_DESCRIBE_STRUCT(RestrictedMediaUpdate, (), (media))

// The record of one compliance evaluation (API.md section 14): what was asked, when, under
// which policy, where the customer may have been and what their clock said, the counts, every
// check with its reason, the outcome (`compliance.passed`) and the next eligible time (null when
// no time will do, or when the contact was allowed at once it is `at`). Kept 3 years
// (12 CFR 1006.100).
//
// A change of the customer's standing is recorded in the same list (operation `standing`, API.md
// section 16) with `standing` set: it evaluates nothing, so it has no channel, no zones, no local
// times, zero counts, no check (compliance.passed true: it blocked nothing) and no next eligible
// time. An evaluation has no `standing`.
struct ComplianceDecision {
    Timestamp at;
    ComplianceOperation operation = ComplianceOperation::call;
    CompliancePolicy policy = CompliancePolicy::hosted;
    Patch<ContactChannel> channel = ContactChannel::call;  // absent on a standing record
    std::vector<std::string> candidateZones;
    std::vector<ZoneLocalTime> localTimes;
    ComplianceCounts counts;
    ComplianceResult compliance;
    std::optional<Timestamp> nextEligibleAt;
    // The call in progress that blocked the contact (API.md section 16: one call at a time);
    // absent otherwise. `nextEligibleAt` is then null: the contact waits for that call to end.
    Patch<Uuid> blockedByCallId;
    Patch<StandingChange> standing;  // a standing record's change; absent on an evaluation

    friend bool operator==(const ComplianceDecision&, const ComplianceDecision&) = default;
};
BOOST_DESCRIBE_STRUCT(ComplianceDecision, (),
                      (at, operation, policy, channel, candidateZones, localTimes, counts,
                       compliance, nextEligibleAt, blockedByCallId, standing))

inline void collectcall_schema(schema_tag<ComplianceDecision>, SchemaBuilder& s) {
    s["description"] =
        "The record of one compliance evaluation, or (operation `standing`, with `standing` set "
        "and no channel) of a change of the customer's standing. blockedByCallId is present when "
        "a call to the customer in progress blocked the contact (nextEligibleAt is then null: "
        "the contact waits for that call to end).";
}

inline void collectcall_schema(schema_tag<StandingChange>, SchemaBuilder& s) {
    s["description"] =
        "A change of the customer's standing: before and after, its cause, and the interaction "
        "whose words made it (an imported opt-out keyword, an analysed stop request).";
}

// The record of a change of standing from `before` to `after`, made at `at` under `policy`.
[[nodiscard]] inline ComplianceDecision standing_record(Timestamp at, CompliancePolicy policy,
                                                        StandingCause cause, const Standing& before,
                                                        const Standing& after,
                                                        Patch<Uuid> interaction = {}) {
    ComplianceDecision out;
    out.at = at;
    out.operation = ComplianceOperation::standing;
    out.policy = policy;
    out.channel.reset();
    out.compliance.passed = true;
    out.standing = StandingChange{cause, std::move(interaction), before, after};
    return out;
}

// The data of GET /customers/{id}/compliance-decisions: the customer's decisions, newest first.
struct ComplianceDecisionList {
    std::vector<ComplianceDecision> decisions;
    // The cursor of the next page (api/page.hpp); null on the last page.
    std::optional<std::string> nextCursor;

    friend bool operator==(const ComplianceDecisionList&, const ComplianceDecisionList&) = default;
};
BOOST_DESCRIBE_STRUCT(ComplianceDecisionList, (), (decisions, nextCursor))

}  // namespace collectcall
