// Webhook targets under --allow-private-webhooks (API.md section 9, docs/security.md): loopback
// and private networks stay reachable for tests, cloud metadata and credential services and the
// rest of link-local never are. Each refusal is a 400 that names the rule, never the address,
// and places no call.
#include <catch2/catch.hpp>

#include <string>

#include "harness.hpp"

using namespace test;
using collectcall::server::ServerOptions;

TEST_CASE("metadata, credential and link-local webhook targets are refused under allow_private",
          "[calls][webhooks][ssrf]") {
    const auto time = frozen_time("2026-11-20T15:00:00Z");  // 09:00 in Chicago
    LocalServer server([time](ServerOptions& o) {
        o.now = time;
        o.api.allow_private_webhooks = true;
    });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("c-1")).str("/data/id");
    const std::string calls = "/api/v1/customers/" + customer + "/calls";
    const std::string secret = client.post("/api/v1/webhook-secrets", "").str("/data/id");
    auto body = [&](const std::string& url) {
        return R"({"agentId":")" + acme.agent + R"(","webhook":{"url":")" + url +
               R"(","secretId":")" + secret + R"("}})";
    };

    // URL, the address it must not name, and the rule it must.
    struct Refused {
        const char* url;
        const char* address;
        const char* rule;
    };
    const Refused refused[] = {
        {"http://169.254.170.23/v1/credentials", "169.254.170.23", "cloud metadata address"},
        {"http://[fd00:ec2::23]/", "fd00:ec2::23", "cloud metadata address"},
        {"http://169.254.0.23/", "169.254.0.23", "cloud metadata address"},
        {"http://169.254.169.254/latest/meta-data/", "169.254.169.254", "cloud metadata address"},
        {"http://100.100.100.200/latest/meta-data/", "100.100.100.200", "cloud metadata address"},
        {"http://169.254.10.10/hook", "169.254.10.10", "link-local address"},
        {"http://[fe80::1]/hook", "fe80::1", "link-local address"},
    };
    for (const Refused& r : refused) {
        INFO(r.url);
        const Reply reply = client.post(calls, body(r.url));
        REQUIRE(reply.status == 400);
        CHECK(reply.error_code() == "validation_failed");
        CHECK(reply.str("/error/details/0/path") == "/webhook/url");
        CHECK(reply.str("/error/details/0/code") == "not_allowed");
        const std::string message = reply.str("/error/details/0/message");
        CHECK(message.find(r.rule) != std::string::npos);
        CHECK(message.find(r.address) == std::string::npos);
    }
    // None of them placed a call.
    CHECK(client.get(calls).size("/data/calls") == 0);

    // Loopback and private networks stay allowed for tests.
    for (const char* url : {"http://127.0.0.1:9/hook", "http://10.0.0.1:9/hook"}) {
        INFO(url);
        CHECK(client.post(calls, body(url)).status == 200);
    }
    CHECK(client.get(calls).size("/data/calls") == 2);
}
