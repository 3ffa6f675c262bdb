// Rate limits counted across the processes of one PostgreSQL database (API.md section 12).
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "postgres.hpp"
#include "postgres_store.hpp"
#include "rate_limit.hpp"

namespace collectcall::server {

// Shares the request counts of `limiter` with the other processes of the database, once a
// second, on a thread of its own, until destroyed.
class SharedRateLimits {
  public:
    SharedRateLimits(const PostgresOptions& options, RateLimiter& limiter);
    ~SharedRateLimits();
    SharedRateLimits(const SharedRateLimits&) = delete;
    SharedRateLimits& operator=(const SharedRateLimits&) = delete;

    // One exchange (the thread runs it every second).
    void exchange();

  private:
    RateLimiter& limiter_;
    pg::Pool pool_;
    std::string process_id_;
    std::unordered_map<std::string, long> mine_;    // this process's total per key
    std::unordered_map<std::string, long> others_;  // the others' total per key, as last seen
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace collectcall::server
