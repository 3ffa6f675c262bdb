// collectcall-server: see command_line.cpp for the command line and docs/server.md for the API.
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string_view>
#include <thread>
#include <vector>

#include <collectcall/version.hpp>

#include "command_line.hpp"
#include "handlers/service.hpp"
#include "postgres/postgres.hpp"
#include "postgres/postgres_store.hpp"
#include "sqlite/sqlite_store.hpp"

namespace {

using namespace collectcall::server;

constexpr std::string_view demo_account = "demo";
constexpr std::string_view demo_campaign = "default";

AccountSetup setup_for(std::string name, std::vector<collectcall::E164> numbers,
                       std::optional<collectcall::compliance::RespectfulHours> window = {}) {
    AccountSetup setup;
    setup.name = std::move(name);
    setup.caller_numbers = std::move(numbers);
    setup.window = window;
    setup.fallback_caller_number = collectcall::E164::parse(default_caller_number).value();
    return setup;
}

// What `init` prints: the credentials and the clients it was given.
struct InitOutput {
    collectcall::Uuid accountId;
    std::string apiKey;
    std::string agentId;
    std::vector<collectcall::Client> clients;
};
BOOST_DESCRIBE_STRUCT(InitOutput, (), (accountId, apiKey, agentId, clients))

// The account's client `wanted` names: under its id when it has one (nullopt when that id is
// another account's), else the account's client of that name, or a new one.
std::optional<collectcall::Client> account_client(Store& store, const collectcall::Uuid& account,
                                                  const collectcall::ClientCreate& wanted,
                                                  Time now) {
    if (!wanted.id) {
        collectcall::api::PageRequest page{collectcall::api::max_page_limit, std::nullopt};
        for (;;) {
            Page<collectcall::Client> clients = store.list_clients(account, page);
            for (collectcall::Client& existing : clients.items) {
                if (existing.name == wanted.name) return existing;
            }
            if (!clients.next) break;
            page.after = clients.next;
        }
    }
    collectcall::Client client{wanted.id ? *wanted.id : new_uuid(), wanted.name};
    if (store.insert_client(account, client, now) == ClientInsert::taken) return std::nullopt;
    return client;
}

std::unique_ptr<Store> open_for_init(const ServerOptions& options) {
    if (pg::is_uri(options.db_path)) {
        PostgresOptions postgres = postgres_options(options);
        postgres.pool_size = 2;
        return std::make_unique<PostgresStore>(postgres);
    }
    return std::make_unique<SqliteStore>(SqliteOptions{options.db_path, options.busy_timeout_ms});
}

int init(const Command& command) {
    const std::unique_ptr<Store> opened = open_for_init(command.server);
    Store& store = *opened;
    const Clock clock;
    AccountSetup setup = setup_for(command.account, command.caller_numbers, command.window);
    setup.policy = command.policy;
    setup.campaigns = command.campaigns;
    setup.daily_rows = command.daily_rows;
    const Credentials credentials = store.create_credentials(setup, clock.now());
    InitOutput out{credentials.accountId, credentials.apiKey, credentials.agentId, {}};
    for (const collectcall::ClientCreate& wanted : command.clients) {
        const auto client = account_client(store, credentials.accountId, wanted, clock.now());
        if (!client) {
            std::cerr << "collectcall-server: client id " << wanted.id->view()
                      << " belongs to another account\n";
            return 1;
        }
        out.clients.push_back(*client);
    }
    std::cout << collectcall::write(out) << std::endl;
    return 0;
}

// The database as the banner shows it: a PostgreSQL URI without its password.
std::string shown_database(const std::string& db) {
    if (!pg::is_uri(db)) return db;
    const auto scheme = db.find("://") + 3;
    const auto at = db.find('@', scheme);
    const auto colon = db.find(':', scheme);
    if (at == std::string::npos || colon == std::string::npos || colon > at) return db;
    return db.substr(0, colon) + ":***" + db.substr(at);
}

int serve(const Command& command) {
    // Signals are taken by one thread with sigwait; every other thread (the server's workers
    // are created later and inherit the mask) never sees them.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    // A peer that goes away mid-write must not kill the process (the server sends with
    // MSG_NOSIGNAL; the libraries of webhook delivery and PostgreSQL may not).
    signal(SIGPIPE, SIG_IGN);
    // A file that may not grow any more (the file size limit, RLIMIT_FSIZE or `ulimit -f`) must
    // fail the write with EFBIG, which SQLite reports as an I/O error and the API as 503, like a
    // full disk: by default the kernel kills the process with SIGXFSZ instead.
    signal(SIGXFSZ, SIG_IGN);
    // Idle and slow connections cost a file descriptor each and no thread: allow as many as
    // the system lets this process have.
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    // Buffers of 1 MiB and more (a large request's body, its parser's indexes) are mapped on
    // their own and unmapped when freed. glibc would otherwise raise this threshold after the
    // first large free and serve later large buffers from arenas that keep their pages.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    // Setting that threshold also fixes the one above which free() gives the top of an arena
    // back to the system at its default, 128 KiB: every request with a few hundred KiB of
    // buffers (a bulk of 500: its items, results and answer) returned them when done and took
    // them again, zero-filled page by page, for the next. An arena now keeps up to 8 MiB free;
    // after a request of more than 1 MiB the server trims every arena anyway (server.cpp).
    mallopt(M_TRIM_THRESHOLD, 8 << 20);
    // Each request is handed from thread to thread (the event loop, a worker, the store's
    // writer, the worker again), and each hand-off wakes a thread. Under the default policy a
    // woken thread preempts the one running, so the store's writer, which every write waits
    // for, was interrupted by each thread its own commit woke. As SCHED_BATCH (set here, before
    // the first thread, and inherited by all), the server's threads wake without preempting one
    // another: a running thread goes on until it blocks or its time slice ends. A policy the
    // operator chose (chrt) is kept. docs/server.md has what it is worth.
    if (sched_getscheduler(0) == SCHED_OTHER) {
        const sched_param normal{};
        sched_setscheduler(0, SCHED_BATCH, &normal);
    }

    ServerOptions options = command.server;
    if (const char* key = std::getenv("COLLECTCALL_TEST_KILL_AFTER_COMMIT")) {
        options.api.test_kill_after_commit = key;  // tests only: see ApiConfig
    }
    Server server(options);
    if (!server.store().has_accounts()) {
        // With the drip campaign "default" (call@0,sms@2,call@4), for the walkthrough.
        AccountSetup setup = setup_for(std::string(demo_account), {});
        setup.campaigns.push_back(collectcall::parse_drip_campaign(demo_campaign).campaign.value());
        const Credentials demo = server.store().create_credentials(setup, server.clock().now());
        std::cout << "collectcall-server: created the demo account " << demo.accountId.view()
                  << ". Its API key is shown only this once:\n"
                  << "  export COLLECTCALL_API_KEY=" << demo.apiKey << "\n"
                  << "  export COLLECTCALL_AGENT_ID=" << demo.agentId << "\n";
    }
    const int port = server.bind();
    const std::string& host = command.server.host;
    const bool v6 = host.find(':') != std::string::npos;
    std::cout << "collectcall-server: listening on http://" << (v6 ? "[" : "") << host
              << (v6 ? "]" : "") << ":" << port << " (database "
              << shown_database(command.server.db_path) << ", " << server.threads() << " threads)"
              << std::endl;

    std::atomic<bool> done{false};
    std::thread waiter([&] {
        const timespec tick{0, 200'000'000};
        while (!done) {
            if (sigtimedwait(&signals, nullptr, &tick) > 0) {
                server.stop();
                return;
            }
        }
    });
    server.run();
    done = true;
    waiter.join();
    std::cout << "collectcall-server: stopped" << std::endl;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    const ParsedCommandLine parsed = parse_command_line(args);
    if (!parsed.command) {
        std::cerr << "collectcall-server: " << parsed.error << "\nRun collectcall-server --help.\n";
        return 2;
    }
    const Command& command = *parsed.command;
    try {
        switch (command.kind) {
            case Command::Kind::help:
                std::cout << usage();
                return 0;
            case Command::Kind::version:
                std::cout << "collectcall-server " << COLLECTCALL_VERSION_STRING << "\n";
                return 0;
            case Command::Kind::openapi:
                std::cout << *handlers::openapi_document() << "\n";
                return 0;
            case Command::Kind::init:
                return init(command);
            case Command::Kind::serve:
                return serve(command);
        }
    } catch (const std::exception& e) {
        std::cerr << "collectcall-server: " << e.what() << "\n";
        return 1;
    }
    return 1;
}
