// A Store that forwards to a test's store (SQLite or PostgreSQL), with hooks a test can use to
// hold, slow or break an operation.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "postgres.hpp"
#include "postgres_store.hpp"
#include "sqlite.hpp"
#include "sqlite_store.hpp"
#include "store.hpp"

namespace test {

using namespace collectcall::server;

inline std::unique_ptr<Store> open_store(const std::string& db) {
    if (pg::is_uri(db)) {
        PostgresOptions options;
        options.uri = db;
        return std::make_unique<PostgresStore>(options);
    }
    return std::make_unique<SqliteStore>(SqliteOptions{db, 5000});
}

class HookedStore final : public Store {
  public:
    explicit HookedStore(const std::string& db) : owned_(open_store(db)), inner_(*owned_) {}

    std::function<void()> before_insert_customer;
    std::function<void()> before_find_customer;
    std::function<void()> before_check;
    std::atomic<int> key_lookups{0};

    void check() override {
        if (before_check) before_check();
        inner_.check();
    }
    Credentials create_credentials(const AccountSetup& setup, Time now) override {
        return inner_.create_credentials(setup, now);
    }
    bool has_accounts() override { return inner_.has_accounts(); }
    std::optional<KeyRecord> find_api_key(std::string_view key_id) override {
        ++key_lookups;
        return inner_.find_api_key(key_id);
    }
    bool agent_assigned(const collectcall::Uuid& a, std::string_view agent) override {
        return inner_.agent_assigned(a, agent);
    }
    AccountSettings account_settings(const collectcall::Uuid& a) override {
        return inner_.account_settings(a);
    }
    bool insert_customer(const collectcall::Uuid& a, const StoredCustomer& c) override {
        if (before_insert_customer) before_insert_customer();
        return inner_.insert_customer(a, c);
    }
    std::vector<bool> insert_customers(const collectcall::Uuid& a,
                                       std::span<const StoredCustomer> c) override {
        return inner_.insert_customers(a, c);
    }
    std::optional<StoredCustomer> find_customer(const collectcall::Uuid& a,
                                                const collectcall::Uuid& id) override {
        if (before_find_customer) before_find_customer();
        return inner_.find_customer(a, id);
    }
    std::optional<StoredCustomer> find_customer_by_external_id(const collectcall::Uuid& a,
                                                               std::string_view e) override {
        return inner_.find_customer_by_external_id(a, e);
    }
    std::optional<StoredCustomer> update_customer(
        const collectcall::Uuid& a, const collectcall::Uuid& id,
        const std::function<bool(StoredCustomer&)>& change) override {
        return inner_.update_customer(a, id, change);
    }
    std::optional<CallPlan> place_call(const collectcall::Uuid& a, const collectcall::Uuid& c,
                                       Time since, const CallDecider& decide) override {
        return inner_.place_call(a, c, since, decide);
    }
    std::optional<collectcall::CallDetails> find_call(const collectcall::Uuid& a,
                                                      const collectcall::Uuid& id) override {
        return inner_.find_call(a, id);
    }
    std::vector<collectcall::CallDetails> list_calls(const collectcall::Uuid& a,
                                                     const collectcall::Uuid& c) override {
        return inner_.list_calls(a, c);
    }
    bool end_call(const collectcall::Uuid& a, const collectcall::Uuid& id,
                  collectcall::CallStatus s, collectcall::EndedReason r, std::int64_t d,
                  std::string_view t, Time at) override {
        return inner_.end_call(a, id, s, r, d, t, at);
    }
    SecretInsert insert_webhook_secret(const collectcall::Uuid& a, const collectcall::Uuid& id,
                                       std::string_view s, Time now) override {
        return inner_.insert_webhook_secret(a, id, s, now);
    }
    std::optional<std::string> find_webhook_secret(const collectcall::Uuid& a,
                                                   const collectcall::Uuid& id) override {
        return inner_.find_webhook_secret(a, id);
    }
    IdempotencyBegin begin_idempotent(const collectcall::Uuid& a, std::string_view k,
                                      const Sha256& f, Time now) override {
        return inner_.begin_idempotent(a, k, f, now);
    }
    void finish_idempotent(const collectcall::Uuid& a, std::string_view k,
                           const StoredResponse& r) override {
        inner_.finish_idempotent(a, k, r);
    }
    void abandon_idempotent(const collectcall::Uuid& a, std::string_view k) override {
        inner_.abandon_idempotent(a, k);
    }

  private:
    std::unique_ptr<Store> owned_;
    Store& inner_;
};

}  // namespace test
