// Reading a webhook receiver's answer with hard bounds (API.md section 9).
//
// A receiver is a stranger: its answer may be a 2 MB status line, 200,000 headers, an endless
// body, or random bytes. A ResponseReader consumes the answer as it arrives, in pieces of any
// size, keeps nothing but a bounded line buffer and a few counters, and says after each piece
// whether the transfer should go on. What it decides:
//
// - the head (status line, header lines, the blank line that ends them): each line at most
//   `limits.line` bytes, at most `limits.headers` header lines; anything else, or a status line
//   that is not `HTTP/<version> <3 digits>...`, refuses the answer (`failed()`);
// - interim answers (1xx) are skipped: the head that counts is the first final one;
// - the body: at most `limits.body` bytes are taken, then the reader asks to stop (the rest is
//   never read); a final head with a 2xx status is an accepted delivery however the body ends
//   (cut off at the limit, at the timeout, or by a reset), since the receiver has already said
//   so;
// - trailers after a chunked body count as header lines.
//
// It does no I/O: the transport (libcurl in the example server) hands it what it receives, and
// a fuzz target hands it arbitrary bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace collectcall::webhook {

struct ResponseLimits {
    std::size_t line = 8 * 1024;   // the status line and each header line, CRLF included
    std::size_t headers = 100;     // header lines of one head (and of the trailers)
    std::size_t body = 64 * 1024;  // body bytes read; the rest is not
};

class ResponseReader {
  public:
    ResponseReader() = default;
    explicit ResponseReader(ResponseLimits limits) : limits_(limits) {}

    // Bytes of the head, in any split (libcurl hands over one line at a time). False: stop the
    // transfer (the answer broke a bound or is not HTTP).
    bool head(std::string_view bytes) {
        for (const char c : bytes) {
            if (failed()) return false;
            if (line_.size() >= limits_.line)
                return fail("a line of the answer's head is longer than the limit");
            line_ += c;
            if (c == '\n') end_line();
        }
        return !failed();
    }

    // Bytes of the body (after any transfer coding is removed). False: stop the transfer, either
    // because the head is missing or broken, or because `limits.body` bytes have been read.
    bool body(std::string_view bytes) {
        if (failed()) return false;
        if (!final_head_complete()) return fail("a body came before a complete head");
        const std::size_t room = limits_.body - body_read_;
        if (bytes.size() >= room) {
            body_read_ = limits_.body;
            body_cut_ = true;
            return false;
        }
        body_read_ += bytes.size();
        return true;
    }

    // The final status, 0 before a final head has started.
    [[nodiscard]] int status() const noexcept { return status_; }
    // The final head (status line to blank line) has fully arrived within the bounds.
    [[nodiscard]] bool final_head_complete() const noexcept { return status_ != 0 && head_done_; }
    // The receiver accepted the delivery: a complete final head with a 2xx status.
    [[nodiscard]] bool accepted() const noexcept {
        return !failed() && final_head_complete() && status_ >= 200 && status_ < 300;
    }
    [[nodiscard]] bool failed() const noexcept { return !error_.empty(); }
    // Why the answer was refused; empty when it was not.
    [[nodiscard]] const std::string& error() const noexcept { return error_; }
    [[nodiscard]] std::size_t body_read() const noexcept { return body_read_; }
    // The body went on past the limit and was not read further.
    [[nodiscard]] bool body_cut() const noexcept { return body_cut_; }
    [[nodiscard]] std::size_t header_lines() const noexcept { return headers_; }

  private:
    bool fail(std::string_view why) {
        if (error_.empty()) error_ = std::string(why);
        line_.clear();
        return false;
    }

    static bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

    void end_line() {
        std::string_view line(line_);
        line.remove_suffix(1);  // LF
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

        if (expect_status_) {
            // HTTP/<version> SP <3 digits> [SP reason]
            constexpr std::string_view prefix = "HTTP/";
            const std::size_t space = line.find(' ');
            if (!line.starts_with(prefix) || space == std::string_view::npos ||
                space == prefix.size() || line.size() < space + 4 || !digit(line[space + 1]) ||
                !digit(line[space + 2]) || !digit(line[space + 3]) ||
                (line.size() > space + 4 && line[space + 4] != ' ')) {
                fail("the answer does not start with an HTTP status line");
                return;
            }
            const int code = (line[space + 1] - '0') * 100 + (line[space + 2] - '0') * 10 +
                             (line[space + 3] - '0');
            if (code < 100) {
                fail("the answer's status is not a valid HTTP status");
                return;
            }
            expect_status_ = false;
            head_done_ = false;
            headers_ = 0;
            interim_ = code < 200;
            if (!interim_) status_ = code;
        } else if (line.empty()) {
            if (interim_) {
                expect_status_ = true;  // a 1xx head: the final one follows
            } else {
                head_done_ = true;
                headers_ = 0;  // trailers, if any, get a fresh count
            }
        } else if (++headers_ > limits_.headers) {
            fail("the answer has more header lines than the limit");
            return;
        }
        line_.clear();
    }

    ResponseLimits limits_{};
    std::string line_;
    std::string error_;
    bool expect_status_ = true;
    bool interim_ = false;
    bool head_done_ = false;
    int status_ = 0;
    std::size_t headers_ = 0;
    std::size_t body_read_ = 0;
    bool body_cut_ = false;
};

}  // namespace collectcall::webhook
