#include "postgres_writer.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "store_error.hpp"

namespace collectcall::server {

namespace {

// What the batch's pipeline holds, in order: what each result is checked for.
enum class Sent {
    command,      // BEGIN, SAVEPOINT, RELEASE, ROLLBACK TO: ran
    preparation,  // a statement's preparation: forgotten when it did not run
    statement,    // a write's statement: ran and changed one row
};
struct Expected {
    Sent kind;
    const char* sql = nullptr;  // a preparation's statement
};

// A statement of a blind write, sent into the pipeline when it is run. It is taken to have
// changed one row, which the batch checks before it commits.
class PipelinedCursor final : public pg::BoundCursor {
  public:
    PipelinedCursor(pg::Connection& connection, std::vector<Expected>& expected, const char* sql)
        : connection_(connection), expected_(expected), sql_(sql) {}
    bool step() override {
        if (sent_) return false;
        sent_ = true;
        add_to(connection_.params());
        if (connection_.pipeline_statement(sql_) == 2)
            expected_.push_back(Expected{Sent::preparation, sql_});
        expected_.push_back(Expected{Sent::statement});
        return false;  // a blind write's statement returns no rows
    }
    [[nodiscard]] std::int64_t affected() const override { return 1; }
    [[nodiscard]] bool is_null(int /*column*/) const override { no_rows(); }
    [[nodiscard]] std::string_view text(int /*column*/) const override { no_rows(); }
    [[nodiscard]] std::int64_t integer(int /*column*/) const override { no_rows(); }
    [[nodiscard]] bool boolean(int /*column*/) const override { no_rows(); }
    [[nodiscard]] bool bytes(int /*column*/, std::span<unsigned char> /*out*/) const override {
        no_rows();
    }

  private:
    [[noreturn]] static void no_rows() {
        throw std::logic_error("a blind write read a row (SqlStore::run_blind)");
    }
    pg::Connection& connection_;
    std::vector<Expected>& expected_;
    const char* sql_;
    bool sent_ = false;
};

class PipelinedDb final : public sql::Db {
  public:
    PipelinedDb(pg::Connection& connection, std::vector<Expected>& expected)
        : connection_(connection), expected_(expected) {}
    [[nodiscard]] std::unique_ptr<sql::Cursor> open(const char* sql) override {
        return std::make_unique<PipelinedCursor>(connection_, expected_, sql);
    }
    [[nodiscard]] sql::Dialect dialect() const override { return sql::Dialect::postgres; }

  private:
    pg::Connection& connection_;
    std::vector<Expected>& expected_;
};

// The texts live as long as the process.
const char* const begin = "BEGIN";
const char* const savepoint = "SAVEPOINT write";
const char* const release = "RELEASE write";
const char* const rollback_to = "ROLLBACK TO SAVEPOINT write";

}  // namespace

PostgresWriter::PostgresWriter(const std::string& uri)
    : connection_(uri, 1), thread_([this] { write_batches(); }) {}

PostgresWriter::~PostgresWriter() {
    queue_.stop();
    thread_.join();
}

bool PostgresWriter::write(sql::Work work) {
    PendingWrite pending(work);
    queue_.push(&pending);
    pending.done.wait();
    if (pending.again) return false;
    if (pending.error) std::rethrow_exception(pending.error);
    return true;
}

// The writer's thread: takes the writes waiting (at most max_batch), runs them in one
// transaction, wakes their threads after the commit, and goes on with the writes that arrived
// meanwhile.
void PostgresWriter::write_batches() {
    std::vector<PendingWrite*> batch;
    while (queue_.take(batch, max_batch)) {  // false: stopping, and every write is done
        run_batch(batch);
        for (PendingWrite* write : batch)
            write->done.post();
    }
}

void PostgresWriter::run_batch(const std::vector<PendingWrite*>& batch) {
    const auto start = std::chrono::steady_clock::now();
    bool kept = false;
    try {
        auto connection = connection_.lease();
        pg::Connection& db = *connection;
        std::vector<Expected> expected;
        const auto command = [&](const char* sql) {
            db.pipeline_command(sql);
            expected.push_back(Expected{Sent::command});
        };
        db.pipeline_begin();
        // Until pipeline_end(), nothing here throws but a failure to allocate: the connection is
        // then given up (Pool drops a broken one) rather than left in the middle of a pipeline.
        struct Open {
            pg::Connection& db;
            bool open = true;
            ~Open() {
                if (open) db.abandon();
            }
        } pipeline{db};
        command(begin);
        PipelinedDb pipelined(db, expected);
        for (PendingWrite* write : batch) {
            command(savepoint);
            try {
                write->work(pipelined);
                command(release);
            } catch (...) {
                write->error = std::current_exception();
                command(rollback_to);
                command(release);
            }
        }
        db.pipeline_sync();
        bool as_told = true;
        for (const Expected& e : expected) {
            const pg::Result result = db.pipeline_result();
            const bool ran = result.ok();
            if (e.kind == Sent::preparation && !ran) db.forget_prepared(e.sql);
            // A statement that changed another number of rows, or returned rows (a work that
            // was not blind), was not what its work was told.
            if (!ran || (e.kind == Sent::statement && (result.affected() != 1 || !result.empty())))
                as_told = false;
        }
        db.pipeline_end();
        pipeline.open = false;
        if (as_told) {
            kept = true;  // from here on, a failure is the batch's: the COMMIT may have been made
            db.exec("COMMIT");
            const auto durable = static_cast<std::size_t>(std::count_if(
                batch.begin(), batch.end(), [](const PendingWrite* w) { return !w->error; }));
            if (observer_ && durable > 0)
                observer_(durable, std::chrono::steady_clock::now() - start);
        } else if (db.transaction_sent()) {
            db.exec("ROLLBACK");
        }
    } catch (...) {
        // Before the COMMIT: each write runs again on its own. The COMMIT itself: whether it was
        // made is not known, and no write of the batch is acknowledged or run again.
        if (kept) {
            const std::exception_ptr error = std::current_exception();
            for (PendingWrite* write : batch)
                write->error = error;
            return;
        }
    }
    if (kept) return;
    for (PendingWrite* write : batch) {
        write->error = nullptr;
        write->again = true;
    }
}

}  // namespace collectcall::server
