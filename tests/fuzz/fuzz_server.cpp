// Fuzz target: the example server's request handling, without the network. Every input is what
// one client connection sends; it goes through the server's request parser, the API and SQLite
// exactly as over a socket (Server::serve_bytes), requests kept alive and pipelined, and every
// response is checked:
//   - it is an HTTP/1.1 response (after an interim "100 Continue", if any) with a status line,
//     header lines and the blank line;
//   - its status is never 500 and never another 5xx than 503;
//   - it carries X-Request-Id, a UUID;
//   - Content-Length is the size of the body; only the answer to a HEAD request has no body;
//   - a body of a status of 400 and above is the error envelope (JSON with non-empty strings at
//     /error/code and /error/message, `success: false` and the X-Request-Id as requestId), but
//     the bare {"status":"unavailable"} of GET /healthz;
//   - a 2xx body of type application/json is JSON, and an envelope's requestId is the
//     X-Request-Id (bodies compressed because the request accepted it, Content-Encoding gzip, br
//     or deflate, are checked for their framing only);
//   - after a response with Connection: close, nothing more of the input is served.
//
// One server is made per process, with a fresh database in a temporary directory (/dev/shm when
// there is one: SQLite syncs every commit), a frozen clock (2026-11-20T17:00:00Z: noon in New
// York, inside calling hours), no rate limit and no access log. It has one account and one
// customer in New York; an input names them with placeholders that are replaced before it is
// served: @KEY@ (the API key), @ID@ (the customer's id) and @AGENT@ (the account's agentId). The
// database lives as long as the process, so inputs see what earlier inputs stored.
//
// No webhook secret is known to inputs, so no call with a webhook is ever placed and nothing is
// delivered. A call request with a webhook still has its URL's host resolved (the SSRF check):
// a host name goes to the system resolver, which is told to give up after one try of one
// second (RES_OPTIONS).
#include <simdjson.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "property.hpp"
#include "server.hpp"

namespace {

using namespace collectcall;
using namespace collectcall::server;
namespace fs = std::filesystem;

constexpr std::string_view now_text = "2026-11-20T17:00:00Z";

// The server with its account and customer, for the life of the process.
struct Fixture {
    fs::path dir;
    std::unique_ptr<Server> server;
    std::string key;
    std::string agent;
    std::string customer_id;

    Fixture();
    ~Fixture() {
        server.reset();
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

Fixture& fixture();

// What was served and what came back, printed when a check fails.
struct Failure {
    std::string_view input;
    std::string_view request;
    std::string_view response;
};

[[noreturn]] void fail(const Failure& where, std::string_view check) {
    std::fprintf(stderr,
                 "\n*** collectcall server fuzz property violated ***\ncheck: %.*s\n"
                 "input (after placeholders): %s\nrequest answered: %s\nresponse: %s\n",
                 static_cast<int>(check.size()), check.data(), fuzz::printable(where.input).c_str(),
                 fuzz::printable(where.request).c_str(),
                 fuzz::printable(where.response, 4000).c_str());
    std::error_code ec;
    fs::remove_all(fixture().dir, ec);
    std::abort();
}

fs::path make_temp_dir() {
    std::error_code ec;
    fs::path base = "/dev/shm";
    if (!fs::is_directory(base, ec) || ::access(base.c_str(), W_OK) != 0) {
        base = fs::temp_directory_path();
    }
    std::string pattern = (base / "collectcall-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        std::fprintf(stderr, "fuzz_server: cannot create a directory in %s\n", base.c_str());
        std::abort();
    }
    return pattern;
}

std::string http_request(std::string_view method, std::string_view target, std::string_view key,
                         std::string_view body) {
    std::string request(method);
    request += ' ';
    request += target;
    request += " HTTP/1.1\r\nHost: fuzz\r\nAuthorization: Bearer ";
    request += key;
    request += "\r\nContent-Type: application/json\r\nContent-Length: ";
    request += std::to_string(body.size());
    request += "\r\n\r\n";
    request += body;
    return request;
}

Fixture::Fixture() : dir(make_temp_dir()) {
    // Only a webhook URL's host name ever reaches the network (the resolver): bound its wait.
    ::setenv("RES_OPTIONS", "timeout:1 attempts:1", 0);

    const Time now = Timestamp::parse(now_text).value().time();
    ServerOptions options;
    options.db_path = (dir / "fuzz.db").string();
    options.now = now;
    options.rate_limit = 0;
    options.webhook_workers = 1;
    options.call_step_ms = 24 * 60 * 60 * 1000;  // placed calls stay in progress: no writes behind
    options.api.access_log = false;
    server = std::make_unique<Server>(options);

    AccountSetup setup;
    setup.name = "fuzz";
    setup.fallback_caller_number = E164::parse("+12125550100").value();
    const Credentials credentials = server->store().create_credentials(setup, now);
    key = credentials.apiKey;
    agent = credentials.agentId;

    const std::string customer =
        R"({"externalId":"fuzz-1","firstName":"Ann","lastName":"Lee","email":"ann@example.com",)"
        R"("primaryPhone":"+12125550123","address":{"line1":"1 Main St","city":"New York",)"
        R"("state":"NY","zip":"10001"}})";
    const auto served =
        server->serve_bytes(http_request("POST", "/api/v1/customers", key, customer));
    const std::string_view response = served.empty() ? std::string_view{} : served[0].response;
    const std::size_t body = response.find("\r\n\r\n");
    simdjson::dom::parser parser;
    std::string_view id;
    if (response.rfind("HTTP/1.1 200 ", 0) != 0 || body == std::string_view::npos ||
        parser.parse(response.data() + body + 4, response.size() - body - 4)
                .at_pointer("/data/id")
                .get(id) != 0) {
        std::fprintf(stderr, "fuzz_server: the customer was not created: %s\n",
                     fuzz::printable(response).c_str());
        std::abort();
    }
    customer_id = std::string(id);
}

Fixture& fixture() {
    static Fixture instance;
    return instance;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
}

// Whether cpp-httplib may have read the request as a HEAD: the first token of its request line
// is the method, even when the rest of the line is malformed ("HEAD\r\n" is a 400 without a
// body). Errs on the side of yes (any white space ends the token), which only excuses a
// missing body.
bool may_be_head(std::string_view request) {
    const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!request.empty() && (request.front() == ' ' || request.front() == '\t'))
        request.remove_prefix(1);
    return request.rfind("HEAD", 0) == 0 && (request.size() == 4 || is_space(request[4]));
}

struct Parsed {
    int status = 0;
    std::vector<std::pair<std::string_view, std::string_view>> headers;
    std::string_view body;

    [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const {
        std::optional<std::string_view> found;
        for (const auto& [n, v] : headers) {
            if (iequals(n, name)) found = v;
        }
        return found;
    }
    [[nodiscard]] std::size_t count(std::string_view name) const {
        std::size_t n = 0;
        for (const auto& header : headers)
            n += iequals(header.first, name) ? 1 : 0;
        return n;
    }
};

Parsed parse_response(const Failure& where) {
    std::string_view rest = where.response;
    constexpr std::string_view interim = "HTTP/1.1 100 Continue\r\n\r\n";
    if (rest.rfind(interim, 0) == 0) rest.remove_prefix(interim.size());

    Parsed parsed;
    const std::size_t head_end = rest.find("\r\n\r\n");
    if (head_end == std::string_view::npos) fail(where, "no end of the response head");
    std::string_view head = rest.substr(0, head_end + 2);
    parsed.body = rest.substr(head_end + 4);

    const std::size_t line_end = head.find("\r\n");
    const std::string_view status_line = head.substr(0, line_end);
    head.remove_prefix(line_end + 2);
    if (status_line.size() < 13 || status_line.rfind("HTTP/1.1 ", 0) != 0 ||
        status_line[12] != ' ') {
        fail(where, "the status line is not HTTP/1.1 <status> <reason>");
    }
    for (std::size_t i = 9; i < 12; ++i) {
        if (status_line[i] < '0' || status_line[i] > '9') fail(where, "the status is not a number");
        parsed.status = parsed.status * 10 + (status_line[i] - '0');
    }
    if (parsed.status < 200) fail(where, "no final status");

    while (!head.empty()) {
        const std::size_t end = head.find("\r\n");
        const std::string_view line = head.substr(0, end);
        head.remove_prefix(end + 2);
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0)
            fail(where, "a header line without a name");
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
        parsed.headers.emplace_back(line.substr(0, colon), value);
    }
    return parsed;
}

bool is_json_type(std::string_view content_type) {
    return iequals(content_type.substr(0, content_type.find(';')), "application/json");
}

void check_envelope_id(const Failure& where, simdjson::dom::element document,
                       std::string_view request_id) {
    std::string_view id;
    if (document.at_pointer("/requestId").get(id) != 0) return;  // bare (healthz, openapi)
    if (id != request_id) fail(where, "the envelope's requestId is not the X-Request-Id");
}

// Checks one response; true when it ends the connection (Connection: close).
bool check_response(const Failure& where) {
    const Parsed response = parse_response(where);
    const auto connection = response.header("Connection");
    const bool closes = connection && iequals(*connection, "close");
    const int status = response.status;
    if (status == 500) fail(where, "status 500");
    if (status >= 500 && status != 503) fail(where, "a 5xx status other than 503");

    const auto request_id = response.header("X-Request-Id");
    if (!request_id || response.count("X-Request-Id") != 1) {
        fail(where, "not exactly one X-Request-Id");
    }
    if (!Uuid::parse(*request_id)) fail(where, "X-Request-Id is not a UUID");

    const auto length = response.header("Content-Length");
    if (!length || response.count("Content-Length") != 1) {
        fail(where, "not exactly one Content-Length");
    }
    if (response.header("Transfer-Encoding")) fail(where, "a chunked response");
    if (*length != std::to_string(response.body.size()) &&
        !(response.body.empty() && may_be_head(where.request))) {
        fail(where, "Content-Length is not the size of the body");
    }
    if (response.body.empty()) {
        // Only HEAD leaves out the body; every answer of this server has one.
        if (!may_be_head(where.request)) fail(where, "a response without a body");
        return closes;
    }

    // The server compresses a response when the request accepts it: the body is then not JSON
    // text, and only its framing is checked.
    if (const auto encoding = response.header("Content-Encoding")) {
        if (*encoding != "gzip" && *encoding != "br" && *encoding != "deflate") {
            fail(where, "an unknown Content-Encoding");
        }
        return closes;
    }

    simdjson::dom::parser parser;
    const auto content_type = response.header("Content-Type");
    if (status >= 400) {
        simdjson::dom::element document;
        if (parser.parse(response.body.data(), response.body.size()).get(document) != 0) {
            fail(where, "the body of an error is not JSON");
        }
        if (status == 503 && response.body == R"({"status":"unavailable"})") return closes;
        std::string_view code;
        std::string_view message;
        bool success = true;
        if (document.at_pointer("/error/code").get(code) != 0 || code.empty()) {
            fail(where, "an error without a non-empty /error/code");
        }
        if (document.at_pointer("/error/message").get(message) != 0 || message.empty()) {
            fail(where, "an error without a non-empty /error/message");
        }
        if (document.at_pointer("/success").get(success) != 0 || success) {
            fail(where, "an error without success: false");
        }
        check_envelope_id(where, document, *request_id);
        if (!content_type || !is_json_type(*content_type)) {
            fail(where, "an error body that is not application/json");
        }
    } else if (status >= 200 && status < 300 && content_type && is_json_type(*content_type)) {
        simdjson::dom::element document;
        if (parser.parse(response.body.data(), response.body.size()).get(document) != 0) {
            fail(where, "a 2xx JSON body that is not JSON");
        }
        check_envelope_id(where, document, *request_id);
    }
    return closes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Fixture& f = fixture();
    std::string input(reinterpret_cast<const char*>(data), size);
    replace_all(input, "@KEY@", f.key);
    replace_all(input, "@ID@", f.customer_id);
    replace_all(input, "@AGENT@", f.agent);
    static const bool verbose = std::getenv("COLLECTCALL_FUZZ_VERBOSE") != nullptr;
    bool closed = false;
    for (const Server::Exchange& exchange : f.server->serve_bytes(input)) {
        if (verbose) {
            std::fprintf(stderr, "  %s\n  -> %s\n", fuzz::printable(exchange.request, 120).c_str(),
                         fuzz::printable(exchange.response, 300).c_str());
        }
        const Failure where{input, exchange.request, exchange.response};
        // The bytes after a response that closed the connection are never read as a request
        // (they may be the unread rest of a body: request smuggling).
        if (closed) fail(where, "a request served after a response with Connection: close");
        closed = check_response(where);
    }
    return 0;
}
