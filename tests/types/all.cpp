#include <collectcall/types/all.hpp>

#include <chrono>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <catch2/catch.hpp>

#include <collectcall/core/value_type.hpp>

// The generic reader and writer find the value types through these concepts; a type that fell
// out of its concept would silently stop being readable.
TEST_CASE("Every value type meets the contract the reader and writer rely on", "[types]") {
    using namespace collectcall;
    STATIC_REQUIRE(StringValue<E164>);
    STATIC_REQUIRE(StringValue<Zip>);
    STATIC_REQUIRE(StringValue<Digits<4>>);
    STATIC_REQUIRE(StringValue<UsState>);
    STATIC_REQUIRE(StringValue<Date>);
    STATIC_REQUIRE(StringValue<Uuid>);
    STATIC_REQUIRE(StringValue<Email>);
    STATIC_REQUIRE(StringValue<Text>);
    STATIC_REQUIRE(StringValue<Timestamp>);
    STATIC_REQUIRE(StringValue<Url>);
    STATIC_REQUIRE(ContextStringValue<PastDate>);
    STATIC_REQUIRE_FALSE(StringValue<PastDate>);
    STATIC_REQUIRE(NumberValue<Money>);
    STATIC_REQUIRE_FALSE(StringValue<Money>);  // money is a JSON number, never a string

    // Invalid values cannot be made: no default constructor, no public constructor from text.
    STATIC_REQUIRE_FALSE(std::is_constructible_v<Text, std::string_view>);
    STATIC_REQUIRE_FALSE(std::is_constructible_v<E164, std::string_view>);
    STATIC_REQUIRE_FALSE(std::is_constructible_v<Email, const char*>);
    STATIC_REQUIRE_FALSE(std::is_constructible_v<Money, std::uint64_t, unsigned>);

    CHECK(Text::parse("Ann").ok());
}

// Models are built member by member, so every type has a default state. It must be inert: an
// empty view, no garbage bytes, no indeterminate members, and unequal to every parsed value.
TEST_CASE("Default-constructed value types are empty placeholders", "[types]") {
    using namespace collectcall;
    using namespace std::chrono;

    const E164 phone{};
    CHECK(phone.view().empty());
    CHECK(phone.country_and_number().empty());
    CHECK(phone.nanp_area_code().empty());
    CHECK(phone != E164::parse("+12025550100").value());

    const Zip zip{};
    CHECK(zip.view().empty());
    CHECK(zip.five().empty());
    CHECK(zip != Zip::parse("12345").value());

    const Digits<4> ssn{};
    CHECK(ssn.view().empty());
    CHECK(ssn != Digits<4>::parse("0000").value());

    const UsState state{};
    CHECK(state.view().empty());
    CHECK(state != UsState::parse("AL").value());

    const Date date{};
    CHECK(date.view().empty());
    CHECK(date.year() == 0);
    CHECK(date.month() == 0);
    CHECK(date.day() == 0);
    CHECK(date.days() == sys_days{});
    CHECK(date != Date::parse("1970-01-01").value());
    CHECK(PastDate{}.view().empty());
    CHECK(PastDate{}.date() == date);

    const Uuid id{};
    CHECK(id.view().empty());
    CHECK(id.bytes() == Uuid::Bytes{});
    CHECK(id != Uuid::parse("00000000-0000-0000-0000-000000000000").value());

    const Email email{};
    CHECK(email.view().empty());
    const Text text{};
    CHECK(text.view().empty());
    CHECK(text.str().empty());

    // Default-initialised, not value-initialised: the member initialisers must do the work.
    const Timestamp stamp;
    CHECK(stamp.view().empty());
    CHECK(stamp.time() == Timestamp::Time{});
    CHECK(stamp != Timestamp::parse("1970-01-01T00:00:00Z").value());

    const Url url{};
    CHECK(url.view().empty());
    CHECK(url.scheme().empty());
    CHECK(url.host().empty());
    CHECK(url.target().empty());

    const Money money{};
    CHECK(money == Money::parse("0").value());
    CHECK(money.to_string() == "0");
}
