// A thin RAII layer over the SQLite C API: connections, cached prepared statements,
// transactions, and errors that say whether the storage is unavailable (503) or broken (500).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sql/sql.hpp"
#include "store_error.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace collectcall::server {

namespace sqlite {

class Statement;

// One connection. Not thread-safe: each thread works on a connection of its own.
class Connection {
  public:
    // Opens (creating when allowed) the database file.
    Connection(const std::string& path, bool create, int busy_timeout_ms);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Runs one or more statements without results.
    void exec(const char* sql);
    // The statement for `sql`, prepared on first use and kept for the life of the connection.
    // `sql` must be a string literal (its address is the cache key).
    Statement& prepare(const char* sql);

    [[nodiscard]] std::int64_t changes() const;
    [[nodiscard]] sqlite3* handle() const noexcept { return db_; }
    [[noreturn]] void fail(int rc, std::string_view what) const;

  private:
    sqlite3* db_ = nullptr;
    std::unordered_map<const char*, std::unique_ptr<Statement>> statements_;
};

// A prepared statement, reused across executions. Use it through a Query, which resets it.
class Statement {
  public:
    Statement(Connection& connection, const char* sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void reset() noexcept;
    [[nodiscard]] sqlite3_stmt* handle() const noexcept { return stmt_; }
    [[nodiscard]] Connection& connection() const noexcept { return connection_; }

  private:
    Connection& connection_;
    sqlite3_stmt* stmt_ = nullptr;
};

// One execution of a cached statement: bind, step, read columns; resets on destruction so the
// statement is ready for the next use (and releases its read snapshot).
class Query {
  public:
    Query(Connection& connection, const char* sql);
    ~Query();
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    // Parameters are 1-based, as in SQL. Text and blobs are copied (SQLITE_TRANSIENT).
    Query& bind(int index, std::string_view text);
    Query& bind(int index, std::int64_t value);
    // Text that SQLite reads where it lies, without a copy: it must stay valid and unchanged
    // until this Query is destroyed (which resets the statement).
    Query& bind_static(int index, std::string_view text);
    Query& bind_blob(int index, std::span<const unsigned char> bytes);
    Query& bind_null(int index);
    Query& bind_optional(int index, const std::optional<std::string_view>& text);

    // Advances to the next row; false when done.
    bool step();
    // Runs a statement that returns no row.
    void run();

    [[nodiscard]] int columns() const;
    [[nodiscard]] bool is_null(int column) const;
    [[nodiscard]] std::string_view text(int column) const;
    [[nodiscard]] std::int64_t integer(int column) const;
    // SQLite has no boolean: 0 is false.
    [[nodiscard]] bool boolean(int column) const { return integer(column) != 0; }
    [[nodiscard]] std::span<const unsigned char> blob(int column) const;

  private:
    Statement& statement_;
};

// The turn of this process's writers. SQLite lets one writer in at a time and makes the others
// wait in its busy handler, which polls with sleeps of up to 100 ms: under concurrent writes
// that is where latency goes. Writers of one process queue here instead, and the busy handler
// is left to wait for other processes only. Taken by Transaction and by a statement that
// writes outside a transaction.
std::mutex& writer_turn();

// While it lives, this thread writes inside the transaction of the thread that holds the turn,
// which waits meanwhile (an Idempotency-Key request's writes in the writer's batch,
// sqlite_writer.hpp): a Transaction begun here is a savepoint of that transaction.
class LentTurn {
  public:
    LentTurn();
    ~LentTurn();
    LentTurn(const LentTurn&) = delete;
    LentTurn& operator=(const LentTurn&) = delete;

  private:
    bool had_turn_;
};

// A write transaction (BEGIN IMMEDIATE: the write lock is taken up front, so that a
// read-then-write never fails on a lock upgrade). Rolled back unless committed.
// BEGIN IMMEDIATE ... COMMIT, rolled back unless committed. Inside a transaction the same
// thread already runs (SqliteStore's batches), a SAVEPOINT that commit() releases.
class Transaction {
  public:
    explicit Transaction(Connection& connection);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    void commit();

  private:
    bool nested_;  // a savepoint inside this thread's transaction (a batch of writes)
    std::unique_lock<std::mutex> turn_;
    Connection& connection_;
    bool open_ = true;
};

// A connection as the store's statements see it (sql/sql.hpp).
class Db final : public sql::Db {
  public:
    explicit Db(Connection& connection) : connection_(connection) {}
    [[nodiscard]] std::unique_ptr<sql::Cursor> open(const char* sql) override;
    [[nodiscard]] sql::Dialect dialect() const override { return sql::Dialect::sqlite; }

  private:
    Connection& connection_;
};

}  // namespace sqlite
}  // namespace collectcall::server
