// The read hook (core/read/hook.hpp): the example of docs/read-hook.md, compiled and run as the
// doc quotes it (the quote is checked against the header), and what the hook promises about
// paths, values left unread and errors reported from inside a part.
#include "../../docs/examples/percent_split.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> describe(const collectcall::ErrorList& errors) {
    std::vector<std::string> out;
    for (const collectcall::Error& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The repository's root (tests/CMakeLists.txt defines it for this file).
std::string source_root() {
    return std::string(COLLECTCALL_SOURCE_DIR) + "/";
}

}  // namespace

namespace hooktest {

// Reports, from inside its elements, at the whole array, and leaves some values unread.
struct FirstString {
    std::string text;
};
inline bool collectcall_read(collectcall::ValueReader& in, FirstString& out) {
    bool found = false;
    const bool valid = in.array([&](collectcall::ValueReader& element) {
        if (found || element.type() != collectcall::JsonType::string) return;  // left unread
        out.text = std::string(*element.string());
        found = true;
    });
    if (!found) in.error("required", "has no string");
    return valid && found;
}
struct Holder {
    FirstString first;
};
BOOST_DESCRIBE_STRUCT(Holder, (), (first))

}  // namespace hooktest

TEST_CASE("read hook: docs/read-hook.md quotes the example header as it is") {
    const std::string root = source_root();
    const std::string header = file_text(root + "docs/examples/percent_split.hpp");
    const std::string doc = file_text(root + "docs/read-hook.md");
    REQUIRE_FALSE(header.empty());
    const std::string fence = "```cpp\n";
    const std::size_t marker = doc.find("<!-- docs/examples/percent_split.hpp -->");
    REQUIRE(marker != std::string::npos);
    const std::size_t start = doc.find(fence, marker);
    REQUIRE(start != std::string::npos);
    const std::size_t end = doc.find("```\n", start + fence.size());
    REQUIRE(end != std::string::npos);
    CHECK(doc.substr(start + fence.size(), end - start - fence.size()) == header);
}

TEST_CASE("read hook: the example type of the docs") {
    auto ok = collectcall::read<example::Payment>(
        R"({"amount":120.5,"split":{"checking":60,"savings":40}})");
    REQUIRE(ok.ok());
    REQUIRE(ok.value().split.parts.size() == 2);
    CHECK(ok.value().split.parts[0] == std::pair<std::string, int>{"checking", 60});
    CHECK(ok.value().split.parts[1] == std::pair<std::string, int>{"savings", 40});
    CHECK(collectcall::write(ok.value()) ==
          R"({"amount":120.5,"split":{"checking":60,"savings":40}})");

    // The errors the doc shows, each with its JSON Pointer, and reading goes on past them.
    auto bad = collectcall::read<example::Payment>(
        R"({"amount":"1.5","split":{"checking":60,"cash":101,"sav~ings":"40","checking":40}})");
    REQUIRE_FALSE(bad.ok());
    CHECK(describe(bad.errors()) == std::vector<std::string>{"/amount type", "/split/cash range",
                                                             "/split/sav~0ings type",
                                                             "/split/checking duplicate_field"});
    auto sum =
        collectcall::read<example::Payment>(R"({"amount":1,"split":{"checking":60,"savings":30}})");
    CHECK(describe(sum.errors()) == std::vector<std::string>{"/split range"});
    auto wrong = collectcall::read<example::Payment>(R"({"amount":1,"split":[100]})");
    CHECK(describe(wrong.errors()) == std::vector<std::string>{"/split type"});
    auto missing = collectcall::read<example::Payment>(R"({"amount":1})");
    CHECK(describe(missing.errors()) == std::vector<std::string>{"/split required"});
}

TEST_CASE("read hook: values left unread are checked, errors reported from a part name the whole") {
    auto ok = collectcall::read<hooktest::Holder>(R"({"first":[1,{"a":[true]},"x","y"]})");
    REQUIRE(ok.ok());
    CHECK(ok.value().first.text == "x");
    auto none = collectcall::read<hooktest::Holder>(R"({"first":[1,null]})");
    CHECK(describe(none.errors()) == std::vector<std::string>{"/first required"});
    // An unread value is still JSON that must be well formed.
    auto broken = collectcall::read<hooktest::Holder>(R"({"first":["x",{"a":tru}]})");
    REQUIRE(broken.errors().size() == 1);
    CHECK(broken.errors()[0].code == "malformed_json");
}
