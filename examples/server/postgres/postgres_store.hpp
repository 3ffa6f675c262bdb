// The Store and the webhook outbox on a PostgreSQL database shared by any number of server
// processes (API.md section 12). What each guarantee rests on:
//
// - externalId unique per account: a unique index; a duplicate INSERT does nothing (409, or a
//   failed bulk item), whichever process made the first.
// - at most 4 calls per customer per local day: place_call locks the customer's row
//   (SELECT ... FOR UPDATE) before it counts, so concurrent calls to one customer are decided
//   one after the other across processes, and the count and the insert commit together.
// - Idempotency-Key: one row per (account, key) under a primary key; the first request's
//   answer is there for whichever process gets the retry.
// - the webhook outbox (postgres_outbox.hpp): a process claims the messages it is about to send
// with a lease
//   (FOR UPDATE SKIP LOCKED, lease 60 s); the messages of a process that died are taken over
//   when its lease runs out.
// - calls in progress: each belongs to the process that placed it, which renews a heartbeat;
//   when a process stops or its heartbeat is older than the lease, another process's dialer
//   takes its calls over.
// - the daily row budget: each process takes rows from the account's counter ahead, in short
//   transactions of its own, and counts its writes against them (sql::RowLeases), so that an
//   account's writes do not queue on its counter's row lock; the counter never passes the budget.
// - rate limits: each process adds its count of each key's requests to a shared table once a
//   second and charges its own buckets with the others' (SharedRateLimits,
//   postgres_rate_limits.hpp).
// - writes are acknowledged after COMMIT with synchronous_commit on; concurrent blind writes
//   (POST /customers) share a transaction and its commit (postgres_writer.hpp).
// - the schema is created and migrated under pg_advisory_lock, safe when several processes
//   start at once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "postgres.hpp"
#include "postgres_writer.hpp"
#include "sql/migrations.hpp"
#include "sql/row_leases.hpp"
#include "sql/sql_store.hpp"

namespace collectcall::server {

struct PostgresOptions {
    std::string uri;
    std::size_t pool_size = 16;  // connections: sized for the worker threads
    // How long a process's claim on an outbox message or a call in progress lasts without being
    // renewed (API.md section 12: 60 s). Tests shorten it.
    std::chrono::milliseconds lease{60'000};
};

class PostgresStore final : public SqlStore {
  public:
    // Connects, and creates or migrates the schema.
    explicit PostgresStore(PostgresOptions options);
    ~PostgresStore() override;

    static constexpr int schema_version = sql::schema_version;

    // Starts the heartbeat that keeps this process's calls in progress its own (serve only).
    void start_heartbeat();

    void set_clock(const Clock& clock) override { shared_->clock = clock; }
    bool observe_commits(CommitObserver observer) override;
    std::vector<CallInProgress> calls_in_progress() override;
    std::vector<CallInProgress> take_over_calls() override;

  protected:
    void run_read(sql::Work work) override;
    void run_write(sql::Work work) override;
    void run_transaction(sql::Work work) override;
    void run_blind(sql::Work work) override;
    std::unique_ptr<SqlStore> begin_request() override;
    void commit_request() override;
    void rollback_request() override;
    [[nodiscard]] std::optional<std::string_view> call_owner() const override {
        return process_id_;
    }
    KnownKeys& known_keys() override { return shared_->known_keys; }
    void count_rows(sql::Db& db, const Uuid& account, std::int64_t rows, bool refusable) override;

  private:
    struct Shared {
        explicit Shared(PostgresOptions o);
        // Gives the rows its leases hold back to their counters.
        ~Shared();
        Shared(const Shared&) = delete;
        Shared& operator=(const Shared&) = delete;
        PostgresOptions options;
        pg::Pool pool;
        // The daily row budget's leases, and the connection they are taken on: one of its own,
        // so that a write holding a connection of `pool` never waits for another.
        sql::RowLeases row_leases;
        pg::Pool counters;
        KnownKeys known_keys;
        std::string process_id;   // this process's name in leases and heartbeats
        Clock clock;              // set once, before the server serves (Store::set_clock)
        CommitObserver observer;  // set once, before the server serves (observe_commits)
        // Group commit of blind writes (run_blind); stopped first, before the leases its
        // writes count rows from.
        std::unique_ptr<PostgresWriter> writer;
    };
    // An Idempotency-Key request's store (begin_idempotent): the same database, with its
    // operations in the request's transaction.
    PostgresStore(std::shared_ptr<Shared> shared, std::unique_ptr<pg::Pool::Pinned> request);

    void migrate();
    void beat();
    // Reports a commit of one write, begun at `start`, to the commit observer (observe_commits):
    // a transaction on the pool, beside the writer's batches.
    void committed(std::chrono::steady_clock::time_point start) const;

    // The database's pool, shared by the store and its requests' stores.
    std::shared_ptr<Shared> shared_;
    // The request's transaction, in a request's store; null in the store itself.
    std::unique_ptr<pg::Pool::Pinned> request_;
    // The rows its writes counted (count_rows), given back to the leases when it is rolled back.
    std::vector<sql::RowLeases::Charge> request_charges_;
    const PostgresOptions& options_ = shared_->options;
    // The operations' connections: the pool's, or the request's transaction's.
    pg::Connections pool_{shared_->pool, request_.get()};
    const std::string& process_id_ = shared_->process_id;

    std::mutex heartbeat_mutex_;
    std::condition_variable heartbeat_wake_;
    bool stopping_ = false;
    std::thread heartbeat_;
};

}  // namespace collectcall::server
