// Bulk: each item validated on its own, the item count bounded, the result written per API.md 7.
#include "collectcall/model/bulk.hpp"

#include <catch2/catch.hpp>

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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
        R"("createdAt":"2026-11-20T15:00:00.000Z","updatedAt":"2026-11-20T15:00:00.000Z",)"
        R"("restrictedMedia":[],"attorneyRepresented":false,"disputed":false})");
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

namespace {
// A store's record that wraps the customer, as a server's would.
struct Record {
    collectcall::Customer customer;
    int row = 0;
};

collectcall::Customer stored_customer(const collectcall::CustomerCreate& fields,
                                      std::string_view id) {
    collectcall::Customer customer;
    static_cast<collectcall::CustomerCreate&>(customer) = fields;
    customer.id = collectcall::Uuid::parse(id).value();
    customer.createdAt = collectcall::Timestamp::parse("2026-11-20T15:00:00.000Z").value();
    customer.updatedAt = customer.createdAt;
    return customer;
}
}  // namespace

TEST_CASE("bulk_result: request order, created, duplicate and invalid items, counts") {
    auto request = read<BulkCreateRequest>(
        R"({"customers":[)" + item("a", "+12025550100") + "," + item("b", "12025550100") + "," +
        item("c", "+12025550101") + "," +
        R"({"firstName":"A","lastName":"B","email":"a@b.co","primaryPhone":"+12025550100"},)" +
        item("a", "+12025550102") + "]}");
    REQUIRE(request.ok());
    auto& items = request.value().customers;
    REQUIRE(items.size() == 5);
    const collectcall::ErrorList b_errors = items[1].errors();
    const collectcall::ErrorList d_errors = items[3].errors();
    REQUIRE_FALSE(d_errors.empty());

    // The valid items a, c and the second a, as the store saw them: a and c created, the second
    // a refused (its externalId was taken by the first).
    std::vector<Record> records{
        {stored_customer(items[0].value(), "6f1c1c1e-1111-4a2a-9e1b-7d6f5a4b3c2d"), 1},
        {stored_customer(items[2].value(), "6f1c1c1e-2222-4a2a-9e1b-7d6f5a4b3c2d"), 2},
        {stored_customer(items[4].value(), "6f1c1c1e-3333-4a2a-9e1b-7d6f5a4b3c2d"), 3}};
    const collectcall::Customer first = records[0].customer;
    const collectcall::Customer third = records[1].customer;
    const std::vector<bool> created{true, true, false};

    const collectcall::BulkResult result =
        collectcall::bulk_result(std::span(items), std::span(records), created, &Record::customer);
    CHECK(result.summary == collectcall::BulkSummary{5, 2, 3});
    REQUIRE(result.results.size() == 5);

    const auto& a = result.results[0];
    CHECK(a.success);
    CHECK(a.externalId.absent());
    REQUIRE(a.customer.has_value());
    CHECK(a.customer.value() == first);
    CHECK(a.error.absent());
    CHECK(a.details.absent());

    const auto& b = result.results[1];
    CHECK_FALSE(b.success);
    REQUIRE(b.externalId.has_value());
    CHECK(b.externalId.value() == "b");  // sent, though the item is invalid
    CHECK(b.customer.absent());
    REQUIRE(b.error.has_value());
    CHECK(b.error.value() == collectcall::validation_failure_summary(b_errors));
    REQUIRE(b.details.has_value());
    CHECK(b.details.value() == b_errors);

    CHECK(result.results[2].success);
    CHECK(result.results[2].customer.value() == third);

    const auto& d = result.results[3];  // no externalId sent: null, and its own required error
    CHECK_FALSE(d.success);
    CHECK(d.externalId.is_null());
    CHECK(d.details.value() == d_errors);
    CHECK(d.error.value().rfind("validation failed: /", 0) == 0);

    const auto& dup = result.results[4];
    CHECK_FALSE(dup.success);
    CHECK(dup.externalId.value() == "a");
    CHECK(dup.error.value() == "Customer with external ID 'a' already exists");
    CHECK(dup.customer.absent());
    CHECK(dup.details.absent());

    // Written as the API answers: the duplicate item in the hosted service's shape.
    CHECK(
        write(result).find(
            R"({"externalId":"a","success":false,"error":"Customer with external ID 'a' already exists"})") !=
        std::string::npos);
}

TEST_CASE("bulk_result: customers directly, every item failed, and mismatched inputs") {
    auto request = read<BulkCreateRequest>(R"({"customers":[)" + item("x", "+1") + "," +
                                           item("y", "+12025550100") + "]}");
    REQUIRE(request.ok());
    auto& items = request.value().customers;
    std::vector<collectcall::Customer> customers{
        stored_customer(items[1].value(), "6f1c1c1e-1111-4a2a-9e1b-7d6f5a4b3c2d")};

    SECTION("every item failed is still a result") {
        const auto result =
            collectcall::bulk_result(std::span(items), std::span(customers), {false});
        CHECK(result.summary == collectcall::BulkSummary{2, 0, 2});
        CHECK(result.results[0].externalId.value() == "x");
        CHECK(result.results[1].error.value() == collectcall::bulk_duplicate_message("y"));
    }
    SECTION("a created flag missing, or one too many") {
        CHECK_THROWS_AS(collectcall::bulk_result(std::span(items), std::span(customers), {}),
                        std::invalid_argument);
        CHECK_THROWS_AS(
            collectcall::bulk_result(std::span(items), std::span(customers), {true, true}),
            std::invalid_argument);
    }
    SECTION("fewer or more stored customers than valid items") {
        std::vector<collectcall::Customer> none;
        CHECK_THROWS_AS(collectcall::bulk_result(std::span(items), std::span(none), {}),
                        std::invalid_argument);
        // Refused before anything was moved: the invalid item still has its errors.
        CHECK_FALSE(items[0].ok());
        customers.push_back(customers.front());
        CHECK_THROWS_AS(
            collectcall::bulk_result(std::span(items), std::span(customers), {true, true}),
            std::invalid_argument);
    }
    SECTION("no items") {
        std::vector<collectcall::Validated<collectcall::CustomerCreate>> empty;
        std::vector<collectcall::Customer> none;
        const auto result = collectcall::bulk_result(std::span(empty), std::span(none), {});
        CHECK(result.summary == collectcall::BulkSummary{0, 0, 0});
        CHECK(result.results.empty());
    }
}
