#include "http_server.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "http.hpp"

namespace collectcall::server {

namespace {

using SteadyClock = std::chrono::steady_clock;

using http::Sent;

bool expects_continue(const httplib::Request& head) {
    const std::string* expect = http::find_header(head.headers, "Expect");
    return expect != nullptr && http::iequals(*expect, "100-continue");
}

// Gives freed memory back to the system after a large request, and after the memory held by
// connections has fallen (a burst of heads or bodies is over): glibc keeps the free pages of its
// arenas otherwise (API.md section 11: memory returns to its level after a burst).
constexpr std::size_t give_back_after = std::size_t{1} << 20;  // request bytes
void give_back_memory() {
    ::malloc_trim(0);
}

// Whether the client of `sock` has gone: it closed the connection (FIN; a client that only shut
// its sending side looks the same until the server writes, and is taken as gone, as it is by
// common proxies) or reset it. Bytes still waiting (a pipelined request) mean it has not.
bool peer_gone(int sock) {
    char byte = 0;
    while (true) {
        const ssize_t n = ::recv(sock, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n > 0) return false;
        if (n == 0) return true;
        if (errno == EINTR) continue;
        return errno != EAGAIN && errno != EWOULDBLOCK;
    }
}

}  // namespace

struct HttpServer::Connection {
    int sock = -1;
    http::RequestReader reader;
    Peer peer;
    // writing: the event loop sends the rest of `output` (a worker could not, without
    // waiting), then reads on, or lingers when the answer ended the connection.
    enum class State { reading, working, writing, lingering } state = State::reading;
    // What the connection waits for, timed by `deadline`; none while a worker has it (the
    // wait that follows is timed afresh).
    enum class Phase { none, idle, head, body } phase = Phase::idle;
    SteadyClock::time_point deadline{};
    std::size_t served = 0;
    std::optional<KeyRecord> admitted;  // the key its request in reading was admitted with
    http::Output output;                // answers not yet taken by the socket
    bool close_after_output = false;
    // What it holds of the memory budget: its buffered bytes and unsent answers, and while a
    // body is read, at least that body's size (reserved when it was admitted).
    http::MemoryBudget::Holding holding;
    std::size_t reserved = 0;
    // The body of the request in reading was refused for want of memory: answered 503.
    bool memory_refused = false;

    Connection(int s, http::RequestReader::Limits limits) : sock(s), reader(limits) {}
};

HttpServer::HttpServer(Options options)
    : options_(std::move(options)), budget_(options_.memory_budget, account_share(options_)) {
    wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake_ < 0) throw std::runtime_error("eventfd failed");
}

HttpServer::~HttpServer() {
    close_unserved();
    ::close(wake_);
}

int HttpServer::bind(const std::string& host, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return 0;
    int sock = -1;
    for (const addrinfo* at = found; at != nullptr && sock < 0; at = at->ai_next) {
        sock = ::socket(at->ai_family, at->ai_socktype | SOCK_CLOEXEC, at->ai_protocol);
        if (sock < 0) continue;
        int on = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        if (at->ai_family == AF_INET6) {
            int off = 0;  // IPv4 clients too, on a dual-stack address
            ::setsockopt(sock, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
        }
        if (::bind(sock, at->ai_addr, at->ai_addrlen) != 0 || ::listen(sock, SOMAXCONN) != 0) {
            ::close(sock);
            sock = -1;
        }
    }
    ::freeaddrinfo(found);
    if (sock < 0) return 0;
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(sock, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        ::close(sock);
        return 0;
    }
    close_unserved();
    listener_ = sock;
    return ntohs(address.ss_family == AF_INET6
                     ? reinterpret_cast<const sockaddr_in6&>(address).sin6_port
                     : reinterpret_cast<const sockaddr_in&>(address).sin_port);
}

void HttpServer::close_unserved() {
    const int sock = listener_.exchange(-1);
    if (sock >= 0) ::close(sock);
}

void HttpServer::stop() {
    stopping_ = true;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(wake_, &one, sizeof one);
}

void HttpServer::serve() {
    epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (epoll_ < 0) throw std::runtime_error("epoll_create1 failed");
    workers_ = std::make_unique<httplib::ThreadPool>(options_.threads);
    const int listener = listener_;
    if (listener >= 0) {
        ::fcntl(listener, F_SETFL, ::fcntl(listener, F_GETFL) | O_NONBLOCK);
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.ptr = &listen_tag_;
        ::epoll_ctl(epoll_, EPOLL_CTL_ADD, listener, &event);
        listening_ = true;
    }
    {
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.ptr = &wake_tag_;
        ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event);
    }
    std::array<epoll_event, 256> events{};
    auto last_sweep = SteadyClock::now();
    while (true) {
        if (stopping_ && listening_) stop_listening();
        if (!listening_ && connections_.empty()) break;
        const int n = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), 100);
        if (n < 0 && errno != EINTR) break;
        for (int i = 0; i < n; ++i) {
            void* tag = events[static_cast<std::size_t>(i)].data.ptr;
            if (tag == &listen_tag_) {
                accept_all();
            } else if (tag == &wake_tag_) {
                std::uint64_t count = 0;
                [[maybe_unused]] const auto r = ::read(wake_, &count, sizeof count);
                handle_returns();
            } else {
                auto& connection = *static_cast<Connection*>(tag);
                if (connection.state == Connection::State::writing) {
                    on_writable(connection);
                } else {
                    on_readable(connection);
                }
            }
        }
        const auto now = SteadyClock::now();
        if (now - last_sweep >= std::chrono::milliseconds(100)) {
            last_sweep = now;
            sweep(now);
        }
    }
    workers_->shutdown();  // every job has returned its connection: nothing is queued
    workers_.reset();
    ::close(epoll_);
    epoll_ = -1;
}

void HttpServer::stop_listening() {
    listening_ = false;
    const int listener = listener_.exchange(-1);
    if (listener >= 0) {
        ::epoll_ctl(epoll_, EPOLL_CTL_DEL, listener, nullptr);
        ::close(listener);
    }
    // Connections between requests end now; requests that are in or arriving are answered.
    std::vector<Connection*> idle;
    for (const auto& [key, connection] : connections_) {
        if (connection->state == Connection::State::reading && connection->reader.idle())
            idle.push_back(key);
    }
    for (Connection* connection : idle)
        close_now(*connection);
}

void HttpServer::accept_all() {
    while (true) {
        const int listener = listener_;
        if (listener < 0) return;
        const int sock = ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (sock < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                // Out of descriptors: stop watching the listener for a moment rather than spin;
                // the timeouts free descriptors.
                epoll_event event{};
                event.data.ptr = &listen_tag_;
                ::epoll_ctl(epoll_, EPOLL_CTL_MOD, listener, &event);
                listen_paused_until_ = SteadyClock::now() + std::chrono::milliseconds(100);
            }
            return;
        }
        int on = 1;
        ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        auto connection = std::make_unique<Connection>(sock, options_.limits);
        const auto address_of = [sock](auto get, std::string& ip, int& port) {
            sockaddr_storage address{};
            socklen_t length = sizeof address;
            if (get(sock, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
            char host[NI_MAXHOST];
            char service[NI_MAXSERV];
            if (::getnameinfo(reinterpret_cast<sockaddr*>(&address), length, host, sizeof host,
                              service, sizeof service, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
                ip = host;
                port = std::atoi(service);
            }
        };
        address_of(::getpeername, connection->peer.remote_ip, connection->peer.remote_port);
        address_of(::getsockname, connection->peer.local_ip, connection->peer.local_port);
        // A new connection has at least a second to begin its first request, whatever the
        // keep-alive wait between requests (which may be 0: close once idle).
        connection->deadline =
            SteadyClock::now() + std::max<std::chrono::milliseconds>(options_.keep_alive_timeout,
                                                                     std::chrono::seconds(1));
        Connection* key = connection.get();
        connections_.emplace(key, std::move(connection));
        epoll_event event{};
        event.events = EPOLLIN | EPOLLONESHOT;
        event.data.ptr = key;
        if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, sock, &event) != 0) close_now(*key);
    }
}

void HttpServer::arm(Connection& connection) const {
    epoll_event event{};
    event.events = EPOLLIN | EPOLLONESHOT;
    event.data.ptr = &connection;
    ::epoll_ctl(epoll_, EPOLL_CTL_MOD, connection.sock, &event);
}

void HttpServer::arm_for_writing(Connection& connection) const {
    epoll_event event{};
    event.events = EPOLLOUT | EPOLLONESHOT;
    event.data.ptr = &connection;
    ::epoll_ctl(epoll_, EPOLL_CTL_MOD, connection.sock, &event);
}

Sent HttpServer::flush(Connection& connection) {
    return connection.output.send(connection.sock);
}

void HttpServer::charge(Connection& connection) {
    budget_.set(
        connection.holding, connection.holding.account,
        std::max(connection.reserved, connection.reader.capacity()) + connection.output.held());
}

// While it is writing, a connection is not read: a client that sends requests without reading
// the answers is held back by its own unread bytes (and TCP's), not by the server's memory.
void HttpServer::on_writable(Connection& connection) {
    const Sent sent = flush(connection);
    charge(connection);
    switch (sent) {
        case Sent::failed:
            return close_now(connection);
        case Sent::some:
            return arm_for_writing(connection);
        case Sent::all:
            break;
    }
    if (connection.close_after_output) return linger(connection);
    connection.phase = Connection::Phase::idle;  // what comes next is timed from now
    connection.deadline = SteadyClock::now() + options_.keep_alive_timeout;
    advance(connection);
}

// A body admitted with a Content-Length is received into the room reserved for it (a read past
// it would double the buffer for its last bytes); anything else is received into `scratch` and
// only what arrived is kept, so that a connection holds the bytes it was sent, not the room a
// read offered.
void HttpServer::receive(Connection& connection, std::span<char> scratch, int reads) {
    constexpr std::size_t chunk = std::size_t{64} << 10;
    http::RequestReader& reader = connection.reader;
    for (int i = 0; i < reads && !reader.ended(); ++i) {
        const std::size_t room = reader.reading_body() && reader.capacity() > reader.buffered()
                                     ? std::min(chunk, reader.capacity() - reader.buffered())
                                     : 0;
        const std::size_t want = room > 0 ? room : scratch.size();
        ssize_t n = 0;
        if (room > 0) {
            char* into = reader.prepare(want);
            n = ::recv(connection.sock, into, want, 0);
            reader.commit(n > 0 ? static_cast<std::size_t>(n) : 0);
        } else {
            n = ::recv(connection.sock, scratch.data(), want, 0);
            if (n > 0) reader.append(std::string_view(scratch.data(), static_cast<std::size_t>(n)));
        }
        if (n > 0) {
            if (static_cast<std::size_t>(n) < want) break;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        reader.end_of_input();  // closed, or reset
    }
}

void HttpServer::on_readable(Connection& connection) {
    if (connection.state == Connection::State::lingering) {
        // Thrown away: the answer is sent, the client's side is only drained until it closes.
        std::array<char, 16384> sink{};
        for (int i = 0; i < 16; ++i) {
            const ssize_t n = ::recv(connection.sock, sink.data(), sink.size(), 0);
            if (n > 0) continue;
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
            return close_now(connection);
        }
        return arm(connection);
    }
    // At most a few reads per turn: one busy connection does not hold the loop.
    receive(connection, scratch_, 4);
    charge(connection);
    advance(connection);
}

// What the connection's buffered bytes call for: more of them, a worker, or the end.
void HttpServer::advance(Connection& connection) {
    connection.state = Connection::State::reading;
    switch (connection.reader.next()) {
        case http::RequestReader::Step::done:
            return close_now(connection);
        case http::RequestReader::Step::admit:
        case http::RequestReader::Step::request:
            connection.state = Connection::State::working;
            connection.phase = Connection::Phase::none;
            waiting_.fetch_add(1, std::memory_order_relaxed);
            workers_->enqueue([this, c = &connection] {
                waiting_.fetch_sub(1, std::memory_order_relaxed);
                busy_.fetch_add(1, std::memory_order_relaxed);
                work(*c);
                busy_.fetch_sub(1, std::memory_order_relaxed);
            });
            return;
        case http::RequestReader::Step::more:
            break;
    }
    // While the memory budget is spent, a head that is still coming and already larger than
    // most requests' whole heads is cut off; small requests, such as health checks, go on.
    if (!connection.reader.reading_body() &&
        connection.reader.buffered() > api::spent_budget_head && budget_.spent())
        return close_now(connection);
    // The deadline of what is awaited: the next request (keep-alive), the rest of a head, or
    // the rest of a body, each counted from when it began.
    const auto phase = connection.reader.idle()           ? Connection::Phase::idle
                       : connection.reader.reading_body() ? Connection::Phase::body
                                                          : Connection::Phase::head;
    if (phase != connection.phase) {
        connection.phase = phase;
        connection.deadline =
            SteadyClock::now() + (phase == Connection::Phase::idle ? options_.keep_alive_timeout
                                                                   : options_.read_timeout);
    }
    if (stopping_ && phase == Connection::Phase::idle) return close_now(connection);
    arm(connection);
}

void HttpServer::linger(Connection& connection) {
    // The answer must reach the client before the connection ends: a close() with unread bytes
    // in the socket sends a reset, which may overtake it. The write side is shut (the client
    // sees the end after the answer), then what the client still sends is read and thrown away
    // until it closes too, for at most a second.
    ::shutdown(connection.sock, SHUT_WR);
    connection.state = Connection::State::lingering;
    connection.deadline = SteadyClock::now() + std::chrono::seconds(1);
    arm(connection);
}

void HttpServer::close_now(Connection& connection) {
    ::close(connection.sock);  // also takes it out of the epoll set
    budget_.set(connection.holding, {}, 0);
    connections_.erase(&connection);
}

void HttpServer::give_back(Connection& connection, Outcome outcome) {
    {
        std::lock_guard lock(returns_mutex_);
        returns_.emplace_back(&connection, outcome);
    }
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(wake_, &one, sizeof one);
}

void HttpServer::handle_returns() {
    std::vector<std::pair<Connection*, Outcome>> returned;
    {
        std::lock_guard lock(returns_mutex_);
        returned.swap(returns_);
    }
    for (const auto& [connection, outcome] : returned) {
        charge(*connection);
        switch (outcome) {
            case Outcome::drop:
                close_now(*connection);
                break;
            case Outcome::close:
                linger(*connection);
                break;
            case Outcome::read_more:
                advance(*connection);
                break;
            case Outcome::write_then_read:
            case Outcome::write_then_close:
                // The whole of what is left must be taken within the write timeout.
                connection->state = Connection::State::writing;
                connection->close_after_output = outcome == Outcome::write_then_close;
                connection->deadline = SteadyClock::now() + options_.write_timeout;
                arm_for_writing(*connection);
                break;
        }
    }
}

void HttpServer::sweep(SteadyClock::time_point now) {
    if (listening_ && listen_paused_until_ != SteadyClock::time_point{} &&
        now >= listen_paused_until_) {
        listen_paused_until_ = {};
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.ptr = &listen_tag_;
        ::epoll_ctl(epoll_, EPOLL_CTL_MOD, listener_, &event);
    }
    std::vector<Connection*> expired;
    for (const auto& [key, connection] : connections_) {
        if (connection->state != Connection::State::working && now >= connection->deadline)
            expired.push_back(key);
    }
    // A request that did not arrive in time is not answered: the client stopped sending.
    for (Connection* connection : expired)
        close_now(*connection);
    shed_unread_answers();
    give_back_after_burst();
}

// Over the budget because clients do not read their answers: the connections with the most
// unsent bytes are closed until it is not.
void HttpServer::shed_unread_answers() {
    if (!budget_.over()) return;
    std::vector<Connection*> writing;
    for (const auto& [key, connection] : connections_) {
        if (connection->state == Connection::State::writing && connection->output.held() > 0)
            writing.push_back(key);
    }
    std::sort(writing.begin(), writing.end(), [](const Connection* a, const Connection* b) {
        return a->output.held() > b->output.held();
    });
    for (Connection* connection : writing) {
        if (!budget_.over()) break;
        close_now(*connection);
    }
}

// Once what connections hold has fallen well below its peak since the last time (a burst of
// connections, heads or bodies is over), the heap's free pages go back to the system.
void HttpServer::give_back_after_burst() {
    constexpr std::size_t worth_it = std::size_t{4} << 20;
    const std::size_t held = budget_.used();
    held_peak_ = std::max(held_peak_, held);
    const auto now = SteadyClock::now();
    // Also once the burst is over (what connections hold is back under worth_it): the last
    // megabytes freed after the previous trim go back too.
    const bool fell = held_peak_ >= held + worth_it;
    const bool settled = held < worth_it && held_peak_ > held + (std::size_t{256} << 10);
    if ((fell || settled) && now - last_trim_ >= std::chrono::seconds(1)) {
        give_back_memory();
        held_peak_ = held;
        last_trim_ = now;
    }
}

bool HttpServer::answer(http::RequestReader& reader, const Peer& peer, std::size_t served,
                        std::size_t max_requests, std::optional<KeyRecord> admitted,
                        bool memory_refused, http::Output& output, Connection* connection) {
    RequestContext context;
    if (connection != nullptr) {
        // The decoded body in place of the bytes as sent: what the connection holds besides.
        context.hold_body = [this, connection](std::string_view account, std::size_t bytes) {
            const bool held =
                budget_.try_set(connection->holding, account,
                                std::max(connection->reserved, connection->reader.capacity()) +
                                    connection->output.held() + bytes);
            if (!held && options_.memory_refused) options_.memory_refused();
            return held;
        };
    }
    context.refusal = reader.refusal();
    context.body = memory_refused ? http::BodyStatus::no_memory : reader.body();
    context.admitted = std::move(admitted);
    httplib::Request& request = reader.head();
    request.remote_addr = peer.remote_ip;
    request.remote_port = peer.remote_port;
    request.local_addr = peer.local_ip;
    request.local_port = peer.local_port;
    // The client asks to end the connection after this answer (RFC 9112 section 9.3): an
    // HTTP/1.1 request with the option `close`, an HTTP/1.0 one without `keep-alive`.
    const bool client_closes =
        http::has_connection_option(request, "close") ||
        (request.version == "HTTP/1.0" && !http::has_connection_option(request, "keep-alive"));
    httplib::Response response;
    options_.handle(context, request, response);
    const bool last =
        reader.last() || stopping_ || served + 1 >= max_requests || client_closes || context.close;
    http::write_response(
        output, request, response,
        {last, std::chrono::duration_cast<std::chrono::seconds>(options_.keep_alive_timeout),
         options_.max_requests});
    output.append(std::move(context.source));
    options_.finish(context, request, response);
    return !last;
}

void HttpServer::work(Connection& connection) {
    http::RequestReader& reader = connection.reader;
    // The request in the reader was read by this thread just now, not queued for a worker.
    bool just_read = false;
    while (true) {
        switch (reader.next()) {
            case http::RequestReader::Step::more:
                return give_back(connection, Outcome::read_more);
            case http::RequestReader::Step::done:
                return give_back(connection, Outcome::close);
            case http::RequestReader::Step::admit: {
                const httplib::Request& head = reader.head();
                auto admission = options_.admit(head);
                if (!admission) {
                    reader.refuse();
                    continue;
                }
                // The body is reserved in the memory budget before it is read: its
                // Content-Length, or for a chunked body its route's limit. When the budget, or
                // the account's share of it, cannot take it now, it is not read: 503.
                const std::size_t length = http::header_u64(head.headers, "Content-Length");
                const std::size_t body = length > 0 ? length : admission->max_body;
                const std::string account =
                    admission->key ? std::string(admission->key->account_id.view()) : "";
                const std::size_t reserve = reader.head_size() + body;
                if (!budget_.try_set(connection.holding, account,
                                     std::max(reserve, connection.reader.capacity()) +
                                         connection.output.held())) {
                    connection.memory_refused = true;
                    if (options_.memory_refused) options_.memory_refused();
                    reader.refuse();
                    continue;
                }
                connection.reserved = reserve;
                reader.admit(admission->max_body);
                connection.admitted = std::move(admission->key);
                if (expects_continue(head)) {
                    connection.output.append("HTTP/1.1 100 Continue\r\n\r\n");
                    switch (flush(connection)) {
                        case Sent::failed:
                            return give_back(connection, Outcome::close);
                        case Sent::some:
                            return give_back(connection, Outcome::write_then_read);
                        case Sent::all:
                            break;
                    }
                }
                continue;
            }
            case http::RequestReader::Step::request:
                break;
        }
        // A request whose client has gone is not processed (a handler that has begun finishes);
        // a head the parser refused is still answered, which costs nothing.
        if (reader.refusal().status == 0 &&
            (reader.ended() || (!just_read && peer_gone(connection.sock)))) {
            if (options_.abandoned) options_.abandoned();
            return give_back(connection, Outcome::drop);
        }
        const std::size_t size = reader.raw_size();
        const bool goes_on =
            answer(reader, connection.peer, connection.served++, options_.max_requests,
                   std::exchange(connection.admitted, std::nullopt),
                   std::exchange(connection.memory_refused, false), connection.output, &connection);
        reader.consume();
        connection.reserved = 0;
        charge(connection);  // the decoded body, if it was charged, is gone
        if (size > give_back_after) give_back_memory();
        switch (flush(connection)) {
            case Sent::failed:
                return give_back(connection, Outcome::close);
            case Sent::some:
                return give_back(connection,
                                 goes_on ? Outcome::write_then_read : Outcome::write_then_close);
            case Sent::all:
                break;
        }
        if (!goes_on) return give_back(connection, Outcome::close);
        just_read = reader.idle() && keep_reading(connection);
        if (!just_read) return give_back(connection, Outcome::read_more);
    }
}

// A client that sends its next request as soon as it has the answer (most keep-alive clients
// under load) would otherwise cost three thread wake-ups per request: the event loop's twice, to
// arm the connection again and to read the request, and a worker's, to answer it. Waiting here
// costs one. The wait is short and only taken while no connection waits for a worker and
// another worker is free: a connection kept this way never holds back another's.
bool HttpServer::keep_reading(Connection& connection) {
    if (options_.next_request_wait.count() <= 0 || stopping_ ||
        waiting_.load(std::memory_order_relaxed) > 0 ||
        busy_.load(std::memory_order_relaxed) >= options_.threads)
        return false;
    pollfd ready{connection.sock, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(options_.next_request_wait.count())) <= 0) return false;
    // What a head and a small body take; the event loop reads the rest of a larger request.
    std::array<char, std::size_t{16} << 10> scratch;
    receive(connection, scratch, 1);
    charge(connection);
    return true;
}

std::vector<collectcall::server::Server::Exchange> HttpServer::serve_input(
    std::string_view bytes, std::size_t max_requests) {
    std::vector<collectcall::server::Server::Exchange> exchanges;
    http::RequestReader reader(options_.limits);
    reader.append(bytes);
    reader.end_of_input();
    std::size_t start = 0;
    std::optional<KeyRecord> admitted;
    for (std::size_t served = 0; served < max_requests;) {
        const auto step = reader.next();
        if (step == http::RequestReader::Step::done || step == http::RequestReader::Step::more)
            break;
        if (step == http::RequestReader::Step::admit) {
            auto admission = options_.admit(reader.head());
            if (admission) {
                reader.admit(admission->max_body);
                admitted = std::move(admission->key);
            } else {
                reader.refuse();
            }
            continue;
        }
        // A client without a socket gets the interim answer its Expect asks for in its output
        // (over a socket, the event loop sends it when it admits the body).
        http::Output output;
        if (expects_continue(reader.head())) output.append("HTTP/1.1 100 Continue\r\n\r\n");
        static const Peer loopback{"127.0.0.1", 0, "127.0.0.1", 0};
        const bool goes_on =
            answer(reader, loopback, served++, std::min(options_.max_requests, max_requests),
                   std::exchange(admitted, std::nullopt), false, output, nullptr);
        std::string response = output.take_all();
        if (!response.empty())
            exchanges.push_back(collectcall::server::Server::Exchange{
                bytes.substr(start, reader.raw_size()), std::move(response)});
        start += reader.raw_size();
        reader.consume();
        if (!goes_on) break;
    }
    return exchanges;
}

}  // namespace collectcall::server
