#include "sql/statements.hpp"

#include <algorithm>

#include "columns.hpp"
#include "store_error.hpp"

namespace collectcall::server::sql {

std::optional<StoredCustomer> customer_for_update(Db& db, const Uuid& account, const Uuid& id) {
    static const std::string text =
        select<CustomerRow>("FROM customers WHERE id = ? AND account_id = ? {pg:FOR UPDATE}");
    Query q(db, text.c_str());
    q.bind(1, id.view()).bind(2, account.view());
    if (!q.step()) return std::nullopt;
    return customer_from_row(q);
}

void update_customer_row(Db& db, const Uuid& account, const StoredCustomer& stored) {
    Query(db,
          "UPDATE customers SET body = ?, active = ?, cease_and_desist = ?, updated_at = ?, "
          "restricted_media = ?, attorney_represented = ?, disputed = ? WHERE id = ? AND "
          "account_id = ?")
        .bind(1, write(static_cast<const CustomerCreate&>(stored.customer)))
        .bind(2, stored.active)
        .bind(3, stored.cease_and_desist)
        .bind(4, stored.customer.updatedAt.view())
        .bind(5, std::int64_t{stored.customer.restrictedMedia.bits()})
        .bind(6, stored.customer.attorneyRepresented)
        .bind(7, stored.customer.disputed)
        .bind(8, stored.customer.id.view())
        .bind(9, account.view())
        .run();
}

std::optional<StoredCustomer> change_standing_in(Db& db, const Uuid& account, const Uuid& id,
                                                 const StandingChanger& change) {
    std::optional<StoredCustomer> stored = customer_for_update(db, account, id);
    if (!stored) return std::nullopt;
    if (const std::optional<ComplianceDecision> record = change(*stored)) {
        update_customer_row(db, account, *stored);
        insert_decision(db, account, id, *record);
    }
    return stored;
}

void note_activity(Db& db, const Uuid& account, const Uuid& customer, Time at) {
    Query(db,
          "UPDATE customers SET last_activity_ms = "
          "{sqlite:max}{pg:GREATEST}(coalesce(last_activity_ms, ?1), ?1) "
          "WHERE id = ?2 AND account_id = ?3")
        .bind(1, to_ms(at))
        .bind(2, customer.view())
        .bind(3, account.view())
        .run();
}

void insert_decision(Db& db, const Uuid& account, const Uuid& customer,
                     const ComplianceDecision& decision) {
    Query(db,
          "INSERT INTO compliance_decisions (account_id, customer_id, at_ms, call_seq, body, "
          "compliance) VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) FROM calls), ?, ?)")
        .bind(1, account.view())
        .bind(2, customer.view())
        .bind(3, to_ms(decision.at.time()))
        .bind(4, decision_column(decision))
        .bind(5, compliance_column(decision.compliance))
        .run();
    note_activity(db, account, customer, decision.at.time());
}

namespace {

// The times of a customer's rows in `sql` (account, customer, since), oldest first.
std::vector<Time> times_since(Db& db, const char* sql, const Uuid& account, const Uuid& customer,
                              Time since) {
    std::vector<Time> times;
    Query q(db, sql);
    q.bind(1, account.view()).bind(2, customer.view()).bind(3, to_ms(since));
    while (q.step())
        times.push_back(Time{std::chrono::milliseconds{q.integer(0)}});
    return times;
}

}  // namespace

std::vector<Time> placed_calls(Db& db, const Uuid& account, const Uuid& customer, Time since) {
    return times_since(db,
                       "SELECT created_ms FROM calls WHERE account_id = ? AND customer_id = ? AND "
                       "created_ms >= ? ORDER BY created_ms",
                       account, customer, since);
}

std::vector<Time> sent_texts(Db& db, const Uuid& account, const Uuid& customer, Time since) {
    return times_since(db,
                       "SELECT timestamp_ms FROM interactions WHERE account_id = ? AND "
                       "customer_id = ? AND timestamp_ms >= ? AND channel = 'sms' AND "
                       "direction = 'outbound' ORDER BY timestamp_ms",
                       account, customer, since);
}

ContactHistory contact_history(Db& db, const Uuid& account, const Uuid& customer, Time since) {
    ContactHistory history;
    {
        Query q(db,
                "SELECT created_ms, conversation FROM calls WHERE account_id = ? AND "
                "customer_id = ? AND created_ms >= ? ORDER BY created_ms");
        q.bind(1, account.view()).bind(2, customer.view()).bind(3, to_ms(since));
        while (q.step())
            add_call_to_history(history, q);
    }
    {
        // Whenever they were placed: a call in progress blocks the next one however old it is.
        Query q(db,
                "SELECT id, created_ms FROM calls WHERE account_id = ? AND customer_id = ? AND "
                "status = 'in-progress' ORDER BY seq");
        q.bind(1, account.view()).bind(2, customer.view());
        while (q.step())
            add_call_in_progress(history, q);
    }
    history.texts = sent_texts(db, account, customer, since);
    return history;
}

void insert_event(Db& db, std::string_view call_id, CallEventType type, Time at) {
    Query event(db,
                "INSERT INTO call_events (call_id, seq, type, created_at) VALUES (?1, "
                "(SELECT COALESCE(MAX(seq), 0) + 1 FROM call_events WHERE call_id = ?1), ?2, ?3) "
                "RETURNING seq");
    event.bind(1, call_id).bind(2, enum_name(type)).bind(3, timestamp_text(at));
    if (!event.step()) throw StoreError("call event missing after insert", false);
    // SQLite's schema enqueues the message by a trigger in the same transaction (migration 2).
    if (db.dialect() != Dialect::postgres) return;
    const std::int64_t seq = event.integer(0);
    Query(db,
          "INSERT INTO webhook_outbox (message_id, call_id, event_seq) "
          "SELECT " COLLECTCALL_SQL_MESSAGE_ID
          ", id, CAST(?2 AS INTEGER) "
          "FROM calls WHERE id = ?1 AND webhook_url IS NOT NULL")
        .bind(1, call_id)
        .bind(2, seq)
        .run();
}

void insert_call(Db& db, const Uuid& account, const Uuid& customer, const CallPlan& plan,
                 std::optional<std::string_view> owner) {
    const Call& call = plan.call;
    // The customer's row first, as every write of its records takes it.
    note_activity(db, account, customer, call.createdAt.time());
    Query insert(db,
                 "INSERT INTO calls (id, account_id, customer_id, agent_id, thread_id, "
                 "to_number, from_number, compliance, created_at, created_ms, status, "
                 "decision, webhook_url, webhook_secret_id, drip_id{pg:, owner}) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'in-progress', ?, ?, ?, ?{pg:, ?15})");
    insert.bind(1, call.id.view())
        .bind(2, account.view())
        .bind(3, customer.view())
        .bind(4, plan.agent_id)
        .bind(5, call.threadId.view())
        .bind(6, call.toPhoneNumber.view())
        .bind(7, call.fromPhoneNumber.view())
        .bind(8, compliance_column(call.compliance))
        .bind(9, call.createdAt.view())
        .bind(10, to_ms(call.createdAt.time()))
        .bind(11, decision_column(plan.decision));
    if (plan.webhook) {
        insert.bind(12, plan.webhook->url.view());
        if (plan.webhook->secretId) insert.bind(13, plan.webhook->secretId->view());
    }
    if (plan.drip_id) insert.bind(14, plan.drip_id->view());
    if (owner) insert.bind(15, *owner);
    insert.run();
    insert_event(db, call.id.view(), CallEventType::call_created, call.createdAt.time());
}

void insert_interaction(Db& db, const Uuid& account, const Uuid& customer,
                        const InteractionRecord& record) {
    std::visit(
        [&](const auto& r) {
            note_activity(db, account, customer, compliance::activity_at(r));
            static const std::string text = sql::insert<InteractionInsert>("interactions");
            Query q(db, text.c_str());
            bind_row(q, InteractionInsert{r.id.view(), account.view(), customer.view(),
                                          r.threadId.view(), interaction_channel(record),
                                          interaction_direction(record), to_ms(r.timestamp.time()),
                                          interaction_data(record), r.createdAt.view()});
            q.run();
        },
        record);
}

void update_enrolment_row(Db& db, const DripEnrolment& enrolment) {
    Query(db, "UPDATE drip_enrolments SET status = ?, next_ms = ?, body = ? WHERE id = ?")
        .bind(1, enum_name(enrolment.status))
        .bind(2, enrolment_next_ms(enrolment))
        .bind(3, write(enrolment))
        .bind(4, enrolment.id.view())
        .run();
}

RowGrant take_rows(Db& db, const Uuid& account, std::int64_t need, std::int64_t spare, Time now,
                   bool refusable) {
    const std::int64_t day = api::utc_day(now);
    // One row per account holds the counter of its latest day: a count of a later day starts it
    // again from zero. A write whose clock says an earlier day than the row's (another process,
    // a moment behind) counts in the row's day.
    for (int attempt = 0; attempt < 2; ++attempt) {
        Query q(db,
                "SELECT c.day, c.stored, a.daily_rows FROM daily_row_counts c "
                "JOIN accounts a ON a.id = c.account_id WHERE c.account_id = ? "
                "{pg:FOR UPDATE OF c}");
        q.bind(1, account.view());
        if (!q.step()) {
            // Every account has its counter from init or the schema's migration on; a missing
            // one is made, at zero, and read again.
            Query(db,
                  "INSERT INTO daily_row_counts (account_id, day, stored) VALUES (?, ?, 0) "
                  "ON CONFLICT DO NOTHING")
                .bind(1, account.view())
                .bind(2, day)
                .run();
            continue;
        }
        const std::int64_t row_day = q.integer(0);
        const std::int64_t counted_day = std::max(row_day, day);
        const std::int64_t stored = row_day >= day ? q.integer(1) : 0;
        const std::int64_t budget = q.integer(2);
        const std::int64_t left = budget - stored;
        if (need > left && refusable)
            throw QuotaExceeded(budget, api::seconds_to_next_utc_day(now));
        const RowGrant grant{counted_day,
                             need + std::clamp<std::int64_t>((left - need) / 8, 0, spare)};
        if (grant.rows > 0)
            Query(db, "UPDATE daily_row_counts SET day = ?, stored = ? WHERE account_id = ?")
                .bind(1, grant.day)
                .bind(2, stored + grant.rows)
                .bind(3, account.view())
                .run();
        return grant;
    }
    throw StoreError("the account's row counter is missing", false);
}

void return_rows(Db& db, std::string_view account, RowGrant rows) {
    Query(db,
          "UPDATE daily_row_counts SET stored = stored - ?1 "
          "WHERE account_id = ?2 AND day = ?3 AND stored >= ?1")
        .bind(1, rows.rows)
        .bind(2, account)
        .bind(3, rows.day)
        .run();
}

}  // namespace collectcall::server::sql
