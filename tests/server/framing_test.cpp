// The HTTP framing of requests (docs/server.md, "HTTP"): one parse of each request's head, whose
// verdict every later step uses, so that the same bytes get the same answer however TCP splits
// them; Host (RFC 9112 section 3.2); chunked trailers (section 7.1.2); routing on the path's
// segments as sent; header values as sent.
#include <brotli/decode.h>
#include <brotli/encode.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <collectcall/api/openapi.hpp>

#include "harness.hpp"
#include "http.hpp"
#include "request_reader.hpp"

using namespace test;
using collectcall::server::ServerOptions;

namespace {

// Sends `parts` on one connection, pausing between them so that the server reads each on its
// own, then reads everything the server sends until it closes. The client keeps its own side
// open unless `end_side` (a client that ends its side has gone: its requests are not processed,
// only a head the parser refused is still answered; docs/security.md); the servers of these
// tests end a connection as soon as it is idle (idle_closes).
std::string exchange(int port, const std::vector<std::string_view>& parts, bool end_side = false,
                     std::chrono::milliseconds pause = std::chrono::milliseconds(40)) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) std::this_thread::sleep_for(pause);
        std::string_view rest = parts[i];
        while (!rest.empty()) {
            const ssize_t n = ::send(fd, rest.data(), rest.size(), MSG_NOSIGNAL);
            if (n <= 0) break;  // the server closed: what it answered is still read
            rest.remove_prefix(static_cast<std::size_t>(n));
        }
    }
    if (end_side) ::shutdown(fd, SHUT_WR);
    std::string received;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 200) <= 0) continue;
        char buffer[16384];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        received.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return received;
}

// The final statuses of the responses in `received`, in order (an interim 100 Continue is not
// an answer).
std::vector<int> statuses(std::string_view received) {
    std::vector<int> found;
    for (std::size_t at = received.find("HTTP/1.1 "); at != std::string_view::npos;
         at = received.find("HTTP/1.1 ", at + 1)) {
        if (at + 12 > received.size()) break;
        const int status = std::atoi(std::string(received.substr(at + 9, 3)).c_str());
        if (status >= 200) found.push_back(status);
    }
    return found;
}

std::vector<int> statuses_of(int port, const std::vector<std::string_view>& parts) {
    return statuses(exchange(port, parts));
}

// The same, the client ending its side after the parts.
std::vector<int> statuses_at_end(int port, const std::vector<std::string_view>& parts) {
    return statuses(exchange(port, parts, true));
}

std::string post(std::string_view target, std::string_view key, std::string_view body,
                 std::string_view extra = {}) {
    std::string request = "POST ";
    request += target;
    request += " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ";
    request += key;
    request += "\r\nContent-Type: application/json\r\n";
    request += extra;
    request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    request += body;
    return request;
}

// The same bytes once whole and once with the head and the body apart: the same statuses,
// which are `expected`.
void same_either_way(int port, const std::string& head, const std::string& body, int expected) {
    const auto whole = statuses_of(port, {head + body});
    const auto split = statuses_of(port, {head, body});
    INFO(head);
    CHECK(whole == std::vector<int>{expected});
    CHECK(split == std::vector<int>{expected});
}

// A server that closes a connection once it has answered all it was sent: no keep-alive wait.
// A head still unfinished is given up after a second.
void idle_closes(ServerOptions& options) {
    options.keep_alive_timeout = std::chrono::seconds(0);
    options.read_timeout = std::chrono::seconds(1);
}

}  // namespace

TEST_CASE("an HTTP/1.1 request has exactly one Host; HTTP/1.0 may have none", "[http][framing]") {
    LocalServer server(idle_closes);
    const Account acme = server.create_account("acme");
    CHECK(statuses_of(server.port(), {"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"}) ==
          std::vector<int>{200});
    CHECK(statuses_of(server.port(), {"GET /healthz HTTP/1.1\r\n\r\n"}) == std::vector<int>{400});
    CHECK(statuses_of(server.port(), {"GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"}) ==
          std::vector<int>{400});
    CHECK(statuses_of(server.port(), {"GET /healthz HTTP/1.1\r\nHost: x\r\nhost: x\r\n\r\n"}) ==
          std::vector<int>{400});
    CHECK(statuses_of(server.port(), {"GET /healthz HTTP/1.0\r\n\r\n"}) == std::vector<int>{200});
    // The refusal is the envelope, and the connection ends with it.
    RawConnection raw(server.port());
    REQUIRE(raw.send("GET /api/v1/customers?externalId=x HTTP/1.1\r\nAuthorization: Bearer " +
                     acme.key + "\r\n\r\n"));
    const auto response = raw.receive();
    REQUIRE(response);
    CHECK(response->status == 400);
    CHECK(response->body.find("\"bad_request\"") != std::string::npos);
    CHECK(response->body.find("Host") != std::string::npos);
    CHECK(response->header("connection") == "close");
    CHECK(raw.closed_by_peer());
}

TEST_CASE("a chunked body's trailer fields are accepted and ignored", "[http][framing]") {
    LocalServer server(idle_closes);
    const Account acme = server.create_account("acme");
    const std::string head =
        "POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + acme.key +
        "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        "Trailer: X-Checksum, X-Other\r\n\r\n";
    const auto chunked = [](const std::string& body, std::string_view trailer) {
        char size[16];
        std::snprintf(size, sizeof size, "%zx\r\n", body.size());
        return std::string(size) + body + "\r\n0\r\n" + std::string(trailer) + "\r\n";
    };
    const std::string next = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    const std::string trailer = "X-Checksum: 1234\r\nX-Other: a, b\r\n";
    // Served, and the request after it on the connection too, whole or split.
    CHECK(statuses_of(server.port(), {head + chunked(customer_json("trailer-1"), trailer) +
                                      next}) == std::vector<int>{200, 200});
    CHECK(statuses_of(server.port(), {head, chunked(customer_json("trailer-2"), trailer) + next}) ==
          std::vector<int>{200, 200});
    Client client = server.client(acme);
    CHECK(client.get("/api/v1/customers?externalId=trailer-1").size("/data/customers") == 1);
    CHECK(client.get("/api/v1/customers?externalId=trailer-2").size("/data/customers") == 1);
    // A trailer cannot frame the message: a Content-Length there is broken framing.
    CHECK(statuses_of(server.port(),
                      {head + chunked(customer_json("trailer-3"), "Content-Length: 5\r\n")}) ==
          std::vector<int>{400});
    CHECK(client.get("/api/v1/customers?externalId=trailer-3").size("/data/customers") == 0);
}

TEST_CASE("the same bytes get the same answer however they are split", "[http][framing]") {
    LocalServer server(idle_closes);
    const Account acme = server.create_account("acme");
    const int port = server.port();
    const std::string body = customer_json("split-1");
    const std::string length = "Content-Length: " + std::to_string(body.size()) + "\r\n";
    // Two spaces after the method: not a request line (400).
    same_either_way(port,
                    "POST  /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                        acme.key + "\r\nContent-Type: application/json\r\n" + length + "\r\n",
                    body, 400);
    // An empty Authorization line before a valid one: two Authorization fields (401).
    same_either_way(port,
                    "POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization:\r\n"
                    "Authorization: Bearer " +
                        acme.key + "\r\nContent-Type: application/json\r\n" + length + "\r\n",
                    body, 401);
    CHECK(server.client(acme).get("/api/v1/customers?externalId=split-1").size("/data/customers") ==
          0);
    // Other field shapes the parser refuses or takes, around a body (on a request that changes
    // nothing: the customer does not exist, 404 when the head is taken).
    // A head that stops after complete lines, whole or in pieces: 400 when the client ends.
    const std::string unfinished = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n";
    CHECK(statuses_at_end(port, {unfinished}) == std::vector<int>{400});
    CHECK(statuses_at_end(port, {unfinished.substr(0, 23), unfinished.substr(23)}) ==
          std::vector<int>{400});
    // The end comes later, after a head's whole lines (the parser takes a request line at once).
    CHECK(statuses_at_end(port, {unfinished, ""}) == std::vector<int>{400});
    CHECK(statuses_at_end(port, {"GET /healthz HTTP/1.1\r\n", ""}) == std::vector<int>{400});
    const std::vector<std::pair<std::string, int>> fields{
        {"X-No-Colon\r\n", 400},
        {"X-Space : a\r\n", 400},
        {"X-Control: a\x01b\r\n", 400},
        {"X-Fold: a\r\n b\r\n", 404},
        {"X-Empty:\r\n", 404},
        {"X-Percent: %41\r\n", 404},
        {"Authorization: Bearer  " + acme.key + "\r\n", 401},
        {"Content-Length: 2\r\n", 400},
        {"Transfer-Encoding: chunked\r\n", 400}};
    for (const auto& [field, expected] : fields) {
        same_either_way(port,
                        "POST /api/v1/customers/0190b2f4-0000-7000-8000-000000000009/"
                        "cease-and-desist HTTP/1.1\r\nHost: x\r\n" +
                            field + "Authorization: Bearer " + acme.key +
                            "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n",
                        "{}", expected);
    }
}

// After an answer, a worker reads the connection's next request itself when it comes at once
// (HttpServer::keep_reading), else the event loop does: the same answers either way, whatever
// comes next and however it is split.
TEST_CASE("what follows an answer at once is read like what follows it later", "[http][framing]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    RawConnection connection(server.port());
    const std::string health = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    const auto answered = [&](std::string_view bytes) {
        REQUIRE(connection.send(bytes));
        const auto response = connection.receive();
        REQUIRE(response);
        return *response;
    };
    CHECK(answered(health).status == 200);
    // A head in two parts, the second after the worker's wait is over.
    REQUIRE(connection.send(health.substr(0, 20)));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(answered(health.substr(20)).status == 200);
    // A body larger than one read of the worker's: the event loop reads the rest.
    std::string bulk = R"({"customers":[)";
    constexpr int items = 150;
    for (int i = 0; i < items; ++i)
        bulk += (i == 0 ? "" : ",") + customer_json("follow-" + std::to_string(i));
    bulk += "]}";
    REQUIRE(bulk.size() > std::size_t{16} << 10);
    const RawResponse stored = answered(post("/api/v1/customers/bulk", acme.key, bulk));
    CHECK(stored.status == 200);
    const Reply results = parse(stored.body);
    REQUIRE(results.size("/data/results") == items);
    for (int i = 0; i < items; ++i)
        CHECK(results.boolean("/data/results/" + std::to_string(i) + "/success"));
    // A body that waits for 100 Continue.
    const std::string body = customer_json("follow-continue");
    const std::string head = post("/api/v1/customers", acme.key, "", "Expect: 100-continue\r\n");
    const std::string expecting = head.substr(0, head.find("Content-Length")) +
                                  "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    CHECK(answered(expecting).status == 100);
    CHECK(answered(body).status == 200);
    // The client's end of input, right after an answer: the server closes too.
    CHECK(answered(health).status == 200);
    connection.finish_sending();
    CHECK(connection.closed_by_peer());
    CHECK(server.client(acme)
              .get("/api/v1/customers?externalId=follow-continue")
              .size("/data/customers") == 1);
}

TEST_CASE("every request of the fuzz corpus gets the same statuses whole and split",
          "[http][framing]") {
    // Two servers set up alike (the fuzz target's fixture: a frozen clock at noon in New York,
    // one account, one customer there): one is sent each input whole, the other the same input
    // split at a random byte; the inputs go in the same order to both, so both stores see the
    // same writes.
    ::setenv("RES_OPTIONS", "timeout:1 attempts:1", 0);
    const auto tweak = [](ServerOptions& o) {
        idle_closes(o);
        o.now = frozen_time("2026-11-20T17:00:00Z");
        o.rate_limit = 0;
        o.call_step_ms = 24 * 60 * 60 * 1000;
        o.api.access_log = false;
    };
    struct Side {
        std::unique_ptr<LocalServer> server;
        Account account;
        std::string customer;
    };
    std::vector<Side> sides;
    for (int i = 0; i < 2; ++i) {
        Side side{std::make_unique<LocalServer>(tweak), {}, {}};
        side.account = side.server->create_account("fuzz", {"+12125550100"});
        const Reply created = side.server->client(side.account)
                                  .post("/api/v1/customers",
                                        customer_json("fuzz-1", {}, "+12125550123", "NY", "10001"));
        REQUIRE(created.status == 200);
        side.customer = created.str("/data/id");
        sides.push_back(std::move(side));
    }
    const auto fill = [](std::string text, const Side& side) {
        const std::pair<std::string_view, std::string> placeholders[] = {
            {"@KEY@", side.account.key}, {"@ID@", side.customer}, {"@AGENT@", side.account.agent}};
        for (const auto& [from, to] : placeholders) {
            for (std::size_t at = text.find(from); at != std::string::npos;
                 at = text.find(from, at + to.size()))
                text.replace(at, from.size(), to);
        }
        return text;
    };

    std::vector<std::filesystem::path> inputs;
    for (const auto& entry : std::filesystem::directory_iterator(COLLECTCALL_FUZZ_SERVER_CORPUS))
        inputs.push_back(entry.path());
    std::sort(inputs.begin(), inputs.end());
    REQUIRE(inputs.size() >= 50);

    const unsigned seed = std::random_device{}();
    std::mt19937 random(seed);
    INFO("random seed " << seed);
    for (const auto& path : inputs) {
        std::ifstream file(path, std::ios::binary);
        const std::string input((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
        if (input.size() < 2) continue;
        const std::string whole = fill(input, sides[0]);
        const std::string split = fill(input, sides[1]);
        const std::size_t at =
            std::uniform_int_distribution<std::size_t>(1, split.size() - 1)(random);
        const auto whole_statuses = statuses_of(sides[0].server->port(), {whole});
        const auto split_statuses = statuses_of(
            sides[1].server->port(),
            {std::string_view(split).substr(0, at), std::string_view(split).substr(at)});
        INFO(path.filename().string() << " split at byte " << at << " of " << split.size());
        // Every answer given is the same. A request answered from its head alone (no route, a
        // refused key, a body over its limit) ends its connection, since its body is never
        // read: when that head arrives without its body, the requests pipelined after it are
        // not answered, so the split connection may end sooner, never differently.
        // An input that ends in the middle of a request (it is complete only at the end of the
        // stream, which this client does not send) gets the answers before it, whole or split.
        const std::size_t common = std::min(whole_statuses.size(), split_statuses.size());
        CHECK(std::equal(whole_statuses.begin(), whole_statuses.begin() + common,
                         split_statuses.begin()));
    }
}

TEST_CASE("an encoded '/' never separates path segments", "[http][framing]") {
    LocalServer server([](ServerOptions& o) {
        idle_closes(o);
        o.now = frozen_time("2026-11-20T15:00:00Z");
    });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string id =
        client.post("/api/v1/customers", customer_json("slash-1")).str("/data/id");
    const std::string call = R"({"agentId":")" + acme.agent + R"("})";

    const auto raw_post = [&](const std::string& target, const std::string& body) {
        RawConnection raw(server.port());
        REQUIRE(raw.send(post(target, acme.key, body)));
        const auto response = raw.receive();
        REQUIRE(response);
        return *response;
    };
    for (const std::string& target :
         {"/api/v1/customers/" + id + "%2Fcalls", "/api/v1/customers/" + id + "%2fcalls",
          "/api%2Fv1%2Fcustomers%2F" + id + "%2Fcalls"}) {
        INFO(target);
        const RawResponse response = raw_post(target, call);
        CHECK(response.status == 404);
        CHECK(response.body.find("\"not_found\"") != std::string::npos);
    }
    CHECK(client.get("/api/v1/customers/" + id + "/calls").size("/data/calls") == 0);

    for (const std::string& target : {"/api/v1/customers/" + id + "%2fcease-and-desist",
                                      "/api/v1/customers/" + id + "%2Fcease-and-desist"}) {
        INFO(target);
        CHECK(raw_post(target, "").status == 404);
    }
    // Nothing changed: the customer is not ceased, so a call is placed now, the first.
    CHECK(client.post("/api/v1/customers/" + id + "/calls", call).status == 200);
    CHECK(client.get("/api/v1/customers/" + id + "/calls").size("/data/calls") == 1);
}

TEST_CASE("Idempotency-Key values are compared as sent", "[http][framing]") {
    LocalServer server(idle_closes);
    const Account acme = server.create_account("acme");
    const auto send = [&](std::string_view key, const std::string& body) {
        RawConnection raw(server.port());
        REQUIRE(raw.send(post("/api/v1/customers", acme.key, body,
                              "Idempotency-Key:  " + std::string(key) + " \r\n")));
        const auto response = raw.receive();
        REQUIRE(response);
        return *response;
    };
    // k%41 and kA are two keys: two customers, each created once.
    const RawResponse first = send("k%41", customer_json("idem-1"));
    const RawResponse second = send("kA", customer_json("idem-2"));
    CHECK(first.status == 200);
    CHECK(second.status == 200);
    CHECK(second.header("idempotent-replayed").empty());
    // The same key with the same body replays (the white space around the value is not the
    // key's); with another body it is a key reused.
    const RawResponse again = send("k%41", customer_json("idem-1"));
    CHECK(again.status == 200);
    CHECK(again.header("idempotent-replayed") == "true");
    CHECK(again.header("x-request-id") == first.header("x-request-id"));
    CHECK(send("k%41", customer_json("idem-3")).status == 422);
    CHECK(send("k%2541", customer_json("idem-4")).status == 200);
}

namespace {

// One response of a raw exchange: its status line, header lines and body, the body framed by
// Content-Length (none after a HEAD).
struct Written {
    int status = 0;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;

    [[nodiscard]] std::size_t count(std::string_view name) const {
        return static_cast<std::size_t>(
            std::count_if(headers.begin(), headers.end(), [&](const auto& header) {
                return collectcall::server::http::iequals(header.first, name);
            }));
    }
    [[nodiscard]] std::string header(std::string_view name) const {
        for (const auto& [n, v] : headers) {
            if (collectcall::server::http::iequals(n, name)) return v;
        }
        return {};
    }
};

// The responses in `received`, in order; `head[i]` says that the i-th answers a HEAD.
std::vector<Written> responses(std::string_view received, const std::vector<bool>& head) {
    std::vector<Written> found;
    while (!received.empty() && found.size() < head.size()) {
        const std::size_t end = received.find("\r\n\r\n");
        REQUIRE(end != std::string_view::npos);
        std::string_view lines = received.substr(0, end + 2);
        received.remove_prefix(end + 4);
        Written w;
        REQUIRE(lines.rfind("HTTP/1.1 ", 0) == 0);
        w.status = std::atoi(std::string(lines.substr(9, 3)).c_str());
        lines.remove_prefix(lines.find("\r\n") + 2);
        while (!lines.empty()) {
            const std::size_t line_end = lines.find("\r\n");
            const std::string_view line = lines.substr(0, line_end);
            lines.remove_prefix(line_end + 2);
            const std::size_t colon = line.find(": ");
            REQUIRE(colon != std::string_view::npos);
            w.headers.emplace_back(line.substr(0, colon), line.substr(colon + 2));
        }
        REQUIRE(w.count("Content-Length") == 1);
        if (!head[found.size()]) {
            const auto length = static_cast<std::size_t>(std::stoull(w.header("Content-Length")));
            REQUIRE(received.size() >= length);
            w.body = received.substr(0, length);
            received.remove_prefix(length);
        }
        found.push_back(std::move(w));
    }
    CHECK(received.empty());
    return found;
}

std::string get(std::string_view method, std::string_view target, std::string_view key,
                std::string_view extra = {}) {
    std::string request(method);
    request += ' ';
    request += target;
    request += " HTTP/1.1\r\nHost: x\r\n";
    if (!key.empty()) request += "Authorization: Bearer " + std::string(key) + "\r\n";
    request += extra;
    request += "\r\n";
    return request;
}

std::string gzip_of(std::string_view text, int window_bits) {
    z_stream stream{};
    REQUIRE(deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, window_bits, 9,
                         Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

std::string inflated(std::string_view coded) {
    z_stream stream{};
    REQUIRE(inflateInit2(&stream, 15 + 32) == Z_OK);
    std::string out(std::size_t{1} << 20, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(coded.data()));
    stream.avail_in = static_cast<uInt>(coded.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    CHECK(inflate(&stream, Z_FINISH) == Z_STREAM_END);
    out.resize(stream.total_out);
    inflateEnd(&stream);
    return out;
}

std::string brotli_of(std::string_view text) {
    std::string out(BrotliEncoderMaxCompressedSize(text.size()), '\0');
    std::size_t size = out.size();
    REQUIRE(BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW,
                                  BROTLI_MODE_GENERIC, text.size(),
                                  reinterpret_cast<const std::uint8_t*>(text.data()), &size,
                                  reinterpret_cast<std::uint8_t*>(out.data())) == BROTLI_TRUE);
    out.resize(size);
    return out;
}

}  // namespace

TEST_CASE("every answer is framed by Content-Length; HEAD gets GET's head alone",
          "[http][framing][answers]") {
    LocalServer server(idle_closes);
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string id =
        client.post("/api/v1/customers", customer_json("head-1")).str("/data/id");
    const std::string path = "/api/v1/customers/" + id;
    const std::string ask_get = get("GET", path, acme.key);
    const std::string ask_head = get("HEAD", path, acme.key);
    // A document sent by reference (the OpenAPI document), by GET and by HEAD.
    const std::string openapi = "/api/v1/openapi.json";
    const auto received = responses(
        exchange(server.port(),
                 {ask_get + ask_head + get("GET", openapi, "") + get("HEAD", openapi, "") +
                  get("GET", "/nowhere", "") +
                  get("DELETE", "/api/v1/customers", acme.key, "Connection: close\r\n") + ask_get}),
        {false, true, false, true, false, false, false});
    REQUIRE(received.size() == 6);  // nothing after the request that asked to close
    const Written& got = received[0];
    const Written& head = received[1];
    CHECK(got.status == 200);
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    // HEAD's head is GET's: its type, its length (the request ids differ, not their lengths).
    CHECK(head.header("Content-Length") == std::to_string(got.body.size()));
    CHECK(head.header("Content-Type") == got.header("Content-Type"));
    CHECK(got.header("Content-Type") == "application/json");
    CHECK(got.body.find("\"externalId\":\"head-1\"") != std::string::npos);
    CHECK(received[2].status == 200);
    CHECK(received[2].header("Content-Length") == std::to_string(received[2].body.size()));
    CHECK(received[2].body == collectcall::openapi());
    CHECK(received[3].header("Content-Length") == std::to_string(received[2].body.size()));
    // An unknown route and a known one with another method: the envelope, Allow with the 405.
    CHECK(received[4].status == 404);
    CHECK(parse(received[4].body).error_code() == "not_found");
    CHECK(received[5].status == 405);
    CHECK(received[5].header("Allow") == "POST, GET, HEAD");
    CHECK(parse(received[5].body).error_code() == "method_not_allowed");
    for (std::size_t i = 0; i < received.size(); ++i) {
        const Written& w = received[i];
        INFO(i);
        CHECK(w.count("X-Request-Id") == 1);
        CHECK(w.header("Cache-Control") == "no-store");
        CHECK(w.header("X-Content-Type-Options") == "nosniff");
        CHECK(w.header("Accept-Ranges") == "none");
        CHECK(w.count("Transfer-Encoding") == 0);
        if (i + 1 < received.size()) {
            // Kept alive: it says for how long and for how many requests.
            CHECK(w.count("Connection") == 0);
            CHECK(w.header("Keep-Alive") == "timeout=0, max=1000");
        } else {
            CHECK(w.header("Connection") == "close");
            CHECK(w.count("Keep-Alive") == 0);
        }
    }
    // HTTP/1.0 ends the connection unless it asks for keep-alive.
    const auto old = responses(
        exchange(server.port(), {"GET /healthz HTTP/1.0\r\n\r\n" + get("GET", "/healthz", "")}),
        {false, false});
    REQUIRE(old.size() == 1);
    CHECK(old[0].header("Connection") == "close");
    const auto kept = responses(
        exchange(server.port(), {"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" +
                                 get("GET", "/healthz", "", "Connection: close\r\n")}),
        {false, false});
    CHECK(kept.size() == 2);
}

TEST_CASE("Range is ignored when it can be read, 416 when it cannot", "[http][framing][answers]") {
    LocalServer server(idle_closes);
    const Account acme = server.create_account("acme");
    const std::string id =
        server.client(acme).post("/api/v1/customers", customer_json("range-1")).str("/data/id");
    const std::string path = "/api/v1/customers/" + id;
    for (const std::string_view range :
         {"bytes=0-1", "bytes=-5", "bytes=3-", "bytes=0-1, 4-5", "bytes=-"}) {
        INFO(range);
        const auto whole = responses(
            exchange(server.port(),
                     {get("GET", path, acme.key, "Range: " + std::string(range) + "\r\n")}),
            {false});
        REQUIRE(whole.size() == 1);
        CHECK(whole[0].status == 200);
        CHECK(parse(whole[0].body).str("/data/externalId") == "range-1");
    }
    for (const std::string_view range :
         {"bytes=5-1", "items=0-1", "bytes=1-2,", "bytes=x-1", "bytes=99999999999999999999-"}) {
        INFO(range);
        const auto refused = responses(
            exchange(server.port(),
                     {get("GET", path, acme.key, "Range: " + std::string(range) + "\r\n") +
                      get("GET", "/healthz", "")}),
            {false, false});
        REQUIRE(refused.size() == 1);  // the connection ends with the refusal
        CHECK(refused[0].status == 416);
        CHECK(parse(refused[0].body).error_code() == "bad_request");
        CHECK(refused[0].header("Connection") == "close");
    }
}

TEST_CASE("content codings: request bodies decoded within the limit, answers compressed on request",
          "[http][framing][answers]") {
    LocalServer server(idle_closes);
    const Account acme = server.create_account("acme");
    const auto send = [&](const std::string& coding, const std::string& body) {
        const auto answers =
            responses(exchange(server.port(), {post("/api/v1/customers", acme.key, body,
                                                    "Content-Encoding: " + coding + "\r\n")}),
                      {false});
        REQUIRE(answers.size() == 1);
        return answers[0];
    };
    // gzip (RFC 1952), deflate (the zlib format, RFC 1950) and br.
    CHECK(send("gzip", gzip_of(customer_json("coded-gzip"), 15 + 16)).status == 200);
    CHECK(send("deflate", gzip_of(customer_json("coded-deflate"), 15)).status == 200);
    CHECK(send("br", brotli_of(customer_json("coded-br"))).status == 200);
    CHECK(send("identity", customer_json("coded-identity")).status == 200);
    Client client = server.client(acme);
    for (const char* external_id : {"coded-gzip", "coded-deflate", "coded-br", "coded-identity"}) {
        INFO(external_id);
        CHECK(client.get(std::string("/api/v1/customers?externalId=") + external_id).status == 200);
    }
    // A stream cut short, or with bytes after its end, is not the body that was sent.
    const std::string whole = gzip_of(customer_json("coded-cut"), 15 + 16);
    CHECK(send("gzip", whole.substr(0, whole.size() - 4)).status == 400);
    CHECK(send("gzip", whole + "x").status == 400);
    CHECK(send("br", "not brotli").status == 400);
    CHECK(send("zstd", customer_json("coded-zstd")).status == 415);
    // The limit is on the decoded bytes: 2 MiB of spaces inflate past the 1 MiB of a customer.
    const Written bomb =
        send("gzip", gzip_of(customer_json("coded-bomb", std::string(2 << 20, ' ')), 15 + 16));
    CHECK(bomb.status == 413);
    CHECK(parse(bomb.body).error_code() == "payload_too_large");
    CHECK(bomb.header("Connection") == "close");

    // Answers in text are compressed when the request accepts it: br first, then gzip.
    const std::string path = "/api/v1/customers?externalId=coded-gzip";
    const auto coded = responses(
        exchange(server.port(), {get("GET", path, acme.key, "Accept-Encoding: gzip\r\n") +
                                 get("GET", path, acme.key, "Accept-Encoding: gzip, br\r\n") +
                                 get("GET", path, acme.key, "Accept-Encoding: identity\r\n")}),
        {false, false, false});
    REQUIRE(coded.size() == 3);
    CHECK(coded[0].header("Content-Encoding") == "gzip");
    CHECK(parse(inflated(coded[0].body)).str("/data/customers/0/externalId") == "coded-gzip");
    CHECK(coded[1].header("Content-Encoding") == "br");
    std::string decoded(1 << 16, '\0');
    std::size_t decoded_size = decoded.size();
    REQUIRE(BrotliDecoderDecompress(
                coded[1].body.size(), reinterpret_cast<const std::uint8_t*>(coded[1].body.data()),
                &decoded_size,
                reinterpret_cast<std::uint8_t*>(decoded.data())) == BROTLI_DECODER_RESULT_SUCCESS);
    decoded.resize(decoded_size);
    CHECK(parse(decoded).str("/data/customers/0/externalId") == "coded-gzip");
    CHECK(coded[2].count("Content-Encoding") == 0);
    CHECK(parse(coded[2].body).str("/data/customers/0/externalId") == "coded-gzip");
}

TEST_CASE("query parameters are form-encoded pairs", "[http][framing]") {
    httplib::Params params;
    collectcall::server::http::parse_query("a=1&b=x+y%20z%2B&&a=1&c&=v&d=1=2&e=%zz&a=2", params);
    const auto values = [&](const std::string& name) {
        std::vector<std::string> found;
        const auto [first, last] = params.equal_range(name);
        for (auto it = first; it != last; ++it)
            found.push_back(it->second);
        return found;
    };
    // A pair repeated as the same bytes counts once; the same name with another value does not.
    CHECK(values("a") == std::vector<std::string>{"1", "2"});
    CHECK(values("b") == std::vector<std::string>{"x y z+"});
    CHECK(values("c") == std::vector<std::string>{""});
    CHECK(values("v") == std::vector<std::string>{""});  // "=v": the name is the only piece
    CHECK(values("d") == std::vector<std::string>{"2"});
    CHECK(values("e") == std::vector<std::string>{"%zz"});
    CHECK(params.size() == 7);
}
