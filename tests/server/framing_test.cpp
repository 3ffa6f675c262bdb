// The HTTP framing of requests (docs/server.md, "HTTP"): one parse of each request's head, whose
// verdict every later step uses, so that the same bytes get the same answer however TCP splits
// them; Host (RFC 9112 section 3.2); chunked trailers (section 7.1.2); routing on the path's
// segments as sent; header values as sent.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

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

#include "harness.hpp"

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
