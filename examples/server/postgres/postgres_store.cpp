#include "postgres_store.hpp"

#include <algorithm>
#include <iostream>
#include <thread>
#include <utility>

#include "columns.hpp"
#include "webhook_outbox.hpp"

namespace collectcall::server {

namespace {

using pg::Connection;
using pg::Result;

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
);
CREATE TABLE api_keys (
    key_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    key_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE agents (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    created_at TEXT NOT NULL
);
CREATE TABLE caller_numbers (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    position INTEGER NOT NULL,
    number TEXT NOT NULL,
    PRIMARY KEY (account_id, position),
    UNIQUE (account_id, number)
);
CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    external_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    cease_and_desist BOOLEAN NOT NULL DEFAULT FALSE,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX customers_by_external_id ON customers (account_id, external_id);
CREATE TABLE server_processes (
    id TEXT PRIMARY KEY,
    heartbeat TIMESTAMPTZ NOT NULL
);
CREATE TABLE calls (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    agent_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    to_number TEXT NOT NULL,
    from_number TEXT NOT NULL,
    compliance TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    status TEXT NOT NULL,
    ended_reason TEXT,
    duration_ms BIGINT,
    webhook_url TEXT,
    webhook_secret_id TEXT,
    owner TEXT
);
CREATE INDEX calls_by_customer ON calls (account_id, customer_id, created_ms);
CREATE INDEX calls_in_progress ON calls (seq) WHERE status = 'in-progress';
CREATE TABLE call_events (
    call_id TEXT NOT NULL REFERENCES calls(id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (call_id, seq)
);
CREATE TABLE webhook_secrets (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    status INTEGER,
    response TEXT,
    request_id TEXT,
    PRIMARY KEY (account_id, key)
);
CREATE TABLE webhook_outbox (
    seq BIGSERIAL PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    call_id TEXT NOT NULL REFERENCES calls(id),
    event_seq INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    done_ms BIGINT,
    lease_owner TEXT,
    lease_until TIMESTAMPTZ,
    UNIQUE (call_id, event_seq)
);
CREATE INDEX webhook_outbox_pending ON webhook_outbox (call_id, seq) WHERE state = 'pending';
)sql",
    // 1 -> 2: the requests each process counted per API key (SharedRateLimits).
    R"sql(
CREATE TABLE rate_counts (
    key_id TEXT NOT NULL,
    process TEXT NOT NULL,
    used BIGINT NOT NULL,
    updated TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (key_id, process)
);
)sql",
    // 2 -> 3: the same on both stores (webhook_outbox.hpp).
    outbox_attempts_migration,
    // 3 -> 4: a call's transcript (a JSON array, written when it ends), and the server's own
    // keys (the key of signed recording links, the same for every process).
    R"sql(
ALTER TABLE calls ADD COLUMN transcript TEXT;
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    key TEXT NOT NULL
);
)sql",
    // 4 -> 5: clients, SMS and e-mail interactions, their analyses, and what an analysis
    // records on the customer (API.md section 13).
    R"sql(
CREATE TABLE clients (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX clients_by_account ON clients (account_id, seq);
CREATE TABLE interactions (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    thread_id TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
    direction TEXT NOT NULL CHECK (direction IN ('inbound', 'outbound')),
    timestamp_ms BIGINT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX interactions_by_customer ON interactions (account_id, customer_id, timestamp_ms);
CREATE INDEX interactions_by_thread ON interactions (account_id, thread_id, timestamp_ms);
CREATE TABLE analyses (
    interaction_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    channel TEXT NOT NULL,
    variables TEXT NOT NULL,
    outcomes_applied BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TEXT NOT NULL
);
ALTER TABLE customers ADD COLUMN do_not_call BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN attorney_represented BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN disputed BOOLEAN NOT NULL DEFAULT FALSE;
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
    // rather than of a call (a drip-campaign.sms body stored as sent).
    R"sql(
ALTER TABLE accounts ADD COLUMN compliance_policy TEXT NOT NULL DEFAULT 'hosted';
CREATE TABLE drip_campaigns (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    steps TEXT NOT NULL,
    PRIMARY KEY (account_id, name)
);
CREATE TABLE compliance_decisions (
    seq BIGSERIAL PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    at_ms BIGINT NOT NULL,
    call_seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    compliance TEXT NOT NULL
);
CREATE INDEX compliance_decisions_by_customer
    ON compliance_decisions (account_id, customer_id, at_ms, seq);
CREATE INDEX compliance_decisions_by_time ON compliance_decisions (at_ms);
ALTER TABLE calls ADD COLUMN decision TEXT;
CREATE TABLE sweep_marks (name TEXT PRIMARY KEY, seq BIGINT NOT NULL);
ALTER TABLE calls ADD COLUMN conversation BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE calls SET conversation = TRUE WHERE transcript IS NOT NULL
    AND jsonb_path_exists(transcript::jsonb, '$[*] ? (@.role == "user")');
CREATE TABLE drip_enrolments (
    seq BIGSERIAL PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    next_ms BIGINT,
    webhook_url TEXT,
    webhook_secret_id TEXT,
    body TEXT NOT NULL
);
CREATE INDEX drip_enrolments_by_customer ON drip_enrolments (account_id, customer_id, seq);
CREATE INDEX drip_enrolments_due ON drip_enrolments (next_ms) WHERE status = 'in-progress';
ALTER TABLE calls ADD COLUMN drip_id TEXT;
ALTER TABLE webhook_outbox ALTER COLUMN call_id DROP NOT NULL;
ALTER TABLE webhook_outbox ADD COLUMN drip_id TEXT REFERENCES drip_enrolments(id);
ALTER TABLE webhook_outbox ADD COLUMN body TEXT;
ALTER TABLE webhook_outbox ADD CONSTRAINT webhook_outbox_subject
    CHECK ((call_id IS NULL) <> (drip_id IS NULL));
CREATE INDEX webhook_outbox_drip_pending ON webhook_outbox (drip_id, seq)
    WHERE state = 'pending';
)sql",
    // 6 -> 7: retention by the customer's last collection activity (compliance/retention.hpp).
    // customers.last_activity_ms is the instant of the customer's latest activity, set in the
    // transaction of each decision, call and interaction, and NULL when the customer has no
    // record to keep (never had one, or the sweep took them all); the sweep finds the customers
    // whose records are due by its index. It starts from the records already stored (an
    // interaction at the later of its timestamp and when it was stored). The sweep no longer
    // walks the calls by time: their mark and the decisions' index by time go.
    R"sql(
ALTER TABLE customers ADD COLUMN last_activity_ms BIGINT;
UPDATE customers SET last_activity_ms = GREATEST(
    (SELECT max(created_ms) FROM calls
        WHERE calls.account_id = customers.account_id AND calls.customer_id = customers.id),
    (SELECT max(at_ms) FROM compliance_decisions d
        WHERE d.account_id = customers.account_id AND d.customer_id = customers.id),
    (SELECT max(GREATEST(timestamp_ms,
            (extract(epoch FROM created_at::timestamptz) * 1000)::bigint))
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
UPDATE customers SET restricted_media = 1 WHERE do_not_call;
ALTER TABLE customers DROP COLUMN do_not_call;
)sql",
    // 8 -> 9: the daily budget of stored rows (API.md section 17): each account's budget
    // (`init --daily-rows`; an account made before gets 1,000,000, the default of this version;
    // init sets the library's on a new one) and its counter, one row per account with the count
    // of its latest UTC day (days since 1970-01-01), written in the transaction of the rows it
    // counts. And the customers of a thread, which a threadId given to an import or a generated
    // message is checked against (the customer's own thread: API.md section 17).
    R"sql(
ALTER TABLE accounts ADD COLUMN daily_rows BIGINT NOT NULL DEFAULT 1000000;
CREATE TABLE daily_row_counts (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    day BIGINT NOT NULL,
    stored BIGINT NOT NULL
);
INSERT INTO daily_row_counts (account_id, day, stored) SELECT id, 0, 0 FROM accounts;
CREATE INDEX interactions_by_thread_customer ON interactions (account_id, thread_id, customer_id);
)sql",
};

static_assert(std::size(migrations) == sql::backend_migrations);

}  // namespace

PostgresStore::Shared::Shared(PostgresOptions o)
    : options(std::move(o)),
      pool(options.uri, std::max<std::size_t>(2, options.pool_size)),
      counters(options.uri, 1),
      process_id(std::string(new_uuid().view())),
      writer(std::make_unique<PostgresWriter>(options.uri)) {}

PostgresStore::Shared::~Shared() {
    writer.reset();  // its writes count rows from the leases
    try {
        for (const sql::RowLeases::Charge& rest : row_leases.release()) {
            counters.transaction([&](Connection& connection) {
                pg::Db db(connection);
                sql::return_rows(db, rest.account, rest.rows);
                return true;
            });
        }
    } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): counted, never stored
    }
}

PostgresStore::PostgresStore(PostgresOptions options)
    : shared_(std::make_shared<Shared>(std::move(options))) {
    migrate();
}

PostgresStore::PostgresStore(std::shared_ptr<Shared> shared,
                             std::unique_ptr<pg::Pool::Pinned> request)
    : shared_(std::move(shared)), request_(std::move(request)) {}

PostgresStore::~PostgresStore() {
    // A request's store destroyed uncommitted: its transaction is rolled back.
    for (const sql::RowLeases::Charge& charge : request_charges_)
        shared_->row_leases.refund(charge);
    {
        std::lock_guard lock(heartbeat_mutex_);
        stopping_ = true;
    }
    heartbeat_wake_.notify_all();
    if (heartbeat_.joinable()) {
        heartbeat_.join();
        // Stopping cleanly: the calls in progress go to the other processes at once rather
        // than after the lease.
        try {
            auto db = pool_.lease();
            db->params().add(process_id_);
            db->query("DELETE FROM server_processes WHERE id = $1");
        } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): leases run out
        }
    }
}

void PostgresStore::migrate() {
    auto db = pool_.lease();
    // One process migrates at a time (per schema: the lock's key is the schema's name); the
    // others wait and then find the schema up to date.
    db->exec("SELECT pg_advisory_lock(7213, hashtext(current_schema()))");
    try {
        db->exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
        std::int64_t version = 0;
        {
            const Result r = db->query("SELECT MAX(version) FROM schema_version");
            if (!r.empty() && !r.is_null(0, 0)) version = r.integer(0, 0);
        }
        if (version > schema_version) {
            throw StoreError("the database has schema version " + std::to_string(version) +
                                 ", newer than this server's (" + std::to_string(schema_version) +
                                 ")",
                             false);
        }
        for (auto v = version; v < schema_version; ++v) {
            db->exec("BEGIN");
            if (v < sql::backend_migrations) {
                db->exec(migrations[v]);
            } else {
                db->exec(sql::shared_migration(v, sql::Dialect::postgres).c_str());
            }
            db->params().add(v + 1);
            db->query("INSERT INTO schema_version (version) VALUES ($1::integer)");
            db->exec("COMMIT");
        }
    } catch (...) {
        if (db->in_transaction()) db->exec("ROLLBACK");
        db->exec("SELECT pg_advisory_unlock(7213, hashtext(current_schema()))");
        throw;
    }
    db->exec("SELECT pg_advisory_unlock(7213, hashtext(current_schema()))");
}

void PostgresStore::start_heartbeat() {
    beat();
    heartbeat_ = std::thread([this] {
        std::unique_lock lock(heartbeat_mutex_);
        while (!stopping_) {
            heartbeat_wake_.wait_for(lock, options_.lease / 4, [&] { return stopping_; });
            if (stopping_) break;
            lock.unlock();
            try {
                beat();
            } catch (const std::exception& e) {
                std::cerr << "collectcall-server: PostgreSQL heartbeat failed: " << e.what()
                          << std::endl;
            }
            lock.lock();
        }
    });
}

void PostgresStore::beat() {
    auto db = pool_.lease();
    db->params().add(process_id_);
    db->query(
        "INSERT INTO server_processes (id, heartbeat) VALUES ($1, now()) "
        "ON CONFLICT (id) DO UPDATE SET heartbeat = now()");
    // Processes silent for a day are gone for good.
    db->query("DELETE FROM server_processes WHERE heartbeat < now() - interval '1 day'");
}

void PostgresStore::run_read(sql::Work work) {
    auto connection = pool_.lease();
    pg::Db db(*connection);
    work(db);
}

void PostgresStore::run_write(sql::Work work) {
    // One statement commits by itself (or is part of the request's transaction).
    const auto start = std::chrono::steady_clock::now();
    run_read(work);
    if (!request_) committed(start);
}

void PostgresStore::committed(std::chrono::steady_clock::time_point start) const {
    if (shared_->observer) shared_->observer(1, std::chrono::steady_clock::now() - start);
}

namespace {

// A transaction's connection, with the rows its write counted from the leases: given back when
// the transaction does not commit.
class CountingDb final : public sql::Db {
  public:
    CountingDb(sql::Db& db, std::vector<sql::RowLeases::Charge>& charges)
        : charges(charges), db_(db) {}
    [[nodiscard]] std::unique_ptr<sql::Cursor> open(const char* sql) override {
        return db_.open(sql);
    }
    [[nodiscard]] sql::Dialect dialect() const override { return sql::Dialect::postgres; }
    std::vector<sql::RowLeases::Charge>& charges;

  private:
    sql::Db& db_;
};

void refund(sql::RowLeases& leases, std::vector<sql::RowLeases::Charge>& charges) noexcept {
    for (const sql::RowLeases::Charge& charge : charges)
        leases.refund(charge);
    charges.clear();
}

}  // namespace

void PostgresStore::run_transaction(sql::Work work) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<sql::RowLeases::Charge> charges;
    try {
        pool_.transaction([&](Connection& connection) {
            refund(shared_->row_leases, charges);  // an attempt run again after a deadlock
            pg::Db db(connection);
            CountingDb counting(db, charges);
            work(counting);
            return true;
        });
    } catch (...) {
        refund(shared_->row_leases, charges);
        throw;
    }
    // In a request's store, counted once the request's transaction commits.
    if (request_) {
        request_charges_.insert(request_charges_.end(), std::make_move_iterator(charges.begin()),
                                std::make_move_iterator(charges.end()));
    } else {
        committed(start);
    }
}

void PostgresStore::run_blind(sql::Work work) {
    // In a request's store, part of the request's transaction.
    if (request_) return run_transaction(work);
    std::vector<sql::RowLeases::Charge> charges;
    auto attempt = [&](sql::Db& db) {
        refund(shared_->row_leases, charges);
        CountingDb counting(db, charges);
        work(counting);
    };
    bool durable = false;
    try {
        durable = shared_->writer->write(sql::Work(attempt));
    } catch (...) {
        refund(shared_->row_leases, charges);
        throw;
    }
    // The batch did not keep it (its work threw, or the batch kept nothing): a transaction of its
    // own, which gives back what the batch's attempt counted.
    if (!durable) {
        refund(shared_->row_leases, charges);
        run_transaction(work);
    }
}

bool PostgresStore::observe_commits(CommitObserver observer) {
    shared_->observer = observer;
    shared_->writer->observe_commits(std::move(observer));
    return true;
}

void PostgresStore::count_rows(sql::Db& db, const Uuid& account, std::int64_t rows,
                               bool refusable) {
    auto* counting = dynamic_cast<CountingDb*>(&db);
    if (counting == nullptr) throw StoreError("rows counted outside a transaction", false);
    const Time now = shared_->clock.now();
    counting->charges.push_back(shared_->row_leases.charge(
        account.view(), rows, api::utc_day(now), refusable,
        [&](std::int64_t need, std::int64_t spare, bool must) {
            return shared_->counters.transaction([&](Connection& connection) {
                pg::Db counter(connection);
                return sql::take_rows(counter, account, need, spare, now, must);
            });
        }));
}

std::unique_ptr<SqlStore> PostgresStore::begin_request() {
    return std::unique_ptr<SqlStore>(
        new PostgresStore(shared_, std::make_unique<pg::Pool::Pinned>(shared_->pool)));
}

void PostgresStore::commit_request() {
    if (!request_) return;
    const auto start = std::chrono::steady_clock::now();
    const bool wrote =
        request_->connection() != nullptr && request_->connection()->transaction_sent();
    request_->commit();
    request_charges_.clear();
    if (wrote) committed(start);
}

void PostgresStore::rollback_request() {
    if (!request_) return;
    request_->rollback();
    refund(shared_->row_leases, request_charges_);
}

namespace {

std::vector<CallInProgress> calls_of(const Result& r) {
    std::vector<CallInProgress> calls;
    for (int i = 0; i < r.rows(); ++i) {
        calls.push_back(CallInProgress{parse_column<Uuid>(r.text(i, 0), "account id"),
                                       parse_column<Uuid>(r.text(i, 1), "call id")});
    }
    return calls;
}

}  // namespace

std::vector<CallInProgress> PostgresStore::calls_in_progress() {
    return take_over_calls();
}

std::vector<CallInProgress> PostgresStore::take_over_calls() {
    auto db = pool_.lease();
    // Calls whose owner stopped (its row is gone) or whose heartbeat is older than the lease
    // become this process's. The claim is one UPDATE: two processes never take the same call.
    const std::string lease = pg::lease_interval(options_.lease);
    db->params().add(process_id_).add(lease);
    const Result r = db->query(
        "UPDATE calls SET owner = $1 WHERE seq IN (SELECT c.seq FROM calls c "
        "WHERE c.status = 'in-progress' AND (c.owner IS NULL OR (c.owner <> $1 AND NOT EXISTS "
        "(SELECT 1 FROM server_processes p WHERE p.id = c.owner AND p.heartbeat > now() - "
        "$2::interval))) ORDER BY c.seq LIMIT 10000 FOR UPDATE SKIP LOCKED) "
        "RETURNING account_id, id");
    return calls_of(r);
}

}  // namespace collectcall::server
