// Several server processes on one PostgreSQL database (API.md section 12): every guarantee
// holds across them. Runs only in the suite's PostgreSQL run ([postgres]).
#include <catch2/catch.hpp>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "eventually.hpp"
#include "harness.hpp"
#include "receiver.hpp"

using namespace test;
using namespace std::chrono_literals;

namespace {

constexpr const char* frozen = "2026-11-20T15:00:00Z";  // 09:00 in Chicago: calls are allowed

struct Credentials {
    std::string key;
    std::string agent;
};

Credentials init(const std::string& db) {
    const ProcessResult init = run_binary({"init", "--db", db, "--account", "acme"});
    REQUIRE(init.exit_code == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element json;
    REQUIRE(parser.parse(init.out).get(json) == simdjson::SUCCESS);
    return Credentials{std::string(json["apiKey"].get_string().value()),
                       std::string(json["agentId"].get_string().value())};
}

std::vector<std::string> server_args(const char* call_step_ms) {
    return {"--now",          frozen,       "--allow-private-webhooks",
            "--call-step-ms", call_step_ms, "--webhook-backoff-scale",
            "0.001",          "--lease-ms", "1000",
            "--quiet"};
}

std::string call_body(const std::string& agent, int port, const std::string& secret_id) {
    return R"({"agentId":")" + agent + R"(","webhook":{"url":"http://127.0.0.1:)" +
           std::to_string(port) + R"(/hooks","secretId":")" + secret_id + R"("}})";
}

// Runs `count` requests at once, request i on process i % processes; their replies.
template <class Send>
std::vector<Reply> at_once(int count, const Send& send) {
    std::atomic<int> ready{0};
    std::vector<std::future<Reply>> futures;
    for (int i = 0; i < count; ++i) {
        futures.push_back(std::async(std::launch::async, [&, i] {
            ++ready;
            while (ready < count)
                std::this_thread::yield();
            return send(i);
        }));
    }
    std::vector<Reply> replies;
    for (auto& f : futures)
        replies.push_back(f.get());
    return replies;
}

int successes(const std::vector<Reply>& replies) {
    return static_cast<int>(std::count_if(replies.begin(), replies.end(), [](const Reply& r) {
        return r.parsed && r.boolean("/success");
    }));
}

std::int64_t count(const Database& database, const std::string& sql) {
    return std::stoll(database.rows(sql).at(0).at(0));
}

}  // namespace

TEST_CASE("three processes on one database behave as one server", "[postgres][process]") {
    REQUIRE(on_postgres());
    Database database;
    const std::string db = database.uri();
    const Credentials acme = init(db);
    std::vector<std::unique_ptr<ChildServer>> servers;
    for (int i = 0; i < 3; ++i)
        servers.push_back(std::make_unique<ChildServer>(db, server_args("200")));
    const auto client = [&](int i) {
        return Client("127.0.0.1", servers[static_cast<std::size_t>(i) % 3]->port(), acme.key);
    };

    SECTION("32 concurrent creates of one externalId: exactly one succeeds") {
        const auto replies = at_once(
            32, [&](int i) { return client(i).post("/api/v1/customers", customer_json("same")); });
        CHECK(successes(replies) == 1);
        for (const Reply& r : replies) {
            if (!r.boolean("/success")) CHECK(r.status == 409);
        }
        CHECK(count(database, "SELECT COUNT(*) FROM customers WHERE external_id = 'same'") == 1);
    }

    SECTION("12 concurrent calls to one customer: exactly 4 are placed") {
        const Reply created = client(0).post("/api/v1/customers", customer_json("busy"));
        REQUIRE(created.boolean("/success"));
        const std::string path = "/api/v1/customers/" + created.str("/data/id") + "/calls";
        const auto replies = at_once(12, [&](int i) {
            return client(i).post(path, R"({"agentId":")" + acme.agent + R"("})");
        });
        CHECK(successes(replies) == 4);
        for (const Reply& r : replies) {
            if (!r.boolean("/success")) CHECK(r.error_code() == "compliance_failed");
        }
        CHECK(count(database, "SELECT COUNT(*) FROM calls") == 4);
    }

    SECTION("bulk and single calls to one customer across processes: exactly 4 are placed") {
        const std::string busy =
            client(0).post("/api/v1/customers", customer_json("busy")).str("/data/id");
        const std::string spare =
            client(0).post("/api/v1/customers", customer_json("spare")).str("/data/id");
        const auto replies = at_once(12, [&](int i) {
            if (i % 2 == 0) {
                return client(i).post("/api/v1/customers/" + busy + "/calls",
                                      R"({"agentId":")" + acme.agent + R"("})");
            }
            return client(i).post("/api/v1/calls/bulk", R"({"agentId":")" + acme.agent +
                                                            R"(","customerIds":[")" + spare +
                                                            R"(",")" + busy + R"("]})");
        });
        int placed = 0;
        for (std::size_t i = 0; i < replies.size(); ++i) {
            const Reply& r = replies[i];
            if (i % 2 == 0) {
                placed += r.boolean("/success") ? 1 : 0;
            } else {
                REQUIRE(r.status == 200);
                placed += r.boolean("/data/results/1/success") ? 1 : 0;
            }
        }
        CHECK(placed == 4);
        CHECK(count(database, "SELECT COUNT(*) FROM calls WHERE customer_id = '" + busy + "'") ==
              4);
        CHECK(count(database, "SELECT COUNT(*) FROM calls WHERE customer_id = '" + spare + "'") ==
              4);
    }

    SECTION("overlapping bulk requests on two processes create each externalId once") {
        const auto bulk = [](int from, int to, int step) {
            std::string body = R"({"customers":[)";
            for (int i = from; i != to; i += step) {
                if (i != from) body += ',';
                body += customer_json("bulk-" + std::to_string(i));
            }
            return body + "]}";
        };
        // Overlapping in opposite orders: the second request's items run backwards through the
        // shared range, which makes the two transactions wait on each other.
        const std::string first = bulk(0, 300, 1);
        const std::string second = bulk(449, 149, -1);
        for (int round = 0; round < 3; ++round) {
            (void)database.rows("DELETE FROM customers");
            const auto replies = at_once(2, [&](int i) {
                return client(i).post("/api/v1/customers/bulk", i == 0 ? first : second);
            });
            REQUIRE(replies[0].status == 200);
            REQUIRE(replies[1].status == 200);
            CHECK(replies[0].integer("/data/summary/succeeded") +
                      replies[1].integer("/data/summary/succeeded") ==
                  450);
            CHECK(count(database, "SELECT COUNT(DISTINCT external_id) FROM customers") == 450);
            CHECK(count(database, "SELECT COUNT(*) FROM customers") == 450);
        }
    }

    SECTION("an Idempotency-Key retry on another process replays the first answer") {
        const httplib::Headers key{{"Idempotency-Key", "retry-elsewhere"}};
        const Reply first =
            client(0).post("/api/v1/customers", customer_json("idem"), "application/json", key);
        REQUIRE(first.boolean("/success"));
        for (int i = 1; i < 3; ++i) {
            const Reply again =
                client(i).post("/api/v1/customers", customer_json("idem"), "application/json", key);
            CHECK(again.status == first.status);
            CHECK(again.body == first.body);
        }
        // A different body under the key is refused on every process.
        CHECK(client(2)
                  .post("/api/v1/customers", customer_json("other"), "application/json", key)
                  .error_code() == "idempotency_key_reused");
        CHECK(count(database, "SELECT COUNT(*) FROM customers WHERE external_id = 'idem'") == 1);
    }

    SECTION("webhooks of calls placed on every process are each delivered once") {
        const Reply secret = client(0).post("/api/v1/webhook-secrets", "", "");
        REQUIRE(secret.boolean("/success"));
        Receiver receiver(secret.str("/data/secret"));
        std::vector<std::string> calls;
        for (int i = 0; i < 9; ++i) {
            const Reply created =
                client(i).post("/api/v1/customers", customer_json("hook-" + std::to_string(i)));
            REQUIRE(created.boolean("/success"));
            const Reply call =
                client(i).post("/api/v1/customers/" + created.str("/data/id") + "/calls",
                               call_body(acme.agent, receiver.port(), secret.str("/data/id")));
            REQUIRE(call.boolean("/success"));
            calls.push_back(call.str("/data/id"));
        }
        // Each call: call-created and call-ended, 18 messages in all.
        REQUIRE(receiver.wait_for([](const auto& d) { return d.size() >= 18; }, 20s));
        // The receiver has a message a moment before its process records the answer: wait for
        // the outbox to say all were delivered.
        (void)eventually(
            [&] {
                return count(database,
                             "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'delivered'") >= 18;
            },
            10s, 20ms);
        std::this_thread::sleep_for(1500ms);  // a duplicate would arrive within a poll or two
        const auto deliveries = receiver.deliveries();
        std::map<std::string, int> times;
        for (const Delivery& d : deliveries) {
            CHECK(d.standard_ok);
            ++times[d.header("webhook-id")];
        }
        CHECK(times.size() == 18);
        for (const auto& [id, n] : times) {
            INFO(id);
            CHECK(n == 1);
        }
        CHECK(count(database,
                    "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'delivered' AND "
                    "attempts = 1") == 18);
    }
}

TEST_CASE("three processes hold Regulation F's seven-day limits as they hold the daily one",
          "[postgres][process][compliance]") {
    REQUIRE(on_postgres());
    Database database;
    const std::string db = database.uri();
    const ProcessResult initialised =
        run_binary({"init", "--db", db, "--account", "acme", "--compliance", "regulation-f"});
    REQUIRE(initialised.exit_code == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element json;
    REQUIRE(parser.parse(initialised.out).get(json) == simdjson::SUCCESS);
    const Credentials acme{std::string(json["apiKey"].get_string().value()),
                           std::string(json["agentId"].get_string().value())};
    // The placed call stays in progress for the whole test (a step of 10 minutes): the checks
    // below count the refusals it causes, however long the twelve requests take.
    std::vector<std::unique_ptr<ChildServer>> servers;
    for (int i = 0; i < 3; ++i)
        servers.push_back(std::make_unique<ChildServer>(db, server_args("600000")));
    const auto client = [&](int i) {
        return Client("127.0.0.1", servers[static_cast<std::size_t>(i) % 3]->port(), acme.key);
    };
    const auto call_at_once = [&](const std::string& customer) {
        const std::string path = "/api/v1/customers/" + customer + "/calls";
        return at_once(12, [&](int i) {
            return client(i).post(path, R"({"agentId":")" + acme.agent + R"("})");
        });
    };
    // The ids of the checks that refused each refused call.
    const auto refusals = [](const std::vector<Reply>& replies) {
        std::vector<std::string> out;
        for (const Reply& r : replies) {
            if (r.boolean("/success")) continue;
            CHECK(r.error_code() == "compliance_failed");
            for (std::size_t i = 0; i < r.size("/data/compliance/checksFailed"); ++i)
                out.push_back(r.str("/data/compliance/checksFailed/" + std::to_string(i) + "/id"));
        }
        return out;
    };

    // Calls already made to customer `id`, ended (no conversation), at the instants given.
    const auto seed_calls = [&](const std::string& id, std::initializer_list<const char*> times) {
        for (const char* at : times) {
            const std::int64_t ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(
                    collectcall::Timestamp::parse(at).value().time().time_since_epoch())
                    .count();
            (void)database.rows(
                "INSERT INTO calls (id, account_id, customer_id, agent_id, thread_id, to_number, "
                "from_number, compliance, created_at, created_ms, status, ended_reason, "
                "duration_ms, transcript) SELECT gen_random_uuid()::text, account_id, id, '" +
                acme.agent +
                "', thread_id, '+13125550123', '+12025550100', "
                "'{\"passed\":true,\"checksPassed\":[],\"checksFailed\":[]}', '" +
                std::string(at) + "', " + std::to_string(ms) +
                ", 'completed', 'customer-ended-call', 1000, '[]' FROM customers WHERE id = '" +
                id + "'");
        }
    };
    const auto count_of = [](const std::vector<std::string>& ids, const std::string& id) {
        return std::count(ids.begin(), ids.end(), id);
    };

    // Under regulation-f one call at a time holds too (API.md section 16): of twelve calls at
    // once, the first placed blocks the others while it is in progress, so each section leaves
    // room for exactly one more call and checks that the limit, not only the call in progress,
    // refuses the rest in every process.
    SECTION("7 calls in 7 days: with 6 made on the two days before, 1 of 12 is placed") {
        const Reply created = client(0).post("/api/v1/customers", customer_json("weekly"));
        REQUIRE(created.boolean("/success"));
        const std::string id = created.str("/data/id");
        // Six calls on Wednesday and Thursday at 09:00 in Chicago.
        seed_calls(id, {"2026-11-18T15:00:00.000Z", "2026-11-18T15:01:00.000Z",
                        "2026-11-18T15:02:00.000Z", "2026-11-19T15:00:00.000Z",
                        "2026-11-19T15:01:00.000Z", "2026-11-19T15:02:00.000Z"});
        const auto replies = call_at_once(id);
        CHECK(successes(replies) == 1);
        CHECK(refusals(replies) == std::vector<std::string>(11, "call-frequency"));
        for (const Reply& r : replies) {
            if (r.boolean("/success")) continue;
            // Seven calls in seven days, whether or not the placed one is still in progress.
            CHECK_THAT(r.str("/data/compliance/checksFailed/0/reason"),
                       Catch::Contains("7 calls within 7 consecutive days") ||
                           Catch::Contains("in progress"));
        }
        CHECK(count(database, "SELECT COUNT(*) FROM calls WHERE customer_id = '" + id + "'") == 7);
    }

    SECTION("Massachusetts: 2 telephone communications in 7 days; with 1 made, 1 of 12 is placed") {
        const Reply created = client(0).post(
            "/api/v1/customers", customer_json("boston", {}, "+16175550123", "MA", "02108"));
        REQUIRE(created.boolean("/success"));
        const std::string id = created.str("/data/id");
        seed_calls(id, {"2026-11-19T15:00:00.000Z"});
        const auto replies = call_at_once(id);
        CHECK(successes(replies) == 1);
        const std::vector<std::string> refused = refusals(replies);
        CHECK(count_of(refused, "state-call-limit") == 11);
        CHECK(count_of(refused, "call-frequency") == 11);  // the placed call is in progress
        CHECK(refused.size() == 22);
        CHECK(count(database, "SELECT COUNT(*) FROM calls WHERE customer_id = '" + id + "'") == 2);
    }
}

TEST_CASE("the outbox messages a killed process held are delivered by another after the lease",
          "[postgres][process]") {
    REQUIRE(on_postgres());
    Database database;
    const std::string db = database.uri();
    const Credentials acme = init(db);
    // Calls do not end during the test: their call-created messages are the only ones.
    ChildServer first(db, server_args("600000"));
    Client client("127.0.0.1", first.port(), acme.key);
    const Reply secret = client.post("/api/v1/webhook-secrets", "", "");
    REQUIRE(secret.boolean("/success"));
    Receiver receiver(secret.str("/data/secret"));
    receiver.delay(3s, 3);  // the first process's attempts hang until it is killed

    for (int i = 0; i < 3; ++i) {
        const Reply created =
            client.post("/api/v1/customers", customer_json("kill-" + std::to_string(i)));
        REQUIRE(created.boolean("/success"));
        REQUIRE(client
                    .post("/api/v1/customers/" + created.str("/data/id") + "/calls",
                          call_body(acme.agent, receiver.port(), secret.str("/data/id")))
                    .boolean("/success"));
    }
    // The first process has claimed the messages it is sending (two: at most two deliveries go
    // to one receiver address at a time), its claims renewed while the attempts hang.
    const auto claimed = [&] {
        return count(database,
                     "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending' AND "
                     "lease_owner IS NOT NULL AND lease_until > now() AND attempts = 1");
    };
    for (int i = 0; i < 100 && claimed() < 2; ++i)
        std::this_thread::sleep_for(20ms);
    REQUIRE(claimed() == 2);
    std::this_thread::sleep_for(1500ms);  // longer than the lease: still claimed
    CHECK(claimed() == 2);
    std::this_thread::sleep_for(200ms);

    const auto owners = database.rows("SELECT DISTINCT owner FROM calls");
    REQUIRE(owners.size() == 1);
    const std::string killed_owner = owners[0][0];

    ChildServer second(db, server_args("600000"));
    first.signal(SIGKILL);
    CHECK(first.wait() == 128 + SIGKILL);

    // The second process takes them over once the lease (1 s) has run out.
    const auto delivered = [&] {
        return count(database, "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'delivered'");
    };
    for (int i = 0; i < 500 && delivered() < 3; ++i)
        std::this_thread::sleep_for(20ms);
    CHECK(delivered() == 3);
    // And the calls the killed process had in progress are the second's now.
    CHECK(count(database, "SELECT COUNT(*) FROM calls WHERE status = 'in-progress'") == 3);
    const auto taken_over = [&] {
        return count(database, "SELECT COUNT(*) FROM calls WHERE owner <> '" + killed_owner + "'");
    };
    for (int i = 0; i < 200 && taken_over() < 3; ++i)
        std::this_thread::sleep_for(20ms);
    CHECK(taken_over() == 3);
    // Each message reached the receiver from the second process (after the hung attempts).
    REQUIRE(receiver.wait_for(
        [](const auto& d) {
            return std::count_if(d.begin(), d.end(),
                                 [](const Delivery& x) { return x.answered == 200; }) >= 3;
        },
        10s));
    std::set<std::string> ids;
    for (const Delivery& d : receiver.deliveries())
        ids.insert(d.header("webhook-id"));
    CHECK(ids.size() == 3);
}

TEST_CASE("a key's rate limit holds across processes", "[postgres][process][limits]") {
    REQUIRE(on_postgres());
    Database database;
    const std::string db = database.uri();
    const Credentials acme = init(db);
    // 5 requests per second, bursts of 10: per process alone, two processes would allow twice
    // that.
    std::vector<std::unique_ptr<ChildServer>> servers;
    for (int i = 0; i < 2; ++i) {
        auto args = server_args("200");
        args.insert(args.end(), {"--rate-limit", "5"});
        servers.push_back(std::make_unique<ChildServer>(db, args));
    }
    std::vector<Client> clients;
    for (const auto& server : servers)
        clients.emplace_back("127.0.0.1", server->port(), acme.key);

    // 20 requests a second, alternating between the processes, for 6 seconds.
    int allowed = 0;
    int refused = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 120; ++i) {
        std::this_thread::sleep_until(start + i * 50ms);
        const Reply r =
            clients[static_cast<std::size_t>(i % 2)].get("/api/v1/customers?externalId=nobody");
        if (r.status == 429) {
            ++refused;
            CHECK(!r.header("Retry-After").empty());
        } else {
            CHECK(r.status == 200);
            ++allowed;
        }
    }
    // One bucket of 10 and 5 a second for 6 s is 40. The counts lag by a second: at first
    // both processes spend their own burst before they see the other's (10 more), and each
    // allows up to a second's rate before it sees the other's requests (about 10 more): ~50.
    // Counted per process alone it would be 2 x (10 + 30) = 80.
    // A loaded machine stretches the 6 s (a request late makes the next ones go at once): each
    // second more refills 5 tokens more; per process alone it would be 10.
    const double late =
        std::max(0.0, std::chrono::duration<double>(std::chrono::steady_clock::now() - start -
                                                    std::chrono::seconds(6))
                          .count());
    INFO("allowed " << allowed << ", refused " << refused << ", " << late << " s late");
    CHECK(allowed >= 25);  // loose: a slow (sanitized) build sends fewer in the 6 s
    CHECK(allowed <= 62 + 5 * late);
}

TEST_CASE("several processes creating and migrating one new database at once",
          "[postgres][process]") {
    REQUIRE(on_postgres());
    Database database;
    const std::string db = database.uri();
    // Four inits of one account at once on an empty database: one creates the schema (under the
    // advisory lock), all find it whole, and all add their key to the same account.
    std::vector<std::future<ProcessResult>> inits;
    for (int i = 0; i < 4; ++i) {
        inits.push_back(std::async(std::launch::async, [&] {
            return run_binary({"init", "--db", db, "--account", "acme"});
        }));
    }
    std::set<std::string> accounts;
    for (auto& init : inits) {
        const ProcessResult result = init.get();
        CHECK(result.exit_code == 0);
        simdjson::dom::parser parser;
        simdjson::dom::element json;
        REQUIRE(parser.parse(result.out).get(json) == simdjson::SUCCESS);
        accounts.insert(std::string(json["accountId"].get_string().value()));
    }
    CHECK(accounts.size() == 1);
    CHECK(count(database, "SELECT COUNT(*) FROM api_keys") == 4);
    CHECK(count(database, "SELECT MAX(version) FROM schema_version") >= 2);
    CHECK(count(database, "SELECT COUNT(*) FROM schema_version") ==
          count(database, "SELECT MAX(version) FROM schema_version"));
    // And servers on it serve.
    ChildServer one(db, server_args("200"));
    ChildServer two(db, server_args("200"));
    CHECK(Client("127.0.0.1", one.port()).get("/readyz").status == 200);
    CHECK(Client("127.0.0.1", two.port()).get("/readyz").status == 200);
}
