// SMS segments (interaction/sms_segments.hpp): GSM-7 160/153, extension characters two septets,
// UCS-2 70/67 in UTF-16 code units, no two-unit character split between segments.
#include "collectcall/interaction/sms_segments.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace {

std::string times(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

struct Case {
    const char* name;
    std::string text;
    collectcall::sms::Encoding encoding;
    std::size_t units;
    std::size_t segments;
};

}  // namespace

TEST_CASE("sms::segments: every boundary of GSM-7 and UCS-2") {
    using collectcall::sms::Encoding;
    const std::string zhe = "\xD0\xB6";           // ж, outside GSM 03.38: UCS-2, one code unit
    const std::string grin = "\xF0\x9F\x98\x80";  // U+1F600, outside the BMP: two code units
    const std::string euro = "\xE2\x82\xAC";      // €, in the extension table
    const Case cases[] = {
        {"empty", "", Encoding::gsm7, 0, 1},
        {"one", "a", Encoding::gsm7, 1, 1},
        {"160", times("a", 160), Encoding::gsm7, 160, 1},
        {"161", times("a", 161), Encoding::gsm7, 161, 2},
        {"153*2", times("a", 306), Encoding::gsm7, 306, 2},
        {"153*2+1", times("a", 307), Encoding::gsm7, 307, 3},
        {"153*3", times("a", 459), Encoding::gsm7, 459, 3},
        {"153*3+1", times("a", 460), Encoding::gsm7, 460, 4},
        {"1600", times("a", 1600), Encoding::gsm7, 1600, 11},
        {"GSM letters and signs",
         "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà",
         Encoding::gsm7, 71, 1},
        {"extension characters count two", "^{}\\[~]|\f" + euro, Encoding::gsm7, 20, 1},
        {"158 + euro = 160", times("a", 158) + euro, Encoding::gsm7, 160, 1},
        {"159 + euro = 161", times("a", 159) + euro, Encoding::gsm7, 161, 2},
        {"80 braces = 160", times("{", 80), Encoding::gsm7, 160, 1},
        // 76 escape pairs fill 152 septets of a segment: the 77th does not fit the last one.
        {"81 braces", times("{", 81), Encoding::gsm7, 162, 2},
        {"153 braces", times("{", 153), Encoding::gsm7, 306, 3},
        // The escape pair at septets 153-154 is not split: it opens the second segment.
        {"152 + brace + 152", times("a", 152) + "{" + times("a", 152), Encoding::gsm7, 306, 3},
        {"153 + brace + 151", times("a", 153) + "{" + times("a", 151), Encoding::gsm7, 306, 2},
        {"backtick is not GSM", "`", Encoding::ucs2, 1, 1},
        {"tab is not GSM", "a\tb", Encoding::ucs2, 3, 1},
        {"c cedilla is not GSM", "\xC3\xA7", Encoding::ucs2, 1, 1},
        {"70 UCS-2", times(zhe, 70), Encoding::ucs2, 70, 1},
        {"71 UCS-2", times(zhe, 71), Encoding::ucs2, 71, 2},
        {"67*2 UCS-2", times(zhe, 134), Encoding::ucs2, 134, 2},
        {"67*2+1 UCS-2", times(zhe, 135), Encoding::ucs2, 135, 3},
        {"one character makes all UCS-2: 69+1", times("a", 69) + zhe, Encoding::ucs2, 70, 1},
        {"one character makes all UCS-2: 70+1", times("a", 70) + zhe, Encoding::ucs2, 71, 2},
        {"extension characters are one unit in UCS-2", times("{", 69) + zhe, Encoding::ucs2, 70, 1},
        {"emoji are two units: 35", times(grin, 35), Encoding::ucs2, 70, 1},
        {"emoji are two units: 36", times(grin, 36), Encoding::ucs2, 72, 2},
        {"67 emoji", times(grin, 67), Encoding::ucs2, 134, 3},
        // The surrogate pair at units 67-68 is not split: it opens the second segment.
        {"66 + emoji + 67", times(zhe, 66) + grin + times(zhe, 67), Encoding::ucs2, 135, 3},
        {"67 + emoji + 65", times(zhe, 67) + grin + times(zhe, 65), Encoding::ucs2, 134, 2},
        {"invalid UTF-8 is a replacement character", "a\xFF", Encoding::ucs2, 2, 1},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const collectcall::sms::Segments s = collectcall::sms::segments(c.text);
        CHECK(s.encoding == c.encoding);
        CHECK(s.units == c.units);
        CHECK(s.count == c.segments);
    }
}

TEST_CASE("sms::gsm7_septets: the two tables") {
    using collectcall::sms::gsm7_septets;
    CHECK(gsm7_septets(U'a') == 1);
    CHECK(gsm7_septets(U'@') == 1);
    CHECK(gsm7_septets(U'€') == 2);
    CHECK(gsm7_septets(U'\f') == 2);
    CHECK(gsm7_septets(U'`') == 0);
    CHECK(gsm7_septets(0x1B) == 0);  // the escape itself is not a character
    CHECK(gsm7_septets(U'ç') == 0);
}

TEST_CASE("sms::gsm7_septets: the lookup agrees with the standard's two tables") {
    std::size_t disagreements = 0;
    std::size_t one = 0;
    std::size_t two = 0;
    for (char32_t c = 0; c < 0x3000; ++c) {
        std::size_t expected = 0;
        for (char32_t basic : collectcall::sms::gsm7_basic)
            expected = basic == c ? 1 : expected;
        for (char32_t extended : collectcall::sms::gsm7_extension)
            expected = extended == c ? 2 : expected;
        const std::size_t got = collectcall::sms::gsm7_septets(c);
        disagreements += got != expected ? 1 : 0;
        one += got == 1 ? 1 : 0;
        two += got == 2 ? 1 : 0;
    }
    CHECK(disagreements == 0);
    CHECK(one == 127);  // the default alphabet without its escape
    CHECK(two == 10);   // form feed, ^ { } \ [ ~ ] | and the euro sign
}
