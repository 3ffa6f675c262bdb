#include "command_line.hpp"

#include <charconv>
#include <chrono>
#include <limits>
#include <sstream>
#include <utility>

namespace collectcall::server {

namespace {

template <class Int>
std::optional<Int> parse_integer(std::string_view text, Int min, Int max) {
    Int value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value < min || value > max) {
        return std::nullopt;
    }
    return value;
}

// A factor in (0, 1], as plain decimal text ("0.001", "1").
std::optional<double> parse_scale(std::string_view text) {
    double value = 0;
    const auto [end, ec] =
        std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
    if (ec != std::errc{} || end != text.data() + text.size() || !(value > 0) || value > 1) {
        return std::nullopt;
    }
    return value;
}

// A number of bytes: plain ("536870912") or with a binary unit ("512MiB", "1GiB", "64KiB"),
// from `min` to `max`.
std::optional<std::size_t> parse_size(std::string_view text, std::size_t min, std::size_t max) {
    std::size_t unit = 1;
    for (const auto& [suffix, bytes] :
         {std::pair<std::string_view, std::size_t>{"KiB", std::size_t{1} << 10},
          {"MiB", std::size_t{1} << 20},
          {"GiB", std::size_t{1} << 30}}) {
        if (text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            unit = bytes;
            break;
        }
    }
    const auto n = parse_integer<std::size_t>(text, 0, max / unit);
    if (!n || *n * unit < min) return std::nullopt;
    return *n * unit;
}

// HOST:PORT, HOST an IPv4 address, a name, or an IPv6 address in brackets.
bool parse_listen(std::string_view text, std::string& host, int& port) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return false;
    std::string_view h = text.substr(0, colon);
    if (h.front() == '[') {
        if (h.size() < 3 || h.back() != ']') return false;
        h = h.substr(1, h.size() - 2);
    } else if (h.find(':') != std::string_view::npos) {
        return false;  // an IPv6 address needs its brackets
    }
    const auto p = parse_integer<int>(text.substr(colon + 1), 0, 65535);
    if (!p) return false;
    host = std::string(h);
    port = *p;
    return true;
}

}  // namespace

std::string usage() {
    // The defaults are those of the options and of the library, so that the help cannot drift
    // from what the server does.
    const ServerOptions defaults;
    const auto number = [](auto value) {
        std::ostringstream out;
        out << value;
        return out.str();
    };
    const auto duration = [](std::chrono::seconds d) {
        if (d % std::chrono::hours{1} == std::chrono::seconds{0}) {
            return std::to_string(std::chrono::duration_cast<std::chrono::hours>(d).count()) + " h";
        }
        if (d % std::chrono::minutes{1} == std::chrono::seconds{0}) {
            return std::to_string(std::chrono::duration_cast<std::chrono::minutes>(d).count()) +
                   " min";
        }
        return std::to_string(d.count()) + " s";
    };
    std::string text =
        R"(collectcall-server: the collectcall customer and agent-call API on SQLite or PostgreSQL

Usage:
  collectcall-server init  [--db PATH] --account NAME [--caller-number +1NXXNXXXXXX]...
                           [--respectful-hours HH:MM-HH:MM]
  collectcall-server serve [--db PATH] [--listen HOST:PORT] [options]
  collectcall-server openapi
  collectcall-server --help | --version

init
  Creates the account NAME if it does not exist, and in any case a new API key and agentId
  for it; prints them as one JSON line {"accountId","apiKey","agentId"}. The key is stored
  only as a SHA-256 hash: it cannot be shown again. --caller-number adds a number to the
  account's caller-number pool (repeatable); a new account without one gets )";
    text += default_caller_number;
    text += R"(.
  --respectful-hours sets the account's calling window in the customer's local time,
  half-open (a new account without it gets )";
    text += compliance::to_string(compliance::RespectfulHours{});
    text += R"().

serve
  Serves the API on HOST:PORT (default )";
    text += defaults.host + ':' + std::to_string(defaults.port);
    text += R"(; port 0 picks a free one). When the
  database has no account yet, a demo account is created and its key printed once.
  --allow-private-webhooks   webhooks may target loopback and private networks
  --now TIMESTAMP            freeze the clock (RFC 3339, e.g. 2026-11-20T15:00:00Z); for tests
  --call-step-ms N           how fast simulated calls move between states (default )";
    text += std::to_string(defaults.call_step_ms);
    text += R"()
  --public-url URL           the origin clients reach this server at, for the signed
                             recordingUrl of call-ended webhooks (default http://HOST:PORT)
  --rate-limit N             requests per second per API key, burst 2N (default )";
    text += number(defaults.rate_limit);
    text += R"(; 0 = off)
  --webhook-backoff-scale X  multiply the webhook retry schedule ()";
    text += duration(webhook::retry_schedule.front()) + " ... " +
            duration(webhook::retry_schedule.back());
    text += R"() by X, for
                             tests (0 < X <= 1; default 1)
  --webhook-workers N        webhook deliveries in flight at once (default )";
    text += std::to_string(defaults.webhook_workers);
    text += R"()
  --webhook-ca-file PATH     trust only this CA bundle for https webhook receivers
  --threads N                worker threads (default: )";
    text += std::to_string(workers_per_core) + " per core, at least " + std::to_string(min_workers);
    text += R"()
  --max-bulk-items N         most customers in one bulk request (default )";
    text += std::to_string(defaults.api.max_bulk_items);
    text += R"()
  --busy-timeout-ms N        how long a write waits for the database lock before 503
                             (default )";
    text += std::to_string(defaults.busy_timeout_ms);
    text += R"()
  --memory-budget SIZE       memory for all clients' request heads, bodies and unsent answers,
                             in bytes or with KiB, MiB, GiB (default )";
    text += api::size_text(defaults.memory_budget);
    text += R"(; at least 1 MiB);
                             a body it cannot take now is answered 503 with Retry-After, and
                             no account holds more than a 1/)";
    text += std::to_string(api::memory_share_divisor);
    text += R"( share of it)
  --quiet                    no access log on stderr

openapi
  Prints the OpenAPI 3.1 document of the API (also served at GET /api/v1/openapi.json).

Both init and serve use ./)";
    text += defaults.db_path;
    text += R"( (SQLite) when --db is not given. --db also takes a
PostgreSQL URI, postgresql://USER@HOST:PORT/DBNAME: then any number of server processes share
that database, and init and serve create or migrate its schema. SIGTERM or SIGINT stops the
server after the requests in flight are answered.
)";
    return text;
}

ParsedCommandLine parse_command_line(std::span<const std::string_view> args) {
    ParsedCommandLine result;
    const auto fail = [&](std::string message) {
        result.command.reset();
        result.error = std::move(message);
        return result;
    };
    if (args.empty()) return fail("a command is required (init or serve)");

    Command command;
    const std::string_view name = args[0];
    if (name == "--help" || name == "-h" || name == "help") {
        command.kind = Command::Kind::help;
        result.command = command;
        return result;
    }
    if (name == "--version") {
        command.kind = Command::Kind::version;
        result.command = command;
        return result;
    }
    if (name == "openapi") {
        if (args.size() > 1) return fail("openapi takes no options");
        command.kind = Command::Kind::openapi;
        result.command = command;
        return result;
    }
    if (name == "init") {
        command.kind = Command::Kind::init;
    } else if (name == "serve") {
        command.kind = Command::Kind::serve;
    } else {
        return fail("unknown command: " + std::string(name));
    }
    const bool serve = command.kind == Command::Kind::serve;

    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string_view option = args[i];
        std::optional<std::string_view> inline_value;
        if (const std::size_t eq = option.find('=');
            option.starts_with("--") && eq != std::string_view::npos) {
            inline_value = option.substr(eq + 1);
            option = option.substr(0, eq);
        }
        const auto value = [&]() -> std::optional<std::string_view> {
            if (inline_value) return inline_value;
            if (i + 1 < args.size()) return args[++i];
            return std::nullopt;
        };
        const auto flag = [&]() { return !inline_value.has_value(); };
        const std::string opt(option);

        if (option == "--help" || option == "-h") {
            command.kind = Command::Kind::help;
            result.command = command;
            return result;
        }
        if (option == "--db") {
            const auto v = value();
            if (!v || v->empty()) return fail("--db needs a path or a postgresql:// URI");
            command.server.db_path = std::string(*v);
        } else if (!serve && option == "--account") {
            const auto v = value();
            if (!v || v->empty()) return fail("--account needs a name");
            command.account = std::string(*v);
        } else if (!serve && option == "--caller-number") {
            const auto v = value();
            auto number = v ? E164::parse(*v) : Parsed<E164>(Problem{});
            if (!number) {
                return fail("--caller-number needs an E.164 number such as " +
                            std::string(default_caller_number));
            }
            command.caller_numbers.push_back(std::move(number).value());
        } else if (!serve && option == "--respectful-hours") {
            const auto v = value();
            const auto window = v ? compliance::parse_respectful_hours(*v) : std::nullopt;
            if (!window) {
                return fail(
                    "--respectful-hours needs HH:MM-HH:MM with the start before the end, e.g. "
                    "08:00-20:50");
            }
            command.window = *window;
        } else if (serve && option == "--listen") {
            const auto v = value();
            if (!v || !parse_listen(*v, command.server.host, command.server.port)) {
                return fail("--listen needs HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080");
            }
        } else if (serve && option == "--allow-private-webhooks") {
            if (!flag()) return fail("--allow-private-webhooks takes no value");
            command.server.api.allow_private_webhooks = true;
        } else if (serve && option == "--quiet") {
            if (!flag()) return fail("--quiet takes no value");
            command.server.api.access_log = false;
        } else if (serve && option == "--now") {
            const auto v = value();
            auto time = v ? Timestamp::parse(*v) : Parsed<Timestamp>(Problem{});
            if (!time) return fail("--now needs an RFC 3339 timestamp, e.g. 2026-11-20T15:00:00Z");
            command.server.now = time.value().time();
        } else if (serve && option == "--call-step-ms") {
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 1, 3'600'000) : std::nullopt;
            if (!n) return fail("--call-step-ms needs a number of milliseconds (1 to 3600000)");
            command.server.call_step_ms = *n;
        } else if (serve && option == "--public-url") {
            const auto v = value();
            auto url = v ? Url::parse(*v) : Parsed<Url>(Problem{});
            if (!url) return fail("--public-url needs an absolute http:// or https:// URL");
            command.server.public_url = std::string(url.value().view());
        } else if (serve && option == "--webhook-backoff-scale") {
            const auto v = value();
            const auto x = v ? parse_scale(*v) : std::nullopt;
            if (!x) return fail("--webhook-backoff-scale needs a number greater than 0, at most 1");
            command.server.webhook_backoff_scale = *x;
        } else if (serve && option == "--webhook-workers") {
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 1, 256) : std::nullopt;
            if (!n) return fail("--webhook-workers needs a number from 1 to 256");
            command.server.webhook_workers = static_cast<std::size_t>(*n);
        } else if (serve && option == "--webhook-ca-file") {
            const auto v = value();
            if (!v || v->empty()) return fail("--webhook-ca-file needs a path");
            command.server.webhook_ca_file = std::string(*v);
        } else if (serve && option == "--rate-limit") {
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 0, 1'000'000) : std::nullopt;
            if (!n) return fail("--rate-limit needs a number of requests per second (0 = off)");
            command.server.rate_limit = *n;
        } else if (serve && option == "--threads") {
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 1, 1024) : std::nullopt;
            if (!n) return fail("--threads needs a number from 1 to 1024");
            command.server.threads = static_cast<std::size_t>(*n);
        } else if (serve && option == "--max-bulk-items") {
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 1, 1'000'000) : std::nullopt;
            if (!n) return fail("--max-bulk-items needs a positive number");
            command.server.api.max_bulk_items = static_cast<std::size_t>(*n);
        } else if (serve && option == "--lease-ms") {
            // Not in the usage text: tests shorten the PostgreSQL leases with it.
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 100, 3'600'000) : std::nullopt;
            if (!n) return fail("--lease-ms needs a number of milliseconds (100 to 3600000)");
            command.server.lease = std::chrono::milliseconds{*n};
        } else if (serve && option == "--webhook-timeout-ms") {
            // Not in the usage text: tests shorten the attempt's time limit (10 s) with it.
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 100, 600'000) : std::nullopt;
            if (!n)
                return fail("--webhook-timeout-ms needs a number of milliseconds (100 to 600000)");
            command.server.webhook_timeout = std::chrono::milliseconds{*n};
        } else if (serve && option == "--memory-budget") {
            const auto v = value();
            const auto n =
                v ? parse_size(*v, std::size_t{1} << 20, std::size_t{1} << 40) : std::nullopt;
            if (!n) return fail("--memory-budget needs a size from 1MiB to 1024GiB (512MiB, 1GiB)");
            command.server.memory_budget = *n;
        } else if (serve && option == "--busy-timeout-ms") {
            const auto v = value();
            const auto n = v ? parse_integer<int>(*v, 0, 600'000) : std::nullopt;
            if (!n) return fail("--busy-timeout-ms needs a number of milliseconds");
            command.server.busy_timeout_ms = *n;
        } else {
            return fail("unknown option for " + std::string(name) + ": " + opt);
        }
    }
    if (command.kind == Command::Kind::init && command.account.empty()) {
        return fail("init needs --account NAME");
    }
    result.command = std::move(command);
    return result;
}

}  // namespace collectcall::server
