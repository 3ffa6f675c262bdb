// The daily budget of stored rows (API.md section 17, `init --daily-rows`) and the threads a
// request may name (a customer's own), over real HTTP on the suite's store.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "hooked_store.hpp"
#include "sql/row_leases.hpp"
#include "store_error.hpp"

using namespace test;
using collectcall::Uuid;
using collectcall::server::ServerOptions;

namespace {

// An account made by `init` with a budget of `rows`: what init printed (apiKey, agentId).
Reply init_account(const Database& db, const std::string& name, int rows) {
    const ProcessResult init = run_binary(
        {"init", "--db", db.uri(), "--account", name, "--daily-rows", std::to_string(rows)});
    REQUIRE(init.exit_code == 0);
    return parse(init.out);
}

std::vector<std::string> at(std::string_view now) {
    return {"--now", std::string(now), "--quiet"};
}

std::string sms_json(std::string_view extra = {}) {
    std::string s =
        R"({"direction":"inbound","timestamp":"2026-11-20T14:58:00Z","from":"+13125550123",)"
        R"("to":"+12025550100","body":"Hello")";
    s += extra;
    s += '}';
    return s;
}

std::string email_json(std::string_view extra = {}) {
    std::string s =
        R"({"direction":"inbound","timestamp":"2026-11-20T14:59:00Z","from":"ann@example.com",)"
        R"("to":["accounts@example.com"],"subject":"My account","plainTextBody":"Hello")";
    s += extra;
    s += '}';
    return s;
}

std::string bulk_of(const std::vector<std::string>& items, std::string_view member) {
    std::string s = "{\"";
    s += member;
    s += "\":[";
    for (std::size_t i = 0; i < items.size(); ++i)
        s += (i == 0 ? "" : ",") + items[i];
    return s + "]}";
}

std::string count(const Database& db, const std::string& sql) {
    return db.rows(sql).at(0).at(0);
}

}  // namespace

TEST_CASE(
    "quota: past its daily rows an account's writes are 429 quota_exceeded until the next "
    "UTC day; reads and other accounts go on",
    "[quota]") {
    Database db;
    const Reply acme = init_account(db, "acme", 5);
    const std::string key = acme.str("/apiKey");
    const std::string other_key = init_account(db, "other", 5).str("/apiKey");
    std::string first;
    {
        // 15:00 UTC: nine hours to the next UTC day.
        ChildServer server(db.uri(), at("2026-11-20T15:00:00Z"));
        Client client("127.0.0.1", server.port(), key);
        for (int i = 1; i <= 5; ++i) {
            const Reply created =
                client.post("/api/v1/customers", customer_json("c-" + std::to_string(i)));
            REQUIRE(created.status == 200);
            if (i == 1) first = created.str("/data/id");
        }
        const Reply refused = client.post("/api/v1/customers", customer_json("c-6"));
        CHECK(refused.status == 429);
        CHECK(refused.error_code() == "quota_exceeded");
        CHECK(refused.header("Retry-After") == "32400");
        CHECK(client.get("/api/v1/customers?externalId=c-6").size("/data/customers") == 0);

        // Every write that would store a row: an import, a call (its decision), a client.
        const std::string base = "/api/v1/customers/" + first;
        CHECK(client.post(base + "/interactions/sms/import", sms_json()).error_code() ==
              "quota_exceeded");
        CHECK(client.post(base + "/interactions/email/import", email_json()).error_code() ==
              "quota_exceeded");
        CHECK(client.post(base + "/calls", R"({"agentId":")" + acme.str("/agentId") + "\"}")
                  .error_code() == "quota_exceeded");
        CHECK(client.post("/api/v1/clients", R"({"name":"Acme"})").error_code() ==
              "quota_exceeded");
        // Nothing of them was stored: no interaction, no call, no decision, no client.
        for (const char* table : {"interactions", "calls", "compliance_decisions", "clients"})
            CHECK(count(db, std::string("SELECT count(*) FROM ") + table) == "0");

        // Reads go on, and so does a change that stores no row.
        CHECK(client.get(base).status == 200);
        CHECK(client.get("/api/v1/customers?externalId=c-5").size("/data/customers") == 1);
        CHECK(client.patch(base, R"({"firstName":"Ann"})").status == 200);

        // Another account's budget is its own.
        Client other("127.0.0.1", server.port(), other_key);
        CHECK(other.post("/api/v1/customers", customer_json("c-1")).status == 200);
    }
    // The next UTC day, the account writes again.
    ChildServer server(db.uri(), at("2026-11-21T00:00:01Z"));
    Client client("127.0.0.1", server.port(), key);
    CHECK(client.post("/api/v1/customers", customer_json("c-6")).status == 200);
    CHECK(
        client.post("/api/v1/customers/" + first + "/interactions/sms/import", sms_json()).status ==
        200);
}

TEST_CASE("quota: a bulk that would cross the daily rows is refused whole", "[quota]") {
    Database db;
    const Reply acme = init_account(db, "acme", 5);
    const std::string key = acme.str("/apiKey");
    ChildServer server(db.uri(), at("2026-11-20T15:00:00Z"));
    Client client("127.0.0.1", server.port(), key);
    const auto customers = [&](std::vector<std::string> ids) {
        std::vector<std::string> items;
        for (const std::string& id : ids)
            items.push_back(customer_json(id));
        return bulk_of(items, "customers");
    };
    const Reply c1 = client.post("/api/v1/customers", customer_json("c-1"));
    REQUIRE(c1.status == 200);
    const std::string base = "/api/v1/customers/" + c1.str("/data/id");

    // 1 + 5 SMS: one too many, none stored.
    const Reply sms = client.post(base + "/interactions/sms/import/bulk",
                                  bulk_of(std::vector<std::string>(5, sms_json()), "interactions"));
    CHECK(sms.status == 429);
    CHECK(sms.error_code() == "quota_exceeded");
    CHECK(count(db, "SELECT count(*) FROM interactions") == "0");

    // 1 + 5 customers: refused whole; 1 + 2 fit.
    const Reply many =
        client.post("/api/v1/customers/bulk", customers({"b-1", "b-2", "b-3", "b-4", "b-5"}));
    CHECK(many.status == 429);
    CHECK(many.error_code() == "quota_exceeded");
    CHECK(count(db, "SELECT count(*) FROM customers") == "1");
    const Reply two = client.post("/api/v1/customers/bulk", customers({"b-1", "b-2"}));
    REQUIRE(two.status == 200);
    CHECK(two.integer("/data/summary/succeeded") == 2);

    // 3 + 3 calls: refused before the first, no call and no decision stored.
    const std::string agent = acme.str("/agentId");
    std::string ids = "\"" + c1.str("/data/id") + "\"";
    for (int i = 0; i < 2; ++i)
        ids += ",\"" + two.str("/data/results/" + std::to_string(i) + "/customer/id") + "\"";
    const Reply calls = client.post(
        "/api/v1/calls/bulk", R"({"agentId":")" + agent + R"(","customerIds":[)" + ids + "]}");
    CHECK(calls.status == 429);
    CHECK(calls.error_code() == "quota_exceeded");
    CHECK(count(db, "SELECT count(*) FROM calls") == "0");
    CHECK(count(db, "SELECT count(*) FROM compliance_decisions") == "0");

    // Exactly to the budget: 3 + 2 SMS.
    const Reply fits =
        client.post(base + "/interactions/sms/import/bulk",
                    bulk_of(std::vector<std::string>(2, sms_json()), "interactions"));
    REQUIRE(fits.status == 200);
    CHECK(fits.integer("/data/summary/succeeded") == 2);
    CHECK(client.post(base + "/interactions/sms/import", sms_json()).status == 429);
}

namespace {

// Two customers of one account on the suite's store, at 09:00 in Chicago.
struct Threads {
    LocalServer server{[](ServerOptions& o) {
        o.now = frozen_time();
        o.call_step_ms = 600'000;
    }};
    Account account = server.create_account("acme");
    Client client = server.client(account);
    std::string ann = client.post("/api/v1/customers", customer_json("ann")).str("/data/id");
    std::string bob = client.post("/api/v1/customers", customer_json("bob")).str("/data/id");

    std::string base(const std::string& customer) const { return "/api/v1/customers/" + customer; }
    // A customer's own thread: the one an import without threadId joins.
    std::string thread_of(const std::string& customer) {
        const Reply r = client.post(base(customer) + "/interactions/sms/import", sms_json());
        REQUIRE(r.status == 200);
        return r.str("/data/threadId");
    }
    std::string interactions_of(const std::string& customer) const {
        return count(server.database(),
                     "SELECT count(*) FROM interactions WHERE customer_id = '" + customer + "'");
    }
};

void check_not_found_at_thread(const Reply& r) {
    CHECK(r.status == 400);
    CHECK(r.error_code() == "validation_failed");
    CHECK(r.str("/error/details/0/path") == "/threadId");
    CHECK(r.str("/error/details/0/code") == "not_found");
}

}  // namespace

TEST_CASE(
    "threads: another customer's threadId is 400 not_found at /threadId and stores "
    "nothing; the customer's own is accepted",
    "[threads]") {
    Threads t;
    const std::string bobs = t.thread_of(t.bob);
    const std::string anns = t.thread_of(t.ann);
    const std::string given = R"(,"threadId":")" + bobs + "\"";
    const std::string ann = t.base(t.ann);

    check_not_found_at_thread(t.client.post(ann + "/interactions/sms/import", sms_json(given)));
    check_not_found_at_thread(t.client.post(ann + "/interactions/email/import", email_json(given)));
    check_not_found_at_thread(
        t.client.post(ann + "/interactions/sms/generate",
                      R"({"from":"+12025550100","persist":false)" + given + "}"));
    check_not_found_at_thread(
        t.client.post(ann + "/interactions/email/generate", R"({"persist":true)" + given + "}"));
    // A thread no one has is no more Ann's.
    check_not_found_at_thread(
        t.client.post(ann + "/interactions/sms/import",
                      sms_json(R"(,"threadId":"0f8fad5b-d9cb-469f-a165-70867728950e")")));
    CHECK(t.interactions_of(t.ann) == "1");  // the one thread_of imported
    CHECK(t.interactions_of(t.bob) == "1");

    // A bulk's item naming Bob's thread fails alone, its detail relative to the item.
    const Reply bulk = t.client.post(
        ann + "/interactions/sms/import/bulk",
        bulk_of({sms_json(), sms_json(given), sms_json(R"(,"threadId":")" + anns + "\"")},
                "interactions"));
    REQUIRE(bulk.status == 200);
    CHECK(bulk.integer("/data/summary/succeeded") == 2);
    CHECK(bulk.integer("/data/summary/failed") == 1);
    CHECK_FALSE(bulk.boolean("/data/results/1/success"));
    CHECK(bulk.integer("/data/results/1/index") == 1);
    CHECK(bulk.str("/data/results/1/details/0/path") == "/threadId");
    CHECK(bulk.str("/data/results/1/details/0/code") == "not_found");
    CHECK(t.interactions_of(t.ann) == "3");

    // Ann's own thread, given: accepted, on every route.
    const std::string own = R"(,"threadId":")" + anns + "\"";
    const Reply imported = t.client.post(ann + "/interactions/sms/import", sms_json(own));
    REQUIRE(imported.status == 200);
    CHECK(imported.str("/data/threadId") == anns);
    CHECK(t.client.post(ann + "/interactions/email/import", email_json(own)).status == 200);
    CHECK(t.client
              .post(ann + "/interactions/sms/generate",
                    R"({"from":"+12025550100","persist":false)" + own + "}")
              .status == 200);
    const Reply email =
        t.client.post(ann + "/interactions/email/generate", R"({"persist":true)" + own + "}");
    REQUIRE(email.status == 200);
    CHECK(email.str("/data/threadId") == anns);
    CHECK(t.interactions_of(t.bob) == "1");
}

TEST_CASE("threads: a thread the customer's stored messages already use stays the customer's",
          "[threads]") {
    Threads t;
    // A message stored on a thread of its own before the rule (written to the store directly).
    const Uuid ann = Uuid::parse(t.ann).value();
    const auto stored = t.server.store().find_customer(Uuid::parse(t.account.id).value(), ann);
    REQUIRE(stored);
    collectcall::SmsInteractionData old;
    old.id = new_uuid();
    old.threadId = new_uuid();
    old.customerId = ann;
    old.timestamp = collectcall::Timestamp::from_time(frozen_time() - std::chrono::hours(1));
    old.createdAt = old.timestamp;
    old.from = collectcall::E164::parse("+13125550123").value();
    old.to = collectcall::E164::parse("+12025550100").value();
    old.body = collectcall::SmsBody::parse("earlier").value();
    old.segments = collectcall::SegmentCount::of(1);
    t.server.store().insert_interactions(Uuid::parse(t.account.id).value(), ann,
                                         std::vector<InteractionRecord>{old});
    const std::string thread(old.threadId.view());
    const Reply r = t.client.post(t.base(t.ann) + "/interactions/sms/import",
                                  sms_json(R"(,"threadId":")" + thread + "\""));
    REQUIRE(r.status == 200);
    CHECK(r.str("/data/threadId") == thread);
    // Not Bob's.
    check_not_found_at_thread(t.client.post(t.base(t.bob) + "/interactions/sms/import",
                                            sms_json(R"(,"threadId":")" + thread + "\"")));
}

TEST_CASE("quota: concurrent writes cannot take an account past its daily rows", "[quota][race]") {
    LocalServer server([](ServerOptions& o) { o.now = frozen_time(); });
    AccountSetup setup;
    setup.name = "acme";
    setup.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    setup.daily_rows = 10;
    const Credentials c = server.store().create_credentials(setup, frozen_time());
    const Account acme{std::string(c.accountId.view()), c.apiKey, c.agentId};
    // 8 threads of 4 creates each: 32 writes for 10 rows.
    std::vector<std::thread> threads;
    std::atomic<int> created{0};
    std::atomic<int> refused{0};
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            Client client = server.client(acme);
            for (int i = 0; i < 4; ++i) {
                const Reply r =
                    client.post("/api/v1/customers",
                                customer_json("r-" + std::to_string(t) + "-" + std::to_string(i)));
                if (r.status == 200) ++created;
                if (r.status == 429 && r.error_code() == "quota_exceeded") ++refused;
            }
        });
    }
    for (std::thread& t : threads)
        t.join();
    CHECK(created == 10);
    CHECK(refused == 22);
    CHECK(count(server.database(), "SELECT count(*) FROM customers") == "10");
    CHECK(count(server.database(), "SELECT stored FROM daily_row_counts WHERE account_id = '" +
                                       acme.id + "'") == "10");
}

TEST_CASE("quota: a keyed write refused for the budget is not recorded; the next day it runs",
          "[quota][idempotency]") {
    Database db;
    const std::string key = init_account(db, "acme", 1).str("/apiKey");
    const httplib::Headers keyed{{"Idempotency-Key", "create-c-2"}};
    {
        ChildServer server(db.uri(), at("2026-11-20T23:59:59.500Z"));
        Client client("127.0.0.1", server.port(), key);
        REQUIRE(client.post("/api/v1/customers", customer_json("c-1")).status == 200);
        const Reply refused =
            client.post("/api/v1/customers", customer_json("c-2"), "application/json", keyed);
        CHECK(refused.error_code() == "quota_exceeded");
        CHECK(refused.header("Retry-After") == "1");  // half a second, in whole seconds
        CHECK(client.post("/api/v1/customers", customer_json("c-2"), "application/json", keyed)
                  .error_code() == "quota_exceeded");
    }
    ChildServer server(db.uri(), at("2026-11-21T00:00:00Z"));
    Client client("127.0.0.1", server.port(), key);
    const Reply created =
        client.post("/api/v1/customers", customer_json("c-2"), "application/json", keyed);
    CHECK(created.status == 200);
    CHECK(created.header("Idempotent-Replayed").empty());
}

TEST_CASE("quota: init takes a daily budget from 1 row", "[quota][process]") {
    Database db;
    for (const char* bad : {"0", "-1", "x", "1.5", ""})
        CHECK(run_binary({"init", "--db", db.uri(), "--account", "acme", "--daily-rows", bad})
                  .exit_code == 2);
    const Reply acme = init_account(db, "acme", 7);
    CHECK(count(db, "SELECT daily_rows FROM accounts WHERE name = 'acme'") == "7");
    // init again without the option keeps it; with it, sets it.
    REQUIRE(run_binary({"init", "--db", db.uri(), "--account", "acme"}).exit_code == 0);
    CHECK(count(db, "SELECT daily_rows FROM accounts WHERE name = 'acme'") == "7");
    (void)init_account(db, "acme", 9);
    CHECK(count(db, "SELECT daily_rows FROM accounts WHERE name = 'acme'") == "9");
    REQUIRE(run_binary({"init", "--db", db.uri(), "--account", "other"}).exit_code == 0);
    CHECK(count(db, "SELECT daily_rows FROM accounts WHERE name = 'other'") ==
          std::to_string(collectcall::api::default_daily_rows));
    CHECK(acme.has("/apiKey"));
}

namespace {

// A counter of one account's rows of one day, as sql::take_rows keeps it, with its takes counted.
struct FakeCounter {
    std::int64_t budget = 0;
    std::int64_t stored = 0;
    int takes = 0;
    std::mutex mutex;

    collectcall::server::sql::RowLeases::Taker taker(std::int64_t day) {
        return [this, day](std::int64_t need, std::int64_t spare, bool refusable) {
            std::lock_guard lock(mutex);
            ++takes;
            const std::int64_t left = budget - stored;
            if (need > left && refusable) throw collectcall::server::QuotaExceeded(budget, 1);
            const std::int64_t rows = need + std::clamp<std::int64_t>((left - need) / 8, 0, spare);
            stored += rows;
            return collectcall::server::sql::RowGrant{day, rows};
        };
    }
};

}  // namespace

TEST_CASE("row leases: writes count from a lease; the counter is taken once per lease",
          "[quota][leases]") {
    using collectcall::server::QuotaExceeded;
    using collectcall::server::sql::RowLeases;
    RowLeases leases;
    FakeCounter counter;
    counter.budget = 1'000'000;
    for (int i = 0; i < 1000; ++i)
        leases.charge("acme", 1, 7, true, counter.taker(7));
    // One lease: the first write's row and 1,024 more.
    CHECK(counter.takes == 1);
    CHECK(counter.stored == 1 + RowLeases::spare);
    // A write rolled back gives its rows back: the next one takes no lease for them.
    const RowLeases::Charge charge = leases.charge("acme", 25, 7, true, counter.taker(7));
    CHECK(charge.rows.rows == 25);
    leases.refund(charge);
    const std::vector<RowLeases::Charge> rest = leases.release();
    REQUIRE(rest.size() == 1);
    CHECK(rest[0].rows.rows == 1 + RowLeases::spare - 1000);
    CHECK(rest[0].rows.day == 7);
    // Another day's writes take a lease of their own.
    leases.charge("acme", 1, 8, true, counter.taker(8));
    CHECK(counter.takes == 2);
    // A refused write keeps what was held.
    FakeCounter small;
    small.budget = 10;
    RowLeases few;
    few.charge("acme", 1, 7, true, small.taker(7));  // 1 and 1 more (an eighth of 9)
    CHECK(small.stored == 2);
    CHECK_THROWS_AS(few.charge("acme", 20, 7, true, small.taker(7)), QuotaExceeded);
    few.charge("acme", 1, 7, true, small.taker(7));  // the row held
    CHECK(small.takes == 2);
    // Work the account started before is counted past the budget.
    few.charge("acme", 20, 7, false, small.taker(7));
    CHECK(small.stored == 22);
}

TEST_CASE("row leases: concurrent writes spend the budget exactly", "[quota][leases][race]") {
    using collectcall::server::QuotaExceeded;
    using collectcall::server::sql::RowLeases;
    RowLeases leases;
    FakeCounter counter;
    counter.budget = 5'000;
    std::atomic<std::int64_t> charged{0};
    std::atomic<int> refused{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 400; ++i) {
                const std::int64_t rows = 1 + (t + i) % 3;
                try {
                    charged += leases.charge("acme", rows, 7, true, counter.taker(7)).rows.rows;
                } catch (const QuotaExceeded&) {
                    ++refused;
                }
            }
        });
    }
    for (std::thread& t : threads)
        t.join();
    // 8 x 400 writes of 1-3 rows (6,399 rows) for 5,000: every row of the budget is spent, and
    // only the writes that did not fit were refused.
    CHECK(counter.stored == 5'000);
    CHECK(charged == 5'000);
    CHECK(refused > 0);
    CHECK(leases.release().empty());
    // Each refused write asks the counter (another process may have given rows back); the
    // others take leases of an eighth of what is left, fewer as the budget runs out.
    CHECK(counter.takes - refused < 150);
}

TEST_CASE("quota: the rows a process counted ahead go back to the counter when it stops",
          "[quota][leases][process]") {
    Database db;
    const Reply acme = init_account(db, "acme", 1'000'000);
    const std::string sql =
        "SELECT stored FROM daily_row_counts WHERE account_id = '" + acme.str("/accountId") + "'";
    {
        ChildServer server(db.uri(), at("2026-11-20T15:00:00Z"));
        Client client("127.0.0.1", server.port(), acme.str("/apiKey"));
        for (int i = 0; i < 50; ++i)
            REQUIRE(
                client.post("/api/v1/customers", customer_json("c-" + std::to_string(i))).status ==
                200);
        // SQLite counts each write; PostgreSQL a lease ahead.
        const std::int64_t counted = std::stoll(count(db, sql));
        CHECK(counted >= 50);
        CHECK(counted <= 50 + collectcall::server::sql::RowLeases::spare);
        server.signal(SIGTERM);
        REQUIRE(server.wait() == 0);
    }
    CHECK(count(db, sql) == "50");
}
