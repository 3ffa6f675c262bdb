// E164: a phone number in E.164 form, "+" then 2 to 15 digits, the first one 1-9.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

class E164 {
  public:
    // An empty placeholder (view() is empty), so that structs holding an E164 can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    E164() = default;

    // Only the canonical form is accepted: no spaces, dashes, parentheses or leading "00".
    // Rewriting a number into E.164 needs its country's dialling plan, which is the caller's
    // business; silently "fixing" one could dial the wrong person.
    static Parsed<E164> parse(std::string_view text) noexcept {
        if (std::optional<Problem> problem = check(text)) return *problem;
        return E164(text);
    }

    // parse() into an existing value, written in place (read<T> reads through this: a value
    // built apart and copied in is reloaded wider than it was stored, which stalls). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, E164& out) noexcept {
        if (std::optional<Problem> problem = check(text)) return problem;
        out.assign(text);
        return std::nullopt;
    }

    // The verdict of parse() without building a value: nullopt when `text` is valid.
    static constexpr std::optional<Problem> check(std::string_view text) noexcept {
        constexpr Problem bad{codes::format,
                              "must be E.164: + then 2 to 15 digits, first digit 1-9"};
        if (text.size() < min_size || text.size() > max_size) return bad;
        if (text[0] != '+' || text[1] < '1' || text[1] > '9') return bad;
        if (!detail::all_digits({text.data() + 2, text.size() - 2})) return bad;
        return std::nullopt;
    }

    [[nodiscard]] std::string_view view() const noexcept { return {data_.data(), size_}; }

    // The digits without the "+".
    [[nodiscard]] std::string_view country_and_number() const noexcept {
        return size_ == 0 ? std::string_view{} : view().substr(1);
    }

    // For a North American number (+1 and ten digits) its area code, used to pick a caller number
    // of the same area; empty for any other number.
    [[nodiscard]] std::string_view nanp_area_code() const noexcept {
        if (size_ != 12 || data_[1] != '1') return {};
        return view().substr(2, 3);
    }

    friend bool operator==(const E164&, const E164&) = default;

  private:
    static constexpr std::size_t min_size = 3;   // "+" and 2 digits
    static constexpr std::size_t max_size = 16;  // "+" and 15 digits

    explicit E164(std::string_view text) noexcept { assign(text); }

    // Precondition: check(text) passed (so the text fits).
    void assign(std::string_view text) noexcept {
        // Two overlapping 8-byte moves for the usual length, no call to memcpy.
        const std::size_t n = text.size();
        data_ = {};
        if (n >= 8) {
            std::memcpy(data_.data(), text.data(), 8);
            std::memcpy(data_.data() + n - 8, text.data() + n - 8, 8);
        } else {
            for (std::size_t i = 0; i < n; ++i)
                data_[i] = text[i];
        }
        size_ = static_cast<std::uint8_t>(n);
    }

    // Zero-filled past size_, so the defaulted == can compare the whole buffer.
    std::array<char, max_size> data_{};
    std::uint8_t size_ = 0;
};

namespace schema_patterns {

inline constexpr std::string_view e164 = "^\\+[1-9][0-9]{1,14}$";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<E164>, Schema& s) {
    s["type"] = "string";
    s["description"] = "E.164 phone number: + then 2 to 15 digits, the first 1-9";
    s["minLength"] = 3;
    s["maxLength"] = 16;
    s["pattern"] = schema_patterns::e164;
    s["examples"].push_back("+12025550123");
}

}  // namespace collectcall
