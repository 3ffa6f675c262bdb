// The WAL checkpointer of the SQLite store (sqlite_store.hpp): copies the write-ahead log into the
// database file beside the writes, so that no batch of writes waits for it.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "sqlite.hpp"

struct sqlite3;

namespace collectcall::server {

// A checkpoint copies the WAL's pages into the database file and syncs both: at 16 MiB of WAL,
// tens of milliseconds on a disk that syncs a few hundred MB/s. Run by the committing
// connection, as SQLite does by itself (wal_autocheckpoint), the batch that triggered it and
// every write queued behind it would wait for it; a stream of bulk requests stored about 10%
// fewer customers per second that way. Here a thread with a connection of its own runs it
// instead, each time the WAL has grown by `due` pages, in PASSIVE mode, which waits for no
// writer and no reader. The WAL only starts over from its beginning at a write that finds every
// page of it copied, which a checkpoint beside a stream of writes seldom leaves; so once the WAL
// holds `limit` pages the writer checkpoints in line, copying only what the thread has not
// (under `due` pages), and the WAL starts over at the next write. The WAL file keeps its largest
// size, about `limit` pages.
class WalCheckpointer {
  public:
    // Checkpoints on `db`, a connection of its own, each time the WAL has grown by `due` pages;
    // the writer checkpoints in line at `limit` pages.
    WalCheckpointer(std::unique_ptr<sqlite::Connection> db, int due, int limit);
    WalCheckpointer(const WalCheckpointer&) = delete;
    WalCheckpointer& operator=(const WalCheckpointer&) = delete;
    ~WalCheckpointer();

    // The writer's sqlite3_wal_hook: called after each of its commits, with the pages in the WAL.
    static int committed(void* self, sqlite3* db, const char* schema, int pages);

  private:
    void run();

    std::unique_ptr<sqlite::Connection> db_;
    const int due_;
    const int limit_;
    // The writer's own: the WAL's size at its last commit, and the size that asks for the next
    // checkpoint.
    int last_ = 0;
    int next_ = due_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool due_now_ = false;   // guarded by mutex_
    bool stopping_ = false;  // guarded by mutex_
    std::thread thread_;     // last: started once the rest is ready
};

}  // namespace collectcall::server
