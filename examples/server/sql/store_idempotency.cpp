// SqlStore: Idempotency-Key records (API.md section 10).
#include "columns.hpp"
#include "crypto.hpp"
#include "rows.hpp"
#include "sql/sql_store.hpp"

namespace collectcall::server {

using sql::Db;
using sql::Query;

// A key still without an answer after this long belongs to a process that died (PostgreSQL, the
// database's clock: the server's may be frozen; a request answers within its timeouts). SQLite's
// one process forgets its keys in flight when it starts (SqliteStore::forget_requests_in_flight).
#define COLLECTCALL_IN_FLIGHT_EXPIRED "{pg:started < now() - interval '120 seconds'}{sqlite:0}"

IdempotencyBegin SqlStore::begin_idempotent(const Uuid& account, std::string_view key,
                                            const Sha256& fingerprint, Time now) {
    IdempotencyBegin begun = transacting([&](Db& db) {
        const bool fresh =
            Query(db,
                  "INSERT INTO idempotency_keys (account_id, key, fingerprint, created_ms) "
                  "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
                .bind(1, account.view())
                .bind(2, key)
                .bind_bytes(3, fingerprint)
                .bind(4, to_ms(now))
                .run() == 1;
        if (!fresh) {
            // Someone holds the key: its row is locked while this transaction decides.
            Query q(db,
                    "SELECT fingerprint, created_ms, status, response, "
                    "request_id, " COLLECTCALL_IN_FLIGHT_EXPIRED
                    " FROM idempotency_keys "
                    "WHERE account_id = ? AND key = ? {pg:FOR UPDATE}");
            q.bind(1, account.view()).bind(2, key);
            const bool found = q.step();
            const bool expired = !found || q.integer(1) <= to_ms(now) - idempotency_lifetime_ms ||
                                 (q.is_null(2) && q.boolean(5));
            if (!expired) {
                IdempotencyBegin result;
                Sha256 stored{};
                if (!q.bytes(0, stored) || !equal_constant_time(stored, fingerprint)) {
                    result.state = IdempotencyState::mismatch;
                } else if (q.is_null(2)) {
                    result.state = IdempotencyState::in_flight;
                } else {
                    result.state = IdempotencyState::replay;
                    result.response.status = static_cast<int>(q.integer(2));
                    result.response.body = std::string(q.text(3));
                    result.response.request_id = std::string(q.text(4));
                }
                return result;
            }
        }
        if (!fresh) {
            Query(db,
                  "INSERT INTO idempotency_keys (account_id, key, fingerprint, created_ms) "
                  "VALUES (?, ?, ?, ?) ON CONFLICT (account_id, key) DO UPDATE SET "
                  "fingerprint = excluded.fingerprint, created_ms = excluded.created_ms, "
                  "{pg:started = now(), }status = NULL, response = NULL, request_id = NULL")
                .bind(1, account.view())
                .bind(2, key)
                .bind_bytes(3, fingerprint)
                .bind(4, to_ms(now))
                .run();
        }
        // Expired keys are deleted by the retention sweep (sweep()), not here: on SQLite this
        // transaction is a write of the single writer, and the account's expired keys are found
        // only by reading every key the account has (nothing indexes them by time), so each new
        // key made every other write of its batch wait for a read that grew with the account's
        // traffic of a day.
        return IdempotencyBegin{IdempotencyState::started, {}, {}};
    });
    // From here the request's writes and the recording of its answer are one transaction.
    if (begun.state == IdempotencyState::started) {
        std::unique_ptr<SqlStore> request = begin_request();
        request->write_observer_ = write_observer_;  // its writes are timed as the store's
        begun.store = std::move(request);
    }
    return begun;
}

void SqlStore::finish_idempotent(const Uuid& account, std::string_view key,
                                 const StoredResponse& response) {
    // The answer and the commit of the request's transaction are one write: the request waits
    // for both.
    timed(1, [&] {
        auto answer = [&](Db& db) {
            Query(db,
                  "UPDATE idempotency_keys SET status = ?, response = ?, request_id = ? "
                  "WHERE account_id = ? AND key = ?")
                .bind(1, std::int64_t{response.status})
                .bind(2, response.body)
                .bind(3, response.request_id)
                .bind(4, account.view())
                .bind(5, key)
                .run();
        };
        run_write(sql::Work(answer));
        commit_request();
    });
}

void SqlStore::abandon_idempotent(const Uuid& account, std::string_view key) {
    rollback_request();  // the request's writes go with its key
    writing([&](Db& db) {
        Query(db,
              "DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status IS NULL")
            .bind(1, account.view())
            .bind(2, key)
            .run();
    });
}

}  // namespace collectcall::server
