#include "postgres_rate_limits.hpp"

#include <chrono>
#include <iostream>
#include <string>

namespace collectcall::server {

using pg::Connection;
using pg::Result;

SharedRateLimits::SharedRateLimits(const PostgresOptions& options, RateLimiter& limiter)
    : limiter_(limiter), pool_(options.uri, 1), process_id_(std::string(new_uuid().view())) {
    thread_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            wake_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_; });
            if (stopping_) break;
            lock.unlock();
            try {
                exchange();
            } catch (const std::exception& e) {
                std::cerr << "collectcall-server: sharing rate limits failed: " << e.what()
                          << std::endl;
            }
            lock.lock();
        }
    });
}

SharedRateLimits::~SharedRateLimits() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void SharedRateLimits::exchange() {
    auto used = limiter_.take_used();
    std::string keys = "{";
    std::string counts = "{";
    for (const auto& [key, n] : used) {
        const long total = mine_[key] += n;
        pg::append_array_element(keys, key);
        pg::append_array_element(counts, std::to_string(total));
    }
    keys += '}';
    counts += '}';
    auto db = pool_.lease();
    if (!used.empty()) {
        db->params().add(process_id_).add(keys).add(counts);
        db->query(
            "INSERT INTO rate_counts (key_id, process, used, updated) "
            "SELECT k, $1, n, now() FROM unnest($2::text[], $3::bigint[]) AS u(k, n) "
            "ON CONFLICT (key_id, process) DO UPDATE SET used = EXCLUDED.used, "
            "updated = EXCLUDED.updated");
    }
    // The others' totals of keys used in the last hour; what grew since the last exchange is
    // what they used meanwhile. A key seen for the first time is a baseline.
    db->params().add(process_id_);
    const Result r = db->query(
        "SELECT key_id, SUM(used) FROM rate_counts WHERE process <> $1 AND "
        "updated > now() - interval '1 hour' GROUP BY key_id");
    for (int i = 0; i < r.rows(); ++i) {
        const std::string key(r.text(i, 0));
        const long total = static_cast<long>(r.integer(i, 1));
        const auto [it, first] = others_.try_emplace(key, total);
        if (!first) {
            limiter_.charge(key, total - it->second);
            it->second = total;
        }
    }
    // Rows of processes gone for an hour.
    db->query("DELETE FROM rate_counts WHERE updated < now() - interval '1 hour'");
}

}  // namespace collectcall::server
