#include "sqlite.hpp"

#include <algorithm>

#include <sqlite3.h>

namespace collectcall::server::sqlite {

namespace {

// Conditions of the environment rather than of the program: the client may retry later.
bool is_unavailable(int rc) {
    switch (rc & 0xFF) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
        case SQLITE_FULL:
        case SQLITE_READONLY:
        case SQLITE_IOERR:
        case SQLITE_CANTOPEN:
        case SQLITE_NOMEM:
        case SQLITE_PROTOCOL:
            return true;
        default:
            return false;
    }
}

// By default SQLite counts every allocation of every connection in process-wide statistics,
// under a process-wide mutex; the server reads none of them. Turned off before the first
// connection, as sqlite3_config allows only before SQLite initialises (should something else in
// the process have initialised it first, the statistics stay on, which costs speed only).
void configure_process() {
    static const bool configured = [] {
        return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    }();
    (void)configured;
}

}  // namespace

Connection::Connection(const std::string& path, bool create, int busy_timeout_ms) {
    configure_process();
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (create) flags |= SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = "cannot open database " + path + ": ";
        message += db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw StoreError(message, is_unavailable(rc));
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, busy_timeout_ms);
}

Connection::~Connection() {
    statements_.clear();  // finalize before closing
    sqlite3_close_v2(db_);
}

void Connection::fail(int rc, std::string_view what) const {
    std::string message(what);
    message += ": ";
    message += sqlite3_errmsg(db_);
    message += " (";
    message += sqlite3_errstr(rc);
    message += ')';
    throw StoreError(message, is_unavailable(rc));
}

void Connection::exec(const char* sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        std::string message = error != nullptr ? error : sqlite3_errstr(rc);
        sqlite3_free(error);
        throw StoreError("exec failed: " + message, is_unavailable(rc));
    }
}

Statement& Connection::prepare(const char* sql) {
    auto it = statements_.find(sql);
    if (it == statements_.end()) {
        it = statements_.emplace(sql, std::make_unique<Statement>(*this, sql)).first;
    }
    return *it->second;
}

std::int64_t Connection::changes() const {
    return sqlite3_changes64(db_);
}

Statement::Statement(Connection& connection, const char* sql) : connection_(connection) {
    // A statement of the store's dialect (sql/sql.hpp) is translated once, here.
    std::string translated;
    if (sql::needs_translation(sql, sql::Dialect::sqlite)) {
        translated = sql::translate(sql, sql::Dialect::sqlite);
        sql = translated.c_str();
    }
    const int rc = sqlite3_prepare_v3(connection.handle(), sql, -1, SQLITE_PREPARE_PERSISTENT,
                                      &stmt_, nullptr);
    if (rc != SQLITE_OK) connection.fail(rc, "prepare failed");
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

void Statement::reset() noexcept {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

Query::Query(Connection& connection, const char* sql) : statement_(connection.prepare(sql)) {}

Query::~Query() {
    statement_.reset();
}

Query& Query::bind(int index, std::string_view text) {
    const int rc = sqlite3_bind_text64(statement_.handle(), index, text.data(), text.size(),
                                       SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK) statement_.connection().fail(rc, "bind failed");
    return *this;
}

Query& Query::bind_static(int index, std::string_view text) {
    const int rc = sqlite3_bind_text64(statement_.handle(), index, text.data(), text.size(),
                                       SQLITE_STATIC, SQLITE_UTF8);
    if (rc != SQLITE_OK) statement_.connection().fail(rc, "bind failed");
    return *this;
}

Query& Query::bind(int index, std::int64_t value) {
    const int rc = sqlite3_bind_int64(statement_.handle(), index, value);
    if (rc != SQLITE_OK) statement_.connection().fail(rc, "bind failed");
    return *this;
}

Query& Query::bind_blob(int index, std::span<const unsigned char> bytes) {
    const int rc = sqlite3_bind_blob64(statement_.handle(), index, bytes.data(), bytes.size(),
                                       SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) statement_.connection().fail(rc, "bind failed");
    return *this;
}

Query& Query::bind_null(int index) {
    const int rc = sqlite3_bind_null(statement_.handle(), index);
    if (rc != SQLITE_OK) statement_.connection().fail(rc, "bind failed");
    return *this;
}

Query& Query::bind_optional(int index, const std::optional<std::string_view>& text) {
    return text ? bind(index, *text) : bind_null(index);
}

std::mutex& writer_turn() {
    static std::mutex turn;
    return turn;
}

namespace {
// Whether this thread has the turn through a Transaction (BEGIN IMMEDIATE itself is a write to
// sqlite3_stmt_readonly, and runs while the connection is still in autocommit mode).
thread_local bool has_turn = false;
}  // namespace

LentTurn::LentTurn() : had_turn_(has_turn) {
    has_turn = true;
}

LentTurn::~LentTurn() {
    has_turn = had_turn_;
}

bool Query::step() {
    sqlite3_stmt* stmt = statement_.handle();
    std::unique_lock<std::mutex> turn;
    if (!has_turn && !sqlite3_stmt_readonly(stmt) &&
        sqlite3_get_autocommit(sqlite3_db_handle(stmt)) != 0) {
        turn = std::unique_lock(writer_turn());  // a write outside a transaction
    }
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    statement_.connection().fail(rc, "step failed");
}

void Query::run() {
    while (step()) {
    }
}

int Query::columns() const {
    return sqlite3_column_count(statement_.handle());
}

bool Query::is_null(int column) const {
    return sqlite3_column_type(statement_.handle(), column) == SQLITE_NULL;
}

std::string_view Query::text(int column) const {
    const auto* data = sqlite3_column_text(statement_.handle(), column);
    const int size = sqlite3_column_bytes(statement_.handle(), column);
    if (data == nullptr) return {};
    return {reinterpret_cast<const char*>(data), static_cast<std::size_t>(size)};
}

std::int64_t Query::integer(int column) const {
    return sqlite3_column_int64(statement_.handle(), column);
}

std::span<const unsigned char> Query::blob(int column) const {
    const void* data = sqlite3_column_blob(statement_.handle(), column);
    const int size = sqlite3_column_bytes(statement_.handle(), column);
    if (data == nullptr) return {};
    return {static_cast<const unsigned char*>(data), static_cast<std::size_t>(size)};
}

Transaction::Transaction(Connection& connection)
    : nested_(has_turn && sqlite3_get_autocommit(connection.handle()) == 0),
      connection_(connection) {
    if (nested_) {
        // Inside a transaction this thread runs (a batch of writes): a savepoint of its own.
        Query(connection_, "SAVEPOINT nested").run();
        return;
    }
    turn_ = std::unique_lock(writer_turn());
    has_turn = true;
    try {
        Query(connection_, "BEGIN IMMEDIATE").run();
    } catch (...) {
        has_turn = false;
        throw;
    }
}

Transaction::~Transaction() {
    if (!nested_) has_turn = false;  // the turn itself is released after this body, by turn_
    if (!open_) return;
    try {
        if (nested_) {
            if (sqlite3_get_autocommit(connection_.handle()) == 0) {
                Query(connection_, "ROLLBACK TO nested").run();
                Query(connection_, "RELEASE nested").run();
            }
        } else {
            Query(connection_, "ROLLBACK").run();
        }
    } catch (const StoreError&) {
        // SQLite rolls back by itself when a statement fails hard (disk full, I/O error); then
        // there is nothing left to roll back and this error says only that.
    }
}

void Transaction::commit() {
    if (nested_) {
        Query(connection_, "RELEASE nested").run();
        open_ = false;
        return;
    }
    Query(connection_, "COMMIT").run();
    open_ = false;
    has_turn = false;
    turn_.unlock();
}

// --- The store's interface (sql/sql.hpp) ----------------------------------------------------

namespace {

class SqliteCursor final : public sql::Cursor {
  public:
    SqliteCursor(Connection& connection, const char* sql)
        : query_(connection, sql), connection_(connection) {}
    void bind_text(int index, std::string_view text, bool stable) override {
        if (stable) {
            query_.bind_static(index, text);
        } else {
            query_.bind(index, text);
        }
    }
    void bind_integer(int index, std::int64_t value) override { query_.bind(index, value); }
    void bind_boolean(int index, bool value) override {
        query_.bind(index, std::int64_t{value ? 1 : 0});
    }
    void bind_bytes(int index, std::span<const unsigned char> bytes) override {
        query_.bind_blob(index, bytes);
    }
    void bind_null(int index) override { query_.bind_null(index); }
    bool step() override {
        if (done_) return false;
        if (query_.step()) return true;
        done_ = true;
        affected_ = connection_.changes();
        return false;
    }
    [[nodiscard]] std::int64_t affected() const override { return affected_; }
    [[nodiscard]] bool is_null(int column) const override { return query_.is_null(column); }
    [[nodiscard]] std::string_view text(int column) const override { return query_.text(column); }
    [[nodiscard]] std::int64_t integer(int column) const override { return query_.integer(column); }
    [[nodiscard]] bool boolean(int column) const override { return query_.boolean(column); }
    [[nodiscard]] bool bytes(int column, std::span<unsigned char> out) const override {
        const std::span<const unsigned char> blob = query_.blob(column);
        if (blob.size() != out.size()) return false;
        std::copy(blob.begin(), blob.end(), out.begin());
        return true;
    }

  private:
    Query query_;
    Connection& connection_;
    bool done_ = false;
    std::int64_t affected_ = 0;
};

}  // namespace

std::unique_ptr<sql::Cursor> Db::open(const char* sql) {
    return std::make_unique<SqliteCursor>(connection_, sql);
}

}  // namespace collectcall::server::sqlite
