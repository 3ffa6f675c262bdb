// Faults: the process killed in the middle of a bulk import, storage that cannot be written.
#include <signal.h>
#include <sys/resource.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "eventually.hpp"
#include "harness.hpp"
#include "sqlite/sqlite.hpp"

using namespace test;

TEST_CASE("faults: SIGKILL during a 1000-item bulk leaves all of it or none of it",
          "[faults][process]") {
    Database database;
    const std::string db = database.uri();
    const Reply account = parse(run_binary({"init", "--db", db, "--account", "acme"}).out);
    const std::string key = account.str("/apiKey");
    REQUIRE_FALSE(key.empty());

    std::string body = R"({"customers":[)";
    for (int i = 0; i < 1000; ++i) {
        if (i > 0) body += ',';
        body += collections_customer_json("kill-" + std::to_string(i));
    }
    body += "]}";

    // Kill points spread over the request: before, during and (likely) after the transaction.
    for (const int delay_ms : {0, 15, 40, 120}) {
        INFO("kill after " << delay_ms << " ms");
        {
            ChildServer server(db, {"--quiet"});
            const int port = server.port();
            auto sent = std::async(std::launch::async, [&] {
                try {
                    Client client("127.0.0.1", port, key);
                    return client.post("/api/v1/customers/bulk", body);
                } catch (const std::exception&) {
                    return Reply{};  // killed before it answered
                }
            });
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            server.signal(SIGKILL);
            CHECK(server.wait() == 128 + SIGKILL);
            const Reply reply = sent.get();
            // The client may have had its answer before the kill; then all 1000 were created.
            if (reply.status == 200) CHECK(reply.integer("/data/summary/succeeded") >= 0);
        }
        ChildServer server(db, {"--quiet"});
        Client client("127.0.0.1", server.port(), key);
        int present = 0;
        for (int i = 0; i < 1000; ++i) {
            const Reply found =
                client.get("/api/v1/customers?externalId=kill-" + std::to_string(i));
            REQUIRE(found.status == 200);
            if (found.size("/data/customers") == 0) continue;
            ++present;
            // Complete: the collections member and its identity fields came with it.
            CHECK(found.str("/data/customers/0/externalId") == "kill-" + std::to_string(i));
            CHECK_FALSE(found.is_null("/data/customers/0/collections"));
            CHECK_FALSE(found.is_null("/data/customers/0/ssnLastFour"));
            if (present != i + 1) break;  // a gap: no need to look further
        }
        // One transaction: all or nothing.
        CHECK((present == 0 || present == 1000));
        if (present == 1000) break;  // later rounds would only see duplicates
    }
}

TEST_CASE("faults: SIGKILL during concurrent creates keeps every acknowledged one, nothing else",
          "[faults][process]") {
    // Concurrent writes share commits (group commit on SQLite, a connection each on
    // PostgreSQL): an answer must still mean that its own customer is durable.
    Database database;
    const std::string db = database.uri();
    const Reply account = parse(run_binary({"init", "--db", db, "--account", "acme"}).out);
    const std::string key = account.str("/apiKey");
    REQUIRE_FALSE(key.empty());

    std::mutex mutex;
    std::set<std::string> sent;
    std::set<std::string> acknowledged;
    {
        ChildServer server(db, {"--quiet", "--rate-limit", "0"});
        const int port = server.port();
        std::atomic<bool> stop{false};
        std::vector<std::thread> writers;
        for (int w = 0; w < 12; ++w) {
            writers.emplace_back([&, w] {
                Client client("127.0.0.1", port, key);
                for (int i = 0; !stop; ++i) {
                    const std::string id = "crash-" + std::to_string(w) + "-" + std::to_string(i);
                    {
                        std::lock_guard lock(mutex);
                        sent.insert(id);
                    }
                    try {
                        const Reply r = client.post("/api/v1/customers", customer_json(id));
                        if (r.status == 200 || r.status == 200) {
                            std::lock_guard lock(mutex);
                            acknowledged.insert(id);
                        }
                    } catch (const std::exception&) {
                        return;  // the server is gone
                    }
                }
            });
        }
        // Killed with the stream under way: after 700 ms and once 50 creates were acknowledged
        // (a loaded machine may take longer to get there).
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        (void)eventually(
            [&] {
                std::lock_guard lock(mutex);
                return acknowledged.size() > 50;
            },
            std::chrono::seconds(30));
        server.signal(SIGKILL);
        CHECK(server.wait() == 128 + SIGKILL);
        stop = true;
        for (std::thread& t : writers)
            t.join();
    }
    REQUIRE(acknowledged.size() > 50);  // the stream was under way

    ChildServer restarted(db, {"--quiet"});  // recovers the database as a restart would
    std::set<std::string> stored;
    for (const auto& row : database.rows("SELECT external_id, body FROM customers")) {
        stored.insert(row[0]);
        CHECK(row[1].find(row[0]) != std::string::npos);  // whole: the body is its own
    }
    std::size_t lost = 0;
    for (const std::string& id : acknowledged)
        lost += stored.count(id) == 0 ? 1 : 0;
    CHECK(lost == 0);
    std::size_t unknown = 0;
    for (const std::string& id : stored)
        unknown += sent.count(id) == 0 ? 1 : 0;
    CHECK(unknown == 0);
    INFO(acknowledged.size() << " acknowledged, " << stored.size() << " stored");
    CHECK(stored.size() <= acknowledged.size() + 12);  // at most the requests in flight
    Client client("127.0.0.1", restarted.port(), key);
    CHECK(client.get("/api/v1/customers?externalId=" + *acknowledged.begin())
              .size("/data/customers") == 1);
}

TEST_CASE("faults: a database that cannot be written is 503, reads go on, then it recovers",
          "[faults][sqlite]") {
    LocalServer server([](collectcall::server::ServerOptions& o) { o.busy_timeout_ms = 100; });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    REQUIRE(client.post("/api/v1/customers", customer_json("ro-0")).status == 200);

    // Another connection holds the write lock: to the server the file cannot be written, as
    // when it is read-only or the disk is full (SQLITE_BUSY, SQLITE_READONLY, SQLITE_FULL and
    // SQLITE_IOERR are all StoreError::unavailable, 503, to the API).
    collectcall::server::sqlite::Connection blocker(
        server.db_path(), false, 5000);  // waits out the server's own brief writes
    blocker.exec("BEGIN IMMEDIATE");
    blocker.exec("DELETE FROM customers WHERE 0");
    const Reply refused = client.post("/api/v1/customers", customer_json("ro-1"));
    CHECK(refused.status == 503);
    CHECK(refused.error_code() == "unavailable");
    CHECK(refused.header("Retry-After") == "1");
    const Reply bulk =
        client.post("/api/v1/customers/bulk", R"({"customers":[)" + customer_json("ro-2") + "]}");
    CHECK(bulk.status == 503);
    // Reads go on while writes cannot (WAL).
    CHECK(client.get("/api/v1/customers?externalId=ro-0").size("/data/customers") == 1);
    CHECK(server.anonymous().get("/healthz").status == 200);
    blocker.exec("ROLLBACK");

    // The fault is gone: the same requests succeed, and nothing of the refused ones was kept.
    CHECK(client.get("/api/v1/customers?externalId=ro-2").size("/data/customers") == 0);
    CHECK(client.post("/api/v1/customers", customer_json("ro-1")).status == 200);
    CHECK(client.post("/api/v1/customers/bulk", R"({"customers":[)" + customer_json("ro-2") + "]}")
              .integer("/data/summary/succeeded") == 1);
}

TEST_CASE("faults: a file system that refuses every write is 503, reads go on, then it recovers",
          "[faults][process][sqlite]") {
    Database database;
    const std::string db = database.uri();
    const Reply account = parse(run_binary({"init", "--db", db, "--account", "acme"}).out);
    const std::string key = account.str("/apiKey");
    REQUIRE_FALSE(key.empty());
    ChildServer server(db, {"--quiet"});
    Client client("127.0.0.1", server.port(), key);
    REQUIRE(client.post("/api/v1/customers", customer_json("full-0")).status == 200);

    // The kernel refuses to write any file of the server past its first byte (RLIMIT_FSIZE):
    // every write SQLite makes fails with EFBIG, as on a full disk, and the server, which
    // ignores SIGXFSZ, gets the error instead of being killed.
    rlimit normal{};
    REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, nullptr, &normal) == 0);
    const rlimit full{1, normal.rlim_max};
    REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, &full, nullptr) == 0);

    const Reply refused = client.post("/api/v1/customers", customer_json("full-1"));
    CHECK(refused.status == 503);
    CHECK(refused.error_code() == "unavailable");
    CHECK(refused.header("Retry-After") == "1");
    CHECK(refused.body.find("full.db") == std::string::npos);  // no internals
    const Reply bulk =
        client.post("/api/v1/customers/bulk", R"({"customers":[)" + customer_json("full-2") + "]}");
    CHECK(bulk.status == 503);
    CHECK(bulk.error_code() == "unavailable");
    CHECK(bulk.header("Retry-After") == "1");
    // Reads go on, and so does the probe.
    const Reply read = client.get("/api/v1/customers?externalId=full-0");
    CHECK(read.status == 200);
    CHECK(read.size("/data/customers") == 1);
    CHECK(Client("127.0.0.1", server.port()).get("/healthz").status == 200);
    // Still refused on the next attempt: nothing was half-written in between.
    CHECK(client.post("/api/v1/customers", customer_json("full-1")).status == 503);

    // A disk that fills up in the middle of a transaction: the write-ahead log may grow by
    // 32 KiB, far less than a bulk of 500 customers needs, so some of its pages are written and
    // then a write fails.
    const auto wal_size = std::filesystem::file_size(db + "-wal");
    const rlimit almost_full{wal_size + 32 * 1024, normal.rlim_max};
    REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, &almost_full, nullptr) == 0);
    std::string big = R"({"customers":[)";
    for (int i = 0; i < 500; ++i) {
        if (i > 0) big += ',';
        big += collections_customer_json("full-big-" + std::to_string(i));
    }
    big += "]}";
    const Reply big_bulk = client.post("/api/v1/customers/bulk", big);
    CHECK(big_bulk.status == 503);
    CHECK(big_bulk.error_code() == "unavailable");
    CHECK(client.get("/api/v1/customers?externalId=full-0").size("/data/customers") == 1);

    // The disk has room again: the same process serves writes, and nothing of the refused
    // requests was stored.
    REQUIRE(::prlimit(server.pid(), RLIMIT_FSIZE, &normal, nullptr) == 0);
    CHECK(client.get("/api/v1/customers?externalId=full-1").size("/data/customers") == 0);
    CHECK(client.get("/api/v1/customers?externalId=full-2").size("/data/customers") == 0);
    CHECK(client.post("/api/v1/customers", customer_json("full-1")).status == 200);
    CHECK(
        client.post("/api/v1/customers/bulk", R"({"customers":[)" + customer_json("full-2") + "]}")
            .integer("/data/summary/succeeded") == 1);
    CHECK(client.get("/api/v1/customers?externalId=full-0").size("/data/customers") == 1);
    CHECK(client.get("/api/v1/customers?externalId=full-2").size("/data/customers") == 1);
    for (const int i : {0, 250, 499}) {
        CHECK(client.get("/api/v1/customers?externalId=full-big-" + std::to_string(i))
                  .size("/data/customers") == 0);
    }
    CHECK(client.post("/api/v1/customers/bulk", big).integer("/data/summary/succeeded") == 500);

    // It never restarted: it stops as it would have, on SIGTERM.
    server.signal(SIGTERM);
    CHECK(server.wait() == 0);
}

TEST_CASE("faults: SIGKILL between an Idempotency-Key's commit and its answer; the retry replays",
          "[faults][process][idempotency]") {
    Database database;
    const std::string db = database.uri();
    const Reply account = parse(run_binary({"init", "--db", db, "--account", "acme"}).out);
    const std::string api_key = account.str("/apiKey");
    const std::string agent = account.str("/agentId");
    REQUIRE_FALSE(api_key.empty());
    // A frozen clock inside respectful hours: the four calls of a day are counted on one day.
    const std::vector<std::string> args{"--quiet", "--now", "2026-11-20T15:00:00Z",
                                        "--call-step-ms", "600000"};
    const auto idempotency_key = [](const std::string& k) {
        return httplib::Headers{{"Idempotency-Key", k}};
    };
    const std::string call = R"({"agentId":")" + agent + R"("})";

    std::string path;
    {
        ChildServer server(db, args);
        Client client("127.0.0.1", server.port(), api_key);
        const Reply customer = client.post("/api/v1/customers", customer_json("crash-once"));
        REQUIRE(customer.status == 200);
        path = "/api/v1/customers/" + customer.str("/data/id") + "/calls";
    }
    {
        // Tests only: the server kills itself once this key's call and answer are committed,
        // before the answer is written.
        ::setenv("COLLECTCALL_TEST_KILL_AFTER_COMMIT", "call-1", 1);
        ChildServer server(db, args);
        ::unsetenv("COLLECTCALL_TEST_KILL_AFTER_COMMIT");
        Client client("127.0.0.1", server.port(), api_key);
        CHECK_THROWS(client.post(path, call, "application/json", idempotency_key("call-1")));
        CHECK(server.wait() == 128 + SIGKILL);
    }
    ChildServer server(db, args);
    Client client("127.0.0.1", server.port(), api_key);
    const Reply retry = client.post(path, call, "application/json", idempotency_key("call-1"));
    CHECK(retry.status == 200);
    CHECK(retry.header("Idempotent-Replayed") == "true");
    const Reply calls = client.get(path);
    REQUIRE(calls.size("/data/calls") == 1);
    CHECK(calls.str("/data/calls/0/id") == retry.str("/data/id"));
    // The call counts towards the day's four: three more are placed, the fifth is refused.
    for (int i = 2; i <= 4; ++i) {
        CHECK(
            client
                .post(path, call, "application/json", idempotency_key("call-" + std::to_string(i)))
                .status == 200);
    }
    const Reply fifth = client.post(path, call, "application/json", idempotency_key("call-5"));
    CHECK(fifth.status == 422);
    CHECK(fifth.error_code() == "compliance_failed");
    CHECK(client.get(path).size("/data/calls") == 4);
}
