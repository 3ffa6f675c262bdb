#include "http.hpp"

#include <cstdio>
#include <cstdlib>
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

Body read_body(const httplib::Request& request, httplib::Response& response,
               const httplib::ContentReader* reader, std::size_t limit, BodyStatus status) {
    Body body;
    // RFC 9112 section 6.3: without Content-Length and Transfer-Encoding a request has no body.
    // (cpp-httplib would otherwise wait for the client to close the connection.)
    if (!declares_body(request)) return body;
    if (reader == nullptr) {
        // A body on GET and the like: cpp-httplib leaves it in the stream.
        body.unread_rest = true;
        return body;
    }
    const std::uint64_t declared_length = header_u64(request.headers, "Content-Length");
    const bool declared_too_large = declared_length > limit;
    if (status == BodyStatus::too_large || declared_too_large) {
        body.status = BodyRead::too_large;
        body.unread_rest = true;
        return body;
    }
    if (status != BodyStatus::complete) {
        body.status = BodyRead::not_read;
        body.unread_rest = true;
        return body;
    }
    body.bytes.reserve(static_cast<std::size_t>(declared_length));

    std::size_t received = 0;
    const bool ok = (*reader)([&](const char* data, std::size_t size) {
        received += size;
        if (received > limit) return false;  // a compressed body that inflates past the limit
        body.bytes.append(data, size);
        return true;
    });
    if (received > limit) {
        body.status = BodyRead::too_large;
        body.bytes.clear();
        body.unread_rest = true;
        return body;
    }
    // cpp-httplib decodes gzip, deflate and br, and passes any other coding through as if
    // the body were plain: refuse what it did not decode.
    if (const std::string* encoding = find_header(request.headers, "Content-Encoding");
        ok && encoding != nullptr) {
        // The same comparisons as cpp-httplib's, so that what passes here was decoded there.
        const std::string& coding = *encoding;
        if (coding != "gzip" && coding != "deflate" && coding != "br" && coding != "identity") {
            body.status = BodyRead::unsupported_encoding;
            body.bytes.clear();
            return body;
        }
    }
    if (!ok) {
        // cpp-httplib marks a Content-Encoding it cannot decode with 415 on the response.
        body.status = response.status == 415 ? BodyRead::unsupported_encoding : BodyRead::failed;
        body.unread_rest = true;
        body.bytes.clear();
    }
    return body;
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
