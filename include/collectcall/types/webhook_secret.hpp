// Webhook secrets as texts (API.md sections 5 and 9): which texts are secrets, and the keys the
// two signature schemes take from one. No cryptography here (signature.hpp signs), so that the
// model validates an imported secret without OpenSSL.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collectcall/types/detail/hex.hpp"

namespace collectcall::webhook {

inline constexpr std::string_view secret_prefix = "whsec_";

// Overwrites key material before its memory is given back, in a way the compiler keeps.
inline void wipe(std::span<unsigned char> bytes) noexcept {
    volatile unsigned char* p = bytes.data();
    for (std::size_t i = 0; i < bytes.size(); ++i)
        p[i] = 0;
}

// ---------------------------------------------------------------------------------------------
// Encodings

// Lower-case hexadecimal, two digits per byte (types/detail/hex.hpp).
using collectcall::detail::hex_encode;

// Standard base64 (RFC 4648 section 4) with `=` padding.
inline std::string base64_encode(std::span<const unsigned char> bytes) {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) |
                                (std::uint32_t{bytes[i + 1]} << 8) | std::uint32_t{bytes[i + 2]};
        out += alphabet[(v >> 18) & 0x3f];
        out += alphabet[(v >> 12) & 0x3f];
        out += alphabet[(v >> 6) & 0x3f];
        out += alphabet[v & 0x3f];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest == 1) {
        const std::uint32_t v = std::uint32_t{bytes[i]} << 16;
        out += alphabet[(v >> 18) & 0x3f];
        out += alphabet[(v >> 12) & 0x3f];
        out += "==";
    } else if (rest == 2) {
        const std::uint32_t v =
            (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8);
        out += alphabet[(v >> 18) & 0x3f];
        out += alphabet[(v >> 12) & 0x3f];
        out += alphabet[(v >> 6) & 0x3f];
        out += '=';
    }
    return out;
}

namespace detail {

// The 6-bit value of a base64 character, or -1.
constexpr int base64_value(char c) noexcept {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

}  // namespace detail

// Strict decoding: the length is a multiple of 4, `=` appears only as final padding, no white
// space, and unused bits of the last character are zero. Strictness means one byte string has
// exactly one accepted spelling, so two different secret texts never name the same key.
inline std::optional<std::vector<unsigned char>> base64_decode(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::size_t padding = 0;
    if (!text.empty() && text.back() == '=') {
        padding = text.size() >= 2 && text[text.size() - 2] == '=' ? 2 : 1;
    }
    std::vector<unsigned char> out;
    out.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        const std::size_t pad_here = last ? padding : 0;
        std::uint32_t v = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            int d = 0;
            if (j < 4 - pad_here) {
                d = detail::base64_value(text[i + j]);
                if (d < 0) return std::nullopt;
            }
            v = (v << 6) | static_cast<std::uint32_t>(d);
        }
        out.push_back(static_cast<unsigned char>(v >> 16));
        if (pad_here == 2) {
            if ((v & 0xffff) != 0) return std::nullopt;
            break;
        }
        out.push_back(static_cast<unsigned char>((v >> 8) & 0xff));
        if (pad_here == 1) {
            if ((v & 0xff) != 0) return std::nullopt;
            break;
        }
        out.push_back(static_cast<unsigned char>(v & 0xff));
    }
    return out;
}

// The key a `whsec_` secret gives Standard Webhooks: the base64 after the prefix, decoded, 24 to
// 64 bytes (the sizes that standard allows); nullopt for anything else.
inline std::optional<std::vector<unsigned char>> standard_key(std::string_view secret) {
    if (!secret.starts_with(secret_prefix)) return std::nullopt;
    auto bytes = base64_decode(secret.substr(secret_prefix.size()));
    if (!bytes) return std::nullopt;
    if (bytes->size() < 24 || bytes->size() > 64) {
        wipe(*bytes);
        return std::nullopt;
    }
    return bytes;
}

// The key of the hosted scheme: the secret's text itself.
inline std::span<const unsigned char> hosted_key(std::string_view secret) noexcept {
    return {reinterpret_cast<const unsigned char*>(secret.data()), secret.size()};
}

// The lengths of a secret's text (API.md section 5: a secret brought from the hosted service).
inline constexpr std::size_t secret_min_length = 16;
inline constexpr std::size_t secret_max_length = 256;

// Why `secret` cannot sign, or an empty view when it can: 16 to 256 printable ASCII
// characters (space to tilde), and a `whsec_` secret must decode as Standard Webhooks says, so
// that every `whsec_` delivery carries both schemes.
inline std::string_view secret_problem(std::string_view secret) noexcept {
    if (secret.size() < secret_min_length || secret.size() > secret_max_length) {
        return "must be 16 to 256 characters";
    }
    if (!std::all_of(secret.begin(), secret.end(), [](char c) { return c >= ' ' && c <= '~'; })) {
        return "must be printable ASCII characters";
    }
    if (secret.starts_with(secret_prefix) && !standard_key(secret)) {
        return "a whsec_ secret must be whsec_ and the base64 of 24 to 64 bytes";
    }
    return {};
}

inline bool valid_secret(std::string_view secret) noexcept {
    return secret_problem(secret).empty();
}

}  // namespace collectcall::webhook
