#include "sqlite_outbox.hpp"

#include <chrono>

#include <collectcall/collectcall.hpp>
#include <collectcall/webhook/fairness.hpp>

#include "columns.hpp"
#include "webhook_event.hpp"

namespace collectcall::server {

namespace {

using sqlite::Query;

// The due heads, a bounded page for a fair pick (WebhookOutbox::due). ?1 now, ?2 per receiver,
// ?3 per account.
constexpr const char* due_sql =
    "WITH heads AS (SELECT o.seq, COALESCE(o.call_id, o.drip_id) AS stream, "
    "COALESCE(c.webhook_url, d.webhook_url) AS url, o.next_attempt_ms, "
    "COALESCE(c.account_id, d.account_id) AS account_id, o.unfinished FROM webhook_outbox o "
    "LEFT JOIN calls c ON c.id = o.call_id LEFT JOIN drip_enrolments d ON d.id = o.drip_id "
    "WHERE o.state = 'pending' AND o.next_attempt_ms <= ?1 AND o.seq = (SELECT MIN(p.seq) "
    "FROM webhook_outbox p WHERE p.call_id IS o.call_id AND p.drip_id IS o.drip_id AND "
    "p.state = 'pending')), "
    "by_receiver AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY account_id, url "
    "ORDER BY next_attempt_ms, seq) AS r FROM heads), "
    "by_account AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY account_id "
    "ORDER BY r, next_attempt_ms, seq) AS a FROM by_receiver WHERE r <= ?2) "
    "SELECT seq, stream, url, next_attempt_ms, account_id, unfinished FROM by_account "
    "WHERE a <= ?3 ORDER BY account_id, a";

constexpr const char* next_due_sql =
    "SELECT MIN(next_attempt_ms) FROM webhook_outbox WHERE state = 'pending' AND "
    "next_attempt_ms > ?";

const std::string load_sql =
    std::string(
        "SELECT o.message_id, o.attempts, COALESCE(c.webhook_url, d.webhook_url), "
        "COALESCE(c.webhook_secret_id, d.webhook_secret_id), s.secret, o.body, d.body, ") +
    event_columns() +
    " FROM webhook_outbox o "
    "LEFT JOIN calls c ON c.id = o.call_id "
    "LEFT JOIN call_events e ON e.call_id = o.call_id AND e.seq = o.event_seq "
    "LEFT JOIN drip_enrolments d ON d.id = COALESCE(o.drip_id, c.drip_id) "
    "LEFT JOIN webhook_secrets s ON s.id = COALESCE(c.webhook_secret_id, d.webhook_secret_id) "
    "AND s.account_id = COALESCE(c.account_id, d.account_id) "
    "WHERE o.seq = ? AND o.state = 'pending'";

constexpr const char* begin_sql =
    "UPDATE webhook_outbox SET attempts = attempts + 1, unfinished = unfinished + 1 "
    "WHERE seq = ? AND state = 'pending'";

constexpr const char* delivered_sql =
    "UPDATE webhook_outbox SET state = 'delivered', unfinished = 0, done_ms = ?, "
    "last_error = NULL WHERE seq = ? AND state = 'pending'";

constexpr const char* retry_sql =
    "UPDATE webhook_outbox SET unfinished = 0, next_attempt_ms = ?, last_error = ? "
    "WHERE seq = ? AND state = 'pending'";

constexpr const char* give_up_sql =
    "UPDATE webhook_outbox SET state = 'failed', unfinished = 0, done_ms = ?, "
    "last_error = ? WHERE seq = ? AND state = 'pending'";

constexpr const char* interrupted_sql =
    "UPDATE webhook_outbox SET attempts = MAX(attempts - 1, 0), unfinished = 0 "
    "WHERE seq = ? AND state = 'pending' AND unfinished > 0";

// A batch of the finished messages past the retention (retention_batch_rows, ?2).
constexpr const char* sweep_sql =
    "DELETE FROM webhook_outbox WHERE seq IN (SELECT seq FROM webhook_outbox WHERE "
    "state <> 'pending' AND done_ms < ?1 LIMIT ?2)";

}  // namespace

SqliteWebhookOutbox::SqliteWebhookOutbox(const SqliteOptions& options,
                                         std::shared_ptr<const RecordingLinks> links)
    : links_(std::move(links)), db_(options.path, false, options.busy_timeout_ms) {
    db_.exec("PRAGMA synchronous = FULL");
    db_.exec("PRAGMA foreign_keys = ON");
}

std::vector<OutboxHead> SqliteWebhookOutbox::due(std::int64_t now_ms, std::size_t per_receiver,
                                                 std::size_t per_account) {
    std::lock_guard lock(mutex_);
    std::vector<OutboxHead> heads;
    Query q(db_, due_sql);
    q.bind(1, now_ms)
        .bind(2, static_cast<std::int64_t>(per_receiver))
        .bind(3, static_cast<std::int64_t>(per_account));
    while (q.step()) {
        heads.push_back(OutboxHead{q.integer(0), std::string(q.text(1)), std::string(q.text(2)),
                                   q.integer(3), std::string(q.text(4)),
                                   static_cast<int>(q.integer(5))});
    }
    return heads;
}

std::optional<std::int64_t> SqliteWebhookOutbox::next_due(std::int64_t now_ms) {
    std::lock_guard lock(mutex_);
    Query q(db_, next_due_sql);
    q.bind(1, now_ms);
    if (!q.step() || q.is_null(0)) return std::nullopt;
    return q.integer(0);
}

bool SqliteWebhookOutbox::begin_attempt(std::int64_t seq) {
    std::lock_guard lock(mutex_);
    Query(db_, begin_sql).bind(1, seq).run();
    return db_.changes() > 0;
}

void SqliteWebhookOutbox::interrupted(std::int64_t seq) {
    std::lock_guard lock(mutex_);
    Query(db_, interrupted_sql).bind(1, seq).run();
}

std::int64_t SqliteWebhookOutbox::sweep(std::int64_t now_ms) {
    // A batch per statement (each its own transaction), the lock let go between them.
    std::int64_t swept = 0;
    for (;;) {
        std::lock_guard lock(mutex_);
        Query(db_, sweep_sql)
            .bind(1, now_ms - std::chrono::milliseconds(webhook::outbox_retention).count())
            .bind(2, retention_batch_rows)
            .run();
        const std::int64_t deleted = db_.changes();
        swept += deleted;
        if (deleted < retention_batch_rows) return swept;
    }
}

std::optional<OutboxMessage> SqliteWebhookOutbox::load(std::int64_t seq) {
    std::lock_guard lock(mutex_);
    Query q(db_, load_sql.c_str());
    q.bind(1, seq);
    if (!q.step()) return std::nullopt;

    const auto column = [&](int i) -> std::optional<std::string_view> {
        if (q.is_null(i)) return std::nullopt;
        return q.text(i);
    };

    OutboxMessage message;
    message.seq = seq;
    message.message_id = std::string(q.text(0));
    message.attempts = static_cast<int>(q.integer(1));
    message.url = std::string(q.text(2));
    if (!q.is_null(4)) message.secret = std::string(q.text(4));
    message.secret_lost = !q.is_null(3) && q.is_null(4);
    message.body = outbox_body(
        column(5), column(6), [&](int i) { return column(7 + i); }, *links_);
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
