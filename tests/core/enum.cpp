// Described enums: kebab-case wire names, read, written and published from one description.
#include "collectcall/core/enum.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"

namespace enumtest {

enum class Phase { ringing, in_progress, left_a_voicemail };
BOOST_DESCRIBE_ENUM(Phase, ringing, in_progress, left_a_voicemail)

struct Step {
    Phase phase = Phase::ringing;
    std::optional<Phase> next;
    friend bool operator==(const Step&, const Step&) = default;
};
BOOST_DESCRIBE_STRUCT(Step, (), (phase, next))

}  // namespace enumtest

using enumtest::Phase;

TEST_CASE("enum: wire names are the enumerators in kebab case, both ways") {
    STATIC_REQUIRE(collectcall::enum_name(Phase::in_progress) == "in-progress");
    STATIC_REQUIRE(collectcall::enum_name(Phase::left_a_voicemail) == "left-a-voicemail");
    STATIC_REQUIRE(collectcall::enum_from_name<Phase>("ringing") == Phase::ringing);
    CHECK(collectcall::enum_from_name<Phase>("in-progress") == Phase::in_progress);
    // Only the wire name: not the C++ spelling, not another letter case.
    CHECK_FALSE(collectcall::enum_from_name<Phase>("in_progress"));
    CHECK_FALSE(collectcall::enum_from_name<Phase>("Ringing"));
    CHECK_FALSE(collectcall::enum_from_name<Phase>(""));
    CHECK(collectcall::enum_name(static_cast<Phase>(42)).empty());
    CHECK(collectcall::enum_names<Phase>.size() == 3);
}

TEST_CASE("enum: read and write a described enum as its wire name") {
    auto step = collectcall::read<enumtest::Step>(R"({"phase":"in-progress","next":null})");
    REQUIRE(step);
    CHECK(step.value().phase == Phase::in_progress);
    CHECK_FALSE(step.value().next);
    CHECK(collectcall::write(step.value()) == R"({"phase":"in-progress","next":null})");

    step.value().next = Phase::left_a_voicemail;
    const std::string text = collectcall::write(step.value());
    CHECK(text == R"({"phase":"in-progress","next":"left-a-voicemail"})");
    auto again = collectcall::read<enumtest::Step>(text);
    REQUIRE(again);
    CHECK(again.value() == step.value());
}

TEST_CASE("enum: an unknown name or another type is an error at its path") {
    auto bad = collectcall::read<enumtest::Step>(R"({"phase":"in_progress","next":7})");
    REQUIRE_FALSE(bad);
    const auto& errors = bad.errors();
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].path == "/phase");
    CHECK(errors[0].code == "format");
    CHECK(errors[0].message == "must be one of ringing, in-progress, left-a-voicemail");
    CHECK(errors[1].path == "/next");
    CHECK(errors[1].code == "type");
}

TEST_CASE("enum: the schema lists the wire names, as a named definition") {
    const collectcall::Json doc = collectcall::json_schema_value<enumtest::Step>();
    const std::string text = doc.dump();
    CHECK(text.find(
              R"("Phase":{"type":"string","enum":["ringing","in-progress","left-a-voicemail"]})") !=
          std::string::npos);
    CHECK(text.find(R"("phase":{"$ref":"#/$defs/Phase"})") != std::string::npos);
    CHECK(collectcall::json_schema<Phase>() ==
          R"({"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Phase",)"
          R"("type":"string","enum":["ringing","in-progress","left-a-voicemail"]})");
}
