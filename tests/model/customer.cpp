// The customer models: CustomerCreate, Customer, CustomerPatch and the cross-field rule.
#include "collectcall/model/customer.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectcall/core/merge_patch.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"

using collectcall::CustomerCreate;
using collectcall::read;
using collectcall::write;

namespace {

const collectcall::ReadOptions options{std::chrono::sys_days{std::chrono::year{2026} / 11 / 20}, 64,
                                       1000};

const std::string valid_customer = R"({
  "externalId": "ext-1001",
  "firstName": "José",
  "middleName": null,
  "lastName": "O'Brien",
  "email": "jose.obrien@example.com",
  "primaryPhone": "+14155550100",
  "secondaryPhone": "+442071838750",
  "address": {"line1": "1 Market St", "line2": "Suite 5", "city": "San Francisco",
              "state": "CA", "zip": "94105-1234"},
  "ssnLastFour": "0042",
  "dateOfBirth": "1980-02-29",
  "collections": {
    "totalBalance": 1234.56, "principalBalance": 1000, "originalCreditor": "Acme Bank",
    "accruedInterestAmount": 0.1, "chargeOffDate": "2024-02-29", "firstDelinquencyDate": "2023-12-01",
    "settlementAggregationRate": 0.35, "originalAccountNumber": "ACC-9", "itemizationBalance": 1200.00,
    "postItemizationInterest": 34.56, "postItemizationFees": 0, "postItemizationCredits": 1e1,
    "postItemizationPayments": 10.5, "productType": "credit card", "originalProductType": "card"
  }
})";

std::vector<std::string> describe(const collectcall::ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

}  // namespace

TEST_CASE("CustomerCreate: a valid document reads into a fully valid value") {
    auto result = read<CustomerCreate>(valid_customer, options);
    REQUIRE(result.ok());
    const CustomerCreate& c = result.value();
    CHECK(c.externalId.view() == "ext-1001");
    CHECK(c.firstName.view() == "José");
    CHECK_FALSE(c.middleName.has_value());
    CHECK(c.primaryPhone.view() == "+14155550100");
    CHECK(c.address.zip.view() == "94105-1234");
    CHECK(c.ssnLastFour->view() == "0042");
    REQUIRE(c.collections.has_value());
    std::string balance;
    c.collections->totalBalance.append_json(balance);
    CHECK(balance == "1234.56");
}

TEST_CASE("CustomerCreate: five different mistakes give five errors with their paths") {
    auto result = read<CustomerCreate>(R"({
      "externalId": "ext-1", "firstName": "Ann", "lastName": "Lee",
      "email": "ann@@example.com",
      "primaryPhone": "415-555-0100",
      "address": {"line1": "1 Main", "city": "Springfield", "state": "ZZ", "zip": "1234"},
      "dateOfBirth": "2023-02-29"
    })",
                                       options);
    REQUIRE_FALSE(result.ok());
    CHECK(describe(result.errors()) == std::vector<std::string>{
                                           "/email format",
                                           "/primaryPhone format",
                                           "/address/state format",
                                           "/address/zip format",
                                           "/dateOfBirth format",
                                       });
}

TEST_CASE("CustomerCreate: missing, unknown, duplicate, null and wrongly typed members") {
    auto result = read<CustomerCreate>(R"({
      "externalId": "x", "externalId": "y", "firstName": null, "lastName": 7,
      "email": "a@b.c", "nickname": "Al",
      "address": {"line1": "1 Main", "city": "X", "state": "NY", "zip": "10001", "country": "US"},
      "collections": {"principalBalance": -1, "totalBalance": "100"}
    })",
                                       options);
    REQUIRE_FALSE(result.ok());
    CHECK(describe(result.errors()) == std::vector<std::string>{
                                           "/externalId duplicate_field",
                                           "/firstName type",
                                           "/lastName type",
                                           "/nickname unknown_field",
                                           "/address/country unknown_field",
                                           "/collections/principalBalance minimum",
                                           "/collections/totalBalance type",
                                           "/primaryPhone required",
                                           "/collections conflict",
                                       });
}

TEST_CASE("CustomerCreate: collections needs ssnLastFour and dateOfBirth, and totalBalance") {
    const std::string base = R"({"externalId":"e","firstName":"A","lastName":"B","email":"a@b.co",)"
                             R"("primaryPhone":"+12025550100","address":{"line1":"1","city":"C",)"
                             R"("state":"DC","zip":"20001"})";
    auto missing_both =
        read<CustomerCreate>(base + R"(,"collections":{"totalBalance":1}})", options);
    REQUIRE_FALSE(missing_both.ok());
    CHECK(missing_both.errors() ==
          collectcall::ErrorList{
              {"/collections", "conflict", "requires ssnLastFour and dateOfBirth"}});

    auto missing_dob = read<CustomerCreate>(
        base + R"(,"ssnLastFour":"1234","collections":{"totalBalance":1}})", options);
    REQUIRE_FALSE(missing_dob.ok());
    CHECK(missing_dob.errors()[0].message == "requires dateOfBirth");

    // An invalid ssnLastFour has its own error and is not also reported as missing.
    auto bad_ssn = read<CustomerCreate>(
        base +
            R"(,"ssnLastFour":"12a4","dateOfBirth":"1990-01-01","collections":{"totalBalance":1}})",
        options);
    REQUIRE_FALSE(bad_ssn.ok());
    CHECK(describe(bad_ssn.errors()) == std::vector<std::string>{"/ssnLastFour format"});

    auto no_total = read<CustomerCreate>(
        base + R"(,"ssnLastFour":"1234","dateOfBirth":"1990-01-01","collections":{}})", options);
    REQUIRE_FALSE(no_total.ok());
    CHECK(describe(no_total.errors()) ==
          std::vector<std::string>{"/collections/totalBalance required"});

    auto null_collections = read<CustomerCreate>(base + R"(,"collections":null})", options);
    CHECK(null_collections.ok());
}

TEST_CASE("CustomerCreate: dates after today are out of range") {
    const std::string doc = R"({"externalId":"e","firstName":"A","lastName":"B","email":"a@b.co",)"
                            R"("primaryPhone":"+12025550100","address":{"line1":"1","city":"C",)"
                            R"("state":"DC","zip":"20001"},"dateOfBirth":")";
    CHECK(read<CustomerCreate>(doc + R"(2026-11-20"})", options).ok());
    auto tomorrow = read<CustomerCreate>(doc + R"(2026-11-21"})", options);
    REQUIRE_FALSE(tomorrow.ok());
    CHECK(describe(tomorrow.errors()) == std::vector<std::string>{"/dateOfBirth range"});
}

TEST_CASE("CustomerCreate: numbers in money members") {
    auto with_balance = [](const std::string& number) {
        return read<CustomerCreate>(
            R"({"externalId":"e","firstName":"A","lastName":"B","email":"a@b.co",)"
            R"("primaryPhone":"+12025550100","address":{"line1":"1","city":"C","state":"DC",)"
            R"("zip":"20001"},"ssnLastFour":"1234","dateOfBirth":"1990-01-01",)"
            R"("collections":{"totalBalance":)" +
                number + "}}",
            options);
    };
    auto code_of = [&](const std::string& number) {
        auto r = with_balance(number);
        return r.ok() ? std::string("ok") : r.errors().at(0).code;
    };
    CHECK(code_of("0") == "ok");
    CHECK(code_of("-0") == "ok");
    CHECK(code_of("9007199254740992") == "ok");
    CHECK(code_of("9007199254740993") == "range");
    CHECK(code_of("1e400") == "range");
    CHECK(code_of("-0.01") == "minimum");
    CHECK(code_of("01") == "malformed_json");
    CHECK(code_of("NaN") == "malformed_json");
    CHECK(code_of("Infinity") == "malformed_json");
    CHECK(code_of("1.") == "malformed_json");
    CHECK(code_of("\"12\"") == "type");
    CHECK(code_of("null") == "type");
}

TEST_CASE("CustomerCreate: truncated documents are malformed at every length") {
    for (std::size_t n = 0; n < valid_customer.size(); ++n) {
        std::string_view prefix(valid_customer.data(), n);
        // Cutting inside trailing white space still leaves a complete document.
        if (prefix.find_last_not_of(" \n") == valid_customer.find_last_not_of(" \n")) continue;
        auto result = read<CustomerCreate>(prefix, options);
        INFO("prefix length " << n);
        REQUIRE_FALSE(result.ok());
        REQUIRE(result.errors().size() == 1);
        CHECK(result.errors()[0].code == "malformed_json");
    }
}

TEST_CASE("CustomerCreate: round trip read -> write -> read gives an equal value") {
    auto first = read<CustomerCreate>(valid_customer, options);
    REQUIRE(first.ok());
    const std::string json = write(first.value());
    auto second = read<CustomerCreate>(json, options);
    REQUIRE(second.ok());
    CHECK(second.value() == first.value());
    CHECK(write(second.value()) == json);
    CHECK(json.find(R"("totalBalance":1234.56,)") != std::string::npos);
    CHECK(json.find(R"("itemizationBalance":1200,)") != std::string::npos);
    CHECK(json.find(R"("postItemizationCredits":10,)") != std::string::npos);
    CHECK(json.find(R"("middleName":null,)") != std::string::npos);
}

TEST_CASE("Money: awkward decimals echo exactly through read and write") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"0.1", "0.1"},
        {"0.2", "0.2"},
        {"0.3", "0.3"},
        {"1234.56", "1234.56"},
        {"1234.5599999", "1234.5599999"},
        {"0.01", "0.01"},
        {"0.07", "0.07"},
        {"1.005", "1.005"},
        {"2.675", "2.675"},
        {"1.50", "1.5"},
        {"100.000", "100"},
        {"1e2", "100"},
        {"1E+2", "100"},
        {"12.3400e1", "123.4"},
        {"1.5e-3", "0.0015"},
        {"123456789.123456789", "123456789.123456789"},
        {"9007199254740992", "9007199254740992"},
        {"9007199254740991.5", "9007199254740991.5"},
        {"0.000001", "0.000001"},
        {"999999999999.99", "999999999999.99"},
        {"4.35", "4.35"},
        {"-0.0", "0"},
        {"0e10", "0"},
    };
    for (const auto& [input, expected] : cases) {
        INFO("input " << input);
        auto money = read<collectcall::Money>(input);
        REQUIRE(money.ok());
        CHECK(write(money.value()) == expected);
        auto again = read<collectcall::Money>(write(money.value()));
        REQUIRE(again.ok());
        CHECK(again.value() == money.value());
    }
}

TEST_CASE("Customer: the stored customer round trips with id and timestamps") {
    auto created = read<CustomerCreate>(valid_customer, options);
    REQUIRE(created.ok());
    collectcall::Customer customer;
    static_cast<CustomerCreate&>(customer) = created.value();
    customer.id = collectcall::Uuid::parse("0b5a1c9e-8f3d-4c2a-9e1b-7d6f5a4b3c2d").value();
    customer.createdAt = collectcall::Timestamp::parse("2026-11-20T15:00:00Z").value();
    customer.updatedAt = collectcall::Timestamp::parse("2026-11-20T15:00:01.5Z").value();
    const std::string json = write(customer);
    CHECK(json.find(R"("id":"0b5a1c9e-8f3d-4c2a-9e1b-7d6f5a4b3c2d")") != std::string::npos);
    CHECK(json.find(R"("createdAt":"2026-11-20T15:00:00.000Z")") != std::string::npos);
    auto back = read<collectcall::Customer>(json, options);
    REQUIRE(back.ok());
    CHECK(back.value() == customer);
}

TEST_CASE("CustomerPatch: tri-state members, id and externalId not allowed") {
    auto patch = read<collectcall::CustomerPatch>(
        R"({"middleName":null,"firstName":"Jo","address":{"zip":"10001"}})", options);
    REQUIRE(patch.ok());
    CHECK(patch.value().middleName.is_null());
    CHECK(patch.value().firstName.has_value());
    CHECK(patch.value().lastName.absent());
    CHECK(patch.value().address->zip.has_value());
    CHECK(patch.value().address->city.absent());

    auto forbidden =
        read<collectcall::CustomerPatch>(R"({"externalId":"new","id":"x","email":"bad"})", options);
    REQUIRE_FALSE(forbidden.ok());
    CHECK(describe(forbidden.errors()) ==
          std::vector<std::string>{"/externalId not_allowed", "/id not_allowed", "/email format"});

    auto round = read<collectcall::CustomerPatch>(write(patch.value()), options);
    REQUIRE(round.ok());
    CHECK(round.value() == patch.value());
    CHECK(write(patch.value()) ==
          R"({"firstName":"Jo","middleName":null,"address":{"zip":"10001"}})");
}

TEST_CASE("CustomerPatch: merged into a customer and validated as a whole") {
    auto stored = read<CustomerCreate>(valid_customer, options);
    REQUIRE(stored.ok());

    SECTION("clearing ssnLastFour while collections is set is a conflict") {
        CustomerCreate merged = stored.value();
        auto patch = read<collectcall::CustomerPatch>(R"({"ssnLastFour":null})", options);
        REQUIRE(patch.ok());
        CHECK(collectcall::merge_patch(merged, patch.value()).empty());
        CHECK(collectcall::validate(merged) ==
              collectcall::ErrorList{{"/collections", "conflict", "requires ssnLastFour"}});
    }
    SECTION("clearing required members is not allowed") {
        CustomerCreate merged = stored.value();
        auto patch = read<collectcall::CustomerPatch>(
            R"({"firstName":null,"address":{"line2":null,"city":null,"zip":null}})", options);
        REQUIRE(patch.ok());
        auto errors = collectcall::merge_patch(merged, patch.value());
        CHECK(describe(errors) ==
              std::vector<std::string>{"/firstName not_allowed", "/address/zip not_allowed"});
    }
    SECTION("address merges member by member, collections too") {
        CustomerCreate merged = stored.value();
        auto patch = read<collectcall::CustomerPatch>(
            R"({"address":{"zip":"10001","state":"NY"},"collections":{"productType":null,"totalBalance":5}})",
            options);
        REQUIRE(patch.ok());
        CHECK(collectcall::merge_patch(merged, patch.value()).empty());
        CHECK(collectcall::validate(merged).empty());
        CHECK(merged.address.zip.view() == "10001");
        CHECK(merged.address.line1 == stored.value().address.line1);
        CHECK_FALSE(merged.collections->productType.has_value());
        CHECK(merged.collections->originalCreditor == stored.value().collections->originalCreditor);
        CHECK(write(merged.collections->totalBalance) == "5");
    }
    SECTION("collections added to a customer without them must carry totalBalance") {
        CustomerCreate merged = stored.value();
        merged.collections.reset();
        auto patch =
            read<collectcall::CustomerPatch>(R"({"collections":{"productType":"x"}})", options);
        REQUIRE(patch.ok());
        CHECK(describe(collectcall::merge_patch(merged, patch.value())) ==
              std::vector<std::string>{"/collections/totalBalance required"});
    }
}

TEST_CASE("apply_patch: the merged customer or all its errors, the current one untouched") {
    auto stored = read<CustomerCreate>(valid_customer, options);
    REQUIRE(stored.ok());
    const CustomerCreate current = stored.value();
    const auto patch = [](std::string_view body) {
        auto parsed = read<collectcall::CustomerPatch>(body, options);
        REQUIRE(parsed.ok());
        return std::move(parsed).value();
    };

    SECTION("an empty patch changes nothing") {
        auto result = collectcall::apply_patch(current, patch("{}"));
        REQUIRE(result.ok());
        CHECK_FALSE(result.value().changed);
        CHECK(result.value().customer == current);
    }
    SECTION("setting members to the values they have changes nothing") {
        auto result = collectcall::apply_patch(
            current,
            patch(R"({"firstName":"José","middleName":null,"address":{"zip":"94105-1234"}})"));
        REQUIRE(result.ok());
        CHECK_FALSE(result.value().changed);
    }
    SECTION("a change is merged member by member") {
        auto result = collectcall::apply_patch(
            current, patch(R"({"firstName":"Jo","address":{"city":null,"state":"ny"}})"));
        REQUIRE(result.ok());
        const CustomerCreate& merged = result.value().customer;
        CHECK(result.value().changed);
        CHECK(merged.firstName.view() == "Jo");
        CHECK_FALSE(merged.address.city.has_value());
        CHECK(merged.address.state->view() == "NY");
        CHECK(merged.address.line1 == current.address.line1);
        CHECK(merged.lastName == current.lastName);
        CHECK(current.firstName.view() == "José");  // the input is not touched
    }
    SECTION("merge errors then whole-customer errors, all of them, nothing applied") {
        // firstName cannot be cleared (merge); clearing ssnLastFour leaves collections without it
        // (the whole).
        auto result =
            collectcall::apply_patch(current, patch(R"({"firstName":null,"ssnLastFour":null})"));
        REQUIRE_FALSE(result.ok());
        CHECK(describe(result.errors()) ==
              std::vector<std::string>{"/firstName not_allowed", "/collections conflict"});
        CHECK(result.errors().back().message == "requires ssnLastFour");
        CHECK(current == stored.value());
    }
    SECTION("only a whole-customer error") {
        auto result =
            collectcall::apply_patch(current, patch(R"({"dateOfBirth":null,"ssnLastFour":null})"));
        REQUIRE_FALSE(result.ok());
        CHECK(result.errors() == collectcall::ErrorList{{"/collections", "conflict",
                                                         "requires ssnLastFour and dateOfBirth"}});
    }
    SECTION("clearing collections makes ssnLastFour clearable") {
        auto result =
            collectcall::apply_patch(current, patch(R"({"collections":null,"ssnLastFour":null})"));
        REQUIRE(result.ok());
        CHECK(result.value().changed);
        CHECK_FALSE(result.value().customer.collections.has_value());
        CHECK_FALSE(result.value().customer.ssnLastFour.has_value());
    }
}

TEST_CASE("inconvenientTimes: an extension member, left out when the customer designated none") {
    auto plain = read<CustomerCreate>(valid_customer, options);
    REQUIRE(plain.ok());
    CHECK(plain.value().inconvenientTimes.absent());
    CHECK(write(plain.value()).find("inconvenientTimes") == std::string::npos);

    const std::string body = valid_customer.substr(0, valid_customer.rfind('}')) +
                             R"(,"inconvenientTimes":[{"days":["mon","fri"],"from":"09:00",)"
                             R"("to":"17:00"},{"days":["sun"],"from":"22:00","to":"07:00"}]})";
    auto designated = read<CustomerCreate>(body, options);
    REQUIRE(designated.ok());
    const auto& periods = designated.value().inconvenientTimes;
    REQUIRE(periods.has_value());
    REQUIRE(periods->size() == 2);
    CHECK((*periods)[0].days == collectcall::BoundedVector<collectcall::Weekday, 1, 7>{
                                    collectcall::Weekday::mon, collectcall::Weekday::fri});
    CHECK((*periods)[1].to.view() == "07:00");
    const std::string json = write(designated.value());
    CHECK(
        json.find(R"(,"inconvenientTimes":[{"days":["mon","fri"],"from":"09:00","to":"17:00"},)") !=
        std::string::npos);
    auto back = read<CustomerCreate>(json, options);
    REQUIRE(back.ok());
    CHECK(back.value() == designated.value());
}

TEST_CASE("inconvenientTimes: every bad period with its path") {
    const std::string head = valid_customer.substr(0, valid_customer.rfind('}'));
    struct Case {
        const char* member;
        std::vector<std::string> errors;
    };
    const std::vector<Case> cases{
        {R"([{"days":[],"from":"09:00","to":"17:00"}])", {"/inconvenientTimes/0/days length"}},
        {R"([{"days":["monday"],"from":"09:00","to":"17:00"}])",
         {"/inconvenientTimes/0/days/0 format"}},
        {R"([{"days":["mon"],"from":"9:00","to":"25:00"}])",
         {"/inconvenientTimes/0/from format", "/inconvenientTimes/0/to format"}},
        {R"([{"days":["mon"],"from":"09:00"}])", {"/inconvenientTimes/0/to required"}},
        {R"([{"days":["mon","tue","wed","thu","fri","sat","sun","mon"],"from":"09:00","to":"10:00"}])",
         {"/inconvenientTimes/0/days length"}},
        {R"({"days":["mon"]})", {"/inconvenientTimes type"}},
        {R"([{"days":["mon"],"from":"09:00","to":"10:00","note":"x"}])",
         {"/inconvenientTimes/0/note unknown_field"}},
    };
    for (const Case& c : cases) {
        INFO(c.member);
        auto result =
            read<CustomerCreate>(head + R"(,"inconvenientTimes":)" + c.member + "}", options);
        REQUIRE_FALSE(result.ok());
        CHECK(describe(result.errors()) == c.errors);
    }
    std::string many = R"([)";
    for (std::size_t i = 0; i <= collectcall::max_inconvenient_times; ++i)
        many += std::string(i ? "," : "") + R"({"days":["mon"],"from":"09:00","to":"10:00"})";
    auto too_many = read<CustomerCreate>(head + R"(,"inconvenientTimes":)" + many + "]}", options);
    REQUIRE_FALSE(too_many.ok());
    CHECK(describe(too_many.errors()) == std::vector<std::string>{"/inconvenientTimes length"});
}

TEST_CASE("inconvenientTimes: a PATCH replaces the list, null clears it") {
    auto stored = read<CustomerCreate>(valid_customer, options);
    REQUIRE(stored.ok());
    auto set = read<collectcall::CustomerPatch>(
        R"({"inconvenientTimes":[{"days":["sat","sun"],"from":"00:00","to":"24:00"}]})", options);
    REQUIRE(set.ok());
    auto merged = collectcall::apply_patch(stored.value(), set.value());
    REQUIRE(merged.ok());
    CHECK(merged.value().changed);
    REQUIRE(merged.value().customer.inconvenientTimes.has_value());
    CHECK(merged.value().customer.inconvenientTimes->size() == 1);

    auto clear = read<collectcall::CustomerPatch>(R"({"inconvenientTimes":null})", options);
    REQUIRE(clear.ok());
    auto cleared = collectcall::apply_patch(merged.value().customer, clear.value());
    REQUIRE(cleared.ok());
    CHECK(cleared.value().changed);
    CHECK(cleared.value().customer.inconvenientTimes.absent());
    CHECK(cleared.value().customer == stored.value());
    CHECK(write(cleared.value().customer) == write(stored.value()));
}
