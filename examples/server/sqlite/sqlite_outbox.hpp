// The webhook outbox (webhook_outbox.hpp) in the server's SQLite database.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "sqlite.hpp"
#include "sqlite_store.hpp"
#include "webhook_outbox.hpp"

namespace collectcall::server {

// The outbox in the server's SQLite database, on a connection of its own. The file must have
// been opened (and so migrated) by SqliteStore first.
class SqliteWebhookOutbox final : public WebhookOutbox {
  public:
    SqliteWebhookOutbox(const SqliteOptions& options, std::shared_ptr<const RecordingLinks> links);

    std::vector<OutboxHead> due(std::int64_t now_ms, std::size_t per_receiver,
                                std::size_t per_account) override;
    std::optional<std::int64_t> next_due(std::int64_t now_ms) override;
    std::optional<OutboxMessage> load(std::int64_t seq) override;
    bool begin_attempt(std::int64_t seq) override;
    void delivered(std::int64_t seq, std::int64_t now_ms) override;
    void failed(std::int64_t seq, std::optional<std::int64_t> next_attempt_ms,
                std::string_view error, std::int64_t now_ms) override;
    void interrupted(std::int64_t seq) override;
    std::int64_t sweep(std::int64_t now_ms) override;
    std::int64_t pending() override;

  private:
    std::shared_ptr<const RecordingLinks> links_;
    std::mutex mutex_;  // one connection, used by one thread at a time
    sqlite::Connection db_;
};

}  // namespace collectcall::server
