#include "webhook_outbox.hpp"

#include <collectcall/collectcall.hpp>

#include "columns.hpp"

namespace collectcall::server {

namespace {

using sqlite::Query;

constexpr const char* heads_sql =
    "SELECT o.seq, o.call_id, c.webhook_url, o.next_attempt_ms "
    "FROM webhook_outbox o JOIN calls c ON c.id = o.call_id "
    "WHERE o.state = 'pending' AND o.seq = (SELECT MIN(p.seq) FROM webhook_outbox p "
    "WHERE p.call_id = o.call_id AND p.state = 'pending') "
    "ORDER BY o.next_attempt_ms, o.seq LIMIT ?";

constexpr const char* load_sql =
    "SELECT o.message_id, o.attempts, e.type, e.created_at, c.id, c.customer_id, c.thread_id, "
    "c.status, c.ended_reason, c.duration_ms, c.webhook_url, s.secret "
    "FROM webhook_outbox o "
    "JOIN calls c ON c.id = o.call_id "
    "JOIN call_events e ON e.call_id = o.call_id AND e.seq = o.event_seq "
    "LEFT JOIN webhook_secrets s ON s.id = c.webhook_secret_id AND s.account_id = c.account_id "
    "WHERE o.seq = ? AND o.state = 'pending'";

constexpr const char* delivered_sql =
    "UPDATE webhook_outbox SET state = 'delivered', attempts = attempts + 1, done_ms = ?, "
    "last_error = NULL WHERE seq = ? AND state = 'pending'";

constexpr const char* retry_sql =
    "UPDATE webhook_outbox SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? "
    "WHERE seq = ? AND state = 'pending'";

constexpr const char* give_up_sql =
    "UPDATE webhook_outbox SET state = 'failed', attempts = attempts + 1, done_ms = ?, "
    "last_error = ? WHERE seq = ? AND state = 'pending'";

}  // namespace

SqliteWebhookOutbox::SqliteWebhookOutbox(const SqliteOptions& options)
    : db_(options.path, false, options.busy_timeout_ms) {
    db_.exec("PRAGMA synchronous = FULL");
    db_.exec("PRAGMA foreign_keys = ON");
}

std::vector<OutboxHead> SqliteWebhookOutbox::heads(std::size_t limit) {
    std::lock_guard lock(mutex_);
    std::vector<OutboxHead> heads;
    Query q(db_, heads_sql);
    q.bind(1, static_cast<std::int64_t>(limit));
    while (q.step()) {
        heads.push_back(
            OutboxHead{q.integer(0), std::string(q.text(1)), std::string(q.text(2)), q.integer(3)});
    }
    return heads;
}

std::optional<OutboxMessage> SqliteWebhookOutbox::load(std::int64_t seq) {
    std::lock_guard lock(mutex_);
    Query q(db_, load_sql);
    q.bind(1, seq);
    if (!q.step()) return std::nullopt;

    // The body is built from rows that never change once written, so every attempt sends the
    // same bytes (only the signature timestamps differ).
    CallWebhookEvent event;
    event.type = parse_column<CallEventType>(q.text(2), "event type");
    event.createdAt = parse_column<Timestamp>(q.text(3), "event createdAt");
    event.id = parse_column<Uuid>(q.text(4), "call id");
    event.customerId = parse_column<Uuid>(q.text(5), "customer id");
    event.threadId = parse_column<Uuid>(q.text(6), "thread id");
    if (event.type == CallEventType::call_created) {
        // The status the event reports, not the call's current one.
        event.status = CallStatus::in_progress;
    } else {
        event.status = parse_column<CallStatus>(q.text(7), "call status");
        if (event.type == CallEventType::call_ended && !q.is_null(8)) {
            event.callEnded = CallEnded{parse_column<EndedReason>(q.text(8), "endedReason"),
                                        q.is_null(9) ? std::int64_t{0} : q.integer(9)};
        }
    }

    OutboxMessage message;
    message.seq = seq;
    message.message_id = std::string(q.text(0));
    message.attempts = static_cast<int>(q.integer(1));
    message.url = std::string(q.text(10));
    if (!q.is_null(11)) message.secret = std::string(q.text(11));
    message.body = write(event);
    return message;
}

void SqliteWebhookOutbox::delivered(std::int64_t seq, std::int64_t now_ms) {
    std::lock_guard lock(mutex_);
    Query(db_, delivered_sql).bind(1, now_ms).bind(2, seq).run();
}

void SqliteWebhookOutbox::failed(std::int64_t seq, std::optional<std::int64_t> next_attempt_ms,
                                 std::string_view error, std::int64_t now_ms) {
    std::lock_guard lock(mutex_);
    if (next_attempt_ms) {
        Query(db_, retry_sql).bind(1, *next_attempt_ms).bind(2, error).bind(3, seq).run();
    } else {
        Query(db_, give_up_sql).bind(1, now_ms).bind(2, error).bind(3, seq).run();
    }
}

std::int64_t SqliteWebhookOutbox::pending() {
    std::lock_guard lock(mutex_);
    Query q(db_, "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending'");
    return q.step() ? q.integer(0) : 0;
}

}  // namespace collectcall::server
