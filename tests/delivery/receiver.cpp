#include "receiver.hpp"

#include "harness.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace test {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The key bytes of a whsec_ secret for Standard Webhooks, decoded with OpenSSL's base64. (The
// hosted scheme's key is the secret's text as it is.)
std::string secret_key(const std::string& secret) {
    const std::string prefix = "whsec_";
    if (secret.rfind(prefix, 0) != 0) throw std::runtime_error("not a whsec_ secret");
    const std::string encoded = secret.substr(prefix.size());
    std::string out(encoded.size(), '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(encoded.data()),
                                  static_cast<int>(encoded.size()));
    if (n < 0) throw std::runtime_error("bad base64 in the secret");
    std::size_t padding = 0;
    for (auto it = encoded.rbegin(); it != encoded.rend() && *it == '='; ++it)
        ++padding;
    out.resize(static_cast<std::size_t>(n) - padding);
    return out;
}

std::string hmac_sha256(const std::string& key, const std::string& data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &length);
    return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string to_hex(const std::string& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

std::string to_base64(const std::string& bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

}  // namespace

bool hosted_signature_matches(const std::string& secret, const std::string& timestamp,
                              const std::string& signature_header, const std::string& body) {
    const std::string expected = "sha256=" + to_hex(hmac_sha256(secret, timestamp + "." + body));
    return signature_header == expected;
}

bool standard_signature_matches(const std::string& secret, const std::string& id,
                                const std::string& timestamp, const std::string& signature_header,
                                const std::string& body) {
    const std::string expected =
        "v1," + to_base64(hmac_sha256(secret_key(secret), id + "." + timestamp + "." + body));
    // The header may carry several space-separated signatures; one must match.
    std::istringstream list(signature_header);
    std::string candidate;
    while (list >> candidate) {
        if (candidate == expected) return true;
    }
    return false;
}

TestCertificate make_localhost_certificate(const std::string& directory) {
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    X509* cert = X509_new();
    if (key == nullptr || cert == nullptr)
        throw std::runtime_error("OpenSSL: no key or certificate");
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    // The name only, no IP address: a connection that checked the certificate against
    // "127.0.0.1" instead of the URL's host would fail.
    for (const auto& [nid, value] : {std::pair{NID_subject_alt_name, "DNS:localhost"},
                                     std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
        X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
        if (ext == nullptr) throw std::runtime_error("OpenSSL: bad extension");
        X509_add_ext(cert, ext, -1);
        X509_EXTENSION_free(ext);
    }
    if (X509_sign(cert, key, EVP_sha256()) == 0) throw std::runtime_error("OpenSSL: sign failed");

    TestCertificate files{directory + "/receiver-cert.pem", directory + "/receiver-key.pem"};
    FILE* c = std::fopen(files.cert_path.c_str(), "w");
    FILE* k = std::fopen(files.key_path.c_str(), "w");
    const bool ok = c != nullptr && k != nullptr && PEM_write_X509(c, cert) == 1 &&
                    PEM_write_PrivateKey(k, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
    if (c != nullptr) std::fclose(c);
    if (k != nullptr) std::fclose(k);
    X509_free(cert);
    EVP_PKEY_free(key);
    if (!ok) throw std::runtime_error("cannot write the test certificate");
    return files;
}

Receiver::Receiver(std::string secret, int port, const TestCertificate* certificate)
    : secret_(std::move(secret)) {
    if (certificate != nullptr) {
        server_ = std::make_unique<httplib::SSLServer>(certificate->cert_path.c_str(),
                                                       certificate->key_path.c_str());
    } else {
        server_ = std::make_unique<httplib::Server>();
    }
    server_->Post(R"(/.*)", [this](const httplib::Request& request, httplib::Response& response) {
        if (const int d = delay_ms_.load(); d > 0 && delayed_left_.fetch_sub(1) > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(d));
        }
        Delivery delivery;
        for (const auto& [name, value] : request.headers)
            delivery.headers[lower(name)] = value;
        delivery.body = request.body;
        test::record_webhook(delivery.body);
        delivery.host_header = request.get_header_value("Host");
        delivery.received_unix = static_cast<std::int64_t>(std::time(nullptr));
        try {
            delivery.hosted_ok =
                hosted_signature_matches(secret_, delivery.header("x-webhook-timestamp"),
                                         delivery.header("x-webhook-signature"), delivery.body);
            delivery.standard_ok = standard_signature_matches(
                secret_, delivery.header("webhook-id"), delivery.header("webhook-timestamp"),
                delivery.header("webhook-signature"), delivery.body);
        } catch (const std::exception&) {
            // Recorded as not verified.
        }
        delivery.answered = status_.load();
        response.status = delivery.answered;
        {
            std::lock_guard lock(mutex_);
            deliveries_.push_back(std::move(delivery));
        }
        changed_.notify_all();
    });
    if (port == 0) {
        port_ = server_->bind_to_any_port("127.0.0.1");
    } else if (server_->bind_to_port("127.0.0.1", port)) {
        port_ = port;
    }
    if (port_ <= 0) throw std::runtime_error("the receiver cannot listen");
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    while (!server_->is_running())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

Receiver::~Receiver() {
    server_->stop();
    thread_.join();
}

std::vector<Delivery> Receiver::deliveries() const {
    std::lock_guard lock(mutex_);
    return deliveries_;
}

bool Receiver::wait_for(const std::function<bool(const std::vector<Delivery>&)>& done,
                        std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return done(deliveries_); });
}

UnusedPort::UnusedPort() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        release();
        throw std::runtime_error("cannot find a free port");
    }
    port_ = ntohs(address.sin_port);
}

void UnusedPort::release() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

}  // namespace test
