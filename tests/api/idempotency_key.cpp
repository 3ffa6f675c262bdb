// IdempotencyKey: 1 to api::max_idempotency_key_length printable ASCII characters.
#include "collectcall/api/idempotency_key.hpp"

#include <catch2/catch.hpp>

#include <string>

using collectcall::api::IdempotencyKey;
using collectcall::api::max_idempotency_key_length;

TEST_CASE("IdempotencyKey: 1 to 255 printable ASCII characters") {
    CHECK(max_idempotency_key_length == 255);
    CHECK(IdempotencyKey::problem_message == "must be 1 to 255 printable ASCII characters");

    for (const std::string& good : {std::string("a"), std::string("9f1c2a4e-retry-1"),
                                    std::string(" ~!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}"),
                                    std::string(max_idempotency_key_length, 'k')}) {
        auto key = IdempotencyKey::parse(good);
        REQUIRE(key.ok());
        CHECK(key.value().view() == good);  // kept as sent, spaces included
        CHECK_FALSE(IdempotencyKey::check(good).has_value());
    }
    for (const std::string& bad :
         {std::string(), std::string(max_idempotency_key_length + 1, 'k'), std::string("tab\there"),
          std::string("new\nline"), std::string("del\x7f"), std::string("nul\0x", 5),
          std::string("caf\xc3\xa9"), std::string(1, '\x80')}) {
        auto key = IdempotencyKey::parse(bad);
        REQUIRE_FALSE(key.ok());
        CHECK(key.problem().code == "format");
        CHECK(key.problem().message == IdempotencyKey::problem_message);
        CHECK(IdempotencyKey::check(bad).has_value());
    }
    static_assert(IdempotencyKey::check("").has_value());
    static_assert(!IdempotencyKey::check("k").has_value());
}

TEST_CASE("IdempotencyKey: equal when the texts are, case and all") {
    CHECK(IdempotencyKey::parse("Key-1").value() == IdempotencyKey::parse("Key-1").value());
    CHECK_FALSE(IdempotencyKey::parse("Key-1").value() == IdempotencyKey::parse("key-1").value());
    CHECK(IdempotencyKey{}.view().empty());
}
