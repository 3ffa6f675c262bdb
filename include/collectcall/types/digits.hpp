// Digits<N>: exactly N ASCII digits, e.g. Digits<4> for the last four digits of an SSN.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/detail/ascii.hpp"
#include "collectcall/types/detail/numbered_message.hpp"

namespace collectcall {

template <std::size_t N>
class Digits {
    static_assert(N > 0, "Digits<0> could only hold the empty string");

  public:
    // An empty placeholder (view() is empty), so that structs holding a Digits can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Digits() = default;

    // `length` when the input has the wrong number of characters, `format` when it has the right
    // number but one is not 0-9. Characters are counted as UTF-8 code points so that "１２３４"
    // (full-width) is reported as wrong characters rather than as 12 characters.
    static Parsed<Digits> parse(std::string_view text) noexcept {
        if (text.size() == N && detail::all_digits(text)) return Digits(text);
        return problem_of(text);
    }

    // parse() into an existing value, written in place (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, Digits& out) noexcept {
        if (text.size() == N && detail::all_digits(text)) [[likely]] {
            std::memcpy(out.data_.data(), text.data(), N);
            return std::nullopt;
        }
        return problem_of(text);
    }

    // A value never contains '\0', so a zero first byte marks the placeholder.
    [[nodiscard]] std::string_view view() const noexcept {
        return data_[0] == '\0' ? std::string_view{} : std::string_view{data_.data(), N};
    }

    friend bool operator==(const Digits&, const Digits&) = default;

  private:
    // What is wrong with a text that is not N digits.
    static Problem problem_of(std::string_view text) noexcept {
        std::size_t characters = 0;
        for (char c : text) {
            if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;
        }
        if (characters != N) return Problem{codes::length, length_message()};
        return Problem{codes::format, "must contain only the digits 0-9"};
    }

    static constexpr std::string_view length_message() noexcept {
        if constexpr (N == 1) {
            return detail::numbered_message<"must be exactly ", N, " digit">();
        } else {
            return detail::numbered_message<"must be exactly ", N, " digits">();
        }
    }

    explicit Digits(std::string_view text) noexcept { text.copy(data_.data(), N); }

    std::array<char, N> data_{};
};

// JSON Schema (core/schema.hpp).
template <std::size_t N, class Schema>
void collectcall_schema(schema_tag<Digits<N>>, Schema& s) {
    s["type"] = "string";
    s["description"] = "Exactly " + std::to_string(N) + " ASCII digits";
    s["minLength"] = N;
    s["maxLength"] = N;
    s["pattern"] = "^[0-9]{" + std::to_string(N) + "}$";
}

}  // namespace collectcall
