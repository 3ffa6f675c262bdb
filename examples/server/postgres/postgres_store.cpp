#include "postgres_store.hpp"

#include <algorithm>
#include <iostream>
#include <thread>
#include <unordered_set>
#include <utility>

#include <collectcall/webhook/fairness.hpp>

#include "columns.hpp"
#include "rows.hpp"
#include "webhook_outbox.hpp"

namespace collectcall::server {

namespace {

using pg::Connection;
using pg::Result;

// A request answers within its timeouts; a key still without an answer after this long belongs
// to a process that died (the database's clock: the server's may be frozen).
constexpr const char* in_flight_expiry = "120 seconds";

// Each entry moves the schema from version i to i + 1. Append only.
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
};

constexpr int migration_count = static_cast<int>(std::size(migrations));
static_assert(migration_count == PostgresStore::schema_version);

const char* bool_text(bool b) {
    return b ? "t" : "f";
}

constexpr const char* insert_customer_sql =
    "INSERT INTO customers (" COLLECTCALL_CUSTOMER_INSERT_COLUMNS
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
    "ON CONFLICT (account_id, external_id) DO NOTHING";

// Every item of a bulk request in one statement: arrays of the columns, unnested in request
// order. ON CONFLICT DO NOTHING skips a duplicate of a stored customer and of an earlier item;
// the ids of the rows inserted come back.
constexpr const char* insert_customers_sql =
    "INSERT INTO customers (" COLLECTCALL_CUSTOMER_INSERT_COLUMNS
    ") SELECT u.id, $1, u.external_id, u.thread_id, u.active, u.cease_and_desist, u.body, "
    "u.created_at, u.updated_at FROM unnest($2::text[], $3::text[], $4::text[], $5::boolean[], "
    "$6::boolean[], $7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS u(id, external_id, "
    "thread_id, active, cease_and_desist, body, created_at, updated_at, n) ORDER BY u.n "
    "ON CONFLICT (account_id, external_id) DO NOTHING RETURNING id";

void load_events(Connection& db, CallDetails& call) {
    db.params().add(call.id.view());
    const Result events =
        db.query("SELECT type, created_at FROM call_events WHERE call_id = $1 ORDER BY seq");
    for (int i = 0; i < events.rows(); ++i) {
        call.events.push_back(event_from_row(events.row(i)));
    }
}

// The event and, when the call has a webhook, its outbox message, in the caller's transaction.
void insert_event(Connection& db, std::string_view call_id, CallEventType type, Time at) {
    db.params().add(call_id).add(enum_name(type)).add(timestamp_text(at));
    const Result event = db.query(
        "INSERT INTO call_events (call_id, seq, type, created_at) VALUES ($1, "
        "(SELECT COALESCE(MAX(seq), 0) + 1 FROM call_events WHERE call_id = $1), $2, $3) "
        "RETURNING seq");
    db.params().add(call_id).add(event.integer(0, 0));
    db.query(
        "INSERT INTO webhook_outbox (message_id, call_id, event_seq) "
        "SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), id, $2::integer "
        "FROM calls WHERE id = $1 AND webhook_url IS NOT NULL");
}

// The customer's row, locked until the transaction ends (FOR UPDATE): a concurrent call or
// message to the same customer, in this process or another, waits for it. nullopt: no customer.
std::optional<StoredCustomer> customer_for_update(Connection& db, const Uuid& account,
                                                  const Uuid& id) {
    db.params().add(id.view()).add(account.view());
    const Result r = db.query("SELECT " COLLECTCALL_CUSTOMER_COLUMNS
                              " FROM customers WHERE id = $1 AND account_id = $2 FOR UPDATE");
    if (r.empty()) return std::nullopt;
    return customer_from_row(r.row(0));
}

// Everything of a stored customer that a change may touch.
void update_customer_row(Connection& db, const Uuid& account, const StoredCustomer& stored) {
    db.params()
        .add(write(static_cast<const CustomerCreate&>(stored.customer)))
        .add(bool_text(stored.active))
        .add(bool_text(stored.cease_and_desist))
        .add(stored.customer.updatedAt.view())
        .add(std::int64_t{stored.customer.restrictedMedia.bits()})
        .add(bool_text(stored.customer.attorneyRepresented))
        .add(bool_text(stored.customer.disputed))
        .add(stored.customer.id.view())
        .add(account.view());
    db.query(
        "UPDATE customers SET body = $1, active = $2, cease_and_desist = $3, updated_at = $4, "
        "restricted_media = $5::integer, attorney_represented = $6, disputed = $7 WHERE id = $8 "
        "AND "
        "account_id = $9");
}

// A collection activity of the customer's at `at` (compliance/retention.hpp): its records are
// kept three years from the latest. Locks the customer's row, as the writes that call it do first
// (the sweep locks it before the records it deletes).
void note_activity(Connection& db, const Uuid& account, const Uuid& customer, Time at) {
    db.params().add(to_ms(at)).add(customer.view()).add(account.view());
    db.query(
        "UPDATE customers SET last_activity_ms = GREATEST(last_activity_ms, $1::bigint) "
        "WHERE id = $2 AND account_id = $3");
}

void insert_interaction(Connection& db, const Uuid& account, const Uuid& customer,
                        const InteractionRecord& record) {
    std::visit(
        [&](const auto& r) {
            note_activity(db, account, customer, compliance::activity_at(r));
            db.params()
                .add(r.id.view())
                .add(account.view())
                .add(customer.view())
                .add(r.threadId.view())
                .add(interaction_channel(record))
                .add(interaction_direction(record))
                .add(to_ms(r.timestamp.time()))
                .add(interaction_data(record))
                .add(r.createdAt.view());
            db.query("INSERT INTO interactions (" COLLECTCALL_INTERACTION_INSERT_COLUMNS
                     ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)");
        },
        record);
}

// The times of a customer's rows in `sql` ($1 account, $2 customer, $3 since), oldest first.
std::vector<Time> times_since(Connection& db, const char* sql, const Uuid& account,
                              const Uuid& customer, Time since) {
    db.params().add(account.view()).add(customer.view()).add(to_ms(since));
    const Result r = db.query(sql);
    std::vector<Time> times;
    for (int i = 0; i < r.rows(); ++i)
        times.push_back(Time{std::chrono::milliseconds{r.integer(i, 0)}});
    return times;
}

constexpr const char* placed_calls_sql =
    "SELECT created_ms FROM calls WHERE account_id = $1 AND customer_id = $2 AND "
    "created_ms >= $3 ORDER BY created_ms";
constexpr const char* sent_texts_sql =
    "SELECT timestamp_ms FROM interactions WHERE account_id = $1 AND customer_id = $2 AND "
    "timestamp_ms >= $3 AND channel = 'sms' AND direction = 'outbound' ORDER BY timestamp_ms";

void insert_decision(Connection& db, const Uuid& account, const Uuid& customer,
                     const ComplianceDecision& decision) {
    db.params()
        .add(account.view())
        .add(customer.view())
        .add(to_ms(decision.at.time()))
        .add(decision_column(decision))
        .add(compliance_column(decision.compliance));
    db.query(
        "INSERT INTO compliance_decisions (account_id, customer_id, at_ms, call_seq, body, "
        "compliance) VALUES ($1, $2, $3, (SELECT coalesce(max(seq), 0) FROM calls), $4, $5)");
    note_activity(db, account, customer, decision.at.time());
}

// The contacts with a customer since `since` that compliance counts.
ContactHistory contact_history(Connection& db, const Uuid& account, const Uuid& customer,
                               Time since) {
    ContactHistory history;
    db.params().add(account.view()).add(customer.view()).add(to_ms(since));
    const Result calls = db.query(
        "SELECT created_ms, conversation FROM calls WHERE account_id = $1 AND customer_id = $2 "
        "AND created_ms >= $3 ORDER BY created_ms");
    for (int i = 0; i < calls.rows(); ++i)
        add_call_to_history(history, calls.row(i));
    // Whenever they were placed: a call in progress blocks the next one however old it is.
    db.params().add(account.view()).add(customer.view());
    const Result ongoing = db.query(
        "SELECT id, created_ms FROM calls WHERE account_id = $1 AND customer_id = $2 AND "
        "status = 'in-progress' ORDER BY seq");
    for (int i = 0; i < ongoing.rows(); ++i)
        add_call_in_progress(history, ongoing.row(i));
    history.texts = times_since(db, sent_texts_sql, account, customer, since);
    return history;
}

// A placed call, in progress and owned by process `owner`, with its call-created event; its
// decision in its own row (see the schema).
void insert_call(Connection& db, const Uuid& account, const Uuid& customer, const CallPlan& plan,
                 std::string_view owner) {
    const Call& call = plan.call;
    note_activity(db, account, customer, call.createdAt.time());
    auto& p = db.params()
                  .add(call.id.view())
                  .add(account.view())
                  .add(customer.view())
                  .add(plan.agent_id)
                  .add(call.threadId.view())
                  .add(call.toPhoneNumber.view())
                  .add(call.fromPhoneNumber.view())
                  .add(compliance_column(call.compliance))
                  .add(call.createdAt.view())
                  .add(to_ms(call.createdAt.time()))
                  .add(decision_column(plan.decision));
    if (plan.webhook) {
        p.add(plan.webhook->url.view());
        if (plan.webhook->secretId) {
            p.add(plan.webhook->secretId->view());
        } else {
            p.add_null();
        }
    } else {
        p.add_null().add_null();
    }
    p.add(owner);
    if (plan.drip_id) {
        p.add(plan.drip_id->view());
    } else {
        p.add_null();
    }
    db.query(
        "INSERT INTO calls (id, account_id, customer_id, agent_id, thread_id, to_number, "
        "from_number, compliance, created_at, created_ms, status, decision, webhook_url, "
        "webhook_secret_id, owner, drip_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
        "$10, 'in-progress', $11, $12, $13, $14, $15)");
    insert_event(db, call.id.view(), CallEventType::call_created, call.createdAt.time());
}

// Writes an enrolment's document and the columns the scheduler reads.
void update_enrolment_row(Connection& db, const DripEnrolment& enrolment) {
    auto& p = db.params().add(enum_name(enrolment.status));
    if (const auto next = enrolment_next_ms(enrolment)) {
        p.add(*next);
    } else {
        p.add_null();
    }
    p.add(write(enrolment)).add(enrolment.id.view());
    db.query("UPDATE drip_enrolments SET status = $1, next_ms = $2, body = $3 WHERE id = $4");
}
}  // namespace

PostgresStore::Shared::Shared(PostgresOptions o)
    : options(std::move(o)),
      pool(options.uri, std::max<std::size_t>(2, options.pool_size)),
      process_id(std::string(new_uuid().view())) {}

PostgresStore::PostgresStore(PostgresOptions options)
    : shared_(std::make_shared<Shared>(std::move(options))) {
    migrate();
}

PostgresStore::PostgresStore(std::shared_ptr<Shared> shared,
                             std::unique_ptr<pg::Pool::Pinned> request)
    : shared_(std::move(shared)), request_(std::move(request)) {}

PostgresStore::~PostgresStore() {
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
            db->exec(migrations[v]);
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

void PostgresStore::check() {
    auto db = pool_.lease();
    db->params();
    db->query("SELECT 1");
}

// --- Accounts --------------------------------------------------------------------------------

Credentials PostgresStore::create_credentials(const AccountSetup& setup, Time now) {
    return pool_.transaction([&](Connection& db) {
        const std::string created = timestamp_text(now);
        const Uuid fresh = new_uuid();
        db.params().add(fresh.view()).add(setup.name).add(created);
        const bool new_account = !db.query(
                                        "INSERT INTO accounts (id, name, created_at) VALUES ($1, "
                                        "$2, $3) ON CONFLICT (name) DO NOTHING RETURNING id")
                                      .empty();
        // The account's row is locked: two inits of one account number their callers in turn.
        db.params().add(setup.name);
        const Result r = db.query("SELECT id FROM accounts WHERE name = $1 FOR UPDATE");
        const Uuid account = parse_column<Uuid>(r.text(0, 0), "account id");
        if (new_account || setup.window) {
            const compliance::RespectfulHours window =
                setup.window.value_or(compliance::RespectfulHours{});
            db.params()
                .add(static_cast<std::int64_t>(window.start.count()))
                .add(static_cast<std::int64_t>(window.end.count()))
                .add(account.view());
            db.query(
                "UPDATE accounts SET window_start_minutes = $1, window_end_minutes = $2 "
                "WHERE id = $3");
        }
        if (setup.policy) {
            db.params().add(enum_name(*setup.policy)).add(account.view());
            db.query("UPDATE accounts SET compliance_policy = $1 WHERE id = $2");
        }
        for (const DripCampaignDefinition& campaign : setup.campaigns) {
            db.params().add(account.view()).add(campaign.name).add(write(campaign.steps));
            db.query(
                "INSERT INTO drip_campaigns (account_id, name, steps) VALUES ($1, $2, $3) "
                "ON CONFLICT (account_id, name) DO UPDATE SET steps = excluded.steps");
        }
        if (new_account) {
            // The schema's column defaults are those of version 1; a new account always gets
            // the library's.
            db.params()
                .add(static_cast<std::int64_t>(compliance::default_max_calls_per_day))
                .add(account.view());
            db.query("UPDATE accounts SET max_calls_per_day = $1 WHERE id = $2");
        }

        std::vector<E164> numbers = setup.caller_numbers;
        if (numbers.empty() && setup.fallback_caller_number) {
            db.params().add(account.view());
            if (db.query("SELECT 1 FROM caller_numbers WHERE account_id = $1 LIMIT 1").empty()) {
                numbers.push_back(*setup.fallback_caller_number);
            }
        }
        for (const E164& number : numbers) {
            db.params().add(account.view()).add(number.view());
            db.query(
                "INSERT INTO caller_numbers (account_id, position, number) VALUES ($1, "
                "(SELECT COALESCE(MAX(position), 0) + 1 FROM caller_numbers WHERE account_id = "
                "$1), $2) ON CONFLICT DO NOTHING");
        }
        const ApiKey key = generate_api_key();
        db.params().add(key.key_id).add(account.view()).add(hex(key.hash)).add(created);
        db.query(
            "INSERT INTO api_keys (key_id, account_id, key_hash, created_at) "
            "VALUES ($1, $2, $3, $4)");
        const Uuid agent = new_uuid();
        db.params().add(agent.view()).add(account.view()).add(created);
        db.query("INSERT INTO agents (id, account_id, created_at) VALUES ($1, $2, $3)");
        return Credentials{account, key.text, std::string(agent.view())};
    });
}

bool PostgresStore::has_accounts() {
    auto db = pool_.lease();
    db->params();
    return !db->query("SELECT 1 FROM accounts LIMIT 1").empty();
}

namespace {

std::optional<Sha256> from_hex(std::string_view text) {
    Sha256 out{};
    if (text.size() != out.size() * 2) return std::nullopt;
    const auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < out.size(); ++i) {
        const int hi = digit(text[2 * i]);
        const int lo = digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out[i] = static_cast<unsigned char>(hi * 16 + lo);
    }
    return out;
}

}  // namespace

std::optional<KeyRecord> PostgresStore::find_api_key(std::string_view key_id) {
    auto db = pool_.lease();
    db->params().add(key_id);
    const Result r = db->query("SELECT account_id, key_hash FROM api_keys WHERE key_id = $1");
    if (r.empty()) return std::nullopt;
    KeyRecord record;
    record.account_id = parse_column<Uuid>(r.text(0, 0), "account id");
    const auto hash = from_hex(r.text(0, 1));
    if (!hash) corrupt("key hash");
    record.hash = *hash;
    return record;
}

bool PostgresStore::agent_assigned(const Uuid& account, std::string_view agent) {
    auto db = pool_.lease();
    db->params().add(agent).add(account.view());
    return !db->query("SELECT 1 FROM agents WHERE id = $1 AND account_id = $2").empty();
}

AccountSettings PostgresStore::account_settings(const Uuid& account) {
    auto db = pool_.lease();
    AccountSettings settings;
    db->params().add(account.view());
    const Result r =
        db->query("SELECT " COLLECTCALL_ACCOUNT_SETTINGS_COLUMNS " FROM accounts WHERE id = $1");
    if (!r.empty()) settings_from_row(r.row(0), settings);
    db->params().add(account.view());
    const Result numbers =
        db->query("SELECT number FROM caller_numbers WHERE account_id = $1 ORDER BY position");
    for (int i = 0; i < numbers.rows(); ++i) {
        settings.caller_numbers.push_back(parse_column<E164>(numbers.text(i, 0), "number"));
    }
    return settings;
}

Account PostgresStore::account(const Uuid& id) {
    std::string name;
    {
        auto db = pool_.lease();
        db->params().add(id.view());
        const Result r = db->query("SELECT name FROM accounts WHERE id = $1");
        if (!r.empty()) name = std::string(r.text(0, 0));
    }
    Account out = account_view(id, std::move(name), account_settings(id));
    auto db = pool_.lease();
    db->params().add(id.view());
    const Result r =
        db->query("SELECT name, steps FROM drip_campaigns WHERE account_id = $1 ORDER BY name");
    for (int i = 0; i < r.rows(); ++i)
        out.dripCampaigns.push_back(campaign_from_row(r.row(i)));
    return out;
}

std::vector<ComplianceDecision> PostgresStore::list_compliance_decisions(const Uuid& account,
                                                                         const Uuid& customer,
                                                                         std::size_t limit) {
    auto db = pool_.lease();
    db->params().add(account.view()).add(customer.view()).add(static_cast<std::int64_t>(limit));
    // Newest first: the placed calls' decisions and the other evaluations', each of those after
    // the calls made before it (see the schema).
    const Result r = db->query(
        "SELECT body, compliance FROM ("
        "SELECT decision AS body, compliance, created_ms AS at_ms, seq AS call_seq, 0 AS after, "
        "0 AS seq FROM calls WHERE account_id = $1 AND customer_id = $2 AND decision IS NOT NULL "
        "UNION ALL SELECT body, compliance, at_ms, call_seq, 1, seq FROM compliance_decisions "
        "WHERE account_id = $1 AND customer_id = $2) AS decisions "
        "ORDER BY at_ms DESC, call_seq DESC, after DESC, seq DESC LIMIT $3");
    std::vector<ComplianceDecision> out;
    for (int i = 0; i < r.rows(); ++i) {
        out.push_back(decision_from_columns(r.text(i, 0), r.text(i, 1)));
    }
    return out;
}

// --- Customers -------------------------------------------------------------------------------

bool PostgresStore::insert_customer(const Uuid& account, const StoredCustomer& s) {
    auto db = pool_.lease();
    const Customer& c = s.customer;
    db->params()
        .add(c.id.view())
        .add(account.view())
        .add(c.externalId.view())
        .add(s.thread_id.view())
        .add(bool_text(s.active))
        .add(bool_text(s.cease_and_desist))
        .add(write(static_cast<const CustomerCreate&>(c)))
        .add(c.createdAt.view())
        .add(c.updatedAt.view());
    return db->query(insert_customer_sql).affected() == 1;
}

std::vector<bool> PostgresStore::insert_customers(const Uuid& account,
                                                  std::span<const StoredCustomer> customers) {
    if (customers.empty()) return {};
    std::array<std::string, 8> columns;
    for (std::string& column : columns)
        column = "{";
    for (const StoredCustomer& s : customers) {
        const Customer& c = s.customer;
        pg::append_array_element(columns[0], c.id.view());
        pg::append_array_element(columns[1], c.externalId.view());
        pg::append_array_element(columns[2], s.thread_id.view());
        pg::append_array_element(columns[3], bool_text(s.active));
        pg::append_array_element(columns[4], bool_text(s.cease_and_desist));
        pg::append_array_element(columns[5], write(static_cast<const CustomerCreate&>(c)));
        pg::append_array_element(columns[6], c.createdAt.view());
        pg::append_array_element(columns[7], c.updatedAt.view());
    }
    for (std::string& column : columns)
        column.push_back('}');

    std::unordered_set<std::string_view> inserted;
    // One statement is one transaction; two overlapping bulk requests that wait on each other's
    // rows are a deadlock PostgreSQL breaks, and the loser runs again.
    const Result r = pool_.transaction([&](Connection& db) {
        auto& p = db.params().add(account.view());
        for (const std::string& column : columns)
            p.add(column);
        return db.query(insert_customers_sql);
    });
    for (int i = 0; i < r.rows(); ++i)
        inserted.insert(r.text(i, 0));
    std::vector<bool> created;
    created.reserve(customers.size());
    for (const StoredCustomer& s : customers) {
        created.push_back(inserted.count(s.customer.id.view()) != 0);
    }
    return created;
}

std::optional<StoredCustomer> PostgresStore::find_customer(const Uuid& account, const Uuid& id) {
    auto db = pool_.lease();
    db->params().add(id.view()).add(account.view());
    const Result r = db->query("SELECT " COLLECTCALL_CUSTOMER_COLUMNS
                               " FROM customers WHERE id = $1 AND account_id = $2");
    if (r.empty()) return std::nullopt;
    return customer_from_row(r.row(0));
}

std::optional<StoredCustomer> PostgresStore::find_customer_by_external_id(
    const Uuid& account, std::string_view external_id) {
    auto db = pool_.lease();
    db->params().add(account.view()).add(external_id);
    const Result r = db->query("SELECT " COLLECTCALL_CUSTOMER_COLUMNS
                               " FROM customers WHERE account_id = $1 AND external_id = $2");
    if (r.empty()) return std::nullopt;
    return customer_from_row(r.row(0));
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

std::optional<StoredCustomer> PostgresStore::change_standing(const Uuid& account, const Uuid& id,
                                                             const StandingChanger& change) {
    return pool_.transaction([&](Connection& db) -> std::optional<StoredCustomer> {
        return change_standing_in(db, account, id, change);
    });
}

std::optional<StoredCustomer> PostgresStore::update_customer(
    const Uuid& account, const Uuid& id, const std::function<bool(StoredCustomer&)>& change) {
    return pool_.transaction([&](Connection& db) -> std::optional<StoredCustomer> {
        std::optional<StoredCustomer> stored = customer_for_update(db, account, id);
        if (!stored) return std::nullopt;
        if (change(*stored)) update_customer_row(db, account, *stored);
        return stored;
    });
}

// --- Calls -----------------------------------------------------------------------------------

std::optional<CallPlan> PostgresStore::place_call(const Uuid& account, const Uuid& customer,
                                                  Time since, const CallDecider& decide) {
    return pool_.transaction([&](Connection& db) -> std::optional<CallPlan> {
        // The customer's row stays locked until the commit: a concurrent call to the same
        // customer, in this process or another, waits here and then counts this one.
        const std::optional<StoredCustomer> stored = customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        const ContactHistory history = contact_history(db, account, customer, since);
        CallPlan plan = decide(*stored, history);
        if (!plan.place) {
            insert_decision(db, account, customer, plan.decision);
            return plan;  // the decision alone is committed
        }

        insert_call(db, account, customer, plan, process_id_);
        return plan;
    });
}

// --- Drip campaigns ----------------------------------------------------------------------------

std::optional<DripEnrolResult> PostgresStore::enrol_drip(const Uuid& account, const Uuid& customer,
                                                         std::string_view campaign, Time since,
                                                         const DripEnrolDecider& decide) {
    return pool_.transaction([&](Connection& db) -> std::optional<DripEnrolResult> {
        // The customer's row stays locked until the commit: two enrolments of one customer in
        // one campaign, in any processes, are decided one after the other.
        const std::optional<StoredCustomer> stored = customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        DripEnrolResult result;
        db.params().add(account.view()).add(customer.view()).add(campaign);
        result.already_enrolled =
            !db.query(
                   "SELECT 1 FROM drip_enrolments WHERE account_id = $1 AND customer_id = $2 "
                   "AND name = $3 AND status = 'in-progress'")
                 .empty();
        if (result.already_enrolled) return result;
        result.plan = decide(*stored, contact_history(db, account, customer, since));
        if (!result.plan.store) {
            // The refusal's record alone.
            if (result.plan.decision) insert_decision(db, account, customer, *result.plan.decision);
            return result;
        }
        const DripEnrolment& e = result.plan.enrolment;
        auto& p = db.params()
                      .add(e.id.view())
                      .add(account.view())
                      .add(customer.view())
                      .add(e.name)
                      .add(enum_name(e.status));
        if (const auto next = enrolment_next_ms(e)) {
            p.add(*next);
        } else {
            p.add_null();
        }
        if (const auto& webhook = result.plan.webhook) {
            p.add(webhook->url.view());
            if (webhook->secretId) {
                p.add(webhook->secretId->view());
            } else {
                p.add_null();
            }
        } else {
            p.add_null().add_null();
        }
        p.add(write(e));
        db.query(
            "INSERT INTO drip_enrolments (id, account_id, customer_id, name, status, next_ms, "
            "webhook_url, webhook_secret_id, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)");
        return result;
    });
}

std::vector<DripEnrolment> PostgresStore::list_drip_enrolments(const Uuid& account,
                                                               const Uuid& customer) {
    auto db = pool_.lease();
    db->params().add(account.view()).add(customer.view());
    const Result r = db->query(
        "SELECT body FROM drip_enrolments WHERE account_id = $1 AND customer_id = $2 "
        "ORDER BY seq DESC");
    std::vector<DripEnrolment> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back(enrolment_from_column(r.text(i, 0)));
    return out;
}

std::optional<DripEnrolment> PostgresStore::update_drip_enrolment(
    const Uuid& account, const Uuid& customer, const Uuid& id,
    const std::function<bool(DripEnrolment&)>& change) {
    return pool_.transaction([&](Connection& db) -> std::optional<DripEnrolment> {
        db.params().add(id.view()).add(account.view()).add(customer.view());
        const Result r = db.query(
            "SELECT body FROM drip_enrolments WHERE id = $1 AND account_id = $2 AND "
            "customer_id = $3 FOR UPDATE");
        if (r.empty()) return std::nullopt;
        DripEnrolment enrolment = enrolment_from_column(r.text(0, 0));
        if (change(enrolment)) update_enrolment_row(db, enrolment);
        return enrolment;
    });
}

std::vector<DueEnrolment> PostgresStore::due_drip_enrolments(Time now, std::size_t limit) {
    auto db = pool_.lease();
    db->params().add(to_ms(now)).add(static_cast<std::int64_t>(limit));
    const Result r = db->query(
        // Accounts in turn (Store::due_drip_enrolments): each account's soonest, then each
        // one's second, ...
        "SELECT account_id, id, customer_id FROM (SELECT account_id, id, customer_id, next_ms, "
        "seq, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY next_ms, seq) AS turn FROM "
        "drip_enrolments WHERE status = 'in-progress' AND next_ms <= $1) AS due ORDER BY turn, "
        "next_ms, seq LIMIT $2");
    std::vector<DueEnrolment> out;
    for (int i = 0; i < r.rows(); ++i) {
        out.push_back(DueEnrolment{parse_column<Uuid>(r.text(i, 0), "account id"),
                                   parse_column<Uuid>(r.text(i, 1), "enrolment id"),
                                   parse_column<Uuid>(r.text(i, 2), "customer id")});
    }
    return out;
}

std::optional<DripStepPlan> PostgresStore::run_drip_step(const Uuid& account, const Uuid& enrolment,
                                                         Time now, Time since,
                                                         const DripStepRunner& run) {
    return pool_.transaction([&](Connection& db) -> std::optional<DripStepPlan> {
        // The enrolment's row stays locked until the commit of what its step made: another
        // process skips it (SKIP LOCKED) and, once committed, finds the step no longer due. A
        // process that dies before the commit leaves nothing, and the step to another.
        db.params().add(enrolment.view()).add(account.view()).add(to_ms(now));
        const Result r = db.query(
            "SELECT customer_id, body, webhook_url, webhook_secret_id FROM drip_enrolments "
            "WHERE id = $1 AND account_id = $2 AND status = 'in-progress' AND next_ms <= $3 "
            "FOR UPDATE SKIP LOCKED");
        if (r.empty()) return std::nullopt;
        const Uuid customer = parse_column<Uuid>(r.text(0, 0), "customer id");
        DripEnrolment e = enrolment_from_column(r.text(0, 1));
        const std::optional<Webhook> webhook = webhook_from_row(r.row(0), 2, 3);
        const std::optional<StoredCustomer> stored = customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        DripStepPlan plan = run(e, *stored, contact_history(db, account, customer, since), webhook);
        // A call placed keeps its decision in its own row.
        if (plan.call) {
            insert_call(db, account, customer, *plan.call, process_id_);
        } else if (plan.decision) {
            insert_decision(db, account, customer, *plan.decision);
        }
        if (plan.sms) insert_interaction(db, account, customer, *plan.sms);
        if (plan.event) {
            db.params().add(enrolment.view()).add(*plan.event);
            db.query(
                "INSERT INTO webhook_outbox (message_id, drip_id, event_seq, body) SELECT "
                "'msg_' || replace(gen_random_uuid()::text, '-', ''), id, (SELECT COUNT(*) FROM "
                "webhook_outbox WHERE drip_id = $1), $2 FROM drip_enrolments WHERE id = $1 AND "
                "webhook_url IS NOT NULL");
        }
        update_enrolment_row(db, e);
        return plan;
    });
}

std::optional<CallDetails> PostgresStore::find_call(const Uuid& account, const Uuid& id) {
    auto db = pool_.lease();
    db->params().add(id.view()).add(account.view());
    const Result r = db->query("SELECT " COLLECTCALL_CALL_COLUMNS
                               " FROM calls WHERE id = $1 AND account_id = $2");
    if (r.empty()) return std::nullopt;
    CallDetails call = call_from_row(r.row(0));
    load_events(*db, call);
    return call;
}

std::vector<CallDetails> PostgresStore::list_calls(const Uuid& account, const Uuid& customer) {
    auto db = pool_.lease();
    db->params().add(account.view()).add(customer.view());
    const Result r = db->query("SELECT " COLLECTCALL_CALL_COLUMNS
                               " FROM calls WHERE account_id = $1 AND "
                               "customer_id = $2 ORDER BY created_ms DESC, seq DESC");
    std::vector<CallDetails> calls;
    for (int i = 0; i < r.rows(); ++i) {
        calls.push_back(call_from_row(r.row(i)));
        load_events(*db, calls.back());
    }
    return calls;
}

bool PostgresStore::end_call(const Uuid& account, const Uuid& id, CallStatus status,
                             EndedReason ended_reason, std::int64_t duration_ms,
                             std::string_view transcript, Time at) {
    return pool_.transaction([&](Connection& db) {
        // The customer's row first, as every write of its records takes it.
        db.params().add(to_ms(at)).add(id.view()).add(account.view());
        db.query(
            "UPDATE customers SET last_activity_ms = GREATEST(last_activity_ms, $1::bigint) "
            "WHERE id = (SELECT customer_id FROM calls WHERE id = $2 AND account_id = $3 AND "
            "status = 'in-progress')");
        db.params()
            .add(enum_name(status))
            .add(enum_name(ended_reason))
            .add(duration_ms)
            .add(transcript)
            .add(bool_text(conversation_from_column(transcript)))
            .add(id.view())
            .add(account.view());
        if (db.query("UPDATE calls SET status = $1, ended_reason = $2, duration_ms = $3, "
                     "transcript = $4, conversation = $5 WHERE id = $6 AND account_id = $7 AND "
                     "status = 'in-progress'")
                .affected() != 1) {
            return false;
        }
        insert_event(db, id.view(), CallEventType::call_ended, at);
        return true;
    });
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

// --- Clients, interactions, analyses ----------------------------------------------------------

ClientInsert PostgresStore::insert_client(const Uuid& account, const Client& client, Time now) {
    auto db = pool_.lease();
    db->params()
        .add(client.id.view())
        .add(account.view())
        .add(client.name.view())
        .add(timestamp_text(now));
    // One statement, as for webhook secrets: new (xmax = 0), the account's own and renamed, or
    // another account's and untouched (no row).
    const Result r = db->query(
        "INSERT INTO clients (id, account_id, name, created_at) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name "
        "WHERE clients.account_id = EXCLUDED.account_id RETURNING (xmax = 0)::integer");
    if (r.empty()) return ClientInsert::taken;
    return r.integer(0, 0) == 1 ? ClientInsert::inserted : ClientInsert::renamed;
}

std::vector<Client> PostgresStore::list_clients(const Uuid& account) {
    auto db = pool_.lease();
    db->params().add(account.view());
    const Result r = db->query("SELECT id, name FROM clients WHERE account_id = $1 ORDER BY seq");
    std::vector<Client> clients;
    for (int i = 0; i < r.rows(); ++i)
        clients.push_back(client_from_row(r.row(i)));
    return clients;
}

bool PostgresStore::has_client(const Uuid& account, const Uuid& id) {
    auto db = pool_.lease();
    db->params().add(id.view()).add(account.view());
    return !db->query("SELECT 1 FROM clients WHERE id = $1 AND account_id = $2").empty();
}

void PostgresStore::insert_interactions(const Uuid& account, const Uuid& customer,
                                        std::span<const InteractionRecord> records,
                                        const StandingChanger& standing) {
    pool_.transaction([&](Connection& db) {
        for (const InteractionRecord& record : records)
            insert_interaction(db, account, customer, record);
        if (standing) (void)change_standing_in(db, account, customer, standing);
        return true;
    });
}

namespace {

std::vector<InteractionRecord> interactions_of(const Result& r) {
    std::vector<InteractionRecord> records;
    for (int i = 0; i < r.rows(); ++i)
        records.push_back(interaction_from_row(r.row(i)));
    return records;
}

}  // namespace

std::optional<InteractionRecord> PostgresStore::find_interaction(const Uuid& account,
                                                                 const Uuid& id) {
    auto db = pool_.lease();
    db->params().add(id.view()).add(account.view());
    const Result r = db->query("SELECT " COLLECTCALL_INTERACTION_COLUMNS
                               " FROM interactions WHERE id = $1 AND account_id = $2");
    if (r.empty()) return std::nullopt;
    return interaction_from_row(r.row(0));
}

std::vector<InteractionRecord> PostgresStore::list_interactions(const Uuid& account,
                                                                const Uuid& customer) {
    auto db = pool_.lease();
    db->params().add(account.view()).add(customer.view());
    return interactions_of(db->query("SELECT " COLLECTCALL_INTERACTION_COLUMNS
                                     " FROM interactions WHERE account_id = $1 AND "
                                     "customer_id = $2 ORDER BY timestamp_ms DESC, seq DESC"));
}

std::optional<InteractionRecord> PostgresStore::last_inbound_interaction(const Uuid& account,
                                                                         const Uuid& thread) {
    auto db = pool_.lease();
    db->params().add(account.view()).add(thread.view());
    const Result r = db->query("SELECT " COLLECTCALL_INTERACTION_COLUMNS
                               " FROM interactions WHERE account_id = $1 AND thread_id = $2 AND "
                               "direction = 'inbound' ORDER BY timestamp_ms DESC, seq DESC "
                               "LIMIT 1");
    if (r.empty()) return std::nullopt;
    return interaction_from_row(r.row(0));
}

std::optional<InteractionPlan> PostgresStore::record_interaction(const Uuid& account,
                                                                 const Uuid& customer, Time since,
                                                                 const InteractionDecider& decide) {
    return pool_.transaction([&](Connection& db) -> std::optional<InteractionPlan> {
        // As place_call: the customer's row stays locked from the counts to the commit.
        const std::optional<StoredCustomer> stored = customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        const std::vector<Time> calls = times_since(db, placed_calls_sql, account, customer, since);
        const std::vector<Time> texts = times_since(db, sent_texts_sql, account, customer, since);
        InteractionPlan plan = decide(*stored, calls, texts);
        if (plan.decision) insert_decision(db, account, customer, *plan.decision);
        if (plan.store) insert_interaction(db, account, customer, plan.record);
        return plan;
    });
}

std::optional<std::string> PostgresStore::find_call_transcript(const Uuid& account,
                                                               const Uuid& call) {
    auto db = pool_.lease();
    db->params().add(call.view()).add(account.view());
    const Result r = db->query("SELECT transcript FROM calls WHERE id = $1 AND account_id = $2");
    if (r.empty() || r.is_null(0, 0)) return std::nullopt;
    return std::string(r.text(0, 0));
}

StoredAnalysis PostgresStore::save_analysis(const Uuid& account, const StoredAnalysis& analysis,
                                            const OutcomeApplier& apply) {
    return pool_.transaction([&](Connection& db) {
        db.params()
            .add(analysis.interaction_id.view())
            .add(account.view())
            .add(analysis.customer_id.view())
            .add(enum_name(analysis.channel))
            .add(write(analysis.variables))
            .add(timestamp_text(analysis.analysed_at));
        db.query(
            "INSERT INTO analyses (interaction_id, account_id, customer_id, channel, variables, "
            "created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING");
        // Locked: two processes analysing one interaction apply its outcomes once.
        db.params().add(analysis.interaction_id.view()).add(account.view());
        const Result r = db.query("SELECT " COLLECTCALL_ANALYSIS_COLUMNS
                                  " FROM analyses WHERE interaction_id = $1 AND account_id = $2 "
                                  "FOR UPDATE");
        if (r.empty()) throw StoreError("analysis missing after insert", false);
        StoredAnalysis stored = analysis_from_row(r.row(0));
        if (apply && !stored.outcomes_applied) {
            (void)change_standing_in(db, account, stored.customer_id,
                                     [&](StoredCustomer& c) { return apply(c, stored.variables); });
            db.params().add(stored.interaction_id.view());
            db.query("UPDATE analyses SET outcomes_applied = TRUE WHERE interaction_id = $1");
            stored.outcomes_applied = true;
        }
        return stored;
    });
}

// --- Webhook secrets -------------------------------------------------------------------------

SecretInsert PostgresStore::insert_webhook_secret(const Uuid& account, const Uuid& id,
                                                  std::string_view secret, Time now) {
    auto db = pool_.lease();
    db->params().add(id.view()).add(account.view()).add(secret).add(timestamp_text(now));
    // One statement, so that two processes importing one id at once agree: the row is new
    // (xmax = 0), the account's own and replaced, or another account's and untouched (no row).
    const Result r = db->query(
        "INSERT INTO webhook_secrets (id, account_id, secret, created_at) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET secret = EXCLUDED.secret "
        "WHERE webhook_secrets.account_id = EXCLUDED.account_id "
        "RETURNING (xmax = 0)::integer");
    if (r.empty()) return SecretInsert::taken;
    return r.integer(0, 0) == 1 ? SecretInsert::inserted : SecretInsert::replaced;
}

std::string PostgresStore::server_key(std::string_view name, std::string_view candidate) {
    auto db = pool_.lease();
    db->params().add(name).add(candidate);
    db->query("INSERT INTO server_keys (name, key) VALUES ($1, $2) ON CONFLICT DO NOTHING");
    db->params().add(name);
    const Result r = db->query("SELECT key FROM server_keys WHERE name = $1");
    if (r.empty()) throw StoreError("server key missing after insert", false);
    return std::string(r.text(0, 0));
}

std::optional<std::string> PostgresStore::find_webhook_secret(const Uuid& account, const Uuid& id) {
    auto db = pool_.lease();
    db->params().add(id.view()).add(account.view());
    const Result r =
        db->query("SELECT secret FROM webhook_secrets WHERE id = $1 AND account_id = $2");
    if (r.empty()) return std::nullopt;
    return std::string(r.text(0, 0));
}

// --- Idempotency -----------------------------------------------------------------------------

IdempotencyBegin PostgresStore::begin_idempotent(const Uuid& account, std::string_view key,
                                                 const Sha256& fingerprint, Time now) {
    const std::string print = hex(fingerprint);
    IdempotencyBegin begun = pool_.transaction([&](Connection& db) {
        db.params().add(account.view()).add(key).add(print).add(to_ms(now));
        const bool fresh = db.query(
                                 "INSERT INTO idempotency_keys (account_id, key, fingerprint, "
                                 "created_ms) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
                               .affected() == 1;
        if (!fresh) {
            // Someone holds the key: its row is locked while this transaction decides.
            db.params().add(account.view()).add(key).add(in_flight_expiry);
            const Result r = db.query(
                "SELECT fingerprint, created_ms, status, response, request_id, "
                "started < now() - $3::interval FROM idempotency_keys "
                "WHERE account_id = $1 AND key = $2 FOR UPDATE");
            const bool expired = r.empty() ||
                                 r.integer(0, 1) <= to_ms(now) - idempotency_lifetime_ms ||
                                 (r.is_null(0, 2) && r.row(0).boolean(5));
            if (!expired) {
                IdempotencyBegin result;
                const auto stored = from_hex(r.text(0, 0));
                if (!stored || !equal_constant_time(*stored, fingerprint)) {
                    result.state = IdempotencyState::mismatch;
                } else if (r.is_null(0, 2)) {
                    result.state = IdempotencyState::in_flight;
                } else {
                    result.state = IdempotencyState::replay;
                    result.response.status = static_cast<int>(r.integer(0, 2));
                    result.response.body = std::string(r.text(0, 3));
                    result.response.request_id = std::string(r.text(0, 4));
                }
                return result;
            }
            db.params().add(account.view()).add(key).add(print).add(to_ms(now));
            db.query(
                "INSERT INTO idempotency_keys (account_id, key, fingerprint, created_ms) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, key) DO UPDATE SET "
                "fingerprint = EXCLUDED.fingerprint, created_ms = EXCLUDED.created_ms, "
                "started = now(), status = NULL, response = NULL, request_id = NULL");
        }
        // Expired keys of the account go with the next new one.
        db.params().add(account.view()).add(to_ms(now) - idempotency_lifetime_ms);
        db.query("DELETE FROM idempotency_keys WHERE account_id = $1 AND created_ms <= $2");
        return IdempotencyBegin{IdempotencyState::started, {}, {}};
    });
    // From here the request's writes and the recording of its answer are one transaction.
    if (begun.state == IdempotencyState::started) {
        begun.store.reset(
            new PostgresStore(shared_, std::make_unique<pg::Pool::Pinned>(shared_->pool)));
    }
    return begun;
}

void PostgresStore::finish_idempotent(const Uuid& account, std::string_view key,
                                      const StoredResponse& response) {
    auto db = pool_.lease();  // the request's transaction, in a request's store
    db->params()
        .add(std::int64_t{response.status})
        .add(response.body)
        .add(response.request_id)
        .add(account.view())
        .add(key);
    db->query(
        "UPDATE idempotency_keys SET status = $1, response = $2, request_id = $3 "
        "WHERE account_id = $4 AND key = $5");
    if (request_) request_->commit();
}

void PostgresStore::abandon_idempotent(const Uuid& account, std::string_view key) {
    if (request_) request_->rollback();  // the request's writes go with its key
    auto db = pool_.lease();
    db->params().add(account.view()).add(key);
    db->query("DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND status IS NULL");
}

// --- Retention -------------------------------------------------------------------------------

namespace {

// Deletes, in the caller's transaction, as many of `customer`'s records as `batch` has room for
// (each record whole: see RetentionBatch), the oldest first.
void sweep_customer(Connection& db, std::string_view account, std::string_view customer,
                    RetentionBatch& batch) {
    // Runs `sql` ($1 account, $2 customer, $3 how many records) and gives how many rows went.
    const auto run = [&](const char* sql, std::int64_t records) -> std::int64_t {
        db.params().add(account).add(customer).add(records);
        return db.query(sql).affected();
    };
    std::int64_t asked = batch.room(decision_rows);
    std::int64_t taken =
        run("DELETE FROM compliance_decisions WHERE seq IN (SELECT seq FROM compliance_decisions "
            "WHERE account_id = $1 AND customer_id = $2 ORDER BY at_ms, seq LIMIT $3)",
            asked);
    batch.took(asked, taken, taken);

#define COLLECTCALL_SWEPT_INTERACTIONS                                                  \
    "(SELECT id FROM interactions WHERE account_id = $1 AND customer_id = $2 ORDER BY " \
    "timestamp_ms, seq LIMIT $3)"
    asked = batch.room(interaction_rows);
    std::int64_t rows =
        run("DELETE FROM analyses WHERE interaction_id IN " COLLECTCALL_SWEPT_INTERACTIONS, asked);
    taken = run("DELETE FROM interactions WHERE id IN " COLLECTCALL_SWEPT_INTERACTIONS, asked);
    batch.took(asked, taken, rows + taken);
#undef COLLECTCALL_SWEPT_INTERACTIONS

    // A call's analysis, its events' webhook messages and its events go before it (they refer to
    // it).
#define COLLECTCALL_SWEPT_CALLS                                                              \
    "(SELECT id FROM calls WHERE account_id = $1 AND customer_id = $2 ORDER BY created_ms, " \
    "seq LIMIT $3)"
    asked = batch.room(call_rows);
    rows = run("DELETE FROM analyses WHERE interaction_id IN " COLLECTCALL_SWEPT_CALLS, asked);
    rows += run("DELETE FROM webhook_outbox WHERE call_id IN " COLLECTCALL_SWEPT_CALLS, asked);
    rows += run("DELETE FROM call_events WHERE call_id IN " COLLECTCALL_SWEPT_CALLS, asked);
    taken = run("DELETE FROM calls WHERE id IN " COLLECTCALL_SWEPT_CALLS, asked);
    batch.took(asked, taken, rows + taken);
#undef COLLECTCALL_SWEPT_CALLS

    if (batch.customer_emptied()) {
        db.params().add(customer);
        db.query("UPDATE customers SET last_activity_ms = NULL WHERE id = $1");
    }
}

}  // namespace

std::int64_t PostgresStore::sweep(Time now) {
    // Rows of one table older than an instant, retention_batch_rows per transaction. Processes
    // sweeping at once delete each row once.
    const auto older = [&](const char* sql, auto before) {
        return sweep_in_chunks([&] {
            return pool_.transaction([&](Connection& db) -> SweepChunk {
                db.params().add(before).add(retention_batch_rows);
                const std::int64_t deleted = db.query(sql).affected();
                return SweepChunk{deleted, deleted == retention_batch_rows};
            });
        });
    };
    std::int64_t deleted = older(
        "DELETE FROM call_events WHERE ctid IN (SELECT e.ctid FROM call_events e WHERE "
        "e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.call_id = "
        "e.call_id AND o.event_seq = e.seq) LIMIT $2)",
        timestamp_text(now - webhook::outbox_retention));
    deleted += older(
        "DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE "
        "created_ms < $1 LIMIT $2)",
        to_ms(now) - idempotency_lifetime_ms);

    // The records of the customers whose last activity is older than the retention, customer
    // after customer (the longest inactive first), a batch of rows per transaction. A customer
    // another process is sweeping, or writing to, is skipped: its row is locked.
    const std::int64_t expired = to_ms(compliance::records_expire_before(now));
    deleted += sweep_in_chunks([&] {
        return pool_.transaction([&](Connection& db) -> SweepChunk {
            RetentionBatch batch;
            while (!batch.full()) {
                db.params().add(expired);
                const Result due = db.query(
                    "SELECT account_id, id FROM customers WHERE last_activity_ms < $1 "
                    "ORDER BY last_activity_ms LIMIT 1 FOR UPDATE SKIP LOCKED");
                if (due.empty()) break;
                const std::string account(due.text(0, 0));
                const std::string customer(due.text(0, 1));
                batch.next_customer();
                sweep_customer(db, account, customer, batch);
                if (!batch.customer_emptied()) break;
            }
            // A transaction that stopped with rows to spare found no more customers.
            return SweepChunk{batch.deleted(), batch.full() || !batch.customer_emptied()};
        });
    });
    return deleted;
}

// --- The outbox ------------------------------------------------------------------------------

}  // namespace collectcall::server
