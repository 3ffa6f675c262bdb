// No tenant can exhaust the server's memory or its workers (API.md section 11): a request whose
// client has gone is not processed; one memory budget bounds what all connections hold (stalled
// bodies, unread answers); documents many clients read are shared and the recording is made as
// it is sent; memory comes back after a burst. Resident sizes are measured in a child server
// against its own level before, in the same run.
#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <collectcall/webhook/recording.hpp>

#include "eventually.hpp"
#include "harness.hpp"
#include "hooked_store.hpp"

using namespace test;
using namespace collectcall::server;
using namespace std::chrono_literals;

namespace {

constexpr long mib = 1024;  // in KiB, as /proc reports

// A kilobyte figure of /proc/PID/status ("VmRSS", "VmHWM").
long status_kib(int pid, const std::string& field) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    }
    return -1;
}

// A counter of GET /metrics (0 when it is not there).
double metric(int port, const std::string& name) {
    const Reply r = Client("127.0.0.1", port).get("/metrics");
    const std::size_t at = r.body.find("\n" + name + " ");
    if (at == std::string::npos) return 0;
    return std::stod(r.body.substr(at + name.size() + 2));
}

// Waits until connections hold at least `bytes` of the memory budget (a body's share is taken
// when a worker admits its head, a moment after the head arrived); false after 10 s.
bool holding(int port, double bytes) {
    return eventually([&] { return metric(port, "collectcall_connection_memory_bytes") >= bytes; },
                      10s, 20ms);
}

std::string request_head(const std::string& method, const std::string& target,
                         const std::string& key, const std::string& extra = {}) {
    std::string text = method + " " + target + " HTTP/1.1\r\nHost: x\r\n";
    if (!key.empty()) text += "Authorization: Bearer " + key + "\r\n";
    return text + extra + "\r\n";
}

// Accounts created with `init` before the child server starts.
std::vector<std::string> init_accounts(const std::string& db, int n) {
    std::vector<std::string> keys;
    for (int i = 0; i < n; ++i) {
        keys.push_back(
            parse(run_binary({"init", "--db", db, "--account", "tenant-" + std::to_string(i)}).out)
                .str("/apiKey"));
    }
    return keys;
}

// Waits until the child's resident size is within `margin` KiB of `level`, for at most
// `timeout`; the last size read.
long settle(int pid, long level, long margin, std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    long now = status_kib(pid, "VmRSS");
    while (now - level > margin && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(100ms);
        now = status_kib(pid, "VmRSS");
    }
    return now;
}

}  // namespace

TEST_CASE("memory: requests whose clients closed before a worker took them are not processed",
          "[memory][abandoned]") {
    // Four workers; each customer insert takes 400 ms. Sixteen requests sent and closed at once
    // held every worker for 1.6 s and more when each was processed.
    std::atomic<int> inserts{0};
    HookedStore* store = nullptr;
    LocalServer server([](ServerOptions& o) { o.threads = 4; },
                       [&store](const std::string& path) {
                           auto hooked = std::make_unique<HookedStore>(path);
                           store = hooked.get();
                           return hooked;
                       });
    store->before_insert_customer = [&inserts] {
        ++inserts;
        std::this_thread::sleep_for(400ms);
    };
    const Account acme = server.create_account("acme");
    const auto post = [&](int i) {
        const std::string body = customer_json("gone-" + std::to_string(i));
        return request_head("POST", "/api/v1/customers", acme.key,
                            "Content-Type: application/json\r\nContent-Length: " +
                                std::to_string(body.size()) + "\r\n") +
               body;
    };
    for (int i = 0; i < 16; ++i) {
        RawConnection connection(server.port());
        REQUIRE(connection.send(post(i)));
    }  // closed as soon as sent
    const auto waited = probe(server.port());
    CHECK(waited < liveness_bound);
    std::this_thread::sleep_for(1000ms);  // what a worker had begun has finished
    const auto stored = [&] {
        int found = 0;
        for (int i = 0; i < 16; ++i) {
            found +=
                static_cast<int>(server.client(acme)
                                     .get("/api/v1/customers?externalId=gone-" + std::to_string(i))
                                     .size("/data/customers"));
        }
        return found;
    };
    // The workers through every request (processed, or found abandoned) and what they processed
    // committed: a loaded machine may not be there a second later.
    const auto abandoned = [&] {
        return metric(server.port(), "collectcall_requests_abandoned_total");
    };
    (void)eventually(
        [&] { return abandoned() + inserts.load() >= 16 && stored() >= inserts.load(); }, 10s,
        50ms);

    // At most what the four workers had taken before the clients closed was processed, and what
    // was processed is stored (durable, and found).
    const int processed = inserts.load();
    INFO("processed " << processed << " of 16; /healthz waited " << waited.count() << " ms");
    CHECK(processed <= 4);
    CHECK(abandoned() >= 16 - processed);
    CHECK(stored() == processed);

    // A client that stays gets its answer, pipelined requests included.
    RawConnection stays(server.port());
    REQUIRE(stays.send(post(100) + post(101)));
    const auto first = stays.receive(10s);
    const auto second = stays.receive(10s);
    REQUIRE(first);
    REQUIRE(second);
    CHECK(first->status == 200);
    CHECK(second->status == 200);
}

TEST_CASE("memory: sixty stalled large bodies stay within the memory budget",
          "[memory][budget][process]") {
    if (address_sanitizer) {
        WARN("skipped under AddressSanitizer: its allocator keeps freed memory");
        return;
    }
    Database database;
    const std::vector<std::string> keys = init_accounts(database.uri(), 5);
    constexpr long budget = 64 * mib;
    ChildServer server(database.uri(), {"--quiet", "--memory-budget", "64MiB"});
    const int port = server.port();
    for (int i = 0; i < 10; ++i)
        REQUIRE(probe(port) < liveness_bound);
    const long before = status_kib(server.pid(), "VmRSS");

    // Sixty clients of five accounts announce a 16 MiB bulk body, send 15 MiB of it and stall.
    // A body the budget (or its account's share) cannot take is answered 503 at once.
    constexpr std::size_t announced = std::size_t{16} << 20;
    constexpr std::size_t sent = std::size_t{15} << 20;
    const std::string piece(std::size_t{1} << 20, ' ');
    std::vector<std::unique_ptr<RawConnection>> connections(60);
    std::atomic<int> refused{0};
    std::atomic<int> stalled{0};
    std::atomic<int> retry_after{0};
    std::atomic<int> finished{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 60; ++i) {
        clients.emplace_back([&, i] {
            auto& connection = connections[static_cast<std::size_t>(i)];
            connection = std::make_unique<RawConnection>(port);
            const std::string& key = keys[static_cast<std::size_t>(i) % keys.size()];
            if (!connection->send(request_head("POST", "/api/v1/customers/bulk", key,
                                               "Content-Type: application/json\r\n"
                                               "Content-Length: " +
                                                   std::to_string(announced) + "\r\n"))) {
                ++finished;
                return;
            }
            // A refusal comes at once; an admitted body gets no answer. Waiting as long as a
            // live server may take (not a guess of how fast a loaded machine answers) tells
            // the two apart.
            const auto answer = connection->receive(liveness_bound);
            if (answer) {
                if (answer->status == 503) ++refused;
                if (answer->header("retry-after") == "1") ++retry_after;
            } else {
                std::size_t at = 0;
                while (at < sent && connection->send(piece))
                    at += piece.size();
                if (at >= sent) ++stalled;
            }
            ++finished;
        });
    }
    // The server's memory while the clients run, and a second after the last has sent all it
    // sends (the stalled bodies are then all held).
    long peak = before;
    std::vector<std::chrono::milliseconds> probes;
    const auto started = std::chrono::steady_clock::now();
    auto until = started + 3s;
    while (std::chrono::steady_clock::now() < until) {
        probes.push_back(probe(port));
        peak = std::max(peak, status_kib(server.pid(), "VmRSS"));
        std::this_thread::sleep_for(100ms);
        if (finished < 60 && std::chrono::steady_clock::now() - started < 4 * liveness_bound)
            until = std::max(until, std::chrono::steady_clock::now() + 1s);
    }
    for (auto& client : clients)
        client.join();
    peak = std::max(peak, status_kib(server.pid(), "VmRSS"));
    const long hwm = status_kib(server.pid(), "VmHWM");
    INFO("VmRSS before " << before / mib << " MiB, peak " << peak / mib << " MiB, VmHWM "
                         << hwm / mib << " MiB; " << stalled << " stalled, " << refused
                         << " refused");
    // The stalled bodies did take memory (the test measures something) ...
    CHECK(stalled >= 3);
    CHECK(peak - before > 30 * mib);
    // ... within the budget: four 16 MiB bodies at most, of four accounts.
    CHECK(stalled <= 4);
    CHECK(refused == 60 - stalled);
    CHECK(retry_after == refused);
    CHECK(hwm - before < budget + 8 * mib);
    for (const auto t : probes)
        CHECK(t < liveness_bound);
    CHECK(metric(port, "collectcall_memory_refused_total") == refused);
}

TEST_CASE("memory: no account holds more than its share of the budget", "[budget]") {
    // 64 MiB: each account may hold a quarter of it, and at least one 16 MiB bulk body.
    LocalServer server([](ServerOptions& o) { o.memory_budget = std::size_t{64} << 20; });
    const Account a = server.create_account("a");
    const Account b = server.create_account("b");
    const auto start_bulk = [&](const Account& account) {
        auto connection = std::make_unique<RawConnection>(server.port());
        REQUIRE(connection->send(request_head("POST", "/api/v1/customers/bulk", account.key,
                                              "Content-Type: application/json\r\n"
                                              "Content-Length: 16777216\r\n") +
                                 std::string(std::size_t{1} << 20, ' ')));
        return connection;
    };
    const auto first = start_bulk(a);
    CHECK_FALSE(first->receive(300ms));  // read on: the account's share has room
    // Admitted before the second comes, which would otherwise take the share first.
    REQUIRE(holding(server.port(), 16 << 20));
    const auto second = start_bulk(a);
    const auto refused = second->receive(5s);
    REQUIRE(refused);
    CHECK(refused->status == 503);
    CHECK(refused->header("retry-after") == "1");
    CHECK(parse(refused->body).error_code() == "unavailable");
    const auto other = start_bulk(b);
    CHECK_FALSE(other->receive(300ms));  // another account's body is read
    // Small requests of the same account go on.
    CHECK(server.client(a).get("/api/v1/customers?externalId=x").status == 200);
    CHECK(probe(server.port()) < liveness_bound);
    CHECK(metric(server.port(), "collectcall_memory_refused_total") == 1);
    CHECK(holding(server.port(), 2 * (16 << 20)));
}

TEST_CASE("memory: a compressed body is charged as it is decoded", "[budget]") {
    // API.md section 17: a gzip body is refused at the same decoded sizes as a plain one. 64 MiB:
    // three accounts' stalled 16 MiB bodies leave about 16 MiB.
    LocalServer server([](ServerOptions& o) { o.memory_budget = std::size_t{64} << 20; });
    std::vector<Account> accounts;
    for (const char* name : {"a", "b", "c", "d", "e"})
        accounts.push_back(server.create_account(name));
    std::size_t stalled = 0;  // the bodies the stalled connections announced
    const auto stall = [&](const Account& account, std::size_t announced) {
        auto connection = std::make_unique<RawConnection>(server.port());
        REQUIRE(connection->send(request_head("POST", "/api/v1/customers/bulk", account.key,
                                              "Content-Type: application/json\r\n"
                                              "Content-Length: " +
                                                  std::to_string(announced) + "\r\n") +
                                 std::string(std::size_t{1} << 20, ' ')));
        CHECK_FALSE(connection->receive(300ms));  // admitted: its body is read on
        // Its share taken before what follows asks for memory.
        stalled += announced;
        REQUIRE(holding(server.port(), static_cast<double>(stalled)));
        return connection;
    };
    // A bulk of no items padded to 10 MiB with white space: 400 once read, whatever its coding;
    // gzip makes it about 10 KiB on the wire.
    constexpr std::size_t decoded = std::size_t{10} << 20;
    std::string plain = R"({"customers":[]})";
    plain.resize(decoded, ' ');
    z_stream stream{};
    REQUIRE(deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) ==
            Z_OK);
    std::string gzip(deflateBound(&stream, static_cast<uLong>(plain.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(plain.data());
    stream.avail_in = static_cast<uInt>(plain.size());
    stream.next_out = reinterpret_cast<Bytef*>(gzip.data());
    stream.avail_out = static_cast<uInt>(gzip.size());
    REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
    gzip.resize(stream.total_out);
    deflateEnd(&stream);
    REQUIRE(gzip.size() < (std::size_t{64} << 10));
    const auto send = [&](const Account& account, const std::string& body, bool coded) {
        RawConnection connection(server.port());
        REQUIRE(connection.send(request_head("POST", "/api/v1/customers/bulk", account.key,
                                             std::string("Content-Type: application/json\r\n") +
                                                 (coded ? "Content-Encoding: gzip\r\n" : "") +
                                                 "Content-Length: " + std::to_string(body.size()) +
                                                 "\r\n") +
                                body));
        const auto answer = connection.receive(20s);
        REQUIRE(answer);
        if (answer->status == 503) {
            CHECK(answer->header("retry-after") == "1");
            CHECK(parse(answer->body).error_code() == "unavailable");
        }
        return answer->status;
    };
    const auto a = stall(accounts[0], std::size_t{16} << 20);
    const auto b = stall(accounts[1], std::size_t{16} << 20);
    const auto c = stall(accounts[2], std::size_t{16} << 20);
    // 10 MiB decoded fit beside them (each holds its 16 MiB and at most about 1 MiB of buffer),
    // coded or not.
    CHECK(send(accounts[3], gzip, true) == 400);
    CHECK(send(accounts[3], plain, false) == 400);
    {
        // With 8 MiB more held, they do not: neither the plain body nor the decoded one.
        const auto e = stall(accounts[4], std::size_t{8} << 20);
        CHECK(send(accounts[3], gzip, true) == 503);
        CHECK(send(accounts[3], plain, false) == 503);
        CHECK(metric(server.port(), "collectcall_memory_refused_total") == 2);
    }
    // An account's share too: a decoded body of an account that holds its share is refused.
    CHECK(send(accounts[0], gzip, true) == 503);
    CHECK(metric(server.port(), "collectcall_memory_refused_total") == 3);
    CHECK(probe(server.port()) < liveness_bound);
}

TEST_CASE("memory: --memory-budget takes bytes or a binary unit, at least 1 MiB", "[budget]") {
    for (const char* bad : {"12", "0MiB", "1.5GiB", "64MB", "-1", ""})
        CHECK(run_binary({"serve", "--memory-budget", bad}).exit_code == 2);
}

TEST_CASE("memory: unread answers share the OpenAPI document and stream the recording",
          "[memory][budget][process]") {
    if (address_sanitizer) {
        WARN("skipped under AddressSanitizer: its allocator keeps freed memory");
        return;
    }
    Database database;
    init_accounts(database.uri(), 1);
    ChildServer server(database.uri(), {"--quiet"});
    const int port = server.port();
    // Warm up: the document is built once.
    REQUIRE(Client("127.0.0.1", port).get("/api/v1/openapi.json").status == 200);
    const std::string key = open_store(database.uri())->server_key("recording-links", "unused");
    const auto key_bytes = std::span<const unsigned char>(
        reinterpret_cast<const unsigned char*>(key.data()), key.size());
    // A 575 s call: a 4.6 MB WAV.
    const std::string recording = collectcall::webhook::recording_url(
        key_bytes, "", "0190f3b2-7c4d-7a1e-9f00-000000000001", 575'000,
        static_cast<std::int64_t>(std::time(nullptr)) + 600);
    {
        const Reply whole = Client("127.0.0.1", port).get(recording);
        REQUIRE(whole.status == 200);
        REQUIRE(whole.body.size() == 44 + 575 * 8000);
        const bool same = whole.body == collectcall::webhook::silent_wav(575'000);
        CHECK(same);
    }

    const auto unread = [&](const std::string& target, int n) {
        std::vector<std::unique_ptr<RawConnection>> clients;
        for (int i = 0; i < n; ++i) {
            clients.push_back(std::make_unique<RawConnection>(port, 4096));
            REQUIRE(clients.back()->send(request_head("GET", target, {})));
        }
        std::this_thread::sleep_for(1s);
        REQUIRE(probe(port) < liveness_bound);
        return clients;
    };
    SECTION("3,000 unread OpenAPI documents") {
        const long before = status_kib(server.pid(), "VmRSS");
        const auto clients = unread("/api/v1/openapi.json", 3000);
        const long during = status_kib(server.pid(), "VmRSS");
        INFO("VmRSS before " << before / mib << " MiB, with 3,000 unread documents " << during / mib
                             << " MiB");
        // A copy each would be 3,000 x 140 KB = 410 MB.
        CHECK(during - before < 24 * mib);
    }
    SECTION("100 unread 4.6 MB recordings") {
        const long before = status_kib(server.pid(), "VmRSS");
        const auto clients = unread(recording, 100);
        const long during = status_kib(server.pid(), "VmRSS");
        INFO("VmRSS before " << before / mib << " MiB, with 100 unread recordings " << during / mib
                             << " MiB");
        // A copy each would be 460 MB.
        CHECK(during - before < 16 * mib);
    }
}

TEST_CASE("memory: comes back after a burst of 3,000 unfinished heads", "[memory][process]") {
    if (address_sanitizer) {
        WARN("skipped under AddressSanitizer: its allocator keeps freed memory");
        return;
    }
    Database database;
    init_accounts(database.uri(), 1);
    ChildServer server(database.uri(), {"--quiet"});
    const int port = server.port();
    for (int i = 0; i < 10; ++i)
        REQUIRE(probe(port) < liveness_bound);
    std::this_thread::sleep_for(300ms);
    const long before = status_kib(server.pid(), "VmRSS");

    // 3,000 clients send a 77 KB head that never ends, then close.
    const std::string head =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Filler: " + std::string(77'000, 'a');
    std::vector<std::unique_ptr<RawConnection>> clients;
    for (int i = 0; i < 3000; ++i) {
        clients.push_back(std::make_unique<RawConnection>(port));
        REQUIRE(clients.back()->send(head));
    }
    // The server reads the heads as they arrive (the kernel holds some of each meanwhile).
    long during = 0;
    (void)eventually(
        [&] {
            during = std::max(during, status_kib(server.pid(), "VmRSS"));
            return during - before > 100 * mib;
        },
        5s, 100ms);
    clients.clear();
    const auto closed = std::chrono::steady_clock::now();
    // Within a few MiB: the heads' buffers go back; what stays is the allocator's own bookkeeping
    // and the 400 answers the workers wrote to the closed connections (docs/server.md).
    const long after = settle(server.pid(), before, 12 * mib, 15s);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - closed);
    INFO("VmRSS before " << before / mib << " MiB, during " << during / mib << " MiB, after "
                         << after / mib << " MiB (" << took.count() << " ms after the close)");
    CHECK(during - before > 100 * mib);  // the burst did take memory
    CHECK(after - before <= 12 * mib);
    CHECK(probe(port) < liveness_bound);
}
