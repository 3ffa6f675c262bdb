#include <collectcall/types/text.hpp>

#include <string>
#include <string_view>

#include <catch2/catch.hpp>

using namespace std::literals;
using collectcall::Text;

namespace {

std::string repeat(std::string_view piece, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        out += piece;
    return out;
}

}  // namespace

TEST_CASE("Text accepts 1 to 200 code points and keeps the text as sent", "[types][text]") {
    const auto text = GENERATE(as<std::string>{}, "a", "Ann", "José", "李小龙", "Zoë O'Brien-Smith",
                               "😀", "  Ann  ", "\u00A0Ann\u3000",
                               "a\u0085",   // NEL is white space, not a C0 control
                               "a\u0080b",  // C1 controls other than NEL are not refused
                               repeat("a", 200), " " + repeat("a", 200) + " ",
                               repeat("é", 200),   // 400 bytes, 200 code points
                               repeat("李", 200),  // 600 bytes
                               repeat("😀", 200),   // 800 bytes, one code point each
                               repeat("\u2003", 50) + repeat("x", 200) + repeat("\u3000", 50));
    INFO(text);
    const auto parsed = Text::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == text);
    CHECK(parsed.value().str() == text);
}

TEST_CASE("Text refuses empty and white-space-only text", "[types][text]") {
    const auto text = GENERATE(as<std::string>{}, "", " ", "   ", "\u00A0", "\u3000 \u2003",
                               "\u2028\u2029\u202F\u205F\u1680\u0085");
    INFO(text);
    const auto parsed = Text::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::length);
    CHECK(parsed.problem().message == "must not be empty");
}

TEST_CASE("Text refuses more than 200 code points after trimming", "[types][text]") {
    const auto text = GENERATE(as<std::string>{}, repeat("a", 201), repeat("é", 201),
                               repeat("😀", 201), "a" + repeat(" ", 199) + "b");
    const auto parsed = Text::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::length);
    CHECK(parsed.problem().message == "must be at most 200 characters");
}

TEST_CASE("Text refuses control characters", "[types][text]") {
    const auto text =
        GENERATE(as<std::string>{}, std::string("a\0b"sv), std::string("\0"sv), "a\x7f", "\x7f",
                 "a\tb", "line\nbreak", "trailing\n", "\r\n", "\x1b[31mred", "a\x1f", "\x01");
    INFO(text);
    const auto parsed = Text::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "control characters are not allowed");
}

TEST_CASE("Text refuses invalid UTF-8", "[types][text]") {
    const auto text = GENERATE(as<std::string>{}, "\xff", "a\xfe", "\x80", "abc\xbf",
                               "\xc3",              // truncated two-byte sequence
                               "\xc3(",             // bad continuation
                               "\xe6\x9d",          // truncated three-byte sequence
                               "\xc0\xaf",          // overlong '/'
                               "\xe0\x80\xaf",      // overlong '/'
                               "\xf0\x80\x80\xaf",  // overlong '/'
                               "\xed\xa0\x80",      // UTF-16 surrogate D800
                               "\xed\xbf\xbf",      // surrogate DFFF
                               "\xf4\x90\x80\x80",  // U+110000
                               "\xf8\x88\x80\x80\x80");
    INFO(text);
    const auto parsed = Text::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "must be valid UTF-8");
}

TEST_CASE("Text accepts the extremes of UTF-8", "[types][text]") {
    CHECK(Text::parse("\xc2\x80").ok());          // U+0080, smallest two-byte code point
    CHECK(Text::parse("\xe0\xa0\x80").ok());      // U+0800, smallest three-byte one
    CHECK(Text::parse("\xf0\x90\x80\x80").ok());  // U+10000, smallest four-byte one
    CHECK(Text::parse("\xed\x9f\xbf").ok());      // U+D7FF, last before the surrogates
    CHECK(Text::parse("\xee\x80\x80").ok());      // U+E000, first after them
    CHECK(Text::parse("\xef\xbf\xbf").ok());      // U+FFFF
    CHECK(Text::parse("\xf4\x8f\xbf\xbf").ok());  // U+10FFFF
}

TEST_CASE("Text equality is exact, white space included", "[types][text]") {
    CHECK(Text::parse("Ann").value() == Text::parse("Ann").value());
    CHECK(Text::parse("Ann").value() != Text::parse(" Ann").value());
    CHECK(Text::parse("José").value() != Text::parse("Jose\u0301").value());
}

TEST_CASE("Text judges every pair of bytes the same at every place of a word", "[types][text]") {
    // The printable-ASCII fast path works on eight bytes at a time; a pair of bytes at each
    // place within and across words must get the verdict of the byte-by-byte rule: two
    // printable ASCII bytes pass, a control byte is a control character, any other byte on its
    // own (or two that are not one UTF-8 character) is not valid UTF-8.
    const auto printable = [](unsigned b) { return b >= 0x20 && b <= 0x7E; };
    const auto control = [](unsigned b) { return b < 0x20 || b == 0x7F; };
    std::size_t judged = 0;
    for (std::size_t at : {0U, 3U, 6U, 7U, 8U, 14U, 15U}) {
        for (unsigned first = 0; first < 256; ++first) {
            for (unsigned second = 0; second < 256; ++second) {
                std::string text(17, 'a');
                text[at] = static_cast<char>(first);
                text[at + 1] = static_cast<char>(second);
                const auto parsed = Text::parse(text);
                if (printable(first) && printable(second)) {
                    if (!parsed.ok()) FAIL("refused " << first << ", " << second << " at " << at);
                } else if (first >= 0x80 || second >= 0x80) {
                    // Valid only as one two-byte character (U+0080-U+07FF).
                    const bool two_byte =
                        first >= 0xC2 && first <= 0xDF && second >= 0x80 && second <= 0xBF;
                    if (parsed.ok() != two_byte)
                        FAIL("wrong verdict on " << first << ", " << second << " at " << at);
                } else if (control(first) || control(second)) {
                    if (parsed.ok() ||
                        parsed.problem().message != "control characters are not allowed")
                        FAIL("did not refuse " << first << ", " << second << " at " << at);
                }
                ++judged;
            }
        }
    }
    CHECK(judged == 7 * 256 * 256);
}

TEST_CASE("Text parse_into agrees with parse and changes nothing on failure", "[types][text]") {
    const auto text = GENERATE(as<std::string>{}, "Ann", " Ann ", "José", "", "   ", "a\tb",
                               std::string(201, 'x'), std::string(200, 'x'), "\xC3", "李小龙");
    INFO(text);
    const auto parsed = Text::parse(text);
    Text value = Text::parse("before").value();
    const auto problem = Text::parse_into(text, value);
    REQUIRE(problem.has_value() != parsed.ok());
    CHECK(Text::check(text).has_value() == problem.has_value());
    if (parsed.ok()) {
        CHECK(value == parsed.value());
    } else {
        CHECK(problem->code == parsed.problem().code);
        CHECK(problem->message == parsed.problem().message);
        CHECK(value.view() == "before");
    }
}

TEST_CASE("Text: a control character or a non-ASCII byte is found at every place of a short text",
          "[types][text]") {
    for (std::size_t n = 1; n <= 40; ++n) {
        const std::string text(n, 'a');
        REQUIRE(Text::check(text) == std::nullopt);
        for (std::size_t at = 0; at < n; ++at) {
            for (const char bad : {'\x01', '\x1F', '\x7F', '\n'}) {
                std::string changed = text;
                changed[at] = bad;
                INFO("length " << n << ", control at " << at);
                const auto problem = Text::check(changed);
                REQUIRE(problem.has_value());
                CHECK(problem->code == "format");
            }
            // A lone continuation byte is not UTF-8 (the printable-ASCII scan must send it on).
            std::string changed = text;
            changed[at] = '\x80';
            INFO("length " << n << ", 0x80 at " << at);
            CHECK(Text::check(changed).has_value());
        }
        // Spaces around the text are trimmed whatever the length of the word scan.
        CHECK(Text::check(" " + text + " ") == std::nullopt);
        CHECK(Text::check(std::string(n, ' ')).has_value());
    }
}
