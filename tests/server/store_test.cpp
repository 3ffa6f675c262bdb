// The store's clients, interactions and analyses (schema version 5), on the suite's backend
// (SQLite, or PostgreSQL when the suite runs there), and the migration from version 4.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "harness.hpp"
#include "hooked_store.hpp"
#include "postgres/postgres_store.hpp"
#include "rows.hpp"
#include "simulated_dialer.hpp"
#include "sqlite/sqlite_store.hpp"
#include "store_error.hpp"

using namespace test;
using collectcall::Channel;
using ClientRow = collectcall::Client;
using collectcall::E164;
using collectcall::InteractionDirection;
using collectcall::SmsInteractionData;
using collectcall::Text;
using collectcall::Timestamp;
using collectcall::Uuid;
namespace api = collectcall::api;

namespace {

// Takes away what the versions after 9 added (their `down`, sql/migrations.hpp, the newest first)
// and what schema version 9 added (the daily row budget and the index of a thread's customers),
// for a test of an older version's migration.
void undo_version_9(const Database& database) {
    namespace shared = collectcall::server::sql;
    const shared::Dialect dialect =
        database.postgres() ? shared::Dialect::postgres : shared::Dialect::sqlite;
    for (auto m = shared::migrations.end(); m != shared::migrations.begin();) {
        --m;
        const std::string down = shared::translate(m->down, dialect);
        for (std::size_t start = 0; start < down.size();) {
            std::size_t end = down.find(';', start);
            if (end == std::string::npos) end = down.size();
            if (down.find_first_not_of(" \n", start) < end)
                (void)database.rows(down.substr(start, end - start));
            start = end + 1;
        }
    }
    for (const char* sql :
         {"DROP INDEX interactions_by_thread_customer", "DROP TABLE daily_row_counts",
          "ALTER TABLE accounts DROP COLUMN daily_rows"})
        (void)database.rows(sql);
}

// An account, with a daily row budget of `daily_rows` when one is given.
Credentials account(Store& store, const std::string& name,
                    std::optional<std::int64_t> daily_rows = std::nullopt) {
    AccountSetup setup;
    setup.name = name;
    setup.fallback_caller_number = E164::parse("+12025550100").value();
    setup.daily_rows = daily_rows;
    return store.create_credentials(setup, frozen_time());
}

// The SMS and e-mails of a page of a customer's interactions, in its order.
std::vector<InteractionRecord> messages_of(Page<ListedInteraction> page) {
    std::vector<InteractionRecord> out;
    for (ListedInteraction& item : page.items) {
        if (auto* record = std::get_if<InteractionRecord>(&item)) out.push_back(std::move(*record));
    }
    return out;
}

StoredCustomer customer(std::string_view external_id) {
    StoredCustomer stored;
    auto body = collectcall::read<collectcall::CustomerCreate>(customer_json(external_id));
    REQUIRE(body.ok());
    static_cast<collectcall::CustomerCreate&>(stored.customer) = std::move(body).value();
    stored.customer.id = new_uuid();
    stored.customer.createdAt = Timestamp::from_time(frozen_time());
    stored.customer.updatedAt = stored.customer.createdAt;
    stored.thread_id = new_uuid();
    return stored;
}

SmsInteractionData sms(const StoredCustomer& c, std::string_view body, std::string_view at,
                       InteractionDirection direction = InteractionDirection::inbound) {
    SmsInteractionData s;
    s.id = new_uuid();
    s.threadId = c.thread_id;
    s.direction = direction;
    s.customerId = c.customer.id;
    s.timestamp = Timestamp::parse(at).value();
    s.createdAt = Timestamp::from_time(frozen_time());
    s.from = E164::parse("+13125550123").value();
    s.to = E164::parse("+12025550100").value();
    s.body = collectcall::SmsBody::parse(body).value();
    s.segments = collectcall::SegmentCount::of(1);
    return s;
}

// A call placed to `c` at `at`, as the calls handler stores one.
Uuid place(Store& store, const Credentials& cred, const StoredCustomer& c, Time at) {
    const auto plan = store.place_call(cred.accountId, c.customer.id, at - std::chrono::hours(48),
                                       [&](const StoredCustomer& stored, const ContactHistory&) {
                                           return placed_call_plan(stored, cred.agentId, at);
                                       });
    REQUIRE(plan);
    return plan->call.id;
}

// What compliance counts of `c`'s contacts since `since` (the decider sees it; nothing is placed).
ContactHistory history_of(Store& store, const Uuid& account, const StoredCustomer& c, Time since) {
    ContactHistory seen;
    const auto plan = store.place_call(account, c.customer.id, since,
                                       [&](const StoredCustomer&, const ContactHistory& history) {
                                           seen = history;
                                           return CallPlan{};
                                       });
    REQUIRE(plan);
    return seen;
}

// A transcript with a turn of the customer's: a telephone conversation.
std::string conversation_transcript() {
    collectcall::TranscriptMessage turn;
    turn.role = collectcall::MessageRole::user;
    turn.message = "I can pay next month.";
    turn.startedAt = Timestamp::from_time(frozen_time());
    turn.endedAt = turn.startedAt;
    turn.endTime = turn.endedAt;
    return collectcall::write(std::vector<collectcall::TranscriptMessage>{turn});
}

std::string body_of(const std::optional<InteractionRecord>& record) {
    REQUIRE(record);
    REQUIRE(std::holds_alternative<SmsInteractionData>(*record));
    return std::string(std::get<SmsInteractionData>(*record).body.view());
}

}  // namespace

TEST_CASE("store: clients are per account; an id of another account is taken", "[store]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Uuid a = account(*store, "a").accountId;
    const Uuid b = account(*store, "b").accountId;

    const Uuid id = new_uuid();
    CHECK(store->insert_client(a, ClientRow{id, Text::parse("Acme").value()}, frozen_time()) ==
          ClientInsert::inserted);
    CHECK(store->insert_client(a, ClientRow{id, Text::parse("Acme 2").value()}, frozen_time()) ==
          ClientInsert::renamed);
    CHECK(store->insert_client(b, ClientRow{id, Text::parse("Theirs").value()}, frozen_time()) ==
          ClientInsert::taken);
    const Uuid second = new_uuid();
    store->insert_client(a, ClientRow{second, Text::parse("Beta").value()}, frozen_time());

    const std::vector<ClientRow> clients = store->list_clients(a, {}).items;
    REQUIRE(clients.size() == 2);  // newest first
    CHECK(clients[0].id == second);
    CHECK(clients[1].id == id);
    CHECK(clients[1].name.str() == "Acme 2");
    CHECK(store->list_clients(b, {}).items.empty());
    CHECK(store->has_client(a, id));
    CHECK_FALSE(store->has_client(b, id));
}

TEST_CASE("store: interactions newest first, per account, the thread's last inbound", "[store]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Uuid a = account(*store, "a").accountId;
    const Uuid b = account(*store, "b").accountId;
    const StoredCustomer c = customer("c-1");
    REQUIRE(store->insert_customer(a, c));

    const std::vector<InteractionRecord> records{
        sms(c, "first", "2026-11-20T10:00:00Z"),
        sms(c, "third, outbound", "2026-11-20T12:00:00Z", InteractionDirection::outbound),
        sms(c, "second", "2026-11-20T11:00:00Z"),
    };
    store->insert_interactions(a, c.customer.id, records);

    const std::vector<InteractionRecord> listed =
        messages_of(store->list_interactions(a, c.customer.id, {}));
    REQUIRE(listed.size() == 3);
    CHECK(body_of(listed[0]) == "third, outbound");
    CHECK(body_of(listed[1]) == "second");
    CHECK(body_of(listed[2]) == "first");
    CHECK(listed[1] == records[2]);  // every member as stored

    CHECK(body_of(store->last_inbound_interaction(a, c.thread_id)) == "second");
    CHECK_FALSE(store->last_inbound_interaction(b, c.thread_id));
    CHECK(body_of(store->find_interaction(a, interaction_id(records[0]))) == "first");
    CHECK_FALSE(store->find_interaction(b, interaction_id(records[0])));
    CHECK(messages_of(store->list_interactions(b, c.customer.id, {})).empty());

    // Interactions are the customer's record: a sweep long after leaves them.
    store->sweep(frozen_time() + std::chrono::hours(24 * 365));
    CHECK(messages_of(store->list_interactions(a, c.customer.id, {})).size() == 3);
}

TEST_CASE("store: record_interaction decides on the customer as stored, with its history",
          "[store]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Uuid a = account(*store, "a").accountId;
    const StoredCustomer c = customer("c-1");
    REQUIRE(store->insert_customer(a, c));
    store->insert_interactions(
        a, c.customer.id,
        std::vector<InteractionRecord>{
            sms(c, "sent", "2026-11-20T14:00:00Z", InteractionDirection::outbound),
            sms(c, "received", "2026-11-20T14:10:00Z")});

    std::size_t texts_seen = 99;
    const auto decide = [&](bool keep) {
        return [&, keep](const StoredCustomer& s, std::span<const Time> calls,
                         std::span<const Time> texts) {
            CHECK(s.customer.id == c.customer.id);
            CHECK(calls.empty());
            texts_seen = texts.size();
            InteractionPlan plan;
            plan.record = sms(c, keep ? "kept" : "dropped", "2026-11-20T15:00:00Z",
                              InteractionDirection::outbound);
            plan.store = keep;
            return plan;
        };
    };
    const Time since = frozen_time() - std::chrono::hours(48);
    CHECK_FALSE(store->record_interaction(a, new_uuid(), since, decide(true)));
    const auto dropped = store->record_interaction(a, c.customer.id, since, decide(false));
    REQUIRE(dropped);
    CHECK_FALSE(dropped->store);
    CHECK(texts_seen == 1);  // the outbound SMS only
    CHECK(messages_of(store->list_interactions(a, c.customer.id, {})).size() == 2);
    REQUIRE(store->record_interaction(a, c.customer.id, since, decide(true)));
    CHECK(body_of(messages_of(store->list_interactions(a, c.customer.id, {})).front()) == "kept");
    REQUIRE(store->record_interaction(a, c.customer.id, since, decide(false)));
    CHECK(texts_seen == 2);
}

TEST_CASE("store: an analysis is stored once and its outcomes applied once", "[store]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Uuid a = account(*store, "a").accountId;
    const StoredCustomer c = customer("c-1");
    REQUIRE(store->insert_customer(a, c));

    StoredAnalysis first;
    first.interaction_id = new_uuid();
    first.customer_id = c.customer.id;
    first.channel = Channel::voice;
    first.variables.stop_requests = true;
    first.variables.attorney_represented = true;
    first.analysed_at = frozen_time();

    // Not applied: stored as given.
    StoredAnalysis stored = store->save_analysis(a, first, {});
    CHECK(stored.variables == first.variables);
    CHECK(stored.channel == Channel::voice);
    CHECK_FALSE(stored.outcomes_applied);

    // A second analysis finds the first; applying runs once.
    StoredAnalysis other = first;
    other.variables = {};
    int applied = 0;
    const OutcomeApplier apply = [&](StoredCustomer& s, const collectcall::OutputVariables& v) {
        ++applied;
        collectcall::Standing after = customer_standing(s);
        if (v.stop_requests) after.restrictedMedia.add(collectcall::ContactChannel::call);
        after.attorneyRepresented = v.attorney_represented;
        after.disputed = true;
        return change_customer_standing(s, after, frozen_time(),
                                        collectcall::CompliancePolicy::hosted,
                                        collectcall::StandingCause::analysis, first.interaction_id);
    };
    stored = store->save_analysis(a, other, apply);
    CHECK(stored.variables == first.variables);
    CHECK(stored.outcomes_applied);
    CHECK(applied == 1);
    stored = store->save_analysis(a, other, apply);
    CHECK(applied == 1);

    const auto after = store->find_customer(a, c.customer.id);
    REQUIRE(after);
    CHECK(after->customer.restrictedMedia.contains(collectcall::ContactChannel::call));
    CHECK(after->customer.attorneyRepresented);
    CHECK(after->customer.disputed);
    CHECK_FALSE(after->cease_and_desist);
    // The change is recorded with it, once.
    const auto records =
        store->list_compliance_decisions(a, c.customer.id, api::PageRequest{10, {}}).items;
    REQUIRE(records.size() == 1);
    CHECK(records[0].operation == collectcall::ComplianceOperation::standing);
    REQUIRE(records[0].standing.has_value());
    CHECK(records[0].standing->interactionId == first.interaction_id);
    CHECK(records[0].standing->before == collectcall::Standing{});
    CHECK(records[0].standing->after == customer_standing(*after));
    CHECK(records[0].channel.absent());
    // update_customer keeps them.
    const auto updated = store->update_customer(a, c.customer.id, [](StoredCustomer& s) {
        s.active = false;
        return true;
    });
    REQUIRE(updated);
    CHECK(store->find_customer(a, c.customer.id)->customer == after->customer);
}

TEST_CASE("store: a change of standing and its record are stored together, or neither",
          "[store][optouts]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Uuid a = account(*store, "a").accountId;
    const StoredCustomer c = customer("c-1");
    REQUIRE(store->insert_customer(a, c));
    const auto restrict_texts = [](StoredCustomer& s) {
        collectcall::Standing after = customer_standing(s);
        after.restrictedMedia.add(collectcall::ContactChannel::sms);
        return change_customer_standing(s, after, frozen_time(),
                                        collectcall::CompliancePolicy::regulation_f,
                                        collectcall::StandingCause::opt_out_keyword);
    };
    // With the import that makes it.
    store->insert_interactions(
        a, c.customer.id, std::vector<InteractionRecord>{sms(c, "STOP", "2026-11-20T10:00:00Z")},
        restrict_texts);
    auto found = store->find_customer(a, c.customer.id);
    CHECK(found->customer.restrictedMedia ==
          collectcall::RestrictedMedia{collectcall::ContactChannel::sms});
    CHECK(messages_of(store->list_interactions(a, c.customer.id, {})).size() == 1);
    // No change: nothing written (not even updatedAt), no record.
    CHECK(store->change_standing(a, c.customer.id, restrict_texts)->customer == found->customer);
    auto records =
        store->list_compliance_decisions(a, c.customer.id, api::PageRequest{10, {}}).items;
    REQUIRE(records.size() == 1);
    CHECK(records[0].policy == collectcall::CompliancePolicy::regulation_f);
    CHECK(records[0].standing->cause == collectcall::StandingCause::opt_out_keyword);
    // A changer that throws leaves neither.
    CHECK_THROWS(store->change_standing(a, c.customer.id, [](StoredCustomer& s) {
        s.customer.disputed = true;
        throw std::runtime_error("no");
        return std::optional<collectcall::ComplianceDecision>{};
    }));
    CHECK_FALSE(store->find_customer(a, c.customer.id)->customer.disputed);
    CHECK_FALSE(store->change_standing(
        a, Uuid::parse("0f8fad5b-d9cb-469f-a165-70867728950e").value(), restrict_texts));
    CHECK(
        store->list_compliance_decisions(a, c.customer.id, api::PageRequest{10, {}}).items.size() ==
        1);
}

TEST_CASE(
    "store: a customer who asked not to be called keeps the calls restricted after the "
    "restricted media replace the do-not-call flag",
    "[store][optouts]") {
    Database database;
    Uuid a;
    const StoredCustomer called = customer("c-1");
    const StoredCustomer asked = customer("c-2");
    {
        const std::unique_ptr<Store> store = open_store(database.uri());
        a = account(*store, "a").accountId;
        REQUIRE(store->insert_customer(a, called));
        REQUIRE(store->insert_customer(a, asked));
    }
    // Back to the version before the restricted media: the flag, set for c-2.
    const std::string flag_type =
        database.postgres() ? "BOOLEAN NOT NULL DEFAULT FALSE" : "INTEGER NOT NULL DEFAULT 0";
    (void)database.rows("ALTER TABLE customers ADD COLUMN do_not_call " + flag_type);
    (void)database.rows(
        "UPDATE customers SET do_not_call = " + std::string(database.postgres() ? "TRUE" : "1") +
        " WHERE id = '" + std::string(asked.customer.id.view()) + "'");
    (void)database.rows("ALTER TABLE customers DROP COLUMN restricted_media");
    undo_version_9(database);
    const int before = 7;  // the version before the restricted media
    static_assert(collectcall::server::SqliteStore::schema_version ==
                  collectcall::server::PostgresStore::schema_version);
    if (database.postgres()) {
        (void)database.rows("DELETE FROM schema_version WHERE version > " + std::to_string(before));
    } else {
        (void)database.rows("PRAGMA user_version = " + std::to_string(before));
    }

    const std::unique_ptr<Store> store = open_store(database.uri());
    CHECK(store->find_customer(a, called.customer.id)->customer.restrictedMedia.empty());
    CHECK(store->find_customer(a, asked.customer.id)->customer.restrictedMedia ==
          collectcall::RestrictedMedia{collectcall::ContactChannel::call});
}

TEST_CASE("store: a call's transcript once it has ended", "[store]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Credentials cred = account(*store, "a");
    const StoredCustomer c = customer("c-1");
    REQUIRE(store->insert_customer(cred.accountId, c));
    const Time since = frozen_time() - std::chrono::hours(48);
    const Uuid call = place(*store, cred, c, frozen_time());
    CHECK_FALSE(store->find_call_transcript(cred.accountId, call));
    REQUIRE(store->end_call(cred.accountId, call,
                            test::ended_call(collectcall::EndedReason::customer_ended_call, 1000,
                                             "[]", frozen_time())));
    CHECK(store->find_call_transcript(cred.accountId, call) == std::optional<std::string>("[]"));
    const Uuid other = account(*store, "b").accountId;
    CHECK_FALSE(store->find_call_transcript(other, call));
    // No turn of the customer's: placed, not a conversation.
    ContactHistory history = history_of(*store, cred.accountId, c, since);
    CHECK(history.placed.size() == 1);
    CHECK(history.conversations.empty());

    // A turn of the customer's: a conversation, from the call's end on.
    const Uuid talked = place(*store, cred, c, frozen_time() + std::chrono::minutes(1));
    CHECK(history_of(*store, cred.accountId, c, since).conversations.empty());
    REQUIRE(store->end_call(cred.accountId, talked,
                            test::ended_call(collectcall::EndedReason::customer_ended_call, 1000,
                                             conversation_transcript(), frozen_time())));
    history = history_of(*store, cred.accountId, c, since);
    CHECK(history.placed.size() == 2);
    CHECK(history.conversations == std::vector<Time>{frozen_time() + std::chrono::minutes(1)});
}

TEST_CASE("store: end_calls ends the calls in progress it is given, in one write", "[store]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Credentials cred = account(*store, "a");
    std::vector<Uuid> calls;
    for (const char* name : {"c-1", "c-2", "c-3"}) {
        const StoredCustomer c = customer(name);
        REQUIRE(store->insert_customer(cred.accountId, c));
        calls.push_back(place(*store, cred, c, frozen_time()));
    }
    const auto ending = [&](const Uuid& account, const Uuid& call, std::int64_t duration_ms) {
        return CallToEnd{account, call,
                         test::ended_call(collectcall::EndedReason::customer_ended_call,
                                          duration_ms, "[]", frozen_time())};
    };
    REQUIRE(
        store->end_call(cred.accountId, calls[0], ending(cred.accountId, calls[0], 1000).ending));

    std::size_t writes = 0;
    std::size_t items = 0;
    store->observe_writes([&](std::size_t n, auto) {
        ++writes;
        items += n;
    });
    const Uuid other = account(*store, "b").accountId;
    const std::vector<CallToEnd> endings{
        ending(cred.accountId, calls[0], 1),  // ended already
        ending(cred.accountId, calls[1], 2000),
        ending(other, calls[2], 3),  // another account's call
        ending(cred.accountId, calls[2], 3000),
        ending(cred.accountId, new_uuid(), 4),  // no such call
    };
    writes = items = 0;
    CHECK(store->end_calls(endings) == std::vector<bool>{false, true, false, true, false});
    CHECK(writes == 1);
    CHECK(items == endings.size());
    const std::int64_t durations[] = {1000, 2000, 3000};
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const auto call = store->find_call(cred.accountId, calls[i]);
        REQUIRE(call);
        CHECK(call->status == collectcall::CallStatus::completed);
        CHECK(call->durationMs == durations[i]);
        CHECK(call->events.size() == 2);  // created, ended: once
    }
}

namespace {

// `count` customers of the account's, each with a call in progress.
std::vector<CallInProgress> calls_in_progress(Store& store, const Credentials& cred,
                                              std::size_t count) {
    std::vector<CallInProgress> calls;
    for (std::size_t i = 0; i < count; ++i) {
        const StoredCustomer c = customer("c-" + std::to_string(i));
        REQUIRE(store.insert_customer(cred.accountId, c));
        calls.push_back(CallInProgress{cred.accountId, place(store, cred, c, frozen_time())});
    }
    return calls;
}

// Runs a simulated dialer with a step of 0 (every call is due when its thread starts) over
// `calls` until the store was given all of them to end (or a minute passed), then stops it.
void end_by_dialer(test::HookedStore& store, const std::vector<CallInProgress>& calls) {
    const Clock clock(frozen_time());
    SimulatedDialer dialer(store, clock, std::chrono::milliseconds{0}, nullptr, false);
    dialer.start(calls);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (store.calls_ended < static_cast<int>(calls.size()) &&
           std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    dialer.stop();
}

}  // namespace

TEST_CASE("the simulated dialer ends the calls due together in writes of at most max_endings",
          "[store][dialer]") {
    Database database;
    test::HookedStore store(database.uri());
    const Credentials cred = account(store, "a");
    constexpr std::size_t count = 2 * SimulatedDialer::max_endings + 6;
    const std::vector<CallInProgress> resumed = calls_in_progress(store, cred, count);
    end_by_dialer(store, resumed);
    CHECK(store.calls_ended == static_cast<int>(count));
    CHECK(store.end_calls_made == 3);  // 32, 32 and 6
    for (const CallInProgress& call : resumed) {
        const auto found = store.find_call(cred.accountId, call.id);
        REQUIRE(found);
        CHECK(found->status != collectcall::CallStatus::in_progress);
    }
}

TEST_CASE("the simulated dialer ends again a step later the calls whose write failed",
          "[store][dialer]") {
    Database database;
    test::HookedStore store(database.uri());
    const Credentials cred = account(store, "a");
    const std::vector<CallInProgress> resumed = calls_in_progress(store, cred, 3);
    std::atomic<bool> failed{false};
    store.before_end_calls = [&] {
        if (!failed.exchange(true)) throw StoreError("the database is busy", true);
    };
    end_by_dialer(store, resumed);
    CHECK(failed);
    CHECK(store.end_calls_made == 2);  // the failed write, then the three again in one
    for (const CallInProgress& call : resumed) {
        const auto found = store.find_call(cred.accountId, call.id);
        REQUIRE(found);
        CHECK(found->status == collectcall::CallStatus::completed);
        CHECK(found->events.size() == 2);
    }
}

TEST_CASE("store: a version 4 database migrates to the current version and keeps its customers",
          "[store]") {
    Database database;
    Uuid a;
    StoredCustomer c = customer("c-1");
    {
        const std::unique_ptr<Store> store = open_store(database.uri());
        const Credentials cred = account(*store, "a");
        a = cred.accountId;
        REQUIRE(store->insert_customer(a, c));
        // A conversation ended under version 4: version 6 finds it in the transcript.
        REQUIRE(store->end_call(a, place(*store, cred, c, frozen_time()),
                                test::ended_call(collectcall::EndedReason::customer_ended_call,
                                                 1000, conversation_transcript(), frozen_time())));
    }
    undo_version_9(database);
    // Back to version 4: what versions 5 to 7 added is taken away again (the outbox's
    // columns of drip enrolments on PostgreSQL; SQLite's migration rebuilds the outbox table;
    // version 7 dropped what version 6 made for the sweep that it replaced).
    for (const char* sql : {"DROP INDEX customers_by_last_activity",
                            "ALTER TABLE customers DROP COLUMN last_activity_ms"})
        (void)database.rows(sql);
    if (database.postgres()) {
        for (const char* sql : {"ALTER TABLE webhook_outbox DROP COLUMN drip_id",
                                "ALTER TABLE webhook_outbox DROP COLUMN body"})
            (void)database.rows(sql);
    }
    for (const char* sql : {"DROP TABLE drip_enrolments", "ALTER TABLE calls DROP COLUMN drip_id"})
        (void)database.rows(sql);
    for (const char* sql :
         {"DROP TABLE analyses", "DROP TABLE interactions", "DROP TABLE clients",
          "ALTER TABLE customers DROP COLUMN restricted_media",
          "ALTER TABLE customers DROP COLUMN attorney_represented",
          "ALTER TABLE customers DROP COLUMN disputed", "DROP TABLE compliance_decisions",
          "DROP TABLE drip_campaigns", "ALTER TABLE accounts DROP COLUMN compliance_policy",
          "ALTER TABLE calls DROP COLUMN decision", "ALTER TABLE calls DROP COLUMN conversation"}) {
        (void)database.rows(sql);
    }
    if (database.postgres()) {
        (void)database.rows("DELETE FROM schema_version WHERE version >= 5");
    } else {
        (void)database.rows("PRAGMA user_version = 4");
    }

    const std::unique_ptr<Store> store = open_store(database.uri());
    const auto found = store->find_customer(a, c.customer.id);
    REQUIRE(found);
    CHECK(found->customer == c.customer);
    CHECK(found->customer.restrictedMedia.empty());
    CHECK_FALSE(found->customer.attorneyRepresented);
    CHECK_FALSE(found->customer.disputed);
    store->insert_interactions(
        a, c.customer.id, std::vector<InteractionRecord>{sms(c, "hi", "2026-11-20T10:00:00Z")});
    CHECK(messages_of(store->list_interactions(a, c.customer.id, {})).size() == 1);
    CHECK(store->account_settings(a).policy == collectcall::CompliancePolicy::hosted);
    CHECK(
        store->list_compliance_decisions(a, c.customer.id, api::PageRequest{10, {}}).items.empty());
    const ContactHistory history = history_of(*store, a, c, frozen_time() - std::chrono::hours(48));
    CHECK(history.placed == std::vector<Time>{frozen_time()});
    CHECK(history.conversations == std::vector<Time>{frozen_time()});
    // Version 7 found the customer's last activity in its records: the call.
    CHECK(database
              .rows("SELECT last_activity_ms FROM customers WHERE id = '" +
                    std::string(c.customer.id.view()) + "'")
              .at(0)
              .at(0) == std::to_string(to_ms(frozen_time())));
    if (database.postgres()) {
        CHECK(database.rows("SELECT MAX(version) FROM schema_version")[0][0] ==
              std::to_string(collectcall::server::PostgresStore::schema_version));
    } else {
        CHECK(database.rows("PRAGMA user_version")[0][0] ==
              std::to_string(collectcall::server::SqliteStore::schema_version));
    }
}

TEST_CASE("store: an Idempotency-Key request's writes commit with its answer, or not at all",
          "[store][idempotency]") {
    Database database;
    HookedStore store(database.uri());
    const Uuid a = account(store, "a").accountId;
    int inserts = 0;
    store.before_insert_customer = [&] { ++inserts; };
    const Sha256 print = sha256("POST /api/v1/customers\n{}");

    // Begins `key` and inserts a customer through the request's store.
    const auto begin_with_write = [&](std::string_view key, std::string_view external_id) {
        IdempotencyBegin begun = store.begin_idempotent(a, key, print, frozen_time());
        REQUIRE(begun.state == IdempotencyState::started);
        REQUIRE(begun.store);
        const StoredCustomer written = customer(external_id);
        CHECK(begun.store->insert_customer(a, written));
        return std::pair{std::move(begun), written.customer.id};
    };

    // Abandoned: its write is rolled back and the key freed.
    auto [first, dropped] = begin_with_write("k", "dropped");
    first.store->abandon_idempotent(a, "k");
    first.store.reset();
    CHECK_FALSE(store.find_customer(a, dropped));

    // Its store destroyed unfinished: rolled back as well.
    auto [lost, unfinished] = begin_with_write("lost", "unfinished");
    lost.store.reset();
    CHECK_FALSE(store.find_customer(a, unfinished));

    // Finished: the write is seen by others only with the answer, and a retry replays.
    auto [again, kept] = begin_with_write("k", "kept");
    CHECK_FALSE(store.find_customer(a, kept));
    again.store->finish_idempotent(a, "k", StoredResponse{201, "{\"kept\":1}", "request-1"});
    again.store.reset();
    CHECK(store.find_customer(a, kept));
    const IdempotencyBegin replay = store.begin_idempotent(a, "k", print, frozen_time());
    CHECK(replay.state == IdempotencyState::replay);
    CHECK(replay.response.status == 201);
    CHECK(replay.response.body == "{\"kept\":1}");
    CHECK_FALSE(replay.store);

    // The decorator saw the writes made through the requests' stores.
    CHECK(inserts == 3);
}

TEST_CASE("store: every write is reported to the write observer, with its items; reads are not",
          "[store][metrics]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    std::mutex mutex;
    std::vector<std::size_t> writes;  // the items of each write reported
    REQUIRE(store->observe_writes([&](std::size_t items, std::chrono::nanoseconds duration) {
        CHECK(duration.count() >= 0);
        std::lock_guard lock(mutex);
        writes.push_back(items);
    }));
    const auto reported = [&] {
        std::lock_guard lock(mutex);
        return std::exchange(writes, {});
    };
    const Credentials cred = account(*store, "a");
    const Uuid a = cred.accountId;
    CHECK(reported() == std::vector<std::size_t>{1});

    const StoredCustomer one = customer("one");
    CHECK(store->insert_customer(a, one));
    CHECK(reported() == std::vector<std::size_t>{1});
    const std::vector<StoredCustomer> bulk{customer("b-1"), customer("b-2"), customer("b-3")};
    CHECK(store->insert_customers(a, bulk).size() == 3);
    CHECK(reported() == std::vector<std::size_t>{3});
    const std::vector<InteractionRecord> texts{sms(one, "one", "2026-11-20T03:00:00Z"),
                                               sms(one, "two", "2026-11-20T03:01:00Z")};
    store->insert_interactions(a, one.customer.id, texts);
    CHECK(reported() == std::vector<std::size_t>{2});

    // A write the metrics once had to name to time: timed as every other.
    (void)store->server_key("observed", "candidate");
    CHECK(reported() == std::vector<std::size_t>{1});

    // Reads report nothing.
    CHECK(store->find_customer(a, one.customer.id));
    CHECK(store->account(a).name == "a");
    CHECK(reported().empty());

    // An Idempotency-Key request's store reports its writes to the store's observer, and its
    // answer with the request's commit as one write.
    const Sha256 print = sha256("POST /api/v1/customers\n{}");
    IdempotencyBegin begun = store->begin_idempotent(a, "k", print, frozen_time());
    REQUIRE(begun.store);
    CHECK(reported() == std::vector<std::size_t>{1});
    CHECK(begun.store->insert_customer(a, customer("keyed")));
    CHECK(reported() == std::vector<std::size_t>{1});
    begun.store->finish_idempotent(a, "k", StoredResponse{200, "{}", "request-1"});
    CHECK(reported() == std::vector<std::size_t>{1});
}

namespace {

// Each commit of a group-commit store (SQLite's writer): how many writes it made durable.
struct Commits {
    std::mutex mutex;
    std::vector<std::size_t> writes;
    std::size_t count() {
        std::lock_guard lock(mutex);
        return writes.size();
    }
    std::vector<std::size_t> since(std::size_t mark) {
        std::lock_guard lock(mutex);
        return {writes.begin() + static_cast<std::ptrdiff_t>(mark), writes.end()};
    }
};

// The suite's store; on SQLite, the store itself, a keyed request holding its writer at most
// `hold_ms`, and its commits counted in `commits`.
std::unique_ptr<Store> counted_store(const Database& database, Commits& commits,
                                     int hold_ms = 5000) {
    if (database.postgres()) return open_store(database.uri());
    SqliteOptions options;
    options.path = database.uri();
    options.request_hold_ms = hold_ms;
    auto store = std::make_unique<SqliteStore>(options);
    store->observe_commits([&commits](std::size_t writes, std::chrono::nanoseconds) {
        std::lock_guard lock(commits.mutex);
        commits.writes.push_back(writes);
    });
    return store;
}

// Once `write` is known to wait behind the keyed request that holds SQLite's writer (queued for
// the writer's batch), or at once on PostgreSQL, where it does not wait.
void until_queued(Store& store, const std::thread& write) {
    auto* sqlite = dynamic_cast<SqliteStore*>(&store);
    if (sqlite == nullptr) return;
    REQUIRE(write.joinable());
    while (sqlite->writes_queued() == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

TEST_CASE("store: a keyed request's writes share one commit with the writes queued behind it",
          "[store][idempotency]") {
    Database database;
    Commits commits;
    const std::unique_ptr<Store> store = counted_store(database, commits);
    const bool group_commit = !database.postgres();
    const Uuid a = account(*store, "a").accountId;
    const Uuid b = account(*store, "b").accountId;
    const Sha256 print = sha256("POST /api/v1/customers\n{}");

    // Another account's plain write, from a thread of its own, while a keyed request of `a` has
    // written and not ended; `inserted` once it is done.
    bool inserted = false;
    const auto plain_write = [&](const StoredCustomer& c) {
        return std::thread([&store, &b, &inserted, c] { inserted = store->insert_customer(b, c); });
    };

    SECTION("finished: one commit carries the request's writes, its answer and the plain write") {
        IdempotencyBegin begun = store->begin_idempotent(a, "k", print, frozen_time());
        REQUIRE(begun.state == IdempotencyState::started);
        const std::size_t mark = commits.count();
        const StoredCustomer keyed = customer("keyed");
        const StoredCustomer second = customer("keyed-2");
        CHECK(begun.store->insert_customer(a, keyed));
        const StoredCustomer plain = customer("plain");
        std::thread other = plain_write(plain);
        until_queued(*store, other);
        // Its further writes run while the plain write waits; nothing is committed before its end.
        CHECK(begun.store->insert_customer(a, second));
        if (group_commit) {
            CHECK(commits.since(mark).empty());
        } else {
            other.join();  // PostgreSQL: the other account's write did not wait
            CHECK(inserted);
        }
        CHECK_FALSE(store->find_customer(a, keyed.customer.id));
        begun.store->finish_idempotent(a, "k", StoredResponse{200, "{}", "request-1"});
        begun.store.reset();
        if (other.joinable()) other.join();
        CHECK(inserted);
        if (group_commit) {
            // The request (one participant) and the plain write, made durable by one COMMIT.
            CHECK(commits.since(mark) == std::vector<std::size_t>{2});
        }
        CHECK(store->find_customer(a, keyed.customer.id));
        CHECK(store->find_customer(a, second.customer.id));
        CHECK(store->find_customer(b, plain.customer.id));
        CHECK(store->begin_idempotent(a, "k", print, frozen_time()).state ==
              IdempotencyState::replay);
    }

    SECTION("rolled back: the request's writes go, the plain write of its batch stays") {
        IdempotencyBegin begun = store->begin_idempotent(a, "k", print, frozen_time());
        REQUIRE(begun.state == IdempotencyState::started);
        const std::size_t mark = commits.count();
        const StoredCustomer keyed = customer("keyed");
        CHECK(begun.store->insert_customer(a, keyed));
        const StoredCustomer plain = customer("plain");
        std::thread other = plain_write(plain);
        until_queued(*store, other);
        begun.store.reset();  // unfinished: rolled back
        other.join();
        CHECK(inserted);
        if (group_commit) CHECK(commits.since(mark) == std::vector<std::size_t>{2});
        CHECK_FALSE(store->find_customer(a, keyed.customer.id));
        CHECK(store->find_customer(b, plain.customer.id));
        // The key is freed by abandon_idempotent, as the server does.
        store->abandon_idempotent(a, "k");
        CHECK(store->begin_idempotent(a, "k", print, frozen_time()).state ==
              IdempotencyState::started);
    }
}

TEST_CASE("store: a keyed request that does not end is rolled back at its hold limit, then 503",
          "[store][idempotency][sqlite]") {
    Database database;
    if (database.postgres()) return;  // PostgreSQL's requests hold no single writer
    Commits commits;
    // A second: a thousand times a request's writes, so that its first write is not cut short
    // on a loaded machine; the test waits it out once.
    const std::unique_ptr<Store> store = counted_store(database, commits, 1000);
    const Uuid a = account(*store, "a").accountId;
    const Uuid b = account(*store, "b").accountId;
    const Sha256 print = sha256("POST /api/v1/customers\n{}");

    IdempotencyBegin begun = store->begin_idempotent(a, "k", print, frozen_time());
    REQUIRE(begun.state == IdempotencyState::started);
    const StoredCustomer keyed = customer("keyed");
    CHECK(begun.store->insert_customer(a, keyed));
    // The request does nothing more. Another account's write still ends: it can only once the
    // request's hold is over, and the request did not end it.
    const StoredCustomer plain = customer("plain");
    CHECK(store->insert_customer(b, plain));
    CHECK(store->find_customer(b, plain.customer.id));
    CHECK_FALSE(store->find_customer(a, keyed.customer.id));

    // The request's later writes and its answer fail with the store's unavailable error (503).
    const auto unavailable = [](const auto& call) {
        try {
            call();
        } catch (const StoreError& e) {
            return e.unavailable();
        }
        return false;
    };
    CHECK(unavailable([&] { begun.store->insert_customer(a, customer("later")); }));
    CHECK(unavailable([&] {
        begun.store->finish_idempotent(a, "k", StoredResponse{200, "{}", "request-1"});
    }));
    // The server then abandons the key: a retry runs the work again.
    begun.store->abandon_idempotent(a, "k");
    begun.store.reset();
    CHECK_FALSE(store->find_customer(a, keyed.customer.id));
    IdempotencyBegin retry = store->begin_idempotent(a, "k", print, frozen_time());
    REQUIRE(retry.state == IdempotencyState::started);
    CHECK(retry.store->insert_customer(a, keyed));
    retry.store->finish_idempotent(a, "k", StoredResponse{200, "{}", "request-2"});
    retry.store.reset();
    CHECK(store->find_customer(a, keyed.customer.id));
}

TEST_CASE("store: the record of decisions, placed calls' and others', newest first",
          "[store][compliance]") {
    using collectcall::ComplianceOperation;
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Credentials account_credentials = account(*store, "a");
    const Uuid a = account_credentials.accountId;
    StoredCustomer c = customer("c-1");
    REQUIRE(store->insert_customer(a, c));

    // Evaluations at one instant, alternately placed and refused: the listing gives them back in
    // the opposite order of their making, each with its own compliance and operation.
    const Time t = frozen_time();
    std::vector<bool> placed_pattern{true, false, false, true, false};
    for (std::size_t i = 0; i < placed_pattern.size(); ++i) {
        const bool place = placed_pattern[i];
        const auto plan = store->place_call(
            a, c.customer.id, t - std::chrono::hours(1),
            [&](const StoredCustomer& stored, const ContactHistory&) {
                CallPlan p = placed_call_plan(stored, account_credentials.agentId, t);
                p.place = place;
                p.call.compliance.passed = place;
                p.decision.operation =
                    i % 2 == 0 ? ComplianceOperation::call : ComplianceOperation::bulk_call;
                p.decision.compliance.passed = place;
                p.decision.candidateZones = {"zone-" + std::to_string(i)};
                return p;
            });
        REQUIRE(plan);
    }
    const auto listed =
        store->list_compliance_decisions(a, c.customer.id, api::PageRequest{10, {}}).items;
    REQUIRE(listed.size() == placed_pattern.size());
    for (std::size_t i = 0; i < listed.size(); ++i) {
        const std::size_t made = placed_pattern.size() - 1 - i;
        INFO("listed " << i << ", made " << made);
        CHECK(listed[i].candidateZones == std::vector<std::string>{"zone-" + std::to_string(made)});
        CHECK(listed[i].compliance.passed == placed_pattern[made]);
        CHECK(listed[i].operation ==
              (made % 2 == 0 ? ComplianceOperation::call : ComplianceOperation::bulk_call));
        CHECK(listed[i].at == Timestamp::from_time(t));
    }
    CHECK(
        store->list_compliance_decisions(a, c.customer.id, api::PageRequest{2, {}}).items.size() ==
        2);
    CHECK(store->list_calls(a, c.customer.id, {}).items.size() == 2);
}

TEST_CASE("store: a call's compliance comes back whole, from its id and reason or an older row",
          "[store][compliance]") {
    using collectcall::CheckId;
    using collectcall::compliance::check_info;
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Credentials cred = account(*store, "a");
    const StoredCustomer c = customer("c-1");
    REQUIRE(store->insert_customer(cred.accountId, c));
    collectcall::ComplianceResult compliance;
    compliance.passed = false;
    compliance.checksPassed = {collectcall::compliance::make_check(CheckId::is_active, "Active")};
    compliance.checksFailed = {
        collectcall::compliance::make_check(CheckId::respectful_hours, "Too late"),
        collectcall::compliance::make_check(CheckId::state_call_limit, "Two this week")};
    const auto plan =
        store->place_call(cred.accountId, c.customer.id, frozen_time() - std::chrono::hours(48),
                          [&](const StoredCustomer& stored, const ContactHistory&) {
                              CallPlan p = placed_call_plan(stored, cred.agentId, frozen_time());
                              p.call.compliance = compliance;
                              return p;
                          });
    REQUIRE(plan);
    const auto found = store->find_call(cred.accountId, plan->call.id);
    REQUIRE(found);
    CHECK(found->compliance == compliance);
    // The row keeps ids and reasons only.
    const std::string stored = database
                                   .rows("SELECT compliance FROM calls WHERE id = '" +
                                         std::string(plan->call.id.view()) + "'")
                                   .at(0)
                                   .at(0);
    CHECK(stored.find("Too late") != std::string::npos);
    CHECK(stored.find(check_info(CheckId::respectful_hours).description) == std::string::npos);

    // A row written in full (before schema version 6) is read as it was written.
    (void)database.rows(
        R"(UPDATE calls SET compliance = '{"passed":true,"checksPassed":[{"id":"is-active",)"
        R"("name":"Older Name","description":"Older description","reason":"Active"}],)"
        R"("checksFailed":[]}')");
    const auto older = store->find_call(cred.accountId, plan->call.id);
    REQUIRE(older);
    REQUIRE(older->compliance.checksPassed.size() == 1);
    CHECK(older->compliance.checksPassed[0].name == "Older Name");
    CHECK(older->compliance.checksPassed[0].description == "Older description");
    CHECK(older->compliance.checksPassed[0].reason == "Active");
}

namespace {

// A refused call's decision about `c` at `at` (a row of its own).
void refuse(Store& store, const Credentials& cred, const StoredCustomer& c, Time at) {
    const auto plan = store.place_call(cred.accountId, c.customer.id, at - std::chrono::hours(48),
                                       [&](const StoredCustomer& stored, const ContactHistory&) {
                                           CallPlan p = placed_call_plan(stored, cred.agentId, at);
                                           p.place = false;
                                           p.call.compliance.passed = false;
                                           p.decision.compliance.passed = false;
                                           return p;
                                       });
    REQUIRE(plan);
}

// How many rows of `table` belong to `c` (calls' events by their call).
std::size_t rows_of(const Database& database, std::string_view table, const StoredCustomer& c) {
    const std::string id(c.customer.id.view());
    const std::string where =
        table == "call_events"
            ? " WHERE call_id IN (SELECT id FROM calls WHERE customer_id = '" + id + "')"
            : " WHERE customer_id = '" + id + "'";
    return std::stoul(
        database.rows("SELECT COUNT(*) FROM " + std::string(table) + where).at(0).at(0));
}

}  // namespace

TEST_CASE(
    "store: a customer's decisions, calls and interactions are kept three years after its last "
    "activity, then swept together",
    "[store][compliance][retention]") {
    using collectcall::compliance::record_retention;
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Credentials cred = account(*store, "a");
    const Uuid a = cred.accountId;
    const Time t = frozen_time();

    // `gone`: a placed call that became a conversation, a refused call, an SMS, each analysed;
    // nothing after.
    const StoredCustomer gone = customer("gone");
    REQUIRE(store->insert_customer(a, gone));
    const Uuid call = place(*store, cred, gone, t);
    const Time gone_last = t + std::chrono::minutes(1);
    REQUIRE(store->end_call(a, call,
                            test::ended_call(collectcall::EndedReason::customer_ended_call, 60'000,
                                             conversation_transcript(), gone_last)));
    refuse(*store, cred, gone, t);
    const SmsInteractionData text = sms(gone, "Can I pay later?", "2026-11-20T14:00:00Z");
    store->insert_interactions(a, gone.customer.id, std::vector<InteractionRecord>{text});
    for (const auto& [id, channel] :
         {std::pair{text.id, Channel::sms}, std::pair{call, Channel::voice}}) {
        StoredAnalysis analysis;
        analysis.interaction_id = id;
        analysis.customer_id = gone.customer.id;
        analysis.channel = channel;
        analysis.analysed_at = t;
        (void)store->save_analysis(a, analysis, {});
    }

    // `kept`: a refused call as old as `gone`'s records, and a call two years later.
    const StoredCustomer kept = customer("kept");
    REQUIRE(store->insert_customer(a, kept));
    refuse(*store, cred, kept, t);
    const Time later = t + std::chrono::days(730);
    place(*store, cred, kept, later);

    const auto everything = [&](const StoredCustomer& c) {
        return std::vector<std::size_t>{
            store->list_compliance_decisions(a, c.customer.id, api::PageRequest{10, {}})
                .items.size(),
            store->list_calls(a, c.customer.id, {}).items.size(),
            messages_of(store->list_interactions(a, c.customer.id, {})).size(),
            rows_of(database, "analyses", c)};
    };
    const std::vector<std::size_t> gone_before = everything(gone);
    CHECK(gone_before == std::vector<std::size_t>{2, 1, 1, 2});
    const std::vector<std::size_t> kept_before = everything(kept);
    CHECK(kept_before == std::vector<std::size_t>{2, 1, 0, 0});

    // The last activity of `gone` is the call's end: an hour short of three years after it,
    // everything stays (but the calls' events, which go after a week).
    store->sweep(gone_last + record_retention - std::chrono::hours(1));
    CHECK(everything(gone) == gone_before);
    CHECK(rows_of(database, "call_events", gone) == 0);

    // An hour past: all of `gone`'s records go together; the customer itself stays. `kept`'s
    // refusal is as old, but its last activity is two years later: it keeps all of it.
    const std::int64_t swept = store->sweep(gone_last + record_retention + std::chrono::hours(1));
    CHECK(everything(gone) == std::vector<std::size_t>{0, 0, 0, 0});
    // A decision, the call and the SMS, each with its analysis.
    CHECK(swept == 1 + 2 + 2);
    CHECK(store->find_customer(a, gone.customer.id));
    CHECK_FALSE(store->find_call(a, call));
    CHECK_FALSE(store->find_interaction(a, text.id));
    CHECK(everything(kept) == kept_before);
    // Nothing of `gone` is left to look at: the next sweep does not read it.
    CHECK(database
              .rows("SELECT last_activity_ms FROM customers WHERE id = '" +
                    std::string(gone.customer.id.view()) + "'")
              .at(0)
              .at(0)
              .empty());

    // A new activity of `gone` starts its three years again.
    refuse(*store, cred, gone, later);
    store->sweep(later + record_retention - std::chrono::hours(1));
    CHECK(everything(gone) == std::vector<std::size_t>{1, 0, 0, 0});
    CHECK(everything(kept) == kept_before);
    // `gone`'s decision; `kept`'s two decisions (one its call's).
    CHECK(store->sweep(later + record_retention + std::chrono::hours(1)) == 1 + 2);
    CHECK(everything(gone) == std::vector<std::size_t>{0, 0, 0, 0});
    CHECK(everything(kept) == std::vector<std::size_t>{0, 0, 0, 0});
}

TEST_CASE("store: the retention sweep deletes at most a batch of rows per transaction",
          "[store][compliance][retention]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Credentials cred = account(*store, "a");
    const Time t = frozen_time();
    if (database.postgres()) {
        // Each deleted row of the swept tables notes its transaction.
        (void)database.rows("CREATE TABLE swept_rows (tx BIGINT NOT NULL)");
        (void)database.rows(
            "CREATE FUNCTION note_swept_row() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN INSERT INTO swept_rows VALUES (txid_current()); RETURN OLD; END $$");
        for (const char* table : {"compliance_decisions", "calls", "call_events", "interactions",
                                  "analyses", "webhook_outbox"}) {
            (void)database.rows("CREATE TRIGGER note_swept_row AFTER DELETE ON " +
                                std::string(table) +
                                " FOR EACH ROW EXECUTE FUNCTION note_swept_row()");
        }
    }
    // More decisions and calls than one batch, over two customers; and a third customer whose
    // last activity is recent.
    const StoredCustomer first = customer("c-1");
    const StoredCustomer second = customer("c-2");
    const StoredCustomer recent = customer("c-3");
    for (const StoredCustomer* c : {&first, &second, &recent})
        REQUIRE(store->insert_customer(cred.accountId, *c));
    const std::int64_t decisions = retention_batch_rows + retention_batch_rows / 2;
    for (std::int64_t i = 0; i < decisions; ++i)
        refuse(*store, cred, i % 3 == 0 ? second : first, t);
    const std::int64_t calls = retention_batch_rows / call_rows + 10;
    for (std::int64_t i = 0; i < calls; ++i)
        place(*store, cred, first, t + std::chrono::seconds(1));
    refuse(*store, cred, recent, t);
    place(*store, cred, recent, t + std::chrono::days(30));

    const std::int64_t swept =
        store->sweep(t + collectcall::compliance::record_retention + std::chrono::days(1));
    // Two rows per call: the call and its call-created event; and the event of `recent`'s call,
    // over a week old (its call stays).
    CHECK(swept == decisions + 2 * calls + 1);
    CHECK(rows_of(database, "compliance_decisions", first) == 0);
    CHECK(rows_of(database, "compliance_decisions", second) == 0);
    CHECK(rows_of(database, "calls", first) == 0);
    CHECK(rows_of(database, "compliance_decisions", recent) == 1);
    CHECK(rows_of(database, "calls", recent) == 1);
    if (database.postgres()) {
        const auto batches = database.rows(
            "SELECT COUNT(*), MAX(n), SUM(n) FROM (SELECT tx, COUNT(*) AS n FROM swept_rows "
            "GROUP BY tx) AS t");
        INFO("transactions, largest, rows: " << batches[0][0] << ", " << batches[0][1] << ", "
                                             << batches[0][2]);
        CHECK(std::stoll(batches[0][2]) == swept);
        CHECK(std::stoll(batches[0][1]) <= retention_batch_rows);
        CHECK(std::stoll(batches[0][0]) > swept / retention_batch_rows);
    }
}

TEST_CASE("store: a version 8 database migrates: its accounts get the default daily row budget",
          "[store][quota]") {
    Database database;
    Uuid a;
    {
        const std::unique_ptr<Store> store = open_store(database.uri());
        a = account(*store, "a").accountId;
        REQUIRE(store->insert_customer(a, customer("c-1")));
    }
    undo_version_9(database);
    if (database.postgres()) {
        (void)database.rows("DELETE FROM schema_version WHERE version > 8");
    } else {
        (void)database.rows("PRAGMA user_version = 8");
    }
    const std::string id(a.view());
    {
        const std::unique_ptr<Store> store = open_store(database.uri());
        CHECK(database.rows("SELECT daily_rows FROM accounts WHERE id = '" + id + "'")[0][0] ==
              std::to_string(collectcall::api::default_daily_rows));
        REQUIRE(store->insert_customer(a, customer("c-2")));
    }
    // Counted from zero (PostgreSQL's lease on the rest given back as the store closed).
    CHECK(database.rows("SELECT stored FROM daily_row_counts WHERE account_id = '" + id +
                        "'")[0][0] == "1");
}

TEST_CASE(
    "store: a write past the daily row budget throws and stores nothing; a change of "
    "standing is counted and never refused",
    "[store][quota]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Uuid a = account(*store, "a", 3).accountId;
    const std::string id(a.view());
    const auto count = [&](const std::string& table) {
        return database.rows("SELECT count(*) FROM " + table + " WHERE account_id = '" + id +
                             "'")[0][0];
    };
    const auto counted = [&] {
        return database.rows("SELECT stored FROM daily_row_counts WHERE account_id = '" + id +
                             "'")[0][0];
    };
    const std::vector<StoredCustomer> four{customer("c-1"), customer("c-2"), customer("c-3"),
                                           customer("c-4")};
    CHECK_THROWS_AS(store->insert_customers(a, four), collectcall::server::QuotaExceeded);
    CHECK(count("customers") == "0");
    CHECK(counted() == "0");
    // Three fit; a duplicate stores no row and costs none.
    const std::vector<StoredCustomer> three{four[0], four[1], four[2]};
    CHECK(store->insert_customers(a, three) == std::vector<bool>{true, true, true});
    CHECK(counted() == "3");
    CHECK_FALSE(store->insert_customer(a, four[0]));
    try {
        (void)store->insert_customer(a, four[3]);
        FAIL("a fourth row was stored");
    } catch (const collectcall::server::QuotaExceeded& e) {
        CHECK(e.budget() == 3);
        CHECK(e.retry_after() >= 1);
        CHECK(e.retry_after() <= 86'400);
    }
    CHECK(count("customers") == "3");
    CHECK_THROWS_AS(
        store->insert_client(a, ClientRow{new_uuid(), Text::parse("x").value()}, frozen_time()),
        collectcall::server::QuotaExceeded);
    CHECK(count("clients") == "0");
    // A cease-and-desist is recorded whatever the budget, and its record counted.
    const auto changed = store->change_standing(a, four[0].customer.id, [](StoredCustomer& c) {
        collectcall::Standing after = customer_standing(c);
        after.ceaseAndDesist = true;
        return change_customer_standing(c, after, frozen_time(),
                                        collectcall::CompliancePolicy::hosted,
                                        collectcall::StandingCause::cease_and_desist);
    });
    REQUIRE(changed);
    CHECK(changed->cease_and_desist);
    CHECK(count("compliance_decisions") == "1");
    CHECK(counted() == "4");
}

TEST_CASE(
    "store: concurrent creates once the daily budget is spent: a duplicate is not stored and "
    "not refused, a new customer is refused",
    "[store][quota]") {
    Database database;
    const std::unique_ptr<Store> store = open_store(database.uri());
    const Uuid a = account(*store, "a", 20).accountId;
    std::vector<StoredCustomer> first;
    for (int i = 0; i < 20; ++i)
        first.push_back(customer("c-" + std::to_string(i)));
    REQUIRE(store->insert_customers(a, first) == std::vector<bool>(20, true));

    // 8 threads, 6 creates each: every fourth a new externalId, the others the 20 stored ones,
    // many of them sharing a batch (on PostgreSQL, concurrent creates share one transaction).
    enum class Outcome { stored, duplicate, over_budget, failed };
    constexpr int threads = 8;
    constexpr int each = 6;
    const auto is_new = [](int t, int i) { return (t * each + i) % 4 == 3; };
    std::vector<std::vector<Outcome>> outcomes(threads, std::vector<Outcome>(each));
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t) {
        running.emplace_back([&, t] {
            for (int i = 0; i < each; ++i) {
                const int n = t * each + i;
                const StoredCustomer c = customer(is_new(t, i) ? "new-" + std::to_string(n)
                                                               : "c-" + std::to_string(n % 20));
                try {
                    outcomes[t][i] =
                        store->insert_customer(a, c) ? Outcome::stored : Outcome::duplicate;
                } catch (const collectcall::server::QuotaExceeded&) {
                    outcomes[t][i] = Outcome::over_budget;
                } catch (...) {
                    outcomes[t][i] = Outcome::failed;
                }
            }
        });
    }
    for (std::thread& thread : running)
        thread.join();
    for (int t = 0; t < threads; ++t) {
        for (int i = 0; i < each; ++i) {
            CAPTURE(t, i);
            CHECK(outcomes[t][i] == (is_new(t, i) ? Outcome::over_budget : Outcome::duplicate));
        }
    }
    CHECK(database.rows("SELECT count(*) FROM customers WHERE account_id = '" +
                        std::string(a.view()) + "'")[0][0] == "20");
}

TEST_CASE("postgres: a transaction's BEGIN goes with its first statement, and fails with it",
          "[store][postgres]") {
    Database database;
    if (!database.postgres()) {
        SUCCEED("the connection layer of PostgreSQL alone: run on the suite's PostgreSQL run");
        return;
    }
    namespace pg = collectcall::server::pg;
    (void)database.rows("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
    pg::Pool pool(database.uri(), 1);
    const auto insert = [](pg::Connection& c, std::int64_t id) {
        c.params().add(id).add("note");
        return c.query("INSERT INTO notes (id, text) VALUES ($1::integer, $2) RETURNING id");
    };
    // Prepared first (on its own), then BEGIN and the insert in one pipeline: both committed.
    for (std::int64_t id : {1, 2}) {
        const std::int64_t stored = pool.transaction([&](pg::Connection& c) {
            REQUIRE(c.in_transaction());
            const pg::Result r = insert(c, id);
            // In the transaction BEGIN opened: the insert's transaction id is still current.
            c.params();
            CHECK(c.query("SELECT txid_current_if_assigned() IS NOT NULL").text(0, 0) == "t");
            return r.integer(0, 0);
        });
        CHECK(stored == id);
    }
    // A first statement that fails rolls back the transaction it opened; the pool's connection
    // serves the next one.
    CHECK_THROWS_AS(pool.transaction([&](pg::Connection& c) {
        (void)insert(c, 3);
        (void)insert(c, 1);  // a duplicate
        return true;
    }),
                    pg::UniqueViolation);
    CHECK_THROWS_AS(pool.transaction([&](pg::Connection& c) { return insert(c, 2); }),
                    pg::UniqueViolation);
    // A transaction that runs nothing commits nothing, and sends nothing.
    CHECK(pool.transaction([](pg::Connection& c) { return c.in_transaction(); }));
    CHECK(pool.transaction([&](pg::Connection& c) { return insert(c, 4).integer(0, 0); }) == 4);
    CHECK(database.rows("SELECT string_agg(id::text, ',' ORDER BY id) FROM notes")[0][0] ==
          "1,2,4");
}
