// Signing and verifying webhook deliveries (API.md section 9).
//
// A delivery with a secret carries the hosted service's signature, and, when the secret is a
// `whsec_` one, the Standard Webhooks signature too, over the same body, so that a receiver
// written for either convention verifies it without adapting:
//
//   hosted service:    X-Webhook-Timestamp: <unix seconds>
//                      X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256(text, ts "." body)>
//   Standard Webhooks: webhook-id: <message id>
//                      webhook-timestamp: <unix seconds>
//                      webhook-signature: v1,<base64 HMAC-SHA256(key, id "." ts "." body)>
//
// The two schemes key the HMAC differently, each as its own guide tells receivers to: the
// hosted scheme with the secret's text exactly as it was shown or imported (`whsec_...`
// included), Standard Webhooks with the bytes the base64 after `whsec_` decodes to. A secret
// made here is `whsec_` followed by the padded base64 of 32 random bytes; an imported one is
// any 16 to 256 printable ASCII characters (a `whsec_` one must decode as Standard Webhooks
// says). webhook-id goes out on every delivery, signed or not: it is the receiver's dedupe key.
//
// Needs OpenSSL 3 libcrypto (CMake target collectcall::webhooks).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "collectcall/types/detail/ascii.hpp"
#include "collectcall/types/webhook_secret.hpp"

namespace collectcall::webhook {

// The 32 raw bytes behind a `whsec_` secret: the HMAC key.
using SecretKey = std::array<unsigned char, 32>;
// An HMAC-SHA256 value.
using Digest = std::array<unsigned char, 32>;

// Header names as they are sent. HTTP header names are case-insensitive; the Standard
// Webhooks specification writes its own in lower case.
namespace header {
inline constexpr std::string_view hosted_timestamp = "X-Webhook-Timestamp";
inline constexpr std::string_view hosted_signature = "X-Webhook-Signature";
inline constexpr std::string_view standard_id = "webhook-id";
inline constexpr std::string_view standard_timestamp = "webhook-timestamp";
inline constexpr std::string_view standard_signature = "webhook-signature";
}  // namespace header

// How far a timestamp may lie from the receiver's clock, in either direction, before the
// delivery is refused: it bounds how long a captured delivery can be replayed.
inline constexpr std::chrono::seconds default_tolerance{std::chrono::minutes{5}};

namespace detail {

using collectcall::detail::hex_decode_exact;
using collectcall::detail::lower_hex_decode_exact;

// Unix seconds as sent in a header: ASCII digits only. At most 18 digits, so that the value
// and the tolerance arithmetic below stay far from overflow.
inline std::optional<std::int64_t> parse_timestamp(std::string_view text) noexcept {
    if (text.empty() || text.size() > 18) return std::nullopt;
    std::int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

struct MacDeleter {
    void operator()(EVP_MAC* mac) const noexcept { EVP_MAC_free(mac); }
    void operator()(EVP_MAC_CTX* ctx) const noexcept { EVP_MAC_CTX_free(ctx); }
};

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Secrets

// The key behind `whsec_<base64 of 32 bytes>`; nullopt for anything else (no prefix, bad
// base64, a length other than 32 bytes).
inline std::optional<SecretKey> decode_secret(std::string_view whsec) {
    if (!whsec.starts_with(secret_prefix)) return std::nullopt;
    auto bytes = base64_decode(whsec.substr(secret_prefix.size()));
    if (!bytes || bytes->size() != SecretKey{}.size()) return std::nullopt;
    SecretKey key{};
    std::copy(bytes->begin(), bytes->end(), key.begin());
    OPENSSL_cleanse(bytes->data(), bytes->size());
    return key;
}

inline std::string encode_secret(const SecretKey& key) {
    return std::string(secret_prefix) + base64_encode(key);
}

// A new secret from OpenSSL's CSPRNG. Throws std::runtime_error if the generator cannot be
// seeded: a predictable secret is worse than none.
inline std::string generate_secret() {
    SecretKey key{};
    if (RAND_bytes(key.data(), static_cast<int>(key.size())) != 1) {
        throw std::runtime_error("webhook: RAND_bytes failed to generate a secret");
    }
    std::string secret = encode_secret(key);
    OPENSSL_cleanse(key.data(), key.size());
    return secret;
}

// ---------------------------------------------------------------------------------------------
// HMAC

// HMAC-SHA256 over the concatenation of `parts`, fed one by one so that the body is never
// copied to build the signed content. Throws std::invalid_argument for an empty key, and
// std::runtime_error only if OpenSSL itself fails (out of memory, no SHA-256 in libcrypto).
inline Digest hmac_sha256(std::span<const unsigned char> key,
                          std::initializer_list<std::string_view> parts) {
    // A zero-length key tells EVP_MAC_init to reuse a previous key, which a fresh context lacks.
    if (key.empty()) throw std::invalid_argument("webhook: empty HMAC key");
    const std::unique_ptr<EVP_MAC, detail::MacDeleter> mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
    if (!mac) throw std::runtime_error("webhook: HMAC is not available in libcrypto");
    const std::unique_ptr<EVP_MAC_CTX, detail::MacDeleter> ctx(EVP_MAC_CTX_new(mac.get()));
    if (!ctx) throw std::runtime_error("webhook: EVP_MAC_CTX_new failed");

    char digest_name[] = "SHA256";  // OSSL_PARAM wants a mutable pointer; it is only read.
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name, 0),
        OSSL_PARAM_construct_end(),
    };
    if (EVP_MAC_init(ctx.get(), key.data(), key.size(), params) != 1) {
        throw std::runtime_error("webhook: EVP_MAC_init failed");
    }
    for (std::string_view part : parts) {
        if (part.empty()) continue;
        if (EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char*>(part.data()),
                           part.size()) != 1) {
            throw std::runtime_error("webhook: EVP_MAC_update failed");
        }
    }
    Digest digest{};
    std::size_t length = 0;
    if (EVP_MAC_final(ctx.get(), digest.data(), &length, digest.size()) != 1 ||
        length != digest.size()) {
        throw std::runtime_error("webhook: EVP_MAC_final failed");
    }
    return digest;
}

// `sha256=<hex>` over `timestamp "." body`: the value of X-Webhook-Signature.
inline std::string hosted_signature(std::span<const unsigned char> key, std::string_view timestamp,
                                    std::string_view body) {
    return "sha256=" + hex_encode(hmac_sha256(key, {timestamp, ".", body}));
}

// `v1,<base64>` over `id "." timestamp "." body`: one entry of webhook-signature.
inline std::string standard_signature(std::span<const unsigned char> key,
                                      std::string_view message_id, std::string_view timestamp,
                                      std::string_view body) {
    return "v1," + base64_encode(hmac_sha256(key, {message_id, ".", timestamp, ".", body}));
}

// ---------------------------------------------------------------------------------------------
// Signing

// The headers of one delivery, in the order they are sent.
struct SignedHeaders {
    std::vector<std::pair<std::string, std::string>> headers;

    // The value of a header by name (ASCII case-insensitive), or nullopt.
    [[nodiscard]] std::optional<std::string_view> get(std::string_view name) const noexcept {
        const auto lower = [](char c) {
            return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        };
        for (const auto& [key, value] : headers) {
            if (key.size() == name.size() &&
                std::equal(key.begin(), key.end(), name.begin(),
                           [&](char a, char b) { return lower(a) == lower(b); })) {
                return std::string_view(value);
            }
        }
        return std::nullopt;
    }
};

// A message id as this library sends it: 1 to 255 visible ASCII characters other than `.`.
// It goes verbatim into a header (so no control characters or spaces) and into the signed
// content, where a `.` would make `id "." timestamp` ambiguous.
inline bool valid_message_id(std::string_view id) noexcept {
    if (id.empty() || id.size() > 255) return false;
    return std::all_of(id.begin(), id.end(),
                       [](char c) { return c > ' ' && c < 0x7f && c != '.'; });
}

// The headers of a delivery of `body`: without a secret, webhook-id alone (an unsigned
// delivery, API.md section 9); with one, X-Webhook-Timestamp and X-Webhook-Signature keyed by
// its text, then webhook-id, and for a `whsec_` secret webhook-timestamp and webhook-signature.
// Throws std::invalid_argument for a negative timestamp, an id that valid_message_id refuses
// or a secret that valid_secret refuses: those are the sender's bugs, never the receiver's
// input.
inline SignedHeaders sign(std::optional<std::string_view> secret, std::string_view message_id,
                          std::int64_t unix_seconds, std::string_view body) {
    if (unix_seconds < 0) throw std::invalid_argument("webhook: negative signing timestamp");
    if (!valid_message_id(message_id)) throw std::invalid_argument("webhook: invalid message id");
    SignedHeaders out;
    if (!secret) {
        out.headers.emplace_back(header::standard_id, message_id);
        return out;
    }
    if (!valid_secret(*secret)) throw std::invalid_argument("webhook: malformed secret");
    const std::string timestamp = std::to_string(unix_seconds);
    out.headers.reserve(5);
    out.headers.emplace_back(header::hosted_timestamp, timestamp);
    out.headers.emplace_back(header::hosted_signature,
                             hosted_signature(hosted_key(*secret), timestamp, body));
    out.headers.emplace_back(header::standard_id, message_id);
    if (auto key = standard_key(*secret)) {
        out.headers.emplace_back(header::standard_timestamp, timestamp);
        out.headers.emplace_back(header::standard_signature,
                                 standard_signature(*key, message_id, timestamp, body));
        OPENSSL_cleanse(key->data(), key->size());
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Verifying

enum class Verification {
    ok,
    malformed,         // a header is missing, empty or not of the scheme's form
    stale_timestamp,   // older than now - tolerance
    future_timestamp,  // newer than now + tolerance
    bad_signature,     // well formed and timely, but no signature matches
    invalid_secret,    // the receiver's own secret is not a valid secret of the scheme
};

inline std::string_view describe(Verification v) noexcept {
    switch (v) {
        case Verification::ok:
            return "signature verified";
        case Verification::malformed:
            return "signature headers are missing or malformed";
        case Verification::stale_timestamp:
            return "timestamp is too old";
        case Verification::future_timestamp:
            return "timestamp is too far in the future";
        case Verification::bad_signature:
            return "no signature matches";
        case Verification::invalid_secret:
            return "the verification secret is malformed";
    }
    return "unknown verification result";
}

namespace detail {

inline Verification check_timestamp(std::int64_t timestamp, std::int64_t now,
                                    std::chrono::seconds tolerance) noexcept {
    // Clamped so that timestamp +- tol cannot overflow (timestamp < 10^18, see parse_timestamp).
    constexpr std::int64_t max_tolerance = 1'000'000'000'000'000'000;
    const std::int64_t tol = std::clamp<std::int64_t>(tolerance.count(), 0, max_tolerance);
    if (timestamp + tol < now) return Verification::stale_timestamp;
    if (timestamp - tol > now) return Verification::future_timestamp;
    return Verification::ok;
}

}  // namespace detail

// Verifies X-Webhook-Timestamp / X-Webhook-Signature. Checks, in order: the headers' form,
// the timestamp against `now` (unix seconds) +- tolerance, then the signature in constant time.
inline Verification verify_hosted(std::span<const unsigned char> key,
                                  std::string_view timestamp_header,
                                  std::string_view signature_header, std::string_view body,
                                  std::int64_t now,
                                  std::chrono::seconds tolerance = default_tolerance) {
    const std::string_view timestamp = collectcall::detail::trim_blanks(timestamp_header);
    const std::string_view signature = collectcall::detail::trim_blanks(signature_header);
    const auto ts = detail::parse_timestamp(timestamp);
    constexpr std::string_view scheme = "sha256=";
    Digest claimed{};
    if (!ts || !signature.starts_with(scheme) ||
        !detail::hex_decode_exact(signature.substr(scheme.size()), claimed)) {
        return Verification::malformed;
    }
    if (auto when = detail::check_timestamp(*ts, now, tolerance); when != Verification::ok) {
        return when;
    }
    const Digest expected = hmac_sha256(key, {timestamp, ".", body});
    return CRYPTO_memcmp(expected.data(), claimed.data(), expected.size()) == 0
               ? Verification::ok
               : Verification::bad_signature;
}

// Verifies webhook-id / webhook-timestamp / webhook-signature per Standard Webhooks: the
// signature header is a space-separated list of `version,value` entries (several while a
// sender rotates secrets); entries of other versions are skipped, and the delivery passes if
// any v1 entry matches. No v1 entry, or v1 entries that do not decode, are bad_signature.
// Checks run in the same order as verify_hosted: form, timestamp, then signatures.
inline Verification verify_standard(std::span<const unsigned char> key, std::string_view id_header,
                                    std::string_view timestamp_header,
                                    std::string_view signature_header, std::string_view body,
                                    std::int64_t now,
                                    std::chrono::seconds tolerance = default_tolerance) {
    const std::string_view id = collectcall::detail::trim_blanks(id_header);
    const std::string_view timestamp = collectcall::detail::trim_blanks(timestamp_header);
    std::string_view signatures = collectcall::detail::trim_blanks(signature_header);
    const auto ts = detail::parse_timestamp(timestamp);
    if (id.empty() || !ts || signatures.empty()) return Verification::malformed;
    if (auto when = detail::check_timestamp(*ts, now, tolerance); when != Verification::ok) {
        return when;
    }
    const Digest expected = hmac_sha256(key, {id, ".", timestamp, ".", body});
    bool matched = false;
    while (!signatures.empty()) {
        const std::size_t space = signatures.find(' ');
        const std::string_view entry = signatures.substr(0, space);
        signatures =
            space == std::string_view::npos ? std::string_view{} : signatures.substr(space + 1);
        const std::size_t comma = entry.find(',');
        if (comma == std::string_view::npos || entry.substr(0, comma) != "v1") continue;
        const auto claimed = base64_decode(entry.substr(comma + 1));
        if (!claimed || claimed->size() != expected.size()) continue;
        // No early exit: every entry costs the same whether or not an earlier one matched.
        matched |= CRYPTO_memcmp(expected.data(), claimed->data(), expected.size()) == 0;
    }
    return matched ? Verification::ok : Verification::bad_signature;
}

// The hosted scheme from the secret's text, which is its key as it is.
inline Verification verify_hosted(std::string_view secret, std::string_view timestamp_header,
                                  std::string_view signature_header, std::string_view body,
                                  std::int64_t now,
                                  std::chrono::seconds tolerance = default_tolerance) {
    if (!valid_secret(secret)) return Verification::invalid_secret;
    return verify_hosted(hosted_key(secret), timestamp_header, signature_header, body, now,
                         tolerance);
}

// Standard Webhooks from a `whsec_` secret's text.
inline Verification verify_standard(std::string_view secret, std::string_view id_header,
                                    std::string_view timestamp_header,
                                    std::string_view signature_header, std::string_view body,
                                    std::int64_t now,
                                    std::chrono::seconds tolerance = default_tolerance) {
    auto key = standard_key(secret);
    if (!key) return Verification::invalid_secret;
    const Verification result =
        verify_standard(*key, id_header, timestamp_header, signature_header, body, now, tolerance);
    OPENSSL_cleanse(key->data(), key->size());
    return result;
}

}  // namespace collectcall::webhook
