// Bounds that read<T> enforces while it reads: a container's length (BoundedVector) and the
// number of error details of a document or of a Validated<T> item.
#include "collectcall/core/bounded.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/core/write.hpp"

namespace boundedtest {

// Counts the elements built, to prove that the reader stops before the one past the bound.
inline std::size_t built = 0;

struct Item {
    std::int64_t n = 0;
    Item() { ++built; }
    friend bool operator==(const Item&, const Item&) = default;
};
BOOST_DESCRIBE_STRUCT(Item, (), (n))

struct Batch {
    collectcall::BoundedVector<Item, 1, &collectcall::ReadOptions::max_bulk_items> items;
    std::vector<std::int64_t> tags;
    friend bool operator==(const Batch&, const Batch&) = default;
};
BOOST_DESCRIBE_STRUCT(Batch, (), (items, tags))

struct Fixed {
    collectcall::BoundedVector<std::string, 0, 3> names;
};
BOOST_DESCRIBE_STRUCT(Fixed, (), (names))

struct Wide {
    std::int64_t a = 0;
};
BOOST_DESCRIBE_STRUCT(Wide, (), (a))

struct Items {
    std::vector<collectcall::Validated<Wide>> items;
};
BOOST_DESCRIBE_STRUCT(Items, (), (items))

std::string items_json(std::size_t count) {
    std::string json = R"({"items":[)";
    for (std::size_t i = 0; i < count; ++i) {
        if (i != 0) json += ',';
        json += R"({"n":)" + std::to_string(i) + "}";
    }
    return json + R"(],"tags":[]})";
}

// An object with `count` unknown members x0, x1, ...
std::string unknown_members(std::size_t count) {
    std::string json = "{";
    for (std::size_t i = 0; i < count; ++i) {
        if (i != 0) json += ',';
        json += "\"x" + std::to_string(i) + "\":0";
    }
    return json + "}";
}

}  // namespace boundedtest

using boundedtest::Batch;
using collectcall::Error;
using collectcall::ErrorList;
using collectcall::read;

TEST_CASE("BoundedVector: up to the bound reads like a vector and writes back") {
    collectcall::ReadOptions three;
    three.max_bulk_items = 3;
    auto result = read<Batch>(boundedtest::items_json(3), three);
    REQUIRE(result.ok());
    REQUIRE(result.value().items.size() == 3);
    CHECK(result.value().items[2].n == 2);
    CHECK(collectcall::write(result.value()) == R"({"items":[{"n":0},{"n":1},{"n":2}],"tags":[]})");
}

TEST_CASE("BoundedVector: the element past the bound is never built, and reading stops") {
    collectcall::ReadOptions three;
    three.max_bulk_items = 3;
    boundedtest::built = 0;
    // Everything after the fourth element would be an error: none of it is read.
    auto result = read<Batch>(
        R"({"x":1,"items":[{"n":0},{"n":1},{"n":2},{"n":3},{"n":"bad"}],"tags":"no","y":1})",
        three);
    REQUIRE_FALSE(result.ok());
    CHECK(result.errors() == ErrorList{{"/x", "unknown_field", "is not a known member"},
                                       {"/items", "length", "must have 1 to 3 items"}});
    CHECK(boundedtest::built == 3);

    // A million elements cost no more than the bound's worth.
    std::string huge = R"({"items":[)";
    for (int i = 0; i < 1000000; ++i)
        huge += R"({"n":1},)";
    huge += R"({"n":1}]})";
    boundedtest::built = 0;
    auto refused = read<Batch>(huge);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.errors() == ErrorList{{"/items", "length", "must have 1 to 1000 items"}});
    CHECK(boundedtest::built == 1000);
}

TEST_CASE("BoundedVector: fewer than the minimum is a length error at the array") {
    auto empty = read<Batch>(R"({"items":[],"tags":[1]})");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.errors() == ErrorList{{"/items", "length", "must have 1 to 1000 items"}});

    auto fixed = read<boundedtest::Fixed>(R"({"names":["a","b","c","d"]})");
    REQUIRE_FALSE(fixed.ok());
    CHECK(fixed.errors() == ErrorList{{"/names", "length", "must have at most 3 items"}});
    CHECK(read<boundedtest::Fixed>(R"({"names":[]})").ok());
}

TEST_CASE("BoundedVector: the JSON Schema publishes minItems and the default maxItems") {
    const std::string schema = collectcall::json_schema<boundedtest::Fixed>();
    CHECK(schema.find(R"("names":{"type":"array","items":{"type":"string"},"maxItems":3})") !=
          std::string::npos);
    const std::string batch = collectcall::json_schema<Batch>();
    CHECK(batch.find(R"("minItems":1,"maxItems":1000)") != std::string::npos);
}

TEST_CASE("errors: at most max_errors details, then one too_many_errors detail") {
    // 300 unknown members and the missing `a`.
    auto result = read<boundedtest::Wide>(boundedtest::unknown_members(300));
    REQUIRE_FALSE(result.ok());
    const ErrorList& errors = result.errors();
    REQUIRE(errors.size() == 101);
    CHECK(errors[0] == Error{"/x0", "unknown_field", "is not a known member"});
    CHECK(errors[99].path == "/x99");
    CHECK(errors[100] == Error{"", "too_many_errors", "201 more errors not shown"});
    CHECK(collectcall::error_total(errors) == 301);

    // Exactly at the bound: no marker.
    auto hundred = read<boundedtest::Wide>(boundedtest::unknown_members(99));
    REQUIRE(hundred.errors().size() == 100);
    CHECK(hundred.errors().back() == Error{"/a", "required", "is required"});
    CHECK(collectcall::error_total(hundred.errors()) == 100);

    // The bound is an option; the required error after the cut is counted too.
    collectcall::ReadOptions two;
    two.max_errors = 2;
    auto cut = read<boundedtest::Wide>(R"({"b":1,"c":2,"d":3})", two);
    CHECK(cut.errors() == ErrorList{{"/b", "unknown_field", "is not a known member"},
                                    {"/c", "unknown_field", "is not a known member"},
                                    {"", "too_many_errors", "2 more errors not shown"}});
}

TEST_CASE("errors: each Validated item has a bound of its own, paths stay relative") {
    const std::string json = R"({"items":[)" + boundedtest::unknown_members(150) + R"(,{"a":1},)" +
                             boundedtest::unknown_members(3) + "]}";
    auto result = read<boundedtest::Items>(json);
    REQUIRE(result.ok());
    const auto& items = result.value().items;
    REQUIRE(items.size() == 3);
    REQUIRE(items[0].errors().size() == 101);
    CHECK(items[0].errors()[0] ==
          Error{"/x0", "unknown_field", "is not a known member"});  // item-relative
    CHECK(items[0].errors()[100] == Error{"", "too_many_errors", "51 more errors not shown"});
    CHECK(items[1].ok());
    CHECK(items[1].value().a == 1);
    REQUIRE(items[2].errors().size() == 4);  // 3 unknown, 1 required
    CHECK(items[2].errors()[3] == Error{"/a", "required", "is required"});
}

TEST_CASE("read: a thread gives back the buffers a large document grew") {
    auto& state = collectcall::detail::thread_state();
    std::string large = "[";
    while (large.size() < (std::size_t{3} << 20))
        large += R"("abcdefghijklmnopqrstuvwxyz",)";
    large += R"("z"])";
    auto result = read<collectcall::BoundedVector<std::string, 0, 1000000>>(large);
    REQUIRE(result.ok());
    CHECK(result.value().size() > 100000);
    CHECK(state.capacity <= collectcall::detail::ReleaseLargeBuffers::kept);
    CHECK(state.parser.capacity() <= collectcall::detail::ReleaseLargeBuffers::kept);

    // A document of ordinary size keeps them for the next one (an array is parsed as it is, not
    // wrapped in [ ]: its own size is what the parser needs).
    const std::string small = R"(["a","b"])";
    REQUIRE(read<std::vector<std::string>>(small).ok());
    CHECK(state.capacity >= small.size());
    CHECK(state.parser.capacity() >= small.size());
}
