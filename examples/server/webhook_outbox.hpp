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
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webhook_body.hpp"

namespace collectcall::server {

// Schema version 3 of both stores (SQLite and PostgreSQL read it alike): attempts recorded before
// they are made (`unfinished`: begun and never finished, so that a message whose attempts keep
// dying with the process is parked), and the indexes the retention sweep looks rows up by.
inline constexpr const char* outbox_attempts_migration = R"sql(
ALTER TABLE webhook_outbox ADD COLUMN unfinished INTEGER NOT NULL DEFAULT 0;
CREATE INDEX webhook_outbox_done ON webhook_outbox (done_ms) WHERE state <> 'pending';
CREATE INDEX call_events_created ON call_events (created_at);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_ms);
)sql";

// The first pending message of one call that is due: only it may be delivered now (in order
// per call).
struct OutboxHead {
    std::int64_t seq = 0;
    std::string call_id;
    std::string url;
    std::int64_t next_attempt_ms = 0;  // Unix time in milliseconds, of the real clock
    std::string account_id;
    int unfinished = 0;  // attempts that began and never finished (the process died in them)
};

// A message ready to send: the signed body is built from the stored event and call.
struct OutboxMessage {
    std::int64_t seq = 0;
    std::string message_id;  // webhook-id, the same on every attempt
    std::string url;
    // The secret's text; nullopt: the delivery goes out unsigned (the call's webhook had no
    // secretId), unless secret_lost.
    std::optional<std::string> secret;
    bool secret_lost = false;  // the webhook named a secret that is no longer there
    std::string body;
    int attempts = 0;  // made so far
};

class WebhookOutbox {
  public:
    virtual ~WebhookOutbox() = default;

    // The due heads (first pending message of each call, due at `now_ms`) a fair pick chooses
    // from (webhook::fair_order): at most `per_receiver` for one account and URL, the soonest
    // due first, and at most `per_account` for one account, each receiver's first before any
    // receiver's second. Never the whole backlog: a pick reads a bounded page whatever one
    // account has queued. Messages another process holds are left out.
    virtual std::vector<OutboxHead> due(std::int64_t now_ms, std::size_t per_receiver,
                                        std::size_t per_account) = 0;
    // When the soonest pending message that is not due at `now_ms` becomes due.
    virtual std::optional<std::int64_t> next_due(std::int64_t now_ms) = 0;
    // Takes a due message for this process before it is worked on; false when another process
    // has it (PostgreSQL: a lease, claimed with FOR UPDATE SKIP LOCKED). `release` gives it back
    // unattempted.
    virtual bool claim(std::int64_t /*seq*/) { return true; }
    virtual void release(std::int64_t /*seq*/) {}
    // Extends this process's claims on messages it is still working on.
    virtual void renew(const std::vector<std::int64_t>& /*seqs*/) {}
    // The message with its body; nullopt when it is no longer pending.
    virtual std::optional<OutboxMessage> load(std::int64_t seq) = 0;
    // Records, durably and before any byte goes out, that an attempt begins: the attempt
    // counter and the count of unfinished attempts go up. False when it is no longer pending.
    virtual bool begin_attempt(std::int64_t seq) = 0;
    // The attempt ended: a receiver accepted it.
    virtual void delivered(std::int64_t seq, std::int64_t now_ms) = 0;
    // The attempt ended without success: try again at `next_attempt_ms`, or give up (park)
    // when nullopt.
    virtual void failed(std::int64_t seq, std::optional<std::int64_t> next_attempt_ms,
                        std::string_view error, std::int64_t now_ms) = 0;
    // The attempt was cut off by this process stopping: not counted, attempted again later.
    virtual void interrupted(std::int64_t seq) = 0;
    // Retention (API.md section 11): deletes delivered and given-up messages that finished
    // webhook::outbox_retention before `now_ms` (real clock). Returns how many.
    virtual std::int64_t sweep(std::int64_t now_ms) = 0;
    // How many messages are still to deliver (the metrics' outbox depth); negative: unknown.
    virtual std::int64_t pending() { return -1; }
};

}  // namespace collectcall::server
