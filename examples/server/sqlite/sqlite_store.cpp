#include "sqlite_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <bit>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <collectcall/webhook/fairness.hpp>

#include "columns.hpp"
#include "rows.hpp"
#include "sqlite_checkpointer.hpp"
#include "sqlite_writer.hpp"
#include "webhook_outbox.hpp"

namespace collectcall::server {

namespace {

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

// Each entry moves the schema from version i to i + 1. Append only: a released entry never
// changes, a new version adds one.
constexpr const char* migrations[] = {
    R"sql(
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    window_start_minutes INTEGER NOT NULL DEFAULT 480,
    window_end_minutes INTEGER NOT NULL DEFAULT 1260,
    max_calls_per_day INTEGER NOT NULL DEFAULT 4,
    created_at TEXT NOT NULL
) STRICT;
CREATE TABLE api_keys (
    key_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    key_hash BLOB NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE TABLE agents (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    created_at TEXT NOT NULL
) STRICT;
CREATE TABLE caller_numbers (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    position INTEGER NOT NULL,
    number TEXT NOT NULL,
    PRIMARY KEY (account_id, position),
    UNIQUE (account_id, number)
) STRICT;
CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    external_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    cease_and_desist INTEGER NOT NULL DEFAULT 0,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX customers_by_external_id ON customers (account_id, external_id);
CREATE TABLE calls (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    agent_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    to_number TEXT NOT NULL,
    from_number TEXT NOT NULL,
    compliance TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    status TEXT NOT NULL,
    ended_reason TEXT,
    duration_ms INTEGER,
    webhook_url TEXT,
    webhook_secret_id TEXT
) STRICT;
CREATE INDEX calls_by_customer ON calls (account_id, customer_id, created_ms);
CREATE TABLE call_events (
    call_id TEXT NOT NULL REFERENCES calls(id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (call_id, seq)
) STRICT;
CREATE TABLE webhook_secrets (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint BLOB NOT NULL,
    created_ms INTEGER NOT NULL,
    status INTEGER,
    response TEXT,
    request_id TEXT,
    PRIMARY KEY (account_id, key)
) STRICT;
)sql",
    // 1 -> 2: the webhook outbox (API.md section 9). A trigger enqueues one message per event of
    // a call that has a webhook, in the transaction that records the event: the event and its
    // delivery are committed together or not at all, whichever code path writes the event.
    // webhook_outbox.cpp reads and updates the rows; seq orders the messages of a call.
    R"sql(
CREATE TABLE webhook_outbox (
    seq INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    call_id TEXT NOT NULL REFERENCES calls(id),
    event_seq INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    done_ms INTEGER,
    UNIQUE (call_id, event_seq)
) STRICT;
CREATE INDEX webhook_outbox_pending ON webhook_outbox (call_id, seq) WHERE state = 'pending';
CREATE TRIGGER webhook_outbox_enqueue AFTER INSERT ON call_events
WHEN (SELECT webhook_url FROM calls WHERE id = NEW.call_id) IS NOT NULL
BEGIN
    INSERT INTO webhook_outbox (message_id, call_id, event_seq)
    VALUES ('msg_' || lower(hex(randomblob(16))), NEW.call_id, NEW.seq);
END;
CREATE INDEX calls_in_progress ON calls (seq) WHERE status = 'in-progress';
)sql",
    // 2 -> 3: the same on both stores (webhook_outbox.hpp).
    outbox_attempts_migration,
    // 3 -> 4: a call's transcript (a JSON array, written when it ends), and the server's own
    // keys (the key of signed recording links).
    R"sql(
ALTER TABLE calls ADD COLUMN transcript TEXT;
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    key TEXT NOT NULL
) STRICT;
)sql",
    // 4 -> 5: clients, SMS and e-mail interactions, their analyses, and what an analysis
    // records on the customer (API.md section 13).
    R"sql(
CREATE TABLE clients (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX clients_by_account ON clients (account_id, seq);
CREATE TABLE interactions (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    thread_id TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
    direction TEXT NOT NULL CHECK (direction IN ('inbound', 'outbound')),
    timestamp_ms INTEGER NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX interactions_by_customer ON interactions (account_id, customer_id, timestamp_ms);
CREATE INDEX interactions_by_thread ON interactions (account_id, thread_id, timestamp_ms);
CREATE TABLE analyses (
    interaction_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    channel TEXT NOT NULL,
    variables TEXT NOT NULL,
    outcomes_applied INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
) STRICT;
ALTER TABLE customers ADD COLUMN do_not_call INTEGER NOT NULL DEFAULT 0;
ALTER TABLE customers ADD COLUMN attorney_represented INTEGER NOT NULL DEFAULT 0;
ALTER TABLE customers ADD COLUMN disputed INTEGER NOT NULL DEFAULT 0;
)sql",
    // 5 -> 6: the account's compliance policy and drip campaigns (API.md sections 14 and 15),
    // and the record of every compliance decision, a ComplianceDecision as JSON. A placed call's
    // is in its own row (calls.decision, without the compliance the row already holds), so
    // placing a call writes no second row; every other evaluation has a row of
    // compliance_decisions (body and compliance as a call keeps them), whose call_seq (the
    // greatest calls.seq when it was made) orders it after the calls made before it in the same
    // millisecond. The sweep deletes those by at_ms;
    // it clears calls.decision walking the calls in seq order from sweep_marks' 'call_decisions'
    // (every call up to that seq has been cleared), so no index is kept for it.
    // calls.conversation: whether the call's transcript has a turn of the customer's (a
    // telephone conversation, which Regulation F counts), kept from the call's end on. Drip
    // campaign enrolments (a DripEnrolment as JSON; next_ms is when its next step runs, NULL once
    // none will), the enrolment whose step placed a call, and outbox messages of an enrolment
    // rather than of a call (a drip-campaign.sms body stored as sent): the outbox is rebuilt for
    // call_id to be NULL on those.
    R"sql(
ALTER TABLE accounts ADD COLUMN compliance_policy TEXT NOT NULL DEFAULT 'hosted';
CREATE TABLE drip_campaigns (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    steps TEXT NOT NULL,
    PRIMARY KEY (account_id, name)
) STRICT;
CREATE TABLE compliance_decisions (
    seq INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    at_ms INTEGER NOT NULL,
    call_seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    compliance TEXT NOT NULL
) STRICT;
CREATE INDEX compliance_decisions_by_customer
    ON compliance_decisions (account_id, customer_id, at_ms, seq);
CREATE INDEX compliance_decisions_by_time ON compliance_decisions (at_ms);
ALTER TABLE calls ADD COLUMN decision TEXT;
CREATE TABLE sweep_marks (name TEXT PRIMARY KEY, seq INTEGER NOT NULL) STRICT;
ALTER TABLE calls ADD COLUMN conversation INTEGER NOT NULL DEFAULT 0;
UPDATE calls SET conversation = 1 WHERE transcript IS NOT NULL AND EXISTS (
    SELECT 1 FROM json_each(calls.transcript) AS turn
    WHERE json_extract(turn.value, '$.role') = 'user');
CREATE TABLE drip_enrolments (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    next_ms INTEGER,
    webhook_url TEXT,
    webhook_secret_id TEXT,
    body TEXT NOT NULL
) STRICT;
CREATE INDEX drip_enrolments_by_customer ON drip_enrolments (account_id, customer_id, seq);
CREATE INDEX drip_enrolments_due ON drip_enrolments (next_ms) WHERE status = 'in-progress';
ALTER TABLE calls ADD COLUMN drip_id TEXT;
DROP TRIGGER webhook_outbox_enqueue;
CREATE TABLE webhook_outbox_next (
    seq INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    call_id TEXT REFERENCES calls(id),
    event_seq INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    done_ms INTEGER,
    unfinished INTEGER NOT NULL DEFAULT 0,
    drip_id TEXT REFERENCES drip_enrolments(id),
    body TEXT,
    UNIQUE (call_id, event_seq),
    CHECK ((call_id IS NULL) <> (drip_id IS NULL))
) STRICT;
INSERT INTO webhook_outbox_next (seq, message_id, call_id, event_seq, state, attempts,
    next_attempt_ms, last_error, done_ms, unfinished)
SELECT seq, message_id, call_id, event_seq, state, attempts, next_attempt_ms, last_error, done_ms,
    unfinished FROM webhook_outbox;
DROP TABLE webhook_outbox;
ALTER TABLE webhook_outbox_next RENAME TO webhook_outbox;
CREATE INDEX webhook_outbox_pending ON webhook_outbox (call_id, seq) WHERE state = 'pending';
CREATE INDEX webhook_outbox_drip_pending ON webhook_outbox (drip_id, seq)
    WHERE state = 'pending';
CREATE INDEX webhook_outbox_done ON webhook_outbox (done_ms) WHERE state <> 'pending';
CREATE TRIGGER webhook_outbox_enqueue AFTER INSERT ON call_events
WHEN (SELECT webhook_url FROM calls WHERE id = NEW.call_id) IS NOT NULL
BEGIN
    INSERT INTO webhook_outbox (message_id, call_id, event_seq)
    VALUES ('msg_' || lower(hex(randomblob(16))), NEW.call_id, NEW.seq);
END;
)sql",
    // 6 -> 7: retention by the customer's last collection activity (compliance/retention.hpp).
    // customers.last_activity_ms is the instant of the customer's latest activity, set in the
    // transaction of each decision, call and interaction, and NULL when the customer has no
    // record to keep (never had one, or the sweep took them all); the sweep finds the customers
    // whose records are due by its index. It starts from the records already stored (an
    // interaction at the later of its timestamp and when it was stored). The sweep no longer
    // walks the calls by time: their mark and the decisions' index by time go.
    R"sql(
ALTER TABLE customers ADD COLUMN last_activity_ms INTEGER;
UPDATE customers SET last_activity_ms = (SELECT max(t) FROM (
    SELECT max(created_ms) AS t FROM calls
        WHERE calls.account_id = customers.account_id AND calls.customer_id = customers.id
    UNION ALL SELECT max(at_ms) FROM compliance_decisions d
        WHERE d.account_id = customers.account_id AND d.customer_id = customers.id
    UNION ALL SELECT max(max(timestamp_ms,
            coalesce(CAST(strftime('%s', created_at) AS INTEGER) * 1000, timestamp_ms)))
        FROM interactions i
        WHERE i.account_id = customers.account_id AND i.customer_id = customers.id));
CREATE INDEX customers_by_last_activity ON customers (last_activity_ms)
    WHERE last_activity_ms IS NOT NULL;
DROP INDEX compliance_decisions_by_time;
DROP TABLE sweep_marks;
)sql",
    // 7 -> 8: the media a customer asked not to be contacted by (API.md section 16), a
    // RestrictedMedia's bits (call 1, sms 2, email 4), in place of the do-not-call flag: a customer
    // who asked not to be called keeps the calls restricted.
    R"sql(
ALTER TABLE customers ADD COLUMN restricted_media INTEGER NOT NULL DEFAULT 0;
UPDATE customers SET restricted_media = 1 WHERE do_not_call <> 0;
ALTER TABLE customers DROP COLUMN do_not_call;
)sql",
};

constexpr int migration_count = static_cast<int>(std::size(migrations));
static_assert(migration_count == SqliteStore::schema_version);

// The stored documents of customers being inserted, written by the request's own thread before
// its write joins a batch: the writer thread runs the writes of every request in it one after the
// other while they wait, so what can run beside it does not run in it. One buffer per thread,
// reused from request to request.
class CustomerBodies {
  public:
    static CustomerBodies& write(std::span<const StoredCustomer> customers) {
        thread_local CustomerBodies bodies;
        bodies.text_.clear();
        bodies.ends_.clear();
        for (const StoredCustomer& s : customers) {
            write_to(bodies.text_, static_cast<const CustomerCreate&>(s.customer));
            bodies.ends_.push_back(bodies.text_.size());
        }
        return bodies;
    }
    [[nodiscard]] std::string_view operator[](std::size_t i) const {
        const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
        return std::string_view(text_).substr(begin, ends_[i] - begin);
    }
    // A very large bulk's buffer is not kept for the life of the thread.
    void release_if_large() {
        if (text_.capacity() > (std::size_t{1} << 20)) {
            std::string().swap(text_);
            std::vector<std::size_t>().swap(ends_);
        }
    }

  private:
    std::string text_;
    std::vector<std::size_t> ends_;
};

// The columns of COLLECTCALL_CUSTOMER_INSERT_COLUMNS. The texts are bound where they lie (the
// customer, the account and the body outlive the Query): a bulk's writer would otherwise allocate
// and copy seven texts per row. `row` is the row's place in a statement of several rows.
void bind_customer_insert(Query& q, std::size_t row, const Uuid& account, const StoredCustomer& s,
                          std::string_view body) {
    const Customer& c = s.customer;
    const int at = static_cast<int>(row) * customer_insert_column_count;
    q.bind_static(at + 1, c.id.view())
        .bind_static(at + 2, account.view())
        .bind_static(at + 3, c.externalId.view())
        .bind_static(at + 4, s.thread_id.view())
        .bind(at + 5, std::int64_t{s.active})
        .bind(at + 6, std::int64_t{s.cease_and_desist})
        .bind_static(at + 7, body)
        .bind_static(at + 8, c.createdAt.view())
        .bind_static(at + 9, c.updatedAt.view());
}

// A bulk's rows go in by statements of up to this many rows (a power of two), each the largest
// that fits what is left: a statement's start and end (cursors on the table and its two
// indexes, the foreign-key bookkeeping) are then paid once for up to 32 rows instead of once per
// row, about a fifth of SQLite's work per row. A duplicate externalId inserts no row and does
// not stop the rows after it (ON CONFLICT DO NOTHING).
constexpr std::size_t max_rows_per_insert = 32;

// The INSERT of `rows` customers, `rows` a power of two up to max_rows_per_insert. The texts
// live as long as the process: the statement cache is keyed by their address.
const char* insert_customers_sql(std::size_t rows) {
    static const auto texts = [] {
        std::array<std::string, std::bit_width(max_rows_per_insert)> sql;
        std::string values = "(?";
        for (int column = 1; column < customer_insert_column_count; ++column)
            values += ", ?";
        values += ")";
        for (std::size_t k = 0; k < sql.size(); ++k) {
            sql[k] = "INSERT INTO customers (" COLLECTCALL_CUSTOMER_INSERT_COLUMNS ") VALUES ";
            for (std::size_t row = 0; row < (std::size_t{1} << k); ++row)
                sql[k] += (row == 0 ? "" : ", ") + values;
            sql[k] += " ON CONFLICT (account_id, external_id) DO NOTHING";
        }
        return sql;
    }();
    return texts.at(static_cast<std::size_t>(std::countr_zero(rows))).c_str();
}

// A call and its events.
CallDetails call_from_query(Connection& db, const Query& q) {
    CallDetails call = call_from_row(q);
    Query events(db, "SELECT type, created_at FROM call_events WHERE call_id = ? ORDER BY seq");
    events.bind(1, call.id.view());
    while (events.step())
        call.events.push_back(event_from_row(events));
    return call;
}

void insert_event(Connection& db, std::string_view call_id, CallEventType type, Time at) {
    Query(db,
          "INSERT INTO call_events (call_id, seq, type, created_at) VALUES (?1, "
          "(SELECT COALESCE(MAX(seq), 0) + 1 FROM call_events WHERE call_id = ?1), ?2, ?3)")
        .bind(1, call_id)
        .bind(2, enum_name(type))
        .bind(3, timestamp_text(at))
        .run();
}

// The customer's row locked for this write (SQLite: the writer's transaction), or nullopt.
std::optional<StoredCustomer> customer_for_update(Connection& db, const Uuid& account,
                                                  const Uuid& id) {
    Query q(db, "SELECT " COLLECTCALL_CUSTOMER_COLUMNS
                " FROM customers WHERE id = ? AND account_id = ?");
    q.bind(1, id.view()).bind(2, account.view());
    if (!q.step()) return std::nullopt;
    return customer_from_row(q);
}

// Everything of a stored customer that a change may touch.
void update_customer_row(Connection& db, const Uuid& account, const StoredCustomer& stored) {
    Query(db,
          "UPDATE customers SET body = ?, active = ?, cease_and_desist = ?, updated_at = ?, "
          "restricted_media = ?, attorney_represented = ?, disputed = ? WHERE id = ? AND "
          "account_id = ?")
        .bind(1, write(static_cast<const CustomerCreate&>(stored.customer)))
        .bind(2, std::int64_t{stored.active})
        .bind(3, std::int64_t{stored.cease_and_desist})
        .bind(4, stored.customer.updatedAt.view())
        .bind(5, std::int64_t{stored.customer.restrictedMedia.bits()})
        .bind(6, std::int64_t{stored.customer.attorneyRepresented})
        .bind(7, std::int64_t{stored.customer.disputed})
        .bind(8, stored.customer.id.view())
        .bind(9, account.view())
        .run();
}

// A collection activity of the customer's at `at` (compliance/retention.hpp): its records are
// kept three years from the latest.
void note_activity(Connection& db, const Uuid& account, const Uuid& customer, Time at) {
    Query(db,
          "UPDATE customers SET last_activity_ms = max(coalesce(last_activity_ms, ?1), ?1) "
          "WHERE id = ?2 AND account_id = ?3")
        .bind(1, to_ms(at))
        .bind(2, customer.view())
        .bind(3, account.view())
        .run();
}

void insert_interaction(Connection& db, const Uuid& account, const Uuid& customer,
                        const InteractionRecord& record) {
    std::visit(
        [&](const auto& r) {
            note_activity(db, account, customer, compliance::activity_at(r));
            Query(db, "INSERT INTO interactions (" COLLECTCALL_INTERACTION_INSERT_COLUMNS
                      ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .bind(1, r.id.view())
                .bind(2, account.view())
                .bind(3, customer.view())
                .bind(4, r.threadId.view())
                .bind(5, interaction_channel(record))
                .bind(6, interaction_direction(record))
                .bind(7, to_ms(r.timestamp.time()))
                .bind(8, interaction_data(record))
                .bind(9, r.createdAt.view())
                .run();
        },
        record);
}

// The times of a customer's rows in `sql` (account, customer, since), oldest first.
std::vector<Time> times_since(Connection& db, const char* sql, const Uuid& account,
                              const Uuid& customer, Time since) {
    std::vector<Time> times;
    Query q(db, sql);
    q.bind(1, account.view()).bind(2, customer.view()).bind(3, to_ms(since));
    while (q.step())
        times.push_back(Time{std::chrono::milliseconds{q.integer(0)}});
    return times;
}

constexpr const char* placed_calls_sql =
    "SELECT created_ms FROM calls WHERE account_id = ? AND customer_id = ? AND created_ms >= ? "
    "ORDER BY created_ms";
constexpr const char* sent_texts_sql =
    "SELECT timestamp_ms FROM interactions WHERE account_id = ? AND customer_id = ? AND "
    "timestamp_ms >= ? AND channel = 'sms' AND direction = 'outbound' ORDER BY timestamp_ms";

// A customer's decisions, newest first (?1 account, ?2 customer, ?3 limit): the placed calls'
// and the other evaluations', each of those after the calls made before it (see the schema).
constexpr const char* list_decisions_sql =
    "SELECT body, compliance FROM ("
    "SELECT decision AS body, compliance, created_ms AS at_ms, seq AS call_seq, 0 AS after, "
    "0 AS seq FROM calls WHERE account_id = ?1 AND customer_id = ?2 AND decision IS NOT NULL "
    "UNION ALL SELECT body, compliance, at_ms, call_seq, 1, seq FROM compliance_decisions "
    "WHERE account_id = ?1 AND customer_id = ?2) "
    "ORDER BY at_ms DESC, call_seq DESC, after DESC, seq DESC LIMIT ?3";

void insert_decision(Connection& db, const Uuid& account, const Uuid& customer,
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

// The contacts with a customer since `since` that compliance counts.
ContactHistory contact_history(Connection& db, const Uuid& account, const Uuid& customer,
                               Time since) {
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
    history.texts = times_since(db, sent_texts_sql, account, customer, since);
    return history;
}

// A placed call, in progress, with its call-created event; its decision in its own row (see the
// schema).
void insert_call(Connection& connection, const Uuid& account, const Uuid& customer,
                 const CallPlan& plan) {
    Connection* db = &connection;
    const Call& call = plan.call;
    Query insert(*db,
                 "INSERT INTO calls (id, account_id, customer_id, agent_id, thread_id, "
                 "to_number, from_number, compliance, created_at, created_ms, status, "
                 "decision, webhook_url, webhook_secret_id, drip_id) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'in-progress', ?, ?, ?, ?)");
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
    insert.run();
    note_activity(*db, account, customer, call.createdAt.time());
    insert_event(*db, call.id.view(), CallEventType::call_created, call.createdAt.time());
}

// Writes an enrolment's document and the columns the scheduler reads.
void update_enrolment_row(Connection& db, const DripEnrolment& enrolment) {
    Query q(db, "UPDATE drip_enrolments SET status = ?, next_ms = ?, body = ? WHERE id = ?");
    q.bind(1, enum_name(enrolment.status)).bind(3, write(enrolment)).bind(4, enrolment.id.view());
    if (const auto next = enrolment_next_ms(enrolment)) q.bind(2, *next);
    q.run();
}
}  // namespace

// A connection borrowed from the pool for the length of one operation.
class SqliteStore::Lease {
  public:
    Lease(SqliteStore& store, std::unique_ptr<Connection> connection)
        : store_(store), connection_(std::move(connection)) {}
    ~Lease() {
        std::lock_guard lock(store_.mutex_);
        store_.idle_.push_back(std::move(connection_));
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    Connection& operator*() const { return *connection_; }

  private:
    SqliteStore& store_;
    std::unique_ptr<Connection> connection_;
};

// Runs `work` on the writer, and gives back what it returned.
template <class Work>
auto SqliteStore::batched(Work&& work) {
    using Result = decltype(work(std::declval<Connection&>()));
    if constexpr (std::is_void_v<Result>) {
        writer_->write([&](Connection& db) { work(db); }, request_.get());
    } else {
        std::optional<Result> result;
        writer_->write([&](Connection& db) { result.emplace(work(db)); }, request_.get());
        return std::move(*result);
    }
}

bool SqliteStore::observe_commits(CommitObserver observer) {
    writer_->observe_commits(std::move(observer));
    return true;
}

SqliteStore::SqliteStore(SqliteOptions options)
    : shared_(std::make_shared<Shared>(std::move(options))) {
    auto db = open_connection();
    migrate(*db);
    idle_.push_back(std::move(db));
    auto writer = open_connection();
    // Every write goes through this connection: a page cache of up to 32 MiB keeps the pages
    // commits keep touching (the ends of the tables and indexes) in memory instead of reading
    // them back from the file (the default holds 2 MiB). It grows only with use.
    writer->exec("PRAGMA cache_size = -32768");
    // In pages of the file's own size (8 KiB for a file this server created, 4 KiB for one
    // created before).
    std::int64_t page_size = 4096;
    {
        Query q(*writer, "PRAGMA page_size");
        if (q.step() && q.integer(0) > 0) page_size = q.integer(0);
    }
    const auto pages = [&](std::int64_t bytes) {
        return static_cast<int>(std::clamp<std::int64_t>(bytes / page_size, 1, INT32_MAX));
    };
    checkpointer_ =
        std::make_unique<WalCheckpointer>(open_connection(), pages(options_.checkpoint_every_bytes),
                                          pages(options_.checkpoint_limit_bytes));
    sqlite3_wal_hook(writer->handle(), &WalCheckpointer::committed, checkpointer_.get());
    writer_ = std::make_unique<SqliteWriter>(std::move(writer));
}

SqliteStore::SqliteStore(std::shared_ptr<Shared> shared,
                         std::unique_ptr<SqliteWriter::RequestTransaction> request)
    : shared_(std::move(shared)), request_(std::move(request)) {}

SqliteStore::~SqliteStore() = default;
SqliteStore::Shared::Shared(SqliteOptions o) : options(std::move(o)) {}
SqliteStore::Shared::~Shared() = default;

std::unique_ptr<Connection> SqliteStore::open_connection() {
    auto db = std::make_unique<Connection>(options_.path, true, options_.busy_timeout_ms);
    // WAL is a property of the file (set once, kept); synchronous and foreign keys are
    // per connection. FULL makes every commit fsync the WAL: an acknowledged write survives a
    // crash of the process or the machine.
    // A new file gets pages of 8 KiB instead of SQLite's 4 KiB (a file that has pages keeps
    // theirs): a customer's row is about 1 KiB, and a bulk's writer then writes and checkpoints
    // half as many pages, each with its own WAL frame header and system call, for the same rows
    // (a bulk of 500 customers stored about 15% faster). Set before WAL mode, which writes the
    // file's first page.
    db->exec("PRAGMA page_size = 8192");
    db->exec("PRAGMA journal_mode = WAL");
    db->exec("PRAGMA synchronous = FULL");
    db->exec("PRAGMA foreign_keys = ON");
    return db;
}

SqliteStore::Lease SqliteStore::lease() {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            auto db = std::move(idle_.back());
            idle_.pop_back();
            return Lease(*this, std::move(db));
        }
    }
    return Lease(*this, open_connection());
}

void SqliteStore::migrate(Connection& db) {
    Transaction tx(db);  // two servers starting on one new file must not both migrate it
    std::int64_t version = 0;
    {
        Query q(db, "PRAGMA user_version");
        if (q.step()) version = q.integer(0);
    }
    if (version > schema_version) {
        throw StoreError("the database " + options_.path + " has schema version " +
                             std::to_string(version) + ", newer than this server's (" +
                             std::to_string(schema_version) + ")",
                         false);
    }
    for (auto v = version; v < schema_version; ++v) {
        db.exec(migrations[v]);
    }
    if (version != schema_version) {
        // PRAGMA takes no parameters; the value is a compile-time constant.
        const std::string set = "PRAGMA user_version = " + std::to_string(schema_version);
        db.exec(set.c_str());
    }
    tx.commit();
}

void SqliteStore::forget_requests_in_flight() {
    batched([&](Connection& connection) {
        Connection* db = &connection;
        Query(*db, "DELETE FROM idempotency_keys WHERE status IS NULL").run();
    });
}

void SqliteStore::check() {
    auto db = lease();
    Query q(*db, "SELECT COUNT(*) FROM accounts");
    q.step();
}

// --- Accounts --------------------------------------------------------------------------------

Credentials SqliteStore::create_credentials(const AccountSetup& setup, Time now) {
    return batched([&](Connection& connection) -> Credentials {
        Connection* db = &connection;
        Transaction tx(*db);
        const std::string created = timestamp_text(now);

        std::optional<Uuid> account;
        {
            Query q(*db, "SELECT id FROM accounts WHERE name = ?");
            q.bind(1, setup.name);
            if (q.step()) account = parse_column<Uuid>(q.text(0), "account id");
        }
        const bool new_account = !account;
        if (new_account) {
            account = new_uuid();
            Query(*db, "INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)")
                .bind(1, account->view())
                .bind(2, setup.name)
                .bind(3, created)
                .run();
        }
        if (new_account || setup.window) {
            const compliance::RespectfulHours window =
                setup.window.value_or(compliance::RespectfulHours{});
            Query(
                *db,
                "UPDATE accounts SET window_start_minutes = ?, window_end_minutes = ? WHERE id = ?")
                .bind(1, static_cast<std::int64_t>(window.start.count()))
                .bind(2, static_cast<std::int64_t>(window.end.count()))
                .bind(3, account->view())
                .run();
        }
        if (setup.policy) {
            Query(*db, "UPDATE accounts SET compliance_policy = ? WHERE id = ?")
                .bind(1, enum_name(*setup.policy))
                .bind(2, account->view())
                .run();
        }
        for (const DripCampaignDefinition& campaign : setup.campaigns) {
            Query(*db,
                  "INSERT INTO drip_campaigns (account_id, name, steps) VALUES (?, ?, ?) "
                  "ON CONFLICT (account_id, name) DO UPDATE SET steps = excluded.steps")
                .bind(1, account->view())
                .bind(2, campaign.name)
                .bind(3, write(campaign.steps))
                .run();
        }
        if (new_account) {
            // The schema's column defaults are those of version 1; a new account always gets
            // the library's.
            Query(*db, "UPDATE accounts SET max_calls_per_day = ? WHERE id = ?")
                .bind(1, static_cast<std::int64_t>(compliance::default_max_calls_per_day))
                .bind(2, account->view())
                .run();
        }
        std::vector<E164> numbers = setup.caller_numbers;
        if (numbers.empty() && setup.fallback_caller_number) {
            Query q(*db, "SELECT EXISTS (SELECT 1 FROM caller_numbers WHERE account_id = ?)");
            q.bind(1, account->view());
            if (q.step() && q.integer(0) == 0) numbers.push_back(*setup.fallback_caller_number);
        }
        for (const E164& number : numbers) {
            Query(*db,
                  "INSERT INTO caller_numbers (account_id, position, number) VALUES (?1, "
                  "(SELECT COALESCE(MAX(position), 0) + 1 FROM caller_numbers WHERE account_id = "
                  "?1), "
                  "?2) ON CONFLICT DO NOTHING")
                .bind(1, account->view())
                .bind(2, number.view())
                .run();
        }

        const ApiKey key = generate_api_key();
        Query(*db,
              "INSERT INTO api_keys (key_id, account_id, key_hash, created_at) VALUES (?, ?, ?, ?)")
            .bind(1, key.key_id)
            .bind(2, account->view())
            .bind_blob(3, key.hash)
            .bind(4, created)
            .run();
        const Uuid agent = new_uuid();
        Query(*db, "INSERT INTO agents (id, account_id, created_at) VALUES (?, ?, ?)")
            .bind(1, agent.view())
            .bind(2, account->view())
            .bind(3, created)
            .run();
        tx.commit();
        return Credentials{*account, key.text, std::string(agent.view())};
    });
}

bool SqliteStore::has_accounts() {
    auto db = lease();
    Query q(*db, "SELECT EXISTS (SELECT 1 FROM accounts)");
    return q.step() && q.integer(0) != 0;
}

std::optional<KeyRecord> SqliteStore::find_api_key(std::string_view key_id) {
    const auto now = std::chrono::steady_clock::now();
    {
        std::shared_lock lock(keys_mutex_);
        if (const auto known = known_keys_.find(key_id);
            known != known_keys_.end() && now < known->second.until)
            return known->second.record;
    }
    KeyRecord record;
    {
        auto db = lease();
        Query q(*db, "SELECT account_id, key_hash FROM api_keys WHERE key_id = ?");
        q.bind(1, key_id);
        if (!q.step()) return std::nullopt;
        record.account_id = parse_column<Uuid>(q.text(0), "account id");
        const auto hash = q.blob(1);
        if (hash.size() != record.hash.size()) corrupt("key hash");
        std::copy(hash.begin(), hash.end(), record.hash.begin());
    }
    std::unique_lock lock(keys_mutex_);
    if (known_keys_.size() >= max_known_keys) known_keys_.clear();
    known_keys_.insert_or_assign(std::string(key_id), KnownKey{record, now + known_key_lifetime});
    return record;
}

bool SqliteStore::agent_assigned(const Uuid& account, std::string_view agent) {
    auto db = lease();
    Query q(*db, "SELECT 1 FROM agents WHERE id = ? AND account_id = ?");
    q.bind(1, agent).bind(2, account.view());
    return q.step();
}

AccountSettings SqliteStore::account_settings(const Uuid& account) {
    auto db = lease();
    AccountSettings settings;
    {
        Query q(*db, "SELECT " COLLECTCALL_ACCOUNT_SETTINGS_COLUMNS " FROM accounts WHERE id = ?");
        q.bind(1, account.view());
        if (q.step()) settings_from_row(q, settings);
    }
    Query q(*db, "SELECT number FROM caller_numbers WHERE account_id = ? ORDER BY position");
    q.bind(1, account.view());
    while (q.step())
        settings.caller_numbers.push_back(parse_column<E164>(q.text(0), "number"));
    return settings;
}

Account SqliteStore::account(const Uuid& id) {
    std::string name;
    {
        auto db = lease();
        Query q(*db, "SELECT name FROM accounts WHERE id = ?");
        q.bind(1, id.view());
        if (q.step()) name = std::string(q.text(0));
    }
    Account out = account_view(id, std::move(name), account_settings(id));
    auto db = lease();
    Query q(*db, "SELECT name, steps FROM drip_campaigns WHERE account_id = ? ORDER BY name");
    q.bind(1, id.view());
    while (q.step())
        out.dripCampaigns.push_back(campaign_from_row(q));
    return out;
}

std::vector<ComplianceDecision> SqliteStore::list_compliance_decisions(const Uuid& account,
                                                                       const Uuid& customer,
                                                                       std::size_t limit) {
    auto db = lease();
    Query q(*db, list_decisions_sql);
    q.bind(1, account.view()).bind(2, customer.view()).bind(3, static_cast<std::int64_t>(limit));
    std::vector<ComplianceDecision> out;
    while (q.step()) {
        out.push_back(decision_from_columns(q.text(0), q.text(1)));
    }
    return out;
}

// --- Customers -------------------------------------------------------------------------------

bool SqliteStore::insert_customer(const Uuid& account, const StoredCustomer& customer) {
    CustomerBodies& bodies = CustomerBodies::write(std::span(&customer, 1));
    return batched([&](Connection& connection) -> bool {
        Connection* db = &connection;
        Query q(*db, insert_customers_sql(1));
        bind_customer_insert(q, 0, account, customer, bodies[0]);
        q.run();
        return (*db).changes() == 1;
    });
}

std::vector<bool> SqliteStore::insert_customers(const Uuid& account,
                                                std::span<const StoredCustomer> customers) {
    CustomerBodies& bodies = CustomerBodies::write(customers);
    std::vector<bool> created = batched([&](Connection& connection) -> std::vector<bool> {
        Connection* db = &connection;
        std::vector<bool> inserted;
        inserted.reserve(customers.size());
        Transaction tx(*db);
        // Several rows per INSERT (max_rows_per_insert). When a statement inserts fewer rows than
        // it has, some were duplicates: a row is there under its new id only if this statement
        // put it there.
        for (std::size_t i = 0; i < customers.size();) {
            const std::size_t rows =
                std::bit_floor(std::min(max_rows_per_insert, customers.size() - i));
            {
                Query q(*db, insert_customers_sql(rows));
                for (std::size_t row = 0; row < rows; ++row)
                    bind_customer_insert(q, row, account, customers[i + row], bodies[i + row]);
                q.run();
            }
            if (static_cast<std::size_t>((*db).changes()) == rows) {
                inserted.insert(inserted.end(), rows, true);
            } else {
                for (std::size_t row = 0; row < rows; ++row) {
                    Query q(*db, "SELECT 1 FROM customers WHERE id = ?");
                    q.bind(1, customers[i + row].customer.id.view());
                    inserted.push_back(q.step());
                }
            }
            i += rows;
        }
        tx.commit();
        return inserted;
    });
    bodies.release_if_large();
    return created;
}

std::optional<StoredCustomer> SqliteStore::find_customer(const Uuid& account, const Uuid& id) {
    auto db = lease();
    Query q(*db, "SELECT " COLLECTCALL_CUSTOMER_COLUMNS
                 " FROM customers WHERE id = ? AND account_id = ?");
    q.bind(1, id.view()).bind(2, account.view());
    if (!q.step()) return std::nullopt;
    return customer_from_row(q);
}

std::optional<StoredCustomer> SqliteStore::find_customer_by_external_id(
    const Uuid& account, std::string_view external_id) {
    auto db = lease();
    Query q(*db, "SELECT " COLLECTCALL_CUSTOMER_COLUMNS
                 " FROM customers WHERE account_id = ? AND external_id = ?");
    q.bind(1, account.view()).bind(2, external_id);
    if (!q.step()) return std::nullopt;
    return customer_from_row(q);
}

namespace {

// A change of the customer's standing, in the caller's transaction: the customer and the record
// of the change are written together; nullopt when there is no such customer.
std::optional<StoredCustomer> change_standing_in(Connection& db, const Uuid& account,
                                                 const Uuid& id, const StandingChanger& change) {
    std::optional<StoredCustomer> stored = customer_for_update(db, account, id);
    if (!stored) return std::nullopt;
    if (const std::optional<ComplianceDecision> record = change(*stored)) {
        update_customer_row(db, account, *stored);
        insert_decision(db, account, id, *record);
    }
    return stored;
}

}  // namespace

std::optional<StoredCustomer> SqliteStore::change_standing(const Uuid& account, const Uuid& id,
                                                           const StandingChanger& change) {
    return batched([&](Connection& db) -> std::optional<StoredCustomer> {
        Transaction tx(db);
        std::optional<StoredCustomer> stored = change_standing_in(db, account, id, change);
        if (stored) tx.commit();
        return stored;
    });
}

std::optional<StoredCustomer> SqliteStore::update_customer(
    const Uuid& account, const Uuid& id, const std::function<bool(StoredCustomer&)>& change) {
    return batched([&](Connection& db) -> std::optional<StoredCustomer> {
        Transaction tx(db);
        std::optional<StoredCustomer> stored = customer_for_update(db, account, id);
        if (!stored) return std::nullopt;
        if (change(*stored)) {
            update_customer_row(db, account, *stored);
            tx.commit();
        }
        return stored;
    });
}

// --- Calls -----------------------------------------------------------------------------------

std::optional<CallPlan> SqliteStore::place_call(const Uuid& account, const Uuid& customer,
                                                Time since, const CallDecider& decide) {
    return batched([&](Connection& connection) -> std::optional<CallPlan> {
        Connection* db = &connection;
        // The write lock is held from the count to the insert: concurrent calls to one customer are
        // decided one after the other, so the daily limit cannot be overrun by a race.
        Transaction tx(*db);
        const std::optional<StoredCustomer> stored = customer_for_update(*db, account, customer);
        if (!stored) return std::nullopt;
        const ContactHistory history = contact_history(*db, account, customer, since);
        CallPlan plan = decide(*stored, history);
        if (!plan.place) {
            insert_decision(*db, account, customer, plan.decision);
            tx.commit();  // the decision alone
            return plan;
        }

        insert_call(*db, account, customer, plan);
        tx.commit();
        return plan;
    });
}

// --- Drip campaigns ----------------------------------------------------------------------------

std::optional<DripEnrolResult> SqliteStore::enrol_drip(const Uuid& account, const Uuid& customer,
                                                       std::string_view campaign, Time since,
                                                       const DripEnrolDecider& decide) {
    return batched([&](Connection& db) -> std::optional<DripEnrolResult> {
        Transaction tx(db);
        const std::optional<StoredCustomer> stored = customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        DripEnrolResult result;
        {
            Query q(db,
                    "SELECT 1 FROM drip_enrolments WHERE account_id = ? AND customer_id = ? AND "
                    "name = ? AND status = 'in-progress'");
            q.bind(1, account.view()).bind(2, customer.view()).bind(3, campaign);
            result.already_enrolled = q.step();
        }
        if (result.already_enrolled) return result;
        result.plan = decide(*stored, contact_history(db, account, customer, since));
        if (!result.plan.store) {
            if (result.plan.decision) {
                insert_decision(db, account, customer, *result.plan.decision);
                tx.commit();  // the refusal's record alone
            }
            return result;
        }
        const DripEnrolment& e = result.plan.enrolment;
        Query insert(db,
                     "INSERT INTO drip_enrolments (id, account_id, customer_id, name, status, "
                     "next_ms, webhook_url, webhook_secret_id, body) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, e.id.view())
            .bind(2, account.view())
            .bind(3, customer.view())
            .bind(4, e.name)
            .bind(5, enum_name(e.status))
            .bind(9, write(e));
        if (const auto next = enrolment_next_ms(e)) insert.bind(6, *next);
        if (const auto& webhook = result.plan.webhook) {
            insert.bind(7, webhook->url.view());
            if (webhook->secretId) insert.bind(8, webhook->secretId->view());
        }
        insert.run();
        tx.commit();
        return result;
    });
}

std::vector<DripEnrolment> SqliteStore::list_drip_enrolments(const Uuid& account,
                                                             const Uuid& customer) {
    auto db = lease();
    Query q(*db,
            "SELECT body FROM drip_enrolments WHERE account_id = ? AND customer_id = ? "
            "ORDER BY seq DESC");
    q.bind(1, account.view()).bind(2, customer.view());
    std::vector<DripEnrolment> out;
    while (q.step())
        out.push_back(enrolment_from_column(q.text(0)));
    return out;
}

std::optional<DripEnrolment> SqliteStore::update_drip_enrolment(
    const Uuid& account, const Uuid& customer, const Uuid& id,
    const std::function<bool(DripEnrolment&)>& change) {
    return batched([&](Connection& db) -> std::optional<DripEnrolment> {
        Transaction tx(db);
        Query q(db,
                "SELECT body FROM drip_enrolments WHERE id = ? AND account_id = ? AND "
                "customer_id = ?");
        q.bind(1, id.view()).bind(2, account.view()).bind(3, customer.view());
        if (!q.step()) return std::nullopt;
        DripEnrolment enrolment = enrolment_from_column(q.text(0));
        if (change(enrolment)) {
            update_enrolment_row(db, enrolment);
            tx.commit();
        }
        return enrolment;
    });
}

std::vector<DueEnrolment> SqliteStore::due_drip_enrolments(Time now, std::size_t limit) {
    auto db = lease();
    Query q(*db,
            // Accounts in turn (Store::due_drip_enrolments): each account's soonest, then each
            // one's second, ...
            "SELECT account_id, id, customer_id FROM (SELECT account_id, id, customer_id, "
            "next_ms, seq, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY next_ms, seq) "
            "AS turn FROM drip_enrolments WHERE status = 'in-progress' AND next_ms <= ?) AS due "
            "ORDER BY turn, next_ms, seq LIMIT ?");
    q.bind(1, to_ms(now)).bind(2, static_cast<std::int64_t>(limit));
    std::vector<DueEnrolment> out;
    while (q.step()) {
        out.push_back(DueEnrolment{parse_column<Uuid>(q.text(0), "account id"),
                                   parse_column<Uuid>(q.text(1), "enrolment id"),
                                   parse_column<Uuid>(q.text(2), "customer id")});
    }
    return out;
}

std::optional<DripStepPlan> SqliteStore::run_drip_step(const Uuid& account, const Uuid& enrolment,
                                                       Time now, Time since,
                                                       const DripStepRunner& run) {
    return batched([&](Connection& db) -> std::optional<DripStepPlan> {
        // The writer's transaction: no other write, of this process or another, runs between
        // the check that the step is due and the commit of what it made.
        Transaction tx(db);
        Query q(db,
                "SELECT customer_id, body, webhook_url, webhook_secret_id FROM drip_enrolments "
                "WHERE id = ? AND account_id = ? AND status = 'in-progress' AND next_ms <= ?");
        q.bind(1, enrolment.view()).bind(2, account.view()).bind(3, to_ms(now));
        if (!q.step()) return std::nullopt;
        const Uuid customer = parse_column<Uuid>(q.text(0), "customer id");
        DripEnrolment e = enrolment_from_column(q.text(1));
        const std::optional<Webhook> webhook = webhook_from_row(q, 2, 3);
        const std::optional<StoredCustomer> stored = customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        DripStepPlan plan = run(e, *stored, contact_history(db, account, customer, since), webhook);
        // A call placed keeps its decision in its own row.
        if (plan.call) {
            insert_call(db, account, customer, *plan.call);
        } else if (plan.decision) {
            insert_decision(db, account, customer, *plan.decision);
        }
        if (plan.sms) insert_interaction(db, account, customer, *plan.sms);
        if (plan.event) {
            Query(db,
                  "INSERT INTO webhook_outbox (message_id, drip_id, event_seq, body) SELECT "
                  "'msg_' || lower(hex(randomblob(16))), id, (SELECT COUNT(*) FROM "
                  "webhook_outbox WHERE drip_id = ?1), ?2 FROM drip_enrolments WHERE id = ?1 "
                  "AND webhook_url IS NOT NULL")
                .bind(1, enrolment.view())
                .bind(2, *plan.event)
                .run();
        }
        update_enrolment_row(db, e);
        tx.commit();
        return plan;
    });
}

std::optional<CallDetails> SqliteStore::find_call(const Uuid& account, const Uuid& id) {
    auto db = lease();
    Query q(*db, "SELECT " COLLECTCALL_CALL_COLUMNS " FROM calls WHERE id = ? AND account_id = ?");
    q.bind(1, id.view()).bind(2, account.view());
    if (!q.step()) return std::nullopt;
    return call_from_query(*db, q);
}

std::vector<CallDetails> SqliteStore::list_calls(const Uuid& account, const Uuid& customer) {
    auto db = lease();
    std::vector<CallDetails> calls;
    Query q(*db, "SELECT " COLLECTCALL_CALL_COLUMNS
                 " FROM calls WHERE account_id = ? AND "
                 "customer_id = ? ORDER BY created_ms DESC, seq DESC");
    q.bind(1, account.view()).bind(2, customer.view());
    while (q.step())
        calls.push_back(call_from_query(*db, q));
    return calls;
}

bool SqliteStore::end_call(const Uuid& account, const Uuid& id, CallStatus status,
                           EndedReason ended_reason, std::int64_t duration_ms,
                           std::string_view transcript, Time at) {
    return batched([&](Connection& connection) -> bool {
        Connection* db = &connection;
        Transaction tx(*db);
        Query(*db,
              "UPDATE calls SET status = ?, ended_reason = ?, duration_ms = ?, transcript = ?, "
              "conversation = ? WHERE id = ? AND account_id = ? AND status = 'in-progress'")
            .bind(1, enum_name(status))
            .bind(2, enum_name(ended_reason))
            .bind(3, duration_ms)
            .bind(4, transcript)
            .bind(5, std::int64_t{conversation_from_column(transcript)})
            .bind(6, id.view())
            .bind(7, account.view())
            .run();
        if ((*db).changes() != 1) return false;
        insert_event(*db, id.view(), CallEventType::call_ended, at);
        Query(*db,
              "UPDATE customers SET last_activity_ms = max(coalesce(last_activity_ms, ?1), ?1) "
              "WHERE id = (SELECT customer_id FROM calls WHERE id = ?2)")
            .bind(1, to_ms(at))
            .bind(2, id.view())
            .run();
        tx.commit();
        return true;
    });
}

std::vector<CallInProgress> SqliteStore::calls_in_progress() {
    auto db = lease();
    std::vector<CallInProgress> calls;
    Query q(*db, "SELECT account_id, id FROM calls WHERE status = 'in-progress' ORDER BY seq");
    while (q.step()) {
        calls.push_back(CallInProgress{parse_column<Uuid>(q.text(0), "account id"),
                                       parse_column<Uuid>(q.text(1), "call id")});
    }
    return calls;
}

// --- Clients, interactions, analyses ----------------------------------------------------------

ClientInsert SqliteStore::insert_client(const Uuid& account, const Client& client, Time now) {
    return batched([&](Connection& db) {
        Query owner(db, "SELECT account_id FROM clients WHERE id = ?");
        owner.bind(1, client.id.view());
        if (owner.step()) {
            if (owner.text(0) != account.view()) return ClientInsert::taken;
            Query(db, "UPDATE clients SET name = ? WHERE id = ?")
                .bind(1, client.name.view())
                .bind(2, client.id.view())
                .run();
            return ClientInsert::renamed;
        }
        Query(db, "INSERT INTO clients (id, account_id, name, created_at) VALUES (?, ?, ?, ?)")
            .bind(1, client.id.view())
            .bind(2, account.view())
            .bind(3, client.name.view())
            .bind(4, timestamp_text(now))
            .run();
        return ClientInsert::inserted;
    });
}

std::vector<Client> SqliteStore::list_clients(const Uuid& account) {
    auto db = lease();
    std::vector<Client> clients;
    Query q(*db, "SELECT id, name FROM clients WHERE account_id = ? ORDER BY seq");
    q.bind(1, account.view());
    while (q.step())
        clients.push_back(client_from_row(q));
    return clients;
}

bool SqliteStore::has_client(const Uuid& account, const Uuid& id) {
    auto db = lease();
    Query q(*db, "SELECT 1 FROM clients WHERE id = ? AND account_id = ?");
    q.bind(1, id.view()).bind(2, account.view());
    return q.step();
}

void SqliteStore::insert_interactions(const Uuid& account, const Uuid& customer,
                                      std::span<const InteractionRecord> records,
                                      const StandingChanger& standing) {
    batched([&](Connection& db) {
        Transaction tx(db);
        for (const InteractionRecord& record : records)
            insert_interaction(db, account, customer, record);
        if (standing) (void)change_standing_in(db, account, customer, standing);
        tx.commit();
    });
}

std::optional<InteractionRecord> SqliteStore::find_interaction(const Uuid& account,
                                                               const Uuid& id) {
    auto db = lease();
    Query q(*db, "SELECT " COLLECTCALL_INTERACTION_COLUMNS
                 " FROM interactions WHERE id = ? AND account_id = ?");
    q.bind(1, id.view()).bind(2, account.view());
    if (!q.step()) return std::nullopt;
    return interaction_from_row(q);
}

std::vector<InteractionRecord> SqliteStore::list_interactions(const Uuid& account,
                                                              const Uuid& customer) {
    auto db = lease();
    std::vector<InteractionRecord> records;
    Query q(*db, "SELECT " COLLECTCALL_INTERACTION_COLUMNS
                 " FROM interactions WHERE account_id = ? AND customer_id = ? "
                 "ORDER BY timestamp_ms DESC, seq DESC");
    q.bind(1, account.view()).bind(2, customer.view());
    while (q.step())
        records.push_back(interaction_from_row(q));
    return records;
}

std::optional<InteractionRecord> SqliteStore::last_inbound_interaction(const Uuid& account,
                                                                       const Uuid& thread) {
    auto db = lease();
    Query q(*db, "SELECT " COLLECTCALL_INTERACTION_COLUMNS
                 " FROM interactions WHERE account_id = ? AND thread_id = ? AND "
                 "direction = 'inbound' ORDER BY timestamp_ms DESC, seq DESC LIMIT 1");
    q.bind(1, account.view()).bind(2, thread.view());
    if (!q.step()) return std::nullopt;
    return interaction_from_row(q);
}

std::optional<InteractionPlan> SqliteStore::record_interaction(const Uuid& account,
                                                               const Uuid& customer, Time since,
                                                               const InteractionDecider& decide) {
    return batched([&](Connection& db) -> std::optional<InteractionPlan> {
        // As place_call: the write lock is held from the counts to the insert.
        Transaction tx(db);
        const std::optional<StoredCustomer> stored = customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        const std::vector<Time> calls = times_since(db, placed_calls_sql, account, customer, since);
        const std::vector<Time> texts = times_since(db, sent_texts_sql, account, customer, since);
        InteractionPlan plan = decide(*stored, calls, texts);
        if (plan.decision) insert_decision(db, account, customer, *plan.decision);
        if (!plan.store) {
            if (plan.decision) tx.commit();  // the decision alone
            return plan;
        }
        insert_interaction(db, account, customer, plan.record);
        tx.commit();
        return plan;
    });
}

std::optional<std::string> SqliteStore::find_call_transcript(const Uuid& account,
                                                             const Uuid& call) {
    auto db = lease();
    Query q(*db, "SELECT transcript FROM calls WHERE id = ? AND account_id = ?");
    q.bind(1, call.view()).bind(2, account.view());
    if (!q.step() || q.is_null(0)) return std::nullopt;
    return std::string(q.text(0));
}

StoredAnalysis SqliteStore::save_analysis(const Uuid& account, const StoredAnalysis& analysis,
                                          const OutcomeApplier& apply) {
    return batched([&](Connection& db) {
        Transaction tx(db);
        Query(db,
              "INSERT INTO analyses (interaction_id, account_id, customer_id, channel, variables, "
              "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
            .bind(1, analysis.interaction_id.view())
            .bind(2, account.view())
            .bind(3, analysis.customer_id.view())
            .bind(4, enum_name(analysis.channel))
            .bind(5, write(analysis.variables))
            .bind(6, timestamp_text(analysis.analysed_at))
            .run();
        Query q(db, "SELECT " COLLECTCALL_ANALYSIS_COLUMNS
                    " FROM analyses WHERE interaction_id = ? AND account_id = ?");
        q.bind(1, analysis.interaction_id.view()).bind(2, account.view());
        if (!q.step()) throw StoreError("analysis missing after insert", false);
        StoredAnalysis stored = analysis_from_row(q);
        if (apply && !stored.outcomes_applied) {
            (void)change_standing_in(db, account, stored.customer_id,
                                     [&](StoredCustomer& c) { return apply(c, stored.variables); });
            Query(db, "UPDATE analyses SET outcomes_applied = 1 WHERE interaction_id = ?")
                .bind(1, stored.interaction_id.view())
                .run();
            stored.outcomes_applied = true;
        }
        tx.commit();
        return stored;
    });
}

// --- Webhook secrets -------------------------------------------------------------------------

SecretInsert SqliteStore::insert_webhook_secret(const Uuid& account, const Uuid& id,
                                                std::string_view secret, Time now) {
    return batched([&](Connection& connection) {
        Connection* db = &connection;
        Query owner(*db, "SELECT account_id FROM webhook_secrets WHERE id = ?");
        owner.bind(1, id.view());
        if (owner.step()) {
            if (owner.text(0) != account.view()) return SecretInsert::taken;
            Query(*db, "UPDATE webhook_secrets SET secret = ? WHERE id = ?")
                .bind(1, secret)
                .bind(2, id.view())
                .run();
            return SecretInsert::replaced;
        }
        Query(
            *db,
            "INSERT INTO webhook_secrets (id, account_id, secret, created_at) VALUES (?, ?, ?, ?)")
            .bind(1, id.view())
            .bind(2, account.view())
            .bind(3, secret)
            .bind(4, timestamp_text(now))
            .run();
        return SecretInsert::inserted;
    });
}

std::string SqliteStore::server_key(std::string_view name, std::string_view candidate) {
    return batched([&](Connection& connection) {
        Query(connection,
              "INSERT INTO server_keys (name, key) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .bind(1, name)
            .bind(2, candidate)
            .run();
        Query q(connection, "SELECT key FROM server_keys WHERE name = ?");
        q.bind(1, name);
        if (!q.step()) throw StoreError("server key missing after insert", false);
        return std::string(q.text(0));
    });
}

std::optional<std::string> SqliteStore::find_webhook_secret(const Uuid& account, const Uuid& id) {
    auto db = lease();
    Query q(*db, "SELECT secret FROM webhook_secrets WHERE id = ? AND account_id = ?");
    q.bind(1, id.view()).bind(2, account.view());
    if (!q.step()) return std::nullopt;
    return std::string(q.text(0));
}

// --- Idempotency -----------------------------------------------------------------------------

IdempotencyBegin SqliteStore::begin_idempotent(const Uuid& account, std::string_view key,
                                               const Sha256& fingerprint, Time now) {
    IdempotencyBegin begun = batched([&](Connection& connection) -> IdempotencyBegin {
        Connection* db = &connection;
        Transaction tx(*db);
        {
            Query q(*db,
                    "SELECT fingerprint, created_ms, status, response, request_id "
                    "FROM idempotency_keys WHERE account_id = ? AND key = ?");
            q.bind(1, account.view()).bind(2, key);
            if (q.step() && q.integer(1) > to_ms(now) - idempotency_lifetime_ms) {
                IdempotencyBegin result;
                if (!equal_constant_time(q.blob(0), fingerprint)) {
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
        Query(*db,
              "INSERT OR REPLACE INTO idempotency_keys (account_id, key, fingerprint, created_ms) "
              "VALUES (?, ?, ?, ?)")
            .bind(1, account.view())
            .bind(2, key)
            .bind_blob(3, fingerprint)
            .bind(4, to_ms(now))
            .run();
        // Expired keys of the account go with the next new one: the table stays bounded by the
        // traffic of one day without a background sweeper.
        Query(*db, "DELETE FROM idempotency_keys WHERE account_id = ? AND created_ms <= ?")
            .bind(1, account.view())
            .bind(2, to_ms(now) - idempotency_lifetime_ms)
            .run();
        tx.commit();
        return IdempotencyBegin{IdempotencyState::started, {}, {}};
    });
    // From here the request's writes and the recording of its answer are one transaction.
    if (begun.state == IdempotencyState::started) {
        begun.store.reset(new SqliteStore(shared_, writer_->begin_request()));
    }
    return begun;
}

void SqliteStore::finish_idempotent(const Uuid& account, std::string_view key,
                                    const StoredResponse& response) {
    batched([&](Connection& connection) {
        Connection* db = &connection;
        Query(*db,
              "UPDATE idempotency_keys SET status = ?, response = ?, request_id = ? "
              "WHERE account_id = ? AND key = ?")
            .bind(1, std::int64_t{response.status})
            .bind(2, response.body)
            .bind(3, response.request_id)
            .bind(4, account.view())
            .bind(5, key)
            .run();
    });
    if (request_) writer_->commit_request(*request_);
    request_.reset();
}

void SqliteStore::abandon_idempotent(const Uuid& account, std::string_view key) {
    request_.reset();  // the request's writes go with its key
    batched([&](Connection& connection) {
        Connection* db = &connection;
        Query(*db,
              "DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status IS NULL")
            .bind(1, account.view())
            .bind(2, key)
            .run();
    });
}

// --- Retention -------------------------------------------------------------------------------

namespace {

// Deletes, in the caller's transaction, as many of `customer`'s records as `batch` has room for
// (each record whole: see RetentionBatch), the oldest first.
void sweep_customer(Connection& db, std::string_view account, std::string_view customer,
                    RetentionBatch& batch) {
    // Runs `sql` (?1 account, ?2 customer, ?3 how many records) and gives how many rows went.
    const auto run = [&](const char* sql, std::int64_t records) -> std::int64_t {
        Query(db, sql).bind(1, account).bind(2, customer).bind(3, records).run();
        return db.changes();
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

std::int64_t SqliteStore::sweep(Time now) {
    // Rows of one table older than an instant, retention_batch_rows per transaction (rowid
    // order, which is about the order they were made in).
    const auto older = [&](const char* sql, const auto& before) {
        return sweep_in_chunks([&] {
            return batched([&](Connection& db) -> SweepChunk {
                Query(db, sql).bind(1, before).bind(2, retention_batch_rows).run();
                const std::int64_t deleted = db.changes();
                return SweepChunk{deleted, deleted == retention_batch_rows};
            });
        });
    };
    std::int64_t swept = older(
        "DELETE FROM call_events WHERE rowid IN (SELECT rowid FROM call_events e WHERE "
        "e.created_at < ? AND NOT EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.call_id = "
        "e.call_id AND o.event_seq = e.seq) LIMIT ?)",
        timestamp_text(now - webhook::outbox_retention));
    swept += older(
        "DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE "
        "created_ms < ? LIMIT ?)",
        to_ms(now) - idempotency_lifetime_ms);

    // The records of the customers whose last activity is older than the retention, customer
    // after customer (the longest inactive first), a batch of rows per transaction.
    const std::int64_t expired = to_ms(compliance::records_expire_before(now));
    swept += sweep_in_chunks([&] {
        return batched([&](Connection& db) -> SweepChunk {
            Transaction tx(db);
            RetentionBatch batch;
            SweepChunk out;
            while (!batch.full()) {
                std::string account;
                std::string customer;
                {
                    Query q(db,
                            "SELECT account_id, id FROM customers WHERE last_activity_ms < ? "
                            "ORDER BY last_activity_ms LIMIT 1");
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
            out.more = batch.full() || !batch.customer_emptied();
            out.deleted = batch.deleted();
            tx.commit();
            return out;
        });
    });
    return swept;
}

}  // namespace collectcall::server
