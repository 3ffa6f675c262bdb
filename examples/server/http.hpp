// HTTP details the API layer should not have to know: decoding a body within a limit, media
// types, the bearer token, Range, the access log. Requests and responses are cpp-httplib's
// types, the handlers' own; the server parses and writes them itself (request_reader.hpp,
// output.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <httplib.h>

namespace collectcall::server::http {

// What the server knows of the body of a request: its event loop frames requests
// (request_reader.hpp) and says this of each one.
enum class BodyStatus {
    complete,     // decoded and handed on with the head (or there is none)
    not_read,     // answered from the head alone (its key, its route, its Content-Length), or
                  // the client stopped sending before the body was whole
    too_large,    // a chunked body passed the route's limit: reading stopped
    bad_framing,  // a broken chunk
    no_memory,    // not read: the memory budget, or the account's share of it, is in use (503)
};

// A head refused by the parser: the status it is answered with (400, 414 or 431) and why.
struct Refusal {
    int status = 0;      // 0: the head was accepted
    std::string reason;  // empty: the status says it all
};

enum class BodyRead {
    ok,
    too_large,             // over the limit: 413
    unsupported_encoding,  // a Content-Encoding the server cannot decode: 415
    no_memory,             // decoding it would pass the memory budget or the account's share: 503
    failed,                // broken framing, the client went away: 400
    not_read,              // the server did not read it (the request is answered from its head)
};

struct Body {
    BodyRead status = BodyRead::ok;
    std::string bytes;
    // The body is not (all) read: the connection cannot carry another request and must be
    // closed after the response.
    bool unread_rest = false;
};

// Whether the server reads a body sent with this method (the others' bodies are left unread and
// end the connection).
bool takes_body(std::string_view method);

// Takes the request's body (`request.body`, as the reader framed it) with its Content-Encoding
// decoded (gzip and deflate, RFC 9110 section 8.4.1, through zlib; br, RFC 7932, through
// Brotli), keeping at most `limit` decoded bytes. The event loop has already bounded the bytes
// on the wire (and refused a Content-Length over the limit), so this only finds a decoded body
// over it. `status` is what the event loop knows of the body. A body being decoded is charged as
// it grows: `hold(bytes)` is told its decoded size so far and answers whether the memory budget
// takes it (null: nothing is charged).
Body read_body(httplib::Request& request, std::size_t limit, BodyStatus status,
               const std::function<bool(std::size_t)>& hold = nullptr);

// Whether a Range header field, if there is one, is one the server can read (RFC 9110 section
// 14.2: `bytes=` and a list of first-last, either side may be empty, first not past last). The
// server serves no ranges; one it cannot read is answered 416.
bool readable_range(const httplib::Request& request);

// Whether a request declares a body (Content-Length other than 0, or Transfer-Encoding).
bool declares_body(const httplib::Request& request);

// application/json, with parameters allowed (a charset must be UTF-8); with `merge_patch`, also
// application/merge-patch+json (RFC 7396's own media type).
bool is_json_media_type(std::string_view content_type, bool merge_patch = false);

// The token of `Authorization: Bearer <token>`: the scheme matched case-insensitively (RFC
// 9110 section 11.1), exactly one space, then an RFC 6750 b64token and nothing else. nullopt
// when the header is missing, repeated, of another scheme, or not of exactly that shape (an
// empty token, more white space, characters outside b64token). The request parser has already
// removed white space before and after the whole field value (RFC 9110 section 5.5), and
// nothing else (request_reader.hpp).
std::optional<std::string_view> bearer_token(const httplib::Request& request);

bool iequals(std::string_view a, std::string_view b);

// The value of a request's header `name` (its first, if repeated), or null; and how many times
// it is there. A walk over the few headers a request has, comparing lengths first: cpp-httplib's
// own lookups compare whole names character by character through tolower, a noticeable part of
// a small request's time when a handler asks a dozen times.
const std::string* find_header(const httplib::Headers& headers, std::string_view name);
std::size_t header_count(const httplib::Headers& headers, std::string_view name);
// Its value as a decimal number (0 when absent).
std::uint64_t header_u64(const httplib::Headers& headers, std::string_view name);

// Sets `Connection: close` on a response. The API also tells the server's connection loop
// (through its RequestContext), which closes the connection instead of reading another request
// from it: the header alone would be a promise the server does not keep, and bytes a client sent
// after the head, such as an unread body, would be read as the next request.
void close_connection(httplib::Response& response);

// Whether a Connection header field of the request names `option` (RFC 9110 section 7.6.1: a
// list of tokens, compared case-insensitively).
bool has_connection_option(const httplib::Request& request, std::string_view option);

// One JSON line per request on stderr: what an operator needs to find a request, never a key
// or a body.
void access_log(const httplib::Request& request, const httplib::Response& response,
                std::string_view request_id, std::optional<std::chrono::nanoseconds> duration);

}  // namespace collectcall::server::http
