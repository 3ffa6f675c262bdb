// Drip campaigns (API.md section 15): a campaign an account's operator defines at `init`
// (`NAME=STEPS`), the enrolment of a customer in it, the request that cancels one, and the bodies
// of the webhooks its steps send, shaped as the hosted service's DripCampaignWebhook
// (drip-campaign.call-created, drip-campaign.call-ended, drip-campaign.sms).
//
// When a step runs is a compliance question (its first compliant instant at or after its due
// time): compliance/drip_schedule.hpp answers it.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/webhook.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

// ---- Definitions (`init --campaign NAME=STEPS`) -----------------------------------------------

// The steps a campaign has when its definition gives none.
inline constexpr std::string_view default_drip_steps = "call@0,sms@2,call@4";
// Bounds of a definition: a name is 1 to 100 printable ASCII characters, a campaign has 1 to 50
// steps, each due 0 to 365 days after enrolment.
inline constexpr std::size_t max_drip_name_length = 100;
inline constexpr std::size_t max_drip_steps = 50;
inline constexpr unsigned max_drip_step_days = 365;

// One step of a campaign: a call or a text message, `days` x 24 hours after the enrolment.
struct DripStepDefinition {
    ContactChannel channel = ContactChannel::call;
    unsigned days = 0;

    friend bool operator==(const DripStepDefinition&, const DripStepDefinition&) = default;
};
BOOST_DESCRIBE_STRUCT(DripStepDefinition, (), (channel, days))

struct DripCampaignDefinition {
    std::string name;
    std::vector<DripStepDefinition> steps;

    friend bool operator==(const DripCampaignDefinition&, const DripCampaignDefinition&) = default;
};
BOOST_DESCRIBE_STRUCT(DripCampaignDefinition, (), (name, steps))

// A definition, or what is wrong with it (one sentence naming the part at fault).
struct DripDefinitionParse {
    std::optional<DripCampaignDefinition> campaign;
    std::string error;
};

namespace detail {

[[nodiscard]] inline std::string quoted(std::string_view text) {
    std::string out = "\"";
    out += text;
    out += '"';
    return out;
}

}  // namespace detail

// "call@0,sms@2,call@4": a comma list of `call@D` or `sms@D`, D a whole number of days (no sign,
// no leading zero), in the order they run (D never decreasing).
[[nodiscard]] inline DripDefinitionParse parse_drip_steps(std::string_view text) {
    DripDefinitionParse out;
    DripCampaignDefinition campaign;
    if (text.empty()) {
        out.error = "the campaign has no steps (expected e.g. call@0,sms@2,call@4)";
        return out;
    }
    std::size_t index = 0;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        ++index;
        const std::string where = "step " + std::to_string(index) + " " + detail::quoted(item);
        if (campaign.steps.size() == max_drip_steps) {
            out.error = "a campaign has at most " + std::to_string(max_drip_steps) + " steps";
            return out;
        }
        const std::size_t at = item.find('@');
        if (at == std::string_view::npos) {
            out.error = where + ": expected call@DAYS or sms@DAYS";
            return out;
        }
        // A campaign calls and texts: an e-mail is no step of one (API.md section 15).
        const auto channel = enum_from_name<ContactChannel>(item.substr(0, at));
        if (!channel || *channel == ContactChannel::email) {
            out.error = where + ": the channel must be call or sms";
            return out;
        }
        const std::string_view digits = item.substr(at + 1);
        unsigned days = 0;
        bool number = !digits.empty() && digits.size() <= 3 && (digits == "0" || digits[0] != '0');
        for (char c : digits) {
            if (c < '0' || c > '9') {
                number = false;
                break;
            }
            days = days * 10 + static_cast<unsigned>(c - '0');
        }
        if (!number || days > max_drip_step_days) {
            out.error = where + ": the days after enrolment must be a whole number from 0 to " +
                        std::to_string(max_drip_step_days);
            return out;
        }
        if (!campaign.steps.empty() && days < campaign.steps.back().days) {
            out.error = where + ": steps are listed in the order they run (day " +
                        std::to_string(days) + " comes before day " +
                        std::to_string(campaign.steps.back().days) + ")";
            return out;
        }
        campaign.steps.push_back({*channel, days});
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    out.campaign = std::move(campaign);
    return out;
}

// `NAME=STEPS` or `NAME` (the default steps), as `init --campaign` takes it.
[[nodiscard]] inline DripDefinitionParse parse_drip_campaign(std::string_view text) {
    const std::size_t equals = text.find('=');
    const std::string_view name = text.substr(0, equals);
    DripDefinitionParse out;
    if (name.empty() || name.size() > max_drip_name_length) {
        out.error = "the campaign name must be 1 to " + std::to_string(max_drip_name_length) +
                    " characters (NAME=STEPS)";
        return out;
    }
    for (char c : name) {
        if (c < ' ' || c > '~') {
            out.error =
                "the campaign name " + detail::quoted(name) + " must be printable ASCII characters";
            return out;
        }
    }
    if (name.front() == ' ' || name.back() == ' ') {
        out.error =
            "the campaign name " + detail::quoted(name) + " must not begin or end with a space";
        return out;
    }
    out = parse_drip_steps(equals == std::string_view::npos ? default_drip_steps
                                                            : text.substr(equals + 1));
    if (out.campaign) {
        out.campaign->name = std::string(name);
    } else {
        out.error = "campaign " + detail::quoted(name) + ": " + out.error;
    }
    return out;
}

// The definition written back as `init --campaign` takes it.
[[nodiscard]] inline std::string to_string(const DripCampaignDefinition& campaign) {
    std::string out = campaign.name;
    out += '=';
    for (std::size_t i = 0; i < campaign.steps.size(); ++i) {
        if (i != 0) out += ',';
        out += enum_name(campaign.steps[i].channel);
        out += '@';
        out += std::to_string(campaign.steps[i].days);
    }
    return out;
}

// ---- Enrolments (POST and DELETE /customers/{id}/drip-campaigns) ------------------------------

// The body of POST /customers/{id}/drip-campaigns, as the hosted
// CustomersDripCampaignsPostRequest.
struct DripEnrolRequest {
    Text campaignName;
    std::optional<Webhook> webhook;

    friend bool operator==(const DripEnrolRequest&, const DripEnrolRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(DripEnrolRequest, (), (campaignName, webhook))

// Why an operator cancels an enrolment (the hosted values).
enum class DripCancelReason { customer_converted, customer_engaged };
BOOST_DESCRIBE_ENUM(DripCancelReason, customer_converted, customer_engaged)

// The body of DELETE /customers/{id}/drip-campaigns/{dripCampaignId}; the hosted document does
// not require the reason.
struct DripCancelRequest {
    std::optional<DripCancelReason> reason;

    friend bool operator==(const DripCancelRequest&, const DripCancelRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(DripCancelRequest, (), (reason))

// The hosted statuses of a drip campaign.
enum class DripCampaignStatus { in_progress, completed, canceled };
BOOST_DESCRIBE_ENUM(DripCampaignStatus, in_progress, completed, canceled)

// Why an enrolment ended before its last step: the operator's reason, or the customer became
// uncontactable (inactive, cease and desist).
enum class DripEndReason { customer_converted, customer_engaged, customer_uncontactable };
BOOST_DESCRIBE_ENUM(DripEndReason, customer_converted, customer_engaged, customer_uncontactable)

// The end of an enrolment an operator's cancellation gives.
[[nodiscard]] constexpr DripEndReason end_reason(DripCancelReason reason) noexcept {
    switch (reason) {
        case DripCancelReason::customer_converted:
            return DripEndReason::customer_converted;
        case DripCancelReason::customer_engaged:
            return DripEndReason::customer_engaged;
    }
    return DripEndReason::customer_converted;
}

// A step waits (`pending`) until it runs (`completed`) or its enrolment is canceled.
enum class DripStepStatus { pending, completed, canceled };
BOOST_DESCRIBE_ENUM(DripStepStatus, pending, completed, canceled)

struct DripStep {
    ContactChannel channel = ContactChannel::call;
    Timestamp dueAt;  // enrolment + days x 24 h
    DripStepStatus status = DripStepStatus::pending;
    // A pending step: the first instant at or after dueAt at which its compliance passes, null
    // when no time will do. Absent once it ran or was canceled.
    Patch<Timestamp> nextEligibleAt;
    Patch<Timestamp> ranAt;     // once completed
    Patch<Uuid> interactionId;  // the call or SMS it made

    friend bool operator==(const DripStep&, const DripStep&) = default;
};
BOOST_DESCRIBE_STRUCT(DripStep, (), (channel, dueAt, status, nextEligibleAt, ranAt, interactionId))

// A customer's enrolment in a campaign (the data of both operations; the hosted document shows
// none). nextStepAt is when the next pending step runs: null when none is pending, or when no
// time will do.
struct DripEnrolment {
    Uuid id;
    std::string name;
    Uuid customerId;
    DripCampaignStatus status = DripCampaignStatus::in_progress;
    Timestamp createdAt;
    std::vector<DripStep> steps;
    std::optional<Timestamp> nextStepAt;
    Patch<DripEndReason> canceledReason;  // once canceled

    friend bool operator==(const DripEnrolment&, const DripEnrolment&) = default;
};
BOOST_DESCRIBE_STRUCT(DripEnrolment, (),
                      (id, name, customerId, status, createdAt, steps, nextStepAt, canceledReason))

// The data of a refused enrolment (422 compliance_failed): the compliance of its first step as
// evaluated at the enrolment (the members of a ComplianceResult), and its next eligible time,
// null: no time will do, which is why it is refused (API.md section 16).
struct DripEnrolRefused {
    bool passed = false;
    std::vector<Check> checksPassed;
    std::vector<Check> checksFailed;
    std::optional<Timestamp> nextEligibleAt;

    friend bool operator==(const DripEnrolRefused&, const DripEnrolRefused&) = default;
};
BOOST_DESCRIBE_STRUCT(DripEnrolRefused, (), (passed, checksPassed, checksFailed, nextEligibleAt))

[[nodiscard]] inline DripEnrolRefused enrol_refused(ComplianceResult compliance,
                                                    std::optional<Timestamp> next_eligible_at) {
    return DripEnrolRefused{compliance.passed, std::move(compliance.checksPassed),
                            std::move(compliance.checksFailed), std::move(next_eligible_at)};
}

// The data of GET /customers/{id}/drip-campaigns: the customer's enrolments, newest first.
struct DripEnrolmentList {
    std::vector<DripEnrolment> dripCampaigns;
    // The cursor of the next page (api/page.hpp); null on the last page.
    std::optional<std::string> nextCursor;

    friend bool operator==(const DripEnrolmentList&, const DripEnrolmentList&) = default;
};
BOOST_DESCRIBE_STRUCT(DripEnrolmentList, (), (dripCampaigns, nextCursor))

// A new enrolment of `customer` in `campaign` at `at`: every step pending, due its days x 24
// hours after `at` (API.md section 15); nextStepAt the first step's due time until the caller
// sets when it runs.
[[nodiscard]] inline DripEnrolment enrol(const DripCampaignDefinition& campaign, const Uuid& id,
                                         const Uuid& customer, Timestamp at) {
    DripEnrolment out;
    out.id = id;
    out.name = campaign.name;
    out.customerId = customer;
    out.createdAt = at;
    for (const DripStepDefinition& step : campaign.steps) {
        DripStep& s = out.steps.emplace_back();
        s.channel = step.channel;
        s.dueAt = Timestamp::from_time(at.time() + std::chrono::days{static_cast<int>(step.days)});
    }
    if (!out.steps.empty()) out.nextStepAt = out.steps.front().dueAt;
    return out;
}

// The first pending step (the next to run), or nullptr when none is pending.
[[nodiscard]] inline DripStep* next_pending_step(DripEnrolment& enrolment) noexcept {
    for (DripStep& step : enrolment.steps) {
        if (step.status == DripStepStatus::pending) return &step;
    }
    return nullptr;
}

// Ends an enrolment before its last step: it and every pending step canceled.
inline void cancel(DripEnrolment& enrolment, DripEndReason reason) {
    enrolment.status = DripCampaignStatus::canceled;
    enrolment.canceledReason = reason;
    enrolment.nextStepAt.reset();
    for (DripStep& step : enrolment.steps) {
        if (step.status != DripStepStatus::pending) continue;
        step.status = DripStepStatus::canceled;
        step.nextEligibleAt.reset();
    }
}

// ---- Webhook bodies (the hosted DripCampaignWebhook) -------------------------------------------

enum class DripEvent { call_created, call_ended, sms };
BOOST_DESCRIBE_ENUM(DripEvent, call_created, call_ended, sms)

// The `type` of a drip webhook: "drip-campaign." and the event in kebab case.
class DripEventType {
  public:
    static constexpr std::string_view prefix = "drip-campaign.";

    DripEventType() = default;
    explicit DripEventType(DripEvent event) : event_(event) {
        text_ = std::string(prefix) + std::string(enum_name(event));
    }

    static Parsed<DripEventType> parse(std::string_view text) {
        if (text.substr(0, prefix.size()) == prefix) {
            if (auto event = enum_from_name<DripEvent>(text.substr(prefix.size())))
                return DripEventType(*event);
        }
        return Problem{codes::format,
                       "must be one of drip-campaign.call-created, drip-campaign.call-ended, "
                       "drip-campaign.sms"};
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_; }
    [[nodiscard]] DripEvent event() const noexcept { return event_; }

    friend bool operator==(const DripEventType&, const DripEventType&) = default;

  private:
    DripEvent event_ = DripEvent::call_created;
    std::string text_ = "drip-campaign.call-created";
};

inline void collectcall_schema(schema_tag<DripEventType>, SchemaBuilder& s) {
    s["type"] = "string";
    Json values = Json::array();
    for (DripEvent event : enum_values<DripEvent>)
        values.push_back(std::string(DripEventType(event).view()));
    s["enum"] = std::move(values);
}

// The text message an SMS step sent, as the hosted Sms.
struct DripSmsDetails {
    Uuid id;
    E164 toPhoneNumber;
    E164 fromPhoneNumber;
    std::string message;
    Timestamp createdAt;

    friend bool operator==(const DripSmsDetails&, const DripSmsDetails&) = default;
};
BOOST_DESCRIBE_STRUCT(DripSmsDetails, (), (id, toPhoneNumber, fromPhoneNumber, message, createdAt))

// The body of a drip webhook. `id`, `name`, `status` and `createdAt` are the enrolment's (the
// hosted descriptions: the drip campaign's id, name, status and creation time), `status` as it
// is once the step has run. call-created carries callCreated, call-ended callEnded, sms the
// message with its direction (outbound).
struct DripWebhookEvent {
    DripEventType type;
    Uuid id;
    std::string name;
    Uuid customerId;
    Uuid threadId;
    DripCampaignStatus status = DripCampaignStatus::in_progress;
    Timestamp createdAt;
    Patch<CallDirection> direction;
    Patch<CallCreatedDetails> callCreated;
    Patch<CallEndedDetails> callEnded;
    Patch<DripSmsDetails> sms;

    friend bool operator==(const DripWebhookEvent&, const DripWebhookEvent&) = default;
};
BOOST_DESCRIBE_STRUCT(DripWebhookEvent, (),
                      (type, id, name, customerId, threadId, status, createdAt, direction,
                       callCreated, callEnded, sms))

inline void collectcall_schema(schema_tag<DripWebhookEvent>, SchemaBuilder& s) {
    s["description"] =
        "A drip campaign's event as the hosted DripCampaignWebhook: callCreated is present on "
        "drip-campaign.call-created only, callEnded on drip-campaign.call-ended only, sms and "
        "direction on drip-campaign.sms only.";
}

inline void collectcall_schema(schema_tag<DripStep>, SchemaBuilder& s) {
    s["description"] =
        "nextEligibleAt is present while the step is pending (null when no time will do); ranAt "
        "and interactionId once it has run.";
}

inline void collectcall_schema(schema_tag<DripEnrolment>, SchemaBuilder& s) {
    s["description"] = "canceledReason is present once the enrolment is canceled.";
}

namespace detail {

[[nodiscard]] inline DripWebhookEvent drip_event(const DripEnrolment& enrolment, DripEvent event,
                                                 const Uuid& thread) {
    DripWebhookEvent out;
    out.type = DripEventType(event);
    out.id = enrolment.id;
    out.name = enrolment.name;
    out.customerId = enrolment.customerId;
    out.threadId = thread;
    out.status = enrolment.status;
    out.createdAt = enrolment.createdAt;
    return out;
}

}  // namespace detail

// drip-campaign.call-created: the call a step placed.
[[nodiscard]] inline DripWebhookEvent drip_call_created_event(const DripEnrolment& enrolment,
                                                              const CallFacts& call) {
    DripWebhookEvent out = detail::drip_event(enrolment, DripEvent::call_created, call.threadId);
    out.callCreated = CallCreatedDetails{call.id, call.threadId, call.toPhoneNumber,
                                         call.fromPhoneNumber, call.createdAt};
    return out;
}

// drip-campaign.call-ended: the same call once ended, as a call's own call-ended tells it.
[[nodiscard]] inline DripWebhookEvent drip_call_ended_event(const DripEnrolment& enrolment,
                                                            const CallFacts& call,
                                                            CallEnding ending,
                                                            std::string recording_url) {
    DripWebhookEvent out = detail::drip_event(enrolment, DripEvent::call_ended, call.threadId);
    CallWebhookEvent ended = call_ended_event(call, std::move(ending), std::move(recording_url));
    out.callEnded = std::move(ended.callEnded);
    return out;
}

// drip-campaign.sms: the text message a step sent.
[[nodiscard]] inline DripWebhookEvent drip_sms_event(const DripEnrolment& enrolment,
                                                     const Uuid& thread, DripSmsDetails sms) {
    DripWebhookEvent out = detail::drip_event(enrolment, DripEvent::sms, thread);
    out.direction = CallDirection::outbound;
    out.sms = std::move(sms);
    return out;
}

}  // namespace collectcall
