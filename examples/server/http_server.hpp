// The server's HTTP transport: an event loop (epoll, one thread) that accepts connections and
// reads their requests (request_reader.hpp), and worker threads that answer whole requests
// through cpp-httplib and the API (api.hpp), sending what the socket takes and handing the rest
// back to the loop (output.hpp). server.cpp composes it with the stores, the API and the jobs.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <httplib.h>

#include <collectcall/api/limits.hpp>

#include "api.hpp"
#include "output.hpp"
#include "request_reader.hpp"
#include "server.hpp"
#include "store.hpp"

namespace collectcall::server {

// This server reads and parses the requests (request_reader.hpp); cpp-httplib answers them, on
// the canonical form of the parse, through the API's handlers. An event loop (epoll, one
// thread) accepts connections and reads their bytes into a RequestReader; a worker thread gets a
// connection only when it has a whole request (or one to answer from its head alone), or to
// decide from a head whether its body may come (the bearer key, a store lookup). Idle, slow and
// half-sent connections cost a file descriptor and their buffered bytes, never a thread.
class HttpServer final : public httplib::Server {
  public:
    struct Options {
        std::size_t threads = 16;
        std::chrono::milliseconds read_timeout{10'000};
        std::chrono::milliseconds keep_alive_timeout{5'000};
        std::chrono::milliseconds write_timeout{10'000};
        http::RequestReader::Limits limits;
        std::function<std::optional<Api::Admission>(const httplib::Request&)> admit;
        // Registers the API's routes and hooks on a responder (Api::install): `current` points
        // to the context of the request the responder processes.
        std::function<void(httplib::Server& responder, RequestContext* const& current)> install;
        // The memory all connections may hold (ServerOptions::memory_budget).
        std::size_t memory_budget = api::default_memory_budget;
        // Told of each request not processed because its client had gone, and of each body
        // refused for want of memory.
        std::function<void()> abandoned;
        std::function<void()> memory_refused;
    };

    explicit HttpServer(Options options);
    ~HttpServer() override;

    // cpp-httplib 0.11 listens with a backlog of 5, compiled into the library; a burst of
    // clients connecting at once would wait for SYN retries. The listening socket is protected
    // state.
    void widen_backlog();
    // A socket bound but never served is not closed by cpp-httplib.
    void close_unserved();

    // Serves until stop(): then accepts no more, closes idle connections, finishes the requests
    // that are in (or arriving, within the read timeout), and returns.
    void serve();
    // Any thread, before or during serve().
    void stop();

    // serve_bytes: one connection's input, answered as the event loop and its workers answer a
    // socket's.
    std::vector<collectcall::server::Server::Exchange> serve_input(std::string_view bytes,
                                                                   std::size_t max_requests);

    [[nodiscard]] std::size_t memory_held() const { return budget_.used(); }

  private:
    // An account's share of the budget: a part of it, and at least one body of the largest
    // size with its head (when the budget has that much).
    static std::size_t account_share(const Options& options) {
        const std::size_t one_body = options.limits.max_body + options.limits.max_head;
        return std::min(options.memory_budget,
                        std::max(options.memory_budget / api::memory_share_divisor, one_body));
    }

    // One client's connection: its reader, its unsent answers, what it holds of the budget.
    struct Connection;
    // What processes one request through cpp-httplib and the API's hooks (http_server.cpp).
    class Responder;
    // A responder for one request: an idle one, or a new one when every one is busy (at most
    // as many as requests are processed at once: the workers, and serve_bytes' callers).
    std::unique_ptr<Responder> borrow_responder();
    void return_responder(std::unique_ptr<Responder> responder);
    // What a worker hands back: read on, or close; either after the event loop has sent the
    // output the socket did not take at once.
    // drop: the client has gone; the connection is closed at once.
    enum class Outcome { read_more, close, drop, write_then_read, write_then_close };

    void accept_all();
    void on_readable(Connection& connection);
    void advance(Connection& connection);
    void arm(Connection& connection) const;
    void arm_for_writing(Connection& connection) const;
    void on_writable(Connection& connection);
    // On a worker thread: what of the connection's output the socket takes now; false when some
    // is left for the event loop.
    static http::Sent flush(Connection& connection);
    void linger(Connection& connection);
    void close_now(Connection& connection);
    // What the connection holds now, charged to the budget (by whoever has the connection).
    void charge(Connection& connection);
    void handle_returns();
    void sweep(std::chrono::steady_clock::time_point now);
    void shed_unread_answers();
    void give_back_after_burst();
    void stop_listening();
    // On a worker thread: admits and answers the connection's requests while they are whole.
    void work(Connection& connection);
    void give_back(Connection& connection, Outcome outcome);
    // One request through cpp-httplib; false when the connection ends after it.
    // The last of `max_requests` is answered with Connection: close.
    // `admitted`: the key the request's head was admitted with, if it was; `memory_refused`:
    // its body was not read for want of memory (503). `source` gets a body the answer sends
    // after its head (output.hpp), if any.
    bool answer(httplib::Stream& stream, http::RequestReader& reader, std::size_t served,
                std::size_t max_requests, std::optional<KeyRecord> admitted, bool memory_refused,
                std::shared_ptr<const http::BodySource>& source);

    Options options_;
    http::MemoryBudget budget_;
    // The most connections held since memory was last given back to the system, and when.
    std::size_t held_peak_ = 0;
    std::chrono::steady_clock::time_point last_trim_{};
    // What the event loop receives into before a connection keeps it.
    std::array<char, std::size_t{64} << 10> scratch_{};
    int wake_ = -1;
    int epoll_ = -1;
    std::atomic<bool> stopping_{false};
    bool listening_ = false;
    std::chrono::steady_clock::time_point listen_paused_until_{};
    std::unordered_map<Connection*, std::unique_ptr<Connection>> connections_;
    std::unique_ptr<httplib::ThreadPool> workers_;
    std::mutex responders_mutex_;
    std::vector<std::unique_ptr<Responder>> idle_responders_;
    std::mutex returns_mutex_;
    std::vector<std::pair<Connection*, Outcome>> returns_;
    char listen_tag_ = 0;
    char wake_tag_ = 0;
};

}  // namespace collectcall::server
