// The webhook outbox on PostgreSQL (postgres_outbox.cpp).
#pragma once

#include <memory>

#include "postgres_store.hpp"
#include "webhook_outbox.hpp"

namespace collectcall::server {

// The webhook outbox on a database a PostgresStore has migrated; it claims messages for this
// process and gives its claims back when it is destroyed.
std::unique_ptr<WebhookOutbox> open_postgres_outbox(const PostgresOptions& options,
                                                    std::shared_ptr<const RecordingLinks> links);

}  // namespace collectcall::server
