// Clients (API.md section 13): GET /clients, POST /clients, init --client, and a customer's
// clientId naming a client of the caller's account.
#include <catch2/catch.hpp>

#include <string>

#include "harness.hpp"

using namespace test;

namespace {

constexpr const char* hosted_id = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

std::string with_client(std::string_view external_id, const std::string& client_id) {
    return customer_json(external_id, R"(,"clientId":")" + client_id + R"(")");
}

}  // namespace

TEST_CASE("clients: POST creates or imports one, GET lists the account's newest first",
          "[clients]") {
    LocalServer server;
    Client acme = server.client(server.create_account("acme"));
    Client globex = server.client(server.create_account("globex"));

    const Reply made = acme.post("/api/v1/clients", R"({"name":"Acme Corp"})");
    REQUIRE(made.status == 200);
    CHECK(is_uuid_v4(made.str("/data/id")));
    CHECK(made.str("/data/name") == "Acme Corp");

    // An id the client has at the hosted service is kept; the account's own id is renamed.
    const Reply imported =
        acme.post("/api/v1/clients", R"({"name":"Globex","id":")" + std::string(hosted_id) + "\"}");
    REQUIRE(imported.status == 200);
    CHECK(imported.str("/data/id") == hosted_id);
    const Reply renamed = acme.post(
        "/api/v1/clients", R"({"name":"Globex Inc","id":")" + std::string(hosted_id) + "\"}");
    REQUIRE(renamed.status == 200);
    CHECK(renamed.str("/data/name") == "Globex Inc");

    // Another account's id is 409, and changes nothing.
    const Reply taken =
        globex.post("/api/v1/clients", R"({"name":"Mine","id":")" + std::string(hosted_id) + "\"}");
    CHECK(taken.status == 409);
    CHECK(taken.error_code() == "client_taken");

    const Reply listed = acme.get("/api/v1/clients");
    REQUIRE(listed.status == 200);
    CHECK(listed.raw("/data") == R"([{"id":")" + std::string(hosted_id) +
                                     R"(","name":"Globex Inc"},{"id":")" + made.str("/data/id") +
                                     R"(","name":"Acme Corp"}])");
    CHECK(globex.get("/api/v1/clients").raw("/data") == "[]");
    CHECK(server.anonymous().get("/api/v1/clients").status == 401);
}

TEST_CASE("clients: every field error with its path", "[clients]") {
    LocalServer server;
    Client acme = server.client(server.create_account("acme"));
    const Reply missing = acme.post("/api/v1/clients", "{}");
    REQUIRE(missing.status == 400);
    CHECK(missing.str("/error/details/0/path") == "/name");
    CHECK(missing.str("/error/details/0/code") == "required");
    const Reply bad = acme.post("/api/v1/clients", R"({"name":"  ","id":"nope","x":1})");
    REQUIRE(bad.status == 400);
    REQUIRE(bad.size("/error/details") == 3);
    CHECK(bad.str("/error/details/0/path") == "/name");
    CHECK(bad.str("/error/details/1/path") == "/id");
    CHECK(bad.str("/error/details/2/path") == "/x");
    CHECK(bad.str("/error/details/2/code") == "unknown_field");
    CHECK(acme.get("/api/v1/clients").raw("/data") == "[]");
}

TEST_CASE("a customer's clientId must name a client of the caller's account", "[clients]") {
    LocalServer server;
    Client acme = server.client(server.create_account("acme"));
    Client globex = server.client(server.create_account("globex"));
    const std::string ours =
        acme.post("/api/v1/clients", R"({"name":"Acme Corp"})").str("/data/id");
    const std::string theirs =
        globex.post("/api/v1/clients", R"({"name":"Globex"})").str("/data/id");

    const Reply created = acme.post("/api/v1/customers", with_client("k-1", ours));
    REQUIRE(created.status == 200);
    CHECK(created.str("/data/clientId") == ours);

    for (const std::string& id : {theirs, std::string("0f8fad5b-d9cb-469f-a165-70867728950e")}) {
        const Reply refused = acme.post("/api/v1/customers", with_client("k-2", id));
        REQUIRE(refused.status == 400);
        CHECK(refused.error_code() == "validation_failed");
        REQUIRE(refused.size("/error/details") == 1);
        CHECK(refused.str("/error/details/0/path") == "/clientId");
        CHECK(refused.str("/error/details/0/code") == "not_found");
    }
    CHECK(acme.get("/api/v1/customers?externalId=k-2").size("/data/customers") == 0);

    // In bulk, the item fails alone.
    const Reply bulk =
        acme.post("/api/v1/customers/bulk", "{\"customers\":[" + with_client("k-3", theirs) + "," +
                                                with_client("k-4", ours) + "]}");
    REQUIRE(bulk.status == 200);
    CHECK(bulk.integer("/data/summary/succeeded") == 1);
    CHECK_FALSE(bulk.boolean("/data/results/0/success"));
    CHECK(bulk.str("/data/results/0/externalId") == "k-3");
    CHECK(bulk.str("/data/results/0/error") ==
          "validation failed: /clientId: is not a client of this account");
    CHECK(bulk.str("/data/results/0/details/0/code") == "not_found");
    CHECK(bulk.boolean("/data/results/1/success"));
    CHECK(bulk.str("/data/results/1/customer/clientId") == ours);
}

TEST_CASE("init --client: new, by name again, NAME=UUID, another account's id refused",
          "[clients][process]") {
    Database database;
    const std::string db = database.uri();
    const ProcessResult first =
        run_binary({"init", "--db", db, "--account", "acme", "--client", "Acme Corp", "--client",
                    std::string("Globex=") + hosted_id});
    REQUIRE(first.exit_code == 0);
    const Reply a = parse(first.out);
    REQUIRE(a.size("/clients") == 2);
    CHECK(a.str("/clients/0/name") == "Acme Corp");
    CHECK(is_uuid_v4(a.str("/clients/0/id")));
    CHECK(a.str("/clients/1/id") == hosted_id);
    CHECK(a.str("/clients/1/name") == "Globex");

    // The same name again is the same client.
    const Reply again =
        parse(run_binary({"init", "--db", db, "--account", "acme", "--client", "Acme Corp"}).out);
    CHECK(again.str("/clients/0/id") == a.str("/clients/0/id"));
    CHECK(parse(run_binary({"init", "--db", db, "--account", "acme"}).out).size("/clients") == 0);

    const ProcessResult taken = run_binary(
        {"init", "--db", db, "--account", "other", "--client", std::string("X=") + hosted_id});
    CHECK(taken.exit_code == 1);
    CHECK(run_binary({"init", "--db", db, "--account", "acme", "--client", ""}).exit_code == 2);

    ChildServer server(db, {"--quiet"});
    Client client("127.0.0.1", server.port(), a.str("/apiKey"));
    const Reply listed = client.get("/api/v1/clients");
    REQUIRE(listed.status == 200);
    CHECK(listed.size("/data") == 2);
    CHECK(listed.str("/data/0/id") == hosted_id);  // newest first
}
