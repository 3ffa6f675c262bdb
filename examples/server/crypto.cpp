#include "crypto.hpp"

#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

namespace collectcall::server {

void random_bytes(std::span<unsigned char> out) {
    if (out.empty()) return;
    if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1) {
        throw std::runtime_error("the system random generator is not available");
    }
}

SecureRandom::result_type SecureRandom::operator()() {
    // One RAND_bytes call per 64 values, from a buffer per thread: the lock inside OpenSSL's
    // generator is the cost.
    thread_local std::array<unsigned char, 256> buffer{};
    thread_local std::size_t used = buffer.size();
    if (used == buffer.size()) {
        random_bytes(buffer);
        used = 0;
    }
    result_type value = 0;
    std::memcpy(&value, buffer.data() + used, sizeof value);
    used += sizeof value;
    return value;
}

Uuid new_uuid() {
    SecureRandom random;
    return Uuid::random_v4(random);
}

Uuid new_time_ordered_uuid() {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    Uuid::Bytes bytes{};
    SecureRandom random;  // buffered: one RAND_bytes call per many ids
    for (std::size_t i = 6; i < bytes.size(); i += 4) {
        const SecureRandom::result_type word = random();
        for (std::size_t k = 0; k < 4 && i + k < bytes.size(); ++k)
            bytes[i + k] = static_cast<std::uint8_t>(word >> (8 * k));
    }
    for (std::size_t i = 0; i < 6; ++i)
        bytes[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(ms) >> (8 * (5 - i)));
    bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0F) | 0x70);  // version 7
    bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3F) | 0x80);  // variant 10xx (RFC)
    return Uuid::from_bytes(bytes);
}

Sha256 sha256(std::string_view data) {
    // The algorithm is fetched from OpenSSL's providers once for the process and each thread
    // keeps a context: EVP_Digest with EVP_sha256() looks the algorithm up again under OpenSSL's
    // locks and allocates a context on every call, several times the cost of hashing an API key.
    static EVP_MD* const algorithm = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
    thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(
        EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    Sha256 digest{};
    unsigned int size = 0;
    if (algorithm == nullptr || context == nullptr ||
        EVP_DigestInit_ex2(context.get(), algorithm, nullptr) != 1 ||
        EVP_DigestUpdate(context.get(), data.data(), data.size()) != 1 ||
        EVP_DigestFinal_ex(context.get(), digest.data(), &size) != 1 || size != digest.size()) {
        throw std::runtime_error("SHA-256 failed");
    }
    return digest;
}

bool equal_constant_time(std::span<const unsigned char> a, std::span<const unsigned char> b) {
    if (a.size() != b.size()) return false;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string base64url(std::span<const unsigned char> bytes) {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    out.reserve((bytes.size() * 4 + 2) / 3);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t n = static_cast<std::uint32_t>(bytes[i]) << 16 |
                                static_cast<std::uint32_t>(bytes[i + 1]) << 8 | bytes[i + 2];
        out += alphabet[n >> 18 & 63];
        out += alphabet[n >> 12 & 63];
        out += alphabet[n >> 6 & 63];
        out += alphabet[n & 63];
    }
    if (const std::size_t rest = bytes.size() - i; rest != 0) {
        std::uint32_t n = static_cast<std::uint32_t>(bytes[i]) << 16;
        if (rest == 2) n |= static_cast<std::uint32_t>(bytes[i + 1]) << 8;
        out += alphabet[n >> 18 & 63];
        out += alphabet[n >> 12 & 63];
        if (rest == 2) out += alphabet[n >> 6 & 63];
    }
    return out;
}

namespace {
constexpr std::string_view key_prefix = "cck_";
constexpr std::size_t key_id_size = 16;
constexpr std::size_t key_secret_size = 43;  // 32 bytes in unpadded base64url
}  // namespace

ApiKey generate_api_key() {
    std::array<unsigned char, key_id_size / 2> id{};
    std::array<unsigned char, 32> secret{};
    random_bytes(id);
    random_bytes(secret);
    ApiKey key;
    key.key_id = hex_encode(id);
    key.text = std::string(key_prefix) + key.key_id + "_" + base64url(secret);
    key.hash = sha256(key.text);
    return key;
}

std::string_view api_key_id(std::string_view text) {
    if (text.size() != key_prefix.size() + key_id_size + 1 + key_secret_size) return {};
    if (text.substr(0, key_prefix.size()) != key_prefix) return {};
    const std::string_view id = text.substr(key_prefix.size(), key_id_size);
    for (char c : id) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return {};
    }
    if (text[key_prefix.size() + key_id_size] != '_') return {};
    return id;
}

}  // namespace collectcall::server
