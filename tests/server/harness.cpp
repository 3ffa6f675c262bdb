#include "harness.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>

#include "crypto.hpp"
#include "postgres/postgres.hpp"
#include "sqlite/sqlite.hpp"
#include "sqlite/sqlite_store.hpp"

extern char** environ;

namespace test {

using namespace collectcall::server;

TempDir::TempDir() {
    std::random_device random;
    const fs::path base = fs::temp_directory_path();
    for (int attempt = 0; attempt < 100; ++attempt) {
        fs::path candidate = base / ("collectcall-server-test-" + std::to_string(random()));
        if (fs::create_directory(candidate)) {
            path_ = candidate;
            return;
        }
    }
    throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

// --- Database ----------------------------------------------------------------------------------

bool on_postgres() {
    const char* store = std::getenv("COLLECTCALL_TEST_STORE");
    return store != nullptr && std::string_view(store) == "postgres";
}

namespace {

std::string test_pg_uri() {
    const char* uri = std::getenv("COLLECTCALL_TEST_PG_URI");
    if (uri == nullptr || *uri == '\0') {
        throw std::runtime_error("COLLECTCALL_TEST_PG_URI is not set");
    }
    return uri;
}

}  // namespace

std::optional<int> store_preflight() {
    if (!on_postgres()) return std::nullopt;
    const char* ci = std::getenv("CI");
    const char* require = std::getenv("COLLECTCALL_REQUIRE_PG");
    const bool required = (ci != nullptr && *ci != '\0' && std::string_view(ci) != "0") ||
                          (require != nullptr && std::string_view(require) == "1");
    std::string problem;
    const char* uri = std::getenv("COLLECTCALL_TEST_PG_URI");
    if (uri == nullptr || *uri == '\0') {
        problem =
            "COLLECTCALL_TEST_PG_URI is not set (tools/test.sh starts a throwaway cluster "
            "when PostgreSQL 15 is installed)";
    } else {
        try {
            pg::Connection probe(uri);
            (void)probe.run("SELECT 1");
        } catch (const std::exception& e) {
            problem = std::string("cannot use COLLECTCALL_TEST_PG_URI: ") + e.what();
        }
    }
    if (problem.empty()) return std::nullopt;
    if (required) {
        std::cerr << "FAILED: this run of the suite is on PostgreSQL, and " << problem << "\n";
        return 1;
    }
    std::cerr << "SKIPPED: this run of the suite is on PostgreSQL, and " << problem << "\n";
    return 77;
}

Database::Database() {
    if (!on_postgres()) {
        uri_ = dir_.file("test.db");
        return;
    }
    std::array<unsigned char, 8> bytes{};
    random_bytes(bytes);
    schema_ = "test_" + hex_encode(bytes);
    const std::string base = test_pg_uri();
    pg::Connection(base).run("CREATE SCHEMA " + schema_);
    uri_ = base + (base.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
           schema_;
}

Database::~Database() {
    if (schema_.empty()) return;
    try {
        pg::Connection(test_pg_uri()).run("DROP SCHEMA " + schema_ + " CASCADE");
    } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): the cluster is thrown away
    }
}

std::vector<std::vector<std::string>> Database::rows(const std::string& sql) const {
    std::vector<std::vector<std::string>> rows;
    if (postgres()) {
        pg::Connection db(uri_);
        const pg::Result r = db.run(sql);
        for (int i = 0; i < r.rows(); ++i) {
            auto& row = rows.emplace_back();
            for (int c = 0; c < r.columns(); ++c)
                row.emplace_back(r.text(i, c));
        }
        return rows;
    }
    sqlite::Connection db(uri_, false, 5000);
    sqlite::Query q(db, sql.c_str());
    while (q.step()) {
        auto& row = rows.emplace_back();
        for (int c = 0; c < q.columns(); ++c)
            row.emplace_back(q.is_null(c) ? std::string_view() : q.text(c));
    }
    return rows;
}

// --- Reply -------------------------------------------------------------------------------------

std::string Reply::header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
}

bool Reply::has(std::string_view pointer) const {
    if (!parsed) return false;
    simdjson::dom::element e;
    return json.at_pointer(pointer).get(e) == simdjson::SUCCESS;
}

simdjson::dom::element Reply::at(std::string_view pointer) const {
    if (!parsed) throw std::runtime_error("reply is not JSON: " + body);
    simdjson::dom::element e;
    if (json.at_pointer(pointer).get(e) != simdjson::SUCCESS) {
        throw std::runtime_error("no " + std::string(pointer) + " in " + body);
    }
    return e;
}

std::string Reply::str(std::string_view pointer) const {
    std::string_view s;
    if (at(pointer).get_string().get(s) != simdjson::SUCCESS) {
        throw std::runtime_error(std::string(pointer) + " is not a string in " + body);
    }
    return std::string(s);
}

std::int64_t Reply::integer(std::string_view pointer) const {
    std::int64_t v = 0;
    if (at(pointer).get_int64().get(v) != simdjson::SUCCESS) {
        throw std::runtime_error(std::string(pointer) + " is not an integer in " + body);
    }
    return v;
}

bool Reply::boolean(std::string_view pointer) const {
    bool v = false;
    if (at(pointer).get_bool().get(v) != simdjson::SUCCESS) {
        throw std::runtime_error(std::string(pointer) + " is not a boolean in " + body);
    }
    return v;
}

bool Reply::is_null(std::string_view pointer) const {
    return at(pointer).is_null();
}

std::size_t Reply::size(std::string_view pointer) const {
    simdjson::dom::array a;
    if (at(pointer).get_array().get(a) != simdjson::SUCCESS) {
        throw std::runtime_error(std::string(pointer) + " is not an array in " + body);
    }
    return a.size();
}

std::string Reply::raw(std::string_view pointer) const {
    return simdjson::minify(at(pointer));
}

Reply parse(const std::string& json) {
    Reply r;
    r.body = json;
    r.parser = std::make_shared<simdjson::dom::parser>();
    r.parsed = r.parser->parse(r.body).get(r.json) == simdjson::SUCCESS;
    return r;
}

Reply make_reply(const httplib::Result& result) {
    if (!result) {
        throw std::runtime_error("HTTP request failed: " + httplib::to_string(result.error()));
    }
    Reply reply;
    reply.status = result->status;
    reply.body = result->body;
    reply.headers = result->headers;
    reply.parser = std::make_shared<simdjson::dom::parser>();
    if (!reply.body.empty() &&
        reply.parser->parse(reply.body).get(reply.json) == simdjson::SUCCESS) {
        reply.parsed = true;
    }
    return reply;
}

// --- Recording for the conformance test --------------------------------------------------------

namespace {

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20 || byte >= 0x7F) {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\u00";
            out += hex[byte >> 4];
            out += hex[byte & 0xF];
        } else {
            out += c;
        }
    }
    return out + '"';
}

// The file of COLLECTCALL_TEST_RECORD, begun empty when the suite starts (a suite that got no
// JSON answer leaves it empty, not absent: server.conformance_recorded tells the two apart).
class Recording {
  public:
    Recording() : path_(std::getenv("COLLECTCALL_TEST_RECORD")) {
        if (!enabled()) return;
        if (!std::ofstream(path_, std::ios::trunc))
            throw std::runtime_error(std::string("cannot write ") + path_);
    }

    void write(const std::string& line) {
        if (!enabled()) return;
        std::lock_guard lock(mutex_);
        std::ofstream out(path_, std::ios::app);
        out << line << '\n';
        if (!out) throw std::runtime_error(std::string("cannot write ") + path_);
    }

  private:
    bool enabled() const { return path_ != nullptr && *path_ != '\0'; }

    const char* path_;
    std::mutex mutex_;
};

Recording recording;

void record_line(const std::string& line) {
    recording.write(line);
}

}  // namespace

void record_response(std::string_view method, std::string_view path, const Reply& reply) {
    // Only a JSON answer: simdjson has checked that it is JSON and valid UTF-8.
    if (!reply.parsed) return;
    record_line("{\"method\":" + json_string(method) + ",\"path\":" + json_string(path) +
                ",\"status\":" + std::to_string(reply.status) + ",\"body\":" + reply.body + "}");
}

void record_webhook(std::string_view body) {
    simdjson::dom::parser parser;
    simdjson::dom::element element;
    if (parser.parse(body.data(), body.size()).get(element) != simdjson::SUCCESS) return;
    record_line("{\"webhook\":" + std::string(body) + "}");
}

// --- Client ------------------------------------------------------------------------------------

Client::Client(std::string host, int port, std::string key)
    : host_(std::move(host)),
      port_(port),
      key_(std::move(key)),
      http_(std::make_shared<httplib::Client>(host_, port_)) {
    http_->set_connection_timeout(5);
    http_->set_read_timeout(30);
    http_->set_write_timeout(30);
}

httplib::Headers Client::headers(const httplib::Headers& extra) const {
    httplib::Headers h = extra;
    if (!key_.empty()) h.emplace("Authorization", "Bearer " + key_);
    return h;
}

namespace {

Reply recorded(std::string_view method, std::string_view path, Reply reply) {
    record_response(method, path, reply);
    return reply;
}

}  // namespace

Reply Client::get(const std::string& path, const httplib::Headers& extra) {
    return recorded("GET", path, make_reply(http_->Get(path.c_str(), headers(extra))));
}

Reply Client::post(const std::string& path, const std::string& body,
                   const std::string& content_type, const httplib::Headers& extra) {
    httplib::Headers h = headers(extra);
    // cpp-httplib's client sends a Content-Type only when given one; an empty type means none.
    if (content_type.empty()) {
        httplib::Request request;
        request.method = "POST";
        request.path = path;
        request.headers = h;
        request.body = body;
        if (!body.empty()) request.set_header("Content-Length", std::to_string(body.size()));
        return recorded("POST", path, make_reply(http_->send(request)));
    }
    return recorded("POST", path,
                    make_reply(http_->Post(path.c_str(), h, body, content_type.c_str())));
}

Reply Client::patch(const std::string& path, const std::string& body,
                    const std::string& content_type, const httplib::Headers& extra) {
    return recorded(
        "PATCH", path,
        make_reply(http_->Patch(path.c_str(), headers(extra), body, content_type.c_str())));
}

Reply Client::send(const std::string& method, const std::string& path, const std::string& body,
                   const httplib::Headers& extra) {
    httplib::Request request;
    request.method = method;
    request.path = path;
    request.headers = headers(extra);
    request.body = body;
    return recorded(method, path, make_reply(http_->send(request)));
}

// --- LocalServer -------------------------------------------------------------------------------

LocalServer::LocalServer(const Tweak& tweak,
                         std::function<std::unique_ptr<Store>(const std::string&)> make_store) {
    ServerOptions options;
    options.db_path = database_.uri();
    options.port = 0;
    options.threads = 24;
    options.api.access_log = false;
    options.api.allow_private_webhooks = true;
    // Bulk requests cost their items (API.md section 17): a test that sends many is not about
    // the rate limit, and one that is sets it.
    options.rate_limit = 0;
    if (tweak) tweak(options);
    std::unique_ptr<Store> store;
    if (make_store) store = make_store(database_.uri());
    server_ = std::make_unique<Server>(options, std::move(store));
    port_ = server_->bind();
    thread_ = std::thread([this] { server_->run(); });
}

LocalServer::~LocalServer() {
    server_->stop();
    thread_.join();
}

Account LocalServer::create_account(const std::string& name,
                                    std::vector<std::string> caller_numbers) {
    AccountSetup setup;
    setup.name = name;
    for (const std::string& n : caller_numbers) {
        setup.caller_numbers.push_back(collectcall::E164::parse(n).value());
    }
    setup.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    const Credentials c = store().create_credentials(setup, Clock().now());
    return Account{std::string(c.accountId.view()), c.apiKey, c.agentId};
}

// --- Child processes ---------------------------------------------------------------------------

namespace {

std::vector<char*> argv_of(std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    return argv;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

ChildServer::ChildServer(const std::string& db_path, std::vector<std::string> extra_args)
    : stderr_path_(dir_.file("stderr.txt")) {
    std::vector<std::string> args{
        COLLECTCALL_SERVER_BINARY, "serve", "--db", db_path, "--listen", "127.0.0.1:0"};
    // As LocalServer: no rate limit unless the test sets one.
    if (std::find(extra_args.begin(), extra_args.end(), "--rate-limit") == extra_args.end()) {
        args.push_back("--rate-limit");
        args.push_back("0");
    }
    for (std::string& a : extra_args)
        args.push_back(std::move(a));
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    auto argv = argv_of(args);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        throw std::runtime_error("cannot start " + args[0]);
    }
    // Read stdout up to the "listening on" line, which carries the port.
    std::string text;
    char buffer[512];
    const std::string marker = "listening on http://127.0.0.1:";
    while (true) {
        const ssize_t n = read(out[0], buffer, sizeof buffer);
        if (n <= 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        const auto at = text.find(marker);
        if (at != std::string::npos && text.find('\n', at) != std::string::npos) {
            banner_ = text.substr(0, at);
            port_ = std::atoi(text.c_str() + at + marker.size());
            break;
        }
    }
    close(out[0]);  // later output goes nowhere; the server ignores SIGPIPE
    if (port_ == 0) {
        wait(std::chrono::seconds(5));
        throw std::runtime_error("server did not start: " + text + error_output());
    }
}

ChildServer::~ChildServer() {
    if (!reaped_) {
        ::kill(pid_, SIGKILL);
        wait();
    }
}

void ChildServer::signal(int sig) const {
    ::kill(pid_, sig);
}

int ChildServer::wait(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (true) {
        const pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_) break;
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid_, SIGKILL);
            waitpid(pid_, &status, 0);
            reaped_ = true;
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    reaped_ = true;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

std::string ChildServer::error_output() const {
    return read_file(stderr_path_);
}

ProcessResult run_binary(const std::vector<std::string>& arguments) {
    std::vector<std::string> args{COLLECTCALL_SERVER_BINARY};
    for (const std::string& a : arguments)
        args.push_back(a);
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    auto argv = argv_of(args);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        throw std::runtime_error("cannot start " + args[0]);
    }
    ProcessResult result;
    char buffer[512];
    ssize_t n = 0;
    while ((n = read(out[0], buffer, sizeof buffer)) > 0) {
        result.out.append(buffer, static_cast<std::size_t>(n));
    }
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::chrono::milliseconds probe(int port) {
    const auto start = std::chrono::steady_clock::now();
    httplib::Client client("127.0.0.1", port);
    const auto timeout = std::chrono::duration_cast<std::chrono::seconds>(2 * liveness_bound);
    client.set_connection_timeout(timeout.count());
    client.set_read_timeout(timeout.count());
    const auto result = client.Get("/healthz");
    if (!result || result->status != 200) return std::chrono::hours(1);
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start);
}

// --- Bodies ------------------------------------------------------------------------------------

std::string customer_json(std::string_view external_id, std::string_view extra,
                          std::string_view phone, std::string_view state, std::string_view zip) {
    std::string s = R"({"externalId":")";
    s += external_id;
    s += R"(","firstName":"Ann","lastName":"Lee","email":"ann@example.com","primaryPhone":")";
    s += phone;
    s += R"(","address":{"line1":"1 Main St","city":"Springfield","state":")";
    s += state;
    s += R"(","zip":")";
    s += zip;
    s += R"("})";
    s += extra;
    s += '}';
    return s;
}

std::string collections_customer_json(std::string_view external_id) {
    return customer_json(external_id,
                         R"(,"ssnLastFour":"1234","dateOfBirth":"1980-02-29",)"
                         R"("collections":{"totalBalance":1234.56,"principalBalance":1000,)"
                         R"("originalCreditor":"Bank"})");
}

Time frozen_time(std::string_view rfc3339) {
    return collectcall::Timestamp::parse(rfc3339).value().time();
}

CallPlan placed_call_plan(const StoredCustomer& stored, std::string_view agent, Time at) {
    CallPlan p;
    p.place = true;
    p.call.id = new_uuid();
    p.call.threadId = stored.thread_id;
    p.call.toPhoneNumber = stored.customer.primaryPhone;
    p.call.fromPhoneNumber = collectcall::E164::parse("+12025550100").value();
    p.call.compliance.passed = true;
    p.call.createdAt = collectcall::Timestamp::from_time(at);
    p.agent_id = std::string(agent);
    p.decision.at = p.call.createdAt;
    p.decision.compliance.passed = true;
    p.decision.nextEligibleAt = p.call.createdAt;
    return p;
}

bool is_uuid_v4(std::string_view text) {
    auto parsed = collectcall::Uuid::parse(text);
    return parsed && text.size() == 36 && text[14] == '4' &&
           std::string_view("89ab").find(text[19]) != std::string_view::npos &&
           parsed.value().view() == text;
}

bool is_recent_uuid_v7(std::string_view text) {
    auto parsed = collectcall::Uuid::parse(text);
    if (!parsed || text.size() != 36 || text[14] != '7' ||
        std::string_view("89ab").find(text[19]) == std::string_view::npos ||
        parsed.value().view() != text) {
        return false;
    }
    std::int64_t ms = 0;
    for (std::size_t i = 0; i < 6; ++i)
        ms = ms << 8 | parsed.value().bytes()[i];
    const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
    return ms <= now && now - ms < 60'000;
}

bool is_time_ordered(const std::vector<std::string>& ids) {
    return std::all_of(ids.begin(), ids.end(),
                       [](const std::string& id) { return is_recent_uuid_v7(id); }) &&
           std::adjacent_find(ids.begin(), ids.end(), std::greater_equal<>()) == ids.end();
}

// --- Raw connections ---------------------------------------------------------------------------

RawConnection::RawConnection(int port, int receive_buffer) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ >= 0 && receive_buffer > 0)
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        throw std::runtime_error("cannot connect to the server");
    }
}

RawConnection::~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::send(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

namespace {

// Reads more into `buffer`; false on end of stream, error or timeout.
bool read_more(int fd, std::string& buffer, std::chrono::steady_clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char chunk[65536];
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
}

}  // namespace

std::optional<RawResponse> RawConnection::receive(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::size_t end = 0;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!read_more(fd_, buffer_, deadline)) return std::nullopt;
    }
    RawResponse response;
    std::istringstream head(buffer_.substr(0, end));
    std::string line;
    std::getline(head, line);
    if (line.size() < 12) return std::nullopt;
    response.status = std::atoi(line.c_str() + 9);
    while (std::getline(head, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        for (char& c : name)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ')
            value.erase(0, 1);
        response.headers[name] = value;
    }
    buffer_.erase(0, end + 4);
    const std::size_t length =
        response.headers.count("content-length") != 0
            ? static_cast<std::size_t>(std::stoull(response.headers["content-length"]))
            : 0;
    while (buffer_.size() < length) {
        if (!read_more(fd_, buffer_, deadline)) return std::nullopt;
    }
    response.body = buffer_.substr(0, length);
    buffer_.erase(0, length);
    return response;
}

void RawConnection::finish_sending() {
    ::shutdown(fd_, SHUT_WR);
}

bool RawConnection::closed_by_peer(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
        char chunk[65536];
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) return true;
    }
}

}  // namespace test
