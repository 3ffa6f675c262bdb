// Zip: a US ZIP code, 12345 or ZIP+4 12345-1234, ASCII digits only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

class Zip {
  public:
    // An empty placeholder (view() is empty), so that structs holding a Zip can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Zip() = default;

    static Parsed<Zip> parse(std::string_view text) noexcept {
        constexpr Problem bad{codes::format, "must be 12345 or 12345-1234"};
        if (text.size() != 5 && text.size() != max_size) return bad;
        if (!detail::all_digits({text.data(), 5})) return bad;
        if (text.size() == max_size &&
            (text[5] != '-' || !detail::all_digits({text.data() + 6, max_size - 6}))) {
            return bad;
        }
        return Zip(text);
    }

    [[nodiscard]] std::string_view view() const noexcept { return {data_.data(), size_}; }

    // The five-digit ZIP without the +4 extension (what time-zone lookups key on).
    [[nodiscard]] std::string_view five() const noexcept { return view().substr(0, 5); }

    friend bool operator==(const Zip&, const Zip&) = default;

  private:
    static constexpr std::size_t max_size = 10;

    explicit Zip(std::string_view text) noexcept : size_(static_cast<std::uint8_t>(text.size())) {
        text.copy(data_.data(), text.size());
    }

    // Zero-filled past size_, so the defaulted == can compare the whole buffer.
    std::array<char, max_size> data_{};
    std::uint8_t size_ = 0;
};

}  // namespace collectcall
