// read_into: reading into a caller's object gives what read<T> gives, whatever the object held
// before, and keeps the storage it owns; padded inputs are read where they lie and give the same
// answers as the copied ones.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <simdjson.h>

#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"

using collectcall::BulkCreateRequest;
using collectcall::CustomerCreate;
using collectcall::ErrorList;
using collectcall::read;
using collectcall::read_into;

namespace {

namespace into {

struct Inner {
    std::string a;
    std::optional<std::int64_t> b;
    friend bool operator==(const Inner&, const Inner&) = default;
};
BOOST_DESCRIBE_STRUCT(Inner, (), (a, b))

struct Outer {
    std::string name;
    std::vector<Inner> list;
    std::vector<std::int64_t> numbers;
    std::vector<bool> flags;
    std::optional<Inner> opt;
    collectcall::Patch<std::string> tri;
    std::int64_t count = 0;
    friend bool operator==(const Outer&, const Outer&) = default;
};
BOOST_DESCRIBE_STRUCT(Outer, (), (name, list, numbers, flags, opt, tri, count))

}  // namespace into

const collectcall::ReadOptions options{std::chrono::sys_days{std::chrono::year{2026} / 11 / 20}, 64,
                                       1000};

std::string item(const std::string& external_id, const std::string& phone,
                 const std::string& extra = "") {
    return R"({"externalId":")" + external_id +
           R"(","firstName":"A","lastName":"B","email":"a@b.co","primaryPhone":")" + phone +
           R"(","address":{"line1":"1","city":"C","state":"DC","zip":"20001"})" + extra + "}";
}

std::string bulk(const std::vector<std::string>& items) {
    std::string out = R"({"customers":[)";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : ",") + items[i];
    return out + "]}";
}

// Reads every document into one object, in turn, and checks each answer against read<T>'s.
template <class T>
void check_same_as_read(const std::vector<std::string>& documents) {
    T reused;
    for (const std::string& json : documents) {
        INFO(json);
        auto fresh = read<T>(std::string_view(json), options);
        const ErrorList errors = read_into(std::string_view(json), reused, options);
        CHECK(errors == fresh.errors());
        if (fresh.ok()) CHECK(reused == fresh.value());
    }
}

}  // namespace

TEST_CASE("read_into: each document reads as read<T> reads it, whatever came before") {
    check_same_as_read<into::Outer>({
        R"({"name":"first","list":[{"a":"x","b":1},{"a":"y"}],"numbers":[1,2,3],)"
        R"("flags":[true,false,true],"opt":{"a":"o","b":2},"tri":"t","count":5})",
        // Fewer elements, absent optional members, null where a value was.
        R"({"name":"s","list":[{"a":"z"}],"numbers":[],"flags":[false],"tri":null})",
        R"({"name":"third","list":[],"numbers":[7],"flags":[],"opt":null})",
        // Errors: the same list, in the same order.
        R"({"name":1,"list":[{"a":"x","b":"no"}],"numbers":[1,"x"],"flags":[1],"count":"c"})",
        R"({"name":"x"} trailing)",
        R"({"name":"back","list":[{"a":"x","b":1},{"a":"y","b":2},{"a":"z","b":3}],)"
        R"("numbers":[1],"flags":[true],"opt":{"a":"o"},"tri":"t","count":1})",
    });
    check_same_as_read<CustomerCreate>({
        item("a", "+12025550100",
             R"(,"middleName":"M","ssnLastFour":"1234",)"
             R"("dateOfBirth":"1990-01-01","collections":{"totalBalance":1}})"),
        item("b", "+12025550101"),
        item("c", "+12025550102", R"(,"middleName":null,"secondaryPhone":"+12025550103")"),
    });
}

TEST_CASE("read_into: a failed bulk item holds what read<T> would put there") {
    // The second item's externalId is valid the first time and invalid the second: the item must
    // not keep the externalId it had (the server names a failed item by it).
    const std::string first =
        bulk({item("a", "+12025550100"), item("b", "+12025550101"), item("c", "+12025550102")});
    const std::string second =
        bulk({item("d", "+12025550100"), R"({"externalId":5,"firstName":"A","lastName":"B",)"
                                         R"("email":"x","primaryPhone":"1"})"});
    check_same_as_read<BulkCreateRequest>({first, second, first});

    BulkCreateRequest reused;
    REQUIRE(read_into(first, reused, options).empty());
    REQUIRE(read_into(second, reused, options).empty());
    const auto& items = reused.customers;
    REQUIRE(items.size() == 2);
    CHECK(items[0].ok());
    CHECK(items[0].value().externalId.view() == "d");
    CHECK_FALSE(items[1].ok());
    CHECK(items[1].value().externalId.view().empty());
    CHECK(items[1].value().firstName.view() == "A");
    CHECK(items[1].value().email.view().empty());
    CHECK(items[1].value().address == collectcall::Address{});
}

TEST_CASE("read_into: storage already owned is kept for the next document") {
    into::Outer reused;
    const std::string long_name(200, 'n');
    REQUIRE(read_into(R"({"name":")" + long_name +
                          R"(","list":[{"a":"x"},{"a":"y"}],)"
                          R"("numbers":[1,2,3],"flags":[],"count":1})",
                      reused)
                .empty());
    const char* name_storage = reused.name.data();
    const into::Inner* list_storage = reused.list.data();
    const std::int64_t* number_storage = reused.numbers.data();
    REQUIRE(read_into(std::string(R"({"name":"short","list":[{"a":"z"}],"numbers":[4,5],)"
                                  R"("flags":[],"count":2})"),
                      reused)
                .empty());
    CHECK(reused.name == "short");
    CHECK(reused.name.data() == name_storage);
    CHECK(reused.list == std::vector<into::Inner>{{"z", std::nullopt}});
    CHECK(reused.list.data() == list_storage);
    CHECK(reused.numbers == std::vector<std::int64_t>{4, 5});
    CHECK(reused.numbers.data() == number_storage);
}

TEST_CASE("read: padded text is read where it lies, with the answers of a copy") {
    const std::vector<std::string> documents = {
        item("a", "+12025550100"),
        item("a", "12025550100"),
        R"({"externalId":"x"})",
        R"(  {"externalId":"x"}  )",
        R"({"externalId":"x"} {"externalId":"y"})",
        R"({"externalId":"x","address":{"line1":"1"})",
        R"({"externalId":"x","address":{"line1":"1"}}})",
        R"({"externalId": 01})",
        R"([1,2])",
        R"("text")",
        "",
    };
    for (const std::string& json : documents) {
        INFO(json);
        const auto copied = read<CustomerCreate>(std::string_view(json), options);
        const simdjson::padded_string padded(json);
        const auto from_padded = read<CustomerCreate>(padded, options);
        CHECK(from_padded.errors() == copied.errors());
        CHECK(from_padded.ok() == copied.ok());
        std::string spare = json;
        spare.reserve(json.size() + simdjson::SIMDJSON_PADDING);
        const auto from_string = read<CustomerCreate>(spare, options);
        CHECK(from_string.errors() == copied.errors());
        if (copied.ok()) {
            CHECK(from_padded.value() == copied.value());
            CHECK(from_string.value() == copied.value());
        }
        CustomerCreate into;
        CHECK(read_into(simdjson::padded_string_view(padded), into, options) == copied.errors());
    }
}

TEST_CASE("read: a padded buffer whose next byte could continue the text is copied first") {
    // The text is an object left open; the bytes after it would close it. They are not the
    // document's: reading must see the text end where its length says.
    const std::string text = R"({"externalId":"x","address":{"line1":"1"})";
    std::string buffer = text + std::string(simdjson::SIMDJSON_PADDING, '}');
    const simdjson::padded_string_view view(buffer.data(), text.size(), buffer.size());
    const auto result = read<CustomerCreate>(view, options);
    REQUIRE(result.errors().size() == 1);
    CHECK(result.errors()[0].code == "malformed_json");
}
