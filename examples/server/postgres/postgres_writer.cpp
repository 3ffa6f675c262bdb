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
    command,      // BEGIN: ran
    preparation,  // a statement's preparation: forgotten when it did not run
    statement,    // a write's statement: ran and changed one row
};
struct Expected {
    Sent kind;
    const char* sql = nullptr;  // a preparation's statement
};

// A statement of a blind write, kept until the write's work has returned: the statements of a
// work that throws are never sent, so that no savepoint has to undo them.
struct Deferred {
    const char* sql;
    pg::BoundValues values;
};

// A statement of a blind write, taken to have changed one row, which the batch checks before it
// commits.
class DeferredCursor final : public pg::BoundCursor {
  public:
    DeferredCursor(std::vector<Deferred>& deferred, const char* sql)
        : deferred_(deferred), sql_(sql) {}
    bool step() override {
        if (taken_) return false;
        taken_ = true;
        deferred_.push_back(Deferred{sql_, take_values()});
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
    std::vector<Deferred>& deferred_;
    const char* sql_;
    bool taken_ = false;
};

class DeferringDb final : public sql::Db {
  public:
    explicit DeferringDb(std::vector<Deferred>& deferred) : deferred_(deferred) {}
    [[nodiscard]] std::unique_ptr<sql::Cursor> open(const char* sql) override {
        return std::make_unique<DeferredCursor>(deferred_, sql);
    }
    [[nodiscard]] sql::Dialect dialect() const override { return sql::Dialect::postgres; }

  private:
    std::vector<Deferred>& deferred_;
};

// The texts live as long as the process.
const char* const begin = "BEGIN";

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
        std::vector<Deferred> statements;
        DeferringDb deferring(statements);
        for (PendingWrite* write : batch) {
            statements.clear();
            try {
                write->work(deferring);
            } catch (const std::logic_error&) {
                write->error = std::current_exception();  // a work that was not blind: a bug
                continue;
            } catch (...) {
                // Nothing of it is sent. Its throw rests on what it was told of its statements
                // (a refusal of the daily budget for a row that may be a duplicate), so it runs
                // again on its own, where it is told what they did.
                write->again = true;
                continue;
            }
            for (Deferred& statement : statements) {
                pg::add_values(db.params(), statement.values);
                if (db.pipeline_statement(statement.sql) == 2)
                    expected.push_back(Expected{Sent::preparation, statement.sql});
                expected.push_back(Expected{Sent::statement});
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
            const auto durable = static_cast<std::size_t>(
                std::count_if(batch.begin(), batch.end(),
                              [](const PendingWrite* w) { return !w->again && !w->error; }));
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
