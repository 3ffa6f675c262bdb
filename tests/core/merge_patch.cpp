// merge_patch: RFC 7396 over described structs.
#include "collectcall/core/merge_patch.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include <boost/describe/class.hpp>

namespace mergetest {

using collectcall::Patch;

struct Leaf {
    std::string required;
    std::optional<std::string> optional;
    friend bool operator==(const Leaf&, const Leaf&) = default;
};
BOOST_DESCRIBE_STRUCT(Leaf, (), (required, optional))

struct LeafPatch {
    Patch<std::string> required;
    Patch<std::string> optional;
};
BOOST_DESCRIBE_STRUCT(LeafPatch, (), (required, optional))

struct Doc {
    std::string name;
    std::optional<std::string> nickname;
    Leaf leaf;
    std::optional<Leaf> extra;
    friend bool operator==(const Doc&, const Doc&) = default;
};
BOOST_DESCRIBE_STRUCT(Doc, (), (name, nickname, leaf, extra))

struct DocPatch {
    collectcall::NotAllowed id;
    Patch<std::string> name;
    Patch<std::string> nickname;
    Patch<LeafPatch> leaf;
    Patch<LeafPatch> extra;
};
BOOST_DESCRIBE_STRUCT(DocPatch, (), (id, name, nickname, leaf, extra))

}  // namespace mergetest

using mergetest::Doc;
using mergetest::DocPatch;
using mergetest::LeafPatch;

namespace {
Doc sample() {
    return Doc{"n", std::string("nick"), {"r", std::string("o")}, std::nullopt};
}
}  // namespace

TEST_CASE("merge_patch: an empty patch changes nothing") {
    Doc doc = sample();
    CHECK(collectcall::merge_patch(doc, DocPatch{}).empty());
    CHECK(doc == sample());
}

TEST_CASE("merge_patch: values replace, null clears optional members") {
    Doc doc = sample();
    DocPatch patch;
    patch.name = std::string("m");
    patch.nickname = collectcall::null;
    CHECK(collectcall::merge_patch(doc, patch).empty());
    CHECK(doc.name == "m");
    CHECK_FALSE(doc.nickname.has_value());
    CHECK(doc.leaf == sample().leaf);
}

TEST_CASE("merge_patch: nested objects merge member by member") {
    Doc doc = sample();
    LeafPatch leaf;
    leaf.optional = std::string("p");
    DocPatch patch;
    patch.leaf = leaf;
    CHECK(collectcall::merge_patch(doc, patch).empty());
    CHECK(doc.leaf.required == "r");
    CHECK(doc.leaf.optional == "p");
}

TEST_CASE("merge_patch: null on a required member is not_allowed, with the merged path") {
    Doc doc = sample();
    LeafPatch leaf;
    leaf.required = collectcall::null;
    DocPatch patch;
    patch.name = collectcall::null;
    patch.leaf = leaf;
    auto errors = collectcall::merge_patch(doc, patch);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == collectcall::Error{"/name", "not_allowed", "cannot be cleared"});
    CHECK(errors[1] == collectcall::Error{"/leaf/required", "not_allowed", "cannot be cleared"});
}

TEST_CASE("merge_patch: a nested object where there was none must be complete") {
    Doc doc = sample();
    LeafPatch partial;
    partial.optional = std::string("x");
    DocPatch patch;
    patch.extra = partial;
    auto errors = collectcall::merge_patch(doc, patch);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == collectcall::Error{"/extra/required", "required", "is required"});
    CHECK_FALSE(doc.extra.has_value());

    LeafPatch full;
    full.required = std::string("q");
    patch.extra = full;
    CHECK(collectcall::merge_patch(doc, patch).empty());
    REQUIRE(doc.extra.has_value());
    CHECK(doc.extra->required == "q");
    CHECK_FALSE(doc.extra->optional.has_value());
}

TEST_CASE("merge_patch: null clears a whole optional nested object") {
    Doc doc = sample();
    doc.extra = mergetest::Leaf{"a", std::nullopt};
    DocPatch patch;
    patch.extra = collectcall::null;
    CHECK(collectcall::merge_patch(doc, patch).empty());
    CHECK_FALSE(doc.extra.has_value());
}
