#include "sqlite_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "columns.hpp"
#include "sqlite_checkpointer.hpp"
#include "sqlite_writer.hpp"
#include "webhook_outbox.hpp"

namespace collectcall::server {

namespace {

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

// Each entry moves the schema from version i to i + 1: versions 1 to 9, as released. A new version
// is an entry of sql/migrations.hpp, written once for both backends.
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
    // 8 -> 9: the daily budget of stored rows (API.md section 17): each account's budget
    // (`init --daily-rows`; an account made before gets 1,000,000, the default of this version;
    // init sets the library's on a new one) and its counter, one row per account with the count
    // of its latest UTC day (days since 1970-01-01), written in the transaction of the rows it
    // counts. And the customers of a thread, which a threadId given to an import or a generated
    // message is checked against (the customer's own thread: API.md section 17).
    R"sql(
ALTER TABLE accounts ADD COLUMN daily_rows INTEGER NOT NULL DEFAULT 1000000;
CREATE TABLE daily_row_counts (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    day INTEGER NOT NULL,
    stored INTEGER NOT NULL
) STRICT;
INSERT INTO daily_row_counts (account_id, day, stored) SELECT id, 0, 0 FROM accounts;
CREATE INDEX interactions_by_thread_customer ON interactions (account_id, thread_id, customer_id);
)sql",
};

static_assert(std::size(migrations) == sql::backend_migrations);

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

void SqliteStore::batched(const SqliteWriter::Work& work) {
    writer_->write(work, request_.get());
}

void SqliteStore::run_read(sql::Work work) {
    auto connection = lease();
    sqlite::Db db(*connection);
    work(db);
}

void SqliteStore::run_write(sql::Work work) {
    batched([&](Connection& connection) {
        sqlite::Db db(connection);
        work(db);
    });
}

void SqliteStore::run_transaction(sql::Work work) {
    batched([&](Connection& connection) {
        // Inside the writer's batch, a savepoint: the write lock is held from the first read to
        // the commit, so what the work decides on is what it writes over.
        Transaction tx(connection);
        sqlite::Db db(connection);
        work(db);
        tx.commit();
    });
}

std::unique_ptr<SqlStore> SqliteStore::begin_request() {
    return std::unique_ptr<SqlStore>(new SqliteStore(shared_, writer_->begin_request()));
}

void SqliteStore::commit_request() {
    if (request_) writer_->commit_request(*request_);
    request_.reset();
}

void SqliteStore::rollback_request() {
    request_.reset();
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
    writer_ = std::make_unique<SqliteWriter>(std::move(writer),
                                             std::chrono::milliseconds(options_.request_hold_ms));
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
        if (v < sql::backend_migrations) {
            db.exec(migrations[v]);
        } else {
            db.exec(sql::shared_migration(v, sql::Dialect::sqlite).c_str());
        }
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

}  // namespace collectcall::server
