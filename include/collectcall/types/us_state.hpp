// UsState: a USPS two-letter code of a US state, DC, a territory or a military "state".
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

namespace detail {
constexpr std::size_t us_state_index(char first, char second) noexcept {
    return static_cast<std::size_t>(first - 'A') * 26 + static_cast<std::size_t>(second - 'A');
}
}  // namespace detail

class UsState {
  public:
    // An empty placeholder (view() is empty), so that structs holding an UsState can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    UsState() = default;

    // All 62 codes, two letters each: the 50 states, DC, the territories PR GU VI AS MP and the
    // freely associated states FM MH PW (USPS serves them), and the military AA AE AP.
    static constexpr std::string_view all_codes =
        "ALAKAZARCACOCTDEFLGAHIIDILINIAKSKYLAMEMDMAMIMNMSMOMTNENVNHNJNMNYNCNDOHOKORPARISCSDTNTX"
        "UTVTVAWAWVWIWY"
        "DC"
        "PRGUVIASMP"
        "FMMHPW"
        "AAAEAP";

    // In any letter case, as the hosted service accepts it ("ny", "Ny"); the value is the
    // canonical upper-case code, which is what is stored and echoed.
    static Parsed<UsState> parse(std::string_view text) noexcept {
        UsState state;
        if (std::optional<Problem> problem = parse_into(text, state)) return *problem;
        return state;
    }

    // parse() into an existing value, written in place (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, UsState& out) noexcept {
        constexpr Problem bad{codes::format, "must be a two-letter USPS state code, e.g. NY"};
        if (text.size() != 2) return bad;
        const char code[2] = {upper(text[0]), upper(text[1])};
        if (!detail::is_upper(code[0]) || !detail::is_upper(code[1])) return bad;
        if (!known[detail::us_state_index(code[0], code[1])]) return bad;
        out.data_ = {code[0], code[1]};
        return std::nullopt;
    }

    // A value never contains '\0', so a zero first byte marks the placeholder.
    [[nodiscard]] std::string_view view() const noexcept {
        return data_[0] == '\0' ? std::string_view{} : std::string_view{data_.data(), data_.size()};
    }

    friend bool operator==(const UsState&, const UsState&) = default;

  private:
    // One flag per pair of uppercase letters: a lookup rather than a search of the list.
    static constexpr std::array<bool, 26 * 26> known = [] {
        std::array<bool, 26 * 26> table{};
        for (std::size_t i = 0; i < all_codes.size(); i += 2)
            table[detail::us_state_index(all_codes[i], all_codes[i + 1])] = true;
        return table;
    }();

    static constexpr char upper(char c) noexcept {
        return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    }

    std::array<char, 2> data_{};
};

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<UsState>, Schema& s) {
    s["type"] = "string";
    s["description"] =
        "USPS two-letter code, in any letter case (stored upper case): a state, DC, a territory "
        "or a military state";
    // Every listed code with each letter in either case: "[Nn][Yy]".
    std::string pattern = "^(?:";
    for (std::size_t i = 0; i < UsState::all_codes.size(); i += 2) {
        if (i != 0) pattern += '|';
        for (std::size_t j = i; j < i + 2; ++j) {
            const char upper = UsState::all_codes[j];
            pattern += '[';
            pattern += upper;
            pattern += static_cast<char>(upper - 'A' + 'a');
            pattern += ']';
        }
    }
    pattern += ")$";
    s["minLength"] = 2;
    s["maxLength"] = 2;
    s["pattern"] = std::move(pattern);
}

}  // namespace collectcall
