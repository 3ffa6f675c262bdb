// write: compact RFC 8259 JSON from any supported value.
#include "collectcall/core/write.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"

namespace writetest {

struct Item {
    std::string name;
    std::optional<std::int64_t> count;
    collectcall::Patch<std::string> note;
    collectcall::NotAllowed secret;
    std::vector<bool> flags;
    friend bool operator==(const Item&, const Item&) = default;
};
BOOST_DESCRIBE_STRUCT(Item, (), (name, count, note, secret, flags))

struct Base {
    std::int32_t a = 0;
};
BOOST_DESCRIBE_STRUCT(Base, (), (a))
struct Derived : Base {
    std::int32_t b = 0;
};
BOOST_DESCRIBE_STRUCT(Derived, (Base), (b))

struct Fahrenheit {
    int degrees = 0;
};
inline void collectcall_write(collectcall::Writer& writer, const Fahrenheit& f) {
    writer.raw(std::to_string(f.degrees));
    writer.raw("e0");
}

}  // namespace writetest

using collectcall::write;

TEST_CASE("write: members in declaration order, optional as null, absent Patch left out") {
    writetest::Item item{"a", std::nullopt, {}, {}, {true, false}};
    CHECK(write(item) == R"({"name":"a","count":null,"flags":[true,false]})");
    item.count = -5;
    item.note = collectcall::null;
    CHECK(write(item) == R"({"name":"a","count":-5,"note":null,"flags":[true,false]})");
    item.note = std::string("n");
    CHECK(write(item) == R"({"name":"a","count":-5,"note":"n","flags":[true,false]})");
}

TEST_CASE("write: base members come first") {
    writetest::Derived d;
    d.a = 1;
    d.b = 2;
    CHECK(write(d) == R"({"a":1,"b":2})");
}

TEST_CASE("write: strings are escaped per RFC 8259") {
    CHECK(write(std::string("plain")) == R"("plain")");
    CHECK(write(std::string("q\"b\\s/")) == R"("q\"b\\s/")");
    CHECK(write(std::string("\n\r\t\b\f")) == R"("\n\r\t\b\f")");
    CHECK(write(std::string("\x01\x1f\x7f", 3)) == R"("\u0001\u001f\u007f")");
    CHECK(write(std::string("a\0b", 3)) == R"("a\u0000b")");
}

TEST_CASE("write: valid UTF-8 passes through, invalid sequences become U+FFFD") {
    CHECK(write(std::string("José 李小龙 😀")) == "\"José 李小龙 😀\"");
    CHECK(write(std::string("a\xff")) == R"("a\ufffd")");
    CHECK(write(std::string("\xc3")) == R"("\ufffd")");                                // truncated
    CHECK(write(std::string("\xc0\xaf")) == R"("\ufffd\ufffd")");                      // overlong
    CHECK(write(std::string("\xed\xa0\x80")) == R"("\ufffd\ufffd\ufffd")");            // surrogate
    CHECK(write(std::string("\xf4\x90\x80\x80")) == R"("\ufffd\ufffd\ufffd\ufffd")");  // > U+10FFFF
}

TEST_CASE("write: integers at their limits") {
    CHECK(write(INT64_MIN) == "-9223372036854775808");
    CHECK(write(UINT64_MAX) == "18446744073709551615");
    CHECK(write(true) == "true");
    CHECK(write(collectcall::null) == "null");
}

TEST_CASE("write: a user type joins through collectcall_write found by ADL") {
    CHECK(write(std::vector<writetest::Fahrenheit>{{32}, {-40}}) == "[32e0,-40e0]");
}

TEST_CASE("write: output reads back equal") {
    writetest::Item item{"x\"\n😀", 7, std::string("n"), {}, {false}};
    auto back = collectcall::read<writetest::Item>(write(item));
    REQUIRE(back.ok());
    CHECK(back.value() == item);
}

// The escape each byte needs on its own, written the slow way, to compare the writer against.
static std::string escaped_byte(unsigned char c) {
    switch (c) {
        case '"':
            return "\\\"";
        case '\\':
            return "\\\\";
        case '\n':
            return "\\n";
        case '\r':
            return "\\r";
        case '\t':
            return "\\t";
        case '\b':
            return "\\b";
        case '\f':
            return "\\f";
        default:
            break;
    }
    if (c < 0x20 || c == 0x7f) {
        static constexpr char hex[] = "0123456789abcdef";
        return std::string("\\u00") + hex[c >> 4] + hex[c & 0xF];
    }
    if (c >= 0x80) return "\\ufffd";  // alone, never well-formed UTF-8
    return std::string(1, static_cast<char>(c));
}

TEST_CASE("write: a byte that needs escaping is found at every place of a short string") {
    // Texts of 0 to 19 bytes are checked a word (or less) at a time: each length, each place,
    // each kind of byte that is not plain.
    for (unsigned char special : {'"', '\\', '\n', '\x01', '\x1f', '\x7f', '\x80', '\xff'}) {
        for (std::size_t length = 1; length < 20; ++length) {
            for (std::size_t at = 0; at < length; ++at) {
                std::string text(length, 'x');
                text[at] = static_cast<char>(special);
                const std::string expected = "\"" + std::string(at, 'x') + escaped_byte(special) +
                                             std::string(length - at - 1, 'x') + "\"";
                INFO("byte " << int(special) << " at " << at << " of " << length);
                CHECK(write(text) == expected);
            }
        }
    }
    CHECK(write(std::string()) == R"("")");
    CHECK(write(std::string_view()) == R"("")");  // its data() is null
    CHECK(write(std::string("~ !#")) == R"("~ !#")");
}

TEST_CASE("write: texts across the writer's buffer and longer than it come out whole") {
    // Strings of every length up to beyond the buffer, one after another, so that each crosses
    // its end at a different place; and one far longer than it.
    std::vector<std::string> texts;
    std::string expected = "[";
    for (std::size_t length = 0; length < 1500; length += 7) {
        std::string text;
        for (std::size_t i = 0; i < length; ++i)
            text += static_cast<char>('a' + i % 26);
        if (length % 3 == 0 && length > 0) text[length / 2] = '"';
        texts.push_back(text);
        std::string quoted = "\"";
        for (char c : text)
            quoted += c == '"' ? std::string("\\\"") : std::string(1, c);
        expected += (expected.size() > 1 ? "," : "") + quoted + "\"";
    }
    texts.push_back(std::string(100000, 'z'));
    expected += ",\"" + std::string(100000, 'z') + "\"]";
    CHECK(write(texts) == expected);
}

TEST_CASE("write: a Writer's text is in its string once flushed or destroyed") {
    std::string out = "prefix:";
    {
        collectcall::Writer writer(out);
        writer.raw('[');
        writer.raw(std::string_view());
        writer.integer(-12);
        writer.raw(',');
        writer.string("a\"b");
        writer.flush();
        CHECK(out == R"(prefix:[-12,"a\"b")");
        writer.raw(',');
        writer.boolean(false);
        writer.buffer() += ",0";  // buffer() hands over the string with everything so far in it
        writer.null();
        writer.raw(']');
    }
    CHECK(out == R"(prefix:[-12,"a\"b",false,0null])");
}
