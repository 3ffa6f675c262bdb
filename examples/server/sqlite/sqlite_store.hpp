// The Store on an embedded SQLite database file.
//
// - WAL journal with synchronous=FULL: readers never wait for the writer, and a write is on disk
//   (the WAL fsynced) before the request that made it is answered.
// - One connection per thread at a time, from a pool; each keeps its prepared statements.
// - Group commit: the writes of concurrent requests are run together in one transaction and
//   made durable by one COMMIT (sqlite_writer.hpp); each request is answered only after it.
// - The schema is versioned with PRAGMA user_version; migrate() brings a file up to date and
//   refuses one written by a newer server.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "sqlite.hpp"
#include "sqlite_writer.hpp"
#include "store.hpp"

namespace collectcall::server {

class WalCheckpointer;

struct SqliteOptions {
    std::string path = "collectcall.db";
    // How long a statement waits for another writer before the request fails with 503.
    int busy_timeout_ms = 5000;
    // The WAL is copied into the database file by a thread of the store's own each time it grows
    // by `checkpoint_every_bytes`, and by the writer in line once it holds `checkpoint_limit_bytes`
    // (sqlite_checkpointer.hpp). In pages, at least one.
    std::int64_t checkpoint_every_bytes = std::int64_t{16} << 20;
    std::int64_t checkpoint_limit_bytes = std::int64_t{64} << 20;
};

class SqliteStore final : public Store {
  public:
    // Opens (creating if needed) and migrates the database.
    explicit SqliteStore(SqliteOptions options);
    ~SqliteStore() override;

    static constexpr int schema_version = 8;

    // For a server starting on the file: requests that were in flight when the previous
    // process stopped will never be answered, and their Idempotency-Keys must not answer
    // retries with 409 for a day. (Not done on every open: `init` may run beside a server.)
    void forget_requests_in_flight();

    void check() override;
    bool observe_commits(CommitObserver observer) override;

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

    std::vector<ComplianceDecision> list_compliance_decisions(const Uuid& account,
                                                              const Uuid& customer,
                                                              std::size_t limit) override;
    std::optional<DripEnrolResult> enrol_drip(const Uuid& account, const Uuid& customer,
                                              std::string_view campaign, Time since,
                                              const DripEnrolDecider& decide) override;
    std::vector<DripEnrolment> list_drip_enrolments(const Uuid& account,
                                                    const Uuid& customer) override;
    std::optional<DripEnrolment> update_drip_enrolment(
        const Uuid& account, const Uuid& customer, const Uuid& id,
        const std::function<bool(DripEnrolment&)>& change) override;
    std::vector<DueEnrolment> due_drip_enrolments(Time now, std::size_t limit) override;
    std::optional<DripStepPlan> run_drip_step(const Uuid& account, const Uuid& enrolment, Time now,
                                              Time since, const DripStepRunner& run) override;
    std::optional<CallPlan> place_call(const Uuid& account, const Uuid& customer, Time since,
                                       const CallDecider& decide) override;
    std::optional<CallDetails> find_call(const Uuid& account, const Uuid& id) override;
    std::vector<CallDetails> list_calls(const Uuid& account, const Uuid& customer) override;
    bool end_call(const Uuid& account, const Uuid& id, CallStatus status, EndedReason ended_reason,
                  std::int64_t duration_ms, std::string_view transcript, Time at) override;
    std::vector<CallInProgress> calls_in_progress() override;

    ClientInsert insert_client(const Uuid& account, const Client& client, Time now) override;
    std::vector<Client> list_clients(const Uuid& account) override;
    bool has_client(const Uuid& account, const Uuid& id) override;
    void insert_interactions(const Uuid& account, const Uuid& customer,
                             std::span<const InteractionRecord> records,
                             const StandingChanger& standing = {}) override;
    std::optional<InteractionRecord> find_interaction(const Uuid& account, const Uuid& id) override;
    std::vector<InteractionRecord> list_interactions(const Uuid& account,
                                                     const Uuid& customer) override;
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

  private:
    struct Shared;
    // An Idempotency-Key request's store (begin_idempotent): the same database, with its writes
    // in the request's transaction.
    SqliteStore(std::shared_ptr<Shared> shared,
                std::unique_ptr<SqliteWriter::RequestTransaction> request);

    // Runs `work(connection)` on the writer (sqlite_writer.hpp), in the request's transaction
    // when this is a request's store; returns its result once it is durable.
    template <class Work>
    auto batched(Work&& work);

    class Lease;
    Lease lease();
    std::unique_ptr<sqlite::Connection> open_connection();
    void migrate(sqlite::Connection& db);

    // API keys found in the last second, by key id: a key's requests are authenticated without a
    // read of the database each (a read that reloads its pages after every commit). A key
    // removed from the database is refused a second later at most; keys not found are not kept.
    struct KnownKey {
        KeyRecord record;
        std::chrono::steady_clock::time_point until;
    };
    static constexpr std::chrono::seconds known_key_lifetime{1};
    struct KeyIdHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view id) const noexcept {
            return std::hash<std::string_view>{}(id);
        }
    };
    static constexpr std::size_t max_known_keys = 4096;  // then forgotten all at once

    // The database's connections, shared by the store and its requests' stores.
    struct Shared {
        explicit Shared(SqliteOptions o);
        ~Shared();
        Shared(const Shared&) = delete;
        Shared& operator=(const Shared&) = delete;
        SqliteOptions options;
        std::mutex mutex;
        std::vector<std::unique_ptr<sqlite::Connection>> idle;
        std::shared_mutex keys_mutex;
        std::unordered_map<std::string, KnownKey, KeyIdHash, std::equal_to<>> known_keys;
        // Copies the WAL into the database file beside the writes (sqlite_checkpointer.hpp).
        std::unique_ptr<WalCheckpointer> checkpointer;
        // Every write goes through it (sqlite_writer.hpp). Last, so that it stops first and
        // removes its WAL hook before the checkpointer goes.
        std::unique_ptr<SqliteWriter> writer;
    };
    std::shared_ptr<Shared> shared_;
    // The request's transaction, in a request's store; null in the store itself.
    std::unique_ptr<SqliteWriter::RequestTransaction> request_;
    // Shared's members, by the names the operations use.
    SqliteOptions& options_ = shared_->options;
    std::mutex& mutex_ = shared_->mutex;
    std::vector<std::unique_ptr<sqlite::Connection>>& idle_ = shared_->idle;
    std::shared_mutex& keys_mutex_ = shared_->keys_mutex;
    std::unordered_map<std::string, KnownKey, KeyIdHash, std::equal_to<>>& known_keys_ =
        shared_->known_keys;
    std::unique_ptr<WalCheckpointer>& checkpointer_ = shared_->checkpointer;
    std::unique_ptr<SqliteWriter>& writer_ = shared_->writer;
};

}  // namespace collectcall::server
