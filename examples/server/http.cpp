#include "http.hpp"

#include <brotli/decode.h>
#include <zlib.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>

#include <collectcall/core/write.hpp>
#include <collectcall/types/detail/ascii.hpp>
#include <collectcall/types/timestamp.hpp>

namespace collectcall::server::http {

namespace {

using collectcall::detail::to_lower;
using collectcall::detail::trim_blanks;

bool is_b64token_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
}

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (to_lower(a[i]) != to_lower(b[i])) return false;
    }
    return true;
}

const std::string* find_header(const httplib::Headers& headers, std::string_view name) {
    for (const auto& [key, value] : headers) {
        if (iequals(key, name)) return &value;
    }
    return nullptr;
}

std::size_t header_count(const httplib::Headers& headers, std::string_view name) {
    std::size_t count = 0;
    for (const auto& header : headers)
        count += iequals(header.first, name) ? 1 : 0;
    return count;
}

std::uint64_t header_u64(const httplib::Headers& headers, std::string_view name) {
    const std::string* value = find_header(headers, name);
    return value == nullptr ? 0 : std::strtoull(value->c_str(), nullptr, 10);
}

bool has_connection_option(const httplib::Request& request, std::string_view option) {
    for (const auto& [name, value] : request.headers) {
        if (!iequals(name, "Connection")) continue;
        std::string_view rest = value;
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            if (iequals(trim_blanks(rest.substr(0, comma)), option)) return true;
            rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        }
    }
    return false;
}

void close_connection(httplib::Response& response) {
    if (const std::string* connection = find_header(response.headers, "Connection");
        connection == nullptr || *connection != "close") {
        response.set_header("Connection", "close");
    }
}

bool declares_body(const httplib::Request& request) {
    if (find_header(request.headers, "Transfer-Encoding") != nullptr) return true;
    const std::string* length = find_header(request.headers, "Content-Length");
    return length != nullptr && *length != "0";
}

bool takes_body(std::string_view method) {
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

namespace {

enum class Decoded { ok, too_large, no_memory, failed };

// What is decoded so far, within `limit` bytes and what `hold` lets it hold.
Decoded keep(std::string& out, const char* data, std::size_t size, std::size_t limit,
             const std::function<bool(std::size_t)>& hold) {
    if (size > limit - std::min(limit, out.size())) return Decoded::too_large;
    if (hold && size > 0 && !hold(out.size() + size)) return Decoded::no_memory;
    out.append(data, size);
    return Decoded::ok;
}

// Appends the decoding of `coded` to `out` as long as it stays within `limit` bytes: the whole
// stream, and nothing after it.
Decoded inflate_into(std::string_view coded, std::string& out, std::size_t limit,
                     const std::function<bool(std::size_t)>& hold) {
    z_stream stream{};
    // 15 + 32: a zlib or a gzip stream, told apart by its header (a "deflate" body is the zlib
    // format, RFC 9110 section 8.4.1.2).
    if (inflateInit2(&stream, 15 + 32) != Z_OK) return Decoded::failed;
    const std::unique_ptr<z_stream, int (*)(z_stream*)> end(&stream, inflateEnd);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(coded.data()));
    stream.avail_in = static_cast<uInt>(coded.size());
    std::array<char, 16384> chunk{};
    while (true) {
        stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
        stream.avail_out = static_cast<uInt>(chunk.size());
        const int result = inflate(&stream, Z_NO_FLUSH);
        const Decoded kept = keep(out, chunk.data(), chunk.size() - stream.avail_out, limit, hold);
        if (kept != Decoded::ok) return kept;
        if (result == Z_STREAM_END) return stream.avail_in == 0 ? Decoded::ok : Decoded::failed;
        if (result != Z_OK) return Decoded::failed;  // broken, or cut short (Z_BUF_ERROR)
    }
}

Decoded brotli_into(std::string_view coded, std::string& out, std::size_t limit,
                    const std::function<bool(std::size_t)>& hold) {
    const std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> state(
        BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
    if (!state) return Decoded::failed;
    auto next_in = reinterpret_cast<const std::uint8_t*>(coded.data());
    std::size_t available_in = coded.size();
    std::array<std::uint8_t, 16384> chunk{};
    while (true) {
        std::uint8_t* next_out = chunk.data();
        std::size_t available_out = chunk.size();
        const BrotliDecoderResult result = BrotliDecoderDecompressStream(
            state.get(), &available_in, &next_in, &available_out, &next_out, nullptr);
        const Decoded kept = keep(out, reinterpret_cast<const char*>(chunk.data()),
                                  chunk.size() - available_out, limit, hold);
        if (kept != Decoded::ok) return kept;
        if (result == BROTLI_DECODER_RESULT_SUCCESS)
            return available_in == 0 ? Decoded::ok : Decoded::failed;
        if (result != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) return Decoded::failed;
    }
}

}  // namespace

Body read_body(httplib::Request& request, std::size_t limit, BodyStatus status,
               const std::function<bool(std::size_t)>& hold) {
    Body body;
    // RFC 9112 section 6.3: without Content-Length and Transfer-Encoding a request has no body.
    if (!declares_body(request)) return body;
    if (!takes_body(request.method)) {
        // A body on GET and the like is not read.
        body.unread_rest = true;
        return body;
    }
    const std::uint64_t declared_length = header_u64(request.headers, "Content-Length");
    if (status == BodyStatus::too_large || declared_length > limit) {
        body.status = BodyRead::too_large;
        body.unread_rest = true;
        return body;
    }
    if (status != BodyStatus::complete) {
        body.status = BodyRead::not_read;
        body.unread_rest = true;
        return body;
    }
    const std::string* encoding = find_header(request.headers, "Content-Encoding");
    if (encoding == nullptr || *encoding == "identity") {
        // A chunked body that came whole with its head was bounded by the largest route's
        // limit only.
        if (request.body.size() > limit) {
            body.status = BodyRead::too_large;
            body.unread_rest = true;
            return body;
        }
        body.bytes = std::move(request.body);
        return body;
    }
    Decoded decoded = Decoded::failed;
    if (*encoding == "gzip" || *encoding == "deflate") {
        decoded = inflate_into(request.body, body.bytes, limit, hold);
    } else if (*encoding == "br") {
        decoded = brotli_into(request.body, body.bytes, limit, hold);
    } else {
        body.status = BodyRead::unsupported_encoding;
        return body;
    }
    if (decoded != Decoded::ok) {
        body.status = decoded == Decoded::too_large   ? BodyRead::too_large
                      : decoded == Decoded::no_memory ? BodyRead::no_memory
                                                      : BodyRead::failed;
        body.unread_rest = decoded != Decoded::no_memory;
        std::string().swap(body.bytes);
    }
    // The bytes as sent are not needed once decoded.
    std::string().swap(request.body);
    return body;
}

bool readable_range(const httplib::Request& request) {
    const std::string* range = find_header(request.headers, "Range");
    if (range == nullptr) return true;
    std::string_view rest = *range;
    if (!rest.starts_with("bytes=")) return false;
    rest.remove_prefix(6);
    // A run of digits, as a number that fits; nullopt for none, false when it does not fit.
    const auto number = [&rest](bool& fits) -> std::optional<long long> {
        std::size_t digits = 0;
        while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9')
            ++digits;
        if (digits == 0) return std::nullopt;
        long long value = 0;
        fits = fits && std::from_chars(rest.data(), rest.data() + digits, value).ec == std::errc{};
        rest.remove_prefix(digits);
        return value;
    };
    for (bool first = true;; first = false) {
        if (!first) {
            while (!rest.empty() &&
                   std::string_view(" \t\n\v\f\r").find(rest.front()) != std::string_view::npos)
                rest.remove_prefix(1);
        }
        bool fits = true;
        const auto start = number(fits);
        if (rest.empty() || rest.front() != '-') return false;
        rest.remove_prefix(1);
        const auto end = number(fits);
        if (!fits || (start && end && *start > *end)) return false;
        if (rest.empty()) return true;
        if (rest.front() != ',') return false;
        rest.remove_prefix(1);
    }
}

bool is_json_media_type(std::string_view content_type, bool merge_patch) {
    const std::size_t semicolon = content_type.find(';');
    const std::string_view type = trim_blanks(content_type.substr(0, semicolon));
    if (!iequals(type, "application/json") &&
        !(merge_patch && iequals(type, "application/merge-patch+json"))) {
        return false;
    }
    // Parameters: only a UTF-8 charset means anything to a JSON body (RFC 8259 section 8.1).
    std::string_view rest =
        semicolon == std::string_view::npos ? std::string_view{} : content_type.substr(semicolon);
    while (!rest.empty()) {
        rest.remove_prefix(1);  // ';'
        const std::size_t next = rest.find(';');
        const std::string_view parameter = trim_blanks(rest.substr(0, next));
        rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next);
        const std::size_t equals = parameter.find('=');
        if (equals == std::string_view::npos) continue;
        if (!iequals(trim_blanks(parameter.substr(0, equals)), "charset")) continue;
        std::string_view value = trim_blanks(parameter.substr(equals + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
            value = value.substr(1, value.size() - 2);
        }
        if (!iequals(value, "utf-8") && !iequals(value, "utf8")) return false;
    }
    return true;
}

std::optional<std::string_view> bearer_token(const httplib::Request& request) {
    if (header_count(request.headers, "Authorization") != 1) return std::nullopt;
    const std::string_view value = *find_header(request.headers, "Authorization");
    // RFC 6750 section 2.1: credentials = "Bearer" 1*SP b64token. The server takes exactly one
    // space: a token with white space or anything else around or inside it is refused rather
    // than guessed at.
    constexpr std::string_view scheme = "bearer";
    if (value.size() <= scheme.size() + 1 || !iequals(value.substr(0, scheme.size()), scheme) ||
        value[scheme.size()] != ' ') {
        return std::nullopt;
    }
    const std::string_view token = value.substr(scheme.size() + 1);
    // b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
    std::size_t i = 0;
    while (i < token.size() && is_b64token_char(token[i]))
        ++i;
    if (i == 0) return std::nullopt;
    while (i < token.size() && token[i] == '=')
        ++i;
    if (i != token.size()) return std::nullopt;
    return token;
}

void access_log(const httplib::Request& request, const httplib::Response& response,
                std::string_view request_id, std::optional<std::chrono::nanoseconds> duration) {
    std::string line;
    line.reserve(256);
    Writer w(line);
    const auto now =
        std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
    w.raw("{\"time\":");
    w.string(Timestamp::from_time(now).view());
    w.raw(",\"method\":");
    w.string(request.method);
    w.raw(",\"path\":");
    w.string(request.path);  // the path only: a query string may carry personal data
    w.raw(",\"status\":");
    w.integer(response.status);
    w.raw(",\"durationMs\":");
    if (duration) {
        // Microsecond resolution, written as a decimal number of milliseconds.
        const long long micros =
            std::chrono::duration_cast<std::chrono::microseconds>(*duration).count();
        w.integer(micros / 1000);
        w.raw('.');
        const long long fraction = micros % 1000;
        w.raw(static_cast<char>('0' + fraction / 100));
        w.raw(static_cast<char>('0' + fraction / 10 % 10));
        w.raw(static_cast<char>('0' + fraction % 10));
    } else {
        w.null();
    }
    w.raw(",\"requestId\":");
    w.string(request_id);
    w.raw(",\"remote\":");
    w.string(request.remote_addr);
    w.raw(",\"bytesOut\":");
    // A body the server sends after the head (output.hpp, send_source) is not in `body`.
    w.integer(response.body.empty() ? header_u64(response.headers, "Content-Length")
                                    : response.body.size());
    w.raw("}\n");
    w.flush();
    // One fwrite per line: stdio locks the stream for the call, so lines of concurrent requests
    // never interleave.
    std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace collectcall::server::http
