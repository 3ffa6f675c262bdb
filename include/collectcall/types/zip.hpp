// Zip: a US ZIP code, 12345 or ZIP+4 12345-1234, ASCII digits only.
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

class Zip {
  public:
    // An empty placeholder (view() is empty), so that structs holding a Zip can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Zip() = default;

    static Parsed<Zip> parse(std::string_view text) noexcept {
        if (std::optional<Problem> problem = check(text)) return *problem;
        return Zip(text);
    }

    // parse() into an existing value, written in place (read<T> reads through this). `out`
    // changes only when the text is valid.
    static std::optional<Problem> parse_into(std::string_view text, Zip& out) noexcept {
        if (std::optional<Problem> problem = check(text)) return problem;
        out.assign(text);
        return std::nullopt;
    }

    // The verdict of parse() without building a value: nullopt when `text` is valid.
    static std::optional<Problem> check(std::string_view text) noexcept {
        constexpr Problem bad{codes::format, "must be 12345 or 12345-1234"};
        if (text.size() != 5 && text.size() != max_size) return bad;
        if (!detail::all_digits({text.data(), 5})) return bad;
        if (text.size() == max_size &&
            (text[5] != '-' || !detail::all_digits({text.data() + 6, max_size - 6}))) {
            return bad;
        }
        return std::nullopt;
    }

    [[nodiscard]] std::string_view view() const noexcept { return {data_.data(), size_}; }

    // The five-digit ZIP without the +4 extension (what time-zone lookups key on).
    [[nodiscard]] std::string_view five() const noexcept { return view().substr(0, 5); }

    friend bool operator==(const Zip&, const Zip&) = default;

  private:
    static constexpr std::size_t max_size = 10;

    explicit Zip(std::string_view text) noexcept { assign(text); }

    // Precondition: check(text) passed (so the text fits).
    void assign(std::string_view text) noexcept {
        data_ = {};
        std::memcpy(data_.data(), text.data(), 5);
        if (text.size() == max_size) std::memcpy(data_.data() + 5, text.data() + 5, max_size - 5);
        size_ = static_cast<std::uint8_t>(text.size());
    }

    // Zero-filled past size_, so the defaulted == can compare the whole buffer.
    std::array<char, max_size> data_{};
    std::uint8_t size_ = 0;
};

namespace schema_patterns {

inline constexpr std::string_view zip = "^[0-9]{5}(?:-[0-9]{4})?$";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Zip>, Schema& s) {
    s["type"] = "string";
    s["description"] = "US ZIP Code: 12345 or 12345-1234";
    s["pattern"] = schema_patterns::zip;
    s["examples"].push_back("78701");
    s["examples"].push_back("78701-1234");
}

}  // namespace collectcall
