#include <collectcall/types/uuid.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

using namespace std::literals;
using collectcall::Uuid;

TEST_CASE("Uuid accepts 8-4-4-4-12 hex in either case and folds it to lowercase", "[types][uuid]") {
    using row = std::tuple<std::string_view, std::string_view>;
    const auto [text, canonical] = GENERATE(table<std::string_view, std::string_view>({
        row{"550e8400-e29b-41d4-a716-446655440000", "550e8400-e29b-41d4-a716-446655440000"},
        row{"550E8400-E29B-41D4-A716-446655440000", "550e8400-e29b-41d4-a716-446655440000"},
        row{"550e8400-E29b-41D4-a716-44665544000A", "550e8400-e29b-41d4-a716-44665544000a"},
        row{"00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"},
        row{"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
        row{"01890a5d-ac96-774b-bcce-b302099a8057", "01890a5d-ac96-774b-bcce-b302099a8057"},  // v7
    }));
    INFO(text);
    const auto parsed = Uuid::parse(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().view() == canonical);
    CHECK(parsed.value() == Uuid::parse(canonical).value());
}

TEST_CASE("Uuid rejects other spellings", "[types][uuid]") {
    const auto text =
        GENERATE(as<std::string_view>{}, "",
                 "550e8400e29b41d4a716446655440000",        // no hyphens
                 "{550e8400-e29b-41d4-a716-446655440000}",  // braces
                 "urn:uuid:550e8400-e29b-41d4-a716-446655440000",
                 "550e8400-e29b-41d4-a716-44665544000",    // 35
                 "550e8400-e29b-41d4-a716-4466554400000",  // 37
                 "550e8400-e29b-41d4-a716-44665544000g",
                 "550e840-0e29b-41d4-a716-446655440000",  // hyphen moved
                 "550e8400-e29b-41d4-a716_446655440000", "550e8400 e29b 41d4 a716 446655440000",
                 " 550e8400-e29b-41d4-a716-44665544000", "550e8400-e29b-41d4-a716-4466554400-0",
                 "550e8400-e29b-41d4-a716-44665544000\0"sv);
    INFO(text);
    const auto parsed = Uuid::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == collectcall::codes::format);
    CHECK(parsed.problem().message == "must be a UUID: 8-4-4-4-12 hexadecimal digits");
}

TEST_CASE("Uuid bytes are in text order", "[types][uuid]") {
    const Uuid id = Uuid::parse("00112233-4455-6677-8899-AABBCCDDEEFF").value();
    const Uuid::Bytes expected{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                               0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    CHECK(id.bytes() == expected);
    CHECK(Uuid::from_bytes(expected) == id);
    CHECK(Uuid::from_bytes(expected).view() == "00112233-4455-6677-8899-aabbccddeeff");
}

namespace {

// A generator that always yields one value, to pin down what random_v4 does with the bits.
template <std::uint32_t Value>
struct ConstantRng {
    using result_type = std::uint32_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
    result_type operator()() { return Value; }
};

}  // namespace

namespace {

// A generator that counts from Min to Max and over again.
template <std::uint32_t Min, std::uint32_t Max>
struct CountingRng {
    using result_type = std::uint32_t;
    static constexpr result_type min() { return Min; }
    static constexpr result_type max() { return Max; }
    result_type next = Min;
    result_type operator()() {
        const result_type value = next;
        next = next == Max ? Min : next + 1;
        return value;
    }
};

}  // namespace

TEST_CASE("Uuid::random_v4 takes uniform bits from a generator of any range", "[types][uuid]") {
    // 1..256 is 8 bits a draw, offset from min(): the bytes 0, 1, 2, ...
    CountingRng<1, 256> bytes;
    CHECK(Uuid::random_v4(bytes).view() == "00010203-0405-4607-8809-0a0b0c0d0e0f");
    // 0..9 is 3 bits a draw (0..7, low bits first); 8 and 9 are drawn again.
    CountingRng<0, 9> tens;
    CHECK(Uuid::random_v4(tens).view() == "88c6fa88-c6fa-48c6-ba88-c6fa88c6fa88");
}

TEST_CASE("Uuid::random_v4 sets the version and variant bits", "[types][uuid]") {
    ConstantRng<0> zeros;
    CHECK(Uuid::random_v4(zeros).view() == "00000000-0000-4000-8000-000000000000");
    ConstantRng<0xFFFFFFFF> ones;
    CHECK(Uuid::random_v4(ones).view() == "ffffffff-ffff-4fff-bfff-ffffffffffff");

    std::mt19937_64 rng(12345);
    const Uuid a = Uuid::random_v4(rng);
    const Uuid b = Uuid::random_v4(rng);
    CHECK(a != b);
    for (const Uuid& id : {a, b}) {
        CHECK(id.view()[14] == '4');
        CHECK(std::string_view("89ab").find(id.view()[19]) != std::string_view::npos);
        CHECK((id.bytes()[6] >> 4) == 4);
        CHECK((id.bytes()[8] & 0xC0) == 0x80);
        CHECK(Uuid::parse(id.view()).value() == id);
    }

    // A generator with a narrow range still fills every byte.
    std::minstd_rand narrow(7);
    const Uuid c = Uuid::random_v4(narrow);
    CHECK(Uuid::parse(c.view()).value() == c);
    CHECK(c.view()[14] == '4');
}

TEST_CASE("Uuid storage", "[types][uuid]") {
    STATIC_REQUIRE(std::is_trivially_copyable_v<Uuid>);
}
