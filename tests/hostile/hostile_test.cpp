// Hostile input over real HTTP: every case gets a clear answer (a status and the error envelope
// of API.md section 3), and the server goes on serving others afterwards.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "harness.hpp"

using namespace test;
using namespace collectcall::server;

namespace {

// The server still answers: the bare probe and an authenticated API call.
void check_serves(const LocalServer& server, const Account& account) {
    CHECK(server.anonymous().get("/healthz").status == 200);
    const Reply r = server.client(account).get("/api/v1/customers?externalId=probe");
    CHECK(r.status == 200);
    CHECK(r.boolean("/success"));
}

std::string request_head(const std::string& method, const std::string& target,
                         const std::string& key, const std::string& extra = {}) {
    std::string head = method + " " + target + " HTTP/1.1\r\nHost: x\r\n";
    if (!key.empty()) head += "Authorization: Bearer " + key + "\r\n";
    return head + extra;
}

// The envelope of a failure as read off a raw socket.
void check_envelope(const RawResponse& response, int status, const std::string& code) {
    CHECK(response.status == status);
    CHECK(response.body.find("\"success\":false") != std::string::npos);
    CHECK(response.body.find("\"code\":\"" + code + "\"") != std::string::npos);
    CHECK(is_uuid_v4(response.header("x-request-id")));
}

}  // namespace

TEST_CASE("hostile: a chunked body over the limit is 413 and the server goes on", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    RawConnection raw(server.port());
    REQUIRE(raw.send(request_head("POST", "/api/v1/customers", acme.key,
                                  "Content-Type: application/json\r\n"
                                  "Transfer-Encoding: chunked\r\n\r\n")));
    const std::string chunk(256 * 1024, '[');
    for (int i = 0; i < 5; ++i)
        REQUIRE(raw.send("40000\r\n" + chunk + "\r\n"));
    REQUIRE(raw.send("0\r\n\r\n"));
    const auto response = raw.receive();
    REQUIRE(response);
    check_envelope(*response, 413, "payload_too_large");
    check_serves(server, acme);
}

TEST_CASE("hostile: a body without Content-Length is no body (RFC 9112 6.3)", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    RawConnection raw(server.port());
    // The JSON after the head is not a body: the request has none, so it is malformed JSON,
    // answered at once; the bytes that follow are read as the next request, which is garbage.
    REQUIRE(raw.send(request_head("POST", "/api/v1/customers", acme.key,
                                  "Content-Type: application/json\r\n\r\n") +
                     customer_json("no-length")));
    const auto response = raw.receive(std::chrono::seconds(3));
    REQUIRE(response);
    check_envelope(*response, 400, "malformed_json");
    const auto garbage = raw.receive(std::chrono::seconds(3));
    if (garbage) {
        CHECK(garbage->status == 400);
        CHECK(garbage->body.find("\"success\":false") != std::string::npos);
    }
    CHECK(
        server.client(acme).get("/api/v1/customers?externalId=no-length").size("/data/customers") ==
        0);
    check_serves(server, acme);
}

TEST_CASE("hostile: bytes the server did not read are never served as a request", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    const std::string body = customer_json("smuggled");
    const std::string smuggled = request_head("POST", "/api/v1/customers", acme.key,
                                              "Content-Type: application/json\r\nContent-Length: " +
                                                  std::to_string(body.size()) + "\r\n\r\n") +
                                 body;
    // A GET with a body: the server does not read the body, so it answers and ends the
    // connection. Whether the body comes with the head or after the answer (as a proxy that
    // forwards it would send it), the request in it is never run.
    for (const bool after_answer : {false, true}) {
        INFO("body after the answer: " << after_answer);
        RawConnection raw(server.port());
        const std::string head =
            request_head("GET", "/api/v1/customers?externalId=x", acme.key,
                         "Content-Length: " + std::to_string(smuggled.size()) + "\r\n\r\n");
        REQUIRE(raw.send(after_answer ? head : head + smuggled));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 200);
        CHECK(response->header("connection") == "close");
        if (after_answer) (void)raw.send(smuggled);  // the server may be gone already
        CHECK(raw.closed_by_peer(std::chrono::seconds(5)));
    }
    // A request line the server cannot read ends the connection too: what follows it (here a
    // whole request) is not read as requests.
    {
        RawConnection raw(server.port());
        REQUIRE(raw.send("BREW /pot HTTP/1.1\r\n" + smuggled));
        const auto response = raw.receive();
        REQUIRE(response);
        check_envelope(*response, 400, "bad_request");
        CHECK(response->header("connection") == "close");
        CHECK(raw.closed_by_peer(std::chrono::seconds(5)));
    }
    CHECK(
        server.client(acme).get("/api/v1/customers?externalId=smuggled").size("/data/customers") ==
        0);
    check_serves(server, acme);
}

TEST_CASE("hostile: requests pipelined in one segment are all answered, in order", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    RawConnection raw(server.port());
    std::string requests;
    for (int i = 0; i < 3; ++i) {
        const std::string body = customer_json("pipelined-" + std::to_string(i));
        requests += request_head("POST", "/api/v1/customers", acme.key,
                                 "Content-Type: application/json\r\nContent-Length: " +
                                     std::to_string(body.size()) + "\r\n\r\n") +
                    body;
    }
    requests += request_head("GET", "/api/v1/customers?externalId=pipelined-2", acme.key, "\r\n");
    REQUIRE(raw.send(requests));
    for (int i = 0; i < 3; ++i) {
        const auto response = raw.receive(std::chrono::seconds(3));
        REQUIRE(response);
        CHECK(response->status == 200);
        CHECK(response->body.find("pipelined-" + std::to_string(i)) != std::string::npos);
    }
    const auto lookup = raw.receive(std::chrono::seconds(3));
    REQUIRE(lookup);
    CHECK(lookup->status == 200);
    CHECK(lookup->body.find("pipelined-2") != std::string::npos);
    check_serves(server, acme);
}

TEST_CASE("hostile: slow headers are cut off after the read timeout, others are served",
          "[hostile]") {
    // The read timeout is longer than liveness_bound: a server that served the others only once
    // the slow heads were cut off would answer them later than that.
    LocalServer server([](ServerOptions& o) {
        o.read_timeout = std::chrono::seconds(6);
        o.keep_alive_timeout = std::chrono::seconds(1);
    });
    const Account acme = server.create_account("acme");
    std::vector<std::unique_ptr<RawConnection>> slow;
    for (int i = 0; i < 8; ++i) {
        slow.push_back(std::make_unique<RawConnection>(server.port()));
        REQUIRE(slow.back()->send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "));
    }
    // Meanwhile others are served at once.
    const auto start = std::chrono::steady_clock::now();
    check_serves(server, acme);
    CHECK(std::chrono::steady_clock::now() - start < liveness_bound);
    // Every slow connection is closed by the server (six seconds past the last byte, plus slack).
    for (auto& connection : slow) {
        const auto result = connection->receive(std::chrono::seconds(12));
        // cpp-httplib gives up on the head: it reports a header read that failed, which the
        // server answers as 431 headers_too_large (it cannot tell a timeout from a long line).
        if (result) check_envelope(*result, 431, "headers_too_large");
        CHECK(connection->closed_by_peer(std::chrono::seconds(5)));
    }
    check_serves(server, acme);
}

TEST_CASE("keep-alive: a connection in use outlives the keep-alive timeout", "[hostile]") {
    // The keep-alive timeout bounds the wait for the next request, counted from the last answer;
    // a connection whose requests keep coming (each whole in one segment) is never cut off.
    LocalServer server([](ServerOptions& o) { o.keep_alive_timeout = std::chrono::seconds(1); });
    // Thirteen requests 200 ms apart: the connection is in use for well over twice the timeout
    // (counted in requests, not in time, which a loaded machine stretches).
    RawConnection raw(server.port());
    const auto start = std::chrono::steady_clock::now();
    int answered = 0;
    for (int i = 0; i < 13; ++i) {
        REQUIRE(raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
        const auto response = raw.receive(std::chrono::seconds(3));
        REQUIRE(response);
        CHECK(response->status == 200);
        ++answered;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    CHECK(answered == 13);
    CHECK(std::chrono::steady_clock::now() - start > std::chrono::milliseconds(2500));
    // Left alone, it is closed once the timeout has passed since its last answer.
    CHECK(raw.closed_by_peer(std::chrono::seconds(3)));
}

TEST_CASE("hostile: 200 idle connections do not starve a real request", "[hostile]") {
    // Timeouts longer than liveness_bound: a server that gave the request a worker only once idle
    // connections were closed would answer later than that.
    LocalServer server([](ServerOptions& o) {
        o.read_timeout = std::chrono::seconds(30);
        o.keep_alive_timeout = std::chrono::seconds(30);
    });
    const Account acme = server.create_account("acme");
    std::vector<std::unique_ptr<RawConnection>> idle;
    for (int i = 0; i < 200; ++i)
        idle.push_back(std::make_unique<RawConnection>(server.port()));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto start = std::chrono::steady_clock::now();
    check_serves(server, acme);
    CHECK(std::chrono::steady_clock::now() - start < liveness_bound);
    idle.clear();
    check_serves(server, acme);
}

TEST_CASE("hostile: a 100 KB header is 431 or a closed connection, never a hang", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    {
        RawConnection raw(server.port());
        // cpp-httplib 0.11.4 reads a header line into a buffer of 8 KiB and fails the request
        // at the first longer line: the server answers 431 without reading the rest.
        const bool sent =
            raw.send(request_head("GET", "/api/v1/customers?externalId=x", acme.key,
                                  "X-Huge: " + std::string(100 * 1024, 'h') + "\r\n\r\n"));
        const auto response = raw.receive(std::chrono::seconds(5));
        if (response) {
            check_envelope(*response, 431, "headers_too_large");
        } else {
            // The server closed while the rest was still on its way: a reset is a clean refusal.
            CHECK_FALSE(sent);
        }
    }
    {
        // 100 KB in many lines of 1 KB: within cpp-httplib's line limit, over the server's 64 KiB.
        std::string lines;
        for (int i = 0; i < 100; ++i)
            lines += "X-Line-" + std::to_string(i) + ": " + std::string(1000, 'l') + "\r\n";
        RawConnection raw(server.port());
        REQUIRE(raw.send(request_head("GET", "/api/v1/customers?externalId=x", acme.key, lines) +
                         "\r\n"));
        const auto response = raw.receive(std::chrono::seconds(5));
        REQUIRE(response);
        check_envelope(*response, 431, "headers_too_large");
    }
    check_serves(server, acme);
}

TEST_CASE("hostile: invalid UTF-8 and .. in the path are 404", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    const std::vector<std::string> targets = {
        "/api/v1/customers/\xff\xfe\xfd",
        "/api/v1/customers/%FF%FE%FD",
        "/api/v1/customers/%C0%AE%C0%AE",
        "/api/v1/customers/../../../etc/passwd",
        "/api/v1/customers/..%2F..%2Fetc%2Fpasswd",
        "/api/v1/../v1/customers/00000000-0000-4000-8000-000000000000",
        "/api/v1/customers/00000000-0000-4000-8000-000000000000/../../customers",
        "/../../etc/passwd",
        "/api/v1/customers/%00",
    };
    for (const std::string& target : targets) {
        INFO(target);
        RawConnection raw(server.port());
        REQUIRE(raw.send(request_head("GET", target, acme.key, "\r\n")));
        const auto response = raw.receive();
        REQUIRE(response);
        check_envelope(*response, 404, "not_found");
    }
    check_serves(server, acme);
}

TEST_CASE("hostile: an empty or malformed bearer key is 401 with WWW-Authenticate", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    const std::vector<std::string> values = {
        "Bearer",
        "Bearer ",
        "Bearer        ",
        "Bearer\t",
        "Bearer " + acme.key.substr(0, acme.key.size() / 2) + " " +
            acme.key.substr(acme.key.size() / 2),
        "Bearer " + acme.key + "x",
        "Bearer " + acme.key + " " + acme.key,
        "Bearer" + acme.key,
        "Basic " + acme.key,
        "Bearer " + std::string(5000, 'A'),
        // Exactly one space between the scheme and the key, and nothing but the key after it.
        "Bearer    " + acme.key + "   ",
        "Bearer  " + acme.key,
        "Bearer\t" + acme.key,
        "Bearer \t" + acme.key,
        "Bearer " + acme.key + " x",
        "Bearer " + acme.key + "%20",  // not percent-decoded: '%' is not a b64token character
        "Bearer " + acme.key + ",",
        "Bearer =" + acme.key,
    };
    for (const std::string& value : values) {
        INFO(value.substr(0, 80));
        RawConnection raw(server.port());
        REQUIRE(raw.send(request_head("GET", "/api/v1/customers?externalId=x", {},
                                      "Authorization: " + value + "\r\n\r\n")));
        const auto response = raw.receive();
        REQUIRE(response);
        check_envelope(*response, 401, "unauthorized");
        CHECK(response->header("www-authenticate").rfind("Bearer", 0) == 0);
    }
    // The scheme is case-insensitive. White space before and after the whole field value is
    // not part of it (RFC 9110 section 5.5): cpp-httplib removes it before the server sees the
    // value, so only what is between "Bearer" and the key can be checked.
    for (const std::string& value : {"bearer " + acme.key, "BEARER " + acme.key,
                                     "Bearer " + acme.key + "   ", "Bearer " + acme.key + "\t"}) {
        INFO(value);
        RawConnection raw(server.port());
        REQUIRE(raw.send(request_head("GET", "/api/v1/customers?externalId=x", {},
                                      "Authorization:   " + value + "\r\n\r\n")));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 200);
    }
    // Two Authorization headers are refused, even if one is right.
    {
        RawConnection raw(server.port());
        REQUIRE(raw.send(request_head("GET", "/api/v1/customers?externalId=x", acme.key,
                                      "Authorization: Bearer nope\r\n\r\n")));
        const auto response = raw.receive();
        REQUIRE(response);
        check_envelope(*response, 401, "unauthorized");
    }
    check_serves(server, acme);
}

TEST_CASE("hostile: quotes, SQL and HTML are stored and returned byte-exact", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    // As JSON string contents (escaped where JSON requires it).
    const std::string first = R"(Robert'); DROP TABLE customers;--)";
    const std::string last = R"(<script>alert(\"x\")</script>&amp;\\ \/ ' \" %00 %s)";
    const std::string line1 = R"(1' OR '1'='1 \u00e9\ud83d\ude00 <img src=x onerror=alert(1)>)";
    const std::string external = R"(x' OR 1=1; -- \")";
    std::string body = customer_json("placeholder");
    const auto replace = [&](const std::string& from, const std::string& to) {
        const std::size_t at = body.find(from);
        REQUIRE(at != std::string::npos);
        body.replace(at, from.size(), to);
    };
    const Reply probe = client.post("/api/v1/customers", customer_json("shape"));
    REQUIRE(probe.status == 200);
    replace("\"placeholder\"", "\"" + external + "\"");
    replace("\"firstName\":" + probe.raw("/data/firstName"), "\"firstName\":\"" + first + "\"");
    replace("\"lastName\":" + probe.raw("/data/lastName"), "\"lastName\":\"" + last + "\"");
    replace("\"line1\":" + probe.raw("/data/address/line1"), "\"line1\":\"" + line1 + "\"");

    const Reply created = client.post("/api/v1/customers", body);
    REQUIRE(created.status == 200);
    const std::string expect_first = "Robert'); DROP TABLE customers;--";
    const std::string expect_last = "<script>alert(\"x\")</script>&amp;\\ / ' \" %00 %s";
    const std::string expect_line1 =
        "1' OR '1'='1 \xc3\xa9\xf0\x9f\x98\x80 <img src=x onerror=alert(1)>";
    const std::string expect_external = "x' OR 1=1; -- \"";
    const auto check_customer = [&](const Reply& r, const std::string& base) {
        CHECK(r.str(base + "/firstName") == expect_first);
        CHECK(r.str(base + "/lastName") == expect_last);
        CHECK(r.str(base + "/address/line1") == expect_line1);
        CHECK(r.str(base + "/externalId") == expect_external);
    };
    check_customer(created, "/data");
    const Reply fetched = client.get("/api/v1/customers/" + created.str("/data/id"));
    REQUIRE(fetched.status == 200);
    check_customer(fetched, "/data");
    CHECK(fetched.raw("/data") == created.raw("/data"));
    // HTML is not escaped, nor served as HTML.
    CHECK(fetched.header("Content-Type").rfind("application/json", 0) == 0);

    // The lookup matches the exact text only (the query is bound, never spliced).
    const Reply found = client.get("/api/v1/customers?externalId=x%27%20OR%201%3D1%3B%20--%20%22");
    REQUIRE(found.status == 200);
    REQUIRE(found.size("/data/customers") == 1);
    check_customer(found, "/data/customers/0");
    CHECK(client.get("/api/v1/customers?externalId=%27%20OR%20%271%27%3D%271")
              .size("/data/customers") == 0);
    // The other customer is still there, and the table too.
    CHECK(client.get("/api/v1/customers?externalId=shape").size("/data/customers") == 1);
    check_serves(server, acme);
}

TEST_CASE("hostile: NUL and other control characters are 400 at their path", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Reply probe = client.post("/api/v1/customers", customer_json("shape"));
    REQUIRE(probe.status == 200);
    const std::string first_name = "\"firstName\":" + probe.raw("/data/firstName");
    for (const std::string escaped :
         {"\\u0000", "a\\u0000b", "\\u0001", "x\\u001f", "\\u007f", "a\\nb", "\\t", "\\r\\n"}) {
        INFO(escaped);
        std::string body = customer_json("ctl");
        body.replace(body.find(first_name), first_name.size(), "\"firstName\":\"" + escaped + "\"");
        const Reply r = client.post("/api/v1/customers", body);
        CHECK(r.status == 400);
        CHECK(r.error_code() == "validation_failed");
        CHECK(r.str("/error/details/0/path") == "/firstName");
    }
    // A raw control character inside a JSON string is not JSON at all.
    std::string raw_body = customer_json("ctl");
    raw_body.replace(raw_body.find(first_name), first_name.size(),
                     std::string("\"firstName\":\"a\x01") + "b\"");
    const Reply raw = client.post("/api/v1/customers", raw_body);
    CHECK(raw.status == 400);
    CHECK(raw.error_code() == "malformed_json");
    CHECK(client.get("/api/v1/customers?externalId=ctl").size("/data/customers") == 0);
    check_serves(server, acme);
}

TEST_CASE("hostile: a 10,000-digit number is 400, answered quickly", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string digits(10000, '9');
    std::string body = collections_customer_json("huge");
    const std::size_t at = body.find("\"totalBalance\":");
    REQUIRE(at != std::string::npos);
    const std::size_t value = at + std::string("\"totalBalance\":").size();
    const std::size_t end = body.find_first_of(",}", value);
    for (const std::string& number : {digits, "0." + digits, "1e" + digits, "-" + digits}) {
        std::string b = body;
        b.replace(value, end - value, number);
        const auto start = std::chrono::steady_clock::now();
        const Reply r = client.post("/api/v1/customers", b);
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
        CHECK(r.status == 400);
        CHECK((r.error_code() == "validation_failed" || r.error_code() == "malformed_json"));
        if (r.error_code() == "validation_failed")
            CHECK(r.str("/error/details/0/path") == "/collections/totalBalance");
        CHECK(r.body.size() < 2000);  // the number is not echoed back
    }
    // As an unknown member's value, and at the top.
    std::string unknown = customer_json("huge-2");
    unknown.insert(1, "\"n\":" + digits + ",");
    const Reply u = client.post("/api/v1/customers", unknown);
    CHECK(u.status == 400);
    CHECK(u.body.size() < 2000);
    const Reply top = client.post("/api/v1/customers", digits);
    CHECK(top.status == 400);
    CHECK(client.get("/api/v1/customers?externalId=huge").size("/data/customers") == 0);
    check_serves(server, acme);
}

TEST_CASE("hostile: a bulk of 1000 invalid items is 200 with 1000 failures", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    std::string body = R"({"customers":[)";
    for (int i = 0; i < 1000; ++i) {
        if (i > 0) body += ',';
        switch (i % 4) {
            case 0:
                body += "{}";
                break;
            case 1:
                body += customer_json("bad-" + std::to_string(i), R"(, "ssnLastFour": "12a4")");
                break;
            case 2:
                body += "42";
                break;
            default:
                body += customer_json("bad-" + std::to_string(i), {}, "5550123");
                break;
        }
    }
    body += "]}";
    const Reply r = client.post("/api/v1/customers/bulk", body);
    REQUIRE(r.status == 200);
    CHECK(r.integer("/data/summary/total") == 1000);
    CHECK(r.integer("/data/summary/succeeded") == 0);
    CHECK(r.integer("/data/summary/failed") == 1000);
    REQUIRE(r.size("/data/results") == 1000);
    for (std::size_t i = 0; i < 1000; i += 111) {
        const std::string item = "/data/results/" + std::to_string(i);
        CHECK_FALSE(r.boolean(item + "/success"));
        CHECK(r.str(item + "/error").rfind("validation failed: ", 0) == 0);
    }
    CHECK(client.get("/api/v1/customers?externalId=bad-1").size("/data/customers") == 0);
    check_serves(server, acme);
}

TEST_CASE("hostile: deep nesting is malformed_json, a very wide object is bounded", "[hostile]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    for (const std::size_t depth : {65UL, 1000UL, 100000UL}) {
        INFO(depth);
        const Reply arrays =
            client.post("/api/v1/customers", std::string(depth, '[') + std::string(depth, ']'));
        CHECK(arrays.status == 400);
        CHECK(arrays.error_code() == "malformed_json");
        std::string objects;
        for (std::size_t i = 0; i < depth; ++i)
            objects += "{\"a\":";
        objects += "1" + std::string(depth, '}');
        const Reply nested = client.post("/api/v1/customers", objects);
        CHECK(nested.status == 400);
        CHECK(nested.error_code() == "malformed_json");
    }
    // 100,000 unknown members: every one is an error, and the answer stays bounded.
    std::string wide = customer_json("wide");
    std::string members;
    const char* digits = "0123456789abcdefghijklmnopqrstuvwxyz";
    for (int i = 0; i < 100000; ++i) {
        // Four-character names (base 36), so that the body stays under the 1 MiB limit.
        members += '"';
        for (int d = 36 * 36 * 36; d > 0; d /= 36)
            members += digits[i / d % 36];
        members += "\":0,";
    }
    wide.insert(1, members);
    REQUIRE(wide.size() < (1U << 20));
    const auto start = std::chrono::steady_clock::now();
    const Reply r = client.post("/api/v1/customers", wide);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    CHECK(r.status == 400);
    CHECK(r.error_code() == "validation_failed");
    CHECK(r.str("/error/details/0/code") == "unknown_field");
    CHECK(r.str("/error/details/0/path") == "/0000");
    CHECK(r.size("/error/details") <= 100000);
    WARN("100k unknown members: " << r.size("/error/details") << " details, " << r.body.size()
                                  << " bytes");
    check_serves(server, acme);
}
