#include "sqlite_writer.hpp"

#include <sqlite3.h>

#include <condition_variable>
#include <mutex>
#include <utility>

#include "store_error.hpp"

namespace collectcall::server {

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

// What a request's thread and the writer's thread share while the request is part of a batch.
// The request's thread uses the connection only with `mutex` held and the phase open; the
// writer's thread waits on `changed` meanwhile, for the phase to change or the hold limit.
struct SqliteWriter::Held {
    enum class Phase {
        waiting,  // the first write is queued
        open,     // the savepoint is open and the connection lent: the request's writes run in it
        closed,   // ended by the request: released (then settled) or rolled back
        expired,  // rolled back at the hold limit
        lost,     // the batch's transaction failed: nothing of it was kept
    };

    std::mutex mutex;
    std::condition_variable changed;
    Phase phase = Phase::waiting;
    Connection* connection = nullptr;  // lent while open
    std::exception_ptr lost;           // why the transaction failed under the request
    bool settled = false;              // the batch's commit has run, or failed
    std::exception_ptr outcome;        // why the batch kept nothing

    // The batch is over: committed (`error` null) or failed.
    void settle(const std::exception_ptr& error) {
        std::lock_guard lock(mutex);
        if (error && (phase == Phase::waiting || phase == Phase::open)) phase = Phase::lost;
        settled = true;
        outcome = error;
        changed.notify_all();
    }

    // The transaction failed while the request used it: the writer's thread fails the batch.
    void lose(std::exception_ptr error) {
        phase = Phase::lost;
        lost = std::move(error);
        changed.notify_all();
    }

    // Throws unless the request's savepoint is open. Called with `mutex` held.
    void require_open() const {
        switch (phase) {
            case Phase::open:
                return;
            case Phase::expired:
                throw StoreError("the request held the database writer past its limit", true);
            case Phase::lost:
                if (lost) std::rethrow_exception(lost);
                if (outcome) std::rethrow_exception(outcome);
                throw StoreError("the request's transaction failed", true);
            case Phase::waiting:
            case Phase::closed:
                break;
        }
        throw StoreError("the request's transaction has ended", false);
    }
};

namespace {

// Runs `work` in a savepoint of its own, rolled back alone when it throws (the error in `error`).
// False when the failure took the whole transaction with it (a hard failure: disk full, I/O
// error), and the writes before it are gone too.
bool run_item(const SqliteWriter::Work& work, Connection& db, std::exception_ptr& error) {
    Query(db, "SAVEPOINT batch_item").run();
    try {
        work(db);
        Query(db, "RELEASE batch_item").run();
        return true;
    } catch (...) {
        error = std::current_exception();
        if (sqlite3_get_autocommit(db.handle()) != 0) return false;
        Query(db, "ROLLBACK TO batch_item").run();
        Query(db, "RELEASE batch_item").run();
        return true;
    }
}

}  // namespace

SqliteWriter::SqliteWriter(std::unique_ptr<Connection> connection,
                           std::chrono::milliseconds hold_limit)
    : connection_(std::move(connection)),
      hold_limit_(hold_limit),
      thread_([this] { write_batches(); }) {}

SqliteWriter::~SqliteWriter() {
    queue_.stop();
    thread_.join();
    sqlite3_wal_hook(connection_->handle(), nullptr, nullptr);  // before its owner goes
}

SqliteWriter::RequestTransaction::~RequestTransaction() {
    if (held_) rollback(*held_);
}

std::unique_ptr<SqliteWriter::RequestTransaction> SqliteWriter::begin_request() {
    return std::make_unique<RequestTransaction>();
}

void SqliteWriter::commit_request(RequestTransaction& request) {
    if (!request.held_) return;  // nothing written
    const std::shared_ptr<Held> held = request.held_;
    std::unique_lock lock(held->mutex);
    held->require_open();
    try {
        const sqlite::LentTurn turn;
        Query(*held->connection, "RELEASE request").run();
        held->phase = Held::Phase::closed;
        held->changed.notify_all();
    } catch (...) {
        held->lose(std::current_exception());
    }
    held->changed.wait(lock, [&] { return held->settled; });
    request.held_.reset();  // committed, or gone with its batch: nothing to roll back
    if (held->outcome) std::rethrow_exception(held->outcome);
}

void SqliteWriter::rollback(Held& held) {
    std::lock_guard lock(held.mutex);
    if (held.phase != Held::Phase::open) return;  // ended already, or never begun
    try {
        const sqlite::LentTurn turn;
        Query(*held.connection, "ROLLBACK TO request").run();
        Query(*held.connection, "RELEASE request").run();
        held.phase = Held::Phase::closed;
        held.changed.notify_all();
    } catch (...) {
        held.lose(std::current_exception());
    }
}

void SqliteWriter::write_held(Held& held, const Work& work) {
    std::lock_guard lock(held.mutex);
    held.require_open();
    std::exception_ptr error;
    bool kept = false;
    try {
        const sqlite::LentTurn turn;
        kept = run_item(work, *held.connection, error);
    } catch (...) {
        error = std::current_exception();
    }
    if (!kept) held.lose(error);
    if (error) std::rethrow_exception(error);
}

std::size_t SqliteWriter::queued() {
    return queue_.size();
}

// The write joins the queue, and the writer thread runs it in its next batch.
void SqliteWriter::write(const Work& work, RequestTransaction* request) {
    if (request != nullptr && request->held_) return write_held(*request->held_, work);
    PendingWrite pending;
    pending.run = &work;
    if (request != nullptr) {
        request->held_ = std::make_shared<Held>();
        pending.held = request->held_;
    }
    queue_.push(&pending);
    pending.done.wait();
    if (pending.error) std::rethrow_exception(pending.error);
    // A request's: the batch has lent it the connection, in its savepoint.
    if (request != nullptr) write_held(*request->held_, work);
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
    while (queue_.take(batch)) {  // false: stopping, and every write is done
        run_batch(batch);
        for (PendingWrite* write : batch) {
            if (write != nullptr) write->wake();  // a request's was woken when it began
        }
    }
}

std::exception_ptr SqliteWriter::hold(PendingWrite*& slot, Connection& db) {
    PendingWrite& first = *slot;
    const std::shared_ptr<Held> held = first.held;
    Query(db, "SAVEPOINT request").run();
    std::unique_lock lock(held->mutex);
    held->phase = Held::Phase::open;
    held->connection = &db;
    slot = nullptr;
    first.wake();  // its thread runs its writes: `first` is not this thread's any more
    const bool ended =
        held->changed.wait_until(lock, std::chrono::steady_clock::now() + hold_limit_,
                                 [&] { return held->phase != Held::Phase::open; });
    if (!ended) {
        // Past its limit (a request that does not end must not keep the writer): its writes go,
        // and only those. The request's thread is not writing: it would hold the lock.
        Query(db, "ROLLBACK TO request").run();
        Query(db, "RELEASE request").run();
        held->phase = Held::Phase::expired;
        return nullptr;
    }
    return held->phase == Held::Phase::lost ? held->lost : nullptr;
}

void SqliteWriter::run_batch(std::vector<PendingWrite*>& batch) {
    const auto start = std::chrono::steady_clock::now();
    // The requests of the batch: each is settled once, with the batch's commit or its failure.
    std::vector<std::shared_ptr<Held>> requests;
    for (PendingWrite* write : batch) {
        if (write->held) requests.push_back(write->held);
    }
    const auto settle = [&](const std::exception_ptr& error) {
        for (PendingWrite* write : batch) {
            if (write != nullptr) write->error = error;
        }
        for (const auto& held : requests)
            held->settle(error);
    };
    try {
        Connection& db = *connection_;
        Transaction tx(db);
        // By index: the writes queued while a request held the batch are appended.
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (batch[i]->held) {
                if (auto lost = hold(batch[i], db)) return settle(lost);
                // The writes queued while the request held the batch join it; another
                // request's first write waits for the next batch (a batch holds only the
                // requests it began with).
                queue_.take_now(batch, [](const PendingWrite& w) { return !w.held; });
            } else if (!run_item(*batch[i]->run, db, batch[i]->error)) {
                return settle(batch[i]->error);
            }
        }
        tx.commit();
        if (observer_) observer_(batch.size(), std::chrono::steady_clock::now() - start);
        for (const auto& held : requests)
            held->settle(nullptr);
    } catch (...) {
        settle(std::current_exception());
    }
}

}  // namespace collectcall::server
