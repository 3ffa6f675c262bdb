// A test's store (SQLite or PostgreSQL), with hooks a test can use to hold, slow or break an
// operation.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "postgres/postgres.hpp"
#include "postgres/postgres_store.hpp"
#include "sql/sql_store.hpp"
#include "sqlite/sqlite.hpp"
#include "sqlite/sqlite_store.hpp"

namespace test {

using namespace collectcall::server;

inline std::unique_ptr<SqlStore> open_sql_store(const std::string& db) {
    if (pg::is_uri(db)) {
        PostgresOptions options;
        options.uri = db;
        return std::make_unique<PostgresStore>(options);
    }
    return std::make_unique<SqliteStore>(SqliteOptions{db, 5000});
}

inline std::unique_ptr<Store> open_store(const std::string& db) {
    return open_sql_store(db);
}

// A SqlStore over another's backend: every Store method is SqlStore's own, run through the
// backend's seam, so only the methods with a hook are written here, and the writes are timed as
// any SqlStore's.
class HookedStore final : public SqlStore {
  public:
    explicit HookedStore(const std::string& db) : inner_(open_sql_store(db)) {}
    // Over a request's store: the hooks and counts of `root`.
    HookedStore(std::unique_ptr<SqlStore> request_store, HookedStore& root)
        : inner_(std::move(request_store)), hooks_(&root) {}

    std::function<void()> before_insert_customer;
    std::function<void()> before_find_customer;
    std::function<void()> before_check;
    std::function<void()> before_end_calls;
    std::atomic<int> key_lookups{0};
    std::atomic<int> inbound_reads{0};   // last_inbound_interaction: a message's text read
    std::atomic<int> end_calls_made{0};  // end_calls: writes that end calls
    std::atomic<int> calls_ended{0};     // and the calls given to those that returned

    void check() override {
        if (hooks_->before_check) hooks_->before_check();
        SqlStore::check();
    }
    std::optional<KeyRecord> find_api_key(std::string_view key_id) override {
        ++hooks_->key_lookups;
        return SqlStore::find_api_key(key_id);
    }
    std::optional<InteractionRecord> last_inbound_interaction(
        const collectcall::Uuid& a, const collectcall::Uuid& thread) override {
        ++hooks_->inbound_reads;
        return SqlStore::last_inbound_interaction(a, thread);
    }
    std::vector<bool> end_calls(std::span<const CallToEnd> endings) override {
        ++hooks_->end_calls_made;
        if (hooks_->before_end_calls) hooks_->before_end_calls();
        std::vector<bool> ended = SqlStore::end_calls(endings);
        hooks_->calls_ended += static_cast<int>(endings.size());
        return ended;
    }
    bool insert_customer(const collectcall::Uuid& a, const StoredCustomer& c) override {
        if (hooks_->before_insert_customer) hooks_->before_insert_customer();
        return SqlStore::insert_customer(a, c);
    }
    std::optional<StoredCustomer> find_customer(const collectcall::Uuid& a,
                                                const collectcall::Uuid& id) override {
        if (hooks_->before_find_customer) hooks_->before_find_customer();
        return SqlStore::find_customer(a, id);
    }

    // The backend's own Store methods.
    bool observe_commits(CommitObserver observer) override {
        return inner_->observe_commits(std::move(observer));
    }
    void set_clock(const Clock& clock) override { inner_->set_clock(clock); }
    std::vector<CallInProgress> calls_in_progress() override { return inner_->calls_in_progress(); }
    std::vector<CallInProgress> take_over_calls() override { return inner_->take_over_calls(); }

    // The backend's seam.
    void run_read(sql::Work work) override { inner_->run_read(work); }
    void run_write(sql::Work work) override { inner_->run_write(work); }
    void run_transaction(sql::Work work) override { inner_->run_transaction(work); }
    void run_blind(sql::Work work) override { inner_->run_blind(work); }
    std::unique_ptr<SqlStore> begin_request() override {
        return std::make_unique<HookedStore>(inner_->begin_request(), *hooks_);
    }
    void commit_request() override { inner_->commit_request(); }
    void rollback_request() override { inner_->rollback_request(); }
    [[nodiscard]] std::optional<std::string_view> call_owner() const override {
        return inner_->call_owner();
    }
    [[nodiscard]] KnownKeys& known_keys() override { return inner_->known_keys(); }
    void count_rows(sql::Db& db, const collectcall::Uuid& account, std::int64_t rows,
                    bool refusable) override {
        inner_->count_rows(db, account, rows, refusable);
    }

  private:
    std::unique_ptr<SqlStore> inner_;
    HookedStore* hooks_ = this;
};

}  // namespace test
