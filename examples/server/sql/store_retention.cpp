// SqlStore: the retention sweep (API.md sections 11, 16 and 17; Store::sweep).
#include <collectcall/webhook/fairness.hpp>

#include "columns.hpp"
#include "rows.hpp"
#include "sql/sql_store.hpp"

namespace collectcall::server {

using sql::Db;
using sql::Query;

namespace {

// Deletes, in the caller's transaction, as many of `customer`'s records as `batch` has room for
// (each record whole: see RetentionBatch), the oldest first.
void sweep_customer(Db& db, std::string_view account, std::string_view customer,
                    RetentionBatch& batch) {
    // Runs `sql` (?1 account, ?2 customer, ?3 how many records) and gives how many rows went.
    const auto run = [&](const char* sql, std::int64_t records) -> std::int64_t {
        return Query(db, sql).bind(1, account).bind(2, customer).bind(3, records).run();
    };
    std::int64_t asked = batch.room(decision_rows);
    std::int64_t taken =
        run("DELETE FROM compliance_decisions WHERE seq IN (SELECT seq FROM compliance_decisions "
            "WHERE account_id = ?1 AND customer_id = ?2 ORDER BY at_ms, seq LIMIT ?3)",
            asked);
    batch.took(asked, taken, taken);

#define COLLECTCALL_SWEPT_INTERACTIONS                                                  \
    "(SELECT id FROM interactions WHERE account_id = ?1 AND customer_id = ?2 ORDER BY " \
    "timestamp_ms, seq LIMIT ?3)"
    asked = batch.room(interaction_rows);
    std::int64_t rows =
        run("DELETE FROM analyses WHERE interaction_id IN " COLLECTCALL_SWEPT_INTERACTIONS, asked);
    taken = run("DELETE FROM interactions WHERE id IN " COLLECTCALL_SWEPT_INTERACTIONS, asked);
    batch.took(asked, taken, rows + taken);
#undef COLLECTCALL_SWEPT_INTERACTIONS

    // A call's analysis, its events' webhook messages and its events go before it (they refer to
    // it).
#define COLLECTCALL_SWEPT_CALLS                                                              \
    "(SELECT id FROM calls WHERE account_id = ?1 AND customer_id = ?2 ORDER BY created_ms, " \
    "seq LIMIT ?3)"
    asked = batch.room(call_rows);
    rows = run("DELETE FROM analyses WHERE interaction_id IN " COLLECTCALL_SWEPT_CALLS, asked);
    rows += run("DELETE FROM webhook_outbox WHERE call_id IN " COLLECTCALL_SWEPT_CALLS, asked);
    rows += run("DELETE FROM call_events WHERE call_id IN " COLLECTCALL_SWEPT_CALLS, asked);
    taken = run("DELETE FROM calls WHERE id IN " COLLECTCALL_SWEPT_CALLS, asked);
    batch.took(asked, taken, rows + taken);
#undef COLLECTCALL_SWEPT_CALLS

    if (batch.customer_emptied()) {
        Query(db, "UPDATE customers SET last_activity_ms = NULL WHERE id = ?")
            .bind(1, customer)
            .run();
    }
}

}  // namespace

std::int64_t SqlStore::sweep(Time now) {
    // Rows of one table older than an instant, retention_batch_rows per transaction (in the
    // order of the rows' addresses, about the order they were made in). Processes sweeping at
    // once delete each row once.
    const auto older = [&](const char* sql, const auto& before) {
        return sweep_in_chunks([&] {
            return transacting([&](Db& db) -> SweepChunk {
                const std::int64_t deleted =
                    Query(db, sql).bind(1, before).bind(2, retention_batch_rows).run();
                return SweepChunk{deleted, deleted == retention_batch_rows};
            });
        });
    };
    std::int64_t swept = older(
        "DELETE FROM call_events WHERE {sqlite:rowid}{pg:ctid} IN (SELECT "
        "e.{sqlite:rowid}{pg:ctid} FROM call_events e WHERE e.created_at < ? AND NOT "
        "EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.call_id = e.call_id AND "
        "o.event_seq = e.seq) LIMIT ?)",
        timestamp_text(now - webhook::outbox_retention));
    swept += older(
        "DELETE FROM idempotency_keys WHERE {sqlite:rowid}{pg:ctid} IN (SELECT "
        "{sqlite:rowid}{pg:ctid} FROM idempotency_keys WHERE created_ms < ? LIMIT ?)",
        to_ms(now) - idempotency_lifetime_ms);

    // The records of the customers whose last activity is older than the retention, customer
    // after customer (the longest inactive first), a batch of rows per transaction. A customer
    // another process is sweeping, or writing to, is skipped: its row is locked.
    const std::int64_t expired = to_ms(compliance::records_expire_before(now));
    swept += sweep_in_chunks([&] {
        return transacting([&](Db& db) -> SweepChunk {
            RetentionBatch batch;
            while (!batch.full()) {
                std::string account;
                std::string customer;
                {
                    Query q(db,
                            "SELECT account_id, id FROM customers WHERE last_activity_ms < ? "
                            "ORDER BY last_activity_ms LIMIT 1 {pg:FOR UPDATE SKIP LOCKED}");
                    q.bind(1, expired);
                    if (!q.step()) break;
                    account = q.text(0);
                    customer = q.text(1);
                }
                batch.next_customer();
                sweep_customer(db, account, customer, batch);
                if (!batch.customer_emptied()) break;
            }
            // A transaction that stopped with rows to spare found no more customers.
            return SweepChunk{batch.deleted(), batch.full() || !batch.customer_emptied()};
        });
    });
    return swept;
}

}  // namespace collectcall::server
