// Webhook secrets and the bodies of the call events sent to a webhook (API.md sections 5 and 9),
// shaped as the hosted service's CallCreatedWebhook and CallEndedWebhook.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/uuid.hpp"
#include "collectcall/types/webhook_secret.hpp"

namespace collectcall {

// ---- Webhook secrets ----------------------------------------------------------------------------

// The text of a webhook secret brought from elsewhere (the hosted service): 16 to 256 printable
// ASCII characters; a `whsec_` one must be the base64 of 24 to 64 bytes after the prefix.
class WebhookSecretText {
  public:
    WebhookSecretText() = default;

    static Parsed<WebhookSecretText> parse(std::string_view text) {
        const std::string_view problem = webhook::secret_problem(text);
        if (!problem.empty()) {
            const bool length = text.size() < webhook::secret_min_length ||
                                text.size() > webhook::secret_max_length;
            return Problem{length ? codes::length : codes::format, problem};
        }
        WebhookSecretText out;
        out.text_ = std::string(text);
        return out;
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_; }

    friend bool operator==(const WebhookSecretText&, const WebhookSecretText&) = default;

  private:
    std::string text_;
};

inline void collectcall_schema(schema_tag<WebhookSecretText>, SchemaBuilder& s) {
    s["type"] = "string";
    s["description"] =
        "16 to 256 printable ASCII characters; a whsec_ secret is whsec_ and the base64 of 24 to "
        "64 bytes";
    s["minLength"] = static_cast<std::int64_t>(webhook::secret_min_length);
    s["maxLength"] = static_cast<std::int64_t>(webhook::secret_max_length);
    s["pattern"] = "^[ -~]+$";
}

// The body of POST /webhook-secrets that imports a secret: the id and text a client got from
// the hosted service, so that both work unchanged here. (An empty body, or `{}`, makes one.)
struct WebhookSecretImport {
    Uuid id;
    WebhookSecretText secret;

    friend bool operator==(const WebhookSecretImport&, const WebhookSecretImport&) = default;
};
BOOST_DESCRIBE_STRUCT(WebhookSecretImport, (), (id, secret))

// The answer of POST /webhook-secrets: the secret is shown only in this response.
struct WebhookSecret {
    Uuid id;
    std::string secret;

    friend bool operator==(const WebhookSecret&, const WebhookSecret&) = default;
};
BOOST_DESCRIBE_STRUCT(WebhookSecret, (), (id, secret))

// ---- Call events -------------------------------------------------------------------------------

// A duration in seconds with millisecond precision, written as an exact decimal (12.5, never
// 12.500000001): a transcript turn's offset from the start of the call.
class Seconds {
  public:
    Seconds() = default;
    static Seconds from_ms(std::int64_t ms) noexcept {
        Seconds out;
        out.ms_ = ms < 0 ? 0 : ms;
        return out;
    }

    // Digits, optionally a point and 1 to 3 decimals: what append_json writes.
    static Parsed<Seconds> from_json_number(std::string_view token) noexcept {
        constexpr Problem bad{codes::format, "must be seconds >= 0 with at most 3 decimals"};
        std::int64_t whole = 0;
        std::size_t i = 0;
        for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i) {
            if (i >= 12) return bad;
            whole = whole * 10 + (token[i] - '0');
        }
        if (i == 0) return bad;
        std::int64_t fraction = 0;
        std::size_t decimals = 0;
        if (i < token.size() && token[i] == '.') {
            for (++i; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i) {
                if (++decimals > 3) return bad;
                fraction = fraction * 10 + (token[i] - '0');
            }
            if (decimals == 0) return bad;
        }
        if (i != token.size()) return bad;
        for (; decimals < 3; ++decimals)
            fraction *= 10;
        return from_ms(whole * 1000 + fraction);
    }

    void append_json(std::string& out) const {
        out += std::to_string(ms_ / 1000);
        std::int64_t fraction = ms_ % 1000;
        if (fraction == 0) return;
        std::string digits = std::to_string(1000 + fraction).substr(1);
        while (digits.back() == '0')
            digits.pop_back();
        out += '.';
        out += digits;
    }

    [[nodiscard]] std::int64_t ms() const noexcept { return ms_; }
    friend bool operator==(const Seconds&, const Seconds&) = default;

  private:
    std::int64_t ms_ = 0;
};

inline void collectcall_schema(schema_tag<Seconds>, SchemaBuilder& s) {
    s["type"] = "number";
    s["minimum"] = 0;
    s["description"] = "Seconds, with at most 3 decimals";
}

// One turn of a call's transcript, as the hosted service's Message. `endTime` repeats `endedAt`:
// that document lists endedAt among the members but requires endTime, and a client may read
// either.
// Who speaks a transcript turn.
enum class MessageRole { agent, user };
BOOST_DESCRIBE_ENUM(MessageRole, agent, user)

// Which way a call went: this API places outbound calls only.
enum class CallDirection { inbound, outbound };
BOOST_DESCRIBE_ENUM(CallDirection, inbound, outbound)

struct TranscriptMessage {
    MessageRole role = MessageRole::agent;
    std::string message;
    Timestamp startedAt;
    Timestamp endedAt;
    Timestamp endTime;
    Seconds secondsFromStart;
    std::int64_t duration = 0;  // milliseconds

    friend bool operator==(const TranscriptMessage&, const TranscriptMessage&) = default;
};
BOOST_DESCRIBE_STRUCT(TranscriptMessage, (),
                      (role, message, startedAt, endedAt, endTime, secondsFromStart, duration))

// Whether a call was a telephone conversation with the customer (12 CFR 1006.14(b)(2)(i)(B);
// API.md section 14): its transcript has a turn of the customer's.
[[nodiscard]] inline bool is_conversation(std::span<const TranscriptMessage> transcript) noexcept {
    for (const TranscriptMessage& turn : transcript) {
        if (turn.role == MessageRole::user) return true;
    }
    return false;
}

// An object without members (`{}`): the variables given to the simulated agent, and the body of
// the POSTs that take none. A member is `unknown_field`, as anywhere else.
struct EmptyObject {
    friend bool operator==(const EmptyObject&, const EmptyObject&) = default;
};
BOOST_DESCRIBE_STRUCT(EmptyObject, (), ())

inline bool collectcall_read(ValueReader& in, EmptyObject&) {
    return in.object([](std::string_view, ValueReader& member) {
        member.error(codes::unknown_field, "is not a known member");
    });
}

// What every event of a call tells about it.
struct CallCreatedDetails {
    Uuid id;
    Uuid threadId;
    E164 toPhoneNumber;
    E164 fromPhoneNumber;
    Timestamp createdAt;  // of the call

    friend bool operator==(const CallCreatedDetails&, const CallCreatedDetails&) = default;
};
BOOST_DESCRIBE_STRUCT(CallCreatedDetails, (),
                      (id, threadId, toPhoneNumber, fromPhoneNumber, createdAt))

struct CallEndedDetails {
    Uuid id;
    Uuid customerId;
    Uuid threadId;
    E164 toPhoneNumber;
    E164 fromPhoneNumber;
    CallDirection direction = CallDirection::outbound;
    EndedReason endedReason = EndedReason::unknown;
    std::int64_t durationMs = 0;
    Timestamp endedAt;
    Timestamp createdAt;  // of the call
    std::vector<TranscriptMessage> messages;
    std::string recordingUrl;
    EmptyObject inputVariables;
    null_t outputVariables;  // no analysis of the call: null, as the hosted service says

    friend bool operator==(const CallEndedDetails&, const CallEndedDetails&) = default;
};
BOOST_DESCRIBE_STRUCT(CallEndedDetails, (),
                      (id, customerId, threadId, toPhoneNumber, fromPhoneNumber, direction,
                       endedReason, durationMs, endedAt, createdAt, messages, recordingUrl,
                       inputVariables, outputVariables))

// The body of a delivery: call-created carries callCreated, call-ended carries callEnded.
struct CallWebhookEvent {
    CallEventType type = CallEventType::call_created;
    Uuid id;  // the call
    // The hosted schema requires a name (a drip campaign's there); a call of this API belongs to
    // none, and says what it is.
    std::string name;
    Uuid customerId;
    Uuid threadId;
    CallStatus status = CallStatus::in_progress;
    Timestamp createdAt;  // of the event
    Patch<CallCreatedDetails> callCreated;
    Patch<CallEndedDetails> callEnded;

    friend bool operator==(const CallWebhookEvent&, const CallWebhookEvent&) = default;
};
BOOST_DESCRIBE_STRUCT(CallWebhookEvent, (),
                      (type, id, name, customerId, threadId, status, createdAt, callCreated,
                       callEnded))

inline void collectcall_schema(schema_tag<CallWebhookEvent>, SchemaBuilder& s) {
    s["description"] =
        "A call event as the hosted service's CallCreatedWebhook / CallEndedWebhook: "
        "callCreated is present on call-created events only, callEnded on call-ended events "
        "only.";
}

inline constexpr std::string_view call_event_name = "Outbound call";

// The call as its events describe it.
struct CallFacts {
    Uuid id;
    Uuid customerId;
    Uuid threadId;
    E164 toPhoneNumber;
    E164 fromPhoneNumber;
    Timestamp createdAt;
};

// How a call ended, as the dialer reported it.
struct CallEnding {
    CallStatus status = CallStatus::completed;
    EndedReason endedReason = EndedReason::unknown;
    std::int64_t durationMs = 0;
    Timestamp endedAt;
    std::vector<TranscriptMessage> messages;
};

// call-created: the status the event reports is in-progress, whatever the call's is now.
inline CallWebhookEvent call_created_event(const CallFacts& call, Timestamp at) {
    CallWebhookEvent event;
    event.type = CallEventType::call_created;
    event.id = call.id;
    event.name = std::string(call_event_name);
    event.customerId = call.customerId;
    event.threadId = call.threadId;
    event.status = CallStatus::in_progress;
    event.createdAt = at;
    event.callCreated = CallCreatedDetails{call.id, call.threadId, call.toPhoneNumber,
                                           call.fromPhoneNumber, call.createdAt};
    return event;
}

// call-ended, created when the call ended; `recording_url` is where its recording is served.
inline CallWebhookEvent call_ended_event(const CallFacts& call, CallEnding ending,
                                         std::string recording_url) {
    CallWebhookEvent event;
    event.type = CallEventType::call_ended;
    event.id = call.id;
    event.name = std::string(call_event_name);
    event.customerId = call.customerId;
    event.threadId = call.threadId;
    event.status = ending.status;
    event.createdAt = ending.endedAt;
    CallEndedDetails details;
    details.id = call.id;
    details.customerId = call.customerId;
    details.threadId = call.threadId;
    details.toPhoneNumber = call.toPhoneNumber;
    details.fromPhoneNumber = call.fromPhoneNumber;
    details.endedReason = ending.endedReason;
    details.durationMs = ending.durationMs;
    details.endedAt = ending.endedAt;
    details.createdAt = call.createdAt;
    details.messages = std::move(ending.messages);
    details.recordingUrl = std::move(recording_url);
    event.callEnded = std::move(details);
    return event;
}

}  // namespace collectcall
