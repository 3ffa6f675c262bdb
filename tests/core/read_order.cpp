// read<T> expects each key to name the member after the previous one (declaration order) and
// looks any other key up: what it answers must not depend on the order, the gaps, repeated or
// unknown keys between the members. Every document here is checked against its full list of
// errors, in order.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"

namespace order {

struct Leaf {
    std::string a;
    std::optional<std::int64_t> b;
    friend bool operator==(const Leaf&, const Leaf&) = default;
};
BOOST_DESCRIBE_STRUCT(Leaf, (), (a, b))

struct Record {
    std::string first;
    std::optional<std::int64_t> second;
    std::int64_t third = 0;
    Leaf leaf;
    std::optional<std::string> fifth;
    bool last = false;
    friend bool operator==(const Record&, const Record&) = default;
};
BOOST_DESCRIBE_STRUCT(Record, (), (first, second, third, leaf, fifth, last))

std::vector<std::string> describe(const collectcall::ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

// Built member by member: GCC 12 warns (wrongly) about a braced Record holding strings.
Record record(std::optional<std::int64_t> second, std::optional<std::int64_t> b,
              std::optional<std::string> fifth) {
    Record r;
    r.first = "f";
    r.second = second;
    r.third = 3;
    r.leaf.a = "x";
    r.leaf.b = b;
    r.fifth = std::move(fifth);
    r.last = true;
    return r;
}

std::vector<std::string> errors_of(const std::string& json) {
    INFO(json);
    return describe(collectcall::read<Record>(json).errors());
}

}  // namespace order

using order::errors_of;
using order::Record;

TEST_CASE("read order: members in declaration order, out of it, or with gaps give one value") {
    const Record expected = order::record(2, 4, "v");
    const std::vector<std::string> documents = {
        R"({"first":"f","second":2,"third":3,"leaf":{"a":"x","b":4},"fifth":"v","last":true})",
        R"({"last":true,"fifth":"v","leaf":{"b":4,"a":"x"},"third":3,"second":2,"first":"f"})",
        R"({"first":"f","third":3,"second":2,"leaf":{"a":"x","b":4},"fifth":"v","last":true})",
        R"({"first":"f","second":2,"third":3,"leaf":{"a":"x","b":4},"last":true,"fifth":"v"})",
        R"({"fir\u0073t":"f","second":2,"third":3,"leaf":{"a":"x","b":4},"fifth":"v","last":true})",
    };
    for (const std::string& json : documents) {
        INFO(json);
        auto result = collectcall::read<Record>(json);
        REQUIRE(result.ok());
        CHECK(result.value() == expected);
    }
    // Optional members left out, in order and not.
    auto gaps =
        collectcall::read<Record>(R"({"first":"f","third":3,"leaf":{"a":"x"},"last":true})");
    REQUIRE(gaps.ok());
    CHECK(gaps.value() == order::record(std::nullopt, std::nullopt, std::nullopt));
    auto shuffled_gaps =
        collectcall::read<Record>(R"({"last":true,"first":"f","leaf":{"a":"x"},"third":3})");
    REQUIRE(shuffled_gaps.ok());
    CHECK(shuffled_gaps.value() == gaps.value());
}

TEST_CASE("read order: a key out of order is read and the rest goes on after it") {
    CHECK(errors_of(R"({"third":"x","first":1,"second":2,"leaf":{"a":"x"},"last":0})") ==
          std::vector<std::string>{"/third type", "/first type", "/last type"});
    CHECK(errors_of(R"({"first":"f","leaf":{"a":1},"third":"t","last":true})") ==
          std::vector<std::string>{"/leaf/a type", "/third type"});
}

TEST_CASE("read order: missing members are reported after the others, in declaration order") {
    CHECK(errors_of(R"({"second":"s"})") ==
          std::vector<std::string>{"/second type", "/first required", "/third required",
                                   "/leaf required", "/last required"});
    CHECK(errors_of(R"({"first":"f","last":true})") ==
          std::vector<std::string>{"/third required", "/leaf required"});
    CHECK(errors_of(R"({"first":"f","third":3,"leaf":{},"last":true})") ==
          std::vector<std::string>{"/leaf/a required"});
    CHECK(errors_of("{}") == std::vector<std::string>{"/first required", "/third required",
                                                      "/leaf required", "/last required"});
}

TEST_CASE("read order: an invalid member on the straight line is reported and reading goes on") {
    CHECK(errors_of(R"({"first":"f","second":"2","third":3.5,"leaf":[],"fifth":5,"last":null})") ==
          std::vector<std::string>{"/second type", "/third type", "/leaf type", "/fifth type",
                                   "/last type"});
}

TEST_CASE("read order: a repeated member is a duplicate wherever it comes") {
    CHECK(errors_of(R"({"first":"f","first":"g","third":3,"leaf":{"a":"x"},"last":true})") ==
          std::vector<std::string>{"/first duplicate_field"});
    CHECK(errors_of(R"({"first":"f","third":3,"leaf":{"a":"x"},"last":true,"third":"x"})") ==
          std::vector<std::string>{"/third duplicate_field"});
    CHECK(errors_of(R"({"first":"f","third":3,"leaf":{"a":"x","a":1},"last":true,"last":1})") ==
          std::vector<std::string>{"/leaf/a duplicate_field", "/last duplicate_field"});
    auto first_kept = collectcall::read<Record>(
        R"({"first":"f","first":"g","third":3,"leaf":{"a":"x"},"last":true})");
    REQUIRE_FALSE(first_kept.ok());
}

TEST_CASE("read order: an unknown member in the middle, at the start and at the end") {
    CHECK(errors_of(R"({"first":"f","third":3,"extra":1,"leaf":{"a":"x"},"last":true})") ==
          std::vector<std::string>{"/extra unknown_field"});
    CHECK(errors_of(R"({"extra":{"deep":[1]},"first":"f","third":3,"leaf":{"a":"x"},"last":1})") ==
          std::vector<std::string>{"/extra unknown_field", "/last type"});
    CHECK(errors_of(R"({"first":"f","third":3,"leaf":{"a":"x","z":0},"last":true,"zz":0})") ==
          std::vector<std::string>{"/leaf/z unknown_field", "/zz unknown_field"});
    // Unknown and missing together: the unknown where it stands, the missing after.
    CHECK(errors_of(R"({"first":"f","nope":0,"last":true})") ==
          std::vector<std::string>{"/nope unknown_field", "/third required", "/leaf required"});
    // Malformed JSON inside an unknown member in the middle is still found.
    auto malformed = collectcall::read<Record>(R"({"first":"f","nope":[1,}],"third":3})");
    REQUIRE(malformed.errors().size() == 1);
    CHECK(malformed.errors()[0].code == "malformed_json");
}

TEST_CASE("read order: a string value followed by a colon is malformed, not a key") {
    // Read straight from the input, a string is not consumed through the parser; the colon after
    // it must still be refused (the parser would otherwise skip the string as a key).
    for (const std::string& json : std::vector<std::string>{
             R"({"first":"f":"third","leaf":{"a":"x"},"last":true})",
             R"({"first":"f","leaf":{"a":"x":"b"},"third":3,"last":true})",
             R"({"first":"f","third":3,"leaf":{"a":"x"},"fifth":"v":1,"last":true})",
         }) {
        INFO(json);
        auto result = collectcall::read<Record>(json);
        REQUIRE(result.errors().size() == 1);
        CHECK(result.errors()[0].code == "malformed_json");
    }
}
