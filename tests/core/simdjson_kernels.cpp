// core/read/simdjson.hpp: the reader, included before simdjson.h, leaves out the kernels of the
// x86-64 targets this file is not compiled for, and still reads (the full pass and the fast pass)
// and lets simdjson parse with the kernel libsimdjson chooses at run time. Compiled without the
// unit tests' precompiled header, which includes simdjson.h whole.
#include "collectcall/core/read.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include <boost/describe/class.hpp>

namespace kernels {

struct Greeting {
    std::string text;
    int count = 0;
};
BOOST_DESCRIBE_STRUCT(Greeting, (), (text, count))

}  // namespace kernels

#if defined(__x86_64__) && !defined(__AVX2__)
static_assert(!SIMDJSON_IMPLEMENTATION_HASWELL, "haswell's kernel is left out");
#endif
#if defined(__x86_64__) && !defined(__AVX512VBMI2__)
static_assert(!SIMDJSON_IMPLEMENTATION_ICELAKE, "icelake's kernel is left out");
#endif
static_assert(SIMDJSON_IMPLEMENTATION_FALLBACK, "the portable kernel stays");

TEST_CASE("simdjson kernels: the reader reads with the kernels it keeps", "[read][simdjson]") {
    collectcall::ReadOptions full_pass;
    full_pass.fast_pass = false;
    for (const collectcall::ReadOptions& options : {collectcall::ReadOptions{}, full_pass}) {
        auto good = collectcall::read<kernels::Greeting>(
            std::string_view(R"({"text": "caf\u00e9", "count": 3})"), options);
        REQUIRE(good.ok());
        CHECK(good.value().text == "caf\xc3\xa9");
        CHECK(good.value().count == 3);

        auto bad = collectcall::read<kernels::Greeting>(
            std::string_view(R"({"text": 5, "count": 3, "other": 1})"), options);
        REQUIRE_FALSE(bad.ok());
        REQUIRE(bad.errors().size() == 2);
        CHECK(bad.errors()[0].path == "/text");
        CHECK(bad.errors()[1].path == "/other");

        auto broken =
            collectcall::read<kernels::Greeting>(std::string_view(R"({"text": "a)"), options);
        REQUIRE_FALSE(broken.ok());
        CHECK(broken.errors()[0].code == "malformed_json");
    }
}

TEST_CASE("simdjson kernels: simdjson still parses with the kernel chosen at run time",
          "[read][simdjson]") {
    const std::string name(simdjson::get_active_implementation()->name());
    CHECK_FALSE(name.empty());
    CHECK(name != "unsupported");
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(std::string_view(R"({"a": [1, 2, 3]})")).get(root) == simdjson::SUCCESS);
    CHECK(root["a"].get_array().size() == 3);
}
