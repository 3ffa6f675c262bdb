#include "webhook_transport.hpp"

#include <curl/curl.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <collectcall/types/url.hpp>

namespace collectcall::server {

namespace {

using SteadyClock = std::chrono::steady_clock;

void global_init() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            throw std::runtime_error("libcurl could not be initialised");
        }
    });
}

// What the callbacks of one transfer share.
struct Transfer {
    webhook::ResponseReader reader;
    const std::vector<webhook::ResolvedAddress>* approved = nullptr;
    bool refused_address = false;
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
    auto& transfer = *static_cast<Transfer*>(user);
    const std::size_t n = size * count;
    return transfer.reader.head(std::string_view(data, n)) ? n : 0;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
    auto& transfer = *static_cast<Transfer*>(user);
    const std::size_t n = size * count;
    return transfer.reader.body(std::string_view(data, n)) ? n : 0;
}

bool same_endpoint(const sockaddr* address, socklen_t length, const webhook::ResolvedAddress& a) {
    if (address->sa_family != a.family()) return false;
    if (address->sa_family == AF_INET && length >= sizeof(sockaddr_in)) {
        sockaddr_in x{};
        sockaddr_in y{};
        std::memcpy(&x, address, sizeof x);
        std::memcpy(&y, &a.storage, sizeof y);
        return x.sin_port == y.sin_port && x.sin_addr.s_addr == y.sin_addr.s_addr;
    }
    if (address->sa_family == AF_INET6 && length >= sizeof(sockaddr_in6)) {
        sockaddr_in6 x{};
        sockaddr_in6 y{};
        std::memcpy(&x, address, sizeof x);
        std::memcpy(&y, &a.storage, sizeof y);
        return x.sin6_port == y.sin6_port &&
               std::memcmp(&x.sin6_addr, &y.sin6_addr, sizeof x.sin6_addr) == 0;
    }
    return false;
}

// libcurl opens every socket through here: only an approved address gets one.
curl_socket_t open_socket(void* user, curlsocktype purpose, curl_sockaddr* address) {
    auto& transfer = *static_cast<Transfer*>(user);
    if (purpose != CURLSOCKTYPE_IPCXN || address == nullptr) return CURL_SOCKET_BAD;
    const bool approved = std::any_of(
        transfer.approved->begin(), transfer.approved->end(),
        [&](const auto& a) { return same_endpoint(&address->addr, address->addrlen, a); });
    if (!approved) {
        transfer.refused_address = true;
        return CURL_SOCKET_BAD;
    }
    return ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

struct EasyDeleter {
    void operator()(CURL* easy) const noexcept { curl_easy_cleanup(easy); }
};
struct ListDeleter {
    void operator()(curl_slist* list) const noexcept { curl_slist_free_all(list); }
};
using List = std::unique_ptr<curl_slist, ListDeleter>;

void append(List& list, const std::string& line) {
    curl_slist* grown = curl_slist_append(list.get(), line.c_str());
    if (grown == nullptr) throw std::bad_alloc();
    (void)list.release();
    list.reset(grown);
}

std::string milliseconds_text(SteadyClock::duration d) {
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count()) + " ms";
}

}  // namespace

WebhookTransport::WebhookTransport(Options options) : options_(std::move(options)) {
    global_init();
    multi_ = curl_multi_init();
    if (multi_ == nullptr) throw std::runtime_error("libcurl: no multi handle");
}

WebhookTransport::~WebhookTransport() {
    curl_multi_cleanup(static_cast<CURLM*>(multi_));
}

void WebhookTransport::cancel() noexcept {
    cancelled_ = true;
    curl_multi_wakeup(static_cast<CURLM*>(multi_));
}

AttemptOutcome WebhookTransport::send(const OutboundRequest& request,
                                      const std::vector<webhook::ResolvedAddress>& approved,
                                      SteadyClock::time_point deadline) {
    AttemptOutcome outcome;
    const auto started = SteadyClock::now();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - started);
    if (left.count() <= 0) {
        outcome.error = "no time left for the attempt after the host name lookup";
        return outcome;
    }
    auto url = Url::parse(request.url);
    if (!url || approved.empty()) {
        outcome.error = "no approved address to send to";
        return outcome;
    }
    const std::string host(url.value().host());
    const std::uint16_t port = url.value().port();

    std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
    if (!easy) throw std::bad_alloc();
    CURL* e = easy.get();
    Transfer transfer{webhook::ResponseReader(options_.limits), &approved, false};

    // A host name goes to the approved addresses only; an address literal is connected to as
    // it is (it was the address checked). The socket callback holds either way.
    List resolve;
    if (!webhook::classify(host)) {
        std::string entry = host + ":" + std::to_string(port) + ":";
        for (std::size_t i = 0; i < approved.size(); ++i) {
            if (i != 0) entry += ',';
            const std::string text = approved[i].to_string();
            entry += approved[i].family() == AF_INET6 ? "[" + text + "]" : text;
        }
        append(resolve, entry);
    }
    List headers;
    for (const auto& [name, value] : request.headers) {
        append(headers, name + ": " + value);
    }
    append(headers, "Expect:");  // no 100-continue round trip

    char error_text[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(e, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PROXY, "");  // never a proxy from the environment
    curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(e, CURLOPT_PATH_AS_IS, 1L);  // the target was validated: send it as stored
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(left.count()));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(left.count()));
    curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
    if (resolve) curl_easy_setopt(e, CURLOPT_RESOLVE, resolve.get());
    curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, &transfer);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error_text);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!options_.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, options_.ca_file.c_str());

    auto* multi = static_cast<CURLM*>(multi_);
    if (curl_multi_add_handle(multi, e) != CURLM_OK) throw std::bad_alloc();
    CURLcode result = CURLE_OK;
    bool finished = false;
    while (!cancelled_) {
        int running = 0;
        if (curl_multi_perform(multi, &running) != CURLM_OK) break;
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
            if (message->msg == CURLMSG_DONE && message->easy_handle == e) {
                result = message->data.result;
                finished = true;
            }
        }
        if (finished || running == 0) break;
        // Wakes for the socket, for libcurl's own timeouts (the attempt's limit among them)
        // and for cancel().
        curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
    }
    curl_multi_remove_handle(multi, e);

    if (transfer.reader.accepted()) {
        // Whatever happened to the body after a 2xx head (cut at 64 KiB, a reset, the time
        // limit), the receiver accepted the delivery.
        outcome.accepted = true;
        return outcome;
    }
    if (cancelled_ && !finished) {
        outcome.cancelled = true;
        outcome.error = "cut off: the server is stopping";
        return outcome;
    }
    if (transfer.reader.failed()) {
        outcome.error = "the receiver's answer was refused: " + transfer.reader.error();
    } else if (transfer.reader.final_head_complete()) {
        outcome.error = "the receiver answered HTTP " + std::to_string(transfer.reader.status());
    } else if (result == CURLE_OPERATION_TIMEDOUT) {
        outcome.error = "no answer within " + milliseconds_text(deadline - started) +
                        " (of the attempt's time limit)";
    } else if (transfer.refused_address) {
        outcome.error = "the connection would have gone to an address the guard did not approve";
    } else {
        outcome.error = std::string(curl_easy_strerror(result));
        if (error_text[0] != '\0') outcome.error += std::string(": ") + error_text;
    }
    return outcome;
}

}  // namespace collectcall::server
