// Bulk: each item validated on its own, the item count bounded, the result written per API.md 7.
#include "collectcall/model/bulk.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"

using collectcall::BulkCreateRequest;
using collectcall::read;
using collectcall::write;

namespace {
std::string item(const std::string& external_id, const std::string& phone) {
    return R"({"externalId":")" + external_id +
           R"(","firstName":"A","lastName":"B","email":"a@b.co","primaryPhone":")" + phone +
           R"(","address":{"line1":"1","city":"C","state":"DC","zip":"20001"}})";
}
}  // namespace

TEST_CASE("BulkCreateRequest: a bad item fails alone, with paths relative to the item") {
    auto result =
        read<BulkCreateRequest>(R"({"customers":[)" + item("a", "+12025550100") + "," +
                                item("b", "12025550100") + "," + item("c", "+12025550101") + "]}");
    REQUIRE(result.ok());
    const auto& items = result.value().customers;
    REQUIRE(items.size() == 3);
    CHECK(items[0].ok());
    CHECK_FALSE(items[1].ok());
    CHECK(items[1].errors() ==
          collectcall::ErrorList{{"/primaryPhone", "format",
                                  "must be E.164: + then 2 to 15 digits, first digit 1-9"}});
    CHECK(items[1].value().externalId.view() == "b");  // the valid members of a failed item stay
    CHECK(items[2].ok());
    CHECK(
        collectcall::validation_failure_summary(items[1].errors()) ==
        "validation failed: /primaryPhone: must be E.164: + then 2 to 15 digits, first digit 1-9");
}

TEST_CASE("BulkCreateRequest: 1 to max_bulk_items customers") {
    auto empty = read<BulkCreateRequest>(R"({"customers":[]})");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.errors() ==
          collectcall::ErrorList{{"/customers", "length", "must have 1 to 1000 items"}});

    collectcall::ReadOptions two;
    two.max_bulk_items = 2;
    std::string three = R"({"customers":[)" + item("a", "+12025550100") + "," +
                        item("b", "+12025550100") + "," + item("c", "+12025550100") + "]}";
    CHECK_FALSE(read<BulkCreateRequest>(three, two).ok());
    CHECK(read<BulkCreateRequest>(three).ok());

    auto missing = read<BulkCreateRequest>(R"({"customer":[]})");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.errors().size() == 2);
    auto not_objects = read<BulkCreateRequest>(R"({"customers":[1,"x",null]})");
    REQUIRE(not_objects.ok());
    for (const auto& i : not_objects.value().customers) {
        REQUIRE(i.errors().size() == 1);
        CHECK(i.errors()[0].path.empty());
        CHECK(i.errors()[0].code == "type");
    }
}

TEST_CASE("BulkCreateRequest: malformed JSON inside an item fails the whole request") {
    auto result = read<BulkCreateRequest>(R"({"customers":[{"externalId":01}]})");
    REQUIRE_FALSE(result.ok());
    CHECK(result.errors()[0].code == "malformed_json");
}

TEST_CASE("BulkResult: created and failed items are written in their own shapes and round trip") {
    auto created = read<collectcall::Customer>(
        R"({"externalId":"a","firstName":"A","middleName":null,"lastName":"B","email":"a@b.co",)"
        R"("primaryPhone":"+12025550100","secondaryPhone":null,"address":{"line1":"1","line2":null,)"
        R"("city":"C","state":"DC","zip":"20001"},"ssnLastFour":null,"dateOfBirth":null,)"
        R"("collections":null,"id":"6f1c1c1e-1111-4a2a-9e1b-7d6f5a4b3c2d",)"
        R"("createdAt":"2026-11-20T15:00:00.000Z","updatedAt":"2026-11-20T15:00:00.000Z"})");
    REQUIRE(created.ok());
    collectcall::BulkResult result;
    result.summary = {2, 1, 1};
    collectcall::BulkItemResult ok;
    ok.success = true;
    ok.customer = created.value();
    collectcall::BulkItemResult failed;
    failed.externalId = std::string("b");
    failed.success = false;
    failed.error = std::string("duplicate externalId: b");
    result.results = {ok, failed};
    const std::string json = write(result);
    CHECK(
        json.rfind(
            R"({"summary":{"total":2,"succeeded":1,"failed":1},"results":[{"success":true,"customer":{)",
            0) == 0);
    CHECK(json.find(R"({"externalId":"b","success":false,"error":"duplicate externalId: b"})") !=
          std::string::npos);
    auto back = read<collectcall::BulkResult>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == result);
}

TEST_CASE("BulkCreateRequest: an item's error summary stays short, its details bounded") {
    std::string members;
    for (int i = 0; i < 300; ++i)
        members += "\"x" + std::to_string(i) + "\":0,";
    std::string bad = item("a", "+12025550100");
    bad.insert(1, members);
    auto result = read<BulkCreateRequest>(R"({"customers":[)" + bad + "]}");
    REQUIRE(result.ok());
    const collectcall::ErrorList& errors = result.value().customers.at(0).errors();
    REQUIRE(errors.size() == 101);
    CHECK(errors.back() == collectcall::Error{"", "too_many_errors", "200 more errors not shown"});
    CHECK(collectcall::validation_failure_summary(errors) ==
          "validation failed: /x0: is not a known member; /x1: is not a known member; /x2: is not "
          "a known member; and 297 more");
}

TEST_CASE("BulkCreateRequest: items past the limit are refused before they are built") {
    collectcall::ReadOptions two;
    two.max_bulk_items = 2;
    auto three =
        read<BulkCreateRequest>(R"({"customers":[{},{},{},)" + std::string(1000, '{'), two);
    REQUIRE_FALSE(three.ok());
    CHECK(three.errors() ==
          collectcall::ErrorList{{"/customers", "length", "must have 1 to 2 items"}});
}
