// The command line of API.md section 10. Every option is one row of the table in
// command_line.cpp, which both the parser and --help read:
//
//   collectcall-server init  [--db PATH] --account NAME [--caller-number +1...]...
//                            [--respectful-hours HH:MM-HH:MM] [--client NAME[=UUID]]...
//                            [--compliance POLICY] [--campaign NAME=STEPS]...
//   collectcall-server serve [--db PATH] [--listen HOST:PORT] [--allow-private-webhooks]
//                            [--now TIMESTAMP] [--call-step-ms N] [--rate-limit N] ...
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server.hpp"

namespace collectcall::server {

// The caller number of a new account that `init` is given none (fictional: 555-01xx).
inline constexpr std::string_view default_caller_number = "+12025550100";

struct Command {
    enum class Kind { help, version, init, serve, openapi };
    Kind kind = Kind::help;
    // init
    std::string account;
    std::vector<E164> caller_numbers;
    std::optional<compliance::RespectfulHours> window;  // --respectful-hours
    std::optional<CompliancePolicy> policy;             // --compliance
    std::vector<DripCampaignDefinition> campaigns;      // --campaign (repeatable)
    std::vector<ClientCreate> clients;                  // --client, in their order
    // serve (and the database path of both)
    ServerOptions server;
};

struct ParsedCommandLine {
    std::optional<Command> command;
    std::string error;  // when there is no command
};

// `args` without the program name.
ParsedCommandLine parse_command_line(std::span<const std::string_view> args);

std::string usage();

// The options only `serve` takes, other than those only tests use, in the order of --help
// (docs/server.md lists the same; a test compares them).
std::vector<std::string_view> serve_option_names();

}  // namespace collectcall::server
