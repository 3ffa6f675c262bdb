// The signed links to call recordings that call-ended webhook bodies carry (the bodies
// themselves: webhook_event.hpp).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <collectcall/webhook/recording.hpp>

namespace collectcall::server {

// The server's key for recording links and its public origin. The key comes from the store
// (Store::server_key), so that every process of a shared database makes and accepts the same
// links; the origin is known once the server listens (`serve --public-url`, else
// http://<listen address>).
class RecordingLinks {
  public:
    explicit RecordingLinks(std::string key) : key_(std::move(key)) {}

    void set_base_url(std::string url);
    [[nodiscard]] std::string base_url() const;

    // A link valid for webhook::recording_link_lifetime from now (the real clock, as receivers
    // and signature timestamps use).
    [[nodiscard]] std::string url(std::string_view call_id, std::int64_t duration_ms) const;
    [[nodiscard]] webhook::RecordingLink check(std::string_view call_id, std::string_view expires,
                                               std::string_view duration,
                                               std::string_view signature,
                                               std::int64_t& duration_ms) const;

  private:
    mutable std::mutex mutex_;
    std::string base_url_;
    std::string key_;
};

}  // namespace collectcall::server
