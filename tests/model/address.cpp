// Address and Collections on their own.
#include "collectcall/model/address.hpp"

#include <catch2/catch.hpp>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/model/collections.hpp"

using collectcall::read;
using collectcall::write;

TEST_CASE("Address: only zip required; line1, line2, city and state optional and nullable") {
    auto ok = read<collectcall::Address>(
        R"({"line1":"  12 Rue \"Haute\" ","city":"São Paulo","state":"pr","zip":"00901"})");
    REQUIRE(ok.ok());
    CHECK(ok.value().line1->view() == "  12 Rue \"Haute\" ");  // stored as sent
    CHECK(ok.value().state->view() == "PR");                   // in any case, kept upper
    CHECK_FALSE(ok.value().line2.has_value());
    auto back = read<collectcall::Address>(write(ok.value()));
    REQUIRE(back.ok());
    CHECK(back.value() == ok.value());

    auto zip_only = read<collectcall::Address>(R"({"zip":"10001"})");
    REQUIRE(zip_only.ok());
    CHECK(write(zip_only.value()) ==
          R"({"line1":null,"line2":null,"city":null,"state":null,"zip":"10001"})");
    auto nulls = read<collectcall::Address>(
        R"({"line1":null,"line2":null,"city":null,"state":null,"zip":"10001-1234"})");
    CHECK(nulls.ok());

    auto empty = read<collectcall::Address>("{}");
    REQUIRE_FALSE(empty.ok());
    REQUIRE(empty.errors().size() == 1);
    CHECK(empty.errors()[0].path == "/zip");
    CHECK(empty.errors()[0].code == "required");
    auto blank = read<collectcall::Address>(
        R"({"line1":"   ","line2":"","city":"a\u0000b","state":"nyc","zip":"12345-"})");
    REQUIRE_FALSE(blank.ok());
    CHECK(blank.errors().size() == 5);
}

TEST_CASE("Collections: only totalBalance required; the rest nullable; round trip") {
    auto minimal = read<collectcall::Collections>(R"({"totalBalance":0})");
    REQUIRE(minimal.ok());
    CHECK(write(minimal.value()).rfind(R"({"totalBalance":0,"principalBalance":null,)", 0) == 0);
    auto back = read<collectcall::Collections>(write(minimal.value()));
    REQUIRE(back.ok());
    CHECK(back.value() == minimal.value());
    auto negative = read<collectcall::Collections>(
        R"({"totalBalance":1,"postItemizationFees":-0.5,"settlementAggregationRate":-1})");
    REQUIRE_FALSE(negative.ok());
    CHECK(negative.errors().size() == 2);
    CHECK(negative.errors()[0].path == "/postItemizationFees");
    CHECK(negative.errors()[1].path == "/settlementAggregationRate");
}
