#include "postgres.hpp"

#include "crypto.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstring>
#include <optional>

namespace collectcall::server::pg {

bool is_uri(std::string_view db) {
    return db.starts_with("postgresql://") || db.starts_with("postgres://");
}

// --- Result ----------------------------------------------------------------------------------

Result::~Result() {
    if (result_ != nullptr) PQclear(result_);
}

Result& Result::operator=(Result&& other) noexcept {
    if (this != &other) {
        if (result_ != nullptr) PQclear(result_);
        result_ = std::exchange(other.result_, nullptr);
    }
    return *this;
}

int Result::rows() const {
    return result_ == nullptr ? 0 : PQntuples(result_);
}

int Result::columns() const {
    return result_ == nullptr ? 0 : PQnfields(result_);
}

std::string_view Result::text(int row, int column) const {
    return {PQgetvalue(result_, row, column),
            static_cast<std::size_t>(PQgetlength(result_, row, column))};
}

bool Result::is_null(int row, int column) const {
    return PQgetisnull(result_, row, column) != 0;
}

std::int64_t Result::integer(int row, int column) const {
    const std::string_view t = text(row, column);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (ec != std::errc{} || end != t.data() + t.size()) {
        throw StoreError("stored data is not readable: not an integer", false);
    }
    return value;
}

bool Result::ok() const {
    const auto status = result_ == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(result_);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

std::int64_t Result::affected() const {
    const char* n = result_ == nullptr ? "" : PQcmdTuples(result_);
    std::int64_t value = 0;
    std::from_chars(n, n + std::strlen(n), value);
    return value;
}

// --- Params ----------------------------------------------------------------------------------

Params& Params::add(std::string_view value) {
    offsets_.push_back(static_cast<std::ptrdiff_t>(bytes_.size()));
    bytes_.append(value);
    bytes_.push_back('\0');  // libpq reads text parameters up to their NUL
    return *this;
}

Params& Params::add(std::int64_t value) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    return add(std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

Params& Params::add_null() {
    offsets_.push_back(-1);
    return *this;
}

// --- Connection ------------------------------------------------------------------------------

Connection::Connection(const std::string& uri) {
    conn_ = PQconnectdb(uri.c_str());
    if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
        std::string message = conn_ != nullptr ? PQerrorMessage(conn_) : "out of memory";
        while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
            message.pop_back();
        if (conn_ != nullptr) PQfinish(conn_);
        conn_ = nullptr;
        throw StoreError("cannot connect to PostgreSQL: " + message, true);
    }
    // Every commit waits for its WAL flush (the default; said here so that a server-wide
    // setting cannot turn acknowledged writes into lost ones), and notices stay off stderr.
    exec("SET synchronous_commit = on");
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);
}

Connection::~Connection() {
    if (conn_ != nullptr) PQfinish(conn_);
}

bool Connection::broken() const {
    return conn_ == nullptr || unusable_ || PQstatus(conn_) != CONNECTION_OK;
}

bool Connection::in_transaction() const {
    return begin_pending_ || (conn_ != nullptr && PQtransactionStatus(conn_) != PQTRANS_IDLE);
}

bool Connection::transaction_sent() const {
    return conn_ != nullptr && PQtransactionStatus(conn_) != PQTRANS_IDLE;
}

void Connection::fail(pg_result* result, std::string_view what) {
    const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    std::string message = std::string(what) + ": ";
    const char* text = result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
    message += (text != nullptr && *text != '\0') ? text : PQerrorMessage(conn_);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
        message.pop_back();
    // A copy: the SQLSTATE lives in the result, which is cleared here.
    const std::string code = state != nullptr ? state : "";
    if (result != nullptr) PQclear(result);
    if (code == "23505") throw UniqueViolation(message, false);
    if (code == "40001" || code == "40P01") throw Retry(message, true);
    // Connection lost (08), out of resources such as disk or connections (53), the server
    // shutting down or unavailable (57P), a read-only transaction or standby (25006): an
    // operator fixes these, a client retries.
    const bool unavailable = code.empty() || code.starts_with("08") || code.starts_with("53") ||
                             code.starts_with("57P") || code == "25006" || broken();
    throw StoreError(message, unavailable);
}

void Connection::exec(const char* sql) {
    if (begin_pending_) send_pending_begin();
    pg_result* result = PQexec(conn_, sql);
    const auto status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(result, "PostgreSQL");
    PQclear(result);
}

void Connection::send_pending_begin() {
    begin_pending_ = false;
    exec("BEGIN");
}

void Connection::end(const char* sql) {
    if (begin_pending_) {
        begin_pending_ = false;
        return;
    }
    exec(sql);
}

pg_result* Connection::begin_and_execute(const std::string& name) {
    begin_pending_ = false;
    if (PQenterPipelineMode(conn_) != 1) fail(nullptr, "PostgreSQL pipeline");
    const bool sent =
        PQsendQueryParams(conn_, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0) == 1 &&
        PQsendQueryPrepared(conn_, name.c_str(), static_cast<int>(params_.values_.size()),
                            params_.values_.data(), nullptr, nullptr, 0) == 1 &&
        PQpipelineSync(conn_) == 1;
    // Each query's result, then a null that ends it; then the sync point. A lost connection
    // gives nulls throughout.
    const auto next = [this]() -> pg_result* {
        pg_result* first = PQgetResult(conn_);
        if (first != nullptr) {
            while (pg_result* more = PQgetResult(conn_))
                PQclear(more);
        }
        return first;
    };
    pg_result* begun = sent ? next() : nullptr;
    pg_result* result = sent ? next() : nullptr;
    if (sent) {
        if (pg_result* sync = PQgetResult(conn_)) PQclear(sync);
    }
    if (PQexitPipelineMode(conn_) != 1) unusable_ = true;
    if (!sent || unusable_ || PQresultStatus(begun) != PGRES_COMMAND_OK) {
        if (result != nullptr) PQclear(result);
        fail(begun, "PostgreSQL");
    }
    PQclear(begun);
    return result;
}

std::pair<std::string, std::string> Connection::name_statement(const char* sql) {
    // A name never given before on this connection: a preparation queued in a pipeline that
    // failed may have been made all the same.
    std::string name = "s" + std::to_string(statements_named_++);
    // A statement of the store's dialect (sql/sql.hpp) is translated once, here.
    std::string text = sql::needs_translation(sql, sql::Dialect::postgres)
                           ? sql::translate(sql, sql::Dialect::postgres)
                           : std::string(sql);
    return {std::move(name), std::move(text)};
}

void Connection::bind_params() {
    params_.values_.clear();
    for (const std::ptrdiff_t offset : params_.offsets_) {
        params_.values_.push_back(offset < 0 ? nullptr : params_.bytes_.data() + offset);
    }
}

Result Connection::query(const char* sql) {
    auto it = prepared_.find(sql);
    if (it == prepared_.end()) {
        if (begin_pending_) send_pending_begin();  // prepared first, on its own
        auto [name, text] = name_statement(sql);
        pg_result* prepared = PQprepare(conn_, name.c_str(), text.c_str(), 0, nullptr);
        if (PQresultStatus(prepared) != PGRES_COMMAND_OK) fail(prepared, "PostgreSQL prepare");
        PQclear(prepared);
        it = prepared_.emplace(sql, std::move(name)).first;
    }
    bind_params();
    pg_result* result =
        begin_pending_
            ? begin_and_execute(it->second)
            : PQexecPrepared(conn_, it->second.c_str(), static_cast<int>(params_.values_.size()),
                             params_.values_.data(), nullptr, nullptr, 0);
    params_.clear();
    const auto status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(result, "PostgreSQL");
    return Result(result);
}

void Connection::pipeline_begin() {
    if (PQenterPipelineMode(conn_) != 1) fail(nullptr, "PostgreSQL pipeline");
}

void Connection::pipeline_command(const char* sql) {
    if (PQsendQueryParams(conn_, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) != 1)
        unusable_ = true;
}

int Connection::pipeline_statement(const char* sql) {
    int results = 1;
    auto it = prepared_.find(sql);
    if (it == prepared_.end()) {
        auto [name, text] = name_statement(sql);
        if (PQsendPrepare(conn_, name.c_str(), text.c_str(), 0, nullptr) != 1) unusable_ = true;
        it = prepared_.emplace(sql, std::move(name)).first;
        results = 2;
    }
    bind_params();
    if (PQsendQueryPrepared(conn_, it->second.c_str(), static_cast<int>(params_.values_.size()),
                            params_.values_.data(), nullptr, nullptr, 0) != 1)
        unusable_ = true;
    params_.clear();
    return results;
}

void Connection::pipeline_sync() {
    if (PQpipelineSync(conn_) != 1) unusable_ = true;
}

Result Connection::pipeline_result() {
    if (unusable_) return Result();
    pg_result* first = PQgetResult(conn_);
    if (first != nullptr) {
        while (pg_result* more = PQgetResult(conn_))  // the null that ends the query's results
            PQclear(more);
    }
    return Result(first);
}

void Connection::pipeline_end() {
    if (!unusable_) {
        if (pg_result* sync = PQgetResult(conn_)) PQclear(sync);
    }
    if (PQexitPipelineMode(conn_) != 1) unusable_ = true;
}

Result Connection::run(const std::string& sql) {
    if (begin_pending_) send_pending_begin();
    pg_result* result = PQexec(conn_, sql.c_str());
    const auto status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(result, "PostgreSQL");
    return Result(result);
}

// --- Pool ------------------------------------------------------------------------------------

Pool::Lease::~Lease() {
    if (pool_ != nullptr && connection_) pool_->give_back(std::move(connection_));
}

Pool::Pinned::Pinned(Pool& pool) {
    lease_.emplace(pool.lease());
    (*lease_)->begin();
}

void Pool::Pinned::commit() {
    if (!lease_) return;
    const Lease taken = std::move(*lease_);  // ended whatever COMMIT does
    lease_.reset();
    taken->commit();
}

void Pool::Pinned::rollback() noexcept {
    if (!lease_) return;
    const Lease taken = std::move(*lease_);
    lease_.reset();
    Pool::rollback(*taken);
}

void Pool::rollback_to_savepoint(Connection& connection) noexcept {
    try {
        if (!connection.broken()) {
            connection.exec("ROLLBACK TO SAVEPOINT work");
            connection.exec("RELEASE work");
        }
    } catch (...) {  // NOLINT(bugprone-empty-catch): the transaction fails as a whole then
    }
}

Pool::Lease Pool::lease(const Pinned* pinned) {
    if (Connection* connection = pinned != nullptr ? pinned->connection() : nullptr) {
        return Lease(*connection);
    }
    {
        std::unique_lock lock(mutex_);
        available_.wait(lock, [&] { return !idle_.empty() || open_ < size_; });
        if (!idle_.empty()) {
            auto connection = std::move(idle_.back());
            idle_.pop_back();
            return Lease(*this, std::move(connection));
        }
        ++open_;
    }
    try {
        return Lease(*this, std::make_unique<Connection>(uri_));
    } catch (...) {
        std::lock_guard lock(mutex_);
        --open_;
        available_.notify_one();
        throw;
    }
}

void Pool::give_back(std::unique_ptr<Connection> connection) {
    // A connection left inside a transaction (an exception between BEGIN and its end) or broken
    // is closed; the next lease opens a fresh one.
    if (connection->in_transaction() && !connection->broken()) rollback(*connection);
    std::lock_guard lock(mutex_);
    if (connection->broken() || connection->in_transaction()) {
        connection.reset();
        --open_;
    } else {
        idle_.push_back(std::move(connection));
    }
    available_.notify_one();
}

void Pool::rollback(Connection& connection) noexcept {
    try {
        if (!connection.broken()) connection.rollback();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the connection is dropped when broken
    }
}

void append_array_element(std::string& out, std::string_view value) {
    out.push_back(out.size() == 1 ? '"' : ',');
    if (out.back() == ',') out.push_back('"');
    for (const char c : value) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    out.push_back('"');
}

// --- The store's interface (sql/sql.hpp) ----------------------------------------------------

void BoundCursor::bind_bytes(int index, std::span<const unsigned char> bytes) {
    slot(index).emplace(hex_encode(bytes));
}

void add_values(Params& params, const BoundValues& values) {
    for (const std::optional<std::string>& value : values) {
        if (value) {
            params.add(*value);
        } else {
            params.add_null();
        }
    }
}

std::optional<std::string>& BoundCursor::slot(int index) {
    const auto at = static_cast<std::size_t>(index - 1);
    if (values_.size() <= at) values_.resize(at + 1);
    return values_[at];
}

namespace {

class PgCursor final : public BoundCursor {
  public:
    PgCursor(Connection& connection, const char* sql) : connection_(connection), sql_(sql) {}
    bool step() override {
        if (!run_) {
            add_to(connection_.params());
            result_ = connection_.query(sql_);
            run_ = true;
        }
        if (row_ + 1 >= result_.rows()) {
            row_ = result_.rows();
            return false;
        }
        ++row_;
        return true;
    }
    [[nodiscard]] std::int64_t affected() const override { return result_.affected(); }
    [[nodiscard]] bool is_null(int column) const override { return result_.is_null(row_, column); }
    [[nodiscard]] std::string_view text(int column) const override {
        return result_.text(row_, column);
    }
    [[nodiscard]] std::int64_t integer(int column) const override {
        return result_.integer(row_, column);
    }
    [[nodiscard]] bool boolean(int column) const override { return text(column) == "t"; }
    [[nodiscard]] bool bytes(int column, std::span<unsigned char> out) const override {
        return collectcall::detail::lower_hex_decode_exact(text(column), out);
    }

  private:
    Connection& connection_;
    const char* sql_;
    Result result_;
    bool run_ = false;
    int row_ = -1;
};

}  // namespace

std::unique_ptr<sql::Cursor> Db::open(const char* sql) {
    return std::make_unique<PgCursor>(connection_, sql);
}

}  // namespace collectcall::server::pg
