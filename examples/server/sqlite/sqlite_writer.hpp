// The group-commit writer of the SQLite store (sqlite_store.hpp): every write of the store goes
// through its one connection, one writer at a time. SQLite admits one writer anyway; with a single
// connection for it, that connection's page cache stays valid from one write to the next (another
// connection's commit would invalidate it, and every write would begin by reading its pages
// again).
//
// The writes of concurrent requests are run together by the writer's thread in one BEGIN
// IMMEDIATE transaction, each in a SAVEPOINT of its own, and made durable by one COMMIT (one
// fsync of the WAL). Each write returns only after that commit; a write that fails is rolled
// back to its savepoint and fails alone. A commit that fails fails every write of its batch.
//
// An Idempotency-Key request's writes are one participant of a batch (RequestTransaction): its
// first write joins the queue like any other; when the batch comes to it, the writer's thread
// opens a savepoint for the request and lends the connection, inside the batch's transaction, to
// the request's thread, which runs its writes there itself and then the recording of its answer,
// while the writer's thread waits. The request's reads and computing come before its first write
// (the handlers'), so the writer waits for the length of its writes and of writing its answer.
// Its end closes the savepoint: released by commit_request, which returns once the batch's one
// COMMIT has made it durable; rolled back when the request is abandoned (its own writes, and
// only those: nothing else runs inside it). Then the batch goes on: the writes queued meanwhile
// run in the same batch and share its commit, instead of waiting for the next. A request that
// does not end within its hold limit is rolled back the same way by the writer's thread, and its
// later calls fail with the store's unavailable error (503).
#pragma once

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "baton.hpp"
#include "sqlite.hpp"
#include "store.hpp"
#include "write_queue.hpp"

namespace collectcall::server {

class SqliteWriter {
  private:
    struct Held;

  public:
    using Work = std::function<void(sqlite::Connection&)>;

    // Writes through `connection`, from a thread of its own started here. An Idempotency-Key
    // request holds the writer at most `hold_limit` from its first write to its end.
    SqliteWriter(std::unique_ptr<sqlite::Connection> connection,
                 std::chrono::milliseconds hold_limit);
    // Runs the writes still queued, stops the thread, and removes the connection's WAL hook.
    ~SqliteWriter();
    SqliteWriter(const SqliteWriter&) = delete;
    SqliteWriter& operator=(const SqliteWriter&) = delete;

    // An Idempotency-Key request's writes (store.hpp), a participant of one batch from its first
    // write to commit_request. Destroyed uncommitted, it rolls them back and frees the writer.
    class RequestTransaction {
      public:
        RequestTransaction() = default;
        ~RequestTransaction();
        RequestTransaction(const RequestTransaction&) = delete;
        RequestTransaction& operator=(const RequestTransaction&) = delete;

      private:
        friend class SqliteWriter;
        // Shared with the writer's thread from the first write on (null before it): either side
        // may be done with it first.
        std::shared_ptr<Held> held_;
    };

    // Runs `work` in the next batch in a savepoint of its own and returns once it is durable, or
    // with `request` in the request's savepoint (on this thread) and returns once it has run;
    // rethrows what it threw.
    void write(const Work& work, RequestTransaction* request = nullptr);

    // Counts each commit: the writes it made durable (a request's counts as one) and how long it
    // took.
    void observe_commits(Store::CommitObserver observer);

    [[nodiscard]] std::unique_ptr<RequestTransaction> begin_request();
    // Closes the request's savepoint and returns once the batch's commit has made its writes
    // durable (none: nothing to commit); throws, keeping none of them, when that commit fails or
    // the request outlived its hold limit.
    void commit_request(RequestTransaction& request);

    // How many writes wait for a batch (tests: a write known to be queued behind a request).
    [[nodiscard]] std::size_t queued();

  private:
    // A write waiting for its batch: its work, and once run, whether it failed. Each waits on a
    // baton of its own, so that a commit wakes exactly the threads whose writes it made
    // durable, instead of every writer waiting, and each once (baton.hpp).
    struct PendingWrite {
        const Work* run = nullptr;
        // A request's first write: the request's part of the batch, which goes on after it (the
        // request's thread runs the write itself once the batch lends it the connection).
        std::shared_ptr<Held> held;
        std::exception_ptr error;  // written before `done` is posted
        Baton done;
        // Wakes the write's thread, which owns this object and may destroy it at once.
        void wake() noexcept { done.post(); }
    };

    void write_batches();
    void run_batch(std::vector<PendingWrite*>& batch);
    // Lends the connection to the request whose first write is `*slot` until it ends or its hold
    // limit passes; sets `*slot` to null once its thread has it. The error that lost the batch's
    // transaction, or null.
    std::exception_ptr hold(PendingWrite*& slot, sqlite::Connection& db);
    // A write of a request, run by the request's thread in the request's savepoint.
    static void write_held(Held& held, const Work& work);
    static void rollback(Held& held);

    std::unique_ptr<sqlite::Connection> connection_;  // used by the writer's thread only
    const std::chrono::milliseconds hold_limit_;

    WriteQueue<PendingWrite> queue_;  // writes waiting for the next batch
    Store::CommitObserver observer_;  // set before any write

    // Runs the batches (write_batches); stopped first, by the destructor.
    std::thread thread_;
};

}  // namespace collectcall::server
