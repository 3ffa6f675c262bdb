// Webhook receivers that misbehave on purpose, and tenants that try to hog delivery (API.md
// sections 9 and 11): whatever a receiver sends, the server stays up and keeps answering; one
// account's backlog does not hold up another account's deliveries; a message whose attempts
// never finish is parked; finished messages, old events and old idempotency records are swept.
#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <simdjson.h>

#include "eventually.hpp"
#include "harness.hpp"
#include "receiver.hpp"

using namespace test;
using namespace std::chrono_literals;

namespace {

constexpr const char* frozen = "2026-11-20T15:00:00Z";

// A receiver on a raw socket that does whatever `behave` does with each connection it accepts.
// `behave` gets the connection and a flag that turns true when the receiver stops.
class RawReceiver {
  public:
    using Behaviour = std::function<void(int fd, const std::atomic<bool>& stopping)>;

    // Listens on 0.0.0.0 (so every 127.x.y.z reaches it) or 127.0.0.1, on a free port.
    explicit RawReceiver(Behaviour behave, bool any_loopback = false, bool accept = true)
        : behave_(std::move(behave)) {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(listener_ >= 0);
        const int one = 1;
        ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(any_loopback ? INADDR_ANY : INADDR_LOOPBACK);
        REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::listen(listener_, 4096) == 0);
        socklen_t length = sizeof address;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
        port_ = ntohs(address.sin_port);
        if (accept) thread_ = std::thread([this] { serve(); });
    }
    ~RawReceiver() {
        stopping_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        if (thread_.joinable()) thread_.join();
        for (std::thread& t : connections_)
            t.join();
        ::close(listener_);
    }
    RawReceiver(const RawReceiver&) = delete;
    RawReceiver& operator=(const RawReceiver&) = delete;

    [[nodiscard]] int port() const { return port_; }
    [[nodiscard]] int connections() const { return accepted_; }

  private:
    void serve() {
        while (!stopping_) {
            pollfd p{listener_, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0) continue;
            const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) continue;
            ++accepted_;
            connections_.emplace_back([this, fd] {
                behave_(fd, stopping_);
                ::close(fd);
            });
        }
    }

    Behaviour behave_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<int> accepted_{0};
    std::thread thread_;
    std::list<std::thread> connections_;
};

// Reads what the client sent for a moment (its request), without answering.
void read_request(int fd) {
    char buffer[4096];
    for (int i = 0; i < 5; ++i) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) break;
        if (::recv(fd, buffer, sizeof buffer, 0) <= 0) break;
    }
}

// Sends all of `bytes`; false when the peer went away or the receiver stops.
bool send_all(int fd, std::string_view bytes, const std::atomic<bool>& stopping) {
    while (!bytes.empty()) {
        if (stopping) return false;
        pollfd p{fd, POLLOUT, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

RawReceiver::Behaviour answer(std::string bytes) {
    return [bytes = std::move(bytes)](int fd, const std::atomic<bool>& stopping) {
        read_request(fd);
        send_all(fd, bytes, stopping);
    };
}

// A head, then `piece` again and again until the client hangs up.
RawReceiver::Behaviour endless(std::string head, std::string piece) {
    return [head = std::move(head), piece = std::move(piece)](int fd,
                                                              const std::atomic<bool>& stopping) {
        read_request(fd);
        if (!send_all(fd, head, stopping)) return;
        while (send_all(fd, piece, stopping)) {
        }
    };
}

RawReceiver::Behaviour never_answer() {
    return [](int fd, const std::atomic<bool>& stopping) {
        char buffer[4096];
        while (!stopping) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 100) > 0 && ::recv(fd, buffer, sizeof buffer, 0) <= 0) return;
        }
    };
}

std::string random_bytes(std::size_t n) {
    std::mt19937 random(12);
    std::string bytes(n, '\0');
    for (char& c : bytes)
        c = static_cast<char>(random() & 0xff);
    return bytes;
}

struct Credentials {
    std::string key, agent;
};

Credentials init(const std::string& db) {
    const ProcessResult result = run_binary({"init", "--db", db, "--account", "acme"});
    REQUIRE(result.exit_code == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element json;
    REQUIRE(parser.parse(result.out).get(json) == simdjson::SUCCESS);
    return {std::string(json["apiKey"].get_string().value()),
            std::string(json["agentId"].get_string().value())};
}

std::string call_body(const std::string& agent, const std::string& url, const std::string& secret) {
    return R"({"agentId":")" + agent + R"(","webhook":{"url":")" + url + R"(","secretId":")" +
           secret + R"("}})";
}

std::int64_t count(const Database& database, const std::string& sql) {
    return std::stoll(database.rows(sql).at(0).at(0));
}

bool alive(int pid) {
    return ::kill(pid, 0) == 0;
}

// /healthz answers 200 within liveness_bound.
void check_healthy(int port) {
    Client client("127.0.0.1", port);
    const auto start = std::chrono::steady_clock::now();
    CHECK(client.get("/healthz").status == 200);
    CHECK(std::chrono::steady_clock::now() - start < liveness_bound);
}

}  // namespace

TEST_CASE("hostile receivers neither crash nor stall the server, before or after a restart",
          "[webhooks][hostile][process]") {
    Database database;
    const std::string db = database.uri();
    const Credentials acme = init(db);
    std::vector<std::string> args{"--allow-private-webhooks", "--now", frozen,
                                  // Calls do not end: their call-created messages are the test.
                                  "--call-step-ms", "600000", "--webhook-backoff-scale", "0.001",
                                  // Attempts of 1.5 s: the slow receivers are cut off quickly.
                                  "--webhook-timeout-ms", "1500", "--webhook-workers", "8",
                                  "--quiet"};
    if (on_postgres()) args.insert(args.end(), {"--lease-ms", "500"});

    const std::string mb2(2 * 1024 * 1024, 'a');
    std::string many_headers = "HTTP/1.1 200 OK\r\n";
    for (int i = 0; i < 200'000; ++i)
        many_headers += "A: b\r\n";
    many_headers += "\r\n";
    RawReceiver target(answer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));

    struct Hostile {
        const char* what;
        std::unique_ptr<RawReceiver> receiver;
        bool accepted;  // a 2xx head: delivered, however the rest goes
    };
    std::vector<Hostile> hostile;
    hostile.push_back(
        {"2 MB status line", std::make_unique<RawReceiver>(answer("HTTP/1.1 200 " + mb2)), false});
    hostile.push_back({"2 MB header",
                       std::make_unique<RawReceiver>(answer("HTTP/1.1 200 OK\r\nX: " + mb2)),
                       false});
    hostile.push_back(
        {"200,000 headers", std::make_unique<RawReceiver>(answer(many_headers)), false});
    hostile.push_back(
        {"endless body",
         std::make_unique<RawReceiver>(endless(
             "HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n", std::string(65536, 'b'))),
         true});
    hostile.push_back({"endless chunks",
                       std::make_unique<RawReceiver>(
                           endless("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                                   "1000\r\n" + std::string(4096, 'c') + "\r\n")),
                       true});
    hostile.push_back(
        {"random bytes", std::make_unique<RawReceiver>(answer(random_bytes(1 << 20))), false});
    hostile.push_back({"one byte per second",
                       std::make_unique<RawReceiver>([](int fd, const std::atomic<bool>& stopping) {
                           read_request(fd);
                           for (const char c : std::string("HTTP/1.1 200 OK\r\n\r\n")) {
                               if (!send_all(fd, std::string_view(&c, 1), stopping)) return;
                               for (int i = 0; i < 10 && !stopping; ++i)
                                   std::this_thread::sleep_for(100ms);
                           }
                       }),
                       false});
    hostile.push_back(
        {"redirect to the metadata address",
         std::make_unique<RawReceiver>(
             answer("HTTP/1.1 302 Found\r\nLocation: "
                    "http://169.254.169.254/latest/meta-data/\r\nContent-Length: 0\r\n\r\n")),
         false});
    hostile.push_back({"redirect to another receiver",
                       std::make_unique<RawReceiver>(answer(
                           "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:" +
                           std::to_string(target.port()) + "/\r\nContent-Length: 0\r\n\r\n")),
                       false});
    hostile.push_back({"never answers", std::make_unique<RawReceiver>(never_answer()), false});

    std::vector<std::string> calls;
    int pid = 0;
    {
        ChildServer server(db, args);
        pid = server.pid();
        Client client("127.0.0.1", server.port(), acme.key);
        const Reply secret = client.post("/api/v1/webhook-secrets", "", "");
        REQUIRE(secret.status == 200);
        for (std::size_t i = 0; i < hostile.size(); ++i) {
            const Reply customer =
                client.post("/api/v1/customers", customer_json("h-" + std::to_string(i)));
            REQUIRE(customer.status == 200);
            const std::string url =
                "http://127.0.0.1:" + std::to_string(hostile[i].receiver->port()) + "/hook";
            const Reply call =
                client.post("/api/v1/customers/" + customer.str("/data/id") + "/calls",
                            call_body(acme.agent, url, secret.str("/data/id")));
            REQUIRE(call.status == 200);
            calls.push_back(call.str("/data/id"));
        }

        // Every receiver has had its go at least twice (a first attempt and a retry), and the
        // server answered /healthz promptly all along.
        const auto all_tried = [&] {
            return std::all_of(hostile.begin(), hostile.end(), [](const Hostile& h) {
                return h.receiver->connections() >= (h.accepted ? 1 : 2);
            });
        };
        const auto deadline = std::chrono::steady_clock::now() + 40s;
        while (!all_tried() && std::chrono::steady_clock::now() < deadline) {
            check_healthy(server.port());
            REQUIRE(alive(pid));
            std::this_thread::sleep_for(100ms);
        }
        for (const Hostile& h : hostile) {
            INFO(h.what);
            CHECK(h.receiver->connections() >= (h.accepted ? 1 : 2));
        }
        for (std::size_t i = 0; i < hostile.size(); ++i) {
            INFO(hostile[i].what);
            const auto rows = database.rows(
                "SELECT state, attempts, COALESCE(last_error, '') FROM webhook_outbox WHERE "
                "call_id = '" +
                calls[i] + "'");
            REQUIRE(rows.size() == 1);
            INFO(rows[0][2]);
            if (hostile[i].accepted) {
                CHECK(rows[0][0] == "delivered");
            } else {
                CHECK(rows[0][0] == "pending");
                CHECK(std::stoll(rows[0][1]) >= 1);
            }
        }
        // Redirects are not followed.
        CHECK(target.connections() == 0);
        check_healthy(server.port());
        CHECK(alive(pid));
        CHECK(server.pid() == pid);
        server.signal(SIGKILL);
        server.wait();
    }

    // A restart with those deliveries still pending stays up, and goes on trying them.
    std::vector<int> before;
    for (const Hostile& h : hostile)
        before.push_back(h.receiver->connections());
    ChildServer again(db, args);
    const auto retried = [&] {
        for (std::size_t i = 0; i < hostile.size(); ++i) {
            if (!hostile[i].accepted && hostile[i].receiver->connections() <= before[i]) {
                return false;
            }
        }
        return true;
    };
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (!retried() && std::chrono::steady_clock::now() < deadline) {
        check_healthy(again.port());
        REQUIRE(alive(again.pid()));
        std::this_thread::sleep_for(100ms);
    }
    CHECK(retried());
    check_healthy(again.port());
    CHECK(alive(again.pid()));
    CHECK(target.connections() == 0);
}

TEST_CASE("one account's 600 dead receivers do not hold up another account's delivery",
          "[webhooks][fairness]") {
    // The attempt's time limit stays the real 10 s: a first-come queue would keep the second
    // account waiting 600 x 10 s / 4 workers; a fair one, at most one attempt.
    LocalServer server([](collectcall::server::ServerOptions& o) {
        o.now = frozen_time(frozen);
        o.call_step_ms = 600'000;
        o.webhook_backoff_scale = 0.001;
        o.api.allow_private_webhooks = true;
        o.api.access_log = false;
    });
    // Accepts nothing: connections to it stay unanswered (the kernel's backlog holds them).
    RawReceiver dead([](int, const std::atomic<bool>&) {}, true, false);
    const Account hog = server.create_account("hog");
    const Account other = server.create_account("other");
    Client hog_client = server.client(hog);
    Client other_client = server.client(other);

    const Reply hog_secret = hog_client.post("/api/v1/webhook-secrets", "", "");
    REQUIRE(hog_secret.status == 200);
    std::string bulk = R"({"customers":[)";
    for (int i = 0; i < 600; ++i) {
        if (i != 0) bulk += ',';
        bulk += customer_json("hog-" + std::to_string(i));
    }
    bulk += "]}";
    const Reply created = hog_client.post("/api/v1/customers/bulk", bulk);
    REQUIRE(created.status == 200);
    std::vector<std::string> customers;
    for (const auto& row : server.database().rows("SELECT id FROM customers WHERE account_id = '" +
                                                  hog.id + "' ORDER BY external_id")) {
        customers.push_back(row[0]);
    }
    REQUIRE(customers.size() == 600);
    // 600 host names: 127.0.x.y, each its own address.
    for (int i = 0; i < 600; ++i) {
        const std::string host =
            "127.0." + std::to_string(1 + i / 250) + "." + std::to_string(1 + i % 250);
        const std::string url = "http://" + host + ":" + std::to_string(dead.port()) + "/hook";
        const Reply call = hog_client.post("/api/v1/customers/" + customers[i] + "/calls",
                                           call_body(hog.agent, url, hog_secret.str("/data/id")));
        REQUIRE(call.status == 200);
    }

    const Reply other_secret = other_client.post("/api/v1/webhook-secrets", "", "");
    REQUIRE(other_secret.status == 200);
    Receiver receiver(other_secret.str("/data/secret"));
    const Reply customer = other_client.post("/api/v1/customers", customer_json("other-1"));
    REQUIRE(customer.status == 200);
    const auto placed = std::chrono::steady_clock::now();
    REQUIRE(other_client
                .post("/api/v1/customers/" + customer.str("/data/id") + "/calls",
                      call_body(other.agent,
                                "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hook",
                                other_secret.str("/data/id")))
                .status == 200);
    REQUIRE(receiver.wait_for([](const auto& d) { return !d.empty(); }, 30s));
    const auto waited = std::chrono::steady_clock::now() - placed;
    INFO("delivered after " << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()
                            << " ms");
    CHECK(waited < 30s);
    // The backlog was still there: the message went ahead of it, not after it.
    CHECK(count(server.database(),
                "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending' AND attempts = 0") >
          400);
}

TEST_CASE("a message whose attempts never finish is parked after three tries",
          "[webhooks][parking][process]") {
    Database database;
    const std::string db = database.uri();
    const Credentials acme = init(db);
    // The attempt takes its full 10 s: each run is killed in the middle of it, as a crash
    // during the attempt would end it.
    std::vector<std::string> args{
        "--allow-private-webhooks", "--now", frozen,   "--call-step-ms", "600000",
        "--webhook-backoff-scale",  "0.001", "--quiet"};
    if (on_postgres()) args.insert(args.end(), {"--lease-ms", "300"});
    RawReceiver receiver(never_answer());
    std::string call;
    const auto row = [&] {
        return database.rows(
            "SELECT state, attempts, unfinished, COALESCE(last_error, '') FROM webhook_outbox");
    };
    for (int run = 1; run <= 3; ++run) {
        INFO("run " << run);
        ChildServer server(db, args);
        if (run == 1) {
            Client client("127.0.0.1", server.port(), acme.key);
            const Reply secret = client.post("/api/v1/webhook-secrets", "", "");
            const Reply customer = client.post("/api/v1/customers", customer_json("p-1"));
            REQUIRE(customer.status == 200);
            const std::string url = "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hook";
            REQUIRE(client
                        .post("/api/v1/customers/" + customer.str("/data/id") + "/calls",
                              call_body(acme.agent, url, secret.str("/data/id")))
                        .status == 200);
        }
        // The attempt is recorded before it is made: by the time the receiver has the
        // connection, the outbox says so.
        REQUIRE(eventually([&] { return receiver.connections() >= run; }, 15s));
        const auto rows = row();
        REQUIRE(rows.size() == 1);
        CHECK(rows[0][0] == "pending");
        CHECK(rows[0][1] == std::to_string(run));
        CHECK(rows[0][2] == std::to_string(run));
        server.signal(SIGKILL);
        server.wait();
    }
    ChildServer last(db, args);
    REQUIRE(eventually([&] { return row().at(0).at(0) == "failed"; }, 10s));
    const auto rows = row();
    CHECK(rows[0][3].rfind("parked", 0) == 0);
    CHECK(rows[0][1] == "3");
    std::this_thread::sleep_for(500ms);
    CHECK(receiver.connections() == 3);  // not attempted a fourth time
    check_healthy(last.port());
}

TEST_CASE("the retention sweep deletes finished messages, old events and old idempotency keys",
          "[webhooks][retention]") {
    LocalServer server([](collectcall::server::ServerOptions& o) {
        o.now = frozen_time(frozen);
        o.call_step_ms = 50;
        o.webhook_backoff_scale = 0.001;
        o.api.allow_private_webhooks = true;
        o.api.access_log = false;
        o.retention_sweep = 200ms;
    });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Reply secret = client.post("/api/v1/webhook-secrets", "", "");
    Receiver receiver(secret.str("/data/secret"));
    const std::string url = "http://127.0.0.1:" + std::to_string(receiver.port()) + "/hook";
    std::vector<std::string> calls;
    for (int i = 0; i < 3; ++i) {
        const Reply customer =
            client.post("/api/v1/customers", customer_json("r-" + std::to_string(i)),
                        "application/json", {{"Idempotency-Key", "key-" + std::to_string(i)}});
        REQUIRE(customer.status == 200);
        calls.push_back(client
                            .post("/api/v1/customers/" + customer.str("/data/id") + "/calls",
                                  call_body(acme.agent, url, secret.str("/data/id")))
                            .str("/data/id"));
    }
    const Database& database = server.database();
    REQUIRE(eventually(
        [&] {
            return count(database,
                         "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'delivered'") == 6;
        },
        15s));

    // Age the rows of the first call by 8 days, of the second by 6 days; the third stays new.
    const std::int64_t day_ms = 24LL * 3600 * 1000;
    const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
    const auto age = [&](const std::string& call, int days, const char* event_time) {
        (void)database.rows(
            "UPDATE webhook_outbox SET done_ms = " + std::to_string(now_ms - days * day_ms) +
            " WHERE call_id = '" + call + "'");
        (void)database.rows("UPDATE call_events SET created_at = '" + std::string(event_time) +
                            "' WHERE call_id = '" + call + "'");
    };
    age(calls[0], 8, "2026-11-12T15:00:00.000Z");
    age(calls[1], 6, "2026-11-14T15:00:00.000Z");
    // Idempotency records: one 25 hours old (by the server's clock), the others new.
    const std::int64_t frozen_ms = 1'795'186'800'000;  // 2026-11-20T15:00:00Z
    (void)database.rows("UPDATE idempotency_keys SET created_ms = " +
                        std::to_string(frozen_ms - 25 * 3600 * 1000LL) + " WHERE key = 'key-0'");

    // The aging above is several statements, and a sweep may fall between them: wait for
    // everything it makes old to be gone, then look at what must be kept.
    const auto events_of = [&](const std::string& call) {
        return count(database, "SELECT COUNT(*) FROM call_events WHERE call_id = '" + call + "'");
    };
    REQUIRE(eventually(
        [&] {
            return count(database, "SELECT COUNT(*) FROM webhook_outbox") == 4 &&
                   count(database, "SELECT COUNT(*) FROM idempotency_keys") == 2 &&
                   events_of(calls[0]) == 0;
        },
        5s));
    CHECK(count(database,
                "SELECT COUNT(*) FROM webhook_outbox WHERE call_id = '" + calls[0] + "'") == 0);
    CHECK(events_of(calls[1]) == 2);
    CHECK(count(database, "SELECT COUNT(*) FROM idempotency_keys WHERE key = 'key-0'") == 0);
    // The call itself is kept, and still answers.
    CHECK(client.get("/api/v1/calls/" + calls[0]).status == 200);
}
