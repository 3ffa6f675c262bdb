// The word-at-a-time scanners of detail/ascii.hpp against the plain byte-by-byte definition, at
// every length a short value has and with every byte value at every place.
#include <collectcall/types/detail/ascii.hpp>

#include <cstddef>
#include <string>

#include <catch2/catch.hpp>

namespace {

bool digits_by_byte(const std::string& text) {
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

}  // namespace

TEST_CASE("all_digits agrees with a byte-by-byte scan at every length and place",
          "[types][ascii]") {
    CHECK(collectcall::detail::all_digits(""));
    for (std::size_t n = 1; n <= 24; ++n) {
        std::string text(n, '7');
        REQUIRE(collectcall::detail::all_digits(text));
        for (std::size_t at = 0; at < n; ++at) {
            for (int byte = 0; byte < 256; ++byte) {
                std::string changed = text;
                changed[at] = static_cast<char>(byte);
                INFO("length " << n << ", byte " << byte << " at " << at);
                REQUIRE(collectcall::detail::all_digits(changed) == digits_by_byte(changed));
            }
        }
    }
}

TEST_CASE("all_digits: a byte that carries into its neighbour cannot pass for a digit",
          "[types][ascii]") {
    // 0xFA + 6 carries into the next byte; '/' (one below '0') and ':' (one above '9') sit at the
    // edges of the range.
    for (const char* text : {"\xFA"
                             "9999999",
                             "99999999\xFF", "/0000000", "0000000:",
                             "123\xFA"
                             "4",
                             "\xF9\xFA\xFB\xFC\xFD\xFE\xFF\x30"}) {
        INFO(text);
        CHECK_FALSE(collectcall::detail::all_digits(text));
    }
    CHECK(collectcall::detail::all_digits("0123456789012345678"));
}
