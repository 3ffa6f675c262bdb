// The framing of HTTP/1.1 requests on one connection, before cpp-httplib sees them: where a
// request's head ends, how long its body is (Content-Length, or chunked decoded as it arrives)
// and where the next request begins. The server's event loop reads a connection's bytes into a
// RequestReader and hands a request to a worker thread only once it is whole (or once it is clear
// that it will be answered from its head alone); cpp-httplib then does the routing and the HTTP
// semantics on those bytes, in memory. Server::serve_bytes drives the same reader over a string.
//
// Transport-agnostic and without clocks: the caller adds the bytes it receives, says when the
// client has stopped sending, and asks what to do next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <httplib.h>

#include <collectcall/api/routes.hpp>

#include "http.hpp"

namespace collectcall::server::http {

class RequestReader {
  public:
    struct Limits {
        // A head (request line and header lines) still incomplete at this size is cut off there:
        // cpp-httplib then answers 431 or 414 from what it got, and the connection closes.
        std::size_t max_head = std::size_t{80} << 10;
        // The largest body any route takes: a Content-Length above it is refused from the head
        // alone, without asking which route the request is for.
        std::size_t max_body = api::largest_body;
    };

    explicit RequestReader(Limits limits) : limits_(limits) {}

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
        request,  // hand request() to cpp-httplib, then consume() it
        done,     // the client sent nothing more and no request begins
    };
    Step next();

    // Step::admit: the head parsed as cpp-httplib parses it (method, target, path, version,
    // headers), for the decision whether the body may come.
    [[nodiscard]] httplib::Request head() const;
    // Reads the body, up to `body_limit` bytes (decoded, for a chunked body).
    void admit(std::size_t body_limit);
    // Answers the request from its head alone; the connection ends after the answer.
    void refuse();

    // Step::request: the bytes cpp-httplib reads for this request (its head alone when the body
    // is not read), what the server knows of its body, and whether the connection ends after the
    // answer (the bytes after this request cannot be trusted to begin another one).
    [[nodiscard]] std::string_view request() const noexcept {
        return std::string_view(buffer_).substr(0, request_end_);
    }
    [[nodiscard]] BodyStatus body() const noexcept { return body_; }
    [[nodiscard]] bool last() const noexcept { return last_; }
    // The request was answered: the next begins after it. A buffer grown for a large request is
    // given back.
    void consume();

    // Nothing of a next request has arrived yet.
    [[nodiscard]] bool idle() const noexcept { return phase_ == Phase::head && buffer_.empty(); }
    // Its head is in and its body was admitted: the body is being read.
    [[nodiscard]] bool reading_body() const noexcept { return phase_ == Phase::body; }
    [[nodiscard]] std::size_t capacity() const noexcept { return buffer_.capacity(); }
    // The bytes buffered (of this request and any after it), and of them the head's once it is
    // in (Step::admit, Step::request).
    [[nodiscard]] std::size_t buffered() const noexcept { return buffer_.size(); }
    [[nodiscard]] std::size_t head_size() const noexcept { return head_end_; }

    // The buffer kept between requests; larger ones are given back after the request that grew
    // them.
    static constexpr std::size_t kept_capacity = std::size_t{64} << 10;

  private:
    enum class Phase { head, admitting, body, ready };
    enum class Framing { none, length, chunked, invalid };
    enum class Chunk { size_line, data, data_end, trailer, done };
    enum class Decoded { more, complete, too_large, invalid };

    void parse_framing();
    Step body_step();
    Decoded decode_chunks(std::size_t limit);
    Step ready(std::size_t end, BodyStatus body, bool last);

    Limits limits_;
    std::string buffer_;
    std::size_t prepared_ = 0;  // the bytes prepare() added
    bool ended_ = false;

    Phase phase_ = Phase::head;
    std::size_t scanned_ = 0;  // the head is scanned up to here (a line start)
    bool request_line_seen_ = false;
    std::size_t head_end_ = 0;
    Framing framing_ = Framing::none;
    std::uint64_t content_length_ = 0;
    std::size_t body_limit_ = 0;

    Chunk chunk_ = Chunk::size_line;
    std::size_t chunk_position_ = 0;  // where decoding goes on
    std::uint64_t chunk_left_ = 0;
    std::uint64_t decoded_ = 0;

    std::size_t request_end_ = 0;
    BodyStatus body_ = BodyStatus::complete;
    bool last_ = false;
};

}  // namespace collectcall::server::http
