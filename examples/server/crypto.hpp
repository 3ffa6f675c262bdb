// The few cryptographic primitives the server needs, on OpenSSL libcrypto: random bytes for ids
// and keys, SHA-256 for stored key hashes and request fingerprints, constant-time comparison.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <collectcall/types/detail/hex.hpp>
#include <collectcall/types/uuid.hpp>

namespace collectcall::server {

using Sha256 = std::array<unsigned char, 32>;

// Fills `out` from OpenSSL's CSPRNG; throws std::runtime_error if it cannot (never returns
// predictable bytes).
void random_bytes(std::span<unsigned char> out);

// A uniform random bit generator over random_bytes, buffered per thread, for Uuid::random_v4:
// ids of customers and calls must not be guessable.
struct SecureRandom {
    using result_type = std::uint32_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return 0xFFFFFFFFU; }
    result_type operator()();
};

// A new random (version 4) UUID from the CSPRNG.
Uuid new_uuid();

// A new time-ordered (version 7, RFC 9562) UUID: the system clock's Unix milliseconds, then 74
// bits from the CSPRNG (as unguessable as a version 4 for anyone who does not know the
// millisecond, and far beyond guessing for anyone who does). Rows keyed by such ids are appended
// to their index instead of landing on a random page of it: a bulk of 500 customers dirties a
// few index pages, not hundreds. The system clock, not the API's (which `--now` may freeze).
Uuid new_time_ordered_uuid();

Sha256 sha256(std::string_view data);

// Compares in time independent of the contents (CRYPTO_memcmp).
bool equal_constant_time(std::span<const unsigned char> a, std::span<const unsigned char> b);

// Unpadded base64url (RFC 4648 section 5): safe in headers, URLs and shells.
std::string base64url(std::span<const unsigned char> bytes);
// Lower-case hexadecimal (types/detail/hex.hpp).
using collectcall::detail::hex_encode;

// An API key: "cck_" + 16 hex digits of key id + "_" + 43 base64url characters of secret.
// The id is looked up, the SHA-256 of the whole key is compared: the secret part is never stored
// and never used as a lookup key.
struct ApiKey {
    std::string key_id;  // 16 lowercase hex digits
    std::string text;    // the whole key, shown once
    Sha256 hash{};
};
ApiKey generate_api_key();
// The key id of a well-formed key text, or empty when the text cannot be a key.
std::string_view api_key_id(std::string_view text);

}  // namespace collectcall::server
