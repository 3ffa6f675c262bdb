// How a webhook's bytes travel to a receiver (API.md section 9): one HTTP attempt on libcurl.
//
// - The receiver's host has been resolved with a time limit and checked by the SSRF guard
//   (collectcall/webhook/resolver.hpp) before the attempt: libcurl gets the approved addresses
//   through CURLOPT_RESOLVE, so it never asks a name server itself, and a socket callback
//   refuses any address that is not one of them (a second line of defence). The URL's host
//   stays the Host header, the TLS SNI name and the name the certificate is checked against.
// - One time limit for the whole attempt, name lookup included (the caller's deadline);
//   redirects are not followed; http and https only; no proxy from the environment; no signals.
// - The answer goes through a webhook::ResponseReader: status line and each header at most
//   8 KiB, at most 100 headers, at most 64 KiB of body read, then the transfer is stopped.
//
// One WebhookTransport belongs to one thread; cancel() may be called from any thread and cuts
// the attempt in flight at once (and every later one, until resume()).
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <collectcall/webhook/address_guard.hpp>
#include <collectcall/webhook/response_reader.hpp>

namespace collectcall::server {

struct OutboundRequest {
    std::string url;  // absolute http(s) URL, validated (collectcall::Url)
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

struct AttemptOutcome {
    bool accepted = false;   // the receiver answered 2xx
    bool cancelled = false;  // cut off by cancel(): not the receiver's doing
    std::string error;       // why not accepted (for the outbox's last_error and the log)
};

class WebhookTransport {
  public:
    struct Options {
        std::string ca_file;  // trust only this CA bundle (tests); empty: the system's
        webhook::ResponseLimits limits{};
    };

    explicit WebhookTransport(Options options);
    ~WebhookTransport();
    WebhookTransport(const WebhookTransport&) = delete;
    WebhookTransport& operator=(const WebhookTransport&) = delete;

    // Sends `request` to one of `approved` (the addresses the guard let through for the URL's
    // host), answering by `deadline` at the latest.
    AttemptOutcome send(const OutboundRequest& request,
                        const std::vector<webhook::ResolvedAddress>& approved,
                        std::chrono::steady_clock::time_point deadline);

    void cancel() noexcept;
    void resume() noexcept { cancelled_ = false; }

  private:
    Options options_;
    void* multi_ = nullptr;  // CURLM*
    std::atomic<bool> cancelled_{false};
};

}  // namespace collectcall::server
