// How an answer is written, what a connection has still to send, and the memory that it and the
// bytes being read hold.
//
// An answer is mostly bytes write_response made (its head, a JSON body), kept per connection
// until the client takes them. Two kinds of body are not copied per connection: a document that
// many clients read (the OpenAPI document: one shared immutable buffer, referenced by each
// connection that still has it to send) and a body made as it is sent (a call's recording: a
// connection holds its position, never the file). A handler hands such a body over with
// send_source; the server puts it after the answer's head.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include <httplib.h>

namespace collectcall::server::http {

class BodySource {
  public:
    virtual ~BodySource() = default;
    [[nodiscard]] virtual std::size_t size() const = 0;
    // Bytes from `offset` (below size()): a view of the source's own bytes, or up to
    // scratch.size() bytes made into `scratch`.
    [[nodiscard]] virtual std::string_view read(std::size_t offset,
                                                std::span<char> scratch) const = 0;
};

// An immutable document, shared by every answer that sends it.
std::shared_ptr<const BodySource> shared_document(std::shared_ptr<const std::string> bytes);

// Answers `request` with status 200, `content_type` and the bytes of `source` (Content-Length
// is its size; a HEAD request gets the head alone). The body is not copied into the response:
// the source returned (none for HEAD) is kept in the request's context, and the server appends
// it to the connection's output after the head.
[[nodiscard]] std::shared_ptr<const BodySource> send_source(
    const httplib::Request& request, httplib::Response& response,
    std::shared_ptr<const BodySource> source, std::string_view content_type);

enum class Sent { all, some, failed };

class Output;

// What the connection does after an answer: ends (`Connection: close`), or waits for the next
// request for `keep_alive`, taking at most `max_requests` in all (`Keep-Alive`).
struct Persistence {
    bool close = false;
    std::chrono::seconds keep_alive{5};
    std::size_t max_requests = 1000;
};

// Writes the answer to `request` into `output` (RFC 9112 section 4): the status line, the header
// fields, then the body, but for HEAD (RFC 9110 section 9.3.2: its head says what GET's would).
// What every answer carries is added here: its framing (Content-Length, always: the body's size,
// or what send_source set), Content-Type (text/plain for a body without one), and
// `Connection: close` or `Keep-Alive`. A body whose type is text is sent compressed when the
// request accepts it (Accept-Encoding naming br, else gzip; RFC 9110 section 12.5.3).
void write_response(Output& output, const httplib::Request& request, httplib::Response& response,
                    const Persistence& persistence);

// A connection's unsent output, in order: bytes it owns, and sources it refers to.
class Output {
  public:
    void append(std::string_view bytes);
    void append(std::shared_ptr<const BodySource> source);
    [[nodiscard]] bool empty() const noexcept { return segments_.empty(); }
    // The bytes the connection itself holds (a source's are not its own).
    [[nodiscard]] std::size_t held() const noexcept { return held_; }
    // Sends what the non-blocking socket takes now; never waits.
    Sent send(int sock);
    // Everything, made whole (a connection without a socket: Server::serve_bytes).
    [[nodiscard]] std::string take_all();

  private:
    struct Segment {
        std::string bytes;                         // owned, when there is no source
        std::shared_ptr<const BodySource> source;  // or a source, whole
    };
    std::deque<Segment> segments_;
    std::size_t sent_ = 0;  // of the first segment
    std::size_t held_ = 0;
};

// One budget for the memory of all connections (`serve --memory-budget`): what each holds is
// charged to it, and to the account of the request it reads when that request was admitted
// with an API key. Thread-safe: the event loop and workers charge connections they hold.
class MemoryBudget {
  public:
    // `limit` bytes in all; one account at most `share`.
    MemoryBudget(std::size_t limit, std::size_t share) : limit_(limit), share_(share) {}

    // What one connection holds, and for which account ("": none).
    struct Holding {
        std::string account;
        std::size_t bytes = 0;
    };
    // The connection now holds `bytes` for `account`.
    void set(Holding& holding, std::string_view account, std::size_t bytes);
    // The same, only if it fits: the total within the limit, the account within its share.
    // False (and nothing changed) when it does not.
    [[nodiscard]] bool try_set(Holding& holding, std::string_view account, std::size_t bytes);
    // Whether everything is in use; whether more than that is (answers already made).
    [[nodiscard]] bool spent() const;
    [[nodiscard]] bool over() const;
    [[nodiscard]] std::size_t used() const;
    [[nodiscard]] std::size_t limit() const noexcept { return limit_; }

  private:
    void move(Holding& holding, std::string_view account, std::size_t bytes);

    std::size_t limit_;
    std::size_t share_;
    mutable std::mutex mutex_;
    std::size_t used_ = 0;
    std::unordered_map<std::string, std::size_t> accounts_;
};

}  // namespace collectcall::server::http
