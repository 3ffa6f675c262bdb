// What a webhook delivery says: the body of an outbox message, built from the stored event and
// call by the library's call_created_event / call_ended_event (API.md section 9), and the
// signed links to call recordings that call-ended bodies carry.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <collectcall/webhook/recording.hpp>

namespace collectcall::server {

// The server's key for recording links and its public origin. The key comes from the store
// (Store::server_key), so that every process of a shared database makes and accepts the same
// links; the origin is known once the server listens (`serve --public-url`, else
// http://<listen address>).
class RecordingLinks {
  public:
    explicit RecordingLinks(std::string key) : key_(std::move(key)) {}

    void set_base_url(std::string url);
    [[nodiscard]] std::string base_url() const;

    // A link valid for webhook::recording_link_lifetime from now (the real clock, as receivers
    // and signature timestamps use).
    [[nodiscard]] std::string url(std::string_view call_id, std::int64_t duration_ms) const;
    [[nodiscard]] webhook::RecordingLink check(std::string_view call_id, std::string_view expires,
                                               std::string_view duration,
                                               std::string_view signature,
                                               std::int64_t& duration_ms) const;

  private:
    mutable std::mutex mutex_;
    std::string base_url_;
    std::string key_;
};

// The columns of an event that an outbox selects, in this order, with its message.
inline constexpr const char* event_columns =
    "e.type, e.created_at, c.id, c.customer_id, c.thread_id, c.to_number, c.from_number, "
    "c.created_at, c.status, c.ended_reason, c.duration_ms, c.transcript";
inline constexpr int event_column_count = 12;

struct StoredEvent {
    std::string type;
    std::string created_at;
    std::string call_id;
    std::string customer_id;
    std::string thread_id;
    std::string to_number;
    std::string from_number;
    std::string call_created_at;
    std::string status;
    std::optional<std::string> ended_reason;
    std::int64_t duration_ms = 0;
    std::optional<std::string> transcript;
};

// Reads event_columns from a row: `text(i)` is column `offset + i`, nullopt for NULL.
template <class Text>
StoredEvent stored_event(Text&& text) {
    const auto str = [&](int i) { return std::string(text(i).value_or(std::string_view{})); };
    StoredEvent e;
    e.type = str(0);
    e.created_at = str(1);
    e.call_id = str(2);
    e.customer_id = str(3);
    e.thread_id = str(4);
    e.to_number = str(5);
    e.from_number = str(6);
    e.call_created_at = str(7);
    e.status = str(8);
    if (auto v = text(9)) e.ended_reason = std::string(*v);
    if (auto v = text(10)) e.duration_ms = std::stoll(std::string(*v));
    if (auto v = text(11)) e.transcript = std::string(*v);
    return e;
}

// The body of the message of a call event: the call's own event, or a drip campaign's when the
// call was placed by a step of the enrolment whose document is `drip` (API.md section 15).
// Throws StoreError when a stored value does not read back.
std::string webhook_body(const StoredEvent& event, std::optional<std::string_view> drip,
                         const RecordingLinks& links);

// The body of an outbox message: `stored` when it was stored with the message (a drip
// campaign's SMS), else built from its call event, whose event_columns `event_column(i)` reads.
template <class Text>
std::string outbox_body(std::optional<std::string_view> stored,
                        std::optional<std::string_view> drip, Text&& event_column,
                        const RecordingLinks& links) {
    if (stored) return std::string(*stored);
    return webhook_body(stored_event(event_column), drip, links);
}

}  // namespace collectcall::server
