// The recording of a call (API.md section 9): a signed, time-limited link to
// GET /api/v1/calls/{id}/recording, and the audio it serves.
//
// The link is the credential (no Authorization header): its query carries when it expires, the
// call's length and an HMAC-SHA256 over both and the call id, keyed by a secret of the server.
// A link whose signature does not match names nothing (404); one that matches but has expired
// is refused (403), so that a receiver can tell "fetch a fresh link" from "wrong link".
//
//   <base>/api/v1/calls/<id>/recording?expires=<unix seconds>&durationMs=<n>&signature=<hex>
//   signature = lower-case hex HMAC-SHA256(key, "recording." id "." expires "." durationMs); the
//   same in upper case names nothing
//
// The example server records nothing: the audio is silence of the call's length, as a WAV file
// (8 kHz, 8-bit unsigned PCM, mono: 8000 bytes a second).
//
// Needs OpenSSL 3 libcrypto (CMake target collectcall::webhooks).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <openssl/crypto.h>

#include "collectcall/webhook/signature.hpp"

namespace collectcall::webhook {

// How long a link works after it was made (the hosted service's 30 minutes).
inline constexpr std::chrono::seconds recording_link_lifetime{std::chrono::minutes{30}};
// The longest recording served: a call's length is capped here (an hour: 28.8 MB of silence).
inline constexpr std::int64_t max_recording_ms = 3'600'000;

inline constexpr std::string_view recording_path_suffix = "/recording";

namespace detail {

inline Digest recording_mac(std::span<const unsigned char> key, std::string_view call_id,
                            std::string_view expires, std::string_view duration_ms) {
    return hmac_sha256(key, {"recording.", call_id, ".", expires, ".", duration_ms});
}

// Non-negative decimal digits only, at most 18 of them.
inline std::optional<std::int64_t> parse_count(std::string_view text) noexcept {
    if (text.empty() || text.size() > 18) return std::nullopt;
    std::int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

}  // namespace detail

// The link to the recording of `call_id`, valid until `expires` (unix seconds). `base_url` is
// the server's public origin without a trailing slash, e.g. "https://sandbox.example.com".
inline std::string recording_url(std::span<const unsigned char> key, std::string_view base_url,
                                 std::string_view call_id, std::int64_t duration_ms,
                                 std::int64_t expires) {
    const std::string expires_text = std::to_string(expires);
    const std::string duration_text = std::to_string(duration_ms < 0 ? 0 : duration_ms);
    std::string url(base_url);
    url += "/api/v1/calls/";
    url += call_id;
    url += recording_path_suffix;
    url += "?expires=" + expires_text;
    url += "&durationMs=" + duration_text;
    url += "&signature=" +
           hex_encode(detail::recording_mac(key, call_id, expires_text, duration_text));
    return url;
}

enum class RecordingLink {
    ok,
    invalid,  // a member is missing or malformed, or the signature does not match: 404
    expired,  // genuine, but its time is over: 403
};

// Checks the query members of a link to the recording of `call_id` at `now` (unix seconds).
// On ok, `duration_ms` is the call's length, capped at max_recording_ms.
inline RecordingLink check_recording_link(std::span<const unsigned char> key,
                                          std::string_view call_id, std::string_view expires,
                                          std::string_view duration, std::string_view signature,
                                          std::int64_t now, std::int64_t& duration_ms) {
    const auto expires_at = detail::parse_count(expires);
    const auto length = detail::parse_count(duration);
    Digest claimed{};
    if (!expires_at || !length || !detail::lower_hex_decode_exact(signature, claimed)) {
        return RecordingLink::invalid;
    }
    const Digest expected = detail::recording_mac(key, call_id, expires, duration);
    if (CRYPTO_memcmp(expected.data(), claimed.data(), expected.size()) != 0) {
        return RecordingLink::invalid;
    }
    if (now >= *expires_at) return RecordingLink::expired;
    duration_ms = *length < max_recording_ms ? *length : max_recording_ms;
    return RecordingLink::ok;
}

// A WAV file of `duration_ms` of silence (capped at max_recording_ms): the RIFF header of
// 8 kHz 8-bit unsigned mono PCM, then one 0x80 byte per sample. Any range of its bytes can be
// made on its own, so that a server sends it as it makes it instead of holding it whole.
class SilentWav {
  public:
    static constexpr std::size_t header_size = 44;

    explicit SilentWav(std::int64_t duration_ms) {
        constexpr std::uint32_t rate = 8000;
        if (duration_ms < 0) duration_ms = 0;
        if (duration_ms > max_recording_ms) duration_ms = max_recording_ms;
        samples_ = static_cast<std::uint32_t>(duration_ms * rate / 1000);
        std::size_t at = 0;
        const auto bytes = [&](std::string_view text) {
            for (char c : text)
                header_[at++] = c;
        };
        const auto u32 = [&](std::uint32_t v) {
            for (int i = 0; i < 4; ++i)
                header_[at++] = static_cast<char>((v >> (8 * i)) & 0xff);
        };
        const auto u16 = [&](std::uint16_t v) {
            header_[at++] = static_cast<char>(v & 0xff);
            header_[at++] = static_cast<char>(v >> 8);
        };
        bytes("RIFF");
        u32(36 + samples_);
        bytes("WAVEfmt ");
        u32(16);    // the size of the fmt chunk
        u16(1);     // PCM
        u16(1);     // mono
        u32(rate);  // samples a second
        u32(rate);  // bytes a second
        u16(1);     // bytes a frame
        u16(8);     // bits a sample
        bytes("data");
        u32(samples_);
    }

    [[nodiscard]] std::size_t size() const noexcept { return header_size + samples_; }

    // Writes the bytes [offset, offset + n) of the file to `out` (n no more than what is left).
    void copy(std::size_t offset, char* out, std::size_t n) const noexcept {
        while (n > 0 && offset < header_size) {
            *out++ = header_[offset++];
            --n;
        }
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<char>(0x80);
    }

  private:
    std::array<char, header_size> header_{};
    std::uint32_t samples_ = 0;
};

inline std::string silent_wav(std::int64_t duration_ms) {
    const SilentWav wav(duration_ms);
    std::string out(wav.size(), '\0');
    wav.copy(0, out.data(), out.size());
    return out;
}

}  // namespace collectcall::webhook
