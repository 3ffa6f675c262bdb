#include "server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <utility>

#include <httplib.h>

#include "http.hpp"
#include "postgres.hpp"
#include "postgres_store.hpp"
#include "simulated_dialer.hpp"
#include "sqlite_store.hpp"

namespace collectcall::server {

namespace {

// One accepted connection. Its read buffer lives as long as the connection, so that bytes one
// read brought in past the end of a request are the start of the next one (cpp-httplib 0.11.4
// makes a stream per request and drops them: requests pipelined into one segment were lost).
// Every read and write waits at most its timeout.
class ConnectionStream final : public httplib::Stream {
  public:
    ConnectionStream(socket_t sock, std::chrono::milliseconds read_timeout,
                     std::chrono::milliseconds write_timeout)
        : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

    bool is_readable() const override { return buffered() || wait(POLLIN, read_timeout_); }
    bool is_writable() const override { return wait(POLLOUT, write_timeout_); }

    ssize_t read(char* ptr, size_t size) override {
        if (!buffered()) {
            if (!wait(POLLIN, read_timeout_)) return -1;
            ssize_t n = 0;
            do {
                n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
            } while (n < 0 && errno == EINTR);
            if (n <= 0) return n;
            begin_ = 0;
            end_ = static_cast<std::size_t>(n);
        }
        const std::size_t n = std::min(size, end_ - begin_);
        std::copy_n(buffer_.data() + begin_, n, ptr);
        begin_ += n;
        return static_cast<ssize_t>(n);
    }

    // All of it, or -1: cpp-httplib writes a whole response body with one call.
    ssize_t write(const char* ptr, size_t size) override {
        std::size_t sent = 0;
        while (sent < size) {
            if (!wait(POLLOUT, write_timeout_)) return -1;
            const ssize_t n = ::send(sock_, ptr + sent, size - sent, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return -1;
            sent += static_cast<std::size_t>(n);
        }
        return static_cast<ssize_t>(size);
    }

    void get_remote_ip_and_port(std::string& ip, int& port) const override {
        address_of(::getpeername, ip, port);
    }
    void get_local_ip_and_port(std::string& ip, int& port) const override {
        address_of(::getsockname, ip, port);
    }
    socket_t socket() const override { return sock_; }

    // Waits up to `timeout` for the next request to begin (its first bytes, or the end of the
    // connection, which the next read reports), checking `stopping` every 100 ms.
    template <class Stopping>
    bool wait_for_request(std::chrono::milliseconds timeout, const Stopping& stopping) const {
        if (buffered()) return true;
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!stopping()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            if (wait(POLLIN, std::min(left, std::chrono::milliseconds(100)))) return true;
        }
        return false;
    }

  private:
    [[nodiscard]] bool buffered() const noexcept { return begin_ < end_; }

    bool wait(short events, std::chrono::milliseconds timeout) const {
        pollfd entry{sock_, events, 0};
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            const int rc =
                ::poll(&entry, 1, static_cast<int>(std::max<long long>(0, left.count())));
            if (rc > 0) return true;  // ready, or an error or hang-up the next call reports
            if (rc == 0 || errno != EINTR) return false;
        }
    }

    template <class Get>
    void address_of(Get get, std::string& ip, int& port) const {
        sockaddr_storage address{};
        socklen_t length = sizeof address;
        ip.clear();
        port = 0;
        if (get(sock_, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
        char host[NI_MAXHOST];
        char service[NI_MAXSERV];
        if (::getnameinfo(reinterpret_cast<sockaddr*>(&address), length, host, sizeof host, service,
                          sizeof service, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
            ip = host;
            port = std::atoi(service);
        }
    }

    socket_t sock_;
    std::chrono::milliseconds read_timeout_;
    std::chrono::milliseconds write_timeout_;
    std::array<char, 4096> buffer_{};
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
};

// A connection whose client sent `input` and then nothing more (serve_bytes); what the server
// writes is collected. cpp-httplib reads a request head byte by byte and a body by its framing,
// so after one request the position is the start of the next.
class MemoryStream final : public httplib::Stream {
  public:
    explicit MemoryStream(std::string_view input) : input_(input) {}

    bool is_readable() const override { return position_ < input_.size(); }
    bool is_writable() const override { return true; }
    ssize_t read(char* ptr, size_t size) override {
        const std::size_t n = std::min(size, input_.size() - position_);
        std::copy_n(input_.data() + position_, n, ptr);
        position_ += n;
        return static_cast<ssize_t>(n);  // 0: the client sends nothing more
    }
    ssize_t write(const char* ptr, size_t size) override {
        output_.append(ptr, size);
        return static_cast<ssize_t>(size);
    }
    void get_remote_ip_and_port(std::string& ip, int& port) const override {
        ip = "127.0.0.1";
        port = 0;
    }
    void get_local_ip_and_port(std::string& ip, int& port) const override {
        ip = "127.0.0.1";
        port = 0;
    }
    socket_t socket() const override { return INVALID_SOCKET; }

    [[nodiscard]] std::size_t position() const noexcept { return position_; }
    [[nodiscard]] std::string take_output() { return std::exchange(output_, {}); }

  private:
    std::string_view input_;
    std::size_t position_ = 0;
    std::string output_;
};

class HttpServer final : public httplib::Server {
  public:
    // cpp-httplib 0.11 listens with a backlog of 5, compiled into the library; a burst of
    // clients connecting at once would wait for SYN retries. The listening socket is protected
    // state.
    void widen_backlog() {
        ::listen(svr_sock_, SOMAXCONN);
        // cpp-httplib gives every accepted connection a worker thread until its first request
        // arrives (up to the keep-alive timeout): idle connections would queue real requests
        // behind them. Linux hands a connection to accept() only once it has sent data (or
        // after this many seconds).
        int defer_seconds = 10;
        ::setsockopt(svr_sock_, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_seconds,
                     sizeof defer_seconds);
    }
    // A socket bound but never served is not closed by cpp-httplib.
    void close_unserved() {
        const auto sock = svr_sock_.exchange(INVALID_SOCKET);
        if (sock != INVALID_SOCKET) ::close(sock);
    }

    // The requests of one connection, one after the other, for as long as it is kept alive.
    // `next_request()` says whether another one begins; the loop ends when it says no, when a
    // response ends the connection (the request asked for it, or the server did:
    // http::close_connection), when a response could not be written, or after `max_requests`
    // (the last is answered with Connection: close). `answered()` runs after each response.
    // True when it ended on a response: the client may still be sending.
    template <class NextRequest, class Answered>
    bool serve_connection(httplib::Stream& stream, std::size_t max_requests,
                          const NextRequest& next_request, const Answered& answered) {
        for (std::size_t served = 0; served < max_requests; ++served) {
            if (!next_request()) return false;
            (void)http::take_close_connection();  // nothing asked of this request yet
            bool request_closes = false;
            const bool written =
                process_request(stream, served + 1 == max_requests, request_closes, nullptr);
            answered();
            const bool server_closes = http::take_close_connection();
            if (!written || request_closes || server_closes) return true;
        }
        return true;
    }

  private:
    // Each accepted connection, on its worker thread: cpp-httplib's own loop (0.11.4) reads on
    // after a response with Connection: close (the rest of a body the server did not read was
    // then served as a request) and loses requests pipelined into one segment.
    bool process_and_close_socket(socket_t sock) override {
        const auto milliseconds = [](time_t sec, time_t usec) {
            return std::chrono::milliseconds(sec * 1000 + usec / 1000);
        };
        ConnectionStream stream(sock, milliseconds(read_timeout_sec_, read_timeout_usec_),
                                milliseconds(write_timeout_sec_, write_timeout_usec_));
        const auto keep_alive = std::chrono::seconds(keep_alive_timeout_sec_);
        // stop() closes the listening socket: a kept-alive connection ends before its next
        // request.
        const auto stopping = [this] { return svr_sock_ == INVALID_SOCKET; };
        const bool ended_on_response = serve_connection(
            stream, keep_alive_max_count_,
            [&] { return !stopping() && stream.wait_for_request(keep_alive, stopping); }, [] {});
        if (ended_on_response) {
            close_lingering(sock);
        } else {
            ::shutdown(sock, SHUT_RDWR);
            ::close(sock);
        }
        return true;
    }

    // Closes a connection whose client may still be sending (the rest of a body the server did
    // not read, requests after the last one served) without destroying the last response: a
    // close() with unread bytes in the socket sends a reset, and a reset may overtake response
    // bytes still on their way. The write side is shut first (the client sees the end of the
    // stream after the response), then what the client sends is read and thrown away until it
    // closes too, for at most a second.
    static void close_lingering(socket_t sock) {
        ::shutdown(sock, SHUT_WR);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        std::array<char, 4096> sink{};
        while (true) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) break;
            pollfd entry{sock, POLLIN, 0};
            const int ready = ::poll(&entry, 1, static_cast<int>(left.count()));
            if (ready < 0 && errno == EINTR) continue;
            if (ready <= 0) break;
            const ssize_t n = ::recv(sock, sink.data(), sink.size(), 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
        }
        ::close(sock);
    }
};

std::unique_ptr<Store> open_store(const ServerOptions& options) {
    if (pg::is_uri(options.db_path)) {
        auto store = std::make_unique<PostgresStore>(postgres_options(options));
        // Requests in flight in another process are that process's: nothing to forget here
        // (keys of a process that died expire on their own).
        store->start_heartbeat();
        return store;
    }
    auto store =
        std::make_unique<SqliteStore>(SqliteOptions{options.db_path, options.busy_timeout_ms});
    store->forget_requests_in_flight();
    return store;
}

std::unique_ptr<WebhookOutbox> open_outbox(const ServerOptions& options) {
    if (pg::is_uri(options.db_path)) {
        PostgresOptions postgres = postgres_options(options);
        postgres.pool_size = options.webhook_workers + 2;
        return open_postgres_outbox(postgres);
    }
    return std::make_unique<SqliteWebhookOutbox>(
        SqliteOptions{options.db_path, options.busy_timeout_ms});
}

DeliveryOptions delivery_options(const ServerOptions& options) {
    DeliveryOptions delivery;
    delivery.allow_private = options.api.allow_private_webhooks;
    delivery.backoff_scale = options.webhook_backoff_scale;
    delivery.workers = options.webhook_workers;
    delivery.ca_file = options.webhook_ca_file;
    delivery.timeout = options.webhook_timeout;
    delivery.log = options.api.access_log;
    return delivery;
}

ApiConfig with_metrics(ApiConfig config, Metrics& metrics) {
    config.metrics = &metrics;
    return config;
}

std::size_t worker_count(std::size_t requested) {
    if (requested != 0) return requested;
    // cpp-httplib gives a connection its thread for as long as it is kept alive, and requests
    // mostly wait on SQLite's fsync: several threads per core.
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    return std::max<std::size_t>(16, 4 * cores);
}

}  // namespace

PostgresOptions postgres_options(const ServerOptions& options) {
    PostgresOptions postgres;
    postgres.uri = options.db_path;
    // A connection for each worker thread, the dialer and the heartbeat.
    postgres.pool_size = worker_count(options.threads) + 4;
    postgres.lease = options.lease;
    return postgres;
}

Server::Server(ServerOptions options, std::unique_ptr<Store> store)
    : options_(std::move(options)),
      metrics_(std::make_unique<Metrics>()),
      store_(metered(store ? std::move(store) : open_store(options_), *metrics_)),
      clock_(options_.now),
      outbox_(metered(open_outbox(options_), *metrics_)),
      delivery_(std::make_unique<WebhookDelivery>(*outbox_, delivery_options(options_))),
      dialer_(std::make_unique<SimulatedDialer>(
          *store_, clock_, std::chrono::milliseconds{options_.call_step_ms},
          [delivery = delivery_.get()] { delivery->notify(); }, options_.api.access_log)),
      limiter_(options_.rate_limit),
      shared_limits_(pg::is_uri(options_.db_path) && limiter_.enabled()
                         ? std::make_unique<SharedRateLimits>(postgres_options(options_), limiter_)
                         : nullptr),
      api_(*store_, clock_, *dialer_, limiter_, with_metrics(options_.api, *metrics_)),
      threads_(worker_count(options_.threads)),
      http_(std::make_unique<HttpServer>()) {
    httplib::Server& http = *http_;
    const std::size_t threads = threads_;
    http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    http.set_tcp_nodelay(true);
    http.set_keep_alive_max_count(1000);
    http.set_keep_alive_timeout(options_.keep_alive_timeout.count());
    http.set_read_timeout(options_.read_timeout.count());
    http.set_write_timeout(10);
    // cpp-httplib's own check (Content-Length only); the API enforces the real limits.
    http.set_payload_max_length(options_.api.drain_limit);
    api_.install(http);

    // Calls move and webhooks go out from here on, including what an earlier process left
    // pending.
    delivery_->start();
    dialer_->start(store_->calls_in_progress());
}

Server::~Server() {
    stop();
    static_cast<HttpServer&>(*http_).close_unserved();
    dialer_->stop();
    delivery_->stop();
}

int Server::bind() {
    int port = options_.port;
    if (port == 0) {
        port = http_->bind_to_any_port(options_.host);
        if (port < 0) port = 0;
    } else if (!http_->bind_to_port(options_.host, port)) {
        port = 0;
    }
    if (port == 0) {
        throw std::runtime_error("cannot listen on " + options_.host + ":" +
                                 std::to_string(options_.port));
    }
    static_cast<HttpServer&>(*http_).widen_backlog();
    return port;
}

void Server::run() {
    running_ = true;
    if (!stopping_) http_->listen_after_bind();
    running_ = false;
}

std::vector<Server::Exchange> Server::serve_bytes(std::string_view bytes,
                                                  std::size_t max_requests) {
    MemoryStream stream(bytes);
    std::vector<Exchange> exchanges;
    std::size_t start = 0;
    static_cast<HttpServer&>(*http_).serve_connection(
        stream, max_requests,
        [&] {
            start = stream.position();
            return stream.is_readable();
        },
        [&] {
            std::string response = stream.take_output();
            if (response.empty()) return;  // the end of the input: no request
            exchanges.push_back(
                Exchange{bytes.substr(start, stream.position() - start), std::move(response)});
        });
    return exchanges;
}

void Server::stop() {
    // cpp-httplib ignores stop() until its accept loop runs: wait for it rather than lose the
    // request (a signal may come while the server is starting).
    stopping_ = true;
    while (running_ && !http_->is_running())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (http_->is_running()) http_->stop();
}

}  // namespace collectcall::server
