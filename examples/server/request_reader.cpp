#include "request_reader.hpp"

#include <algorithm>
#include <utility>

#include <collectcall/types/detail/ascii.hpp>

namespace collectcall::server::http {

namespace {

using collectcall::detail::trim_blanks;

// A chunk-size line, or a trailer line, longer than this is not a client's mistake.
constexpr std::size_t max_chunk_line = 4096;

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Calls `each(name, value)` for the header lines of `head` (after its request line) as
// cpp-httplib 0.11 reads them: a line that does not end with CRLF is skipped, the name is
// everything before the first colon, the value is trimmed of blanks.
template <class Each>
void for_each_header(std::string_view head, const Each& each) {
    std::size_t line_start = head.find('\n');
    if (line_start == std::string_view::npos) return;
    ++line_start;
    while (line_start < head.size()) {
        const std::size_t newline = head.find('\n', line_start);
        if (newline == std::string_view::npos) return;
        std::string_view line = head.substr(line_start, newline + 1 - line_start);
        line_start = newline + 1;
        if (line.size() < 2 || line[line.size() - 2] != '\r') continue;
        line.remove_suffix(2);
        if (line.empty()) return;  // the end of the head
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        each(line.substr(0, colon), trim_blanks(line.substr(colon + 1)));
    }
}

}  // namespace

void RequestReader::append(std::string_view bytes) {
    buffer_.append(bytes);
}

char* RequestReader::prepare(std::size_t n) {
    const std::size_t size = buffer_.size();
    buffer_.resize(size + n);
    prepared_ = n;
    return buffer_.data() + size;
}

void RequestReader::commit(std::size_t received) {
    // prepare() grew the buffer by n; keep what arrived of it.
    buffer_.resize(buffer_.size() - (prepared_ - std::min(received, prepared_)));
    prepared_ = 0;
}

RequestReader::Step RequestReader::ready(std::size_t end, BodyStatus body, bool last) {
    phase_ = Phase::ready;
    request_end_ = end;
    body_ = body;
    last_ = last || body != BodyStatus::complete;
    return Step::request;
}

RequestReader::Step RequestReader::next() {
    switch (phase_) {
        case Phase::ready:
            return Step::request;
        case Phase::admitting:
            return Step::admit;
        case Phase::body:
            return body_step();
        case Phase::head:
            break;
    }
    // cpp-httplib reads a request line up to '\n', then header lines up to '\n'; the head ends at
    // the first header line that is exactly CRLF.
    while (head_end_ == 0) {
        const std::size_t newline = buffer_.find('\n', scanned_);
        if (newline == std::string::npos) {
            scanned_ = buffer_.size();
            break;
        }
        const std::string_view line(buffer_.data() + scanned_, newline + 1 - scanned_);
        if (!request_line_seen_) {
            request_line_seen_ = true;
        } else if (line == "\r\n") {
            head_end_ = newline + 1;
        }
        scanned_ = newline + 1;
    }
    if (head_end_ == 0) {
        if (buffer_.size() > limits_.max_head) {
            // What arrived goes to cpp-httplib as it is: it answers 431 (a header line or the
            // head too large) or 414 (the request line) and the connection ends.
            return ready(std::min(buffer_.size(), limits_.max_head), BodyStatus::complete, true);
        }
        if (!ended_) return Step::more;
        if (buffer_.empty()) return Step::done;
        return ready(buffer_.size(), BodyStatus::complete, true);  // cut short: cpp-httplib's 400
    }
    parse_framing();
    switch (framing_) {
        case Framing::none:
            return ready(head_end_, BodyStatus::complete, false);
        case Framing::invalid:
            return ready(head_end_, BodyStatus::bad_framing, true);
        case Framing::length:
            if (content_length_ > limits_.max_body)
                return ready(head_end_, BodyStatus::not_read, true);
            if (buffer_.size() - head_end_ >= content_length_)
                return ready(head_end_ + static_cast<std::size_t>(content_length_),
                             BodyStatus::complete, false);
            break;
        case Framing::chunked:
            chunk_position_ = head_end_;
            switch (decode_chunks(limits_.max_body)) {
                case Decoded::complete:
                    return ready(chunk_position_, BodyStatus::complete, false);
                case Decoded::too_large:
                    return ready(head_end_, BodyStatus::too_large, true);
                case Decoded::invalid:
                    return ready(head_end_, BodyStatus::bad_framing, true);
                case Decoded::more:
                    break;
            }
            break;
    }
    // The body is still to come: whether it may is decided from the head (its key, its route).
    if (ended_) return ready(buffer_.size(), BodyStatus::complete, true);
    phase_ = Phase::admitting;
    return Step::admit;
}

void RequestReader::parse_framing() {
    const std::string_view head(buffer_.data(), head_end_);
    int lengths = 0;
    int encodings = 0;
    bool valid = true;
    framing_ = Framing::none;
    for_each_header(head, [&](std::string_view name, std::string_view value) {
        // RFC 9112 section 5.1: white space between a field name and its colon is refused.
        if (name.empty() || name.find_first_of(" \t") != std::string_view::npos) valid = false;
        if (iequals(name, "Content-Length")) {
            ++lengths;
            std::uint64_t n = 0;
            if (value.empty() || value.size() > 18) valid = false;
            for (char c : value) {
                if (c < '0' || c > '9') {
                    valid = false;
                    break;
                }
                n = n * 10 + static_cast<std::uint64_t>(c - '0');
            }
            content_length_ = n;
        } else if (iequals(name, "Transfer-Encoding")) {
            ++encodings;
            // The only transfer coding cpp-httplib decodes (and so the only one a body may have).
            if (!iequals(value, "chunked")) valid = false;
        }
    });
    // RFC 9112 section 6: Content-Length together with Transfer-Encoding, or two Content-Length
    // fields, are how requests are smuggled past one reader to another; refused, and the
    // connection closed.
    if (!valid || lengths > 1 || encodings > 1 || (lengths == 1 && encodings == 1)) {
        framing_ = Framing::invalid;
    } else if (encodings == 1) {
        framing_ = Framing::chunked;
    } else if (lengths == 1 && content_length_ > 0) {
        framing_ = Framing::length;
    }
}

httplib::Request RequestReader::head() const {
    httplib::Request request;
    const std::string_view head(buffer_.data(), head_end_);
    std::string_view line = head.substr(0, head.find('\n'));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t first = line.find(' ');
    const std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
    if (second != std::string_view::npos) {
        request.method = std::string(line.substr(0, first));
        request.target = std::string(line.substr(first + 1, second - first - 1));
        request.version = std::string(line.substr(second + 1));
        const std::string_view target = request.target;
        request.path =
            httplib::detail::decode_url(std::string(target.substr(0, target.find('?'))), false);
    }
    for_each_header(head, [&](std::string_view name, std::string_view value) {
        request.headers.emplace(std::string(name),
                                httplib::detail::decode_url(std::string(value), false));
    });
    return request;
}

void RequestReader::admit(std::size_t body_limit) {
    body_limit_ = body_limit;
    phase_ = Phase::body;
    if (framing_ == Framing::length && content_length_ <= body_limit)
        buffer_.reserve(head_end_ + static_cast<std::size_t>(content_length_));
}

void RequestReader::refuse() {
    ready(head_end_, BodyStatus::not_read, true);
}

RequestReader::Step RequestReader::body_step() {
    if (framing_ == Framing::length) {
        if (content_length_ > body_limit_) return ready(head_end_, BodyStatus::not_read, true);
        if (buffer_.size() - head_end_ >= content_length_)
            return ready(head_end_ + static_cast<std::size_t>(content_length_),
                         BodyStatus::complete, false);
    } else {
        switch (decode_chunks(body_limit_)) {
            case Decoded::complete:
                return ready(chunk_position_, BodyStatus::complete, false);
            case Decoded::too_large:
                return ready(head_end_, BodyStatus::too_large, true);
            case Decoded::invalid:
                return ready(head_end_, BodyStatus::bad_framing, true);
            case Decoded::more:
                break;
        }
    }
    // Cut short: cpp-httplib reads what there is and fails the body (400).
    if (ended_) return ready(buffer_.size(), BodyStatus::complete, true);
    return Step::more;
}

// Decodes the chunks that have arrived, counting their data, from where the last call stopped.
RequestReader::Decoded RequestReader::decode_chunks(std::size_t limit) {
    const auto line_end = [&]() -> std::size_t { return buffer_.find('\n', chunk_position_); };
    // The bytes of a chunked body on the wire, framing included: a body of one-byte chunks must
    // not hold several times the limit in memory.
    const std::size_t max_wire = 2 * limit + (std::size_t{64} << 10);
    while (true) {
        if (decoded_ > limit || chunk_position_ - head_end_ > max_wire) return Decoded::too_large;
        switch (chunk_) {
            case Chunk::size_line: {
                const std::size_t newline = line_end();
                if (newline == std::string::npos) {
                    return buffer_.size() - chunk_position_ > max_chunk_line ? Decoded::invalid
                                                                             : Decoded::more;
                }
                std::string_view line(buffer_.data() + chunk_position_, newline - chunk_position_);
                if (line.empty() || line.back() != '\r') return Decoded::invalid;
                line.remove_suffix(1);
                std::uint64_t size = 0;
                std::size_t digits = 0;
                while (digits < line.size() && hex_value(line[digits]) >= 0) {
                    size = size * 16 + static_cast<std::uint64_t>(hex_value(line[digits]));
                    if (++digits > 15) return Decoded::invalid;
                }
                // Chunk extensions (";name=value") are allowed and ignored, as cpp-httplib does.
                if (digits == 0 || (digits < line.size() && line[digits] != ';'))
                    return Decoded::invalid;
                chunk_position_ = newline + 1;
                if (size == 0) {
                    chunk_ = Chunk::trailer;
                } else {
                    chunk_left_ = size;
                    decoded_ += size;
                    chunk_ = Chunk::data;
                }
                break;
            }
            case Chunk::data: {
                const std::size_t available = buffer_.size() - chunk_position_;
                const std::size_t take =
                    static_cast<std::size_t>(std::min<std::uint64_t>(chunk_left_, available));
                chunk_position_ += take;
                chunk_left_ -= take;
                if (chunk_left_ > 0) return Decoded::more;
                chunk_ = Chunk::data_end;
                break;
            }
            case Chunk::data_end:
                if (buffer_.size() - chunk_position_ < 2) return Decoded::more;
                if (buffer_.compare(chunk_position_, 2, "\r\n") != 0) return Decoded::invalid;
                chunk_position_ += 2;
                chunk_ = Chunk::size_line;
                break;
            case Chunk::trailer: {
                const std::size_t newline = line_end();
                if (newline == std::string::npos) {
                    return buffer_.size() - chunk_position_ > max_chunk_line ? Decoded::invalid
                                                                             : Decoded::more;
                }
                const std::string_view line(buffer_.data() + chunk_position_,
                                            newline + 1 - chunk_position_);
                chunk_position_ = newline + 1;
                if (line == "\r\n") {
                    chunk_ = Chunk::done;
                    return Decoded::complete;
                }
                if (line.size() < 2 || line[line.size() - 2] != '\r') return Decoded::invalid;
                break;
            }
            case Chunk::done:
                return Decoded::complete;
        }
    }
}

void RequestReader::consume() {
    if (last_) {
        buffer_.clear();
    } else {
        buffer_.erase(0, request_end_);
    }
    if (buffer_.capacity() > kept_capacity) {
        std::string smaller;
        smaller.reserve(std::max(buffer_.size(), std::size_t{4096}));
        smaller.append(buffer_);
        buffer_.swap(smaller);
    }
    phase_ = Phase::head;
    scanned_ = 0;
    request_line_seen_ = false;
    head_end_ = 0;
    framing_ = Framing::none;
    content_length_ = 0;
    body_limit_ = 0;
    chunk_ = Chunk::size_line;
    chunk_position_ = 0;
    chunk_left_ = 0;
    decoded_ = 0;
    request_end_ = 0;
    body_ = BodyStatus::complete;
    last_ = false;
}

}  // namespace collectcall::server::http
