// The webhook outbox: the messages still to deliver, kept in the database next to the calls
// they are about (API.md section 9).
//
// A message is enqueued in the transaction that records its event (see migration 2 in
// sqlite_store.cpp), so an acknowledged call always has its messages, and they survive any
// stop of the process, SIGKILL included. A message leaves the pending state only when a
// receiver answered 2xx (delivered) or its retries are used up (failed): delivery is at least
// once, and a message whose 2xx was received but not yet recorded goes out again after a
// restart, with the same webhook-id for the receiver to dedupe on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite.hpp"
#include "sqlite_store.hpp"

namespace collectcall::server {

// The first pending message of one call: only it may be delivered now (in order per call).
struct OutboxHead {
    std::int64_t seq = 0;
    std::string call_id;
    std::string url;
    std::int64_t next_attempt_ms = 0;  // Unix time in milliseconds, of the real clock
};

// A message ready to send: the signed body is built from the stored event and call.
struct OutboxMessage {
    std::int64_t seq = 0;
    std::string message_id;  // webhook-id, the same on every attempt
    std::string url;
    std::optional<std::string> secret;  // whsec_...; nullopt if the secret is gone
    std::string body;
    int attempts = 0;  // made so far
};

class WebhookOutbox {
  public:
    virtual ~WebhookOutbox() = default;

    // The first pending message of each call, the soonest due first, at most `limit`.
    virtual std::vector<OutboxHead> heads(std::size_t limit) = 0;
    // The message with its body; nullopt when it is no longer pending.
    virtual std::optional<OutboxMessage> load(std::int64_t seq) = 0;
    // A receiver accepted it.
    virtual void delivered(std::int64_t seq, std::int64_t now_ms) = 0;
    // An attempt failed: try again at `next_attempt_ms`, or give up when nullopt.
    virtual void failed(std::int64_t seq, std::optional<std::int64_t> next_attempt_ms,
                        std::string_view error, std::int64_t now_ms) = 0;
    // How many messages are still to deliver (the metrics' outbox depth); negative: unknown.
    virtual std::int64_t pending() { return -1; }
};

// The outbox in the server's SQLite database, on a connection of its own. The file must have
// been opened (and so migrated) by SqliteStore first.
class SqliteWebhookOutbox final : public WebhookOutbox {
  public:
    explicit SqliteWebhookOutbox(const SqliteOptions& options);

    std::vector<OutboxHead> heads(std::size_t limit) override;
    std::optional<OutboxMessage> load(std::int64_t seq) override;
    void delivered(std::int64_t seq, std::int64_t now_ms) override;
    void failed(std::int64_t seq, std::optional<std::int64_t> next_attempt_ms,
                std::string_view error, std::int64_t now_ms) override;
    std::int64_t pending() override;

  private:
    std::mutex mutex_;  // one connection, used by one thread at a time
    sqlite::Connection db_;
};

}  // namespace collectcall::server
