#include "request_reader.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/optional.hpp>

#include <collectcall/api/routes.hpp>

namespace collectcall::server::http {

namespace beast_http = boost::beast::http;
using boost::beast::error_code;

namespace {

// The unparsed bytes a chunk-size line or the trailer section may take while incomplete.
constexpr std::size_t max_chunk_line = std::size_t{64} << 10;

// Bytes the parser has taken are dropped from the buffer once there are this many, while a body
// is read: the decoded body is kept, not the bytes it came in.
constexpr std::size_t compact_after = std::size_t{64} << 10;

constexpr const char* framing_reason =
    "the request's framing is ambiguous or broken (Content-Length with Transfer-Encoding, two "
    "Content-Length, a transfer coding other than chunked, or a malformed chunk)";

// The methods the server answers (RFC 9110 section 9, with PATCH of RFC 5789 and HTTP/2's
// preface PRI); any other is refused with the head.
constexpr std::array<std::string_view, 10> known_methods{
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "PRI"};

bool is_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

// Beast's request parser (RFC 9112): the head into an httplib::Request, field by field in the
// order sent, the body decoded into a string. Trailer fields are parsed (and so checked) and
// then ignored (RFC 9112 section 7.1.2: a recipient may discard them).
class RequestReader::Parser final : public beast_http::basic_parser<true> {
  public:
    Parser(httplib::Request& head, std::string& body, std::size_t max_head)
        : head_(head), body_(body) {
        header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(max_head, UINT32_MAX)));
        body_limit(boost::none);  // the reader bounds bodies itself, after the admission
        eager(false);             // put() stops after the head
    }

    [[nodiscard]] int version() const noexcept { return version_; }

  private:
    void on_request_impl(beast_http::verb, boost::beast::string_view method,
                         boost::beast::string_view target, int version, error_code&) override {
        head_.method.assign(method.data(), method.size());
        head_.target.assign(target.data(), target.size());
        version_ = version;
        head_.version = version == 10 ? "HTTP/1.0" : version == 11 ? "HTTP/1.1" : "";
    }
    void on_response_impl(int, boost::beast::string_view, int, error_code&) override {}
    void on_field_impl(beast_http::field, boost::beast::string_view name,
                       boost::beast::string_view value, error_code&) override {
        if (header_done_) return;  // a trailer field
        head_.headers.emplace(std::string(name.data(), name.size()),
                              std::string(value.data(), value.size()));
    }
    void on_header_impl(error_code&) override { header_done_ = true; }
    void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
    std::size_t on_body_impl(boost::beast::string_view data, error_code&) override {
        body_.append(data.data(), data.size());
        return data.size();
    }
    void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view data,
                                   error_code&) override {
        body_.append(data.data(), data.size());
        return data.size();
    }
    void on_finish_impl(error_code&) override {}

    httplib::Request& head_;
    std::string& body_;
    int version_ = 0;
    bool header_done_ = false;
};

namespace {

// The pieces of `text` between `separator`s, without the spaces and tabs around them; empty
// pieces are skipped.
template <class Each>
void for_each_piece(std::string_view text, char separator, Each&& each) {
    while (true) {
        const std::size_t end = text.find(separator);
        std::string_view piece = text.substr(0, end);
        while (!piece.empty() && (piece.front() == ' ' || piece.front() == '\t'))
            piece.remove_prefix(1);
        while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\t'))
            piece.remove_suffix(1);
        if (!piece.empty()) each(piece);
        if (end == std::string_view::npos) return;
        text.remove_prefix(end + 1);
    }
}

// A form-encoded name or value: '+' is a space (WHATWG URL, application/x-www-form-urlencoded),
// then each %XX its byte.
std::string form_decoded(std::string_view raw) {
    std::string plus(raw);
    std::replace(plus.begin(), plus.end(), '+', ' ');
    return api::detail::decode_segment(plus);
}

}  // namespace

void parse_query(std::string_view query, httplib::Params& params) {
    // A pair given twice counts once (as cpp-httplib's parser has it). A set, not a list: a
    // target of thousands of short pairs costs one lookup each, not a scan of those before it.
    std::unordered_set<std::string_view> seen;
    for_each_piece(query, '&', [&](std::string_view pair) {
        if (!seen.insert(pair).second) return;
        // "a=b": the name a, the value b. A pair of more '=' takes its first piece as the name
        // and its last as the value.
        std::string_view name;
        std::string_view value;
        for_each_piece(pair, '=', [&](std::string_view piece) {
            if (name.empty()) {
                name = piece;
            } else {
                value = piece;
            }
        });
        if (!name.empty()) params.emplace(form_decoded(name), form_decoded(value));
    });
}

RequestReader::RequestReader(Limits limits)
    : limits_(limits), parser_(std::make_unique<Parser>(head_, head_.body, limits.max_head)) {}

RequestReader::~RequestReader() = default;

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
    return head_step();
}

RequestReader::Step RequestReader::head_step() {
    if (buffer_.size() == parsed_) {
        if (!ended_) return Step::more;
        if (buffer_.empty()) return Step::done;
        // The parser took the first lines of a head that never ended.
        return refused(400, "the request ends before its head does");
    }
    error_code ec;
    const std::size_t taken = parser_->put(
        boost::asio::const_buffer(buffer_.data() + parsed_, buffer_.size() - parsed_), ec);
    parsed_ += taken;
    raw_size_ += taken;
    // The head begins at the start of the buffer; the parser may have taken its first lines.
    if (ec == beast_http::error::need_more && buffer_.size() <= limits_.max_head) {
        if (!ended_) return Step::more;
        return refused(400, "the request ends before its head does");
    }
    if (ec == beast_http::error::need_more || ec == beast_http::error::header_limit) {
        // Too large: the request line when it has not ended within its limit, else the fields.
        const std::size_t line_end = buffer_.find('\n');
        if (line_end == std::string::npos || line_end + 1 > max_request_line)
            return refused(414, "");
        return refused(431, "");
    }
    if (ec == beast_http::error::bad_content_length ||
        ec == beast_http::error::multiple_content_length ||
        ec == beast_http::error::bad_transfer_encoding) {
        return refused(400, std::string(framing_reason));
    }
    if (ec) return refused(400, "the request could not be parsed (" + ec.message() + ")");
    head_size_ = raw_size_;

    if (const Refusal refusal = validate_head(); refusal.status != 0) {
        return refused(refusal.status, std::string(refusal.reason));
    }
    if (!framed_ || (!chunked_ && content_length_ == 0)) return ready(BodyStatus::complete, false);
    // Over what any route takes: answered from the head (its key first, then 413).
    if (!chunked_ && content_length_ > limits_.max_body) return ready(BodyStatus::not_read, true);
    // The body as far as it has arrived: a request that came whole is served as it came; one
    // whose body is still to come is admitted (or refused) from its head first.
    body_limit_ = limits_.max_body;
    if (!chunked_ && buffer_.size() - parsed_ >= content_length_)
        head_.body.reserve(static_cast<std::size_t>(content_length_));
    parser_->eager(true);
    if (chunked_) parser_->body_limit(body_limit_);
    if (const auto step = take_body()) return *step;
    phase_ = Phase::admitting;
    return Step::admit;
}

// The rules of RFC 9112 that the parser leaves to its user, and the limits of this server.
Refusal RequestReader::validate_head() {
    if (parser_->version() != 10 && parser_->version() != 11)
        return {400, "the HTTP version is not HTTP/1.1 or HTTP/1.0"};
    if (std::find(known_methods.begin(), known_methods.end(), head_.method) ==
        known_methods.end()) {
        return {400, "the request method is not known"};
    }
    if (head_.method.size() + head_.target.size() + head_.version.size() + 4 > max_request_line)
        return {414, ""};
    const std::string_view target = head_.target;
    // RFC 9112 section 3.2: a request target has no fragment.
    if (target.find('#') != std::string_view::npos)
        return {400, "the request target has a fragment"};
    std::size_t hosts = 0;
    std::size_t lengths = 0;
    std::size_t encodings = 0;
    for (const auto& [name, value] : head_.headers) {
        if (name.size() + value.size() + 4 > max_field_line) return {431, ""};
        if (iequals(name, "Host")) {
            ++hosts;
        } else if (iequals(name, "Content-Length")) {
            ++lengths;
            // One field, one number: a list ("5, 5") is refused like two fields.
            if (!is_digits(value)) return {400, framing_reason};
        } else if (iequals(name, "Transfer-Encoding")) {
            ++encodings;
            // The only transfer coding the server decodes.
            if (!iequals(value, "chunked")) return {400, framing_reason};
        }
    }
    // RFC 9112 section 3.2: an HTTP/1.1 request has exactly one Host field.
    if (parser_->version() == 11 && hosts != 1)
        return {400, "an HTTP/1.1 request must have exactly one Host header field"};
    // RFC 9112 section 6.3: two lengths, or a length with a coding, are how requests are smuggled
    // past one reader to another; refused, and the connection closed.
    if (lengths > 1 || encodings > 1 || (lengths == 1 && encodings == 1))
        return {400, framing_reason};
    chunked_ = encodings == 1;
    framed_ = lengths == 1 || chunked_;
    content_length_ = chunked_ || lengths == 0 ? 0 : parser_->content_length().value_or(0);

    const std::size_t query = target.find('?');
    head_.path = std::string(target.substr(0, query));
    if (query != std::string_view::npos) parse_query(target.substr(query + 1), head_.params);
    return {};
}

void RequestReader::admit(std::size_t body_limit) {
    body_limit_ = body_limit;
    phase_ = Phase::body;
    if (chunked_) {
        if (head_.body.size() <= body_limit) parser_->body_limit(body_limit - head_.body.size());
    } else if (content_length_ <= body_limit) {
        head_.body.reserve(static_cast<std::size_t>(content_length_));
    }
}

void RequestReader::refuse() {
    ready(BodyStatus::not_read, true);
}

RequestReader::Step RequestReader::body_step() {
    if (!chunked_ && content_length_ > body_limit_) return ready(BodyStatus::not_read, true);
    if (chunked_ && head_.body.size() > body_limit_) return ready(BodyStatus::too_large, true);
    if (const auto step = take_body()) return *step;
    return Step::more;
}

// Hands the parser what has arrived of the body: the request once the body is whole, too large,
// broken or cut short by the end of the input; nullopt while more is to come.
std::optional<RequestReader::Step> RequestReader::take_body() {
    switch (parse_body()) {
        case Parsed::complete:
            return ready(BodyStatus::complete, false);
        case Parsed::too_large:
            return ready(BodyStatus::too_large, true);
        case Parsed::invalid:
            return ready(BodyStatus::bad_framing, true);
        case Parsed::more:
            break;
    }
    if (ended_) return ready(BodyStatus::not_read, true);  // cut short: not whole (400)
    return std::nullopt;
}

// Hands the parser the body bytes that have arrived.
RequestReader::Parsed RequestReader::parse_body() {
    // The bytes of a chunked body on the wire, framing included: a body of one-byte chunks must
    // not cost several times the limit.
    const std::uint64_t max_wire = 2 * std::uint64_t{body_limit_} + (std::uint64_t{64} << 10);
    while (!parser_->is_done()) {
        if (buffer_.size() == parsed_) {
            compact();
            return Parsed::more;
        }
        error_code ec;
        const std::size_t taken = parser_->put(
            boost::asio::const_buffer(buffer_.data() + parsed_, buffer_.size() - parsed_), ec);
        parsed_ += taken;
        raw_size_ += taken;
        wire_ += taken;
        if (head_.body.size() > body_limit_ || wire_ > max_wire ||
            ec == beast_http::error::body_limit) {
            return Parsed::too_large;
        }
        if (ec == beast_http::error::need_more) {
            // A chunk-size line or the trailer section that does not end.
            if (buffer_.size() - parsed_ > max_chunk_line) return Parsed::invalid;
            compact();
            return Parsed::more;
        }
        if (ec) return Parsed::invalid;
        if (taken == 0) {
            compact();
            return Parsed::more;
        }
    }
    compact();
    return Parsed::complete;
}

// Drops the bytes the parser has taken for a body (the body is kept decoded), and a buffer grown
// for them.
void RequestReader::compact() {
    if (parsed_ < compact_after) return;
    buffer_.erase(0, parsed_);
    parsed_ = 0;
    // (The event loop reads up to about 200 KiB at a time: a buffer of that size is reused.)
    if (buffer_.capacity() > (std::size_t{1} << 20) && buffer_.size() <= kept_capacity) {
        std::string smaller;
        smaller.reserve(std::max(buffer_.size(), std::size_t{4096}));
        smaller.append(buffer_);
        buffer_.swap(smaller);
    }
}

RequestReader::Step RequestReader::ready(BodyStatus body, bool last) {
    phase_ = Phase::ready;
    body_status_ = body;
    last_ = last || body != BodyStatus::complete;
    if (body != BodyStatus::complete) head_.body.clear();
    return Step::request;
}

RequestReader::Step RequestReader::refused(int status, std::string reason) {
    refusal_ = Refusal{status, std::move(reason)};
    head_ = httplib::Request{};
    raw_size_ = buffer_.size();
    phase_ = Phase::ready;
    body_status_ = BodyStatus::not_read;
    last_ = true;
    return Step::request;
}

void RequestReader::consume() {
    if (last_) {
        buffer_.clear();
    } else {
        buffer_.erase(0, parsed_);
    }
    parsed_ = 0;
    if (buffer_.capacity() > kept_capacity) {
        std::string smaller;
        smaller.reserve(std::max(buffer_.size(), std::size_t{4096}));
        smaller.append(buffer_);
        buffer_.swap(smaller);
    }
    if (head_.body.capacity() > kept_capacity) {
        std::string().swap(head_.body);
    } else {
        head_.body.clear();
    }
    head_.method.clear();
    head_.target.clear();
    head_.version.clear();
    head_.path.clear();
    head_.headers.clear();
    head_.params.clear();
    head_.remote_addr.clear();
    head_.local_addr.clear();
    parser_ = std::make_unique<Parser>(head_, head_.body, limits_.max_head);
    phase_ = Phase::head;
    refusal_ = {};
    framed_ = false;
    chunked_ = false;
    content_length_ = 0;
    body_limit_ = 0;
    wire_ = 0;
    raw_size_ = 0;
    head_size_ = 0;
    body_status_ = BodyStatus::complete;
    last_ = false;
}

}  // namespace collectcall::server::http
