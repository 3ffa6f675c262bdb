// Uuid: a UUID in the 8-4-4-4-12 hexadecimal form, kept as 16 bytes and canonical lowercase text.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

class Uuid {
  public:
    // An empty placeholder (view() is empty), so that structs holding an Uuid can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Uuid() = default;

    using Bytes = std::array<std::uint8_t, 16>;

    // Either case is accepted (RFC 9562 says so) and folded to lowercase, so that the same id
    // sent as "ABC…" and "abc…" compares equal and is echoed one way. Any version and variant
    // are accepted: the ids are opaque to this library. Braces, "urn:uuid:" and the 32-digit
    // form without hyphens are not.
    static Parsed<Uuid> parse(std::string_view text) noexcept {
        constexpr Problem bad{codes::format, "must be a UUID: 8-4-4-4-12 hexadecimal digits"};
        if (text.size() != text_size || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
            text[23] != '-') {
            return bad;
        }
        // Where each byte's two digits start: the groups end after bytes 4, 6, 8 and 10.
        constexpr std::array<std::uint8_t, 16> starts{0,  2,  4,  6,  9,  11, 14, 16,
                                                      19, 21, 24, 26, 28, 30, 32, 34};
        Bytes bytes{};
        unsigned invalid = 0;  // checked once at the end: no branch per digit
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            const std::uint8_t high = hex_digits[static_cast<unsigned char>(text[starts[i]])];
            const std::uint8_t low = hex_digits[static_cast<unsigned char>(text[starts[i] + 1])];
            invalid |= static_cast<unsigned>(high | low);
            bytes[i] = static_cast<std::uint8_t>((high << 4 | low) & 0xFF);
        }
        if ((invalid & not_hex) != 0) return bad;
        return from_bytes(bytes);
    }

    [[nodiscard]] static Uuid from_bytes(const Bytes& bytes) noexcept { return Uuid(bytes); }

    // A version 4 (random) UUID from any uniform random bit generator. Use a cryptographically
    // secure one when the id must not be guessable; std::mt19937 seeded once is not.
    template <class Rng>
    [[nodiscard]] static Uuid random_v4(Rng& urbg) {
        // A URBG may yield any range of values: a result is used for as many bits as the largest
        // power of two its range holds (up to 32 of them, low bits first), and a result above
        // that power is drawn again, which never happens for a range that is a power of two.
        constexpr auto span = static_cast<std::uint64_t>(Rng::max() - Rng::min());
        constexpr int whole_bits = span == ~std::uint64_t{0} ? 64 : std::bit_width(span + 1) - 1;
        static_assert(whole_bits >= 1, "the generator must yield at least two values");
        constexpr int bits = whole_bits < 32 ? whole_bits : 32;
        Bytes bytes{};
        std::uint64_t pool = 0;
        int pooled = 0;
        for (std::uint8_t& byte : bytes) {
            while (pooled < 8) {
                const auto draw = static_cast<std::uint64_t>(urbg() - Rng::min());
                if constexpr (whole_bits < 64) {
                    if (draw >> whole_bits != 0) continue;
                }
                pool |= (draw & ((std::uint64_t{1} << bits) - 1)) << pooled;
                pooled += bits;
            }
            byte = static_cast<std::uint8_t>(pool);
            pool >>= 8;
            pooled -= 8;
        }
        bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0F) | 0x40);  // version 4
        bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3F) | 0x80);  // variant 10xx (RFC)
        return Uuid(bytes);
    }

    // Empty for the placeholder (whose bytes are those of the nil UUID, but which was never
    // parsed).
    [[nodiscard]] std::string_view view() const noexcept {
        return text_[0] == '\0' ? std::string_view{} : std::string_view{text_.data(), text_.size()};
    }
    [[nodiscard]] const Bytes& bytes() const noexcept { return bytes_; }

    friend bool operator==(const Uuid&, const Uuid&) = default;

  private:
    static constexpr std::size_t text_size = 36;

    // A hexadecimal digit's value, or a value with the not_hex bit for any other byte.
    static constexpr std::uint8_t not_hex = 0x10;
    static constexpr auto hex_digits = [] {
        std::array<std::uint8_t, 256> table{};
        for (int c = 0; c < 256; ++c) {
            table[c] = detail::is_hex(static_cast<char>(c))
                           ? detail::hex_value(static_cast<char>(c))
                           : not_hex;
        }
        return table;
    }();

    explicit Uuid(const Bytes& bytes) noexcept : bytes_(bytes) {
        constexpr std::string_view hex = "0123456789abcdef";
        std::size_t at = 0;
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            if (i == 4 || i == 6 || i == 8 || i == 10) text_[at++] = '-';
            text_[at++] = hex[bytes[i] >> 4];
            text_[at++] = hex[bytes[i] & 0x0F];
        }
    }

    Bytes bytes_{};
    std::array<char, text_size> text_{};
};

namespace schema_patterns {

inline constexpr std::string_view uuid =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Uuid>, Schema& s) {
    s["type"] = "string";
    s["format"] = "uuid";
    s["minLength"] = 36;
    s["maxLength"] = 36;
    s["pattern"] = schema_patterns::uuid;
    s["examples"].push_back("3f0c8a4e-6f1d-4c55-9a53-2b1f6f0e9c11");
}

}  // namespace collectcall
