// The requests of one connection, read once: Boost.Beast's HTTP/1.1 request parser (strict RFC
// 9112, incremental) parses each request's head and frames its body (Content-Length, or chunked
// with any trailer fields, decoded as it arrives), and that parse is the only one. Its verdict
// is final: a head it refuses is answered from the verdict (400, 414 or 431) and what it accepts
// (method, target, header fields as sent) is what the admission, the router and the handlers
// see. The event loop reads a connection's bytes into a RequestReader and hands a request to a
// worker thread only once it is whole (or once it is clear that it will be answered from its
// head alone); Server::serve_bytes drives the same reader over a string.
//
// The parse fills a cpp-httplib `Request` (the handlers' type; nothing else of cpp-httplib reads
// it): method, target, version, path, query parameters, header fields, and the body with its
// transfer coding removed. The API answers it (Api::handle) and the server writes the answer
// (output.hpp).
//
// Transport-agnostic and without clocks: the caller adds the bytes it receives, says when the
// client has stopped sending, and asks what to do next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <httplib.h>

#include <collectcall/api/routes.hpp>

#include "http.hpp"

namespace collectcall::server::http {

// The parameters of a query string (the target after '?') as application/x-www-form-urlencoded
// pairs: split on '&', each at its first '=', '+' read as a space and then percent-decoded
// (a '%' not followed by two hex digits stands for itself); an empty pair is skipped, and a
// pair repeated as the same bytes counts once.
void parse_query(std::string_view query, httplib::Params& params);

class RequestReader {
  public:
    struct Limits {
        // A head (request line and header fields) still incomplete at this size is refused:
        // 414 when its request line is the part too long, 431 otherwise.
        std::size_t max_head = std::size_t{80} << 10;
        // The largest body any route takes: a Content-Length above it is refused from the head
        // alone, without asking which route the request is for.
        std::size_t max_body = api::largest_body;
    };

    // The longest request line, and the longest header field line, taken (8 KiB, the limits
    // clients of this server know).
    static constexpr std::size_t max_request_line = 8192;
    static constexpr std::size_t max_field_line = 8192;

    explicit RequestReader(Limits limits);
    ~RequestReader();
    RequestReader(const RequestReader&) = delete;
    RequestReader& operator=(const RequestReader&) = delete;

    // Bytes the client sent.
    void append(std::string_view bytes);
    // Room for up to `n` bytes at the end of the buffer, to be received into and then kept with
    // commit(received).
    char* prepare(std::size_t n);
    void commit(std::size_t received);
    // The client sends nothing more (it closed its side, or reading failed).
    void end_of_input() noexcept { ended_ = true; }
    [[nodiscard]] bool ended() const noexcept { return ended_; }

    enum class Step {
        more,     // the request is incomplete: read more bytes
        admit,    // its head is in, its body is not: admit(limit) or refuse() it (head())
        request,  // answer head() (its body in head().body), then consume() it
        done,     // the client sent nothing more and no request begins
    };
    Step next();

    // The parsed head (Step::admit and Step::request): method, target as sent, version, path
    // (the target's path as sent, not decoded), query parameters and header fields, each value
    // exactly as sent but for the optional white space around it; at Step::request, `body`
    // holds the body with its transfer coding removed when it was read (body() says). Empty when
    // the head was refused.
    [[nodiscard]] const httplib::Request& head() const noexcept { return head_; }
    // Step::request: the same, for the request to take its fields before consume().
    [[nodiscard]] httplib::Request& head() noexcept { return head_; }
    // Step::admit: reads the body, up to `body_limit` bytes (decoded, for a chunked body).
    void admit(std::size_t body_limit);
    // Step::admit: answers the request from its head alone; the connection ends after the
    // answer.
    void refuse();

    // Step::request: the refusal of the head, if it was refused; what the server knows of the
    // body; and whether the connection ends after the answer (the bytes after this request
    // cannot be trusted to begin another one).
    [[nodiscard]] const Refusal& refusal() const noexcept { return refusal_; }
    [[nodiscard]] BodyStatus body() const noexcept { return body_status_; }
    [[nodiscard]] bool last() const noexcept { return last_; }
    // How many of the bytes the client sent this request took.
    [[nodiscard]] std::size_t raw_size() const noexcept { return raw_size_; }
    // The request was answered: the next begins after it. A buffer grown for a large request is
    // given back.
    void consume();

    // Nothing of a next request has arrived yet.
    [[nodiscard]] bool idle() const noexcept { return phase_ == Phase::head && buffer_.empty(); }
    // Its head is in and its body was admitted: the body is being read.
    [[nodiscard]] bool reading_body() const noexcept { return phase_ == Phase::body; }
    [[nodiscard]] std::size_t capacity() const noexcept {
        return buffer_.capacity() + head_.body.capacity();
    }
    // The bytes held for this request and any after it: those received and not yet parsed, and
    // the body decoded so far.
    [[nodiscard]] std::size_t buffered() const noexcept {
        return buffer_.size() - parsed_ + head_.body.size();
    }
    // The bytes of the head as sent, once it is in (Step::admit, Step::request).
    [[nodiscard]] std::size_t head_size() const noexcept { return head_size_; }

    // The buffer kept between requests; larger ones are given back after the request that grew
    // them.
    static constexpr std::size_t kept_capacity = std::size_t{64} << 10;

    class Parser;

  private:
    enum class Phase { head, admitting, body, ready };
    enum class Parsed { more, complete, too_large, invalid };

    Step head_step();
    Step body_step();
    Parsed parse_body();
    std::optional<Step> take_body();
    Step ready(BodyStatus body, bool last);
    Step refused(int status, std::string reason);
    Refusal validate_head();
    void compact();

    Limits limits_;
    std::string buffer_;        // what the client sent and the parser has not taken yet
    std::size_t parsed_ = 0;    // buffer_[0, parsed_) was taken by the parser
    std::size_t prepared_ = 0;  // the bytes prepare() added
    bool ended_ = false;

    Phase phase_ = Phase::head;
    std::unique_ptr<Parser> parser_;
    httplib::Request head_;  // its body too, as it is decoded
    Refusal refusal_;
    bool framed_ = false;  // the head declares a body (Content-Length or chunked)
    bool chunked_ = false;
    std::uint64_t content_length_ = 0;
    std::size_t body_limit_ = 0;  // the decoded bytes the body may have
    std::uint64_t wire_ = 0;      // the bytes the parser took for the body, framing included
    std::size_t raw_size_ = 0;    // the bytes the parser took for this request
    std::size_t head_size_ = 0;   // of them, the head's

    BodyStatus body_status_ = BodyStatus::complete;
    bool last_ = false;
};

}  // namespace collectcall::server::http
