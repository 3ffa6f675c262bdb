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
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "sqlite.hpp"
#include "store.hpp"

namespace collectcall::server {

class SqliteWriter {
  public:
    using Work = std::function<void(sqlite::Connection&)>;

    // Writes through `connection`, from a thread of its own started here.
    explicit SqliteWriter(std::unique_ptr<sqlite::Connection> connection);
    // Runs the writes still queued, stops the thread, and removes the connection's WAL hook.
    ~SqliteWriter();
    SqliteWriter(const SqliteWriter&) = delete;
    SqliteWriter& operator=(const SqliteWriter&) = delete;

    // An Idempotency-Key request's transaction on the writer connection (store.hpp): the writes
    // made with it wait in it, holding the writer from the first of them (the handler's work
    // after the write: microseconds), until commit_request commits them with the recording of
    // the request's answer. Destroyed uncommitted, it rolls them back and frees the writer.
    struct RequestTransaction {
        explicit RequestTransaction(SqliteWriter& by) : writer(by) {}
        SqliteWriter& writer;
        std::unique_lock<std::mutex> lock;  // the writer connection, from the first write
        std::optional<sqlite::Transaction> transaction;  // destroyed first: rolled back
    };

    // Runs `work` in the next batch, or with `request` in the request's transaction, in a
    // savepoint of its own; returns once it is durable (in a batch) and rethrows what it threw.
    void write(const Work& work, RequestTransaction* request = nullptr);

    // Counts each commit: the writes it made durable and how long it took.
    void observe_commits(Store::CommitObserver observer);

    [[nodiscard]] std::unique_ptr<RequestTransaction> begin_request();
    // Commits the request's writes (none: nothing to commit) and frees the writer.
    void commit_request(RequestTransaction& request);

  private:
    // A write waiting for its batch: its work, and once run, whether it failed. Each waits on a
    // condition of its own, so that a commit wakes exactly the threads whose writes it made
    // durable, instead of every writer waiting.
    struct PendingWrite {
        const Work* run = nullptr;
        std::exception_ptr error;
        std::mutex mutex;
        std::condition_variable changed;
        bool done = false;  // guarded by `mutex`
        // Wakes the write's thread. The notification is made under the lock: the waiting thread,
        // which owns this object, cannot return (and destroy it) before.
        void wake() {
            std::lock_guard lock(mutex);
            done = true;
            changed.notify_one();
        }
    };
    class Lease;

    void write_batches();
    void run_batch(const std::vector<PendingWrite*>& batch);

    std::mutex connection_mutex_;
    std::unique_ptr<sqlite::Connection> connection_;

    std::mutex batch_mutex_;
    std::condition_variable queued_;    // a write joins an empty queue, or the writer stops
    std::vector<PendingWrite*> queue_;  // writes waiting for the next batch
    bool stopping_ = false;             // guarded by batch_mutex_
    Store::CommitObserver observer_;    // set before any write

    // Runs the batches (write_batches); stopped first, by the destructor.
    std::thread thread_;
};

}  // namespace collectcall::server
