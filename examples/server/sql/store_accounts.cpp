// SqlStore: accounts, API keys and agents, clients, webhook secrets and the server's keys.
#include <mutex>

#include "columns.hpp"
#include "crypto.hpp"
#include "rows.hpp"
#include "sql/sql_store.hpp"

namespace collectcall::server {

using sql::Db;
using sql::Query;

std::optional<KeyRecord> KnownKeys::find(std::string_view key_id,
                                         std::chrono::steady_clock::time_point now) {
    std::shared_lock lock(mutex_);
    if (const auto known = keys_.find(key_id); known != keys_.end() && now < known->second.until)
        return known->second.record;
    return std::nullopt;
}

void KnownKeys::keep(std::string_view key_id, const KeyRecord& record,
                     std::chrono::steady_clock::time_point now) {
    std::unique_lock lock(mutex_);
    if (keys_.size() >= max_keys) keys_.clear();
    keys_.insert_or_assign(std::string(key_id), Known{record, now + lifetime});
}

void SqlStore::charge_rows(const Uuid& account, std::int64_t rows) {
    transacting([&](Db& db) { charge(db, account, rows); });
}

void SqlStore::check() {
    reading([](Db& db) { Query(db, "SELECT 1 FROM accounts LIMIT 1").run(); });
}

Credentials SqlStore::create_credentials(const AccountSetup& setup, Time now) {
    return transacting([&](Db& db) {
        const std::string created = timestamp_text(now);
        const Uuid fresh = new_uuid();
        const bool new_account =
            Query(db,
                  "INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?) "
                  "ON CONFLICT (name) DO NOTHING")
                .bind(1, fresh.view())
                .bind(2, setup.name)
                .bind(3, created)
                .run() == 1;
        // The account's row is locked: two inits of one account number their callers in turn.
        Uuid account;
        {
            Query q(db, "SELECT id FROM accounts WHERE name = ? {pg:FOR UPDATE}");
            q.bind(1, setup.name);
            if (!q.step()) throw StoreError("account missing after insert", false);
            account = parse_column<Uuid>(q.text(0), "account id");
        }
        if (new_account || setup.window) {
            const compliance::RespectfulHours window =
                setup.window.value_or(compliance::RespectfulHours{});
            Query(db,
                  "UPDATE accounts SET window_start_minutes = ?, window_end_minutes = ? "
                  "WHERE id = ?")
                .bind(1, static_cast<std::int64_t>(window.start.count()))
                .bind(2, static_cast<std::int64_t>(window.end.count()))
                .bind(3, account.view())
                .run();
        }
        if (new_account || setup.daily_rows) {
            Query(db, "UPDATE accounts SET daily_rows = ? WHERE id = ?")
                .bind(1, setup.daily_rows.value_or(api::default_daily_rows))
                .bind(2, account.view())
                .run();
            Query(db,
                  "INSERT INTO daily_row_counts (account_id, day, stored) VALUES (?, 0, 0) "
                  "ON CONFLICT DO NOTHING")
                .bind(1, account.view())
                .run();
        }
        if (setup.policy) {
            Query(db, "UPDATE accounts SET compliance_policy = ? WHERE id = ?")
                .bind(1, enum_name(*setup.policy))
                .bind(2, account.view())
                .run();
        }
        for (const DripCampaignDefinition& campaign : setup.campaigns) {
            Query(db,
                  "INSERT INTO drip_campaigns (account_id, name, steps) VALUES (?, ?, ?) "
                  "ON CONFLICT (account_id, name) DO UPDATE SET steps = excluded.steps")
                .bind(1, account.view())
                .bind(2, campaign.name)
                .bind(3, write(campaign.steps))
                .run();
        }
        if (new_account) {
            // The schema's column defaults are those of version 1; a new account always gets
            // the library's.
            Query(db, "UPDATE accounts SET max_calls_per_day = ? WHERE id = ?")
                .bind(1, static_cast<std::int64_t>(compliance::default_max_calls_per_day))
                .bind(2, account.view())
                .run();
        }
        std::vector<E164> numbers = setup.caller_numbers;
        if (numbers.empty() && setup.fallback_caller_number) {
            Query q(db, "SELECT 1 FROM caller_numbers WHERE account_id = ? LIMIT 1");
            q.bind(1, account.view());
            if (!q.step()) numbers.push_back(*setup.fallback_caller_number);
        }
        for (const E164& number : numbers) {
            Query(db,
                  "INSERT INTO caller_numbers (account_id, position, number) VALUES (?1, "
                  "(SELECT COALESCE(MAX(position), 0) + 1 FROM caller_numbers WHERE "
                  "account_id = ?1), ?2) ON CONFLICT DO NOTHING")
                .bind(1, account.view())
                .bind(2, number.view())
                .run();
        }
        const ApiKey key = generate_api_key();
        Query(db,
              "INSERT INTO api_keys (key_id, account_id, key_hash, created_at) VALUES (?, ?, ?, ?)")
            .bind(1, key.key_id)
            .bind(2, account.view())
            .bind_bytes(3, key.hash)
            .bind(4, created)
            .run();
        const Uuid agent = new_uuid();
        Query(db, "INSERT INTO agents (id, account_id, created_at) VALUES (?, ?, ?)")
            .bind(1, agent.view())
            .bind(2, account.view())
            .bind(3, created)
            .run();
        return Credentials{account, key.text, std::string(agent.view())};
    });
}

bool SqlStore::has_accounts() {
    return reading([](Db& db) { return Query(db, "SELECT 1 FROM accounts LIMIT 1").step(); });
}

std::optional<KeyRecord> SqlStore::find_api_key(std::string_view key_id) {
    const auto now = std::chrono::steady_clock::now();
    KnownKeys& known = known_keys();
    if (auto record = known.find(key_id, now)) return record;
    std::optional<KeyRecord> record = reading([&](Db& db) -> std::optional<KeyRecord> {
        Query q(db, "SELECT account_id, key_hash FROM api_keys WHERE key_id = ?");
        q.bind(1, key_id);
        if (!q.step()) return std::nullopt;
        KeyRecord found;
        found.account_id = parse_column<Uuid>(q.text(0), "account id");
        if (!q.bytes(1, found.hash)) corrupt("key hash");
        return found;
    });
    if (record) known.keep(key_id, *record, now);
    return record;
}

bool SqlStore::agent_assigned(const Uuid& account, std::string_view agent) {
    return reading([&](Db& db) {
        Query q(db, "SELECT 1 FROM agents WHERE id = ? AND account_id = ?");
        q.bind(1, agent).bind(2, account.view());
        return q.step();
    });
}

AccountSettings SqlStore::account_settings(const Uuid& account) {
    return reading([&](Db& db) {
        AccountSettings settings;
        {
            static const std::string text = sql::select<SettingsRow>("FROM accounts WHERE id = ?");
            Query q(db, text.c_str());
            q.bind(1, account.view());
            if (q.step()) settings_from_row(q, settings);
        }
        Query q(db, "SELECT number FROM caller_numbers WHERE account_id = ? ORDER BY position");
        q.bind(1, account.view());
        while (q.step())
            settings.caller_numbers.push_back(parse_column<E164>(q.text(0), "number"));
        return settings;
    });
}

Account SqlStore::account(const Uuid& id) {
    std::string name = reading([&](Db& db) {
        Query q(db, "SELECT name FROM accounts WHERE id = ?");
        q.bind(1, id.view());
        return q.step() ? std::string(q.text(0)) : std::string();
    });
    Account out = account_view(id, std::move(name), account_settings(id));
    reading([&](Db& db) {
        static const std::string text =
            sql::select<CampaignRow>("FROM drip_campaigns WHERE account_id = ? ORDER BY name");
        Query q(db, text.c_str());
        q.bind(1, id.view());
        while (q.step())
            out.dripCampaigns.push_back(campaign_from_row(q));
    });
    return out;
}

// --- Clients ---------------------------------------------------------------------------------

ClientInsert SqlStore::insert_client(const Uuid& account, const Client& client, Time now) {
    return transacting([&](Db& db) {
        // The owner of the id, locked; or a new row. An id another process inserts between the
        // two is found on the next look.
        for (;;) {
            {
                Query owner(db, "SELECT account_id FROM clients WHERE id = ? {pg:FOR UPDATE}");
                owner.bind(1, client.id.view());
                if (owner.step()) {
                    if (owner.text(0) != account.view()) return ClientInsert::taken;
                    Query(db, "UPDATE clients SET name = ? WHERE id = ?")
                        .bind(1, client.name.view())
                        .bind(2, client.id.view())
                        .run();
                    return ClientInsert::renamed;
                }
            }
            if (Query(db,
                      "INSERT INTO clients (id, account_id, name, created_at) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT DO NOTHING")
                    .bind(1, client.id.view())
                    .bind(2, account.view())
                    .bind(3, client.name.view())
                    .bind(4, timestamp_text(now))
                    .run() == 1) {
                charge(db, account, 1);
                return ClientInsert::inserted;
            }
        }
    });
}

Page<Client> SqlStore::list_clients(const Uuid& account, const api::PageRequest& page) {
    return reading([&](Db& db) {
        // A client's position is its sequence.
        static const std::string text =
            "SELECT " + sql::column_list<ClientsRow>() +
            ", seq, length(name) FROM clients WHERE account_id = ? AND seq < ? ORDER BY seq DESC "
            "LIMIT ?";
        Query q(db, text.c_str());
        q.bind(1, account.view())
            .bind(2, page.start().parts[0])
            .bind(3, static_cast<std::int64_t>(page.rows_to_read()));
        constexpr int first = sql::column_count<ClientsRow>;
        Page<Client> out;
        api::PageBound bound(page);
        while (q.step()) {
            if (!bound.admit(api::PageKey{{q.integer(first)}},
                             static_cast<std::size_t>(q.integer(first + 1)))) {
                break;
            }
            out.items.push_back(client_from_row(sql::read_row<ClientsRow>(q)));
        }
        out.next = bound.next();
        return out;
    });
}

bool SqlStore::has_client(const Uuid& account, const Uuid& id) {
    return reading([&](Db& db) {
        Query q(db, "SELECT 1 FROM clients WHERE id = ? AND account_id = ?");
        q.bind(1, id.view()).bind(2, account.view());
        return q.step();
    });
}

// --- Webhook secrets and the server's keys ---------------------------------------------------

SecretInsert SqlStore::insert_webhook_secret(const Uuid& account, const Uuid& id,
                                             std::string_view secret, Time now) {
    return transacting([&](Db& db) {
        // As insert_client.
        for (;;) {
            {
                Query owner(db,
                            "SELECT account_id FROM webhook_secrets WHERE id = ? {pg:FOR UPDATE}");
                owner.bind(1, id.view());
                if (owner.step()) {
                    if (owner.text(0) != account.view()) return SecretInsert::taken;
                    Query(db, "UPDATE webhook_secrets SET secret = ? WHERE id = ?")
                        .bind(1, secret)
                        .bind(2, id.view())
                        .run();
                    return SecretInsert::replaced;
                }
            }
            if (Query(db,
                      "INSERT INTO webhook_secrets (id, account_id, secret, created_at) "
                      "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
                    .bind(1, id.view())
                    .bind(2, account.view())
                    .bind(3, secret)
                    .bind(4, timestamp_text(now))
                    .run() == 1) {
                charge(db, account, 1);
                return SecretInsert::inserted;
            }
        }
    });
}

std::optional<std::string> SqlStore::find_webhook_secret(const Uuid& account, const Uuid& id) {
    return reading([&](Db& db) -> std::optional<std::string> {
        Query q(db, "SELECT secret FROM webhook_secrets WHERE id = ? AND account_id = ?");
        q.bind(1, id.view()).bind(2, account.view());
        if (!q.step()) return std::nullopt;
        return std::string(q.text(0));
    });
}

std::string SqlStore::server_key(std::string_view name, std::string_view candidate) {
    return writing([&](Db& db) {
        Query(db, "INSERT INTO server_keys (name, key) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .bind(1, name)
            .bind(2, candidate)
            .run();
        Query q(db, "SELECT key FROM server_keys WHERE name = ?");
        q.bind(1, name);
        if (!q.step()) throw StoreError("server key missing after insert", false);
        return std::string(q.text(0));
    });
}

}  // namespace collectcall::server
