#include "command_line.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
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

// NAME or NAME=UUID: the text after the last '=' is the client's id when it is a UUID, and
// otherwise part of the name.
std::optional<ClientCreate> parse_client(std::string_view text) {
    ClientCreate client;
    if (const std::size_t eq = text.rfind('='); eq != std::string_view::npos) {
        if (auto id = Uuid::parse(text.substr(eq + 1))) {
            client.id = std::move(id).value();
            text = text.substr(0, eq);
        }
    }
    auto name = Text::parse(text);
    if (!name) return std::nullopt;
    client.name = std::move(name).value();
    return client;
}

std::string number(auto value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string duration(std::chrono::seconds d) {
    if (d % std::chrono::hours{1} == std::chrono::seconds{0}) {
        return std::to_string(std::chrono::duration_cast<std::chrono::hours>(d).count()) + " h";
    }
    if (d % std::chrono::minutes{1} == std::chrono::seconds{0}) {
        return std::to_string(std::chrono::duration_cast<std::chrono::minutes>(d).count()) + " min";
    }
    return std::to_string(d.count()) + " s";
}

// An option's value as given (`--name VALUE` or `--name=VALUE`); a flag gets none.
using Value = std::optional<std::string_view>;
// What went wrong with an option's value; empty when it was taken.
using Problem = std::string;

// One option of the command line: the parser and --help both read this table, so an option is
// one row.
struct OptionRow {
    std::string_view name;
    enum class Scope { init, serve, both } scope;
    std::string_view value;  // what its value is called in --help; empty: a flag
    // Its --help text (continuation lines are indented to match); nullptr: not shown (options
    // for tests).
    std::string (*help)(const ServerOptions& defaults);
    // Sets the option on `command`; returns a problem when `value` will not do.
    Problem (*apply)(Command& command, Value value);
    // Only tests use it: left out of --help and of docs/server.md.
    bool for_tests = false;
};

// An integer option in [min, max] stored by `store`.
template <class Int, Int Min, Int Max>
Problem integer(Value value, std::string_view problem, auto&& store) {
    const auto n = value ? parse_integer<Int>(*value, Min, Max) : std::nullopt;
    if (!n) return Problem(problem);
    store(*n);
    return {};
}

using Scope = OptionRow::Scope;

const OptionRow options[] = {
    {"--db", Scope::both, "PATH", nullptr,
     [](Command& c, Value v) -> Problem {
         if (!v || v->empty()) return "--db needs a path or a postgresql:// URI";
         c.server.db_path = std::string(*v);
         return {};
     }},
    {"--account", Scope::init, "NAME", nullptr,
     [](Command& c, Value v) -> Problem {
         if (!v || v->empty()) return "--account needs a name";
         c.account = std::string(*v);
         return {};
     }},
    {"--caller-number", Scope::init, "+1NXXNXXXXXX", nullptr,
     [](Command& c, Value v) -> Problem {
         auto parsed = v ? E164::parse(*v) : Parsed<E164>(collectcall::Problem{});
         if (!parsed) {
             return "--caller-number needs an E.164 number such as " +
                    std::string(default_caller_number);
         }
         c.caller_numbers.push_back(std::move(parsed).value());
         return {};
     }},
    {"--respectful-hours", Scope::init, "HH:MM-HH:MM", nullptr,
     [](Command& c, Value v) -> Problem {
         const auto window = v ? compliance::parse_respectful_hours(*v) : std::nullopt;
         if (!window) {
             return "--respectful-hours needs HH:MM-HH:MM with the start before the end, e.g. "
                    "08:00-20:50";
         }
         c.window = *window;
         return {};
     }},
    {"--compliance", Scope::init, "hosted|regulation-f", nullptr,
     [](Command& c, Value v) -> Problem {
         const auto policy = v ? enum_from_name<CompliancePolicy>(*v) : std::nullopt;
         if (!policy) return "--compliance needs hosted or regulation-f";
         c.policy = *policy;
         return {};
     }},
    {"--campaign", Scope::init, "NAME=STEPS", nullptr,
     [](Command& c, Value v) -> Problem {
         if (!v) return "--campaign needs NAME=STEPS, e.g. welcome=call@0,sms@2,call@4";
         DripDefinitionParse parsed = parse_drip_campaign(*v);
         if (!parsed.campaign) return "--campaign: " + parsed.error;
         for (const DripCampaignDefinition& known : c.campaigns) {
             if (known.name == parsed.campaign->name)
                 return "--campaign: campaign \"" + known.name + "\" is given twice";
         }
         c.campaigns.push_back(std::move(*parsed.campaign));
         return {};
     }},
    {"--client", Scope::init, "NAME[=UUID]", nullptr,
     [](Command& c, Value v) -> Problem {
         const auto client = v ? parse_client(*v) : std::nullopt;
         if (!client) {
             return "--client needs a name (1 to 200 characters), or NAME=UUID to keep the id "
                    "the client has at the hosted service";
         }
         c.clients.push_back(*client);
         return {};
     }},
    {"--listen", Scope::serve, "HOST:PORT",
     [](const ServerOptions& d) {
         return "the address to listen on (default " + d.host + ':' + std::to_string(d.port) +
                ";\n[::1]:8080 for IPv6; port 0 picks a free one)";
     },
     [](Command& c, Value v) -> Problem {
         if (!v || !parse_listen(*v, c.server.host, c.server.port)) {
             return "--listen needs HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080";
         }
         return {};
     }},
    {"--allow-private-webhooks", Scope::serve, "",
     [](const ServerOptions&) -> std::string {
         return "webhooks may target loopback and private networks";
     },
     [](Command& c, Value) -> Problem {
         c.server.api.allow_private_webhooks = true;
         return {};
     }},
    {"--now", Scope::serve, "TIMESTAMP",
     [](const ServerOptions&) -> std::string {
         return "freeze the clock (RFC 3339, e.g. 2026-11-20T15:00:00Z); for tests";
     },
     [](Command& c, Value v) -> Problem {
         auto time = v ? Timestamp::parse(*v) : Parsed<Timestamp>(collectcall::Problem{});
         if (!time) return "--now needs an RFC 3339 timestamp, e.g. 2026-11-20T15:00:00Z";
         c.server.now = time.value().time();
         return {};
     }},
    {"--clock-rate", Scope::serve, "N",
     [](const ServerOptions&) -> std::string {
         return "for tests only: the clock starts at --now (or now) and runs N\ntimes faster "
                "than real time (1 to 1000000), so that a week of drip\ncampaign steps runs "
                "in seconds";
     },
     [](Command& c, Value v) {
         return integer<int, 1, 1'000'000>(v, "--clock-rate needs a whole number from 1 to 1000000",
                                           [&](int n) { c.server.clock_rate = n; });
     }},
    {"--call-step-ms", Scope::serve, "N",
     [](const ServerOptions& d) {
         return "how fast simulated calls move between states (default " +
                std::to_string(d.call_step_ms) + ")";
     },
     [](Command& c, Value v) {
         return integer<int, 1, 3'600'000>(
             v, "--call-step-ms needs a number of milliseconds (1 to 3600000)",
             [&](int n) { c.server.call_step_ms = n; });
     }},
    {"--public-url", Scope::serve, "URL",
     [](const ServerOptions&) -> std::string {
         return "the origin clients reach this server at, for the signed\nrecordingUrl of "
                "call-ended webhooks (default http://HOST:PORT)";
     },
     [](Command& c, Value v) -> Problem {
         auto url = v ? Url::parse(*v) : Parsed<Url>(collectcall::Problem{});
         if (!url) return "--public-url needs an absolute http:// or https:// URL";
         c.server.public_url = std::string(url.value().view());
         return {};
     }},
    {"--rate-limit", Scope::serve, "N",
     [](const ServerOptions& d) {
         return "requests per second per API key, burst 2N (default " + number(d.rate_limit) +
                "; 0 = off)";
     },
     [](Command& c, Value v) {
         return integer<int, 0, 1'000'000>(
             v, "--rate-limit needs a number of requests per second (0 = off)",
             [&](int n) { c.server.rate_limit = n; });
     }},
    {"--webhook-backoff-scale", Scope::serve, "X",
     [](const ServerOptions&) {
         return "multiply the webhook retry schedule (" +
                duration(webhook::retry_schedule.front()) + " ... " +
                duration(webhook::retry_schedule.back()) +
                ") by X, for\ntests (0 < X <= 1; default 1)";
     },
     [](Command& c, Value v) -> Problem {
         const auto x = v ? parse_scale(*v) : std::nullopt;
         if (!x) return "--webhook-backoff-scale needs a number greater than 0, at most 1";
         c.server.webhook_backoff_scale = *x;
         return {};
     }},
    {"--webhook-workers", Scope::serve, "N",
     [](const ServerOptions& d) {
         return "webhook deliveries in flight at once (default " +
                std::to_string(d.webhook_workers) + ")";
     },
     [](Command& c, Value v) {
         return integer<int, 1, 256>(
             v, "--webhook-workers needs a number from 1 to 256",
             [&](int n) { c.server.webhook_workers = static_cast<std::size_t>(n); });
     }},
    {"--webhook-ca-file", Scope::serve, "PATH",
     [](const ServerOptions&) -> std::string {
         return "trust only this CA bundle for https webhook receivers";
     },
     [](Command& c, Value v) -> Problem {
         if (!v || v->empty()) return "--webhook-ca-file needs a path";
         c.server.webhook_ca_file = std::string(*v);
         return {};
     }},
    {"--threads", Scope::serve, "N",
     [](const ServerOptions&) {
         return "worker threads (default: " + std::to_string(workers_per_core) +
                " per core, at least " + std::to_string(min_workers) + ")";
     },
     [](Command& c, Value v) {
         return integer<int, 1, 1024>(v, "--threads needs a number from 1 to 1024", [&](int n) {
             c.server.threads = static_cast<std::size_t>(n);
         });
     }},
    {"--max-bulk-items", Scope::serve, "N",
     [](const ServerOptions& d) {
         return "most customers in one bulk request (default " +
                std::to_string(d.api.max_bulk_items) + ")";
     },
     [](Command& c, Value v) {
         return integer<int, 1, 1'000'000>(
             v, "--max-bulk-items needs a positive number",
             [&](int n) { c.server.api.max_bulk_items = static_cast<std::size_t>(n); });
     }},
    {"--busy-timeout-ms", Scope::serve, "N",
     [](const ServerOptions& d) {
         return "how long a write waits for the database lock before 503\n(default " +
                std::to_string(d.busy_timeout_ms) + ")";
     },
     [](Command& c, Value v) {
         return integer<int, 0, 600'000>(v, "--busy-timeout-ms needs a number of milliseconds",
                                         [&](int n) { c.server.busy_timeout_ms = n; });
     }},
    {"--memory-budget", Scope::serve, "SIZE",
     [](const ServerOptions& d) {
         return "memory for all clients' request heads, bodies and unsent answers,\nin bytes or "
                "with KiB, MiB, GiB (default " +
                api::size_text(d.memory_budget) +
                "; at least 1 MiB);\na body it cannot take now is answered 503 with "
                "Retry-After, and\nno account holds more than a 1/" +
                std::to_string(api::memory_share_divisor) + " share of it";
     },
     [](Command& c, Value v) -> Problem {
         const auto n =
             v ? parse_size(*v, std::size_t{1} << 20, std::size_t{1} << 40) : std::nullopt;
         if (!n) return "--memory-budget needs a size from 1MiB to 1024GiB (512MiB, 1GiB)";
         c.server.memory_budget = *n;
         return {};
     }},
    {"--quiet", Scope::serve, "",
     [](const ServerOptions&) -> std::string { return "no access log on stderr"; },
     [](Command& c, Value) -> Problem {
         c.server.api.access_log = false;
         return {};
     }},
    // Tests shorten the PostgreSQL leases with it.
    {"--lease-ms", Scope::serve, "N", nullptr,
     [](Command& c, Value v) {
         return integer<int, 100, 3'600'000>(
             v, "--lease-ms needs a number of milliseconds (100 to 3600000)",
             [&](int n) { c.server.lease = std::chrono::milliseconds{n}; });
     },
     true},
    // Tests shorten the attempt's time limit (10 s) with it.
    {"--webhook-timeout-ms", Scope::serve, "N", nullptr,
     [](Command& c, Value v) {
         return integer<int, 100, 600'000>(
             v, "--webhook-timeout-ms needs a number of milliseconds (100 to 600000)",
             [&](int n) { c.server.webhook_timeout = std::chrono::milliseconds{n}; });
     },
     true},
};

// The column option descriptions start at in --help.
constexpr std::size_t help_column = 29;

// The --help lines of the options of `scope` that have help text.
std::string option_lines(Scope scope, const ServerOptions& defaults) {
    std::string text;
    for (const OptionRow& row : options) {
        if (row.scope != scope || row.help == nullptr) continue;
        std::string head = "  " + std::string(row.name);
        if (!row.value.empty()) head += ' ' + std::string(row.value);
        head.resize(std::max(help_column, head.size() + 1), ' ');
        const std::string help = row.help(defaults);
        std::size_t start = 0;
        while (true) {
            const std::size_t end = help.find('\n', start);
            text += head;
            text.append(help, start, end == std::string::npos ? std::string::npos : end - start);
            text += '\n';
            if (end == std::string::npos) break;
            head.assign(help_column, ' ');
            start = end + 1;
        }
    }
    return text;
}

const OptionRow* find_option(std::string_view name) {
    const auto row = std::find_if(std::begin(options), std::end(options),
                                  [&](const OptionRow& r) { return r.name == name; });
    return row == std::end(options) ? nullptr : &*row;
}

}  // namespace

std::string usage() {
    // The defaults are those of the options and of the library, so that the help cannot drift
    // from what the server does.
    const ServerOptions defaults;
    std::string text =
        R"(collectcall-server: the collectcall customer and agent-call API on SQLite or PostgreSQL

Usage:
  collectcall-server init  [--db PATH] --account NAME [--caller-number +1NXXNXXXXXX]...
                           [--respectful-hours HH:MM-HH:MM] [--client NAME[=UUID]]...
                           [--compliance hosted|regulation-f] [--campaign NAME=STEPS]...
  collectcall-server serve [--db PATH] [--listen HOST:PORT] [options]
  collectcall-server openapi
  collectcall-server --help | --version

init
  Creates the account NAME if it does not exist, and in any case a new API key and agentId
  for it; prints them as one JSON line {"accountId","apiKey","agentId","clients"}. The key is stored
  only as a SHA-256 hash: it cannot be shown again. --caller-number adds a number to the
  account's caller-number pool (repeatable); a new account without one gets )";
    text += default_caller_number;
    text += R"(.
  --respectful-hours sets the account's calling window in the customer's local time,
  half-open (a new account without it gets )";
    text += compliance::to_string(compliance::RespectfulHours{});
    text += R"().
  --compliance sets the account's compliance policy: hosted (the hosted service's four checks,
  the default of a new account) or regulation-f (those and Regulation F's, the FDCPA's and
  stricter states' rules; docs/compliance.md).
  --campaign defines a drip campaign (repeatable; a name defined again gets the new steps):
  STEPS is a comma list of call@D or sms@D, D days after enrolment (NAME alone: )";
    text += default_drip_steps;
    text += R"().
  --client gives the account a client (repeatable), a sub-entity that groups customers: a new
  one, or the account's client of that name; NAME=UUID keeps the id the client has at the
  hosted service. "clients" lists them as [{"id","name"}].

serve
  Serves the API. When the database has no account yet, a demo account is created and its
  key printed once.
)";
    text += option_lines(Scope::serve, defaults);
    text += R"(
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

std::vector<std::string_view> serve_option_names() {
    std::vector<std::string_view> names;
    for (const OptionRow& row : options) {
        if (row.scope == Scope::serve && !row.for_tests) names.push_back(row.name);
    }
    return names;
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
    const Scope scope = command.kind == Command::Kind::serve ? Scope::serve : Scope::init;

    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string_view option = args[i];
        Value inline_value;
        if (const std::size_t eq = option.find('=');
            option.starts_with("--") && eq != std::string_view::npos) {
            inline_value = option.substr(eq + 1);
            option = option.substr(0, eq);
        }
        if (option == "--help" || option == "-h") {
            command.kind = Command::Kind::help;
            result.command = command;
            return result;
        }
        const OptionRow* row = find_option(option);
        if (row == nullptr || (row->scope != Scope::both && row->scope != scope)) {
            return fail("unknown option for " + std::string(name) + ": " + std::string(option));
        }
        Value value = inline_value;
        if (row->value.empty()) {
            if (inline_value) return fail(std::string(option) + " takes no value");
        } else if (!value && i + 1 < args.size()) {
            value = args[++i];
        }
        if (Problem problem = row->apply(command, value); !problem.empty()) {
            return fail(std::move(problem));
        }
    }
    if (command.kind == Command::Kind::init && command.account.empty()) {
        return fail("init needs --account NAME");
    }
    result.command = std::move(command);
    return result;
}

}  // namespace collectcall::server
