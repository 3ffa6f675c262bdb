// ForwardingStore: a Store that hands every call to another one. Decorators (the metrics of
// metrics.cpp, the tests' fault hooks) derive from it and override only what they intercept, so
// a new Store method is declared in store.hpp, forwarded here once, and implemented by each
// backend. A decorator also wraps each Idempotency-Key request's store (decorate).
#pragma once

#include <memory>
#include <utility>

#include "store.hpp"

namespace collectcall::server {

class ForwardingStore : public Store {
  public:
    explicit ForwardingStore(std::unique_ptr<Store> inner) : inner_(std::move(inner)) {}

    void check() override { inner_->check(); }
    bool observe_commits(CommitObserver observer) override {
        return inner_->observe_commits(std::move(observer));
    }
    void set_clock(const Clock& clock) override { inner_->set_clock(clock); }
    void charge_rows(const Uuid& account, std::int64_t rows) override {
        inner_->charge_rows(account, rows);
    }
    Credentials create_credentials(const AccountSetup& setup, Time now) override {
        return inner_->create_credentials(setup, now);
    }
    bool has_accounts() override { return inner_->has_accounts(); }
    std::optional<KeyRecord> find_api_key(std::string_view key_id) override {
        return inner_->find_api_key(key_id);
    }
    bool agent_assigned(const Uuid& account, std::string_view agent) override {
        return inner_->agent_assigned(account, agent);
    }
    AccountSettings account_settings(const Uuid& account) override {
        return inner_->account_settings(account);
    }
    Account account(const Uuid& account) override { return inner_->account(account); }
    bool insert_customer(const Uuid& account, const StoredCustomer& customer) override {
        return inner_->insert_customer(account, customer);
    }
    std::vector<bool> insert_customers(const Uuid& account,
                                       std::span<const StoredCustomer> customers) override {
        return inner_->insert_customers(account, customers);
    }
    std::optional<StoredCustomer> find_customer(const Uuid& account, const Uuid& id) override {
        return inner_->find_customer(account, id);
    }
    std::optional<StoredCustomer> find_customer_by_external_id(
        const Uuid& account, std::string_view external_id) override {
        return inner_->find_customer_by_external_id(account, external_id);
    }
    std::optional<StoredCustomer> update_customer(
        const Uuid& account, const Uuid& id,
        const std::function<bool(StoredCustomer&)>& change) override {
        return inner_->update_customer(account, id, change);
    }
    std::optional<StoredCustomer> change_standing(const Uuid& account, const Uuid& id,
                                                  const StandingChanger& change) override {
        return inner_->change_standing(account, id, change);
    }
    std::optional<CallPlan> place_call(const Uuid& account, const Uuid& customer, Time since,
                                       const CallDecider& decide) override {
        return inner_->place_call(account, customer, since, decide);
    }
    std::optional<DripEnrolResult> enrol_drip(const Uuid& account, const Uuid& customer,
                                              std::string_view campaign, Time since,
                                              const DripEnrolDecider& decide) override {
        return inner_->enrol_drip(account, customer, campaign, since, decide);
    }
    Page<DripEnrolment> list_drip_enrolments(const Uuid& account, const Uuid& customer,
                                             const api::PageRequest& page) override {
        return inner_->list_drip_enrolments(account, customer, page);
    }
    std::optional<DripEnrolment> update_drip_enrolment(
        const Uuid& account, const Uuid& customer, const Uuid& id,
        const std::function<bool(DripEnrolment&)>& change) override {
        return inner_->update_drip_enrolment(account, customer, id, change);
    }
    std::vector<DueEnrolment> due_drip_enrolments(Time now, std::size_t limit) override {
        return inner_->due_drip_enrolments(now, limit);
    }
    std::optional<DripStepPlan> run_drip_step(const Uuid& account, const Uuid& enrolment, Time now,
                                              Time since, const DripStepRunner& run) override {
        return inner_->run_drip_step(account, enrolment, now, since, run);
    }
    std::optional<CallDetails> find_call(const Uuid& account, const Uuid& id) override {
        return inner_->find_call(account, id);
    }
    Page<CallDetails> list_calls(const Uuid& account, const Uuid& customer,
                                 const api::PageRequest& page) override {
        return inner_->list_calls(account, customer, page);
    }
    bool end_call(const Uuid& account, const Uuid& id, const EndedCall& ending) override {
        return inner_->end_call(account, id, ending);
    }
    std::vector<CallInProgress> calls_in_progress() override { return inner_->calls_in_progress(); }
    std::vector<CallInProgress> take_over_calls() override { return inner_->take_over_calls(); }
    Page<ComplianceDecision> list_compliance_decisions(const Uuid& account, const Uuid& customer,
                                                       const api::PageRequest& page) override {
        return inner_->list_compliance_decisions(account, customer, page);
    }
    ClientInsert insert_client(const Uuid& account, const Client& client, Time now) override {
        return inner_->insert_client(account, client, now);
    }
    Page<Client> list_clients(const Uuid& account, const api::PageRequest& page) override {
        return inner_->list_clients(account, page);
    }
    bool has_client(const Uuid& account, const Uuid& id) override {
        return inner_->has_client(account, id);
    }
    void insert_interactions(const Uuid& account, const Uuid& customer,
                             std::span<const InteractionRecord> records,
                             const StandingChanger& standing = {}) override {
        inner_->insert_interactions(account, customer, records, standing);
    }
    std::optional<InteractionRecord> find_interaction(const Uuid& account,
                                                      const Uuid& id) override {
        return inner_->find_interaction(account, id);
    }
    Page<ListedInteraction> list_interactions(const Uuid& account, const Uuid& customer,
                                              const api::PageRequest& page) override {
        return inner_->list_interactions(account, customer, page);
    }
    bool customer_has_thread(const Uuid& account, const Uuid& customer,
                             const Uuid& thread) override {
        return inner_->customer_has_thread(account, customer, thread);
    }
    std::optional<InteractionRecord> last_inbound_interaction(const Uuid& account,
                                                              const Uuid& thread) override {
        return inner_->last_inbound_interaction(account, thread);
    }
    std::optional<InteractionPlan> record_interaction(const Uuid& account, const Uuid& customer,
                                                      Time since,
                                                      const InteractionDecider& decide) override {
        return inner_->record_interaction(account, customer, since, decide);
    }
    std::optional<std::string> find_call_transcript(const Uuid& account,
                                                    const Uuid& call) override {
        return inner_->find_call_transcript(account, call);
    }
    StoredAnalysis save_analysis(const Uuid& account, const StoredAnalysis& analysis,
                                 const OutcomeApplier& apply) override {
        return inner_->save_analysis(account, analysis, apply);
    }
    SecretInsert insert_webhook_secret(const Uuid& account, const Uuid& id, std::string_view secret,
                                       Time now) override {
        return inner_->insert_webhook_secret(account, id, secret, now);
    }
    std::optional<std::string> find_webhook_secret(const Uuid& account, const Uuid& id) override {
        return inner_->find_webhook_secret(account, id);
    }
    std::string server_key(std::string_view name, std::string_view candidate) override {
        return inner_->server_key(name, candidate);
    }
    IdempotencyBegin begin_idempotent(const Uuid& account, std::string_view key,
                                      const Sha256& fingerprint, Time now) override {
        IdempotencyBegin begun = inner_->begin_idempotent(account, key, fingerprint, now);
        if (begun.store) begun.store = decorate(std::move(begun.store));
        return begun;
    }
    void finish_idempotent(const Uuid& account, std::string_view key,
                           const StoredResponse& response) override {
        inner_->finish_idempotent(account, key, response);
    }
    void abandon_idempotent(const Uuid& account, std::string_view key) override {
        inner_->abandon_idempotent(account, key);
    }
    std::int64_t sweep(Time now) override { return inner_->sweep(now); }

  protected:
    [[nodiscard]] Store& inner() noexcept { return *inner_; }
    // The same decorator over an Idempotency-Key request's store (begin_idempotent), so that it
    // sees the request's calls too.
    virtual std::unique_ptr<Store> decorate(std::unique_ptr<Store> request_store) = 0;

  private:
    std::unique_ptr<Store> inner_;
};

}  // namespace collectcall::server
