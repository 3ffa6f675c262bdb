// The Store on an SQL database, written once for both backends: each method's statements are in
// the one dialect of sql/sql.hpp, run through the backend's connections and write policy.
//
// A backend (sqlite/sqlite_store.hpp, postgres/postgres_store.hpp) gives only what is its own:
// how a read gets a connection, how a write is made durable (SQLite's group-commit writer,
// PostgreSQL's pool and its retried transactions), an Idempotency-Key request's transaction, its
// schema and migrations, and the few methods whose meaning differs (which calls in progress a
// process may take). The methods are implemented family by family in sql/store_*.cpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "sql/sql.hpp"
#include "sql/statements.hpp"
#include "store.hpp"

namespace collectcall::server {

// API keys found in the last second, by key id: a key's requests are authenticated without a read
// of the database each (on SQLite a read that reloads its pages after every commit; on PostgreSQL
// a round trip). A key removed from the database is refused a second later at most (by every
// process); keys not found are not kept.
class KnownKeys {
  public:
    [[nodiscard]] std::optional<KeyRecord> find(std::string_view key_id,
                                                std::chrono::steady_clock::time_point now);
    void keep(std::string_view key_id, const KeyRecord& record,
              std::chrono::steady_clock::time_point now);

  private:
    struct Known {
        KeyRecord record;
        std::chrono::steady_clock::time_point until;
    };
    static constexpr std::chrono::seconds lifetime{1};
    static constexpr std::size_t max_keys = 4096;  // then forgotten all at once
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view id) const noexcept {
            return std::hash<std::string_view>{}(id);
        }
    };
    std::shared_mutex mutex_;
    std::unordered_map<std::string, Known, Hash, std::equal_to<>> keys_;
};

class SqlStore : public Store {
  public:
    void check() override;
    // Every write below goes through writing() or transacting(), which time it: a new method is
    // timed without naming it anywhere else. Set before the store is shared between threads.
    bool observe_writes(WriteObserver observer) override {
        write_observer_ = std::move(observer);
        return true;
    }

    void charge_rows(const Uuid& account, std::int64_t rows) override;
    Credentials create_credentials(const AccountSetup& setup, Time now) override;
    bool has_accounts() override;
    std::optional<KeyRecord> find_api_key(std::string_view key_id) override;
    bool agent_assigned(const Uuid& account, std::string_view agent) override;
    AccountSettings account_settings(const Uuid& account) override;
    Account account(const Uuid& account) override;

    bool insert_customer(const Uuid& account, const StoredCustomer& customer) override;
    std::vector<bool> insert_customers(const Uuid& account,
                                       std::span<const StoredCustomer> customers) override;
    std::optional<StoredCustomer> find_customer(const Uuid& account, const Uuid& id) override;
    std::optional<StoredCustomer> find_customer_by_external_id(
        const Uuid& account, std::string_view external_id) override;
    std::optional<StoredCustomer> update_customer(
        const Uuid& account, const Uuid& id,
        const std::function<bool(StoredCustomer&)>& change) override;
    std::optional<StoredCustomer> change_standing(const Uuid& account, const Uuid& id,
                                                  const StandingChanger& change) override;

    std::optional<CallPlan> place_call(const Uuid& account, const Uuid& customer, Time since,
                                       const CallDecider& decide) override;
    std::optional<CallDetails> find_call(const Uuid& account, const Uuid& id) override;
    Page<CallDetails> list_calls(const Uuid& account, const Uuid& customer,
                                 const api::PageRequest& page) override;
    std::vector<bool> end_calls(std::span<const CallToEnd> endings) override;

    Page<ComplianceDecision> list_compliance_decisions(const Uuid& account, const Uuid& customer,
                                                       const api::PageRequest& page) override;

    std::optional<DripEnrolResult> enrol_drip(const Uuid& account, const Uuid& customer,
                                              std::string_view campaign, Time since,
                                              const DripEnrolDecider& decide) override;
    Page<DripEnrolment> list_drip_enrolments(const Uuid& account, const Uuid& customer,
                                             const api::PageRequest& page) override;
    std::optional<DripEnrolment> update_drip_enrolment(
        const Uuid& account, const Uuid& customer, const Uuid& id,
        const std::function<bool(DripEnrolment&)>& change) override;
    std::vector<DueEnrolment> due_drip_enrolments(Time now, std::size_t limit) override;
    std::optional<DripStepPlan> run_drip_step(const Uuid& account, const Uuid& enrolment, Time now,
                                              Time since, const DripStepRunner& run) override;

    ClientInsert insert_client(const Uuid& account, const Client& client, Time now) override;
    Page<Client> list_clients(const Uuid& account, const api::PageRequest& page) override;
    bool has_client(const Uuid& account, const Uuid& id) override;

    void insert_interactions(const Uuid& account, const Uuid& customer,
                             std::span<const InteractionRecord> records,
                             const StandingChanger& standing = {}) override;
    std::optional<InteractionRecord> find_interaction(const Uuid& account, const Uuid& id) override;
    Page<ListedInteraction> list_interactions(const Uuid& account, const Uuid& customer,
                                              const api::PageRequest& page) override;
    bool customer_has_thread(const Uuid& account, const Uuid& customer,
                             const Uuid& thread) override;
    std::optional<InteractionRecord> last_inbound_interaction(const Uuid& account,
                                                              const Uuid& thread) override;
    std::optional<InteractionPlan> record_interaction(const Uuid& account, const Uuid& customer,
                                                      Time since,
                                                      const InteractionDecider& decide) override;
    std::optional<std::string> find_call_transcript(const Uuid& account, const Uuid& call) override;
    StoredAnalysis save_analysis(const Uuid& account, const StoredAnalysis& analysis,
                                 const OutcomeApplier& apply) override;

    SecretInsert insert_webhook_secret(const Uuid& account, const Uuid& id, std::string_view secret,
                                       Time now) override;
    std::optional<std::string> find_webhook_secret(const Uuid& account, const Uuid& id) override;
    std::string server_key(std::string_view name, std::string_view candidate) override;

    IdempotencyBegin begin_idempotent(const Uuid& account, std::string_view key,
                                      const Sha256& fingerprint, Time now) override;
    void finish_idempotent(const Uuid& account, std::string_view key,
                           const StoredResponse& response) override;
    void abandon_idempotent(const Uuid& account, std::string_view key) override;
    std::int64_t sweep(Time now) override;

    // --- What a backend gives ---
    // Public so that a store can run over another's backend, overriding only the Store methods
    // it intercepts (the tests' fault hooks, tests/server/hooked_store.hpp); the handlers see
    // only Store.
    // Runs `work` on a connection for reads (in a request's store, PostgreSQL's request
    // transaction; SQLite's readers never see a write before its commit).
    virtual void run_read(sql::Work work) = 0;
    // Runs `work`, whose writes are one statement or need no transaction of their own, and
    // returns once they are durable (or part of the request's transaction).
    virtual void run_write(sql::Work work) = 0;
    // Runs `work` in a transaction, committed (durable) when it returns and rolled back when it
    // throws; a backend may run it again after a deadlock. In a request's store, a savepoint of the
    // request's transaction.
    virtual void run_transaction(sql::Work work) = 0;
    // Runs `work`, a blind write: each of its statements changes one row (when it does not, or
    // fails, what the work did is not kept) and returns none, and nothing it decides depends on
    // a row it reads. A backend may run it in one transaction with other requests' blind writes,
    // and then run it again in a transaction of its own (PostgreSQL's group commit,
    // postgres/postgres_writer.hpp). By default, run_transaction().
    virtual void run_blind(sql::Work work) { run_transaction(work); }
    // A store for an Idempotency-Key request: the same database, its writes in one transaction
    // (store.hpp, IdempotencyBegin::store; on SQLite, a savepoint of one of the writer's batches).
    virtual std::unique_ptr<SqlStore> begin_request() = 0;
    // In a request's store: commits the request's transaction (finish_idempotent), or rolls it
    // back (abandon_idempotent). Nothing in the store itself.
    virtual void commit_request() = 0;
    virtual void rollback_request() = 0;
    // The process that owns the calls it places (PostgreSQL: calls.owner, for take_over_calls);
    // none where one process has the database.
    [[nodiscard]] virtual std::optional<std::string_view> call_owner() const { return {}; }
    // The API keys found in the last second (KnownKeys), shared by the store and its requests'
    // stores.
    [[nodiscard]] virtual KnownKeys& known_keys() = 0;

    // Counts rows against the account's daily budget (charge(), below).
    virtual void count_rows(sql::Db& db, const Uuid& account, std::int64_t rows,
                            bool refusable) = 0;

  protected:
    // Counts `rows` stored rows of the account's against its daily budget, for the write of the
    // transaction of `db` (API.md section 17): throws QuotaExceeded, which rolls that transaction
    // back, when they would pass the budget and the write is `refusable`. SQLite counts in that
    // transaction (sql::take_rows); PostgreSQL from its process's leases (sql::RowLeases).
    void charge(sql::Db& db, const Uuid& account, std::int64_t rows, bool refusable = true) {
        if (rows > 0) count_rows(db, account, rows, refusable);
    }

    // The policies with a result. A write (writing(), transacting()) is one write for the write
    // observer, of `items` items when it stores several (the customers of a bulk, the messages of
    // an import), else of 1.
    template <class F>
    auto reading(F&& f) {
        return with(f, [this](sql::Work w) { run_read(w); });
    }
    template <class F>
    auto writing(F&& f) {
        return writing(1, f);
    }
    template <class F>
    auto writing(std::size_t items, F&& f) {
        return timed(items, [&] { return with(f, [this](sql::Work w) { run_write(w); }); });
    }
    template <class F>
    auto transacting(F&& f) {
        return transacting(1, f);
    }
    template <class F>
    auto writing_blind(F&& f) {
        return timed(1, [&] { return with(f, [this](sql::Work w) { run_blind(w); }); });
    }
    template <class F>
    auto transacting(std::size_t items, F&& f) {
        return timed(items, [&] { return with(f, [this](sql::Work w) { run_transaction(w); }); });
    }

    // Runs `work` as one write of `items` items, and reports how long it took to the write
    // observer (observe_writes) when it returns. writing() and transacting() are timed by it; a
    // write that is more than one of them (an answer and its request's commit) calls it itself.
    template <class Work>
    auto timed(std::size_t items, const Work& work) {
        const auto start = std::chrono::steady_clock::now();
        if constexpr (std::is_void_v<decltype(work())>) {
            work();
            wrote(items, start);
        } else {
            auto result = work();
            wrote(items, start);
            return result;
        }
    }

  private:
    void wrote(std::size_t items, std::chrono::steady_clock::time_point start) const {
        if (write_observer_) write_observer_(items, std::chrono::steady_clock::now() - start);
    }

    // observe_writes(); a request's store has its store's (begin_idempotent).
    WriteObserver write_observer_;

    template <class F, class Run>
    static auto with(F& f, const Run& run) {
        using Result = decltype(f(std::declval<sql::Db&>()));
        if constexpr (std::is_void_v<Result>) {
            auto work = [&](sql::Db& db) { f(db); };
            run(sql::Work(work));
        } else {
            std::optional<Result> result;
            auto work = [&](sql::Db& db) { result.emplace(f(db)); };
            run(sql::Work(work));
            return std::move(*result);
        }
    }
};

}  // namespace collectcall::server
