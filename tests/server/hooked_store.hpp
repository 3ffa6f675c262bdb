// A Store that forwards to a test's store (SQLite or PostgreSQL), with hooks a test can use to
// hold, slow or break an operation.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "forwarding_store.hpp"
#include "postgres/postgres.hpp"
#include "postgres/postgres_store.hpp"
#include "sqlite/sqlite.hpp"
#include "sqlite/sqlite_store.hpp"

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

class HookedStore final : public ForwardingStore {
  public:
    explicit HookedStore(const std::string& db) : ForwardingStore(open_store(db)) {}
    // Over a request's store: the hooks and counts of `root`.
    HookedStore(std::unique_ptr<Store> request_store, HookedStore& root)
        : ForwardingStore(std::move(request_store)), hooks_(&root) {}

    std::function<void()> before_insert_customer;
    std::function<void()> before_find_customer;
    std::function<void()> before_check;
    std::atomic<int> key_lookups{0};
    std::atomic<int> inbound_reads{0};  // last_inbound_interaction: a message's text read

    void check() override {
        if (hooks_->before_check) hooks_->before_check();
        ForwardingStore::check();
    }
    std::optional<KeyRecord> find_api_key(std::string_view key_id) override {
        ++hooks_->key_lookups;
        return ForwardingStore::find_api_key(key_id);
    }
    std::optional<InteractionRecord> last_inbound_interaction(
        const collectcall::Uuid& a, const collectcall::Uuid& thread) override {
        ++hooks_->inbound_reads;
        return ForwardingStore::last_inbound_interaction(a, thread);
    }
    bool insert_customer(const collectcall::Uuid& a, const StoredCustomer& c) override {
        if (hooks_->before_insert_customer) hooks_->before_insert_customer();
        return ForwardingStore::insert_customer(a, c);
    }
    std::optional<StoredCustomer> find_customer(const collectcall::Uuid& a,
                                                const collectcall::Uuid& id) override {
        if (hooks_->before_find_customer) hooks_->before_find_customer();
        return ForwardingStore::find_customer(a, id);
    }

  protected:
    std::unique_ptr<Store> decorate(std::unique_ptr<Store> request_store) override {
        return std::make_unique<HookedStore>(std::move(request_store), *hooks_);
    }

  private:
    HookedStore* hooks_ = this;
};

}  // namespace test
