// Test harness: the real server on a loopback port with a temporary database, in this process
// (on a thread) or as a child process, and an HTTP client that keeps replies as parsed JSON.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <httplib.h>
#include <simdjson.h>

#include "server.hpp"

namespace test {

// A call ended as the simulated dialer ends one: completed, with `reason`, its duration, its
// transcript (a JSON array of TranscriptMessage) and the instant of its end.
inline collectcall::server::EndedCall ended_call(collectcall::EndedReason reason,
                                                 std::int64_t duration_ms, std::string transcript,
                                                 collectcall::server::Time at) {
    collectcall::server::EndedCall ended;
    ended.call.endedReason = reason;
    ended.call.durationMs = duration_ms;
    ended.transcript = std::move(transcript);
    ended.at = at;
    return ended;
}

// The build runs under AddressSanitizer, whose memory use and speed some tests allow for.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool address_sanitizer = true;
#else
constexpr bool address_sanitizer = false;
#endif
#else
constexpr bool address_sanitizer = false;
#endif

namespace fs = std::filesystem;

// A directory removed with everything in it at the end of the test.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] const fs::path& path() const { return path_; }
    [[nodiscard]] std::string file(std::string_view name) const { return (path_ / name).string(); }

  private:
    fs::path path_;
};

// True when the suite runs against PostgreSQL: COLLECTCALL_TEST_STORE=postgres, with the
// database in COLLECTCALL_TEST_PG_URI (main() checks that it is there).
bool on_postgres();

// Run by each suite's main() first. On PostgreSQL without a database to run on: nullopt when
// there is one; otherwise the exit code, after saying why on stderr: 77 (ctest reports the run
// as skipped) on a developer's machine, 1 (failed) in CI (CI or COLLECTCALL_REQUIRE_PG set).
std::optional<int> store_preflight();

// The database of one test: a SQLite file in a temporary directory or, when the suite runs on
// PostgreSQL, a schema of its own in the test database (dropped at the end), named by a URI
// whose search_path selects it.
class Database {
  public:
    Database();
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    // What --db takes.
    [[nodiscard]] const std::string& uri() const { return uri_; }
    [[nodiscard]] bool postgres() const { return !schema_.empty(); }
    // The rows of a query, each column as text (NULL as ""), for tests that look at what the
    // server stored. Plain SQL that both databases understand.
    [[nodiscard]] std::vector<std::vector<std::string>> rows(const std::string& sql) const;

  private:
    TempDir dir_;
    std::string schema_;
    std::string uri_;
};

// An HTTP reply with its body parsed (when it is JSON).
struct Reply {
    int status = 0;
    std::string body;
    httplib::Headers headers;
    std::shared_ptr<simdjson::dom::parser> parser;
    simdjson::dom::element json;
    bool parsed = false;

    [[nodiscard]] std::string header(const std::string& name) const;
    [[nodiscard]] bool has(std::string_view pointer) const;
    [[nodiscard]] simdjson::dom::element at(std::string_view pointer) const;
    [[nodiscard]] std::string str(std::string_view pointer) const;
    [[nodiscard]] std::int64_t integer(std::string_view pointer) const;
    [[nodiscard]] bool boolean(std::string_view pointer) const;
    [[nodiscard]] bool is_null(std::string_view pointer) const;
    [[nodiscard]] std::size_t size(std::string_view pointer) const;  // array length
    // The compact JSON text of the value at `pointer`.
    [[nodiscard]] std::string raw(std::string_view pointer) const;
    [[nodiscard]] std::string error_code() const { return str("/error/code"); }
};

Reply make_reply(const httplib::Result& result);

// When COLLECTCALL_TEST_RECORD names a file, every JSON answer a Client receives and every JSON
// webhook body a test receiver is sent are appended to it, one JSON line each
// ({"method","path","status","body"} or {"webhook"}), for the conformance test to check against
// the hosted service's schemas (tests/server/conformance.py --recorded). The file is emptied
// when a process first writes to it.
void record_response(std::string_view method, std::string_view path, const Reply& reply);
void record_webhook(std::string_view body);
// A Reply of a JSON text that did not come over HTTP (a webhook body, a command's output).
Reply parse(const std::string& json);

// An HTTP client for one server; `key` is sent as the bearer token when set.
class Client {
  public:
    Client(std::string host, int port, std::string key = {});

    Reply get(const std::string& path, const httplib::Headers& extra = {});
    Reply post(const std::string& path, const std::string& body,
               const std::string& content_type = "application/json",
               const httplib::Headers& extra = {});
    Reply patch(const std::string& path, const std::string& body,
                const std::string& content_type = "application/json",
                const httplib::Headers& extra = {});
    // Any method, any headers (nothing added but the key).
    Reply send(const std::string& method, const std::string& path, const std::string& body,
               const httplib::Headers& headers);

    [[nodiscard]] Client with_key(std::string key) const {
        return Client(host_, port_, std::move(key));
    }
    [[nodiscard]] int port() const { return port_; }

  private:
    httplib::Headers headers(const httplib::Headers& extra) const;

    std::string host_;
    int port_;
    std::string key_;
    std::shared_ptr<httplib::Client> http_;
};

struct Account {
    std::string id;
    std::string key;
    std::string agent;
};

// The server in this process, on a thread, on a free loopback port.
class LocalServer {
  public:
    using Tweak = std::function<void(collectcall::server::ServerOptions&)>;

    explicit LocalServer(
        const Tweak& tweak = {},
        std::function<std::unique_ptr<collectcall::server::Store>(const std::string& db_path)>
            make_store = {});
    ~LocalServer();

    [[nodiscard]] int port() const { return port_; }
    [[nodiscard]] const std::string& db_path() const { return database_.uri(); }
    [[nodiscard]] const Database& database() const { return database_; }
    [[nodiscard]] collectcall::server::Store& store() { return server_->store(); }

    Account create_account(const std::string& name, std::vector<std::string> caller_numbers = {});
    [[nodiscard]] Client client(const Account& account) const {
        return Client("127.0.0.1", port_, account.key);
    }
    [[nodiscard]] Client anonymous() const { return Client("127.0.0.1", port_); }

  private:
    Database database_;
    std::unique_ptr<collectcall::server::Server> server_;
    int port_ = 0;
    std::thread thread_;
};

// The server binary as a child process.
class ChildServer {
  public:
    ChildServer(const std::string& db_path, std::vector<std::string> extra_args = {});
    ~ChildServer();

    [[nodiscard]] int port() const { return port_; }
    [[nodiscard]] int pid() const { return pid_; }
    // What it printed before "listening on" (the demo account, if any).
    [[nodiscard]] const std::string& banner() const { return banner_; }
    void signal(int sig) const;
    // Waits for the process to end; its exit code, or 128 + signal.
    int wait(std::chrono::milliseconds timeout = std::chrono::seconds(20));
    // Everything the process wrote to stderr so far.
    [[nodiscard]] std::string error_output() const;

  private:
    TempDir dir_;  // first: the other members are placed in it
    int pid_ = -1;
    int port_ = 0;
    std::string banner_;
    std::string stderr_path_;
    bool reaped_ = false;
};

// Runs the server binary to completion (init); stdout and the exit code.
struct ProcessResult {
    int exit_code = -1;
    std::string out;
};
ProcessResult run_binary(const std::vector<std::string>& args);

// A valid customer body, with optional members spliced in (", \"ssnLastFour\": \"1234\"").
std::string customer_json(std::string_view external_id, std::string_view extra = {},
                          std::string_view phone = "+13125550123", std::string_view state = "IL",
                          std::string_view zip = "60601");

// A valid collections customer.
std::string collections_customer_json(std::string_view external_id);

// A fixed instant inside respectful hours in Chicago (09:00 CST): 2026-11-20T15:00:00Z.
collectcall::server::Time frozen_time(std::string_view rfc3339 = "2026-11-20T15:00:00Z");

// The plan of a call that compliance let through: a call to `stored` at `at` by `agent`, with a
// passing decision, as the calls handler makes one. For seeding a store's history directly.
collectcall::server::CallPlan placed_call_plan(const collectcall::server::StoredCustomer& stored,
                                               std::string_view agent,
                                               collectcall::server::Time at);

// How long a request the server should answer at once may take while it is under attack, in a
// test: ten times and more what such an answer takes on a loaded 2-core machine (a few hundred
// ms at worst), and far below the timeouts an attack that held a worker would wait for (the
// 30 s write timeout, a stalled body's read timeout). A test compares against it, never against
// a figure a busy machine can cross.
inline constexpr std::chrono::milliseconds liveness_bound{5000};

// GET /healthz on a new connection to 127.0.0.1:`port`: how long the answer took (an hour when
// it failed or took over twice liveness_bound).
std::chrono::milliseconds probe(int port);

bool is_uuid_v4(std::string_view text);
// A version 7 UUID (time-ordered, RFC 9562) whose Unix milliseconds are within a minute of this
// machine's clock.
bool is_recent_uuid_v7(std::string_view text);
// Whether the ids, made one after the other a few milliseconds apart, are each a recent
// time-ordered UUID (is_recent_uuid_v7) and sort strictly in the order they were made.
bool is_time_ordered(const std::vector<std::string>& ids);

// A response read off a raw socket: status, headers (names lowercased) and body.
struct RawResponse {
    int status = 0;
    std::map<std::string, std::string> headers;
    std::string body;

    [[nodiscard]] std::string header(const std::string& lowercase_name) const {
        const auto it = headers.find(lowercase_name);
        return it == headers.end() ? std::string() : it->second;
    }
};

// A TCP connection to the server that sends exactly the bytes it is given: for what an HTTP
// client library would not send (chunked bodies, broken framing, huge headers).
class RawConnection {
  public:
    // receive_buffer: SO_RCVBUF in bytes, set before connecting (0: the system's); a small one
    // makes a client that does not read fill its side of the connection quickly.
    explicit RawConnection(int port, int receive_buffer = 0);
    ~RawConnection();
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    // False when the peer closed or reset the connection.
    bool send(std::string_view bytes);
    // Reads one response (Content-Length framed); nullopt when the connection ends first.
    std::optional<RawResponse> receive(
        std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Ends the client's sending side (a FIN): the server reads the end of its input.
    void finish_sending();
    // True when the server closed the connection (read returns 0) within the timeout.
    bool closed_by_peer(std::chrono::milliseconds timeout = std::chrono::seconds(10));

  private:
    int fd_ = -1;
    std::string buffer_;
};

}  // namespace test
