// The routes of the HTTP contract (collectcall/api/routes.hpp).
#include "collectcall/api/routes.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

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
    CHECK(m.parameters.at(0) == "abc");
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

TEST_CASE("routes: the path is split on '/' before its segments are decoded") {
    const std::string id = "0190b2f4-0000-7000-8000-000000000001";
    // An encoded '/' never separates segments: these name no route.
    for (const std::string& path : std::vector<std::string>{
             "/api/v1/customers/" + id + "%2Fcalls", "/api/v1/customers/" + id + "%2fcalls",
             "/api/v1/customers/" + id + "%2fcease-and-desist",
             "/api%2Fv1%2Fcustomers%2F" + id + "%2Fcalls", "/api/v1%2Fcustomers"}) {
        const auto m = match_route("POST", path);
        CHECK(m.route == nullptr);
        CHECK(m.allow.empty());
    }
    // The same paths with the '/' as sent are routes.
    auto m = match_route("POST", "/api/v1/customers/" + id + "/calls");
    REQUIRE(m.route != nullptr);
    CHECK(m.route->operation == Operation::create_call);
    CHECK(m.parameters.at(0) == id);
    // Other escapes are decoded within their segment, literal or parameter.
    m = match_route("POST", "/api/v1/%63ustomers/%30190b2f4-0000-7000-8000-000000000001/calls");
    REQUIRE(m.route != nullptr);
    CHECK(m.route->operation == Operation::create_call);
    CHECK(m.parameters.at(0) == id);
    // A '%' without two hex digits after it stands for itself.
    m = match_route("GET", "/api/v1/customers/a%zz%4");
    REQUIRE(m.route != nullptr);
    CHECK(m.parameters.at(0) == "a%zz%4");
    // An encoded '/' at the end of a parameter is still inside it.
    m = match_route("GET", "/api/v1/customers/" + id + "%2F");
    CHECK(m.route == nullptr);
    CHECK(m.allow.empty());
}
