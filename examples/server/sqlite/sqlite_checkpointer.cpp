#include "sqlite_checkpointer.hpp"

#include <sqlite3.h>

#include <utility>

namespace collectcall::server {

WalCheckpointer::WalCheckpointer(std::unique_ptr<sqlite::Connection> db, int due, int limit)
    : db_(std::move(db)), due_(due), limit_(limit), thread_([this] { run(); }) {}

WalCheckpointer::~WalCheckpointer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

int WalCheckpointer::committed(void* self, sqlite3* db, const char* /*schema*/, int pages) {
    auto& c = *static_cast<WalCheckpointer*>(self);
    if (pages < c.last_) c.next_ = c.due_;  // the WAL started over
    c.last_ = pages;
    if (pages >= c.limit_) {
        // A failure here leaves the WAL as it is; the next commit tries again.
        (void)sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    } else if (pages >= c.next_) {
        c.next_ = pages + c.due_;
        {
            std::lock_guard lock(c.mutex_);
            c.due_now_ = true;
        }
        c.wake_.notify_one();
    }
    return SQLITE_OK;
}

void WalCheckpointer::run() {
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait(lock, [&] { return stopping_ || due_now_; });
        if (stopping_) return;
        due_now_ = false;
        lock.unlock();
        // SQLITE_BUSY (the writer checkpointing in line meanwhile) or a failure: the WAL stays as
        // it is, and the writer's next commits ask again.
        (void)sqlite3_wal_checkpoint_v2(db_->handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr,
                                        nullptr);
        lock.lock();
    }
}

}  // namespace collectcall::server
