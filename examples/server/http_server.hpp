// The server's HTTP transport: an event loop (epoll, one thread) that accepts connections and
// reads their requests (request_reader.hpp), and worker threads that answer whole requests
// through the API (api.hpp), writing the answers (output.hpp), sending what the socket takes and
// handing the rest back to the loop. server.cpp composes it with the stores, the API and the
// jobs.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
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

// This server reads and parses the requests (request_reader.hpp), has the API answer them
// (Api::handle: one entrance for every method, with the request's context as an argument) and
// writes the answers (output.hpp). An event loop (epoll, one thread) accepts connections and
// reads their bytes into a RequestReader; a worker thread gets a connection only when it has a
// whole request (or one to answer from its head alone), or to decide from a head whether its
// body may come (the bearer key, a store lookup). Idle, slow and half-sent connections cost a
// file descriptor and their buffered bytes, never a thread.
class HttpServer final {
  public:
    struct Options {
        std::size_t threads = 16;
        std::chrono::milliseconds read_timeout{10'000};
        std::chrono::milliseconds keep_alive_timeout{5'000};
        std::chrono::milliseconds write_timeout{10'000};
        http::RequestReader::Limits limits;
        // The most requests one connection may send; the last is answered with
        // `Connection: close`.
        std::size_t max_requests = 1000;
        // After an answer is sent whole, how long the worker waits for the connection's next
        // request before handing the connection back to the event loop (0: at once). Only while
        // no connection waits for a worker and another worker is free (HttpServer::keep_reading).
        std::chrono::milliseconds next_request_wait{1};
        std::function<std::optional<Api::Admission>(const httplib::Request&)> admit;
        // Answers a request (Api::handle), and is told when its answer is written (Api::finish).
        std::function<void(RequestContext&, httplib::Request&, httplib::Response&)> handle;
        std::function<void(const RequestContext&, const httplib::Request&,
                           const httplib::Response&)>
            finish;
        // The memory all connections may hold (ServerOptions::memory_budget).
        std::size_t memory_budget = api::default_memory_budget;
        // Told of each request not processed because its client had gone, and of each body
        // refused for want of memory.
        std::function<void()> abandoned;
        std::function<void()> memory_refused;
    };

    explicit HttpServer(Options options);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds the listening socket to `host` (an address or a name) and `port` (0: a free one);
    // returns the port, or 0 when it cannot. It listens with the system's largest backlog: a
    // burst of clients connecting at once does not wait for SYN retries.
    int bind(const std::string& host, int port);
    // Closes a socket bound but never served.
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
    // Who is at either end of a connection, for the request's remote_addr and local_addr.
    struct Peer {
        std::string remote_ip;
        int remote_port = 0;
        std::string local_ip;
        int local_port = 0;
    };
    // What a worker hands back: read on, or close; either after the event loop has sent the
    // output the socket did not take at once.
    // drop: the client has gone; the connection is closed at once.
    enum class Outcome { read_more, close, drop, write_then_read, write_then_close };

    void accept_all();
    void on_readable(Connection& connection);
    // Receives what the connection's socket has into its reader, in at most `reads` calls
    // (through `scratch` unless into a body's reserved room); the end of input when the client
    // closed or reset it. By whoever has the connection.
    static void receive(Connection& connection, std::span<char> scratch, int reads);
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
    // On a worker thread, after an answer sent whole with nothing more buffered: waits up to
    // next_request_wait for the connection's next bytes and reads them; false when none came.
    bool keep_reading(Connection& connection);
    // Answers the reader's request into `output` (its head, its body, and a body sent by
    // reference after them); false when the connection ends after it. The last of
    // `max_requests` is answered with Connection: close. `admitted`: the key the request's head
    // was admitted with, if it was; `memory_refused`: its body was not read for want of memory
    // (503). `connection`: the connection the body's decoding is charged to (none for
    // serve_bytes).
    bool answer(http::RequestReader& reader, const Peer& peer, std::size_t served,
                std::size_t max_requests, std::optional<KeyRecord> admitted, bool memory_refused,
                http::Output& output, Connection* connection);

    Options options_;
    http::MemoryBudget budget_;
    // The most connections held since memory was last given back to the system, and when.
    std::size_t held_peak_ = 0;
    std::chrono::steady_clock::time_point last_trim_{};
    // What the event loop receives into before a connection keeps it.
    std::array<char, std::size_t{64} << 10> scratch_{};
    std::atomic<int> listener_{-1};
    int wake_ = -1;
    int epoll_ = -1;
    std::atomic<bool> stopping_{false};
    bool listening_ = false;
    std::chrono::steady_clock::time_point listen_paused_until_{};
    std::unordered_map<Connection*, std::unique_ptr<Connection>> connections_;
    std::unique_ptr<httplib::ThreadPool> workers_;
    // Connections waiting for a worker; workers that have a connection.
    std::atomic<std::size_t> waiting_{0};
    std::atomic<std::size_t> busy_{0};
    std::mutex returns_mutex_;
    std::vector<std::pair<Connection*, Outcome>> returns_;
    char listen_tag_ = 0;
    char wake_tag_ = 0;
};

}  // namespace collectcall::server
