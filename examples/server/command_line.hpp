// The command line of API.md section 10:
//
//   collectcall-server init --account NAME [options]
//   collectcall-server serve [options]
//
// Every option of either command is one row of the table in command_line.cpp (its name, its
// value, which commands take it, its default, its help), which the parser, --help and the table
// of docs/server.md (options_markdown; a test compares them) read.
#pragma once

#include <cstdint>
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
    std::optional<std::int64_t> daily_rows;             // --daily-rows
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

// The table of options as docs/server.md shows it (Markdown), options only tests use left out.
std::string options_markdown();

}  // namespace collectcall::server
