#include <collectcall/webhook/signature.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cctype>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wh = collectcall::webhook;
using wh::Verification;

namespace {

// Fixed vectors, computed independently with the openssl command line (OpenSSL 3.0):
//
//   HEX=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
//   printf '%s' "$HEX" | xxd -r -p | openssl base64 -A            # -> kSecret after whsec_
//   printf '%s' "$TS.$BODY" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$HEX
//                                                                  # -> kDecodedKeyHex
//   printf '%s' "$TS.$BODY" | openssl dgst -sha256 -mac HMAC -macopt key:"$SECRET"
//                                                                  # -> kHostedHex
//   printf '%s' "$ID.$TS.$BODY" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$HEX -binary |
//       openssl base64 -A                                        # -> kStandardB64
//
// and the same with HEX2=202122...3e3f (bytes 0x20 to 0x3f) for the second secret. The hosted
// scheme keys the HMAC with the secret's text (whsec_ included), Standard Webhooks with the
// decoded bytes. kImported is a secret brought from elsewhere, not whsec_: hosted scheme only.
constexpr std::string_view kSecret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
constexpr std::string_view kSecret2 = "whsec_ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";
constexpr std::int64_t kTs = 1763650800;
constexpr std::string_view kTsText = "1763650800";
constexpr std::string_view kId = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
constexpr std::string_view kBody =
    R"({"type":"call-created","id":"3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f","status":"in-progress"})";
constexpr std::string_view kDecodedKeyHex =
    "628f86e95ca19181f94b4dde8cd2657964c485f0a41e2b6dbb719b7d432690de";
constexpr std::string_view kHostedHex =
    "8dfb442f0afac3c5cac0d1b617b54735315003f41fbf232ee520468e6019ce78";
constexpr std::string_view kImported = "imported-hosted-secret-1234";
constexpr std::string_view kImportedHex =
    "27a3ef317d5fa5fea90b67fefd0959c93cd7950bcff721fe383a40750942baf7";
constexpr std::string_view kStandardB64 = "OihApFSbH9/5Qx5yh2HUolYqzHB4muh0pd04nDSwegM=";
constexpr std::string_view kHosted2Hex =
    "8ebbd60a6daa17aaa17070a2db2bd4fcb767e1c405185e5e8904c415cd0dbe53";
constexpr std::string_view kStandard2B64 = "68yeZn2gZR2EJAAZRoQ79s0mk8jl9qy19jFOmxv4dFo=";

std::string hosted_header(std::string_view hex) {
    return "sha256=" + std::string(hex);
}
std::string v1(std::string_view b64) {
    return "v1," + std::string(b64);
}

std::vector<unsigned char> bytes_of(std::string_view s) {
    return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("hex and base64 encoding", "[webhook][signature]") {
    const std::array<unsigned char, 4> raw{0x00, 0x7f, 0xa5, 0xff};
    CHECK(wh::hex_encode(raw) == "007fa5ff");
    CHECK(wh::hex_encode(std::span<const unsigned char>{}).empty());

    // RFC 4648 section 10 test vectors.
    const std::pair<std::string_view, std::string_view> vectors[] = {
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    };
    for (auto [plain, encoded] : vectors) {
        INFO(plain);
        CHECK(wh::base64_encode(bytes_of(plain)) == encoded);
        const auto decoded = wh::base64_decode(encoded);
        REQUIRE(decoded);
        CHECK(*decoded == bytes_of(plain));
    }

    // Every byte value round-trips.
    std::vector<unsigned char> all(256);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<unsigned char>(i);
    CHECK(wh::base64_decode(wh::base64_encode(all)) == all);
}

TEST_CASE("base64 decoding is strict", "[webhook][signature]") {
    for (std::string_view bad : {"Zg", "Zg=", "Zm9", "Z===", "====", "Zg==Zg==", "Zm9v\n", " Zm9v",
                                 "Zm-v", "Zm_v", "Zh==", "Zm9=", "Z=9v"}) {
        INFO(bad);
        CHECK_FALSE(wh::base64_decode(bad));
    }
}

TEST_CASE("decode_secret", "[webhook][signature]") {
    const auto key = wh::decode_secret(kSecret);
    REQUIRE(key);
    for (std::size_t i = 0; i < key->size(); ++i)
        CHECK((*key)[i] == i);
    CHECK(wh::encode_secret(*key) == kSecret);

    SECTION("bad input") {
        const std::string body(kSecret.substr(6));
        const std::vector<std::string> bad_secrets{
            "",
            "whsec_",
            body,                                                  // no prefix
            "WHSEC_" + body,                                       // prefix is case-sensitive
            "whsk_" + body,                                        // misspelt prefix
            "whsec_" + body.substr(0, 43),                         // truncated
            "whsec_" + body + "AAAA",                              // 35 bytes
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",              // valid base64 of 24 bytes
            "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9=",  // non-canonical tail
            "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",   // unpadded
            "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8= ",
            "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGx-dHh8=",  // URL alphabet
        };
        for (const std::string& bad : bad_secrets) {
            INFO(bad);
            CHECK_FALSE(wh::decode_secret(bad));
        }
    }
}

TEST_CASE("generate_secret", "[webhook][signature]") {
    const std::string a = wh::generate_secret();
    const std::string b = wh::generate_secret();
    CHECK(a.size() == 6 + 44);
    CHECK(a.starts_with("whsec_"));
    CHECK(wh::decode_secret(a));
    CHECK(wh::decode_secret(b));
    CHECK(a != b);
}

TEST_CASE("hmac_sha256 matches known answers", "[webhook][signature]") {
    const auto key = *wh::decode_secret(kSecret);
    CHECK(wh::hex_encode(wh::hmac_sha256(key, {kTsText, ".", kBody})) == kDecodedKeyHex);
    // Splitting the content differently changes nothing.
    const std::string joined = std::string(kTsText) + "." + std::string(kBody);
    CHECK(wh::hex_encode(wh::hmac_sha256(key, {joined})) == kDecodedKeyHex);
    CHECK(wh::hex_encode(wh::hmac_sha256(key, {"", kTsText, "", ".", kBody, ""})) ==
          kDecodedKeyHex);
    // The hosted scheme's key is the text.
    CHECK(wh::hex_encode(wh::hmac_sha256(wh::hosted_key(kSecret), {kTsText, ".", kBody})) ==
          kHostedHex);

    // The example of the Standard Webhooks specification (a 24-byte key there):
    //   printf '%s' 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}' |
    //     openssl dgst -sha256 -mac HMAC -macopt hexkey:31f290f6...a4b0 -binary | openssl base64
    const auto spec_key = wh::base64_decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    REQUIRE(spec_key);
    CHECK(wh::base64_encode(
              wh::hmac_sha256(*spec_key, {"msg_p5jXN8AQM9LWM0D4loKWxJek", ".", "1614265330", ".",
                                          R"({"test": 2432232314})"})) ==
          "g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST_CASE("sign produces the five headers for a whsec_ secret", "[webhook][signature]") {
    const wh::SignedHeaders signed_headers = wh::sign(kSecret, kId, kTs, kBody);
    REQUIRE(signed_headers.headers.size() == 5);
    CHECK(signed_headers.headers[0].first == "X-Webhook-Timestamp");
    CHECK(signed_headers.headers[1].first == "X-Webhook-Signature");
    CHECK(signed_headers.headers[2].first == "webhook-id");
    CHECK(signed_headers.headers[3].first == "webhook-timestamp");
    CHECK(signed_headers.headers[4].first == "webhook-signature");

    CHECK(signed_headers.get("X-Webhook-Timestamp") == kTsText);
    CHECK(signed_headers.get("x-webhook-signature") == hosted_header(kHostedHex));
    CHECK(signed_headers.get("Webhook-Id") == kId);
    CHECK(signed_headers.get("webhook-timestamp") == kTsText);
    CHECK(signed_headers.get("webhook-signature") == v1(kStandardB64));
    CHECK_FALSE(signed_headers.get("webhook-signatur"));
}

TEST_CASE("an imported secret signs the hosted scheme only; no secret signs nothing",
          "[webhook][signature]") {
    const wh::SignedHeaders imported = wh::sign(kImported, kId, kTs, kBody);
    REQUIRE(imported.headers.size() == 3);
    CHECK(imported.get("X-Webhook-Timestamp") == kTsText);
    CHECK(imported.get("X-Webhook-Signature") == hosted_header(kImportedHex));
    CHECK(imported.get("webhook-id") == kId);
    CHECK_FALSE(imported.get("webhook-signature"));
    CHECK(wh::verify_hosted(kImported, kTsText, hosted_header(kImportedHex), kBody, kTs) ==
          Verification::ok);
    CHECK(wh::verify_standard(kImported, kId, kTsText, v1(kStandardB64), kBody, kTs) ==
          Verification::invalid_secret);

    const wh::SignedHeaders unsigned_headers = wh::sign(std::nullopt, kId, kTs, kBody);
    REQUIRE(unsigned_headers.headers.size() == 1);
    CHECK(unsigned_headers.get("webhook-id") == kId);
}

TEST_CASE("which texts are secrets", "[webhook][signature]") {
    CHECK(wh::valid_secret(kSecret));
    CHECK(wh::valid_secret(kImported));
    CHECK(wh::valid_secret(std::string(16, 'a')));
    CHECK(wh::valid_secret(std::string(256, '~')));
    CHECK(wh::valid_secret("with spaces inside"));
    CHECK(wh::valid_secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));  // 24 bytes, the spec's
    CHECK(wh::secret_problem(std::string(15, 'a')) == "must be 16 to 256 characters");
    CHECK_FALSE(wh::valid_secret(std::string(257, 'a')));
    CHECK(wh::secret_problem("sixteen chars\\t..") == std::string_view{});
    CHECK(wh::secret_problem("sixteen chars\t...") == "must be printable ASCII characters");
    CHECK_FALSE(wh::valid_secret("caf\xc3\xa9-secret-text-long"));
    // whsec_ promises Standard Webhooks: the rest must decode to 24..64 bytes.
    CHECK_FALSE(wh::valid_secret("whsec_not-base64-at-all!"));
    CHECK_FALSE(wh::valid_secret("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRY="));  // 23 bytes
    CHECK(wh::valid_secret("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"));        // 24 bytes
    CHECK_FALSE(wh::valid_secret("whsec_" + wh::base64_encode(std::vector<unsigned char>(65))));
    CHECK(wh::valid_secret("whsec_" + wh::base64_encode(std::vector<unsigned char>(64))));
    CHECK(wh::standard_key(kSecret)->size() == 32);
    CHECK_FALSE(wh::standard_key(kImported));
}

TEST_CASE("sign refuses the sender's mistakes", "[webhook][signature]") {
    CHECK_THROWS_AS(wh::sign("whsec_nope", kId, kTs, kBody), std::invalid_argument);
    CHECK_THROWS_AS(wh::sign("too short", kId, kTs, kBody), std::invalid_argument);
    CHECK_THROWS_AS(wh::sign(kSecret, kId, -1, kBody), std::invalid_argument);
    CHECK_THROWS_AS(wh::sign(std::nullopt, "msg.1", kTs, kBody), std::invalid_argument);
    for (std::string_view id : {"", "msg 1", "msg.1", "msg\r\nX-Evil: 1", "m\x7f"}) {
        INFO(id);
        CHECK_THROWS_AS(wh::sign(kSecret, id, kTs, kBody), std::invalid_argument);
    }
    CHECK_NOTHROW(wh::sign(kSecret, "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f", kTs, ""));
}

TEST_CASE("verify_hosted", "[webhook][signature]") {
    const std::string good = hosted_header(kHostedHex);

    SECTION("accepts the fixed vector within tolerance, both directions") {
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs) == Verification::ok);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs + 300) == Verification::ok);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs - 300) == Verification::ok);
        // Header values with surrounding white space, and upper-case hex.
        CHECK(wh::verify_hosted(kSecret, " 1763650800\t", " " + good + " ", kBody, kTs) ==
              Verification::ok);
        std::string upper = good;
        for (std::size_t i = 7; i < upper.size(); ++i) {
            upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
        }
        CHECK(wh::verify_hosted(kSecret, kTsText, upper, kBody, kTs) == Verification::ok);
    }
    SECTION("round-trips with sign") {
        const auto h = wh::sign(kSecret2, kId, kTs, kBody);
        CHECK(h.get("X-Webhook-Signature") == hosted_header(kHosted2Hex));
        CHECK(wh::verify_hosted(kSecret2, *h.get("X-Webhook-Timestamp"),
                                *h.get("X-Webhook-Signature"), kBody,
                                kTs + 10) == Verification::ok);
    }
    SECTION("tampered body") {
        std::string body(kBody);
        body[body.find("in-progress")] = 'I';
        CHECK(wh::verify_hosted(kSecret, kTsText, good, body, kTs) == Verification::bad_signature);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, std::string(kBody) + " ", kTs) ==
              Verification::bad_signature);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, "", kTs) == Verification::bad_signature);
    }
    SECTION("tampered timestamp or signature") {
        CHECK(wh::verify_hosted(kSecret, "1763650801", good, kBody, kTs) ==
              Verification::bad_signature);
        std::string flipped = good;
        flipped.back() = flipped.back() == '0' ? '1' : '0';
        CHECK(wh::verify_hosted(kSecret, kTsText, flipped, kBody, kTs) ==
              Verification::bad_signature);
    }
    SECTION("wrong secret") {
        CHECK(wh::verify_hosted(kSecret2, kTsText, good, kBody, kTs) ==
              Verification::bad_signature);
    }
    SECTION("stale and future timestamps") {
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs + 301) ==
              Verification::stale_timestamp);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs - 301) ==
              Verification::future_timestamp);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs + 3600, std::chrono::hours{1}) ==
              Verification::ok);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs + 1, std::chrono::seconds{0}) ==
              Verification::stale_timestamp);
        // Extreme clocks and tolerances do not overflow.
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, INT64_MIN) ==
              Verification::future_timestamp);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, INT64_MAX) ==
              Verification::stale_timestamp);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, INT64_MAX,
                                std::chrono::seconds::max()) == Verification::stale_timestamp);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, 0, std::chrono::seconds::max()) ==
              Verification::ok);
        CHECK(wh::verify_hosted(kSecret, kTsText, good, kBody, kTs, std::chrono::seconds::min()) ==
              Verification::ok);
    }
    SECTION("malformed headers") {
        for (std::string_view ts : {"", "-1763650800", "+1763650800", "1763650800.0", "17636508e2",
                                    "0x1a", "1234567890123456789"}) {
            INFO(ts);
            CHECK(wh::verify_hosted(kSecret, ts, good, kBody, kTs) == Verification::malformed);
        }
        for (const std::string& sig :
             {std::string(), std::string(kHostedHex), "sha1=" + std::string(kHostedHex),
              "SHA256=" + std::string(kHostedHex), good.substr(0, good.size() - 1), good + "0",
              good + "zz", "sha256=" + std::string(64, 'g')}) {
            INFO(sig);
            CHECK(wh::verify_hosted(kSecret, kTsText, sig, kBody, kTs) == Verification::malformed);
        }
    }
    SECTION("invalid secret of the receiver") {
        CHECK(wh::verify_hosted("whsec_", kTsText, good, kBody, kTs) ==
              Verification::invalid_secret);
        CHECK(wh::verify_hosted("", kTsText, good, kBody, kTs) == Verification::invalid_secret);
    }
    SECTION("the key is the text, not the decoded bytes") {
        const auto key = *wh::decode_secret(kSecret);
        CHECK(wh::verify_hosted(key, kTsText, good, kBody, kTs) == Verification::bad_signature);
        CHECK(wh::verify_hosted(key, kTsText, hosted_header(kDecodedKeyHex), kBody, kTs) ==
              Verification::ok);
    }
}

TEST_CASE("verify_standard", "[webhook][signature]") {
    const std::string good = v1(kStandardB64);
    const std::string other = v1(kStandard2B64);

    SECTION("accepts the fixed vector") {
        CHECK(wh::verify_standard(kSecret, kId, kTsText, good, kBody, kTs) == Verification::ok);
        const auto key = *wh::decode_secret(kSecret);
        CHECK(wh::verify_standard(key, kId, kTsText, good, kBody, kTs - 299) == Verification::ok);
    }
    SECTION("round-trips with sign") {
        const auto h = wh::sign(kSecret2, kId, kTs, kBody);
        CHECK(h.get("webhook-signature") == other);
        CHECK(wh::verify_standard(kSecret2, *h.get("webhook-id"), *h.get("webhook-timestamp"),
                                  *h.get("webhook-signature"), kBody, kTs) == Verification::ok);
    }
    SECTION("several signatures, any matching v1 entry passes") {
        CHECK(wh::verify_standard(kSecret, kId, kTsText, other + " " + good, kBody, kTs) ==
              Verification::ok);
        CHECK(wh::verify_standard(kSecret, kId, kTsText, good + " " + other, kBody, kTs) ==
              Verification::ok);
        CHECK(wh::verify_standard(kSecret2, kId, kTsText, good + " " + other, kBody, kTs) ==
              Verification::ok);
        // Other versions and undecodable entries are skipped, not fatal.
        const std::string mixed =
            "v1a,aGVsbG8= v2," + std::string(kStandardB64) + "  v1,!!!! nocomma " + good;
        CHECK(wh::verify_standard(kSecret, kId, kTsText, mixed, kBody, kTs) == Verification::ok);
        // The right value under another version name does not count.
        CHECK(wh::verify_standard(kSecret, kId, kTsText, "v2," + std::string(kStandardB64), kBody,
                                  kTs) == Verification::bad_signature);
        CHECK(wh::verify_standard(kSecret, kId, kTsText, other + " v1,Zm9v", kBody, kTs) ==
              Verification::bad_signature);
    }
    SECTION("tampered body, id or timestamp") {
        CHECK(wh::verify_standard(kSecret, kId, kTsText, good, std::string(kBody) + "\n", kTs) ==
              Verification::bad_signature);
        CHECK(wh::verify_standard(kSecret, "msg_other", kTsText, good, kBody, kTs) ==
              Verification::bad_signature);
        CHECK(wh::verify_standard(kSecret, kId, "1763650799", good, kBody, kTs) ==
              Verification::bad_signature);
    }
    SECTION("wrong secret") {
        CHECK(wh::verify_standard(kSecret2, kId, kTsText, good, kBody, kTs) ==
              Verification::bad_signature);
    }
    SECTION("stale and future timestamps") {
        CHECK(wh::verify_standard(kSecret, kId, kTsText, good, kBody, kTs + 301) ==
              Verification::stale_timestamp);
        CHECK(wh::verify_standard(kSecret, kId, kTsText, good, kBody, kTs - 301) ==
              Verification::future_timestamp);
    }
    SECTION("malformed headers") {
        CHECK(wh::verify_standard(kSecret, "", kTsText, good, kBody, kTs) ==
              Verification::malformed);
        CHECK(wh::verify_standard(kSecret, kId, "", good, kBody, kTs) == Verification::malformed);
        CHECK(wh::verify_standard(kSecret, kId, "17636508OO", good, kBody, kTs) ==
              Verification::malformed);
        CHECK(wh::verify_standard(kSecret, kId, kTsText, "", kBody, kTs) ==
              Verification::malformed);
        CHECK(wh::verify_standard(kSecret, kId, kTsText, "   ", kBody, kTs) ==
              Verification::malformed);
    }
    SECTION("invalid secret of the receiver") {
        CHECK(wh::verify_standard("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRY=", kId, kTsText, good,
                                  kBody, kTs) == Verification::invalid_secret);
        CHECK(wh::verify_standard(kImported, kId, kTsText, good, kBody, kTs) ==
              Verification::invalid_secret);
    }
}

TEST_CASE("describe(Verification)", "[webhook][signature]") {
    for (auto v : {Verification::ok, Verification::malformed, Verification::stale_timestamp,
                   Verification::future_timestamp, Verification::bad_signature,
                   Verification::invalid_secret}) {
        CHECK_FALSE(wh::describe(v).empty());
    }
}

TEST_CASE("hmac_sha256 refuses an empty key", "[webhook][signature]") {
    CHECK_THROWS_AS(wh::hmac_sha256(std::span<const unsigned char>{}, {"x"}),
                    std::invalid_argument);
}
