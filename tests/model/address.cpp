// Address and Collections on their own.
#include "collectcall/model/address.hpp"

#include <catch2/catch.hpp>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/model/collections.hpp"

using collectcall::read;
using collectcall::write;

TEST_CASE("Address: line1, city, state, zip required; line2 optional and nullable") {
    auto ok = read<collectcall::Address>(
        R"({"line1":"  12 Rue \"Haute\" ","city":"São Paulo","state":"PR","zip":"00901"})");
    REQUIRE(ok.ok());
    CHECK(ok.value().line1.view() == "  12 Rue \"Haute\" ");  // stored as sent
    CHECK_FALSE(ok.value().line2.has_value());
    auto back = read<collectcall::Address>(write(ok.value()));
    REQUIRE(back.ok());
    CHECK(back.value() == ok.value());

    auto empty = read<collectcall::Address>("{}");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.errors().size() == 4);
    auto blank = read<collectcall::Address>(
        R"({"line1":"   ","line2":"","city":"a\u0000b","state":"ny","zip":"12345-"})");
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
