// A webhook receiver for the tests: an HTTP(S) server on a loopback port in the test process
// that records every delivery and checks both signatures with its own HMAC code (OpenSSL's
// HMAC() and base64 directly, not the library's sign/verify), as an independent receiver
// would.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

namespace test {

struct Delivery {
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
    std::string host_header;
    bool hosted_ok = false;    // X-Webhook-Signature matches
    bool standard_ok = false;  // webhook-signature matches
    std::int64_t received_unix = 0;
    int answered = 0;  // the status the receiver answered

    [[nodiscard]] std::string header(const std::string& lowercase) const {
        const auto it = headers.find(lowercase);
        return it == headers.end() ? std::string() : it->second;
    }
};

// The receiver's own verification. `secret` is the secret's text: the hosted scheme's HMAC key
// as it is; Standard Webhooks' key is the base64 after whsec_, decoded.
bool hosted_signature_matches(const std::string& secret, const std::string& timestamp,
                              const std::string& signature_header, const std::string& body);
bool standard_signature_matches(const std::string& secret, const std::string& id,
                                const std::string& timestamp, const std::string& signature_header,
                                const std::string& body);

// A self-signed certificate for the name "localhost" only, in PEM files under `directory`.
struct TestCertificate {
    std::string cert_path;
    std::string key_path;
};
TestCertificate make_localhost_certificate(const std::string& directory);

class Receiver {
  public:
    // Listens on 127.0.0.1 at `port` (0: a free one); over TLS when `certificate` is given.
    explicit Receiver(std::string secret, int port = 0,
                      const TestCertificate* certificate = nullptr);
    ~Receiver();
    Receiver(const Receiver&) = delete;
    Receiver& operator=(const Receiver&) = delete;

    [[nodiscard]] int port() const { return port_; }
    // The status answered to the next deliveries (200 by default).
    void answer(int status) { status_ = status; }
    // The next `count` deliveries are held this long before the answer.
    void delay(std::chrono::milliseconds d, int count = 1'000'000) {
        delay_ms_ = static_cast<int>(d.count());
        delayed_left_ = count;
    }

    [[nodiscard]] std::vector<Delivery> deliveries() const;
    // Waits until `done(deliveries)` holds; false on timeout.
    bool wait_for(const std::function<bool(const std::vector<Delivery>&)>& done,
                  std::chrono::milliseconds timeout = std::chrono::seconds(15)) const;

  private:
    std::string secret_;
    std::unique_ptr<httplib::Server> server_;
    std::thread thread_;
    int port_ = 0;
    std::atomic<int> status_{200};
    std::atomic<int> delay_ms_{0};
    std::atomic<int> delayed_left_{0};
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::vector<Delivery> deliveries_;
};

// A loopback port nothing listens on: bound, never listening (a connection to it is refused),
// so that no other server or connection of the tests that run beside this one takes it while
// it stands for a receiver that is down. release() frees it for the receiver to bind at once.
class UnusedPort {
  public:
    UnusedPort();
    ~UnusedPort() { release(); }
    UnusedPort(const UnusedPort&) = delete;
    UnusedPort& operator=(const UnusedPort&) = delete;

    [[nodiscard]] int port() const { return port_; }
    void release();

  private:
    int fd_ = -1;
    int port_ = 0;
};

}  // namespace test
