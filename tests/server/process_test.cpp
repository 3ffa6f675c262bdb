// The binary: the command line, the demo account, restarts, SIGTERM with a request in flight,
// a crash after an acknowledged write, the access log.
#include <signal.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <collectcall/api/routes.hpp>

#include "command_line.hpp"
#include "eventually.hpp"
#include "harness.hpp"

using namespace test;

namespace {

std::string line_value(const std::string& text, const std::string& prefix) {
    const auto at = text.find(prefix);
    if (at == std::string::npos) return {};
    const auto end = text.find('\n', at);
    return text.substr(at + prefix.size(), end - at - prefix.size());
}

// `text` with each run of spaces and line ends made one space.
std::string collapsed(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == ' ' || c == '\n') {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("init prints one JSON line; init again adds a key and an agent", "[process]") {
    Database database;
    const std::string db = database.uri();
    const ProcessResult first =
        run_binary({"init", "--db", db, "--account", "acme", "--caller-number", "+13125550100"});
    REQUIRE(first.exit_code == 0);
    REQUIRE(std::count(first.out.begin(), first.out.end(), '\n') == 1);
    const Reply a = parse(first.out);
    REQUIRE(a.parsed);
    CHECK(is_uuid_v4(a.str("/accountId")));
    CHECK(a.str("/apiKey").rfind("cck_", 0) == 0);

    const ProcessResult second = run_binary({"init", "--db", db, "--account", "acme"});
    REQUIRE(second.exit_code == 0);
    const Reply b = parse(second.out);
    CHECK(b.str("/accountId") == a.str("/accountId"));
    CHECK(b.str("/apiKey") != a.str("/apiKey"));
    CHECK(b.str("/agentId") != a.str("/agentId"));

    // The key is stored only as a hash.
    {
        std::string bytes;
        if (database.postgres()) {
            for (const auto& row : database.rows("SELECT * FROM api_keys")) {
                for (const std::string& column : row)
                    bytes += column;
            }
            CHECK(!bytes.empty());
        } else {
            std::ifstream in(db, std::ios::binary);
            bytes.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        }
        CHECK(bytes.find(a.str("/apiKey").substr(22)) == std::string::npos);
    }

    ChildServer server(db, {"--now", "2026-11-20T15:00:00Z", "--quiet"});
    CHECK(server.banner().find("demo") == std::string::npos);  // an account exists already
    Client one("127.0.0.1", server.port(), a.str("/apiKey"));
    Client two("127.0.0.1", server.port(), b.str("/apiKey"));
    const std::string id = one.post("/api/v1/customers", customer_json("p-1")).str("/data/id");
    CHECK(two.get("/api/v1/customers/" + id).status == 200);  // same account
    // Both agents belong to it; the caller number given to init is used.
    const Reply call = two.post("/api/v1/customers/" + id + "/calls",
                                R"({"agentId":")" + a.str("/agentId") + R"("})");
    CHECK(call.status == 200);
    CHECK(call.str("/data/fromPhoneNumber") == "+13125550100");
    server.signal(SIGTERM);
    CHECK(server.wait() == 0);

    // init --respectful-hours sets the account's window: 09:00 in Chicago is now outside it.
    REQUIRE(
        run_binary({"init", "--db", db, "--account", "acme", "--respectful-hours", "10:00-18:00"})
            .exit_code == 0);
    {
        ChildServer narrowed(db, {"--now", "2026-11-20T15:00:00Z", "--quiet"});
        Client client("127.0.0.1", narrowed.port(), a.str("/apiKey"));
        const Reply blocked = client.post("/api/v1/customers/" + id + "/calls",
                                          R"({"agentId":")" + a.str("/agentId") + R"("})");
        CHECK(blocked.status == 422);
        CHECK(blocked.str("/data/compliance/checksFailed/0/reason") ==
              "Customer local time is 09:00 (outside respectful hours 10am-6pm)");
        narrowed.signal(SIGTERM);
        CHECK(narrowed.wait() == 0);
    }
    for (const char* window : {"21:00-08:00", "08:00-08:00", "8:00-20:50", "08:00-24:01", "x"}) {
        INFO(window);
        CHECK(run_binary({"init", "--db", db, "--account", "acme", "--respectful-hours", window})
                  .exit_code == 2);
    }

    CHECK(run_binary({"init", "--db", db}).exit_code == 2);
    CHECK(run_binary({"init", "--db", db, "--account", "x", "--caller-number", "555"}).exit_code ==
          2);
    CHECK(run_binary({"serve", "--listen", "nowhere"}).exit_code == 2);
    CHECK(run_binary({"frobnicate"}).exit_code == 2);
    const ProcessResult openapi = run_binary({"openapi"});
    CHECK(openapi.exit_code == 0);
    CHECK(parse(openapi.out).str("/openapi").rfind("3.1", 0) == 0);
    const ProcessResult help = run_binary({"--help"});
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("collectcall-server serve") != std::string::npos);
    // The defaults it states are the library's and the server's own.
    const std::string stated = collapsed(help.out);
    CHECK(stated.find("(default 08:00-20:50 for a new account)") != std::string::npos);
    CHECK(stated.find("(default 1000)") != std::string::npos);  // --max-bulk-items
    CHECK(stated.find("(5 s ... 24 h)") != std::string::npos);  // the retry schedule
    CHECK(stated.find("(default 4 per core, at least 16)") != std::string::npos);
    CHECK(stated.find("(default ./collectcall.db)") != std::string::npos);
}

TEST_CASE("docs/server.md's table of endpoints has a row for each route of the route table",
          "[process]") {
    // A row is "| `METHOD /path?query` | success | notes |": the path under /api/v1 without it (the
    // documents that are not API calls in full), parameters under any name. The rows are written
    // by hand, in the order the docs tell them. COLLECTCALL_WRITE_DOCS=1 writes the table instead
    // of comparing: the rows as they are, less those of routes that no longer exist, then a row
    // for each route without one (its method, path and query, and its summary), for the author
    // to complete.
    const std::string path = std::string(COLLECTCALL_SOURCE_DIR) + "/docs/server.md";
    std::ifstream file(path);
    REQUIRE(file);
    const std::string docs((std::istreambuf_iterator<char>(file)), {});
    const std::string header = "| method and path | success | |\n|---|---|---|\n";
    const std::size_t start = docs.find(header);
    REQUIRE(start != std::string::npos);
    const std::size_t end = docs.find("\n\n", start);
    const auto shape = [](std::string_view method, std::string_view path) {
        std::string key(method);
        key += ' ';
        for (std::size_t i = 0; i < path.size() && path[i] != '?'; ++i) {
            if (path[i] == '{') {
                key += "{}";
                i = path.find('}', i);
                if (i == std::string_view::npos) break;
            } else {
                key += path[i];
            }
        }
        return key;
    };
    std::vector<std::string> routes;
    for (const collectcall::api::Route& route : collectcall::api::routes)
        routes.push_back(shape(route.method, route.path));

    std::vector<std::string> rows;  // the key of each row, in order
    std::string kept;               // the rows of routes that exist, as written
    for (std::size_t at = docs.find("\n| `", start); at < end; at = docs.find("\n| `", at + 1)) {
        const std::size_t close = docs.find('`', at + 4);
        const std::string cell = docs.substr(at + 4, close - at - 4);
        const std::size_t space = cell.find(' ');
        REQUIRE(space != std::string::npos);
        const std::string method = cell.substr(0, space);
        const std::string row_path = cell.substr(space + 1);
        std::string key = shape(method, row_path);
        if (std::find(routes.begin(), routes.end(), key) == routes.end())
            key = shape(method, "/api/v1" + row_path);
        INFO("docs/server.md: " << cell);
        CHECK(std::find(routes.begin(), routes.end(), key) != routes.end());
        if (std::find(routes.begin(), routes.end(), key) != routes.end() &&
            std::find(rows.begin(), rows.end(), key) == rows.end()) {
            kept += docs.substr(at + 1, std::min(docs.find('\n', at + 1), end) - at);
        }
        rows.push_back(key);
    }

    if (const char* write = std::getenv("COLLECTCALL_WRITE_DOCS"); write && *write == '1') {
        std::string table = header + kept;
        for (std::size_t i = 0; i < routes.size(); ++i) {
            if (std::find(rows.begin(), rows.end(), routes[i]) != rows.end()) continue;
            const collectcall::api::Route& route = collectcall::api::routes[i];
            std::string_view shown = route.path;
            if (route.access == collectcall::api::Access::api_key && shown.starts_with("/api/v1"))
                shown.remove_prefix(std::string_view("/api/v1").size());
            std::string query;
            if (route.query == collectcall::api::Query::external_id) query = "?externalId=X";
            if (route.query == collectcall::api::Query::page) query = "?limit&cursor";
            table += "| `" + std::string(route.method) + ' ' + std::string(shown) + query +
                     "` | 200 | " + std::string(route.summary) + " |\n";
        }
        std::ofstream(path) << docs.substr(0, start) << table << docs.substr(end + 1);
        return;
    }
    // Each route once.
    for (const std::string& route : routes) {
        INFO("route " << route << " (COLLECTCALL_WRITE_DOCS=1 adds its row)");
        CHECK(std::count(rows.begin(), rows.end(), route) == 1);
    }
    CHECK(rows.size() == routes.size());
}

TEST_CASE("--help and docs/server.md's table of options come from the table the parser reads",
          "[process]") {
    // The table of docs/server.md, as written, is the table's: every option, the commands that
    // take it, its default and its meaning.
    std::ifstream file(std::string(COLLECTCALL_SOURCE_DIR) + "/docs/server.md");
    REQUIRE(file);
    const std::string docs((std::istreambuf_iterator<char>(file)), {});
    const std::string expected = collectcall::server::options_markdown();
    const std::size_t start = docs.find("| option | commands | default | meaning |\n");
    REQUIRE(start != std::string::npos);
    const std::size_t end = docs.find("\n\n", start);
    // COLLECTCALL_WRITE_DOCS=1 writes the table into docs/server.md instead of comparing.
    if (const char* write = std::getenv("COLLECTCALL_WRITE_DOCS"); write && *write == '1') {
        std::ofstream(std::string(COLLECTCALL_SOURCE_DIR) + "/docs/server.md")
            << docs.substr(0, start) << expected << docs.substr(end + 1);
        return;
    }
    INFO("docs/server.md's table should read (COLLECTCALL_WRITE_DOCS=1 writes it):\n" << expected);
    CHECK(docs.substr(start, end + 1 - start) == expected);

    // --help states each option (its words wrapped: compared with the white space between them
    // collapsed) with its default, under the commands that take it.
    const std::string help = collapsed(collectcall::server::usage());
    const std::size_t serve_section = help.find(" serve Serves the API.");
    REQUIRE(serve_section != std::string::npos);
    std::size_t rows = 0;
    for (std::size_t at = expected.find("\n| `"); at != std::string::npos;
         at = expected.find("\n| `", at + 1)) {
        // "| `--name VALUE` | commands | default | meaning |"
        std::string row = expected.substr(at + 3, expected.find('\n', at + 1) - at - 3 - 2);
        std::vector<std::string> cells;
        for (std::size_t bar; (bar = row.find(" | ")) != std::string::npos; row.erase(0, bar + 3))
            cells.push_back(row.substr(0, bar));
        cells.push_back(row);
        REQUIRE(cells.size() == 4);
        for (std::string& text : cells) {
            for (std::size_t bar; (bar = text.find("\\|")) != std::string::npos;)
                text.erase(bar, 1);
        }
        const std::string option = cells[0].substr(1, cells[0].size() - 2);  // within its '`'
        const std::string& meaning = cells[3];
        const std::size_t repeatable = meaning.rfind("; repeatable");
        const std::string stated =
            option + ' ' +
            (cells[2] == "required" ? meaning + " (required)"
             : repeatable == std::string::npos
                 ? meaning + " (default " + cells[2] + ")"
                 : meaning.substr(0, repeatable) + " (default " + cells[2] + "); repeatable");
        INFO(stated);
        const std::size_t first = help.find(" " + collapsed(stated) + " ");
        const std::size_t in_serve = help.find(" " + collapsed(stated) + " ", serve_section);
        CHECK((cells[1].find("init") != std::string::npos) == (first < serve_section));
        CHECK((cells[1].find("serve") != std::string::npos) == (in_serve != std::string::npos));
        ++rows;
    }
    CHECK(rows >= 20);
}

TEST_CASE("first start creates the demo account once; data survives a restart", "[process]") {
    Database database;
    const std::string db = database.uri();
    std::string key;
    std::string agent;
    std::string customer;
    {
        ChildServer server(db, {"--now", "2026-11-20T15:00:00Z"});
        key = line_value(server.banner(), "export COLLECTCALL_API_KEY=");
        agent = line_value(server.banner(), "export COLLECTCALL_AGENT_ID=");
        REQUIRE(key.rfind("cck_", 0) == 0);
        REQUIRE(is_uuid_v4(agent));
        Client client("127.0.0.1", server.port(), key);
        const Reply created = client.post("/api/v1/customers", collections_customer_json("keep"));
        REQUIRE(created.status == 200);
        customer = created.str("/data/id");
        REQUIRE(client
                    .post("/api/v1/customers/" + customer + "/calls",
                          R"({"agentId":")" + agent + R"("})")
                    .status == 200);
        server.signal(SIGTERM);
        REQUIRE(server.wait() == 0);

        // The access log: one JSON line per request, never the key.
        const std::string log = server.error_output();
        CHECK(log.find(R"("method":"POST","path":"/api/v1/customers","status":200)") !=
              std::string::npos);
        CHECK(log.find("\"requestId\":\"") != std::string::npos);
        CHECK(log.find("\"durationMs\":") != std::string::npos);
        CHECK(log.find(key) == std::string::npos);
        CHECK(log.find(key.substr(22)) == std::string::npos);
    }
    ChildServer again(db, {"--now", "2026-11-20T15:00:00Z", "--quiet"});
    CHECK(again.banner().find("COLLECTCALL_API_KEY") == std::string::npos);
    Client client("127.0.0.1", again.port(), key);
    const Reply got = client.get("/api/v1/customers/" + customer);
    REQUIRE(got.status == 200);
    CHECK(got.raw("/data/collections/totalBalance") == "1234.56");
    CHECK(client.get("/api/v1/customers/" + customer + "/calls").size("/data/calls") == 1);
    again.signal(SIGINT);
    CHECK(again.wait() == 0);
}

TEST_CASE("an acknowledged write survives a crash", "[process]") {
    Database database;
    const std::string db = database.uri();
    const Reply account = parse(run_binary({"init", "--db", db, "--account", "acme"}).out);
    const std::string key = account.str("/apiKey");
    std::string id;
    {
        ChildServer server(db, {"--quiet"});
        Client client("127.0.0.1", server.port(), key);
        const Reply created = client.post("/api/v1/customers", customer_json("durable"));
        REQUIRE(created.status == 200);
        id = created.str("/data/id");
        server.signal(SIGKILL);
        CHECK(server.wait() == 128 + SIGKILL);
    }
    ChildServer server(db, {"--quiet"});
    CHECK(Client("127.0.0.1", server.port(), key).get("/api/v1/customers/" + id).status == 200);
}

TEST_CASE("SIGTERM answers the request in flight, then exits 0", "[process]") {
    Database database;
    const std::string db = database.uri();
    const Reply account = parse(run_binary({"init", "--db", db, "--account", "acme"}).out);
    ChildServer server(db, {"--quiet"});

    // A request whose body is half sent when the signal comes.
    const std::string body = customer_json("in-flight");
    RawConnection raw(server.port());
    REQUIRE(raw.send("POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                     account.str("/apiKey") +
                     "\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n" + body.substr(0, 20)));
    // The server is reading the body once the headers are in; give it that moment.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    server.signal(SIGTERM);
    // New connections are refused while the request in flight is finished: once the server has
    // handled the signal, which a loaded machine may take a while to schedule.
    CHECK(eventually(
        [&] {
            try {
                (void)Client("127.0.0.1", server.port()).get("/healthz");
                return false;
            } catch (const std::exception&) {
                return true;
            }
        },
        std::chrono::seconds(10), std::chrono::milliseconds(20)));
    REQUIRE(raw.send(body.substr(20)));
    const auto response = raw.receive();
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(server.wait() == 0);
}

TEST_CASE("init --client takes a name of Text's length and says so when refused", "[process]") {
    const auto parse = [](const std::string& name) {
        const std::vector<std::string_view> args{"init", "--account", "acme", "--client", name};
        return collectcall::server::parse_command_line(args);
    };
    const auto longest = parse(std::string(collectcall::Text::max_code_points, 'x'));
    REQUIRE(longest.command.has_value());
    REQUIRE(longest.command->clients.size() == 1);
    CHECK(longest.command->clients[0].name.view().size() == collectcall::Text::max_code_points);
    for (const std::string& name :
         {std::string(), std::string(collectcall::Text::max_code_points + 1, 'x')}) {
        const auto refused = parse(name);
        CHECK_FALSE(refused.command.has_value());
        CHECK(refused.error.find("--client needs a name (1 to 200 characters)") !=
              std::string::npos);
    }
}
