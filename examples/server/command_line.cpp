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

// One option of the command line. The parser, --help and docs/server.md's table of options
// (options_markdown; a test compares them) all read this table, so an option is one row.
struct OptionRow {
    std::string_view name;
    enum class Commands { init, serve, both } commands;
    // What its value is called; empty: a flag, which takes none.
    std::string_view value;
    // Given once or more (`...` in the synopsis).
    bool repeatable = false;
    // Its default, from the defaults of the server's options and of the library, so that what
    // the help says cannot drift from what the server does; nullptr: the option is required.
    std::string (*default_text)(const ServerOptions& defaults);
    // What it does: one paragraph, wrapped for --help; nullptr for an option only tests use,
    // shown neither in --help nor in docs/server.md.
    std::string (*help)(const ServerOptions& defaults);
    // Sets the option on `command`; returns a problem when `value` will not do.
    Problem (*apply)(Command& command, Value value);
};

// An integer option in [Min, Max] stored by `store`.
template <class Int, Int Min, Int Max>
Problem integer(Value value, std::string_view problem, auto&& store) {
    const auto n = value ? parse_integer<Int>(*value, Min, Max) : std::nullopt;
    if (!n) return Problem(problem);
    store(*n);
    return {};
}

using Commands = OptionRow::Commands;

std::string off(const ServerOptions&) {
    return "off";
}

const OptionRow options[] = {
    {"--db", Commands::both, "PATH", false, [](const ServerOptions& d) { return "./" + d.db_path; },
     [](const ServerOptions&) -> std::string {
         return "the SQLite database file, or a PostgreSQL URI postgresql://USER@HOST:PORT/DBNAME: "
                "then any number of server processes share that database, and init and serve "
                "create or migrate its schema";
     },
     [](Command& c, Value v) -> Problem {
         if (!v || v->empty()) return "--db needs a path or a postgresql:// URI";
         c.server.db_path = std::string(*v);
         return {};
     }},
    {"--account", Commands::init, "NAME", false, nullptr,
     [](const ServerOptions&) -> std::string {
         return "the account to create, or to give a new API key and agent when it exists";
     },
     [](Command& c, Value v) -> Problem {
         if (!v || v->empty()) return "--account needs a name";
         c.account = std::string(*v);
         return {};
     }},
    {"--caller-number", Commands::init, "+1NXXNXXXXXX", true,
     [](const ServerOptions&) {
         return std::string(default_caller_number) + " when the account's pool would be empty";
     },
     [](const ServerOptions&) -> std::string {
         return "adds an E.164 number to the account's caller-number pool";
     },
     [](Command& c, Value v) -> Problem {
         auto parsed = v ? E164::parse(*v) : Parsed<E164>(collectcall::Problem{});
         if (!parsed) {
             return "--caller-number needs an E.164 number such as " +
                    std::string(default_caller_number);
         }
         c.caller_numbers.push_back(std::move(parsed).value());
         return {};
     }},
    {"--respectful-hours", Commands::init, "HH:MM-HH:MM", false,
     [](const ServerOptions&) {
         return compliance::to_string(compliance::RespectfulHours{}) + " for a new account";
     },
     [](const ServerOptions&) -> std::string {
         return "the account's calling window in the customer's local time, half-open";
     },
     [](Command& c, Value v) -> Problem {
         const auto window = v ? compliance::parse_respectful_hours(*v) : std::nullopt;
         if (!window) {
             return "--respectful-hours needs HH:MM-HH:MM with the start before the end, e.g. "
                    "08:00-20:50";
         }
         c.window = *window;
         return {};
     }},
    {"--compliance", Commands::init, "hosted|regulation-f", false,
     [](const ServerOptions&) {
         return std::string(enum_name(Account{}.compliancePolicy)) + " for a new account";
     },
     [](const ServerOptions&) -> std::string {
         return "the account's compliance policy: hosted (the hosted service's four checks) or "
                "regulation-f (those and the rules of Regulation F, the FDCPA and stricter state "
                "law; docs/compliance.md)";
     },
     [](Command& c, Value v) -> Problem {
         const auto policy = v ? enum_from_name<CompliancePolicy>(*v) : std::nullopt;
         if (!policy) return "--compliance needs hosted or regulation-f";
         c.policy = *policy;
         return {};
     }},
    {"--daily-rows", Commands::init, "N", false,
     [](const ServerOptions&) { return number(api::default_daily_rows) + " for a new account"; },
     [](const ServerOptions&) -> std::string {
         return "the rows the account may store per UTC day (customers, calls, compliance "
                "decisions, interactions, analyses, enrolments, clients, webhook secrets; "
                "docs/server.md): a write that would store more is refused 429 quota_exceeded, "
                "with Retry-After the seconds to the next UTC midnight; reads go on";
     },
     [](Command& c, Value v) -> Problem {
         return integer<std::int64_t, 1, api::max_daily_rows>(
             v, "--daily-rows needs a whole number from 1 to " + number(api::max_daily_rows),
             [&](std::int64_t n) { c.daily_rows = n; });
     }},
    {"--campaign", Commands::init, "NAME=STEPS", true,
     [](const ServerOptions&) { return "NAME alone: " + std::string(default_drip_steps); },
     [](const ServerOptions&) -> std::string {
         return "defines a drip campaign (a name defined again gets the new steps): STEPS is a "
                "comma list of call@D or sms@D, D whole days after enrolment, in the order they "
                "run";
     },
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
    {"--client", Commands::init, "NAME[=UUID]", true,
     [](const ServerOptions&) -> std::string { return "none"; },
     [](const ServerOptions&) -> std::string {
         return "gives the account a client, a sub-entity that groups customers: a new one, or "
                "the account's client of that name; NAME=UUID keeps the id the client has at the "
                "hosted service";
     },
     [](Command& c, Value v) -> Problem {
         const auto client = v ? parse_client(*v) : std::nullopt;
         if (!client) {
             return "--client needs a name (1 to " +
                    std::to_string(decltype(ClientCreate::name)::max_code_points) +
                    " characters), or NAME=UUID to keep the id the client has at the hosted "
                    "service";
         }
         c.clients.push_back(*client);
         return {};
     }},
    {"--listen", Commands::serve, "HOST:PORT", false,
     [](const ServerOptions& d) { return d.host + ':' + std::to_string(d.port); },
     [](const ServerOptions&) -> std::string {
         return "the address to listen on; [::1]:8080 for IPv6; port 0 takes a free port "
                "(printed)";
     },
     [](Command& c, Value v) -> Problem {
         if (!v || !parse_listen(*v, c.server.host, c.server.port)) {
             return "--listen needs HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080";
         }
         return {};
     }},
    {"--allow-private-webhooks", Commands::serve, "", false, off,
     [](const ServerOptions&) -> std::string {
         return "webhook URLs may resolve to loopback and private networks (never to link-local, "
                "metadata or credential, multicast or reserved addresses)";
     },
     [](Command& c, Value) -> Problem {
         c.server.api.allow_private_webhooks = true;
         return {};
     }},
    {"--now", Commands::serve, "TIMESTAMP", false,
     [](const ServerOptions&) -> std::string { return "the real clock"; },
     [](const ServerOptions&) -> std::string {
         return "freezes the clock of compliance and stored timestamps (RFC 3339, e.g. "
                "2026-11-20T15:00:00Z), for tests and demos";
     },
     [](Command& c, Value v) -> Problem {
         auto time = v ? Timestamp::parse(*v) : Parsed<Timestamp>(collectcall::Problem{});
         if (!time) return "--now needs an RFC 3339 timestamp, e.g. 2026-11-20T15:00:00Z";
         c.server.now = time.value().time();
         return {};
     }},
    {"--clock-rate", Commands::serve, "N", false,
     [](const ServerOptions& d) { return d.clock_rate == 0 ? "off" : number(d.clock_rate); },
     [](const ServerOptions&) -> std::string {
         return "for tests only: the clock starts at --now (or the real now) and runs N times "
                "faster than real time (1 to 1000000), so that a week of drip campaign steps runs "
                "in seconds";
     },
     [](Command& c, Value v) {
         return integer<int, 1, 1'000'000>(v, "--clock-rate needs a whole number from 1 to 1000000",
                                           [&](int n) { c.server.clock_rate = n; });
     }},
    {"--call-step-ms", Commands::serve, "N", false,
     [](const ServerOptions& d) { return std::to_string(d.call_step_ms); },
     [](const ServerOptions&) -> std::string {
         return "how long a simulated call stays in each state, in milliseconds";
     },
     [](Command& c, Value v) {
         return integer<int, 1, 3'600'000>(
             v, "--call-step-ms needs a number of milliseconds (1 to 3600000)",
             [&](int n) { c.server.call_step_ms = n; });
     }},
    {"--public-url", Commands::serve, "URL", false,
     [](const ServerOptions&) -> std::string { return "http://HOST:PORT as bound"; },
     [](const ServerOptions&) -> std::string {
         return "the origin clients reach the server at: the base of the signed recordingUrl in "
                "call-ended webhooks";
     },
     [](Command& c, Value v) -> Problem {
         auto url = v ? Url::parse(*v) : Parsed<Url>(collectcall::Problem{});
         if (!url) return "--public-url needs an absolute http:// or https:// URL";
         c.server.public_url = std::string(url.value().view());
         return {};
     }},
    {"--rate-limit", Commands::serve, "N", false,
     [](const ServerOptions& d) { return number(d.rate_limit); },
     [](const ServerOptions&) -> std::string {
         return "requests per second per API key, bursts up to 2N; 0 turns it off";
     },
     [](Command& c, Value v) {
         return integer<int, 0, 1'000'000>(
             v, "--rate-limit needs a number of requests per second (0 = off)",
             [&](int n) { c.server.rate_limit = n; });
     }},
    {"--webhook-backoff-scale", Commands::serve, "X", false,
     [](const ServerOptions& d) { return number(d.webhook_backoff_scale); },
     [](const ServerOptions&) {
         return "multiplies the webhook retry schedule (" +
                duration(webhook::retry_schedule.front()) + " ... " +
                duration(webhook::retry_schedule.back()) +
                ") by X, 0 < X <= 1 (tests use a small factor)";
     },
     [](Command& c, Value v) -> Problem {
         const auto x = v ? parse_scale(*v) : std::nullopt;
         if (!x) return "--webhook-backoff-scale needs a number greater than 0, at most 1";
         c.server.webhook_backoff_scale = *x;
         return {};
     }},
    {"--webhook-workers", Commands::serve, "N", false,
     [](const ServerOptions& d) { return std::to_string(d.webhook_workers); },
     [](const ServerOptions&) -> std::string { return "webhook deliveries in flight at once"; },
     [](Command& c, Value v) {
         return integer<int, 1, 256>(
             v, "--webhook-workers needs a number from 1 to 256",
             [&](int n) { c.server.webhook_workers = static_cast<std::size_t>(n); });
     }},
    {"--webhook-ca-file", Commands::serve, "PATH", false,
     [](const ServerOptions& d) {
         return d.webhook_ca_file.empty() ? std::string("the system's CAs") : d.webhook_ca_file;
     },
     [](const ServerOptions&) -> std::string {
         return "trusts only this CA bundle for https webhook receivers";
     },
     [](Command& c, Value v) -> Problem {
         if (!v || v->empty()) return "--webhook-ca-file needs a path";
         c.server.webhook_ca_file = std::string(*v);
         return {};
     }},
    {"--threads", Commands::serve, "N", false,
     [](const ServerOptions& d) {
         return d.threads != 0 ? std::to_string(d.threads)
                               : std::to_string(workers_per_core) + " per core, at least " +
                                     std::to_string(min_workers);
     },
     [](const ServerOptions&) -> std::string { return "HTTP worker threads"; },
     [](Command& c, Value v) {
         return integer<int, 1, 1024>(v, "--threads needs a number from 1 to 1024", [&](int n) {
             c.server.threads = static_cast<std::size_t>(n);
         });
     }},
    {"--max-bulk-items", Commands::serve, "N", false,
     [](const ServerOptions& d) { return std::to_string(d.api.max_bulk_items); },
     [](const ServerOptions&) -> std::string { return "most customers in one bulk request"; },
     [](Command& c, Value v) {
         return integer<int, 1, 1'000'000>(
             v, "--max-bulk-items needs a positive number",
             [&](int n) { c.server.api.max_bulk_items = static_cast<std::size_t>(n); });
     }},
    {"--busy-timeout-ms", Commands::serve, "N", false,
     [](const ServerOptions& d) { return std::to_string(d.busy_timeout_ms); },
     [](const ServerOptions&) -> std::string {
         return "how long a write waits for the database lock before answering 503";
     },
     [](Command& c, Value v) {
         return integer<int, 0, 600'000>(v, "--busy-timeout-ms needs a number of milliseconds",
                                         [&](int n) { c.server.busy_timeout_ms = n; });
     }},
    {"--memory-budget", Commands::serve, "SIZE", false,
     [](const ServerOptions& d) { return api::size_text(d.memory_budget); },
     [](const ServerOptions&) {
         return "the memory all clients' request heads, bodies and unsent answers may hold "
                "together, in bytes or with KiB, MiB, GiB (at least 1 MiB); a body it cannot take "
                "now is answered 503 with Retry-After, and no account holds more than a 1/" +
                std::to_string(api::memory_share_divisor) + " share of it";
     },
     [](Command& c, Value v) -> Problem {
         const auto n =
             v ? parse_size(*v, std::size_t{1} << 20, std::size_t{1} << 40) : std::nullopt;
         if (!n) return "--memory-budget needs a size from 1MiB to 1024GiB (512MiB, 1GiB)";
         c.server.memory_budget = *n;
         return {};
     }},
    {"--quiet", Commands::serve, "", false, off,
     [](const ServerOptions&) -> std::string { return "no access log on stderr"; },
     [](Command& c, Value) -> Problem {
         c.server.api.access_log = false;
         return {};
     }},
    // Tests shorten the PostgreSQL leases with it.
    {"--lease-ms", Commands::serve, "N", false,
     [](const ServerOptions& d) { return std::to_string(d.lease.count()); }, nullptr,
     [](Command& c, Value v) {
         return integer<int, 100, 3'600'000>(
             v, "--lease-ms needs a number of milliseconds (100 to 3600000)",
             [&](int n) { c.server.lease = std::chrono::milliseconds{n}; });
     }},
    // Tests shorten the attempt's time limit (10 s) with it.
    {"--webhook-timeout-ms", Commands::serve, "N", false,
     [](const ServerOptions& d) { return std::to_string(d.webhook_timeout.count()); }, nullptr,
     [](Command& c, Value v) {
         return integer<int, 100, 600'000>(
             v, "--webhook-timeout-ms needs a number of milliseconds (100 to 600000)",
             [&](int n) { c.server.webhook_timeout = std::chrono::milliseconds{n}; });
     }},
};

bool takes(const OptionRow& row, Commands command) {
    return row.commands == Commands::both || row.commands == command;
}

// The option and its value as the synopsis and the tables show them.
std::string option_text(const OptionRow& row) {
    std::string text(row.name);
    if (!row.value.empty()) (text += ' ') += row.value;
    return text;
}

// The column option descriptions start at in --help, and the width they are wrapped to.
constexpr std::size_t help_column = 29;
constexpr std::size_t help_width = 100;

// The --help lines of the options of `command`: the option, then its help and its default,
// wrapped at help_width.
std::string option_lines(Commands command, const ServerOptions& defaults) {
    std::string text;
    for (const OptionRow& row : options) {
        if (!takes(row, command) || row.help == nullptr) continue;
        std::string line = "  " + option_text(row);
        line.resize(std::max(help_column, line.size() + 1), ' ');
        std::string words = row.help(defaults);
        words += row.default_text ? " (default " + row.default_text(defaults) + ")" : " (required)";
        if (row.repeatable) words += "; repeatable";
        std::size_t at = 0;
        while (at < words.size()) {
            std::size_t end = words.find(' ', at);
            if (end == std::string::npos) end = words.size();
            const std::string_view word(words.data() + at, end - at);
            if (line.size() > help_column && line.size() + 1 + word.size() > help_width) {
                text += line + '\n';
                line.assign(help_column, ' ');
            } else if (line.size() > help_column && line.back() != ' ') {
                line += ' ';
            }
            line += word;
            at = end + 1;
        }
        text += line + '\n';
    }
    return text;
}

// A Markdown table cell: '|' escaped.
std::string cell(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

const OptionRow* find_option(std::string_view name) {
    const auto row = std::find_if(std::begin(options), std::end(options),
                                  [&](const OptionRow& r) { return r.name == name; });
    return row == std::end(options) ? nullptr : &*row;
}

}  // namespace

std::string usage() {
    const ServerOptions defaults;
    std::string text =
        R"(collectcall-server: the collectcall customer and agent-call API on SQLite or PostgreSQL

Usage:
  collectcall-server init --account NAME [options]
  collectcall-server serve [options]
  collectcall-server openapi
  collectcall-server --help | --version

init
  Creates the account NAME if it does not exist, and in any case a new API key and agentId
  for it; prints them as one JSON line {"accountId","apiKey","agentId","clients"}. The key is
  stored only as a SHA-256 hash: it cannot be shown again. Given to an existing account, each
  option changes only what it sets.
)";
    text += option_lines(Commands::init, defaults);
    text += R"(
serve
  Serves the API. When the database has no account yet, a demo account is created and its
  key printed once. SIGTERM or SIGINT stops the server after the requests in flight are
  answered.
)";
    text += option_lines(Commands::serve, defaults);
    text += R"(
openapi
  Prints the OpenAPI 3.1 document of the API (also served at GET /api/v1/openapi.json).
)";
    return text;
}

std::string options_markdown() {
    const ServerOptions defaults;
    std::string text = "| option | commands | default | meaning |\n|---|---|---|---|\n";
    for (const OptionRow& row : options) {
        if (row.help == nullptr) continue;
        text += "| `" + cell(option_text(row)) + "` | ";
        text += row.commands == Commands::both   ? "init, serve"
                : row.commands == Commands::init ? "init"
                                                 : "serve";
        text += " | " + cell(row.default_text ? row.default_text(defaults) : "required") + " | ";
        text += cell(row.help(defaults)) + (row.repeatable ? "; repeatable" : "") + " |\n";
    }
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
    const Commands commands =
        command.kind == Command::Kind::serve ? Commands::serve : Commands::init;

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
        if (row == nullptr || !takes(*row, commands)) {
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
