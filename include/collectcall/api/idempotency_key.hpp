// IdempotencyKey: the value of an Idempotency-Key request header (API.md section 10): 1 to
// api::max_idempotency_key_length printable ASCII characters (space to tilde). The same key with
// the same request within api::idempotency_retention replays the first answer.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/api/limits.hpp"
#include "collectcall/core/errors.hpp"

namespace collectcall::api {

namespace detail {

// "must be 1 to <max> printable ASCII characters", spelled from the limit at compile time so that
// the number is written once (api/limits.hpp) and the message stays a static string.
inline constexpr auto idempotency_key_problem_text = [] {
    constexpr std::string_view head = "must be 1 to ";
    constexpr std::string_view tail = " printable ASCII characters";
    struct Text {
        std::array<char, 64> chars{};
        std::size_t size = 0;
    } out;
    for (char c : head)
        out.chars[out.size++] = c;
    std::array<char, 20> digits{};
    std::size_t count = 0;
    for (std::size_t v = max_idempotency_key_length; v != 0; v /= 10)
        digits[count++] = static_cast<char>('0' + v % 10);
    while (count != 0)
        out.chars[out.size++] = digits[--count];
    for (char c : tail)
        out.chars[out.size++] = c;
    return out;
}();

}  // namespace detail

class IdempotencyKey {
  public:
    // An empty placeholder (view() is empty); parse() is the only way to a value.
    IdempotencyKey() = default;

    static Parsed<IdempotencyKey> parse(std::string_view text) {
        if (std::optional<Problem> problem = check(text)) return *problem;
        return IdempotencyKey(text);
    }

    // Why `text` is not a key, or nullopt when it is one.
    static constexpr std::optional<Problem> check(std::string_view text) noexcept {
        const bool printable =
            std::all_of(text.begin(), text.end(), [](char c) { return c >= ' ' && c <= '~'; });
        if (text.empty() || text.size() > max_idempotency_key_length || !printable) {
            return Problem{codes::format, problem_message};
        }
        return std::nullopt;
    }

    // "must be 1 to 255 printable ASCII characters"
    static constexpr std::string_view problem_message{
        detail::idempotency_key_problem_text.chars.data(),
        detail::idempotency_key_problem_text.size};

    [[nodiscard]] std::string_view view() const noexcept { return text_; }

    friend bool operator==(const IdempotencyKey&, const IdempotencyKey&) = default;

  private:
    explicit IdempotencyKey(std::string_view text) : text_(text) {}

    std::string text_;
};

}  // namespace collectcall::api
