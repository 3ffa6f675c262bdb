#include <collectcall/types/email.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

using namespace std::literals;
using collectcall::Email;

namespace {

std::string repeat(char c, std::size_t n) {
    return std::string(n, c);
}

// An address of exactly `size` characters: a local part of `size` - 192 characters at a domain
// of three 63-character labels (191 characters).
std::string address_of_size(std::size_t size) {
    return repeat('a', size - 192) + "@" + repeat('b', 63) + "." + repeat('c', 63) + "." +
           repeat('d', 63);
}

}  // namespace

TEST_CASE("Email accepts what the WHATWG grammar accepts", "[types][email]") {
    const auto text =
        GENERATE(as<std::string>{}, "a@b", "name@example.com", "first.last+tag@sub.example.co.uk",
                 "UPPER@EXAMPLE.COM",
                 "a..b@x",  // dots anywhere in the local part, per WHATWG
                 ".a@x", "a.@x", "!#$%&'*+/=?^_`{|}~-@example.com", "user@xn--bcher-kva.example",
                 "a@a-b.c", "a@a--b.c", "a@1.2.3.4", "a@0", "x@" + repeat('b', 63),
                 "x@" + repeat('b', 63) + ".com", address_of_size(254));
    INFO(text);
    const auto parsed = Email::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == text);
    CHECK_FALSE(Email::check(text).has_value());
}

TEST_CASE("Email rejects what the WHATWG grammar rejects", "[types][email]") {
    const auto text = GENERATE(
        as<std::string>{}, "", "a", "@", "@x", "a@", "\"quoted\"@x", "\"a b\"@example.com", "a@b.",
        "a@.b", "a@b..c", "a@-b", "a@b-", "a@b-.c", "a@b.-c", "a@b.c-", "a@b@c", "a b@x", "a@b c",
        " a@b", "a@b ", "a@[1.2.3.4]", "a@b_c", "a@b:25", "(comment)a@x", "a\\b@x", "a,b@x",
        "a;b@x", "a<b>@x", "josé@example.com", "a@exämple.com", "a@b\n", std::string("a\0@b"sv),
        "x@" + repeat('b', 64), "x@" + repeat('b', 64) + ".com", "x@com." + repeat('b', 64));
    INFO(text);
    const auto parsed = Email::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "must be an e-mail address like name@example.com");
    const auto problem = Email::check(text);
    REQUIRE(problem.has_value());
    CHECK(problem->code == parsed.problem().code);
    CHECK(problem->message == parsed.problem().message);
}

TEST_CASE("Email is at most 254 characters", "[types][email]") {
    REQUIRE(address_of_size(254).size() == 254);
    CHECK(Email::parse(address_of_size(254)).ok());
    const auto too_long = Email::parse(address_of_size(255));
    REQUIRE_FALSE(too_long.ok());
    CHECK(too_long.problem().code == collectcall::codes::length);
    CHECK(too_long.problem().message == "must be at most 254 characters");
    REQUIRE(Email::check(address_of_size(255)).has_value());
    CHECK(Email::check(address_of_size(255))->code == collectcall::codes::length);
}

TEST_CASE("Email keeps the address as sent and compares it exactly", "[types][email]") {
    const Email a = Email::parse("Ann@Example.com").value();
    CHECK(a.view() == "Ann@Example.com");
    CHECK(a == Email::parse("Ann@Example.com").value());
    CHECK(a != Email::parse("ann@example.com").value());
}

TEST_CASE("Email parse_into agrees with parse and changes nothing on failure", "[types][email]") {
    const auto text = GENERATE(as<std::string>{}, "a@b", "name@example.com", "", "a@b.", "a b@x",
                               address_of_size(255));
    INFO(text);
    const auto parsed = Email::parse(text);
    Email value = Email::parse("before@example.com").value();
    const auto problem = Email::parse_into(text, value);
    REQUIRE(problem.has_value() != parsed.ok());
    if (parsed.ok()) {
        CHECK(value == parsed.value());
    } else {
        CHECK(problem->code == parsed.problem().code);
        CHECK(value.view() == "before@example.com");
    }
}

namespace {

// The domain grammar character by character, as the WHATWG text states it.
bool reference_domain(std::string_view domain) {
    std::size_t label = 0;
    char previous = '.';
    for (char c : domain) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (c == '.') {
            if (label == 0 || previous == '-') return false;
            label = 0;
        } else if (alnum || (c == '-' && label != 0)) {
            ++label;
        } else {
            return false;
        }
        if (label > 63) return false;
        previous = c;
    }
    return label != 0 && previous != '-';
}

}  // namespace

TEST_CASE("Email: the domain scan agrees with the grammar character by character",
          "[types][email]") {
    std::uint64_t state = 2024;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<unsigned>(state >> 33);
    };
    constexpr std::string_view alphabet = "aZ9-.-.@_";
    for (int n = 0; n < 20000; ++n) {
        std::string domain;
        const unsigned length = next() % 3 == 0 ? 60 + next() % 10 : next() % 12;
        for (unsigned i = 0; i < length; ++i)
            domain += next() % 4 == 0 ? alphabet[next() % alphabet.size()] : 'x';
        INFO(domain);
        CHECK(!Email::check("a@" + domain).has_value() == reference_domain(domain));
    }
}

namespace {

// The whole grammar, a byte at a time, as written in the WHATWG specification.
bool reference_address(std::string_view text) {
    constexpr std::string_view specials = ".!#$%&'*+/=?^_`{|}~-";
    const std::size_t at = text.find('@');
    if (text.size() > 254 || at == std::string_view::npos || at == 0) return false;
    for (char c : text.substr(0, at)) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && specials.find(c) == std::string_view::npos) return false;
    }
    return reference_domain(text.substr(at + 1));
}

}  // namespace

TEST_CASE("Email: every length and every kind of byte agree with the grammar", "[types][email]") {
    std::uint64_t state = 7;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<unsigned>(state >> 33);
    };
    // Every byte that matters to some rule, and bytes that none allows (a space, controls,
    // non-ASCII, the excluded punctuation, NUL).
    const std::string alphabet =
        std::string("aZ09.-@@..--!#$%&'*+/=?^_`{|}~\"(),:;<>[\\] \x7f\x80\xff\t") +
        std::string(1, '\0');
    std::size_t valid = 0;
    for (int n = 0; n < 200000; ++n) {
        const unsigned length = next() % 80;
        std::string text;
        for (unsigned i = 0; i < length; ++i)
            text += next() % 3 == 0 ? alphabet[next() % alphabet.size()] : "xy"[next() % 2];
        // Most random texts fail early; one in two gets an '@' and dotted labels after it.
        if (next() % 2 == 0 && length > 2) text[next() % (length - 1)] = '@';
        INFO(text);
        const bool expected = reference_address(text);
        CHECK(!Email::check(text).has_value() == expected);
        valid += expected ? 1 : 0;
    }
    CHECK(valid > 1000);  // the valid side is exercised too (about 3,000 of them)
}
