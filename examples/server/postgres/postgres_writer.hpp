// Group commit on PostgreSQL (postgres_store.hpp) for blind writes (SqlStore::run_blind: a
// write whose statements each change one row and return none, such as POST /customers'
// INSERT ... ON CONFLICT DO NOTHING): the writes of concurrent requests are run by one thread on
// one connection in one transaction, and made durable by one COMMIT (one WAL flush,
// synchronous_commit on), as SQLite's writer shares one commit.
//
// Nothing waits for a statement's result: the writer runs each write's work, told ahead that
// each of its statements changed its one row; once the work has returned, its statements go
// into libpq's pipeline. Then the sync point: the batch is one round trip, and its COMMIT a
// second. A work that threw (a refusal of its own, such as the daily budget's, which rests on
// what it was told) sent nothing, needs no savepoint, and runs again in a transaction of its own.
// The results are checked before the COMMIT is sent:
// - every statement ran and changed one row: the batch commits;
// - a statement failed, changed no row (a duplicate externalId) or returned rows: what the writes
//   were told was not so. The transaction is rolled back, nothing of it kept, and each write of the
//   batch runs again in a transaction of its own (PostgresStore's pool), as every write did without
//   group commit; each is then answered as it would have been.
// Each write returns only after the commit that made it durable, or after its own transaction.
#pragma once

#include <cstddef>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "baton.hpp"
#include "postgres.hpp"
#include "sql/sql.hpp"
#include "store.hpp"
#include "write_queue.hpp"

namespace collectcall::server {

class PostgresWriter {
  public:
    // Writes through a connection to `uri` of its own (reopened after a failure), from a thread
    // of its own started here.
    explicit PostgresWriter(const std::string& uri);
    // Runs the writes still queued and stops the thread.
    ~PostgresWriter();
    PostgresWriter(const PostgresWriter&) = delete;
    PostgresWriter& operator=(const PostgresWriter&) = delete;

    // Runs `work` in the next batch and returns true once it is durable (rethrowing a
    // std::logic_error the work threw: a work that was not blind); false when the batch did not
    // keep it (it threw, or the batch kept nothing) and the caller is to run `work` again in a
    // transaction of its own.
    bool write(sql::Work work);

    // Counts each commit: the writes it made durable and how long its transaction took. Set
    // before any write.
    void observe_commits(Store::CommitObserver observer) { observer_ = std::move(observer); }

  private:
    struct PendingWrite {
        explicit PendingWrite(sql::Work w) : work(w) {}
        sql::Work work;
        std::exception_ptr error;  // these two are written before `done` is posted
        bool again = false;
        Baton done;
    };

    // At most this many writes in a transaction: a batch that did not go as its writes were told
    // runs each of them again on its own, and the first of them waits for all.
    static constexpr std::size_t max_batch = 48;

    void write_batches();
    void run_batch(const std::vector<PendingWrite*>& batch);

    pg::Pool connection_;  // one connection, used by the writer's thread only

    WriteQueue<PendingWrite> queue_;  // writes waiting for the next batch
    Store::CommitObserver observer_;

    std::thread thread_;  // runs the batches; stopped first, by the destructor
};

}  // namespace collectcall::server
