// The fast paths of reading and writing give the same answers as the general ones: the inline
// JSON Pointer stack and its spill for deep documents, strings read without asking for the type
// first, Text's printable-ASCII path, the writer's eight-bytes-at-a-time scan and its
// precomputed member keys, the table-driven Uuid and Email scanners.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/types/email.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/uuid.hpp"

namespace hotpath {

struct Node {
    std::string name;
    std::vector<Node> children;
    friend bool operator==(const Node&, const Node&) = default;
};
BOOST_DESCRIBE_STRUCT(Node, (), (name, children))

struct Named {
    collectcall::Text text;
    collectcall::Patch<std::string> maybe;
    std::string last;
};
BOOST_DESCRIBE_STRUCT(Named, (), (maybe, text, last))

// Names of one length (three of five bytes), names past 16 and 32 bytes, and one of each length
// around them: every way a key is looked up.
struct Lookup {
    int alpha = 0;
    int bravo = 0;
    int delta = 0;
    int name_past_sixteen_bytes = 0;
    int a_name_that_is_longer_than_thirty_two = 0;
    int z = 0;
    friend bool operator==(const Lookup&, const Lookup&) = default;
};
BOOST_DESCRIBE_STRUCT(Lookup, (),
                      (alpha, bravo, delta, name_past_sixteen_bytes,
                       a_name_that_is_longer_than_thirty_two, z))

// The escaping the writer promises, one byte at a time (valid UTF-8 passes through).
std::string reference_escape(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"') {
            out += "\\\"";
        } else if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7F) {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 0xF];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

}  // namespace hotpath

using hotpath::Named;
using hotpath::Node;

TEST_CASE("error paths deeper than the inline path stack are complete", "[read][hot_path]") {
    std::string json;
    std::string expected_path;
    constexpr int levels = 28;  // 56 segments, past the inline stack
    for (int i = 0; i < levels; ++i) {
        json += R"({"name":"n","children":[)";
        expected_path += "/children/0";
    }
    json += R"({"name":42,"children":[]})";
    for (int i = 0; i < levels; ++i)
        json += "]}";
    expected_path += "/name";

    auto result = collectcall::read<Node>(json);
    REQUIRE_FALSE(result.ok());
    REQUIRE(result.errors().size() == 1);
    CHECK(result.errors()[0].path == expected_path);
    CHECK(result.errors()[0].code == "type");

    // And the reader is still right after the stack has spilled and shrunk again.
    auto shallow = collectcall::read<Node>(R"({"name":"a","children":[{"name":7,"children":[]}]})");
    REQUIRE(shallow.errors().size() == 1);
    CHECK(shallow.errors()[0].path == "/children/0/name");
}

TEST_CASE("members are found in any order, escaped or not, and near misses are unknown",
          "[read][hot_path]") {
    const Node expected{"x", {Node{"y", {}}}};
    for (const char* json : {R"({"name":"x","children":[{"name":"y","children":[]}]})",
                             R"({"children":[{"children":[],"name":"y"}],"name":"x"})",
                             R"({"n\u0061me":"x","children":[{"\u006eame":"y","children":[]}]})",
                             R"({"children":[{"name":"y","childre\u006e":[]}],"name":"x"})"}) {
        INFO(json);
        auto result = collectcall::read<Node>(json);
        REQUIRE(result.ok());
        CHECK(result.value() == expected);
    }
    for (const char* key : {"nam", "names", "Name", "childrenx", "childre",
                            "a_much_longer_key_than_any", "", "name\\\"", "na\\u0000me"}) {
        INFO(key);
        const std::string json = std::string(R"({"name":"x","children":[],")") + key + R"(":1})";
        auto result = collectcall::read<Node>(json);
        REQUIRE(result.errors().size() == 1);
        CHECK(result.errors()[0].code == "unknown_field");
    }
    auto twice = collectcall::read<Node>(R"({"children":[],"name":"a","n\u0061me":"b"})");
    REQUIRE(twice.errors().size() == 1);
    CHECK(twice.errors()[0].code == "duplicate_field");
    CHECK(twice.errors()[0].path == "/name");
}

TEST_CASE("members are found in every order, however many names share a length",
          "[read][hot_path]") {
    std::vector<std::string> keys;
    for (std::string_view name : collectcall::detail::member_names<hotpath::Lookup>)
        keys.emplace_back(name);
    std::sort(keys.begin(), keys.end());
    const auto value_of = [](const std::string& key) { return static_cast<int>(key.size()); };
    const hotpath::Lookup expected{5, 5, 5, 23, 37, 1};
    std::size_t orders = 0;
    do {
        // Each order once with every member, once without the first key (required members
        // report it), once with an unknown key of a member's length first, and once with the
        // first key again at the end (the orders include the reverse of declaration order, which
        // the reader predicts once two keys came in it).
        std::string json = "{";
        for (const std::string& key : keys)
            json += "\"" + key + "\":" + std::to_string(value_of(key)) + ",";
        json.back() = '}';
        INFO(json);
        auto result = collectcall::read<hotpath::Lookup>(json);
        REQUIRE(result.ok());
        CHECK(result.value() == expected);

        const std::string without_first = "{" + json.substr(json.find(',') + 1);
        auto missing = collectcall::read<hotpath::Lookup>(without_first);
        REQUIRE(missing.errors().size() == 1);
        CHECK(missing.errors()[0].path == "/" + keys.front());
        CHECK(missing.errors()[0].code == "required");

        std::string near_miss = keys.front();
        near_miss.back() = near_miss.back() == 'x' ? 'y' : 'x';
        auto unknown =
            collectcall::read<hotpath::Lookup>("{\"" + near_miss + "\":0," + json.substr(1));
        REQUIRE(unknown.errors().size() == 1);
        CHECK(unknown.errors()[0].path == "/" + near_miss);
        CHECK(unknown.errors()[0].code == "unknown_field");

        const std::string first_again = json.substr(0, json.size() - 1) + ",\"" + keys.front() +
                                        "\":" + std::to_string(value_of(keys.front())) + "}";
        auto twice = collectcall::read<hotpath::Lookup>(first_again);
        REQUIRE(twice.errors().size() == 1);
        CHECK(twice.errors()[0].path == "/" + keys.front());
        CHECK(twice.errors()[0].code == "duplicate_field");
        ++orders;
    } while (std::next_permutation(keys.begin(), keys.end()));
    CHECK(orders == 720);
}

TEST_CASE("a string member given anything else is a type error, or malformed", "[read][hot_path]") {
    for (const char* value : {"42", "-1.5", "true", "null", "{}", "[1,2]", R"({"a":"b"})"}) {
        INFO(value);
        const std::string json = std::string(R"({"name":)") + value + R"(,"children":[]})";
        auto result = collectcall::read<Node>(json);
        REQUIRE(result.errors().size() == 1);
        CHECK(result.errors()[0].path == "/name");
        CHECK(result.errors()[0].code == "type");
    }
    for (const char* value : {"tru", "[1,", "{\"a\"}", "\"abc"}) {
        INFO(value);
        const std::string json = std::string(R"({"name":)") + value + R"(,"children":[]})";
        auto result = collectcall::read<Node>(json);
        REQUIRE(result.errors().size() == 1);
        CHECK(result.errors()[0].code == "malformed_json");
    }
    auto escaped = collectcall::read<Node>(R"({"name":"a\"b\u00e9\n","children":[]})");
    REQUIRE(escaped.ok());
    CHECK(escaped.value().name == "a\"b\xc3\xa9\n");
}

TEST_CASE("Text's printable-ASCII path agrees with the general rules", "[types][text][hot_path]") {
    const std::string a200(200, 'a');
    CHECK(collectcall::Text::parse(a200).ok());
    CHECK(collectcall::Text::parse("   " + a200 + "   ").ok());
    CHECK(collectcall::Text::parse("a" + std::string(198, ' ') + "b").ok());
    CHECK(collectcall::Text::parse("~ !").value().view() == "~ !");
    CHECK(collectcall::Text::parse(" x ").value().view() == " x ");

    const auto problem = [](const std::string& s) {
        auto parsed = collectcall::Text::parse(s);
        REQUIRE_FALSE(parsed.ok());
        return std::string(parsed.problem().code);
    };
    CHECK(problem(std::string(201, 'a')) == "length");
    CHECK(problem("a" + std::string(199, ' ') + "b") == "length");
    CHECK(problem("") == "length");
    CHECK(problem(std::string(40, ' ')) == "length");
    CHECK(problem("tab\there") == "format");
    CHECK(problem("del\x7f") == "format");
    CHECK(problem(std::string("nul\0x", 5)) == "format");
    CHECK(problem(std::string(30, 'a') + "\x1f") == "format");
    CHECK(problem("bad\xff") == "format");
    // Non-ASCII goes the general way: white space beyond ' ' is trimmed, code points counted.
    CHECK(collectcall::Text::parse("\u00a0Lee\u3000").ok());
    CHECK(problem("\u00a0\u3000") == "length");
}

TEST_CASE("the writer escapes exactly what it must at every offset", "[write][hot_path]") {
    for (std::size_t length = 1; length <= 26; ++length) {
        for (std::size_t at = 0; at < length; ++at) {
            for (char special : {'"', '\\', '\n', '\t', '\x01', '\x1f', '\x7f'}) {
                std::string s(length, 'x');
                s[at] = special;
                INFO("length " << length << ", byte " << int(special) << " at " << at);
                CHECK(collectcall::write(s) == hotpath::reference_escape(s));
            }
            std::string utf8(length, 'y');  // a valid two-byte sequence passes through
            utf8.replace(at, 1, "\xc3\xa9");
            CHECK(collectcall::write(utf8) == "\"" + utf8 + "\"");
            std::string invalid(length, 'z');  // a lone continuation byte becomes U+FFFD
            invalid[at] = '\x80';
            std::string expected =
                "\"" + invalid.substr(0, at) + "\\ufffd" + invalid.substr(at + 1) + "\"";
            CHECK(collectcall::write(invalid) == expected);
        }
    }
    const std::string clean = "The quick brown fox jumps over the lazy dog 0123456789 ~!@#$%^&*()";
    CHECK(collectcall::write(clean) == "\"" + clean + "\"");
}

TEST_CASE("member keys are written once, with commas only between members", "[write][hot_path]") {
    Named value;
    value.text = collectcall::Text::parse("t").value();
    value.last = "l";
    CHECK(collectcall::write(value) == R"({"text":"t","last":"l"})");  // absent first member
    value.maybe = std::string("m");
    CHECK(collectcall::write(value) == R"({"maybe":"m","text":"t","last":"l"})");
    Node node{"n", {Node{"c", {}}}};
    CHECK(collectcall::write(node) == R"({"name":"n","children":[{"name":"c","children":[]}]})");
}

TEST_CASE("Uuid's table-driven scan rejects a wrong character at every position",
          "[types][uuid][hot_path]") {
    const std::string good = "123e4567-e89b-12d3-a456-426614174000";
    REQUIRE(collectcall::Uuid::parse(good).ok());
    for (std::size_t at = 0; at < good.size(); ++at) {
        const bool hyphen = at == 8 || at == 13 || at == 18 || at == 23;
        for (char c : {'g', 'G', 'z', '-', ' ', '\0', '\xff', '/', ':', '@', '`', '0', 'a', 'F'}) {
            std::string s = good;
            s[at] = c;
            const bool valid = hyphen ? c == '-' : (c == '0' || c == 'a' || c == 'F');
            INFO("'" << c << "' at " << at);
            CHECK(collectcall::Uuid::parse(s).ok() == valid);
        }
    }
    auto upper = collectcall::Uuid::parse("ABCDEF01-2345-6789-ABCD-EF0123456789");
    REQUIRE(upper.ok());
    CHECK(upper.value().view() == "abcdef01-2345-6789-abcd-ef0123456789");
    CHECK(upper.value().bytes()[0] == 0xAB);
    CHECK(upper.value().bytes()[15] == 0x89);
}

TEST_CASE("Email's local-part table holds exactly the WHATWG characters",
          "[types][email][hot_path]") {
    const std::string_view specials = ".!#$%&'*+/=?^_`{|}~-";
    for (int c = 1; c < 256; ++c) {
        const char ch = static_cast<char>(c);
        const bool expected = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                              (c >= '0' && c <= '9') || specials.find(ch) != std::string_view::npos;
        INFO("byte " << c);
        CHECK(collectcall::Email::parse(std::string("a") + ch + "b@example.com").ok() == expected);
    }
}
