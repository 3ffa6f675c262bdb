#include <collectcall/core/read.hpp>
#include <collectcall/core/schema.hpp>
#include <collectcall/types/text.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

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

// A struct with texts of one limit, read as a document: a member and the items of an array, so
// that an error names its JSON Pointer path.
template <std::size_t N>
struct Limited {
    collectcall::BoundedText<N> name;
    std::vector<collectcall::BoundedText<N>> lines;
    BOOST_DESCRIBE_CLASS(Limited, (), (name, lines), (), ())
};

// The message of a text past N code points, spelt out here rather than taken from the library.
std::string too_long(std::size_t n) {
    return "must be at most " + std::to_string(n) + (n == 1 ? " character" : " characters");
}

// read<T> of {"name":..., "lines":[...]} with the fast pass and without: the same verdict and
// the same errors either way, which is what is returned.
template <std::size_t N>
std::vector<collectcall::Error> read_errors(const std::string& json) {
    INFO(json);
    collectcall::ReadOptions fast;
    collectcall::ReadOptions full;
    full.fast_pass = false;
    const auto a = collectcall::read<Limited<N>>(json, fast);
    const auto b = collectcall::read<Limited<N>>(json, full);
    REQUIRE(a.ok() == b.ok());
    CHECK(a.errors() == b.errors());
    return a.errors();
}

// Everything BoundedText<N> derives from N, for one N: exactly N code points of every width are
// accepted (white space around them trimmed first), N + 1 are refused with the message of N, by
// parse, parse_into, check and read<T> (both passes, each of the reader's scans: printable ASCII,
// UTF-8, escaped), and the schema's maxLength is N.
template <std::size_t N>
void check_limit() {
    using T = collectcall::BoundedText<N>;
    STATIC_REQUIRE(T::max_code_points == N);
    INFO("N = " << N);
    // 1, 2, 3 and 4 bytes a code point, each as the text and as it is written in the JSON
    // document (raw, or escaped so that the reader unescapes it).
    struct Spelling {
        std::string_view text;
        std::string_view json;
    };
    const Spelling pieces[] = {{"a", "a"},       {"é", "é"}, {"é", "\\u00e9"},       {"李", "李"},
                               {"☃", "\\u2603"}, {"😀", "😀"}, {"😀", "\\ud83d\\ude00"}};
    // White space around the text, trimmed before the count.
    const Spelling pads[] = {
        {"", ""}, {" ", " "}, {"\u3000\u00A0 ", "\u3000\u00A0 "}, {"\u2003", "\\u2003"}};
    for (const Spelling& piece : pieces) {
        for (const Spelling& pad : pads) {
            INFO("piece " << piece.json << ", padding " << pad.json);
            const std::string fits =
                std::string(pad.text) + repeat(piece.text, N) + std::string(pad.text);
            const std::string past =
                std::string(pad.text) + repeat(piece.text, N + 1) + std::string(pad.text);
            const auto accepted = T::parse(fits);
            REQUIRE(accepted.ok());
            CHECK(accepted.value().view() == fits);  // stored as sent, padding included
            CHECK(T::check(fits) == std::nullopt);
            const auto refused = T::parse(past);
            REQUIRE_FALSE(refused.ok());
            CHECK(refused.problem().code == collectcall::codes::length);
            CHECK(refused.problem().message == too_long(N));
            T value = T::parse("b").value();
            const auto problem = T::parse_into(past, value);
            REQUIRE(problem.has_value());
            CHECK(problem->message == too_long(N));
            CHECK(value.view() == "b");
            REQUIRE_FALSE(T::parse_into(fits, value).has_value());
            CHECK(value == accepted.value());

            const std::string json_fits =
                std::string(pad.json) + repeat(piece.json, N) + std::string(pad.json);
            const std::string json_past =
                std::string(pad.json) + repeat(piece.json, N + 1) + std::string(pad.json);
            CHECK(read_errors<N>(R"({"name":")" + json_fits + R"(","lines":[")" + json_fits +
                                 R"("]})")
                      .empty());
            const auto errors = read_errors<N>(R"({"name":")" + json_past + R"(","lines":["x",")" +
                                               json_fits + R"(",")" + json_past + R"("]})");
            REQUIRE(errors.size() == 2);
            CHECK(errors[0] == collectcall::Error{"/name", "length", too_long(N)});
            CHECK(errors[1] == collectcall::Error{"/lines/2", "length", too_long(N)});
        }
    }
    // Trimming comes before counting: N code points between two that are not white space.
    if constexpr (N >= 2) {
        CHECK(T::parse("a" + repeat(" ", N - 2) + "b").ok());
        CHECK(T::parse("a" + repeat("\u3000", N - 2) + "b").ok());
        CHECK(T::parse("a" + repeat(" ", N - 1) + "b").problem().message == too_long(N));
        CHECK(T::parse("a" + repeat("\u3000", N - 1) + "b").problem().message == too_long(N));
    }
    CHECK(T::parse(repeat(" ", N + 5)).problem().message == "must not be empty");
    // A control character is a `format` problem wherever it is, before any length is counted.
    for (std::size_t at = 0; at <= N && at < 80; ++at) {
        std::string text = repeat("a", N + 1);
        text[at] = '\x1f';
        const auto problem = T::check(text);
        REQUIRE(problem.has_value());
        CHECK(problem->code == collectcall::codes::format);
    }
    const auto escape = read_errors<N>(R"({"name":")" + repeat("a", N + 1) + R"(\t","lines":[]})");
    REQUIRE(escape.size() == 1);
    CHECK(escape[0] == collectcall::Error{"/name", "format", "control characters are not allowed"});

    const collectcall::Json schema = collectcall::json_schema_value<T>();
    REQUIRE(schema.find("maxLength") != nullptr);
    CHECK(schema.find("maxLength")->text() == std::to_string(N));
    CHECK(schema.find("minLength")->text() == "1");
    const collectcall::Json document = collectcall::json_schema_value<Limited<N>>();
    const collectcall::Json* name = document.find("properties")->find("name");
    REQUIRE(name != nullptr);
    CHECK(name->find("maxLength")->text() == std::to_string(N));
}

}  // namespace

TEST_CASE("BoundedText<N> takes its limit, message and schema from N", "[types][text]") {
    check_limit<1>();
    check_limit<7>();
    check_limit<8>();
    check_limit<16>();
    check_limit<64>();
    check_limit<65>();
    check_limit<200>();
    check_limit<300>();
}

TEST_CASE("Text is BoundedText<200>, with the message and description it always had",
          "[types][text]") {
    STATIC_REQUIRE(std::is_same_v<Text, collectcall::BoundedText<200>>);
    CHECK(Text::parse(repeat("a", 201)).problem().message == "must be at most 200 characters");
    const collectcall::Json schema = collectcall::json_schema_value<Text>();
    CHECK(schema.find("description")->text() ==
          "1 to 200 characters after trimming white space (stored as sent), no control "
          "characters");
    CHECK(
        collectcall::json_schema_value<collectcall::BoundedText<1>>().find("description")->text() ==
        "1 character after trimming white space (stored as sent), no control characters");
    CHECK(collectcall::BoundedText<1>::parse("ab").problem().message ==
          "must be at most 1 character");
}

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
