// Messages with a number in them ("must be exactly 4 digits"), written at compile time: a
// Problem's message is a std::string_view, so it must point at storage that outlives it.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace collectcall::detail {

constexpr std::size_t decimal_width(std::size_t n) noexcept {
    std::size_t width = 1;
    for (; n >= 10; n /= 10)
        ++width;
    return width;
}

// A string literal as a template argument.
template <std::size_t Size>
struct Literal {
    // Implicit, so that a literal can be written where a Literal is expected.
    constexpr Literal(const char (&text)[Size]) noexcept {  // NOLINT
        for (std::size_t i = 0; i < Size; ++i)
            chars[i] = text[i];
    }
    [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, Size - 1}; }

    char chars[Size]{};
};

template <Literal Head, std::size_t N, Literal Tail>
inline constexpr auto numbered_message_chars = [] {
    constexpr std::size_t width = decimal_width(N);
    std::array<char, Head.view().size() + width + Tail.view().size()> out{};
    std::size_t at = 0;
    for (char c : Head.view())
        out[at++] = c;
    std::size_t n = N;
    for (std::size_t i = width; i > 0; --i, n /= 10)
        out[at + i - 1] = static_cast<char>('0' + n % 10);
    at += width;
    for (char c : Tail.view())
        out[at++] = c;
    return out;
}();

// Head, N in decimal, Tail: numbered_message<"must be exactly ", 4, " digits">() is
// "must be exactly 4 digits", with static storage.
template <Literal Head, std::size_t N, Literal Tail>
constexpr std::string_view numbered_message() noexcept {
    return {numbered_message_chars<Head, N, Tail>.data(),
            numbered_message_chars<Head, N, Tail>.size()};
}

}  // namespace collectcall::detail
