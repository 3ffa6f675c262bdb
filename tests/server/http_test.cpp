// The wire: envelope, request ids, authentication, routing, media types, body and header
// limits (API.md sections 1 to 3).
#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <thread>

#include <set>
#include <string>

#include "harness.hpp"

using namespace test;

TEST_CASE("every response has the envelope and a fresh X-Request-Id", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);

    std::set<std::string> ids;
    for (int i = 0; i < 3; ++i) {
        const Reply created =
            client.post("/api/v1/customers", customer_json("env-" + std::to_string(i)));
        REQUIRE(created.status == 200);
        CHECK(created.boolean("/success"));
        CHECK(created.header("X-Request-Id") == created.str("/requestId"));
        CHECK(is_uuid_v4(created.str("/requestId")));
        CHECK(created.header("Content-Type") == "application/json");
        CHECK(created.header("Cache-Control") == "no-store");
        ids.insert(created.str("/requestId"));
    }
    const Reply missing = client.get("/api/v1/customers/00000000-0000-4000-8000-000000000000");
    CHECK(missing.status == 404);
    CHECK_FALSE(missing.boolean("/success"));
    CHECK(missing.is_null("/data"));
    CHECK(missing.header("X-Request-Id") == missing.str("/requestId"));
    CHECK(missing.str("/publicFacingMessage") == missing.str("/error/message"));
    CHECK(missing.size("/error/details") == 0);
    ids.insert(missing.str("/requestId"));
    CHECK(ids.size() == 4);
}

TEST_CASE("healthz is bare and needs no key", "[http]") {
    LocalServer server;
    const Reply health = server.anonymous().get("/healthz");
    CHECK(health.status == 200);
    CHECK(health.body == R"({"status":"ok"})");
    CHECK(is_uuid_v4(health.header("X-Request-Id")));
}

TEST_CASE("readyz checks the store; both probes are bare and need no key", "[http]") {
    LocalServer server;
    const Reply ready = server.anonymous().get("/readyz");
    CHECK(ready.status == 200);
    CHECK(ready.body == R"({"status":"ready"})");
}

namespace {

// The value of the sample `series` (name and labels exactly as exposed) in a metrics text.
std::optional<double> sample(const std::string& text, const std::string& series) {
    std::size_t at = 0;
    while ((at = text.find(series + ' ', at)) != std::string::npos) {
        if (at == 0 || text[at - 1] == '\n') return std::stod(text.substr(at + series.size() + 1));
        at += series.size();
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("a bulk request costs its items against the rate limit", "[http]") {
    // Burst 2, one more a second. A sleep below waits for the bucket; no bound is asserted on
    // how long a request takes, only that the next one comes before seconds of refill.
    LocalServer server([](collectcall::server::ServerOptions& o) { o.rate_limit = 1; });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const collectcall::Uuid account = collectcall::Uuid::parse(acme.id).value();
    const auto bulk = [](std::string_view prefix, int items) {
        std::string body = R"({"customers":[)";
        for (int i = 0; i < items; ++i)
            body += (i == 0 ? "" : ",") + customer_json(std::string(prefix) + std::to_string(i));
        return body + "]}";
    };

    // One request leaves one token: a bulk of three is refused before anything is stored.
    REQUIRE(client.get("/api/v1/customers/not-an-id").status == 404);
    const Reply refused = client.post("/api/v1/customers/bulk", bulk("r-", 3));
    REQUIRE(refused.status == 429);
    CHECK(refused.error_code() == "rate_limited");
    CHECK(std::stol(refused.header("Retry-After")) >= 1);
    CHECK_FALSE(server.store().find_customer_by_external_id(account, "r-0"));

    // With the bucket full, a bulk dearer than the burst goes through, and leaves a debt of its
    // items: the next request is refused until it is paid back at the rate.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    const Reply five = client.post("/api/v1/customers/bulk", bulk("f-", 5));
    REQUIRE(five.status == 200);
    CHECK(five.integer("/data/summary/succeeded") == 5);
    CHECK(server.store().find_customer_by_external_id(account, "f-4"));
    const Reply after = client.get("/api/v1/customers/not-an-id");
    CHECK(after.status == 429);
    CHECK(std::stol(after.header("Retry-After")) >= 2);
}

TEST_CASE("metrics: requests by route and status, latency, commits, rate limiting", "[http]") {
    LocalServer server([](collectcall::server::ServerOptions& o) { o.rate_limit = 1; });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    REQUIRE(client.post("/api/v1/customers", customer_json("m-1")).status == 200);
    REQUIRE(client.post("/api/v1/customers", customer_json("m-1")).status == 409);
    // The burst of the rate limit (2) is spent, and refills at 1 a second: requests soon meet a
    // 429 (how soon depends on how fast this machine ran the two above).
    int refused = 0;
    for (int i = 0; i < 50 && refused == 0; ++i) {
        refused += client.get("/api/v1/customers/not-an-id").status == 429 ? 1 : 0;
    }
    REQUIRE(refused == 1);

    // A request is counted once its answer is sent: the scrape waits for the last one.
    Reply metrics = server.anonymous().get("/metrics");
    for (int i = 0; i < 500 && metrics.body.find("status=\"429\"") == std::string::npos; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        metrics = server.anonymous().get("/metrics");
    }
    REQUIRE(metrics.status == 200);
    CHECK(metrics.header("Content-Type").rfind("text/plain; version=0.0.4", 0) == 0);
    CHECK_FALSE(metrics.parsed);  // bare text, no envelope
    const std::string& text = metrics.body;
    CHECK(
        sample(
            text,
            R"(collectcall_http_requests_total{method="POST",route="/api/v1/customers",status="200"})") ==
        1);
    CHECK(
        sample(
            text,
            R"(collectcall_http_requests_total{method="POST",route="/api/v1/customers",status="409"})") ==
        1);
    // By route pattern, never by path: the id does not make a series of its own.
    CHECK(
        sample(
            text,
            R"(collectcall_http_requests_total{method="GET",route="/api/v1/customers/{customerId}",status="429"})") ==
        1);
    CHECK(text.find("not-an-id") == std::string::npos);
    CHECK(
        sample(
            text,
            R"(collectcall_http_request_duration_seconds_count{method="POST",route="/api/v1/customers"})") ==
        2);
    CHECK(sample(text, "collectcall_rate_limited_total") == 1);
    // Two inserts (one refused as a duplicate) and the account's credentials.
    CHECK(sample(text, "collectcall_store_commits_total") >= 2);
    CHECK(sample(text, "collectcall_store_write_items_count") >= 2);
    CHECK(sample(text, "collectcall_store_commit_writes_count") >= 1);
    CHECK(sample(text, "collectcall_webhook_outbox_pending") == 0);
    // The scrape itself counts on a later one (a request is counted once its answer is sent, so
    // the very next scrape may come before it is).
    std::optional<double> scrapes;
    for (int i = 0; i < 500 && !scrapes; ++i) {
        scrapes = sample(
            server.anonymous().get("/metrics").body,
            R"(collectcall_http_requests_total{method="GET",route="/metrics",status="200"})");
        if (!scrapes) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(scrapes >= 1);
}

TEST_CASE("the OpenAPI document is served bare and without a key", "[http]") {
    LocalServer server;
    const Reply doc = server.anonymous().get("/api/v1/openapi.json");
    REQUIRE(doc.status == 200);
    CHECK(doc.str("/openapi").rfind("3.1", 0) == 0);
    CHECK(doc.has("/paths/~1api~1v1~1customers~1bulk/post"));
    CHECK_FALSE(doc.has("/requestId"));
    CHECK(server.anonymous().get("/api/v1/openapi.json").body == doc.body);
}

TEST_CASE("a missing, malformed or unknown key is 401 with WWW-Authenticate", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    const std::string path = "/api/v1/customers?externalId=x";

    const auto check_401 = [](const Reply& r) {
        CHECK(r.status == 401);
        CHECK(r.error_code() == "unauthorized");
        // The hosted service's text, word for word (API.md section 3).
        CHECK(r.str("/publicFacingMessage") ==
              "Unauthorized. Make sure to pass the correct authorization token.");
        CHECK(r.str("/error/message") == r.str("/publicFacingMessage"));
        CHECK(r.header("WWW-Authenticate").rfind("Bearer", 0) == 0);
        CHECK_FALSE(r.boolean("/success"));
    };
    check_401(server.anonymous().get(path));
    check_401(server.anonymous().get(path, {{"Authorization", "Basic dXNlcjpwYXNz"}}));
    check_401(server.anonymous().get(path, {{"Authorization", "Bearer"}}));
    check_401(server.anonymous().get(path, {{"Authorization", "Bearer not-a-key"}}));
    // The right key id with a wrong secret.
    std::string forged = acme.key;
    forged.back() = forged.back() == 'A' ? 'B' : 'A';
    check_401(server.client(Account{acme.id, forged, acme.agent}).get(path));
    // A key of the right shape that was never issued.
    check_401(
        server.client(Account{acme.id, "cck_0123456789abcdef_" + std::string(43, 'A'), acme.agent})
            .get(path));
    // Two Authorization headers are refused rather than guessed between.
    check_401(server.client(acme).get(path, {{"Authorization", "Bearer " + acme.key}}));

    // The scheme is case-insensitive (RFC 7235).
    const Reply ok = server.anonymous().get(path, {{"Authorization", "bearer " + acme.key}});
    CHECK(ok.status == 200);
}

TEST_CASE("unknown routes are 404, wrong methods 405 with Allow", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);

    const Reply unknown = client.get("/api/v1/nothing-here");
    CHECK(unknown.status == 404);
    CHECK(unknown.error_code() == "not_found");
    CHECK(client.get("/api/v2/customers?externalId=x").status == 404);
    CHECK(client.get("/api/v1/customers/").status == 404);

    const Reply wrong =
        client.send("DELETE", "/api/v1/customers/00000000-0000-4000-8000-000000000000", "", {});
    CHECK(wrong.status == 405);
    CHECK(wrong.error_code() == "method_not_allowed");
    CHECK(wrong.header("Allow") == "GET, HEAD, PATCH");

    const Reply put =
        client.send("PUT", "/api/v1/customers", "{}", {{"Content-Type", "application/json"}});
    CHECK(put.status == 405);
    CHECK(put.header("Allow") == "POST, GET, HEAD");

    // The literal route wins over {customerId}.
    const Reply bulk = client.get("/api/v1/customers/bulk");
    CHECK(bulk.status == 405);
    CHECK(bulk.header("Allow") == "POST");

    // Without a key, routing still answers first: the route table is public.
    CHECK(server.anonymous().get("/api/v1/nothing-here").status == 404);
}

TEST_CASE("ids that are not UUIDs are 404", "[http]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    for (const char* path :
         {"/api/v1/customers/123", "/api/v1/customers/not-a-uuid/calls", "/api/v1/calls/zzz"}) {
        const Reply r = client.get(path);
        CHECK(r.status == 404);
        CHECK(r.error_code() == "not_found");
    }
    CHECK(client.patch("/api/v1/customers/123", "{}").status == 404);
}

TEST_CASE("bodies must be application/json, else 415", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);

    const Reply text = client.post("/api/v1/customers", customer_json("m-1"), "text/plain");
    CHECK(text.status == 415);
    CHECK(text.error_code() == "unsupported_media_type");
    CHECK(client.post("/api/v1/customers", customer_json("m-2"), "application/xml").status == 415);
    CHECK(client.post("/api/v1/customers", customer_json("m-3"), "application/json; charset=latin1")
              .status == 415);
    // Parameters are fine, and the type is case-insensitive.
    CHECK(client.post("/api/v1/customers", customer_json("m-4"), "Application/JSON; charset=UTF-8")
              .status == 200);
    // No Content-Type at all on an endpoint that needs a body.
    CHECK(client.post("/api/v1/customers", "", "").status == 415);

    // PATCH also takes RFC 7396's own media type; POST does not.
    const std::string id = client.post("/api/v1/customers", customer_json("m-5")).str("/data/id");
    CHECK(client
              .patch("/api/v1/customers/" + id, R"({"firstName":"Bo"})",
                     "application/merge-patch+json")
              .status == 200);
    CHECK(client.post("/api/v1/customers", customer_json("m-6"), "application/merge-patch+json")
              .status == 415);

    // The POSTs that take no body accept none, without a Content-Type, or {}.
    CHECK(client.post("/api/v1/customers/" + id + "/deactivate", "", "").status == 200);
    CHECK(client.post("/api/v1/customers/" + id + "/activate", "{}").status == 200);
    CHECK(client.post("/api/v1/customers/" + id + "/activate", "{}", "text/plain").status == 415);
    const Reply member = client.post("/api/v1/customers/" + id + "/activate", R"({"why":1})");
    CHECK(member.status == 400);
    CHECK(member.str("/error/details/0/path") == "/why");
    CHECK(member.str("/error/details/0/code") == "unknown_field");
}

TEST_CASE("compressed bodies are decoded; an unknown coding is 415", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    httplib::Client gzip("127.0.0.1", server.port());
    gzip.set_compress(true);
    const httplib::Headers auth{{"Authorization", "Bearer " + acme.key}};
    const Reply created =
        make_reply(gzip.Post("/api/v1/customers", auth, customer_json("gz-1"), "application/json"));
    CHECK(created.status == 200);
    CHECK(created.str("/data/externalId") == "gz-1");

    const Reply unknown = server.client(acme).send(
        "POST", "/api/v1/customers", customer_json("gz-2"),
        {{"Content-Encoding", "zstd"}, {"Content-Type", "application/json"}});
    CHECK(unknown.status == 415);
    CHECK(unknown.error_code() == "unsupported_media_type");
}

TEST_CASE("malformed JSON is 400 malformed_json, invalid fields 400 validation_failed", "[http]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));

    const std::vector<std::string> bodies{"",
                                          "{",
                                          "nul",
                                          R"({"externalId":"x"} trailing)",
                                          "[1,]",
                                          "{\"a\":NaN}",
                                          std::string(100, '[') + std::string(100, ']'),
                                          "{\"externalId\":\"\xff\"}"};
    for (const std::string& body : bodies) {
        const Reply r = client.post("/api/v1/customers", body);
        INFO(body);
        CHECK(r.status == 400);
        CHECK(r.error_code() == "malformed_json");
        CHECK(r.is_null("/data"));
    }

    const Reply invalid = client.post(
        "/api/v1/customers",
        R"({"externalId":"v-1","firstName":"Ann","lastName":"Lee","email":"ann@example.com",)"
        R"("address":{"line1":"1 Main","city":"X","state":"IL","zip":"6060"},"extra":true})");
    REQUIRE(invalid.status == 400);
    CHECK(invalid.error_code() == "validation_failed");
    CHECK(invalid.str("/error/message") == "3 fields are invalid");
    REQUIRE(invalid.size("/error/details") == 3);
    // Errors of members present, in document order, then required members that are absent.
    CHECK(invalid.str("/error/details/0/path") == "/address/zip");
    CHECK(invalid.str("/error/details/0/code") == "format");
    CHECK(invalid.str("/error/details/1/path") == "/extra");
    CHECK(invalid.str("/error/details/1/code") == "unknown_field");
    CHECK(invalid.str("/error/details/2/path") == "/primaryPhone");
    CHECK(invalid.str("/error/details/2/code") == "required");
}

TEST_CASE("bodies over the limit are 413, chunked or not", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    // Valid JSON padded with white space past 1 MiB.
    const std::string big = customer_json("big-1") + std::string((1 << 20) + 10, ' ');

    const Reply declared = client.post("/api/v1/customers", big);
    CHECK(declared.status == 413);
    CHECK(declared.error_code() == "payload_too_large");

    // Chunked: cpp-httplib's own limit sees no Content-Length.
    {
        RawConnection raw(server.port());
        std::string request =
            "POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + acme.key +
            "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        REQUIRE(raw.send(request));
        const std::string chunk(64 * 1024, ' ');
        char size[16];
        std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
        for (int i = 0; i < 20; ++i)
            REQUIRE(raw.send(std::string(size) + chunk + "\r\n"));
        REQUIRE(raw.send("0\r\n\r\n"));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 413);
        CHECK(response->body.find("payload_too_large") != std::string::npos);
        // Reading stopped at the limit: the rest of the body is not read as a request, the
        // connection ends after the answer.
        CHECK(response->header("connection") == "close");
        CHECK(raw.closed_by_peer());
    }

    // A chunked body within the limit is read normally.
    {
        RawConnection raw(server.port());
        const std::string body = customer_json("chunked-1");
        char size[16];
        std::snprintf(size, sizeof size, "%zx\r\n", body.size());
        REQUIRE(raw.send(
            "POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + acme.key +
            "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + size +
            body + "\r\n0\r\n\r\n"));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 200);
    }

    // Bulk may be larger than 1 MiB (up to 16 MiB).
    std::string bulk = R"({"customers":[)" + customer_json("bulk-big") + "]}";
    bulk += std::string(2 << 20, ' ');
    const Reply bulk_reply = client.post("/api/v1/customers/bulk", bulk);
    CHECK(bulk_reply.status == 200);
    CHECK(bulk_reply.integer("/data/summary/succeeded") == 1);
    CHECK(client.post("/api/v1/customers/bulk", bulk + std::string(15 << 20, ' ')).status == 413);

    // A declared length far beyond anything is refused without reading, and the connection
    // is closed; without a key it is refused for that first (API.md section 11).
    for (const bool with_key : {true, false}) {
        RawConnection raw(server.port());
        REQUIRE(
            raw.send("POST /api/v1/customers HTTP/1.1\r\nHost: x\r\n" +
                     (with_key ? "Authorization: Bearer " + acme.key + "\r\n" : "") +
                     "Content-Type: application/json\r\nContent-Length: 100000000000\r\n\r\n{"));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == (with_key ? 413 : 401));
        CHECK(response->header("connection") == "close");
        CHECK(raw.closed_by_peer());
    }
}

TEST_CASE("request headers too large are 431", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    // One header line over cpp-httplib's 8 KiB line limit.
    {
        RawConnection raw(server.port());
        REQUIRE(raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(9000, 'a') +
                         "\r\n\r\n"));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 431);
        CHECK(response->body.find("headers_too_large") != std::string::npos);
        CHECK(is_uuid_v4(response->header("x-request-id")));
    }
    // Many lines, each within the limit, together over 64 KiB.
    Client client = server.client(acme);
    httplib::Headers many;
    for (int i = 0; i < 20; ++i)
        many.emplace("X-Filler-" + std::to_string(i), std::string(4000, 'b'));
    const Reply r = client.get("/api/v1/customers?externalId=x", many);
    CHECK(r.status == 431);
    CHECK(r.error_code() == "headers_too_large");
}

TEST_CASE("a POST without Content-Length has no body and is answered at once", "[http]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string id = client.post("/api/v1/customers", customer_json("nl-1")).str("/data/id");

    RawConnection raw(server.port());
    const auto start = std::chrono::steady_clock::now();
    REQUIRE(raw.send("POST /api/v1/customers/" + id +
                     "/cease-and-desist HTTP/1.1\r\nHost: x\r\n"
                     "Authorization: Bearer " +
                     acme.key + "\r\n\r\n"));
    // A server that waited for a body would answer after its read timeout (10 s), if at all.
    const auto response = raw.receive(std::chrono::seconds(8));
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(std::chrono::steady_clock::now() - start < liveness_bound);
}

TEST_CASE("a body that breaks off is 400, garbage requests get the envelope", "[http]") {
    LocalServer server;
    {
        RawConnection raw(server.port());
        REQUIRE(raw.send(
            "POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\nzz\r\n"));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 400);
        CHECK(response->header("connection") == "close");
    }
    {
        RawConnection raw(server.port());
        REQUIRE(raw.send("BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n"));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 400);
        CHECK(response->body.find("\"success\":false") != std::string::npos);
    }
    {
        RawConnection raw(server.port());
        REQUIRE(raw.send("GET /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n"));
        const auto response = raw.receive();
        REQUIRE(response);
        CHECK(response->status == 414);
        CHECK(response->body.find("uri_too_long") != std::string::npos);
    }
}
