#include "output.hpp"

#include <brotli/encode.h>
#include <sys/socket.h>
#include <zlib.h>

#include <array>
#include <cerrno>
#include <optional>
#include <utility>

#include "http.hpp"

namespace collectcall::server::http {

namespace {

class SharedDocument final : public BodySource {
  public:
    explicit SharedDocument(std::shared_ptr<const std::string> bytes) : bytes_(std::move(bytes)) {}
    [[nodiscard]] std::size_t size() const override { return bytes_->size(); }
    [[nodiscard]] std::string_view read(std::size_t offset, std::span<char>) const override {
        return std::string_view(*bytes_).substr(offset);
    }

  private:
    std::shared_ptr<const std::string> bytes_;
};

// A large segment of owned bytes is not grown further: its capacity would be doubled for a
// few bytes more.
constexpr std::size_t segment_bytes = std::size_t{64} << 10;

// The reason phrases of RFC 9110 section 15 (and RFC 6585's 429 and 431) for the statuses the
// server answers; a client reads the status alone (RFC 9112 section 4).
std::string_view reason_phrase(int status) {
    switch (status) {
        case 100:
            return "Continue";
        case 200:
            return "OK";
        case 201:
            return "Created";
        case 202:
            return "Accepted";
        case 204:
            return "No Content";
        case 304:
            return "Not Modified";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 409:
            return "Conflict";
        case 410:
            return "Gone";
        case 413:
            return "Content Too Large";
        case 414:
            return "URI Too Long";
        case 415:
            return "Unsupported Media Type";
        case 416:
            return "Range Not Satisfiable";
        case 422:
            return "Unprocessable Content";
        case 429:
            return "Too Many Requests";
        case 431:
            return "Request Header Fields Too Large";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        default:
            break;
    }
    return status < 300   ? "OK"
           : status < 400 ? "Redirection"
           : status < 500 ? "Client Error"
                          : "Server Error";
}

// Media types worth compressing: text.
bool compressible(std::string_view type) {
    return (type.starts_with("text/") && type != "text/event-stream") || type == "image/svg+xml" ||
           type == "application/javascript" || type == "application/json" ||
           type == "application/xml" || type == "application/xhtml+xml";
}

std::optional<std::string> gzip(std::string_view body) {
    z_stream stream{};
    // 15 + 16: the gzip format (RFC 1952).
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
        return std::nullopt;
    }
    std::string out(deflateBound(&stream, static_cast<uLong>(body.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    stream.avail_in = static_cast<uInt>(body.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int result = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    if (result != Z_STREAM_END) return std::nullopt;
    return out;
}

std::optional<std::string> brotli(std::string_view body) {
    std::string out(BrotliEncoderMaxCompressedSize(body.size()), '\0');
    std::size_t size = out.size();
    if (out.empty() ||
        BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                              body.size(), reinterpret_cast<const std::uint8_t*>(body.data()),
                              &size, reinterpret_cast<std::uint8_t*>(out.data())) != BROTLI_TRUE) {
        return std::nullopt;
    }
    out.resize(size);
    return out;
}

// The body compressed, when its type is text and the request accepts a coding.
void compress(const httplib::Request& request, httplib::Response& response) {
    const std::string* type = find_header(response.headers, "Content-Type");
    const std::string* accepted = find_header(request.headers, "Accept-Encoding");
    if (response.body.empty() || type == nullptr || accepted == nullptr || !compressible(*type))
        return;
    const bool br = accepted->find("br") != std::string::npos;
    if (!br && accepted->find("gzip") == std::string::npos) return;
    std::optional<std::string> coded = br ? brotli(response.body) : gzip(response.body);
    if (!coded) return;
    response.body = std::move(*coded);
    response.set_header("Content-Encoding", br ? "br" : "gzip");
}

void replace_header(httplib::Response& response, const char* name, std::string value) {
    response.headers.erase(name);
    response.headers.emplace(name, std::move(value));
}

}  // namespace

void write_response(Output& output, const httplib::Request& request, httplib::Response& response,
                    const Persistence& persistence) {
    if (response.status < 100) response.status = 200;  // a handler that set nothing
    compress(request, response);
    if (!response.body.empty()) {
        replace_header(response, "Content-Length", std::to_string(response.body.size()));
        if (!response.has_header("Content-Type")) response.set_header("Content-Type", "text/plain");
    } else if (!response.has_header("Content-Length")) {
        response.set_header("Content-Length", "0");
    }
    if (persistence.close) {
        response.headers.erase("Keep-Alive");
        replace_header(response, "Connection", "close");
    } else {
        replace_header(response, "Keep-Alive",
                       "timeout=" + std::to_string(persistence.keep_alive.count()) +
                           ", max=" + std::to_string(persistence.max_requests));
    }
    std::string head;
    head.reserve(512);
    head += "HTTP/1.1 ";
    head += std::to_string(response.status);
    head += ' ';
    head += reason_phrase(response.status);
    head += "\r\n";
    for (const auto& [name, value] : response.headers) {
        head += name;
        head += ": ";
        head += value;
        head += "\r\n";
    }
    head += "\r\n";
    output.append(head);
    if (request.method != "HEAD") output.append(response.body);
}

std::shared_ptr<const BodySource> shared_document(std::shared_ptr<const std::string> bytes) {
    return std::make_shared<SharedDocument>(std::move(bytes));
}

std::shared_ptr<const BodySource> send_source(const httplib::Request& request,
                                              httplib::Response& response,
                                              std::shared_ptr<const BodySource> source,
                                              std::string_view content_type) {
    response.status = 200;
    response.body.clear();
    response.headers.erase("Content-Type");
    response.set_header("Content-Type", std::string(content_type));
    // write_response keeps a Content-Length it is given when the body is empty.
    response.set_header("Content-Length", std::to_string(source->size()));
    if (request.method == "HEAD") return nullptr;
    return source;
}

void Output::append(std::string_view bytes) {
    if (bytes.empty()) return;
    if (segments_.empty() || segments_.back().source ||
        segments_.back().bytes.size() + bytes.size() > segment_bytes) {
        // A new segment: whole answers are usually written at once, and a segment's capacity is
        // what it was first given.
        segments_.emplace_back();
        segments_.back().bytes.reserve(bytes.size());
        held_ += segments_.back().bytes.capacity();
    }
    std::string& last = segments_.back().bytes;
    held_ -= last.capacity();
    last.append(bytes);
    held_ += last.capacity();
}

void Output::append(std::shared_ptr<const BodySource> source) {
    if (source == nullptr || source->size() == 0) return;
    segments_.push_back(Segment{{}, std::move(source)});
}

Sent Output::send(int sock) {
    std::array<char, std::size_t{64} << 10> scratch;
    while (!segments_.empty()) {
        Segment& first = segments_.front();
        const std::size_t size = first.source ? first.source->size() : first.bytes.size();
        if (sent_ < size) {
            const std::string_view bytes = first.source
                                               ? first.source->read(sent_, scratch)
                                               : std::string_view(first.bytes).substr(sent_);
            const ssize_t n = ::send(sock, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n > 0) {
                sent_ += static_cast<std::size_t>(n);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return Sent::some;
            return Sent::failed;
        }
        held_ -= first.bytes.capacity();
        segments_.pop_front();
        sent_ = 0;
    }
    // The deque's own blocks go too: an idle connection holds nothing here.
    std::deque<Segment>().swap(segments_);
    return Sent::all;
}

std::string Output::take_all() {
    std::string out;
    std::array<char, std::size_t{64} << 10> scratch;
    for (Segment& segment : segments_) {
        if (!segment.source) {
            out += segment.bytes;
            continue;
        }
        for (std::size_t at = 0; at < segment.source->size();) {
            const std::string_view bytes = segment.source->read(at, scratch);
            out += bytes;
            at += bytes.size();
        }
    }
    segments_.clear();
    sent_ = 0;
    held_ = 0;
    return out;
}

void MemoryBudget::move(Holding& holding, std::string_view account, std::size_t bytes) {
    used_ -= holding.bytes;
    if (!holding.account.empty()) {
        const auto it = accounts_.find(holding.account);
        if (it != accounts_.end() && (it->second -= holding.bytes) == 0) accounts_.erase(it);
    }
    if (holding.account != account) holding.account = std::string(account);
    holding.bytes = bytes;
    used_ += bytes;
    if (!account.empty() && bytes > 0) accounts_[holding.account] += bytes;
}

void MemoryBudget::set(Holding& holding, std::string_view account, std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    move(holding, account, bytes);
}

bool MemoryBudget::try_set(Holding& holding, std::string_view account, std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    if (used_ - holding.bytes + bytes > limit_) return false;
    if (!account.empty()) {
        const auto it = accounts_.find(std::string(account));
        std::size_t held = it == accounts_.end() ? 0 : it->second;
        if (holding.account == account) held -= holding.bytes;
        if (held + bytes > share_) return false;
    }
    move(holding, account, bytes);
    return true;
}

bool MemoryBudget::spent() const {
    const std::lock_guard lock(mutex_);
    return used_ >= limit_;
}

bool MemoryBudget::over() const {
    const std::lock_guard lock(mutex_);
    return used_ > limit_;
}

std::size_t MemoryBudget::used() const {
    const std::lock_guard lock(mutex_);
    return used_;
}

}  // namespace collectcall::server::http
