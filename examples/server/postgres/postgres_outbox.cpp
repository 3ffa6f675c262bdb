// The webhook outbox (webhook_outbox.hpp) on a PostgreSQL database a PostgresStore has migrated:
// each message is claimed by one process at a time, under a lease that another process takes
// over when it runs out (API.md section 12).
#include "postgres_outbox.hpp"

#include <chrono>
#include <string>
#include <utility>

#include <collectcall/webhook/fairness.hpp>

#include "columns.hpp"
#include "rows.hpp"
#include "webhook_event.hpp"

namespace collectcall::server {

using pg::Connection;
using pg::Result;

namespace {

// The condition under which this process may take outbox row `alias`: nobody holds its lease,
// this process does (parameter `$owner`), or the holder's lease has run out.
std::string takeable(std::string_view alias, std::string_view owner) {
    const std::string a(alias);
    return "(" + a + ".lease_owner IS NULL OR " + a + ".lease_owner = " + std::string(owner) +
           " OR " + a + ".lease_until < now())";
}

class PostgresOutbox final : public WebhookOutbox {
  public:
    PostgresOutbox(const PostgresOptions& options, std::shared_ptr<const RecordingLinks> links)
        : links_(std::move(links)),
          pool_(options.uri, std::max<std::size_t>(2, options.pool_size)),
          process_id_(std::string(new_uuid().view())),
          lease_(pg::lease_interval(options.lease)) {}

    ~PostgresOutbox() override {
        // Stopping cleanly: the messages this process claimed go to the others at once.
        try {
            auto db = pool_.lease();
            db->params().add(process_id_);
            db->query(
                "UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL "
                "WHERE lease_owner = $1 AND state = 'pending'");
        } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): leases run out
        }
    }
    PostgresOutbox(const PostgresOutbox&) = delete;
    PostgresOutbox& operator=(const PostgresOutbox&) = delete;

    std::vector<OutboxHead> due(std::int64_t now_ms, std::size_t per_receiver,
                                std::size_t per_account) override {
        auto db = pool_.lease();
        // The due heads no live lease of another process holds, a bounded page for a fair pick
        // (WebhookOutbox::due); nothing is claimed yet.
        db->params()
            .add(now_ms)
            .add(static_cast<std::int64_t>(per_receiver))
            .add(static_cast<std::int64_t>(per_account))
            .add(process_id_);
        static const std::string sql =
            "WITH heads AS (SELECT o.seq, COALESCE(o.call_id, o.drip_id) AS stream, "
            "COALESCE(c.webhook_url, d.webhook_url) AS url, o.next_attempt_ms, "
            "COALESCE(c.account_id, d.account_id) AS account_id, o.unfinished "
            "FROM webhook_outbox o LEFT JOIN calls c ON c.id = o.call_id "
            "LEFT JOIN drip_enrolments d ON d.id = o.drip_id "
            "WHERE o.state = 'pending' AND o.next_attempt_ms <= $1 AND " +
            takeable("o", "$4") +
            " AND o.seq = (SELECT MIN(p.seq) FROM webhook_outbox p WHERE p.call_id IS NOT "
            "DISTINCT FROM o.call_id AND p.drip_id IS NOT DISTINCT FROM o.drip_id "
            "AND p.state = 'pending')), "
            "by_receiver AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY account_id, url "
            "ORDER BY next_attempt_ms, seq) AS r FROM heads), "
            "by_account AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY account_id "
            "ORDER BY r, next_attempt_ms, seq) AS a FROM by_receiver WHERE r <= $2) "
            "SELECT seq, stream, url, next_attempt_ms, account_id, unfinished FROM by_account "
            "WHERE a <= $3 ORDER BY account_id, a";
        const Result r = db->query(sql.c_str());
        std::vector<OutboxHead> heads;
        for (int i = 0; i < r.rows(); ++i) {
            heads.push_back(OutboxHead{
                r.integer(i, 0), std::string(r.text(i, 1)), std::string(r.text(i, 2)),
                r.integer(i, 3), std::string(r.text(i, 4)), static_cast<int>(r.integer(i, 5))});
        }
        return heads;
    }

    std::optional<std::int64_t> next_due(std::int64_t now_ms) override {
        auto db = pool_.lease();
        db->params().add(now_ms);
        const Result r = db->query(
            "SELECT MIN(next_attempt_ms) FROM webhook_outbox WHERE state = 'pending' AND "
            "next_attempt_ms > $1");
        if (r.empty() || r.is_null(0, 0)) return std::nullopt;
        return r.integer(0, 0);
    }

    bool claim(std::int64_t seq) override {
        auto db = pool_.lease();
        // A message another process is claiming right now is skipped, not waited for.
        db->params().add(process_id_).add(lease_).add(seq);
        static const std::string sql =
            "UPDATE webhook_outbox o SET lease_owner = $1, lease_until = now() + $2::interval "
            "FROM (SELECT h.seq FROM webhook_outbox h WHERE h.seq = $3 AND h.state = 'pending' "
            "AND " +
            takeable("h", "$1") + " FOR UPDATE SKIP LOCKED) d WHERE o.seq = d.seq RETURNING o.seq";
        return db->query(sql.c_str()).rows() > 0;
    }

    void release(std::int64_t seq) override {
        auto db = pool_.lease();
        db->params().add(seq).add(process_id_);
        db->query(
            "UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL "
            "WHERE seq = $1 AND lease_owner = $2");
    }

    void renew(const std::vector<std::int64_t>& seqs) override {
        if (seqs.empty()) return;
        std::string list = "{";
        for (const std::int64_t seq : seqs) {
            if (list.size() > 1) list += ',';
            list += std::to_string(seq);
        }
        list += '}';
        auto db = pool_.lease();
        db->params().add(process_id_).add(lease_).add(list);
        db->query(
            "UPDATE webhook_outbox SET lease_until = now() + $2::interval "
            "WHERE lease_owner = $1 AND state = 'pending' AND seq = ANY($3::bigint[])");
    }

    bool begin_attempt(std::int64_t seq) override {
        auto db = pool_.lease();
        // Recorded (committed) before the attempt; the lease is renewed for its length.
        db->params().add(seq).add(process_id_).add(lease_);
        return db->query(
                     "UPDATE webhook_outbox SET attempts = attempts + 1, "
                     "unfinished = unfinished + 1, lease_until = now() + $3::interval "
                     "WHERE seq = $1 AND state = 'pending' AND lease_owner = $2 RETURNING seq")
                   .rows() > 0;
    }

    void interrupted(std::int64_t seq) override {
        auto db = pool_.lease();
        db->params().add(seq).add(process_id_);
        db->query(
            "UPDATE webhook_outbox SET attempts = GREATEST(attempts - 1, 0), unfinished = 0, "
            "lease_owner = NULL, lease_until = NULL "
            "WHERE seq = $1 AND state = 'pending' AND lease_owner = $2 AND unfinished > 0");
    }

    std::int64_t sweep(std::int64_t now_ms) override {
        // A batch per statement (each its own transaction).
        auto db = pool_.lease();
        std::int64_t swept = 0;
        for (;;) {
            db->params()
                .add(now_ms - std::chrono::milliseconds(webhook::outbox_retention).count())
                .add(retention_batch_rows);
            const std::int64_t deleted =
                db->query(
                      "DELETE FROM webhook_outbox WHERE seq IN (SELECT seq FROM webhook_outbox "
                      "WHERE state <> 'pending' AND done_ms < $1 LIMIT $2)")
                    .affected();
            swept += deleted;
            if (deleted < retention_batch_rows) return swept;
        }
    }

    std::optional<OutboxMessage> load(std::int64_t seq) override {
        auto db = pool_.lease();
        db->params().add(seq).add(process_id_);
        static const std::string sql =
            std::string(
                "SELECT o.message_id, o.attempts, COALESCE(c.webhook_url, d.webhook_url), "
                "COALESCE(c.webhook_secret_id, d.webhook_secret_id), s.secret, o.body, "
                "d.body, ") +
            event_columns() +
            " FROM webhook_outbox o "
            "LEFT JOIN calls c ON c.id = o.call_id "
            "LEFT JOIN call_events e ON e.call_id = o.call_id AND e.seq = o.event_seq "
            "LEFT JOIN drip_enrolments d ON d.id = COALESCE(o.drip_id, c.drip_id) "
            "LEFT JOIN webhook_secrets s ON s.id = COALESCE(c.webhook_secret_id, "
            "d.webhook_secret_id) AND s.account_id = COALESCE(c.account_id, d.account_id) "
            "WHERE o.seq = $1 AND o.state = 'pending' AND o.lease_owner = $2";
        const Result r = db->query(sql.c_str());
        if (r.empty()) return std::nullopt;

        const auto column = [&](int i) -> std::optional<std::string_view> {
            if (r.is_null(0, i)) return std::nullopt;
            return r.text(0, i);
        };
        OutboxMessage message;
        message.seq = seq;
        message.message_id = std::string(r.text(0, 0));
        message.attempts = static_cast<int>(r.integer(0, 1));
        message.url = std::string(r.text(0, 2));
        if (!r.is_null(0, 4)) message.secret = std::string(r.text(0, 4));
        message.secret_lost = !r.is_null(0, 3) && r.is_null(0, 4);
        message.body = outbox_body(
            column(5), column(6), [&](int i) { return column(7 + i); }, *links_);
        return message;
    }

    void delivered(std::int64_t seq, std::int64_t now_ms) override {
        auto db = pool_.lease();
        db->params().add(now_ms).add(seq);
        db->query(
            "UPDATE webhook_outbox SET state = 'delivered', unfinished = 0, "
            "done_ms = $1, last_error = NULL, lease_owner = NULL, lease_until = NULL "
            "WHERE seq = $2 AND state = 'pending'");
    }

    void failed(std::int64_t seq, std::optional<std::int64_t> next_attempt_ms,
                std::string_view error, std::int64_t now_ms) override {
        auto db = pool_.lease();
        // The claim ends with the attempt: the retry goes to whichever process is free then.
        if (next_attempt_ms) {
            db->params().add(*next_attempt_ms).add(error).add(seq);
            db->query(
                "UPDATE webhook_outbox SET unfinished = 0, next_attempt_ms = $1, "
                "last_error = $2, lease_owner = NULL, lease_until = NULL "
                "WHERE seq = $3 AND state = 'pending'");
        } else {
            db->params().add(now_ms).add(error).add(seq);
            db->query(
                "UPDATE webhook_outbox SET state = 'failed', unfinished = 0, "
                "done_ms = $1, last_error = $2, lease_owner = NULL, lease_until = NULL "
                "WHERE seq = $3 AND state = 'pending'");
        }
    }

    std::int64_t pending() override {
        auto db = pool_.lease();
        db->params();
        return db->query("SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending'")
            .integer(0, 0);
    }

  private:
    static std::int64_t unix_ms() {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    }

    std::shared_ptr<const RecordingLinks> links_;
    pg::Pool pool_;
    std::string process_id_;
    std::string lease_;
};

}  // namespace

// --- Rate limits -----------------------------------------------------------------------------

std::unique_ptr<WebhookOutbox> open_postgres_outbox(const PostgresOptions& options,
                                                    std::shared_ptr<const RecordingLinks> links) {
    return std::make_unique<PostgresOutbox>(options, std::move(links));
}

}  // namespace collectcall::server
