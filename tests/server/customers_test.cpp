// Customers: create, read, look up, PATCH (API.md section 6), bulk (section 7), duplicates,
// the duplicate race, tenant isolation, the state endpoints.
#include <catch2/catch.hpp>

#include <atomic>
#include <barrier>
#include <cctype>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"

using namespace test;

TEST_CASE("create echoes every field exactly; GET and lookup return it", "[customers]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));

    const Reply created = client.post(
        "/api/v1/customers",
        customer_json("ex-1", R"(,"middleName":"Q","secondaryPhone":"+442071838750",)"
                              R"("ssnLastFour":"0042","dateOfBirth":"1980-02-29",)"
                              R"("collections":{"totalBalance":1234.56,"principalBalance":1.50,)"
                              R"("accruedInterestAmount":1e2,"chargeOffDate":"2020-01-31"})"));
    REQUIRE(created.status == 200);
    const std::string id = created.str("/data/id");
    CHECK(is_recent_uuid_v7(id));
    CHECK(created.str("/data/externalId") == "ex-1");
    CHECK(created.str("/data/middleName") == "Q");
    CHECK(created.str("/data/ssnLastFour") == "0042");
    CHECK(created.raw("/data/collections/totalBalance") == "1234.56");
    CHECK(created.raw("/data/collections/principalBalance") == "1.5");
    CHECK(created.raw("/data/collections/accruedInterestAmount") == "100");
    CHECK(created.is_null("/data/collections/productType"));
    CHECK(created.is_null("/data/address/line2"));
    CHECK(created.str("/data/createdAt") == created.str("/data/updatedAt"));

    const Reply got = client.get("/api/v1/customers/" + id);
    REQUIRE(got.status == 200);
    CHECK(got.raw("/data") == created.raw("/data"));
    // Ids are accepted in either case.
    std::string upper = id;
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(client.get("/api/v1/customers/" + upper).raw("/data") == created.raw("/data"));

    const Reply found = client.get("/api/v1/customers?externalId=ex-1");
    REQUIRE(found.status == 200);
    REQUIRE(found.size("/data/customers") == 1);
    CHECK(found.raw("/data/customers/0") == created.raw("/data"));
    const Reply none = client.get("/api/v1/customers?externalId=nobody");
    CHECK(none.status == 200);
    CHECK(none.size("/data/customers") == 0);

    const Reply no_param = client.get("/api/v1/customers");
    CHECK(no_param.status == 400);
    CHECK(no_param.error_code() == "validation_failed");
    CHECK(client.get("/api/v1/customers?externalId=a&externalId=b").status == 400);
    CHECK(client.get("/api/v1/customers?externalId=a&limit=3").status == 400);
}

TEST_CASE("customer ids are time-ordered: a later customer's id sorts after", "[customers]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i) {
        if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(3));
        const Reply created =
            client.post("/api/v1/customers", customer_json("order-" + std::to_string(i)));
        REQUIRE(created.status == 200);
        ids.push_back(created.str("/data/id"));
    }
    CHECK(is_time_ordered(ids));
}

TEST_CASE("a duplicate externalId is 409; other accounts may use it", "[customers]") {
    LocalServer server;
    Client acme = server.client(server.create_account("acme"));
    Client globex = server.client(server.create_account("globex"));

    REQUIRE(acme.post("/api/v1/customers", customer_json("dup")).status == 200);
    const Reply again = acme.post("/api/v1/customers", customer_json("dup"));
    CHECK(again.status == 409);
    CHECK(again.error_code() == "duplicate_external_id");
    CHECK(again.str("/error/message") == "A customer with external ID 'dup' already exists.");
    CHECK(again.str("/publicFacingMessage") == again.str("/error/message"));
    CHECK(globex.post("/api/v1/customers", customer_json("dup")).status == 200);
}

TEST_CASE("16 concurrent creates of one externalId: exactly one 200", "[customers][race]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    constexpr int n = 16;
    std::barrier start(n);
    std::atomic<int> created{0};
    std::atomic<int> conflicts{0};
    std::atomic<int> other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i) {
        threads.emplace_back([&] {
            Client client = server.client(acme);
            // Connect first, so that the requests leave together.
            REQUIRE(client.get("/healthz").status == 200);
            start.arrive_and_wait();
            const Reply r = client.post("/api/v1/customers", customer_json("race"));
            if (r.status == 200) {
                ++created;
            } else if (r.status == 409 && r.error_code() == "duplicate_external_id") {
                ++conflicts;
            } else {
                ++other;
            }
        });
    }
    for (auto& t : threads)
        t.join();
    CHECK(created == 1);
    CHECK(conflicts == n - 1);
    CHECK(other == 0);
    CHECK(server.client(acme).get("/api/v1/customers?externalId=race").size("/data/customers") ==
          1);
}

TEST_CASE("PATCH is a merge patch validated as a whole", "[customers][patch]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    const Reply created = client.post("/api/v1/customers", collections_customer_json("p-1"));
    REQUIRE(created.status == 200);
    const std::string path = "/api/v1/customers/" + created.str("/data/id");

    SECTION("{} returns the customer unchanged") {
        const Reply r = client.patch(path, "{}");
        REQUIRE(r.status == 200);
        CHECK(r.raw("/data") == created.raw("/data"));
    }
    SECTION("a value replaces, null clears, absent keeps; nested objects merge") {
        const Reply r = client.patch(
            path,
            R"({"firstName":"Bo","middleName":"M","address":{"line2":"Apt 5","zip":"60602-1234"},)"
            R"("collections":{"principalBalance":null,"productType":"card"}})");
        REQUIRE(r.status == 200);
        CHECK(r.str("/data/firstName") == "Bo");
        CHECK(r.str("/data/lastName") == "Lee");
        CHECK(r.str("/data/middleName") == "M");
        CHECK(r.str("/data/address/line1") == "1 Main St");
        CHECK(r.str("/data/address/line2") == "Apt 5");
        CHECK(r.str("/data/address/zip") == "60602-1234");
        CHECK(r.raw("/data/collections/totalBalance") == "1234.56");
        CHECK(r.is_null("/data/collections/principalBalance"));
        CHECK(r.str("/data/collections/originalCreditor") == "Bank");
        CHECK(r.str("/data/collections/productType") == "card");
        CHECK(r.str("/data/createdAt") == created.str("/data/createdAt"));
        CHECK(r.str("/data/updatedAt") >= created.str("/data/updatedAt"));
        // Stored, not only answered.
        CHECK(client.get(path).raw("/data") == r.raw("/data"));

        const Reply cleared = client.patch(path, R"({"middleName":null,"address":{"line2":null}})");
        REQUIRE(cleared.status == 200);
        CHECK(cleared.is_null("/data/middleName"));
        CHECK(cleared.is_null("/data/address/line2"));
    }
    SECTION("null on a required member is not_allowed") {
        const Reply r = client.patch(path, R"({"firstName":null,"address":{"zip":null}})");
        REQUIRE(r.status == 400);
        CHECK(r.error_code() == "validation_failed");
        REQUIRE(r.size("/error/details") == 2);
        CHECK(r.str("/error/details/0/path") == "/firstName");
        CHECK(r.str("/error/details/0/code") == "not_allowed");
        CHECK(r.str("/error/details/1/path") == "/address/zip");
        CHECK(client.get(path).raw("/data") == created.raw("/data"));
    }
    SECTION("externalId and id cannot be changed") {
        const Reply r = client.patch(path, R"({"externalId":"other","id":"x"})");
        REQUIRE(r.status == 400);
        REQUIRE(r.size("/error/details") == 2);
        CHECK(r.str("/error/details/0/path") == "/externalId");
        CHECK(r.str("/error/details/0/code") == "not_allowed");
        CHECK(r.str("/error/details/1/path") == "/id");
    }
    SECTION("clearing ssnLastFour while collections is set is a conflict") {
        const Reply r = client.patch(path, R"({"ssnLastFour":null})");
        REQUIRE(r.status == 400);
        REQUIRE(r.size("/error/details") == 1);
        CHECK(r.str("/error/details/0/path") == "/collections");
        CHECK(r.str("/error/details/0/code") == "conflict");
        // Clearing collections with it is fine.
        const Reply both = client.patch(path, R"({"ssnLastFour":null,"collections":null})");
        REQUIRE(both.status == 200);
        CHECK(both.is_null("/data/collections"));
        CHECK(both.is_null("/data/ssnLastFour"));
    }
    SECTION("invalid values and unknown members are reported with paths") {
        const Reply r = client.patch(path, R"({"email":"nope","address":{"zip":"1"},"nick":"x"})");
        REQUIRE(r.status == 400);
        REQUIRE(r.size("/error/details") == 3);
        CHECK(r.str("/error/details/0/path") == "/email");
        CHECK(r.str("/error/details/1/path") == "/address/zip");
        CHECK(r.str("/error/details/2/path") == "/nick");
    }
}

TEST_CASE("PATCH adding collections needs totalBalance and the identity fields",
          "[customers][patch]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    const std::string path = "/api/v1/customers/" +
                             client.post("/api/v1/customers", customer_json("p-2")).str("/data/id");

    const Reply missing = client.patch(path, R"({"collections":{"productType":"card"}})");
    REQUIRE(missing.status == 400);
    CHECK(missing.str("/error/details/0/path") == "/collections/totalBalance");
    CHECK(missing.str("/error/details/0/code") == "required");

    const Reply conflict = client.patch(path, R"({"collections":{"totalBalance":5}})");
    REQUIRE(conflict.status == 400);
    CHECK(conflict.str("/error/details/0/path") == "/collections");
    CHECK(conflict.str("/error/details/0/code") == "conflict");

    const Reply ok = client.patch(
        path,
        R"({"ssnLastFour":"9999","dateOfBirth":"1990-12-31","collections":{"totalBalance":5}})");
    REQUIRE(ok.status == 200);
    CHECK(ok.raw("/data/collections/totalBalance") == "5");
}

TEST_CASE("bulk: every item on its own, results in order", "[customers][bulk]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    REQUIRE(client.post("/api/v1/customers", customer_json("stored")).status == 200);

    const std::string body = R"({"customers":[)" + customer_json("b-1") + "," +  // created
                             R"({"externalId":"b-bad","email":"x"},)" +          // invalid
                             customer_json("b-1") + "," +                        // dup in request
                             customer_json("stored") + "," +                     // dup in store
                             R"({"externalId":"b-2","firstName":"A"},)" +        // invalid...
                             customer_json("b-2") + "," +  // ...so b-2 is free
                             "42" + "]}";
    const Reply r = client.post("/api/v1/customers/bulk", body);
    REQUIRE(r.status == 200);
    CHECK(r.integer("/data/summary/total") == 7);
    CHECK(r.integer("/data/summary/succeeded") == 2);
    CHECK(r.integer("/data/summary/failed") == 5);
    REQUIRE(r.size("/data/results") == 7);

    CHECK(r.boolean("/data/results/0/success"));
    CHECK(r.str("/data/results/0/customer/externalId") == "b-1");
    CHECK(is_recent_uuid_v7(r.str("/data/results/0/customer/id")));
    CHECK(r.has("/data/results/0/customer/createdAt"));
    CHECK(r.is_null("/data/results/0/customer/secondaryPhone"));

    CHECK_FALSE(r.boolean("/data/results/1/success"));
    CHECK(r.str("/data/results/1/externalId") == "b-bad");
    CHECK(r.str("/data/results/1/error").rfind("validation failed: /email: ", 0) == 0);
    CHECK(r.str("/data/results/1/details/0/path") == "/email");
    CHECK(r.str("/data/results/1/details/1/code") == "required");

    CHECK_FALSE(r.boolean("/data/results/2/success"));
    CHECK(r.str("/data/results/2/externalId") == "b-1");
    CHECK(r.str("/data/results/2/error") == "Customer with external ID 'b-1' already exists");
    CHECK(r.str("/data/results/3/error") == "Customer with external ID 'stored' already exists");
    CHECK_FALSE(r.boolean("/data/results/4/success"));
    CHECK(r.boolean("/data/results/5/success"));
    CHECK(r.str("/data/results/5/customer/externalId") == "b-2");
    CHECK(r.is_null("/data/results/6/externalId"));
    CHECK(r.str("/data/results/6/details/0/code") == "type");

    // The created ones are stored.
    CHECK(client.get("/api/v1/customers?externalId=b-2").size("/data/customers") == 1);
}

TEST_CASE("bulk: 200 when every item failed; 0 or too many items is 400", "[customers][bulk]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));

    const Reply all_failed = client.post("/api/v1/customers/bulk", R"({"customers":[{},{}]})");
    CHECK(all_failed.status == 200);
    CHECK(all_failed.integer("/data/summary/failed") == 2);
    CHECK(all_failed.integer("/data/summary/succeeded") == 0);

    const Reply empty = client.post("/api/v1/customers/bulk", R"({"customers":[]})");
    CHECK(empty.status == 400);
    CHECK(empty.error_code() == "validation_failed");
    CHECK(empty.str("/error/details/0/path") == "/customers");

    std::string many = R"({"customers":[)";
    for (int i = 0; i < 1001; ++i)
        many += i == 0 ? "{}" : ",{}";
    many += "]}";
    const Reply too_many = client.post("/api/v1/customers/bulk", many);
    CHECK(too_many.status == 400);
    CHECK(too_many.str("/error/details/0/path") == "/customers");

    CHECK(client.post("/api/v1/customers/bulk", R"({"customers":{}})").status == 400);
    CHECK(client.post("/api/v1/customers/bulk", R"({"customers":[)").error_code() ==
          "malformed_json");
}

TEST_CASE("bulk: 1000 customers in one request", "[customers][bulk]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    std::string body = R"({"customers":[)";
    for (int i = 0; i < 1000; ++i) {
        if (i != 0) body += ',';
        body += customer_json("k-" + std::to_string(i));
    }
    body += "]}";
    const Reply r = client.post("/api/v1/customers/bulk", body);
    REQUIRE(r.status == 200);
    CHECK(r.integer("/data/summary/succeeded") == 1000);
    CHECK(r.str("/data/results/999/customer/externalId") == "k-999");
}

TEST_CASE("bulk: duplicates anywhere in a large request fail alone", "[customers][bulk]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    REQUIRE(client.post("/api/v1/customers", customer_json("d-stored")).status == 200);
    // 71 items: every seventh repeats the one before it or a stored customer; the rest are new.
    std::string body = R"({"customers":[)";
    std::vector<bool> expected;
    for (int i = 0; i < 71; ++i) {
        std::string external_id = "d-" + std::to_string(i);
        if (i % 7 == 6) external_id = i % 14 == 6 ? "d-" + std::to_string(i - 1) : "d-stored";
        if (i != 0) body += ',';
        body += customer_json(external_id);
        expected.push_back(i % 7 != 6);
    }
    body += "]}";
    const Reply r = client.post("/api/v1/customers/bulk", body);
    REQUIRE(r.status == 200);
    REQUIRE(r.size("/data/results") == 71);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("item " << i);
        CHECK(r.boolean("/data/results/" + std::to_string(i) + "/success") == expected[i]);
    }
    CHECK(r.integer("/data/summary/succeeded") == 61);
    for (int i : {0, 5, 31, 32, 63, 64, 70}) {
        CHECK(client.get("/api/v1/customers?externalId=d-" + std::to_string(i))
                  .size("/data/customers") == 1);
    }
}

TEST_CASE("another account's customers and calls are 404, never a leak", "[customers][tenancy]") {
    // A clock inside respectful hours, so that the call is placed whenever the test runs.
    LocalServer server([](collectcall::server::ServerOptions& o) { o.now = frozen_time(); });
    const Account acme_account = server.create_account("acme");
    const Account globex_account = server.create_account("globex");
    Client acme = server.client(acme_account);
    Client globex = server.client(globex_account);

    const std::string id = acme.post("/api/v1/customers", customer_json("mine")).str("/data/id");
    const Reply call = acme.post("/api/v1/customers/" + id + "/calls",
                                 R"({"agentId":")" + acme_account.agent + R"("})");
    REQUIRE(call.status == 200);
    const std::string call_id = call.str("/data/id");
    const std::string path = "/api/v1/customers/" + id;

    const auto not_found = [](const Reply& r) {
        CHECK(r.status == 404);
        CHECK(r.error_code() == "not_found");
    };
    not_found(globex.get(path));
    const Reply patched = globex.patch(path, R"({"firstName":"Mallory"})");
    not_found(patched);
    CHECK(patched.str("/publicFacingMessage") == "Customer not found");
    not_found(globex.get(path + "/calls"));
    not_found(globex.post(path + "/calls", R"({"agentId":")" + globex_account.agent + R"("})"));
    not_found(globex.post(path + "/cease-and-desist", ""));
    not_found(globex.post(path + "/deactivate", ""));
    not_found(globex.post(path + "/activate", ""));
    not_found(globex.get("/api/v1/calls/" + call_id));
    CHECK(globex.get("/api/v1/customers?externalId=mine").size("/data/customers") == 0);

    // Nothing changed for the owner.
    const Reply mine = acme.get(path);
    CHECK(mine.str("/data/firstName") == "Ann");
    CHECK(acme.get(path + "/calls").size("/data/calls") == 1);
}

TEST_CASE("cease-and-desist, deactivate and activate return the customer", "[customers]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    const Reply created = client.post("/api/v1/customers", customer_json("s-1"));
    const std::string path = "/api/v1/customers/" + created.str("/data/id");

    for (const char* action :
         {"/cease-and-desist", "/cease-and-desist", "/deactivate", "/activate", "/activate"}) {
        const Reply r = client.post(path + action, "");
        INFO(action);
        REQUIRE(r.status == 200);
        CHECK(r.str("/data/id") == created.str("/data/id"));
        CHECK(r.str("/data/externalId") == "s-1");
    }
    CHECK(
        client.post("/api/v1/customers/00000000-0000-4000-8000-000000000000/activate", "").status ==
        404);
}

TEST_CASE("collections.extensions is stored and echoed member for member and merged by PATCH",
          "[customers][extensions]") {
    LocalServer server;
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const std::string body = customer_json(
        "ext-1", R"(,"ssnLastFour":"1234","dateOfBirth":"1980-02-29","collections":)"
                 R"({"totalBalance":10,"extensions":{"tier": "gold", "score": 1.50,)"
                 R"( "flags": [true, null, 3e2], "nested": {"a": 1, "b": {"c": "d"}}}})");
    const Reply created = client.post("/api/v1/customers", body);
    REQUIRE(created.status == 200);
    const std::string id = created.str("/data/id");
    const std::string expected =
        R"({"tier":"gold","score":1.50,"flags":[true,null,3e2],"nested":{"a":1,"b":{"c":"d"}}})";
    // The bytes of the body, not a re-serialisation: numbers keep their text.
    const auto echoes = [](const Reply& r, const std::string& object) {
        return r.body.find(R"("extensions":)" + object + "}") != std::string::npos;
    };
    CHECK(echoes(created, expected));
    CHECK(echoes(client.get("/api/v1/customers/" + id), expected));

    const Reply patched = client.patch(
        "/api/v1/customers/" + id,
        R"({"collections":{"extensions":{"tier":null,"nested":{"b":{"e":2}},"new":[]}}})");
    REQUIRE(patched.status == 200);
    CHECK(echoes(patched, R"({"score":1.50,"flags":[true,null,3e2],)"
                          R"("nested":{"a":1,"b":{"c":"d","e":2}},"new":[]})"));

    // Without extensions: null; and a bad one is a field error with its path.
    const Reply plain = client.post("/api/v1/customers", collections_customer_json("ext-2"));
    REQUIRE(plain.status == 200);
    CHECK(plain.is_null("/data/collections/extensions"));
    const Reply bad =
        client.patch("/api/v1/customers/" + id, R"({"collections":{"extensions":{"a":1,"a":2}}})");
    REQUIRE(bad.status == 400);
    CHECK(bad.str("/error/details/0/path") == "/collections/extensions/a");
    CHECK(bad.str("/error/details/0/code") == "duplicate_field");
}
