// read<T>: the generic reader, on small described structs of the test's own.
#include "collectcall/core/read.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectcall/core/presence.hpp"

namespace readtest {

struct Inner {
    std::string a;
    std::optional<std::int64_t> b;
    friend bool operator==(const Inner&, const Inner&) = default;
};
BOOST_DESCRIBE_STRUCT(Inner, (), (a, b))

struct Outer {
    std::string name;
    Inner inner;
    std::vector<Inner> list;
    bool flag = false;
    std::optional<Inner> opt;
    collectcall::Patch<std::string> tri;
    friend bool operator==(const Outer&, const Outer&) = default;
};
BOOST_DESCRIBE_STRUCT(Outer, (), (name, inner, list, flag, opt, tri))

// A user type outside the library, made readable through the ADL customisation point.
struct Celsius {
    int degrees = 0;
};
inline bool collectcall_read(collectcall::ValueReader& in, Celsius& out) {
    std::int64_t n = 0;
    if (!in.read(n)) return false;
    if (n < -273) {
        in.error("range", "is below absolute zero");
        return false;
    }
    out.degrees = static_cast<int>(n);
    return true;
}

struct Reading {
    Celsius temperature;
    std::uint8_t sensor = 0;
};
BOOST_DESCRIBE_STRUCT(Reading, (), (temperature, sensor))

// A name longer than the document's padding allows the wide key compares to read past.
struct LongNames {
    std::optional<std::int64_t> a;
    std::optional<std::int64_t>
        a_member_name_much_longer_than_any_sensible_json_key_ever_needs_to_be_xyz;
    std::optional<std::int64_t> b;
    friend bool operator==(const LongNames&, const LongNames&) = default;
};
BOOST_DESCRIBE_STRUCT(LongNames, (),
                      (a, a_member_name_much_longer_than_any_sensible_json_key_ever_needs_to_be_xyz,
                       b))

// More members than the passes keep on the stack (64): the fast pass gives such a struct to the
// full pass, which keeps what it records of each member on the heap.
struct WideBase {
    std::int64_t m0 = 0;
    std::int64_t m1 = 0;
    std::int64_t m2 = 0;
    std::int64_t m3 = 0;
    std::int64_t m4 = 0;
    std::int64_t m5 = 0;
    std::int64_t m6 = 0;
    std::int64_t m7 = 0;
    std::int64_t m8 = 0;
    std::int64_t m9 = 0;
    std::int64_t m10 = 0;
    std::int64_t m11 = 0;
    std::int64_t m12 = 0;
    std::int64_t m13 = 0;
    std::int64_t m14 = 0;
    std::int64_t m15 = 0;
    std::int64_t m16 = 0;
    std::int64_t m17 = 0;
    std::int64_t m18 = 0;
    std::int64_t m19 = 0;
    std::int64_t m20 = 0;
    std::int64_t m21 = 0;
    std::int64_t m22 = 0;
    std::int64_t m23 = 0;
    std::int64_t m24 = 0;
    std::int64_t m25 = 0;
    std::int64_t m26 = 0;
    std::int64_t m27 = 0;
    std::int64_t m28 = 0;
    std::int64_t m29 = 0;
    std::int64_t m30 = 0;
    std::int64_t m31 = 0;
    std::int64_t m32 = 0;
    std::int64_t m33 = 0;
    std::int64_t m34 = 0;
    std::int64_t m35 = 0;
    std::int64_t m36 = 0;
    std::int64_t m37 = 0;
    std::int64_t m38 = 0;
    std::int64_t m39 = 0;
};
BOOST_DESCRIBE_STRUCT(WideBase, (),
                      (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16,
                       m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31,
                       m32, m33, m34, m35, m36, m37, m38, m39))

struct Wide : WideBase {
    std::int64_t n0 = 0;
    std::int64_t n1 = 0;
    std::int64_t n2 = 0;
    std::int64_t n3 = 0;
    std::int64_t n4 = 0;
    std::int64_t n5 = 0;
    std::int64_t n6 = 0;
    std::int64_t n7 = 0;
    std::int64_t n8 = 0;
    std::int64_t n9 = 0;
    std::int64_t n10 = 0;
    std::int64_t n11 = 0;
    std::int64_t n12 = 0;
    std::int64_t n13 = 0;
    std::int64_t n14 = 0;
    std::int64_t n15 = 0;
    std::int64_t n16 = 0;
    std::int64_t n17 = 0;
    std::int64_t n18 = 0;
    std::int64_t n19 = 0;
    std::int64_t n20 = 0;
    std::int64_t n21 = 0;
    std::int64_t n22 = 0;
    std::int64_t n23 = 0;
    std::int64_t n24 = 0;
    std::int64_t n25 = 0;
    std::int64_t n26 = 0;
    std::int64_t n27 = 0;
    std::int64_t n28 = 0;
    std::int64_t n29 = 0;
};
BOOST_DESCRIBE_STRUCT(Wide, (WideBase),
                      (n0, n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12, n13, n14, n15, n16,
                       n17, n18, n19, n20, n21, n22, n23, n24, n25, n26, n27, n28, n29))

}  // namespace readtest

using collectcall::Error;
using collectcall::read;
using readtest::Outer;

namespace {

std::vector<std::string> describe(const collectcall::ErrorList& errors) {
    std::vector<std::string> out;
    for (const Error& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

void require_malformed(std::string_view json) {
    INFO("document: " << json);
    auto result = read<Outer>(json);
    REQUIRE_FALSE(result.ok());
    REQUIRE(result.errors().size() == 1);
    CHECK(result.errors()[0].path.empty());
    CHECK(result.errors()[0].code == "malformed_json");
    CHECK(result.errors()[0].message.find("at byte ") != std::string::npos);
}

}  // namespace

TEST_CASE("read: a valid document gives the value") {
    auto result = read<Outer>(
        R"({"name":"x","inner":{"a":"y","b":3},"list":[{"a":"z"}],"flag":true,"opt":null})");
    REQUIRE(result.ok());
    CHECK(result.errors().empty());
    const Outer& v = result.value();
    CHECK(v.name == "x");
    CHECK(v.inner == readtest::Inner{"y", 3});
    REQUIRE(v.list.size() == 1);
    CHECK(v.list[0].a == "z");
    CHECK_FALSE(v.list[0].b.has_value());
    CHECK(v.flag);
    CHECK_FALSE(v.opt.has_value());
    CHECK(v.tri.absent());
}

TEST_CASE("read: a struct of more than 64 members is read and gives every error") {
    std::string all = "{";
    for (int i = 0; i < 40; ++i)
        all += "\"m" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    for (int i = 0; i < 30; ++i)
        all += "\"n" + std::to_string(i) + "\":" + std::to_string(40 + i) + ",";
    all.back() = '}';
    const auto whole = read<readtest::Wide>(all);
    REQUIRE(whole.ok());
    CHECK(whole.value().m0 == 0);
    CHECK(whole.value().m39 == 39);
    CHECK(whole.value().n0 == 40);
    CHECK(whole.value().n29 == 69);

    // Member 69 left out, member 68 twice, member 66 of the wrong type.
    std::string broken = all;
    broken.replace(broken.find(",\"n29\":69"), std::string(",\"n29\":69").size(), ",\"n28\":1");
    broken.replace(broken.find("\"n26\":66"), std::string("\"n26\":66").size(), "\"n26\":\"x\"");
    const auto result = read<readtest::Wide>(broken);
    REQUIRE_FALSE(result.ok());
    CHECK(describe(result.errors()) ==
          std::vector<std::string>{"/n26 type", "/n28 duplicate_field", "/n29 required"});
}

TEST_CASE("read: an escape anywhere in a string is unescaped, whatever the string's length") {
    // Strings without a backslash are taken from the input as they are; the scan for one must
    // find it at every place, and a backslash just past a string is not the string's.
    for (std::size_t n = 1; n <= 40; ++n) {
        for (std::size_t at = 0; at < n; ++at) {
            std::string raw(n, 'x');
            std::string expected = raw;
            expected[at] = '"';
            raw.replace(at, 1, "\\\"");
            INFO("length " << n << ", escape at " << at);
            auto result = read<readtest::Inner>(R"({"a":")" + raw + R"(","b":1})");
            REQUIRE(result.ok());
            CHECK(result.value().a == expected);
        }
        const std::string plain(n, 'y');
        auto followed = read<std::vector<std::string>>(R"([")" + plain + R"(","\n"])");
        REQUIRE(followed.ok());
        CHECK(followed.value() == std::vector<std::string>{plain, "\n"});
    }
}

TEST_CASE("read: a member name longer than the input's padding is matched exactly") {
    const std::string name =
        "a_member_name_much_longer_than_any_sensible_json_key_ever_needs_to_be_xyz";
    REQUIRE(name.size() > 64);
    readtest::LongNames expected;
    expected.a = 1;
    expected.a_member_name_much_longer_than_any_sensible_json_key_ever_needs_to_be_xyz = 2;
    expected.b = 3;
    for (const std::string& json :
         {R"({"a":1,")" + name + R"(":2,"b":3})", R"({"b":3,")" + name + R"(":2,"a":1})",
          R"({")" + name + R"(":2,"b":3,"a":1})"}) {
        INFO(json);
        auto result = read<readtest::LongNames>(json);
        REQUIRE(result.ok());
        CHECK(result.value() == expected);
    }
    // One byte short, one byte long, and the long name as the document's last key.
    for (const std::string& key : {name.substr(0, name.size() - 1), name + "z"}) {
        auto result = read<readtest::LongNames>(R"({"a":1,")" + key + R"(":2})");
        REQUIRE_FALSE(result.ok());
        REQUIRE(result.errors().size() == 1);
        CHECK(result.errors()[0].path == "/" + key);
        CHECK(result.errors()[0].code == "unknown_field");
    }
    auto last = read<readtest::LongNames>(R"({")" + name + R"(":2)");
    CHECK_FALSE(last.ok());
}

TEST_CASE("read: keys in any order give the same value") {
    auto forward = read<Outer>(R"({"name":"x","inner":{"a":"y","b":3},"list":[],"flag":false})");
    auto reversed = read<Outer>(R"({"flag":false,"list":[],"inner":{"b":3,"a":"y"},"name":"x"})");
    REQUIRE(forward.ok());
    REQUIRE(reversed.ok());
    CHECK(forward.value() == reversed.value());
}

TEST_CASE("read: Patch keeps absent, null and value apart") {
    auto absent = read<Outer>(R"({"name":"x","inner":{"a":"y"},"list":[],"flag":false})");
    auto null = read<Outer>(R"({"name":"x","inner":{"a":"y"},"list":[],"flag":false,"tri":null})");
    auto value = read<Outer>(R"({"name":"x","inner":{"a":"y"},"list":[],"flag":false,"tri":"t"})");
    REQUIRE(absent.ok());
    REQUIRE(null.ok());
    REQUIRE(value.ok());
    CHECK(absent.value().tri.absent());
    CHECK(null.value().tri.is_null());
    REQUIRE(value.value().tri.has_value());
    CHECK(value.value().tri.value() == "t");
}

TEST_CASE("read: every field error is reported, in document order, with its path") {
    auto result =
        read<Outer>(R"({"inner":{"a":1,"b":"x","c":[1,2]},"list":[{"a":"z"},{}],"flag":null,)"
                    R"("name":"a","name":"b","x/y~":1,"opt":{"a":"q","b":1.5}})");
    REQUIRE_FALSE(result.ok());
    CHECK(describe(result.errors()) == std::vector<std::string>{
                                           "/inner/a type",
                                           "/inner/b type",
                                           "/inner/c unknown_field",
                                           "/list/1/a required",
                                           "/flag type",
                                           "/name duplicate_field",
                                           "/x~1y~0 unknown_field",
                                           "/opt/b type",
                                       });
}

TEST_CASE("read: required members missing are reported after the others, in declaration order") {
    auto result = read<Outer>(R"({"opt":{"a":3}})");
    REQUIRE_FALSE(result.ok());
    CHECK(describe(result.errors()) == std::vector<std::string>{"/opt/a type", "/name required",
                                                                "/inner required", "/list required",
                                                                "/flag required"});
}

TEST_CASE("read: null where a value is required is a type error") {
    auto result = read<Outer>(R"({"name":null,"inner":{"a":"y"},"list":[],"flag":false})");
    REQUIRE_FALSE(result.ok());
    CHECK(describe(result.errors()) == std::vector<std::string>{"/name type"});
}

TEST_CASE(
    "read: escaped keys are matched after unescaping, and unknown ones are reported unescaped") {
    auto result =
        read<Outer>(R"({"n\u0061me":"x","inner":{"a":"y"},"list":[],"flag":false,"a\/b\u007e":0})");
    REQUIRE_FALSE(result.ok());
    CHECK(describe(result.errors()) == std::vector<std::string>{"/a~1b~0 unknown_field"});
}

TEST_CASE("read: wrong JSON types name the expected type") {
    auto result = read<Outer>(R"({"name":{},"inner":[],"list":{},"flag":"true"})");
    REQUIRE_FALSE(result.ok());
    REQUIRE(result.errors().size() == 4);
    CHECK(result.errors()[0].message == "must be a string");
    CHECK(result.errors()[1].message == "must be an object");
    CHECK(result.errors()[2].message == "must be an array");
    CHECK(result.errors()[3].message == "must be true or false");
}

TEST_CASE("read: integers are checked for range and form") {
    auto big = read<Outer>(
        R"({"name":"x","inner":{"a":"y","b":9223372036854775808},"list":[],"flag":false})");
    REQUIRE_FALSE(big.ok());
    CHECK(describe(big.errors()) == std::vector<std::string>{"/inner/b range"});
    auto min = read<Outer>(
        R"({"name":"x","inner":{"a":"y","b":-9223372036854775808},"list":[],"flag":false})");
    REQUIRE(min.ok());
    CHECK(min.value().inner.b == INT64_MIN);
    auto fraction = read<Outer>(R"({"name":"x","inner":{"a":"y","b":1.5},"list":[],"flag":false})");
    REQUIRE_FALSE(fraction.ok());
    CHECK(fraction.errors()[0].message == "must be an integer");
    auto negative_zero =
        read<Outer>(R"({"name":"x","inner":{"a":"y","b":-0},"list":[],"flag":false})");
    REQUIRE(negative_zero.ok());
    CHECK(negative_zero.value().inner.b == 0);
}

TEST_CASE("read: structural errors stop reading with one malformed_json error") {
    require_malformed("");
    require_malformed("   ");
    require_malformed(R"({"name":"x"} x)");
    require_malformed(R"({"name":"x"}{"name":"y"})");
    require_malformed(R"({"name":"x"},{"name":"y"})");
    require_malformed(R"({"name":"x"}])");
    require_malformed(R"({"name":"x")");
    require_malformed(R"({"name":"x)");
    require_malformed(R"({"name")");
    require_malformed(R"({"name":01})");
    require_malformed(R"({"name":NaN})");
    require_malformed(R"({"name":Infinity})");
    require_malformed(R"({"name":-})");
    require_malformed(R"({"name":1.})");
    require_malformed(R"({"name":.5})");
    require_malformed(R"({"name":tru})");
    require_malformed(R"({"name":nul})");
    require_malformed(R"({"name":"\ud800"})");
    require_malformed(R"({"name":"\x"})");
    require_malformed("{\"name\":\"\xff\"}");
    require_malformed("{\"na\xc3\"}");
    require_malformed(R"({'name':'x'})");
    require_malformed(R"({"name":"x",})");
    require_malformed(R"([1,2)");
    // Malformed JSON inside a member that is unknown, duplicated or of the wrong type is still
    // found.
    require_malformed(R"({"unknown":[1,2,}], "name":"x"})");
    require_malformed(R"({"name":"x","name":[tru]})");
    require_malformed(R"({"name":{"a":01}})");
}

TEST_CASE("read: nesting is bounded at 64 levels") {
    auto nested = [](int depth) {
        std::string doc = R"({"name":"x","inner":{"a":"y"},"list":[],"flag":false,"extra":)";
        for (int i = 0; i < depth; ++i)
            doc += '[';
        for (int i = 0; i < depth; ++i)
            doc += ']';
        return doc + "}";
    };
    // The root object is level 1, so 63 arrays inside it make 64 levels: an unknown member error.
    auto ok_depth = read<Outer>(nested(63));
    REQUIRE_FALSE(ok_depth.ok());
    CHECK(describe(ok_depth.errors()) == std::vector<std::string>{"/extra unknown_field"});
    auto too_deep = read<Outer>(nested(64));
    REQUIRE_FALSE(too_deep.ok());
    REQUIRE(too_deep.errors().size() == 1);
    CHECK(too_deep.errors()[0].code == "malformed_json");
    CHECK(too_deep.errors()[0].message.find("nesting deeper than 64") != std::string::npos);
    CHECK_NOTHROW(read<Outer>(std::string(100000, '[')));
}

TEST_CASE("read: the byte offset of a structural error points into the caller's text") {
    auto result = read<Outer>(R"({"name": 01})");
    REQUIRE(result.errors().size() == 1);
    CHECK(result.errors()[0].message.rfind("malformed JSON at byte 9:", 0) == 0);
}

TEST_CASE("read: root scalars and arrays are documents too") {
    auto n = read<std::int64_t>(" 42 ");
    REQUIRE(n.ok());
    CHECK(n.value() == 42);
    auto s = read<std::string>(R"("a\"b")");
    REQUIRE(s.ok());
    CHECK(s.value() == "a\"b");
    auto v = read<std::vector<bool>>("[true,false]");
    REQUIRE(v.ok());
    CHECK(v.value() == std::vector<bool>{true, false});
    auto wrong = read<std::vector<bool>>("[true,1]");
    REQUIRE_FALSE(wrong.ok());
    CHECK(describe(wrong.errors()) == std::vector<std::string>{"/1 type"});
    CHECK_FALSE(read<std::int64_t>("42 43").ok());
    CHECK_FALSE(read<std::int64_t>("").ok());
}

TEST_CASE("read: a user type joins through collectcall_read found by ADL") {
    auto ok = read<readtest::Reading>(R"({"temperature":21,"sensor":7})");
    REQUIRE(ok.ok());
    CHECK(ok.value().temperature.degrees == 21);
    auto bad = read<readtest::Reading>(R"({"temperature":-300,"sensor":256})");
    REQUIRE_FALSE(bad.ok());
    CHECK(describe(bad.errors()) ==
          std::vector<std::string>{"/temperature range", "/sensor range"});
}

TEST_CASE("read: a parser is reused across documents of different sizes") {
    std::string big =
        R"({"name":")" + std::string(100000, 'a') + R"(","inner":{"a":"y"},"list":[],"flag":true})";
    REQUIRE(read<Outer>(big).ok());
    REQUIRE(read<Outer>(R"({"name":"x","inner":{"a":"y"},"list":[],"flag":true})").ok());
    REQUIRE(read<Outer>(big).value().name.size() == 100000);
}
