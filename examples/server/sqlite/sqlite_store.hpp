// The Store on an embedded SQLite database file.
//
// - WAL journal with synchronous=FULL: readers never wait for the writer, and a write is on disk
//   (the WAL fsynced) before the request that made it is answered.
// - One connection per thread at a time, from a pool; each keeps its prepared statements.
// - Group commit: the writes of concurrent requests are run together in one transaction and
//   made durable by one COMMIT (sqlite_writer.hpp); each request is answered only after it. An
//   Idempotency-Key request's writes and its answer are one participant of such a batch.
// - The schema is versioned with PRAGMA user_version; migrate() brings a file up to date and
//   refuses one written by a newer server.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "sql/migrations.hpp"
#include "sql/sql_store.hpp"
#include "sqlite.hpp"
#include "sqlite_writer.hpp"

namespace collectcall::server {

class WalCheckpointer;

struct SqliteOptions {
    std::string path = "collectcall.db";
    // How long a statement waits for another writer before the request fails with 503.
    int busy_timeout_ms = 5000;
    // The WAL is copied into the database file by a thread of the store's own each time it grows
    // by `checkpoint_every_bytes`, and by the writer in line once it holds `checkpoint_limit_bytes`
    // (sqlite_checkpointer.hpp). In pages, at least one.
    std::int64_t checkpoint_every_bytes = std::int64_t{16} << 20;
    std::int64_t checkpoint_limit_bytes = std::int64_t{64} << 20;
    // How long an Idempotency-Key request may hold the writer, from its first write to the end of
    // its transaction (sqlite_writer.hpp): past it, its writes are rolled back and it fails with
    // 503, so that a request that does not end cannot keep every other write waiting. Its work
    // there takes microseconds; a bulk's items, a few hundred milliseconds.
    int request_hold_ms = 5000;
};

class SqliteStore final : public SqlStore {
  public:
    // Opens (creating if needed) and migrates the database.
    explicit SqliteStore(SqliteOptions options);
    ~SqliteStore() override;

    static constexpr int schema_version = sql::schema_version;

    // For a server starting on the file: requests that were in flight when the previous
    // process stopped will never be answered, and their Idempotency-Keys must not answer
    // retries with 409 for a day. (Not done on every open: `init` may run beside a server.)
    void forget_requests_in_flight();

    bool observe_commits(CommitObserver observer) override;
    void set_clock(const Clock& clock) override { shared_->clock = clock; }
    std::vector<CallInProgress> calls_in_progress() override;
    // How many writes wait for the writer's next batch (tests: a write known to be queued).
    [[nodiscard]] std::size_t writes_queued() { return writer_->queued(); }

  protected:
    void run_read(sql::Work work) override;
    void run_write(sql::Work work) override;
    void run_transaction(sql::Work work) override;
    std::unique_ptr<SqlStore> begin_request() override;
    void commit_request() override;
    void rollback_request() override;
    KnownKeys& known_keys() override { return shared_->known_keys; }
    // In the write's transaction, as its last statement: SQLite's one writer commits the count
    // with the batch.
    void count_rows(sql::Db& db, const Uuid& account, std::int64_t rows, bool refusable) override {
        (void)sql::take_rows(db, account, rows, 0, shared_->clock.now(), refusable);
    }

  private:
    struct Shared;
    // An Idempotency-Key request's store (begin_idempotent): the same database, with its writes
    // in the request's savepoint of one of the writer's batches.
    SqliteStore(std::shared_ptr<Shared> shared,
                std::unique_ptr<SqliteWriter::RequestTransaction> request);

    class Lease;
    Lease lease();
    std::unique_ptr<sqlite::Connection> open_connection();
    // Runs `work` on the writer (sqlite_writer.hpp) and returns once it is durable; in a
    // request's store, in the request's savepoint of a batch, durable with commit_request.
    void batched(const SqliteWriter::Work& work);
    void migrate(sqlite::Connection& db);

    // The database's connections, shared by the store and its requests' stores.
    struct Shared {
        explicit Shared(SqliteOptions o);
        ~Shared();
        Shared(const Shared&) = delete;
        Shared& operator=(const Shared&) = delete;
        SqliteOptions options;
        std::mutex mutex;
        std::vector<std::unique_ptr<sqlite::Connection>> idle;
        KnownKeys known_keys;
        // Set once, before the server serves (Store::set_clock).
        Clock clock;
        // Copies the WAL into the database file beside the writes (sqlite_checkpointer.hpp).
        std::unique_ptr<WalCheckpointer> checkpointer;
        // Every write goes through it (sqlite_writer.hpp). Last, so that it stops first and
        // removes its WAL hook before the checkpointer goes.
        std::unique_ptr<SqliteWriter> writer;
    };
    std::shared_ptr<Shared> shared_;
    // The request's transaction, in a request's store; null in the store itself.
    std::unique_ptr<SqliteWriter::RequestTransaction> request_;
    // Shared's members, by the names the operations use.
    SqliteOptions& options_ = shared_->options;
    std::mutex& mutex_ = shared_->mutex;
    std::vector<std::unique_ptr<sqlite::Connection>>& idle_ = shared_->idle;
    std::unique_ptr<WalCheckpointer>& checkpointer_ = shared_->checkpointer;
    std::unique_ptr<SqliteWriter>& writer_ = shared_->writer;
};

}  // namespace collectcall::server
