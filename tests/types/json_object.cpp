// JsonObject: any JSON object kept member for member, bounded, merged by RFC 7396.
#include "collectcall/types/json_object.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/core/merge_patch.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"

namespace {

struct Holder {
    std::optional<collectcall::JsonObject> extensions;
    friend bool operator==(const Holder&, const Holder&) = default;
};
BOOST_DESCRIBE_STRUCT(Holder, (), (extensions))

struct HolderPatch {
    collectcall::Patch<collectcall::JsonObject> extensions;
};
BOOST_DESCRIBE_STRUCT(HolderPatch, (), (extensions))

std::vector<std::string> describe(const collectcall::ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

std::string nested(int depth) {
    std::string out;
    for (int i = 0; i < depth; ++i)
        out += R"({"a":)";
    out += "1";
    for (int i = 0; i < depth; ++i)
        out += "}";
    return out;
}

}  // namespace

using collectcall::read;
using collectcall::write;

TEST_CASE("JsonObject keeps members, their order and the exact text of numbers",
          "[types][json_object]") {
    auto r = read<Holder>(
        R"({"extensions": {"rate": 1.50, "big": 123456789012345678901234567890, "e": 1E+2,)"
        R"( "list": [true, false, null, "x\u00e9\"\n"], "z": {}, "a": {"b": []}}})");
    REQUIRE(r.ok());
    CHECK(write(r.value()) ==
          R"({"extensions":{"rate":1.50,"big":123456789012345678901234567890,"e":1E+2,)"
          R"("list":[true,false,null,"xé\"\n"],"z":{},"a":{"b":[]}}})");
    // What was written reads back to the same value.
    auto back = read<Holder>(write(r.value()));
    REQUIRE(back.ok());
    CHECK(back.value() == r.value());
    // null and absent are no extensions.
    CHECK_FALSE(read<Holder>(R"({"extensions":null})").value().extensions);
    CHECK(write(read<Holder>("{}").value()) == R"({"extensions":null})");
}

TEST_CASE("JsonObject refuses what is not a bounded object", "[types][json_object]") {
    CHECK(describe(read<Holder>(R"({"extensions":[1]})").errors()) ==
          std::vector<std::string>{"/extensions type"});
    CHECK(describe(read<Holder>(R"({"extensions":"x"})").errors()) ==
          std::vector<std::string>{"/extensions type"});
    CHECK(describe(read<Holder>(R"({"extensions":{"a":1,"a":2,"b":{"c":1,"c":1}}})").errors()) ==
          std::vector<std::string>{"/extensions/a duplicate_field",
                                   "/extensions/b/c duplicate_field"});
    CHECK(read<Holder>(R"({"extensions":)" + nested(16) + "}").ok());
    CHECK(describe(read<Holder>(R"({"extensions":)" + nested(17) + "}").errors()) ==
          std::vector<std::string>{"/extensions range"});
    std::string big = R"({"extensions":{"s":")" + std::string(64 * 1024, 'x') + R"("}})";
    CHECK(describe(read<Holder>(big).errors()) == std::vector<std::string>{"/extensions length"});
    std::string fits = R"({"extensions":{"s":")" + std::string(64 * 1024 - 8, 'x') + R"("}})";
    CHECK(read<Holder>(fits).ok());
    // Malformed JSON inside is malformed, not skipped.
    CHECK(describe(read<Holder>(R"({"extensions":{"a":01}})").errors()) ==
          std::vector<std::string>{" malformed_json"});
}

TEST_CASE("JsonObject merges by RFC 7396 inside a merge patch", "[types][json_object]") {
    Holder target =
        read<Holder>(R"({"extensions":{"a":"b","c":{"d":"e","f":"g"},"k":[1]}})").value();
    // RFC 7396 section 3's example, in part: null removes, objects merge, the rest replaces.
    auto patch =
        read<HolderPatch>(R"({"extensions":{"a":"z","c":{"f":null},"k":{"x":1},"n":2.0}})");
    REQUIRE(patch.ok());
    CHECK(collectcall::merge_patch(target, patch.value()).empty());
    CHECK(write(target) == R"({"extensions":{"a":"z","c":{"d":"e"},"k":{"x":1},"n":2.0}})");

    // Into no extensions: the patch without its nulls.
    Holder empty;
    auto first = read<HolderPatch>(R"({"extensions":{"a":null,"b":{"c":null,"d":1}}})");
    CHECK(collectcall::merge_patch(empty, first.value()).empty());
    CHECK(write(empty) == R"({"extensions":{"b":{"d":1}}})");

    // null clears the whole object.
    auto clear = read<HolderPatch>(R"({"extensions":null})");
    CHECK(collectcall::merge_patch(empty, clear.value()).empty());
    CHECK_FALSE(empty.extensions);

    // A merge that grows past 64 KiB is refused at the member.
    Holder full =
        read<Holder>(R"({"extensions":{"s":")" + std::string(40'000, 'x') + R"("}})").value();
    auto grow = read<HolderPatch>(R"({"extensions":{"t":")" + std::string(40'000, 'y') + R"("}})");
    CHECK(describe(collectcall::merge_patch(full, grow.value())) ==
          std::vector<std::string>{"/extensions length"});
}
