// The routes of the HTTP contract (collectcall/api/routes.hpp).
#include "collectcall/api/routes.hpp"

#include <catch2/catch.hpp>

#include <string>

using collectcall::api::match_route;
using collectcall::api::Operation;

TEST_CASE("routes: a path finds its route, the most specific pattern first") {
    auto m = match_route("POST", "/api/v1/customers/bulk");
    REQUIRE(m.route != nullptr);
    CHECK(m.route->operation == Operation::create_customers);
    CHECK(m.route->max_body == collectcall::api::max_bulk_body);

    m = match_route("PATCH", "/api/v1/customers/abc");
    REQUIRE(m.route != nullptr);
    CHECK(m.route->operation == Operation::update_customer);
    CHECK(m.parameter == "abc");
    CHECK(m.route->max_body == collectcall::api::max_body);

    m = match_route("HEAD", "/api/v1/calls/x");
    REQUIRE(m.route != nullptr);
    CHECK(m.route->operation == Operation::get_call);
}

TEST_CASE("routes: a known path with another method names the methods it has; else nothing") {
    auto m = match_route("DELETE", "/api/v1/customers/abc");
    CHECK(m.route == nullptr);
    CHECK(m.allow == "GET, HEAD, PATCH");
    m = match_route("GET", "/api/v1/customers/abc/nothing");
    CHECK(m.route == nullptr);
    CHECK(m.allow.empty());
    m = match_route("GET", "/api/v1/customers//calls");
    CHECK(m.route == nullptr);
    CHECK(m.allow.empty());
}

TEST_CASE("routes: operation ids, idempotency and access follow from the table") {
    CHECK(collectcall::api::operation_id(Operation::create_webhook_secret) ==
          "createWebhookSecret");
    CHECK(collectcall::api::operation_id(Operation::get_open_api) == "getOpenApi");
    for (const auto& route : collectcall::api::routes) {
        CHECK(route.idempotent() == (route.method == "POST"));
        if (route.access == collectcall::api::Access::document) CHECK_FALSE(route.has_body());
        CHECK(route.max_body <= collectcall::api::largest_body);
    }
    CHECK(collectcall::api::size_text(collectcall::api::max_body) == "1 MiB");
    CHECK(collectcall::api::size_text(collectcall::api::max_bulk_body) == "16 MiB");
    CHECK(collectcall::api::size_text(1536) == "1536 bytes");
}
