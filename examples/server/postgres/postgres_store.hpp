// The Store and the webhook outbox on a PostgreSQL database shared by any number of server
// processes (API.md section 12). What each guarantee rests on:
//
// - externalId unique per account: a unique index; a duplicate INSERT does nothing (409, or a
//   failed bulk item), whichever process made the first.
// - at most 4 calls per customer per local day: place_call locks the customer's row
//   (SELECT ... FOR UPDATE) before it counts, so concurrent calls to one customer are decided
//   one after the other across processes, and the count and the insert commit together.
// - Idempotency-Key: one row per (account, key) under a primary key; the first request's
//   answer is there for whichever process gets the retry.
// - the webhook outbox (postgres_outbox.hpp): a process claims the messages it is about to send
// with a lease
//   (FOR UPDATE SKIP LOCKED, lease 60 s); the messages of a process that died are taken over
//   when its lease runs out.
// - calls in progress: each belongs to the process that placed it, which renews a heartbeat;
//   when a process stops or its heartbeat is older than the lease, another process's dialer
//   takes its calls over.
// - rate limits: each process adds its count of each key's requests to a shared table once a
//   second and charges its own buckets with the others' (SharedRateLimits,
//   postgres_rate_limits.hpp).
// - writes are acknowledged after COMMIT with synchronous_commit on.
// - the schema is created and migrated under pg_advisory_lock, safe when several processes
//   start at once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "postgres.hpp"
#include "store.hpp"

namespace collectcall::server {

struct PostgresOptions {
    std::string uri;
    std::size_t pool_size = 16;  // connections: sized for the worker threads
    // How long a process's claim on an outbox message or a call in progress lasts without being
    // renewed (API.md section 12: 60 s). Tests shorten it.
    std::chrono::milliseconds lease{60'000};
};

class PostgresStore final : public Store {
  public:
    // Connects, and creates or migrates the schema.
    explicit PostgresStore(PostgresOptions options);
    ~PostgresStore() override;

    static constexpr int schema_version = 8;

    // Starts the heartbeat that keeps this process's calls in progress its own (serve only).
    void start_heartbeat();

    void check() override;

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
    std::vector<CallInProgress> take_over_calls() override;

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
    struct Shared {
        explicit Shared(PostgresOptions o);
        PostgresOptions options;
        pg::Pool pool;
        std::string process_id;  // this process's name in leases and heartbeats
    };
    // An Idempotency-Key request's store (begin_idempotent): the same database, with its
    // operations in the request's transaction.
    PostgresStore(std::shared_ptr<Shared> shared, std::unique_ptr<pg::Pool::Pinned> request);

    void migrate();
    void beat();

    // The database's pool, shared by the store and its requests' stores.
    std::shared_ptr<Shared> shared_;
    // The request's transaction, in a request's store; null in the store itself.
    std::unique_ptr<pg::Pool::Pinned> request_;
    const PostgresOptions& options_ = shared_->options;
    // The operations' connections: the pool's, or the request's transaction's.
    pg::Connections pool_{shared_->pool, request_.get()};
    const std::string& process_id_ = shared_->process_id;

    std::mutex heartbeat_mutex_;
    std::condition_variable heartbeat_wake_;
    bool stopping_ = false;
    std::thread heartbeat_;
};

}  // namespace collectcall::server
