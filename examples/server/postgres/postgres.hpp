// A thin RAII layer over libpq: connections that prepare each statement once and keep it,
// results, a pool sized for the worker threads, and transactions that are retried when
// PostgreSQL reports a deadlock or a serialization failure. Errors are StoreError (sqlite.hpp):
// a lost connection, a server shutting down or out of disk is `unavailable` (503).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sql/sql.hpp"
#include "store_error.hpp"

struct pg_conn;
struct pg_result;

namespace collectcall::server::pg {

// True when `db` names a PostgreSQL database (a postgresql:// or postgres:// URI).
bool is_uri(std::string_view db);

// A unique index refused a row (SQLSTATE 23505).
class UniqueViolation : public StoreError {
  public:
    using StoreError::StoreError;
};

// A deadlock or serialization failure: the transaction may simply be run again.
class Retry : public StoreError {
  public:
    using StoreError::StoreError;
};

class Result {
  public:
    Result() = default;
    explicit Result(pg_result* result) : result_(result) {}
    ~Result();
    Result(Result&& other) noexcept : result_(std::exchange(other.result_, nullptr)) {}
    Result& operator=(Result&& other) noexcept;
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;

    [[nodiscard]] int rows() const;
    [[nodiscard]] int columns() const;
    [[nodiscard]] bool empty() const { return rows() == 0; }
    [[nodiscard]] std::string_view text(int row, int column) const;
    [[nodiscard]] bool is_null(int row, int column) const;
    [[nodiscard]] std::int64_t integer(int row, int column) const;
    // The number of rows an INSERT, UPDATE or DELETE touched.
    [[nodiscard]] std::int64_t affected() const;
    // The statement ran (a command, or a query with its rows); false for an error, a query not
    // run because one before it in a pipeline failed, or no result.
    [[nodiscard]] bool ok() const;

    // One row, with the accessors rows.hpp maps a row through.
    class Row {
      public:
        Row(const Result& result, int row) : result_(result), row_(row) {}
        [[nodiscard]] std::string_view text(int column) const { return result_.text(row_, column); }
        [[nodiscard]] bool is_null(int column) const { return result_.is_null(row_, column); }
        [[nodiscard]] std::int64_t integer(int column) const {
            return result_.integer(row_, column);
        }
        // A boolean column as PostgreSQL writes it in text: t or f.
        [[nodiscard]] bool boolean(int column) const { return text(column) == "t"; }

      private:
        const Result& result_;
        int row_;
    };
    [[nodiscard]] Row row(int row) const { return Row(*this, row); }

  private:
    pg_result* result_ = nullptr;
};

// Parameters of one statement, all sent as text. The bytes live in one buffer that the
// connection reuses from statement to statement.
class Params {
  public:
    Params& add(std::string_view value);
    Params& add(std::int64_t value);
    Params& add_null();

  private:
    friend class Connection;
    void clear() {
        bytes_.clear();
        offsets_.clear();
    }
    std::string bytes_;
    std::vector<std::ptrdiff_t> offsets_;  // -1: NULL
    std::vector<const char*> values_;
};

// A statement's bound parameters, in the order of their indexes: each a text, or none for NULL.
using BoundValues = std::vector<std::optional<std::string>>;

// Adds `values` to `params`, in order.
void add_values(Params& params, const BoundValues& values);

// A cursor's bound parameters (sql::Cursor), each kept as text (none: NULL) until its statement
// is sent: the binding of the cursor that runs its statement (postgres.cpp) and of the one that
// pipelines a blind write (postgres_writer.cpp).
class BoundCursor : public sql::Cursor {
  public:
    void bind_text(int index, std::string_view text, bool /*stable*/) override {
        slot(index).emplace(text);
    }
    void bind_integer(int index, std::int64_t value) override {
        slot(index).emplace(std::to_string(value));
    }
    void bind_boolean(int index, bool value) override { slot(index).emplace(value ? "t" : "f"); }
    void bind_bytes(int index, std::span<const unsigned char> bytes) override;
    void bind_null(int index) override { slot(index).reset(); }

  protected:
    // Adds the bound values to `params`, in the order of their indexes.
    void add_to(Params& params) const { add_values(params, values_); }
    // The bound values, taken: none are left bound.
    BoundValues take_values() { return std::move(values_); }

  private:
    std::optional<std::string>& slot(int index);
    BoundValues values_;
};

// One connection. Not thread-safe: used by one thread at a time (see Pool).
class Connection {
  public:
    explicit Connection(const std::string& uri);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Opens a transaction. Its BEGIN is sent with the transaction's first statement, in one
    // round trip (libpq's pipeline mode), rather than on its own: a transaction of one write is
    // two round trips instead of three, and one that runs nothing (COMMIT or ROLLBACK right
    // after) none.
    void begin() { begin_pending_ = true; }
    // Ends the transaction begin() opened; nothing is sent for one that ran no statement.
    void commit() { end("COMMIT"); }
    void rollback() { end("ROLLBACK"); }
    // Runs statements without parameters (several may be given, separated by ';').
    void exec(const char* sql);
    // The parameters of the next `query`; empty.
    Params& params() {
        params_.clear();
        return params_;
    }
    // Runs `sql` with the parameters last set through params(). `sql` must live as long as the
    // process (a string literal or a static string): its address is the key of the statement
    // prepared for it on first use.
    Result query(const char* sql);
    // Runs `sql` once, without parameters and without preparing it (tools and tests).
    Result run(const std::string& sql);

    [[nodiscard]] bool broken() const;
    [[nodiscard]] bool in_transaction() const;
    // A transaction was begun on the server (its BEGIN sent).
    [[nodiscard]] bool transaction_sent() const;

    // --- Statements sent without waiting for their results (libpq's pipeline mode), for the
    // group commit of postgres_writer.hpp. Between pipeline_begin() and pipeline_end(), only
    // these are used.
    void pipeline_begin();
    // Queues the command `sql` (one statement without parameters): one result.
    void pipeline_command(const char* sql);
    // Queues `sql` (as query() takes it) with the parameters last set through params(): one
    // result, or two when its preparation is queued before it (its first use on this
    // connection; the first of the two is the preparation's).
    int pipeline_statement(const char* sql);
    // Sends what is queued, with a sync point: the server runs it. Then the results in order,
    // each once (a Result without one when the connection is lost).
    void pipeline_sync();
    Result pipeline_result();
    // Reads the sync point's result and leaves pipeline mode.
    void pipeline_end();
    // The connection is not to be used again (a pipeline left unfinished).
    void abandon() noexcept { unusable_ = true; }
    // The preparation of `sql` queued in a pipeline did not run: prepared again on its next use.
    void forget_prepared(const char* sql) { prepared_.erase(sql); }

  private:
    [[noreturn]] void fail(pg_result* result, std::string_view what);
    // Sends the BEGIN that begin() put off, on its own.
    void send_pending_begin();
    // Runs the pending BEGIN and the prepared statement `name` in one pipeline.
    pg_result* begin_and_execute(const std::string& name);
    // COMMIT or ROLLBACK, unless the transaction ran nothing (BEGIN still pending).
    void end(const char* sql);

    pg_conn* conn_ = nullptr;
    bool begin_pending_ = false;
    // A pipeline that could not be ended: the connection is not used again.
    bool unusable_ = false;
    Params params_;
    std::unordered_map<const char*, std::string> prepared_;
    std::size_t statements_named_ = 0;  // the next prepared statement's name: s0, s1, ...
    // Translates `sql` for PostgreSQL (sql/sql.hpp) and names it: its name and text.
    std::pair<std::string, std::string> name_statement(const char* sql);
    void bind_params();
};

// Connections for the threads of one process: at most `size` open at once, a thread waits for
// one when all are taken. Connections are opened when first needed and reopened after a failure.
class Pool {
  public:
    Pool(std::string uri, std::size_t size) : uri_(std::move(uri)), size_(size) {}
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;

    class Lease {
      public:
        Lease(Pool& pool, std::unique_ptr<Connection> connection)
            : pool_(&pool), connection_(std::move(connection)), use_(connection_.get()) {}
        // A Pinned transaction's connection: borrowed, not given back.
        explicit Lease(Connection& pinned) : pool_(nullptr), use_(&pinned) {}
        ~Lease();
        Lease(Lease&& other) noexcept
            : pool_(other.pool_), connection_(std::move(other.connection_)), use_(other.use_) {}
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        Connection& operator*() const { return *use_; }
        Connection* operator->() const { return use_; }

      private:
        Pool* pool_;
        std::unique_ptr<Connection> connection_;
        Connection* use_;
    };

    // One transaction held open across operations, on a connection of the pool, until commit()
    // or rollback() (or its destruction: rolled back). An Idempotency-Key's work and the
    // recording of its answer are committed together this way (store.hpp).
    class Pinned {
      public:
        explicit Pinned(Pool& pool);
        ~Pinned() { rollback(); }
        Pinned(const Pinned&) = delete;
        Pinned& operator=(const Pinned&) = delete;
        // Its connection; null once committed or rolled back.
        [[nodiscard]] Connection* connection() const { return lease_ ? &**lease_ : nullptr; }
        void commit();
        void rollback() noexcept;

      private:
        std::optional<Lease> lease_;
    };

    // A connection of the pool, or with `pinned` open, its connection.
    Lease lease(const Pinned* pinned = nullptr);
    [[nodiscard]] const std::string& uri() const { return uri_; }

    // Runs `work(connection)` in a transaction and commits; runs it again (at most a few times)
    // when PostgreSQL reports a deadlock or a serialization failure. Whatever `work` throws rolls
    // the transaction back. With `pinned` open, `work` runs in a savepoint of its transaction
    // instead, once.
    template <class Work>
    auto transaction(Work&& work, const Pinned* pinned_transaction = nullptr) {
        if (Connection* pinned =
                pinned_transaction != nullptr ? pinned_transaction->connection() : nullptr) {
            pinned->exec("SAVEPOINT work");
            try {
                auto result = work(*pinned);
                pinned->exec("RELEASE work");
                return result;
            } catch (...) {
                rollback_to_savepoint(*pinned);
                throw;
            }
        }
        for (int attempt = 1;; ++attempt) {
            auto connection = lease();
            try {
                connection->begin();
                auto result = work(*connection);
                connection->commit();
                return result;
            } catch (const Retry&) {
                rollback(*connection);
                if (attempt >= 8) throw;
            } catch (...) {
                rollback(*connection);
                throw;
            }
        }
    }

  private:
    static void rollback(Connection& connection) noexcept;
    static void rollback_to_savepoint(Connection& connection) noexcept;
    void give_back(std::unique_ptr<Connection> connection);

    std::string uri_;
    std::size_t size_;
    std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<Connection>> idle_;
    std::size_t open_ = 0;
};

// The connections of a store's operations: its pool's, or while an Idempotency-Key request's
// transaction is open (Pool::Pinned), that transaction's connection, every transaction() a
// savepoint in it.
class Connections {
  public:
    Connections(Pool& pool, const Pool::Pinned* pinned) : pool_(pool), pinned_(pinned) {}
    [[nodiscard]] Pool::Lease lease() const { return pool_.lease(pinned_); }
    template <class Work>
    auto transaction(Work&& work) const {
        return pool_.transaction(std::forward<Work>(work), pinned_);
    }

  private:
    Pool& pool_;
    const Pool::Pinned* pinned_;
};

// A connection as the store's statements see it (sql/sql.hpp).
class Db final : public sql::Db {
  public:
    explicit Db(Connection& connection) : connection_(connection) {}
    [[nodiscard]] std::unique_ptr<sql::Cursor> open(const char* sql) override;
    [[nodiscard]] sql::Dialect dialect() const override { return sql::Dialect::postgres; }

  private:
    Connection& connection_;
};

// A lease's length as an interval PostgreSQL reads ("60000 milliseconds").
inline std::string lease_interval(std::chrono::milliseconds lease) {
    return std::to_string(lease.count()) + " milliseconds";
}

// Appends `value` to a PostgreSQL array literal being built in `out` (which starts as "{"),
// quoted and escaped; the caller closes it with '}'.
void append_array_element(std::string& out, std::string_view value);

}  // namespace collectcall::server::pg
