// What every value type's parse_into must do: give parse()'s verdict and value, and leave `out`
// as it was when the text is not valid (the types' tests run it over their own texts).
#pragma once

#include <string_view>

#include <catch2/catch.hpp>

template <class T>
void check_parse_into_agrees_with_parse(std::string_view text, std::string_view valid) {
    INFO("text: " << text);
    T out = T::parse(valid).value();
    const T before = out;
    const auto parsed = T::parse(text);
    const auto problem = T::parse_into(text, out);
    REQUIRE(parsed.ok() == !problem.has_value());
    if (parsed.ok()) {
        CHECK(out == parsed.value());
    } else {
        CHECK(problem->code == parsed.problem().code);
        CHECK(problem->message == parsed.problem().message);
        CHECK(out == before);
    }
}
