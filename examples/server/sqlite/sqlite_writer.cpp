#include "sqlite_writer.hpp"

#include <sqlite3.h>

#include <chrono>
#include <optional>
#include <utility>

namespace collectcall::server {

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

// The writer connection, held for the length of one batch or one request transaction.
class SqliteWriter::Lease {
  public:
    explicit Lease(SqliteWriter& writer) : lock_(writer.connection_mutex_), writer_(writer) {}
    Connection& operator*() const { return *writer_.connection_; }

  private:
    std::unique_lock<std::mutex> lock_;
    SqliteWriter& writer_;
};

SqliteWriter::SqliteWriter(std::unique_ptr<Connection> connection)
    : connection_(std::move(connection)), thread_([this] { write_batches(); }) {}

SqliteWriter::~SqliteWriter() {
    {
        std::lock_guard lock(batch_mutex_);
        stopping_ = true;
    }
    queued_.notify_one();
    thread_.join();
    sqlite3_wal_hook(connection_->handle(), nullptr, nullptr);  // before its owner goes
}

std::unique_ptr<SqliteWriter::RequestTransaction> SqliteWriter::begin_request() {
    return std::make_unique<RequestTransaction>(*this);
}

void SqliteWriter::commit_request(RequestTransaction& request) {
    if (!request.transaction) return;
    const auto start = std::chrono::steady_clock::now();
    request.transaction->commit();
    request.transaction.reset();
    request.lock = {};
    if (observer_) observer_(1, std::chrono::steady_clock::now() - start);
}

// The write joins the queue, and the writer thread runs it in its next batch.
void SqliteWriter::write(const Work& work, RequestTransaction* request) {
    if (request != nullptr) {
        // An Idempotency-Key request: its writes wait in its own transaction for its answer,
        // each write in a savepoint, as in a batch.
        if (!request->transaction) {
            request->lock = std::unique_lock(connection_mutex_);
            request->transaction.emplace(*connection_);
        }
        Transaction item(*connection_);
        work(*connection_);
        item.commit();
        return;
    }
    PendingWrite pending;
    pending.run = &work;
    bool first = false;
    {
        std::lock_guard lock(batch_mutex_);
        first = queue_.empty();
        queue_.push_back(&pending);
    }
    // The writer waits only on an empty queue; behind other writes, it will find this one.
    if (first) queued_.notify_one();
    {
        std::unique_lock lock(pending.mutex);
        pending.changed.wait(lock, [&] { return pending.done; });
    }
    if (pending.error) std::rethrow_exception(pending.error);
}

void SqliteWriter::observe_commits(Store::CommitObserver observer) {
    observer_ = std::move(observer);
}

// The writer thread: takes every write waiting, runs them in one transaction, wakes their
// threads after the commit, and goes on with the writes that arrived meanwhile. On a thread of
// its own, the next batch starts as soon as the last one is durable, instead of once a thread
// waiting for it has been woken to lead it (on busy cores, the longest part of the wait).
void SqliteWriter::write_batches() {
    std::vector<PendingWrite*> batch;
    std::unique_lock lock(batch_mutex_);
    while (true) {
        queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, and every write is done
        batch.swap(queue_);
        lock.unlock();
        run_batch(batch);
        for (PendingWrite* write : batch)
            write->wake();
        batch.clear();
        lock.lock();
    }
}

void SqliteWriter::run_batch(const std::vector<PendingWrite*>& batch) {
    const auto start = std::chrono::steady_clock::now();
    const auto fail_all = [&](std::exception_ptr error) {
        for (PendingWrite* write : batch)
            write->error = error;
    };
    try {
        Lease db(*this);
        Transaction tx(*db);
        for (PendingWrite* write : batch) {
            Query(*db, "SAVEPOINT batch_item").run();
            try {
                (*write->run)(*db);
                Query(*db, "RELEASE batch_item").run();
            } catch (...) {
                write->error = std::current_exception();
                if (sqlite3_get_autocommit((*db).handle()) != 0) {
                    // A hard failure (disk full, I/O error) rolled the whole transaction back:
                    // the writes before it are gone too.
                    return fail_all(write->error);
                }
                Query(*db, "ROLLBACK TO batch_item").run();
                Query(*db, "RELEASE batch_item").run();
            }
        }
        tx.commit();
        if (observer_) observer_(batch.size(), std::chrono::steady_clock::now() - start);
    } catch (...) {
        fail_all(std::current_exception());
    }
}

}  // namespace collectcall::server
