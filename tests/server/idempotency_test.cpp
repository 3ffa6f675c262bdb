// Idempotency-Key, rate limiting, storage unavailable (503) and faults (500).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "crypto.hpp"
#include "harness.hpp"
#include "hooked_store.hpp"
#include "postgres/postgres.hpp"
#include "postgres/postgres_store.hpp"
#include "sqlite/sqlite.hpp"
#include "sqlite/sqlite_store.hpp"

using namespace test;
using namespace collectcall::server;

namespace {

HookedStore* hooked = nullptr;

LocalServer hooked_server(const LocalServer::Tweak& tweak = {}) {
    return LocalServer(tweak, [](const std::string& path) {
        auto store = std::make_unique<HookedStore>(path);
        hooked = store.get();
        return store;
    });
}

httplib::Headers key(const std::string& k) {
    return {{"Idempotency-Key", k}};
}

}  // namespace

TEST_CASE("API keys are stored as their SHA-256 (the same on every thread)", "[auth]") {
    // FIPS 180-2's examples: a database written by any version of the server keeps its keys.
    const auto digest_of = [](std::string_view text) { return hex_encode(sha256(text)); };
    const std::string abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const std::string empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    CHECK(digest_of("abc") == abc);
    CHECK(digest_of("") == empty);
    CHECK(digest_of("abc") == abc);  // the thread's context again
    CHECK(digest_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    std::string on_another_thread;
    std::thread([&] { on_another_thread = digest_of("abc"); }).join();
    CHECK(on_another_thread == abc);
}

TEST_CASE("a request is authenticated once, also when its body comes after its head", "[auth]") {
    LocalServer server = hooked_server();
    const Account acme = server.create_account("acme");
    const std::string body = customer_json("once-1");
    const std::string head =
        "POST /api/v1/customers HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n";
    RawConnection raw(server.port());
    hooked->key_lookups = 0;
    // The head alone: it is admitted with its key before its body is read.
    REQUIRE(raw.send(head + "Authorization: Bearer " + acme.key + "\r\n\r\n"));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    REQUIRE(raw.send(body));
    const auto created = raw.receive();
    REQUIRE(created);
    CHECK(created->status == 200);
    CHECK(hooked->key_lookups == 1);

    // The next request on the connection, whole, with a key that is not valid: the key the
    // previous one was admitted with does not carry over.
    std::string forged = acme.key;
    forged.back() = forged.back() == 'A' ? 'B' : 'A';
    REQUIRE(
        raw.send(head + "Authorization: Bearer " + forged + "\r\n\r\n" + customer_json("once-2")));
    const auto refused = raw.receive();
    REQUIRE(refused);
    CHECK(refused->status == 401);
    CHECK(hooked->key_lookups == 2);
}

TEST_CASE("an API key removed from the database is refused a second later at most",
          "[auth][sqlite]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    REQUIRE(client.get("/api/v1/customers?externalId=k-0").status == 200);
    // Found once, the key is kept for a second: a lookup of the database each request would
    // reload its pages after every commit.
    collectcall::server::sqlite::Connection db(server.db_path(), false, 5000);
    db.exec("DELETE FROM api_keys");
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    CHECK(client.get("/api/v1/customers?externalId=k-0").status == 401);
    CHECK(client.post("/api/v1/customers", customer_json("k-1")).status == 401);
}

TEST_CASE("a new SQLite file has 8 KiB pages; a file with 4 KiB pages keeps them and works",
          "[sqlite]") {
    const TempDir dir;
    const auto page_size = [](const std::string& path) {
        sqlite::Connection db(path, false, 5000);
        sqlite::Query q(db, "PRAGMA page_size");
        REQUIRE(q.step());
        return q.integer(0);
    };
    const std::string fresh = dir.file("fresh.db");
    { SqliteStore store(SqliteOptions{fresh, 5000}); }
    CHECK(page_size(fresh) == 8192);

    // A file SQLite created with its default page size, as servers before this one did.
    const std::string older = dir.file("older.db");
    {
        sqlite::Connection db(older, true, 5000);
        db.exec("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
    }
    SqliteStore store(SqliteOptions{older, 5000});
    const Credentials credentials =
        store.create_credentials(AccountSetup{"acme", {}, {}, {}, {}, {}, {}}, Time{});
    CHECK(page_size(older) == 4096);
    CHECK(store.find_api_key(collectcall::server::api_key_id(credentials.apiKey)).has_value());
}

namespace {

// POSTs `requests` bulk requests of 200 new customers each (about 300 KB of WAL per request).
void create_in_bulk(Client& client, const std::string& prefix, int requests) {
    for (int r = 0; r < requests; ++r) {
        std::string body = R"({"customers":[)";
        for (int i = 0; i < 200; ++i) {
            if (i != 0) body += ',';
            body += customer_json(prefix + std::to_string(r) + "-" + std::to_string(i));
        }
        body += "]}";
        const Reply reply = client.post("/api/v1/customers/bulk", body);
        REQUIRE(reply.status == 200);
        REQUIRE(reply.integer("/data/summary/succeeded") == 200);
    }
}

std::uintmax_t file_size(const std::string& path) {
    std::error_code error;
    const std::uintmax_t size = fs::file_size(path, error);
    return error ? 0 : size;
}

// A server on a SQLite store that checkpoints at these sizes, and the store's file in `path`;
// none in the suite's PostgreSQL run, which has no WAL to watch.
std::unique_ptr<LocalServer> sqlite_server(std::int64_t every, std::int64_t limit,
                                           std::string& path) {
    SqliteOptions options;
    options.checkpoint_every_bytes = every;
    options.checkpoint_limit_bytes = limit;
    auto server = std::make_unique<LocalServer>(LocalServer::Tweak{}, [&](const std::string& db) {
        if (pg::is_uri(db)) return open_store(db);
        path = options.path = db;
        return std::unique_ptr<Store>(std::make_unique<SqliteStore>(options));
    });
    if (path.empty()) return nullptr;
    return server;
}

}  // namespace

TEST_CASE("SQLite: a thread of the store copies the WAL into the database file beside the writes",
          "[sqlite]") {
    std::string path;
    // Never in line: only the thread checkpoints.
    const auto server = sqlite_server(256 << 10, std::int64_t{1} << 40, path);
    if (!server) return;
    Client client = server->client(server->create_account("acme"));
    const std::uintmax_t before = file_size(path);

    // In WAL mode a written page reaches the database file only through a checkpoint, and the
    // writer makes none here: the file grows only if the thread copies the WAL into it.
    create_in_bulk(client, "t-", 10);
    bool grown = false;
    for (int i = 0; i < 200 && !grown; ++i) {
        grown = file_size(path) >= before + (std::uintmax_t{512} << 10);
        if (!grown) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    INFO("database file " << before << " -> " << file_size(path) << " bytes");
    CHECK(grown);
}

TEST_CASE("SQLite: the WAL starts over once it reaches its limit, and nothing written is lost",
          "[sqlite]") {
    std::string path;
    const auto server = sqlite_server(256 << 10, 1 << 20, path);
    if (!server) return;
    Client client = server->client(server->create_account("acme"));

    create_in_bulk(client, "s-", 30);  // about 9 MB of WAL written
    // At most the limit, and what the writes after it added before the next one started over.
    INFO("WAL " << file_size(path + "-wal") << " bytes");
    CHECK(file_size(path + "-wal") <= (std::uintmax_t{2} << 20));
    for (const char* id : {"s-0-0", "s-14-77", "s-29-199"}) {
        CHECK(
            client.get(std::string("/api/v1/customers?externalId=") + id).size("/data/customers") ==
            1);
    }
}

TEST_CASE("Idempotency-Key replays the first response byte for byte", "[idempotency]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);

    const Reply first =
        client.post("/api/v1/customers", customer_json("i-1"), "application/json", key("k-1"));
    REQUIRE(first.status == 200);
    const Reply again =
        client.post("/api/v1/customers", customer_json("i-1"), "application/json", key("k-1"));
    CHECK(again.status == 200);
    CHECK(again.body == first.body);
    CHECK(again.header("X-Request-Id") == first.header("X-Request-Id"));
    CHECK(again.header("Idempotent-Replayed") == "true");
    CHECK(client.get("/api/v1/customers?externalId=i-1").size("/data/customers") == 1);

    // The same key with another body.
    const Reply reused =
        client.post("/api/v1/customers", customer_json("i-2"), "application/json", key("k-1"));
    CHECK(reused.status == 422);
    CHECK(reused.error_code() == "idempotency_key_reused");

    // Keys are per account.
    Client globex = server.client(server.create_account("globex"));
    const Reply theirs =
        globex.post("/api/v1/customers", customer_json("i-1"), "application/json", key("k-1"));
    CHECK(theirs.status == 200);
    CHECK(theirs.body != first.body);

    // A failure the endpoint answered is replayed too.
    const Reply duplicate =
        client.post("/api/v1/customers", customer_json("i-1"), "application/json", key("k-2"));
    REQUIRE(duplicate.status == 409);
    CHECK(client.post("/api/v1/customers", customer_json("i-1"), "application/json", key("k-2"))
              .body == duplicate.body);

    const Reply too_long = client.post("/api/v1/customers", customer_json("i-3"),
                                       "application/json", key(std::string(256, 'k')));
    CHECK(too_long.status == 400);
    CHECK(too_long.error_code() == "validation_failed");
    CHECK(too_long.str("/error/message") ==
          "Idempotency-Key must be 1 to 255 printable ASCII characters");
    CHECK(too_long.str("/publicFacingMessage") == too_long.str("/error/message"));
    CHECK(client.get("/api/v1/customers?externalId=i-3").size("/data/customers") == 0);
    CHECK(client
              .post("/api/v1/customers", customer_json("i-3"), "application/json",
                    key(std::string(255, 'k')))
              .status == 200);
}

TEST_CASE("Idempotency-Key makes a retried call place one call", "[idempotency][calls]") {
    LocalServer server([](ServerOptions& o) { o.now = frozen_time("2026-11-20T15:00:00Z"); });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string path =
        "/api/v1/customers/" +
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id") + "/calls";
    const std::string body = R"({"agentId":")" + acme.agent + R"("})";
    const Reply first = client.post(path, body, "application/json", key("call-1"));
    REQUIRE(first.status == 200);
    const Reply retry = client.post(path, body, "application/json", key("call-1"));
    CHECK(retry.body == first.body);
    CHECK(client.get(path).size("/data/calls") == 1);
}

TEST_CASE("Idempotency-Key on POST /webhook-secrets replays the id, never the secret",
          "[idempotency][webhooks]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Reply first =
        client.post("/api/v1/webhook-secrets", "{}", "application/json", key("secret-1"));
    REQUIRE(first.status == 200);
    const std::string secret = first.str("/data/secret");
    REQUIRE(secret.rfind("whsec_", 0) == 0);

    const Reply replay =
        client.post("/api/v1/webhook-secrets", "{}", "application/json", key("secret-1"));
    CHECK(replay.status == 200);
    CHECK(replay.header("Idempotent-Replayed") == "true");
    CHECK(replay.str("/data/id") == first.str("/data/id"));
    CHECK(replay.str("/requestId") == first.str("/requestId"));
    CHECK(replay.is_null("/data/secret"));
    CHECK(replay.body.find(secret) == std::string::npos);
    CHECK(replay.body.find("whsec_") == std::string::npos);
    // One secret was created, and it is the one a call can name.
    CHECK(server.database().rows("SELECT COUNT(*) FROM webhook_secrets")[0][0] == "1");
}

TEST_CASE("Idempotency-Key of a request in flight is 409", "[idempotency]") {
    LocalServer server = hooked_server();
    const Account acme = server.create_account("acme");

    std::mutex mutex;
    std::condition_variable cv;
    bool entered = false;
    bool release = false;
    hooked->before_insert_customer = [&] {
        std::unique_lock lock(mutex);
        entered = true;
        cv.notify_all();
        cv.wait(lock, [&] { return release; });
    };
    auto first = std::async(std::launch::async, [&] {
        return server.client(acme).post("/api/v1/customers", customer_json("f-1"),
                                        "application/json", key("slow"));
    });
    {
        std::unique_lock lock(mutex);
        REQUIRE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return entered; }));
    }
    const Reply second = server.client(acme).post("/api/v1/customers", customer_json("f-1"),
                                                  "application/json", key("slow"));
    CHECK(second.status == 409);
    CHECK(second.error_code() == "idempotency_key_in_flight");
    {
        std::lock_guard lock(mutex);
        release = true;
    }
    cv.notify_all();
    const Reply done = first.get();
    CHECK(done.status == 200);
    hooked->before_insert_customer = nullptr;
    CHECK(server.client(acme)
              .post("/api/v1/customers", customer_json("f-1"), "application/json", key("slow"))
              .body == done.body);
}

TEST_CASE("an unexpected fault is 500 internal with nothing leaked", "[faults]") {
    LocalServer server = hooked_server();
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    hooked->before_find_customer = [] {
        throw std::logic_error("secret detail: /var/lib/collectcall/db page 7");
    };
    const Reply r = client.get("/api/v1/customers/00000000-0000-4000-8000-000000000000");
    CHECK(r.status == 500);
    CHECK(r.error_code() == "internal");
    CHECK(r.body.find("secret") == std::string::npos);
    CHECK(r.header("X-Request-Id") == r.str("/requestId"));
    hooked->before_find_customer = nullptr;
    // The server goes on.
    CHECK(client.get("/api/v1/customers/00000000-0000-4000-8000-000000000000").status == 404);
}

TEST_CASE("readyz is 503 while the store cannot be read; healthz stays 200", "[faults]") {
    LocalServer server = hooked_server();
    hooked->before_check = [] { throw StoreError("the database is gone", true); };
    const Reply ready = server.anonymous().get("/readyz");
    CHECK(ready.status == 503);
    CHECK(ready.body == R"({"status":"unavailable"})");
    CHECK(server.anonymous().get("/healthz").status == 200);
    hooked->before_check = nullptr;
    CHECK(server.anonymous().get("/readyz").status == 200);
}

TEST_CASE("a database locked too long is 503 unavailable, and the key is not burnt",
          "[faults][sqlite]") {
    LocalServer server([](ServerOptions& o) { o.busy_timeout_ms = 100; });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);

    sqlite::Connection blocker(server.db_path(), false,
                               5000);  // waits out the server's own brief writes
    blocker.exec("BEGIN EXCLUSIVE");
    const Reply r =
        client.post("/api/v1/customers", customer_json("l-1"), "application/json", key("lk"));
    CHECK(r.status == 503);
    CHECK(r.error_code() == "unavailable");
    CHECK(r.header("Retry-After") == "1");
    CHECK(r.body.find("SQLITE") == std::string::npos);
    CHECK(r.body.find("locked") == std::string::npos);
    blocker.exec("ROLLBACK");

    const Reply retry =
        client.post("/api/v1/customers", customer_json("l-1"), "application/json", key("lk"));
    CHECK(retry.status == 200);
}

TEST_CASE("requests beyond the rate are 429 with Retry-After, per key", "[limits]") {
    LocalServer server([](ServerOptions& o) { o.rate_limit = 1; });
    Client acme = server.client(server.create_account("acme"));
    Client globex = server.client(server.create_account("globex"));
    const std::string path = "/api/v1/customers?externalId=x";
    // A burst of 2N (= 2) goes through, the next waits.
    CHECK(acme.get(path).status == 200);
    CHECK(acme.get(path).status == 200);
    const Reply limited = acme.get(path);
    CHECK(limited.status == 429);
    CHECK(limited.error_code() == "rate_limited");
    CHECK(std::stoi(limited.header("Retry-After")) >= 1);
    CHECK(globex.get(path).status == 200);
    // Unauthenticated probes are not counted against anyone.
    CHECK(server.anonymous().get("/healthz").status == 200);
}
