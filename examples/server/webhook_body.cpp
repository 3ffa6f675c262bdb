#include "webhook_body.hpp"
#include "webhook_event.hpp"

#include <chrono>

#include <collectcall/collectcall.hpp>

#include "columns.hpp"
#include "rows.hpp"

namespace collectcall::server {

void RecordingLinks::set_base_url(std::string url) {
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    std::lock_guard lock(mutex_);
    base_url_ = std::move(url);
}

std::string RecordingLinks::base_url() const {
    std::lock_guard lock(mutex_);
    return base_url_;
}

namespace {

std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::span<const unsigned char> bytes(const std::string& key) {
    return {reinterpret_cast<const unsigned char*>(key.data()), key.size()};
}

}  // namespace

std::string RecordingLinks::url(std::string_view call_id, std::int64_t duration_ms) const {
    const std::int64_t expires = unix_now() + webhook::recording_link_lifetime.count();
    return webhook::recording_url(bytes(key_), base_url(), call_id, duration_ms, expires);
}

webhook::RecordingLink RecordingLinks::check(std::string_view call_id, std::string_view expires,
                                             std::string_view duration, std::string_view signature,
                                             std::int64_t& duration_ms) const {
    return webhook::check_recording_link(bytes(key_), call_id, expires, duration, signature,
                                         unix_now(), duration_ms);
}

std::string webhook_body(const StoredEvent& event, std::optional<std::string_view> drip,
                         const RecordingLinks& links) {
    const CallRow& row = event.call;
    CallFacts call;
    call.id = row.id;
    call.customerId = row.customer_id;
    call.threadId = row.thread_id;
    call.toPhoneNumber = row.to_number;
    call.fromPhoneNumber = row.from_number;
    call.createdAt = row.created_at;
    const Timestamp& at = event.event.created_at;
    const std::optional<DripEnrolment> enrolment =
        drip ? std::optional(enrolment_from_column(*drip)) : std::nullopt;
    if (event.event.type != CallEventType::call_ended) {
        if (enrolment) return write(drip_call_created_event(*enrolment, call));
        return write(call_created_event(call, at));
    }

    CallEnding ending;
    ending.status = row.status;
    if (row.endedReason) ending.endedReason = *row.endedReason;
    ending.durationMs = row.durationMs.value_or(0);
    ending.endedAt = at;
    if (event.transcript) {
        auto messages = read<std::vector<TranscriptMessage>>(*event.transcript);
        if (!messages) corrupt("transcript");
        ending.messages = std::move(messages).value();
    }
    // Signed when the message is built for an attempt, so that a retry hours later still
    // carries a link that works for 30 minutes.
    std::string recording = links.url(row.id.view(), ending.durationMs);
    if (enrolment) {
        return write(
            drip_call_ended_event(*enrolment, call, std::move(ending), std::move(recording)));
    }
    return write(call_ended_event(call, std::move(ending), std::move(recording)));
}

}  // namespace collectcall::server
