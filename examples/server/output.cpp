#include "output.hpp"

#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <utility>

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

}  // namespace

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
    // cpp-httplib keeps a Content-Length it is given when the body is empty.
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
