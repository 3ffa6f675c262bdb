// Calls in motion and their webhooks, over real HTTP (API.md sections 8 and 9): the simulated
// dialer, signed deliveries checked by an independent receiver, retries, restarts after
// SIGKILL, the SSRF guard, https.
#include <catch2/catch.hpp>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <simdjson.h>

#include "eventually.hpp"
#include "harness.hpp"
#include "receiver.hpp"
#include "simulated_dialer.hpp"

#include <collectcall/webhook/recording.hpp>

using namespace test;
using namespace collectcall::server;
using namespace std::chrono_literals;

namespace {

constexpr const char* frozen = "2026-11-20T15:00:00Z";  // 09:00 in Chicago: calls are allowed
constexpr const char* frozen_created_at = "2026-11-20T15:00:00.000Z";

// A fast world: calls end after 50 ms, retries wait 5 ms, 300 ms, 1.8 s, ...
LocalServer::Tweak fast(bool allow_private = true,
                        std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return [=](ServerOptions& o) {
        o.now = frozen_time(frozen);
        o.call_step_ms = 50;
        o.webhook_backoff_scale = 0.001;
        o.webhook_timeout = timeout;
        o.api.allow_private_webhooks = allow_private;
    };
}

std::string call_body(const std::string& agent, const std::string& url,
                      const std::string& secret_id) {
    return R"({"agentId":")" + agent + R"(","webhook":{"url":")" + url + R"(","secretId":")" +
           secret_id + R"("}})";
}

struct Secret {
    std::string id;
    std::string text;
};

Secret create_secret(Client& client) {
    const Reply r = client.post("/api/v1/webhook-secrets", "", "");
    REQUIRE(r.status == 200);
    return Secret{r.str("/data/id"), r.str("/data/secret")};
}

std::string create_customer(Client& client, const std::string& external_id) {
    const Reply r = client.post("/api/v1/customers", customer_json(external_id));
    REQUIRE(r.status == 200);
    return r.str("/data/id");
}

// Places a call with a webhook; returns the call's response.
Reply place_call(Client& client, const std::string& customer, const std::string& agent,
                 const std::string& url, const std::string& secret_id) {
    Reply r =
        client.post("/api/v1/customers/" + customer + "/calls", call_body(agent, url, secret_id));
    REQUIRE(r.status == 200);
    return r;
}

std::string hook_url(int port, const std::string& host = "127.0.0.1",
                     const std::string& scheme = "http") {
    return scheme + "://" + host + ":" + std::to_string(port) + "/hooks/calls?source=test";
}

// The outbox as the server left it in the database.
struct OutboxRow {
    std::string message_id;
    std::string call_id;
    std::string type;
    std::string state;
    std::int64_t attempts = 0;
    std::string last_error;
};

std::vector<OutboxRow> outbox(const Database& database) {
    std::vector<OutboxRow> rows;
    for (const auto& row :
         database.rows("SELECT o.message_id, o.call_id, e.type, o.state, o.attempts, "
                       "COALESCE(o.last_error, '') FROM webhook_outbox o JOIN call_events e "
                       "ON e.call_id = o.call_id AND e.seq = o.event_seq ORDER BY o.seq")) {
        rows.push_back(OutboxRow{row[0], row[1], row[2], row[3], std::stoll(row[4]), row[5]});
    }
    return rows;
}

// A delivery's body, parsed.
struct Event {
    std::string type, id, customer_id, thread_id, status, created_at;
    bool has_call_ended = false;
    std::string ended_reason;
    std::int64_t duration_ms = -1;
    std::size_t members = 0;
};

Event parse_event(const std::string& body) {
    simdjson::dom::parser parser;
    simdjson::dom::object object;
    REQUIRE(parser.parse(body).get(object) == simdjson::SUCCESS);
    Event e;
    e.members = object.size();
    const auto text = [&](const char* key) {
        std::string_view v;
        REQUIRE(object[key].get_string().get(v) == simdjson::SUCCESS);
        return std::string(v);
    };
    e.type = text("type");
    e.id = text("id");
    e.customer_id = text("customerId");
    e.thread_id = text("threadId");
    e.status = text("status");
    e.created_at = text("createdAt");
    simdjson::dom::object ended;
    if (object["callEnded"].get(ended) == simdjson::SUCCESS) {
        e.has_call_ended = true;
        std::string_view reason;
        REQUIRE(ended["endedReason"].get_string().get(reason) == simdjson::SUCCESS);
        e.ended_reason = std::string(reason);
        REQUIRE(ended["durationMs"].get_int64().get(e.duration_ms) == simdjson::SUCCESS);
    }
    return e;
}

// Every delivery verifies under both schemes with the receiver's own HMAC, and was signed
// with the real clock.
void check_signed(const Delivery& d) {
    INFO(d.body);
    CHECK(d.hosted_ok);
    CHECK(d.standard_ok);
    CHECK(d.header("content-type") == "application/json");
    CHECK(d.header("x-webhook-timestamp") == d.header("webhook-timestamp"));
    CHECK(d.header("webhook-id").rfind("msg_", 0) == 0);
    const std::int64_t ts = std::stoll(d.header("webhook-timestamp"));
    CHECK(std::llabs(ts - d.received_unix) <= 60);
}

// The webhook-ids in the order they first arrived.
std::vector<std::string> first_arrivals(const std::vector<Delivery>& deliveries) {
    std::vector<std::string> ids;
    for (const Delivery& d : deliveries) {
        const std::string id = d.header("webhook-id");
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
    return ids;
}

std::size_t count_type(const std::vector<Delivery>& deliveries, const std::string& type) {
    return static_cast<std::size_t>(
        std::count_if(deliveries.begin(), deliveries.end(), [&](const Delivery& d) {
            return d.body.find(R"("type":")" + type + '"') != std::string::npos;
        }));
}

}  // namespace

TEST_CASE("a placed call ends by its id, and both events reach the receiver signed and in order",
          "[webhooks]") {
    LocalServer server(fast());
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    Receiver receiver(secret.text);

    // Four calls to three customers, one of them called twice.
    std::vector<std::string> customers;
    for (int i = 0; i < 3; ++i)
        customers.push_back(create_customer(client, "c-" + std::to_string(i)));
    std::vector<Reply> calls;
    for (const std::string& customer : customers) {
        calls.push_back(
            place_call(client, customer, acme.agent, hook_url(receiver.port()), secret.id));
    }
    calls.push_back(
        place_call(client, customers[0], acme.agent, hook_url(receiver.port()), secret.id));

    REQUIRE(receiver.wait_for([&](const auto& d) { return d.size() >= 2 * calls.size(); }));
    const std::vector<Delivery> deliveries = receiver.deliveries();
    CHECK(deliveries.size() == 2 * calls.size());

    std::set<std::string> ids;
    for (const Delivery& d : deliveries) {
        check_signed(d);
        CHECK(d.host_header == "127.0.0.1:" + std::to_string(receiver.port()));
        ids.insert(d.header("webhook-id"));
    }
    CHECK(ids.size() == deliveries.size());  // one id per message

    for (const Reply& call : calls) {
        const std::string id = call.str("/data/id");
        INFO("call " << id);
        std::vector<std::size_t> positions;
        std::vector<Event> events;
        for (std::size_t i = 0; i < deliveries.size(); ++i) {
            const Event e = parse_event(deliveries[i].body);
            if (e.id != id) continue;
            positions.push_back(i);
            events.push_back(e);
        }
        REQUIRE(events.size() == 2);
        const Event& created = events[0];
        const Event& ended = events[1];
        CHECK(created.type == "call-created");
        CHECK(ended.type == "call-ended");

        // call-created, exactly as API.md section 9 shows it: callCreated, no callEnded.
        const std::string thread = call.str("/data/threadId");
        CHECK(deliveries[positions[0]].body ==
              R"({"type":"call-created","id":")" + id +
                  R"(","name":"Outbound call","customerId":")" + created.customer_id +
                  R"(","threadId":")" + thread + R"(","status":"in-progress","createdAt":")" +
                  frozen_created_at + R"(","callCreated":{"id":")" + id + R"(","threadId":")" +
                  thread + R"(","toPhoneNumber":")" + call.str("/data/toPhoneNumber") +
                  R"(","fromPhoneNumber":")" + call.str("/data/fromPhoneNumber") +
                  R"(","createdAt":")" + frozen_created_at + R"("}})");
        CHECK(std::find(customers.begin(), customers.end(), created.customer_id) !=
              customers.end());

        const SimulatedOutcome outcome = simulated_outcome(collectcall::Uuid::parse(id).value());
        CHECK(ended.status == "completed");
        CHECK(ended.thread_id == call.str("/data/threadId"));
        CHECK(ended.customer_id == created.customer_id);
        CHECK(ended.created_at == frozen_created_at);  // event times follow --now
        REQUIRE(ended.has_call_ended);
        CHECK(ended.ended_reason == collectcall::enum_name(outcome.ended_reason));
        CHECK(ended.duration_ms == outcome.duration_ms);
        CHECK(ended.members == 8);

        // GET /calls/{id} shows the same ending and both events.
        const Reply got = client.get("/api/v1/calls/" + id);
        REQUIRE(got.status == 200);
        CHECK(got.str("/data/status") == "completed");
        CHECK(got.str("/data/endedReason") == collectcall::enum_name(outcome.ended_reason));
        CHECK(got.integer("/data/durationMs") == outcome.duration_ms);
        REQUIRE(got.size("/data/events") == 2);
        CHECK(got.str("/data/events/0/type") == "call-created");
        CHECK(got.str("/data/events/1/type") == "call-ended");
    }

    // The customer called twice lists the newer call first.
    const Reply list = client.get("/api/v1/customers/" + customers[0] + "/calls");
    REQUIRE(list.size("/data/calls") == 2);
    CHECK(list.str("/data/calls/0/id") == calls[3].str("/data/id"));
    CHECK(list.str("/data/calls/1/id") == calls[0].str("/data/id"));

    // Everything delivered, each message once. The receiver can hold a delivery a moment before
    // the server records its answer, so wait for the outbox to say so.
    CHECK(eventually([&] {
        const auto rows = outbox(server.database());
        return std::all_of(rows.begin(), rows.end(),
                           [](const OutboxRow& r) { return r.state == "delivered"; });
    }));
    for (const OutboxRow& row : outbox(server.database())) {
        CHECK(row.state == "delivered");
        CHECK(row.attempts == 1);
        CHECK(ids.count(row.message_id) == 1);
    }
}

TEST_CASE("call-ended carries the hosted service's callEnded: transcript and a signed recording",
          "[webhooks]") {
    LocalServer server(fast());
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    Receiver receiver(secret.text);
    // A fresh customer for each try, so that no one reaches the daily limit.
    for (std::string_view reason : {"customer-did-not-answer", "voicemail", "customer-ended-call",
                                    "agent-ended-call", "silence-timed-out", "unknown"}) {
        INFO(reason);
        const std::string body = call_body(acme.agent, hook_url(receiver.port()), secret.id);
        std::string id;
        for (int i = 0; i < 200 && id.empty(); ++i) {
            const std::string fresh =
                create_customer(client, "c-" + std::string(reason) + "-" + std::to_string(i));
            Reply r = client.post("/api/v1/customers/" + fresh + "/calls", body);
            REQUIRE(r.status == 200);
            if (collectcall::enum_name(
                    simulated_outcome(collectcall::Uuid::parse(r.str("/data/id")).value())
                        .ended_reason) == reason) {
                id = r.str("/data/id");
            }
        }
        REQUIRE_FALSE(id.empty());
        REQUIRE(receiver.wait_for([&](const auto& deliveries) {
            return std::any_of(deliveries.begin(), deliveries.end(), [&](const Delivery& d) {
                return d.body.find(R"("type":"call-ended","id":")" + id) != std::string::npos;
            });
        }));
        std::string body_text;
        for (const Delivery& d : receiver.deliveries()) {
            if (d.body.find(R"("type":"call-ended","id":")" + id) != std::string::npos) {
                body_text = d.body;
                check_signed(d);
            }
        }
        const Reply ended = parse(body_text);
        const SimulatedOutcome outcome = simulated_outcome(collectcall::Uuid::parse(id).value());
        CHECK(ended.str("/callEnded/id") == id);
        CHECK(ended.str("/callEnded/customerId") == ended.str("/customerId"));
        CHECK(ended.str("/callEnded/threadId") == ended.str("/threadId"));
        CHECK(ended.str("/callEnded/direction") == "outbound");
        CHECK(ended.str("/callEnded/endedReason") == reason);
        CHECK(ended.integer("/callEnded/durationMs") == outcome.duration_ms);
        CHECK(ended.str("/callEnded/endedAt") == frozen_created_at);
        CHECK(ended.str("/callEnded/createdAt") == frozen_created_at);
        CHECK(ended.raw("/callEnded/inputVariables") == "{}");
        CHECK(ended.is_null("/callEnded/outputVariables"));
        CHECK_FALSE(ended.has("/callCreated"));
        const std::size_t turns = ended.size("/callEnded/messages");
        if (reason == "customer-did-not-answer") {
            CHECK(turns == 0);
        } else if (reason == "voicemail") {
            REQUIRE(turns == 1);
            CHECK(ended.str("/callEnded/messages/0/role") == "agent");
        } else {
            CHECK(turns >= 1);
        }
        for (std::size_t t = 0; t < turns; ++t) {
            const std::string m = "/callEnded/messages/" + std::to_string(t);
            CHECK((ended.str(m + "/role") == "agent" || ended.str(m + "/role") == "user"));
            CHECK_FALSE(ended.str(m + "/message").empty());
            CHECK(ended.str(m + "/endTime") == ended.str(m + "/endedAt"));
            CHECK(ended.integer(m + "/duration") > 0);
            CHECK(ended.integer(m + "/duration") <= outcome.duration_ms);
        }

        // The recording: a WAV of silence as long as the call, without a key.
        const std::string url = ended.str("/callEnded/recordingUrl");
        const std::string origin = "http://127.0.0.1:" + std::to_string(server.port());
        REQUIRE(url.rfind(origin + "/api/v1/calls/" + id + "/recording?", 0) == 0);
        const std::string path = url.substr(origin.size());
        const Reply wav = server.anonymous().get(path);
        REQUIRE(wav.status == 200);
        CHECK(wav.header("Content-Type") == "audio/wav");
        CHECK(wav.body.substr(0, 4) == "RIFF");
        CHECK(wav.body.substr(8, 4) == "WAVE");
        CHECK(wav.body.size() == 44 + static_cast<std::size_t>(outcome.duration_ms * 8));

        // A link changed anywhere names nothing.
        std::string forged = path;
        char& digit = forged[forged.find("durationMs=") + 11];
        digit = digit == '9' ? '8' : '9';  // a different duration, whatever it was
        REQUIRE(forged != path);
        CHECK(server.anonymous().get(forged).status == 404);
        CHECK(server.anonymous().get(path.substr(0, path.find('?'))).status == 404);
    }
}

TEST_CASE("a recording link expires after 30 minutes", "[webhooks]") {
    LocalServer server(fast());
    const std::string key = server.store().server_key("recording-links", "unused");
    const std::string call = std::string(new_uuid().view());
    const auto key_bytes = std::span<const unsigned char>(
        reinterpret_cast<const unsigned char*>(key.data()), key.size());
    const std::int64_t now = static_cast<std::int64_t>(std::time(nullptr));
    const auto path = [&](std::int64_t expires) {
        const std::string url =
            collectcall::webhook::recording_url(key_bytes, "", call, 1500, expires);
        return url;
    };
    const Reply fresh = server.anonymous().get(path(now + 60));
    CHECK(fresh.status == 200);
    CHECK(fresh.body.size() == 44 + 12000);
    // The signature has one spelling: the same bytes in upper-case hex name nothing.
    std::string upper = path(now + 60);
    const std::size_t signature = upper.find("signature=") + 10;
    std::transform(upper.begin() + static_cast<std::ptrdiff_t>(signature), upper.end(),
                   upper.begin() + static_cast<std::ptrdiff_t>(signature),
                   [](char c) { return c >= 'a' && c <= 'f' ? static_cast<char>(c - 32) : c; });
    REQUIRE(upper != path(now + 60));
    CHECK(server.anonymous().get(upper).status == 404);
    const Reply expired = server.anonymous().get(path(now - 1));
    CHECK(expired.status == 403);
    CHECK(expired.error_code() == "link_expired");
    // Made with another key: not a link of this server.
    const std::string stranger = "another server's key";
    CHECK(server.anonymous()
              .get(collectcall::webhook::recording_url(
                  std::span<const unsigned char>(
                      reinterpret_cast<const unsigned char*>(stranger.data()), stranger.size()),
                  "", call, 1500, now + 60))
              .status == 404);
}

TEST_CASE("a webhook without secretId gets unsigned deliveries with a webhook-id", "[webhooks]") {
    LocalServer server(fast());
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    Receiver receiver("");
    const std::string customer = create_customer(client, "c-1");
    const Reply call = client.post("/api/v1/customers/" + customer + "/calls",
                                   R"({"agentId":")" + acme.agent + R"(","webhook":{"url":")" +
                                       hook_url(receiver.port()) + R"("}})");
    REQUIRE(call.status == 200);
    REQUIRE(receiver.wait_for([](const auto& d) { return count_type(d, "call-ended") >= 1; }));
    for (const Delivery& d : receiver.deliveries()) {
        CHECK(d.header("webhook-id").rfind("msg_", 0) == 0);
        CHECK(d.header("x-webhook-signature").empty());
        CHECK(d.header("x-webhook-timestamp").empty());
        CHECK(d.header("webhook-signature").empty());
        CHECK(d.header("webhook-timestamp").empty());
    }
}

TEST_CASE("a secret imported from the hosted service signs the hosted scheme only", "[webhooks]") {
    LocalServer server(fast());
    const Account acme = server.create_account("acme");
    const Account other = server.create_account("other");
    Client client = server.client(acme);
    const std::string id = "6b1f3c1e-2a4d-4e8f-9c0b-1d2e3f4a5b6c";
    const std::string text = "sk_live_hosted-secret-0123456789";
    const std::string import = R"({"id":")" + id + R"(","secret":")" + text + R"("})";
    const Reply imported = client.post("/api/v1/webhook-secrets", import);
    REQUIRE(imported.status == 200);
    CHECK(imported.str("/data/id") == id);
    CHECK(imported.str("/data/secret") == text);
    // Importing again into the same account replaces the text; another account's id is 409.
    CHECK(client.post("/api/v1/webhook-secrets", import).status == 200);
    const Reply taken = server.client(other).post("/api/v1/webhook-secrets", import);
    CHECK(taken.status == 409);
    CHECK(taken.error_code() == "webhook_secret_taken");
    // Bad imports, every error at its member.
    const Reply bad = client.post("/api/v1/webhook-secrets", R"({"id":"nope","secret":"short"})");
    REQUIRE(bad.status == 400);
    CHECK(bad.str("/error/details/0/path") == "/id");
    CHECK(bad.str("/error/details/1/path") == "/secret");
    CHECK(bad.str("/error/details/1/code") == "length");
    const Reply half = client.post("/api/v1/webhook-secrets", R"({"id":")" + id + R"("})");
    REQUIRE(half.status == 400);
    CHECK(half.str("/error/details/0/path") == "/secret");
    CHECK(half.str("/error/details/0/code") == "required");
    CHECK(
        client.post("/api/v1/webhook-secrets", R"({"secret":"whsec_not-base64-at-all!"})").status ==
        400);

    Receiver receiver(text);
    const std::string customer = create_customer(client, "c-1");
    place_call(client, customer, acme.agent, hook_url(receiver.port()), id);
    REQUIRE(receiver.wait_for([](const auto& d) { return count_type(d, "call-ended") >= 1; }));
    for (const Delivery& d : receiver.deliveries()) {
        CHECK(d.hosted_ok);
        CHECK(d.header("webhook-id").rfind("msg_", 0) == 0);
        CHECK(d.header("webhook-signature").empty());  // not a whsec_ secret
    }
}

TEST_CASE("the outcome of a simulated call depends on its id only", "[webhooks]") {
    std::set<std::string_view> reasons;
    for (int i = 0; i < 200; ++i) {
        const collectcall::Uuid id = new_uuid();
        const SimulatedOutcome a = simulated_outcome(id);
        const SimulatedOutcome b = simulated_outcome(collectcall::Uuid::parse(id.view()).value());
        CHECK(a.ended_reason == b.ended_reason);
        CHECK(a.duration_ms == b.duration_ms);
        CHECK(a.duration_ms > 0);
        reasons.insert(collectcall::enum_name(a.ended_reason));
    }
    CHECK(reasons == std::set<std::string_view>{"customer-did-not-answer", "voicemail",
                                                "customer-ended-call", "agent-ended-call",
                                                "silence-timed-out", "unknown"});
}

TEST_CASE("a receiver that is down, then up, gets the events after a retry", "[webhooks]") {
    LocalServer server(fast());
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    UnusedPort down;
    const int port = down.port();
    const std::string customer = create_customer(client, "c-1");
    const std::string call =
        place_call(client, customer, acme.agent, hook_url(port), secret.id).str("/data/id");

    // Both events wait in the outbox, each after a failed attempt; call-ended waits behind
    // call-created.
    REQUIRE(eventually([&] {
        const auto rows = outbox(server.database());
        return rows.size() == 2 && rows[0].attempts >= 2;
    }));
    const auto pending = outbox(server.database());
    CHECK(pending[0].state == "pending");
    CHECK(pending[0].last_error.find("127.0.0.1") != std::string::npos);
    CHECK(pending[1].attempts == 0);

    down.release();
    Receiver receiver(secret.text, port);
    REQUIRE(receiver.wait_for([](const auto& d) { return d.size() >= 2; }));
    const auto deliveries = receiver.deliveries();
    CHECK(count_type(deliveries, "call-created") == 1);
    CHECK(deliveries[0].body.find("call-created") != std::string::npos);
    CHECK(deliveries[1].body.find("call-ended") != std::string::npos);
    for (const Delivery& d : deliveries)
        check_signed(d);
    REQUIRE(eventually([&] {
        const auto rows = outbox(server.database());
        return rows[0].state == "delivered" && rows[1].state == "delivered";
    }));
    const auto rows = outbox(server.database());
    CHECK(rows[0].attempts >= 3);
    CHECK(rows[0].message_id == deliveries[0].header("webhook-id"));
    CHECK(rows[1].message_id == deliveries[1].header("webhook-id"));
    CHECK(rows[0].call_id == call);
}

TEST_CASE("a non-2xx answer is retried with the same webhook-id", "[webhooks]") {
    LocalServer server(fast());
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    Receiver receiver(secret.text);
    receiver.answer(503);
    const std::string customer = create_customer(client, "c-1");
    place_call(client, customer, acme.agent, hook_url(receiver.port()), secret.id);

    REQUIRE(receiver.wait_for([](const auto& d) { return d.size() >= 2; }));
    REQUIRE(eventually([&] {
        const auto rows = outbox(server.database());
        return !rows.empty() && rows[0].last_error.find("HTTP 503") != std::string::npos;
    }));
    receiver.answer(200);
    REQUIRE(receiver.wait_for([](const auto& d) { return count_type(d, "call-ended") >= 1; }));
    const auto deliveries = receiver.deliveries();
    // The refused attempts and the accepted one are the same message.
    const std::string first = deliveries[0].header("webhook-id");
    std::size_t created = 0;
    for (const Delivery& d : deliveries) {
        check_signed(d);
        if (d.body.find("call-created") != std::string::npos) {
            CHECK(d.header("webhook-id") == first);
            ++created;
        }
    }
    CHECK(created >= 3);
    CHECK(first_arrivals(deliveries).size() == 2);
    // Nothing of the call went ahead of its call-created.
    CHECK(deliveries.back().body.find("call-ended") != std::string::npos);
}

TEST_CASE("an attempt without an answer in time is cut off and retried", "[webhooks]") {
    LocalServer server(fast(true, 300ms));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    Receiver receiver(secret.text);
    // The first delivery is answered too late: later than a retry takes by more than
    // liveness_bound.
    receiver.delay(liveness_bound + 3000ms, 1);
    const std::string customer = create_customer(client, "c-1");
    const auto started = std::chrono::steady_clock::now();
    place_call(client, customer, acme.agent, hook_url(receiver.port()), secret.id);

    REQUIRE(eventually([&] {
        const auto rows = outbox(server.database());
        return rows.size() == 2 && rows[0].state == "delivered" && rows[1].state == "delivered";
    }));
    // Delivered by the retry, well before the slow answer came.
    CHECK(std::chrono::steady_clock::now() - started < liveness_bound);
    // Retried: at least the cut-off attempt and the one that delivered (on a loaded machine a
    // prompt answer can also miss the 300 ms cut-off once more).
    const auto rows = outbox(server.database());
    CHECK(rows[0].attempts >= 2);
    REQUIRE(receiver.wait_for([](const auto& d) { return d.size() >= 3; }));
    // The late one arrived too: at least once, and the receiver dedupes on webhook-id.
    const auto deliveries = receiver.deliveries();
    CHECK(first_arrivals(deliveries).size() == 2);
}

TEST_CASE("a slow receiver holds up neither the API nor other receivers", "[webhooks]") {
    LocalServer server(fast());
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    Receiver slow(secret.text);
    slow.delay(1000ms);
    Receiver quick(secret.text);

    for (int i = 0; i < 4; ++i) {
        const std::string customer = create_customer(client, "slow-" + std::to_string(i));
        place_call(client, customer, acme.agent, hook_url(slow.port()), secret.id);
    }
    const auto before_quick = std::chrono::steady_clock::now();
    const std::string customer = create_customer(client, "quick");
    place_call(client, customer, acme.agent, hook_url(quick.port()), secret.id);
    // Behind the slow receiver's eight deliveries, one at a time, it would wait 8 s.
    REQUIRE(quick.wait_for([](const auto& d) { return d.size() >= 2; }, liveness_bound));
    CHECK(std::chrono::steady_clock::now() - before_quick < liveness_bound);

    const auto t = std::chrono::steady_clock::now();
    CHECK(client.get("/healthz").status == 200);
    CHECK(std::chrono::steady_clock::now() - t < liveness_bound);
    slow.delay(0ms, 0);
}

TEST_CASE("pending events survive SIGKILL and go out after the restart", "[webhooks][process]") {
    Database database;
    const std::string db = database.uri();
    const ProcessResult init = run_binary({"init", "--db", db, "--account", "acme"});
    REQUIRE(init.exit_code == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element credentials;
    REQUIRE(parser.parse(init.out).get(credentials) == simdjson::SUCCESS);
    const std::string key(credentials["apiKey"].get_string().value());
    const std::string agent(credentials["agentId"].get_string().value());

    UnusedPort down;
    const int port = down.port();
    const auto options = [](const char* step_ms) {
        std::vector<std::string> args{
            "--allow-private-webhooks", "--now", frozen,   "--call-step-ms", step_ms,
            "--webhook-backoff-scale",  "0.001", "--quiet"};
        // On PostgreSQL the killed process's calls and messages are taken over when its leases
        // run out: short ones here.
        if (on_postgres()) args.insert(args.end(), {"--lease-ms", "500"});
        return args;
    };

    // Calls end in the first run (both events pending) or only after the restart (the dialer
    // resumes them): both ways, nothing is lost.
    const bool ends_before_kill = GENERATE(true, false);
    INFO((ends_before_kill ? "calls end before the kill" : "calls end after the restart"));
    Secret secret;
    std::vector<std::string> calls;
    {
        ChildServer first(db, options(ends_before_kill ? "50" : "600000"));
        Client client("127.0.0.1", first.port(), key);
        secret = create_secret(client);
        for (int i = 0; i < 3; ++i) {
            const std::string customer =
                create_customer(client, "k-" + std::to_string(i) + (ends_before_kill ? "a" : "b"));
            calls.push_back(
                place_call(client, customer, agent, hook_url(port), secret.id).str("/data/id"));
        }
        const std::size_t expected = ends_before_kill ? 6 : 3;
        REQUIRE(eventually([&] {
            const auto rows = outbox(database);
            return rows.size() == expected &&
                   std::all_of(rows.begin(), rows.end(), [](const OutboxRow& r) {
                       return r.type == "call-ended" || r.attempts >= 1;
                   });
        }));
        first.signal(SIGKILL);
        CHECK(first.wait() == 128 + SIGKILL);
    }
    const auto before = outbox(database);
    for (const OutboxRow& row : before)
        CHECK(row.state == "pending");

    down.release();
    Receiver receiver(secret.text, port);
    ChildServer second(db, options("50"));
    REQUIRE(receiver.wait_for([](const auto& d) { return first_arrivals(d).size() >= 6; }));
    REQUIRE(eventually([&] {
        const auto rows = outbox(database);
        return rows.size() == 6 && std::all_of(rows.begin(), rows.end(), [](const OutboxRow& r) {
                   return r.state == "delivered";
               });
    }));

    // Every message the outbox ever held arrived at least once, signed, created before ended.
    const auto deliveries = receiver.deliveries();
    const std::vector<std::string> arrived = first_arrivals(deliveries);
    for (const OutboxRow& row : outbox(database)) {
        CHECK(std::find(arrived.begin(), arrived.end(), row.message_id) != arrived.end());
    }
    for (const Delivery& d : deliveries)
        check_signed(d);
    for (const std::string& call : calls) {
        std::vector<std::string> types;
        for (const Delivery& d : deliveries) {
            const Event e = parse_event(d.body);
            if (e.id == call) types.push_back(e.type);
        }
        REQUIRE(types.size() >= 2);
        CHECK(types.front() == "call-created");
        CHECK(types.back() == "call-ended");
    }
    Client client("127.0.0.1", second.port(), key);
    for (const std::string& call : calls) {
        CHECK(client.get("/api/v1/calls/" + call).str("/data/status") == "completed");
    }
}

TEST_CASE("webhook targets in refused address classes are refused", "[webhooks][ssrf]") {
    LocalServer server(fast(false));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    const std::string customer = create_customer(client, "c-1");

    // Each refused class by literal address, and loopback by a name that resolves to it.
    const char* refused[] = {
        "http://127.0.0.1:8080/hook",     // loopback
        "http://127.9.9.9/hook",          // loopback
        "http://[::1]/hook",              // loopback
        "http://localhost:8080/hook",     // loopback, by name
        "http://10.1.2.3/hook",           // private
        "http://172.16.0.1/hook",         // private
        "http://192.168.1.1/hook",        // private
        "http://169.254.1.1/hook",        // link-local
        "http://[fe80::1]/hook",          // link-local
        "http://100.64.0.1/hook",         // CGNAT
        "http://224.0.0.1/hook",          // multicast
        "http://[ff02::1]/hook",          // multicast
        "http://0.0.0.0/hook",            // unspecified
        "http://[::]/hook",               // unspecified
        "http://[fc00::1]/hook",          // unique local
        "http://[fd12:3456::1]/hook",     // unique local
        "http://169.254.169.254/latest",  // metadata
        "http://[fd00:ec2::254]/latest",  // metadata
        "http://100.100.100.200/latest",  // metadata
        "http://[::ffff:10.0.0.1]/hook",  // private, IPv4-mapped
        "https://127.0.0.1/hook",         // loopback over https
    };
    for (const char* url : refused) {
        INFO(url);
        const Reply r = client.post("/api/v1/customers/" + customer + "/calls",
                                    call_body(acme.agent, url, secret.id));
        REQUIRE(r.status == 400);
        CHECK(r.error_code() == "validation_failed");
        CHECK(r.str("/error/details/0/path") == "/webhook/url");
        CHECK(r.str("/error/details/0/code") == "not_allowed");
        // The rule that refused it, never the addresses the host resolved to.
        const std::string message = r.str("/error/details/0/message");
        CHECK(message.rfind("host resolves to ", 0) == 0);
        CHECK(message.find("127.0.0.1") == std::string::npos);
        CHECK(message.find("::1") == std::string::npos);
    }
    CHECK(client
              .post("/api/v1/customers/" + customer + "/calls",
                    call_body(acme.agent, "http://localhost:8080/hook", secret.id))
              .str("/error/details/0/message") ==
          "host resolves to a loopback address, which a webhook may not target");

    // A host that does not resolve.
    const Reply unknown =
        client.post("/api/v1/customers/" + customer + "/calls",
                    call_body(acme.agent, "http://no-such-host.invalid/hook", secret.id));
    REQUIRE(unknown.status == 400);
    CHECK(unknown.str("/error/details/0/path") == "/webhook/url");

    // A secret of no one.
    const Reply no_secret = client.post(
        "/api/v1/customers/" + customer + "/calls",
        call_body(acme.agent, "http://127.0.0.1/hook", "00000000-0000-4000-8000-000000000000"));
    REQUIRE(no_secret.status == 400);
    CHECK(
        no_secret.raw("/error/details").find(R"("path":"/webhook/secretId","code":"not_found")") !=
        std::string::npos);

    CHECK(client.get("/api/v1/customers/" + customer + "/calls").size("/data/calls") == 0);
    CHECK(outbox(server.database()).empty());
}

TEST_CASE("with --allow-private-webhooks, local networks are allowed but metadata is not",
          "[webhooks][ssrf]") {
    LocalServer server(fast(true));
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    const std::string customer = create_customer(client, "c-1");
    const std::string path = "/api/v1/customers/" + customer + "/calls";
    CHECK(client.post(path, call_body(acme.agent, "http://localhost:9/hook", secret.id)).status ==
          200);
    for (const char* url :
         {"http://169.254.169.254/latest", "http://0.0.0.0/hook", "http://224.0.0.1/hook"}) {
        INFO(url);
        const Reply r = client.post(path, call_body(acme.agent, url, secret.id));
        REQUIRE(r.status == 400);
        CHECK(r.str("/error/details/0/path") == "/webhook/url");
    }
}

TEST_CASE(
    "https receivers: the checked address is dialled, the certificate checked against the "
    "URL's host",
    "[webhooks][https]") {
    TempDir dir;
    const TestCertificate certificate = make_localhost_certificate(dir.path().string());
    LocalServer server([&](ServerOptions& o) {
        fast()(o);
        o.webhook_ca_file = certificate.cert_path;
    });
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    const Secret secret = create_secret(client);
    Receiver receiver(secret.text, 0, &certificate);

    const std::string customer = create_customer(client, "c-1");
    place_call(client, customer, acme.agent, hook_url(receiver.port(), "localhost", "https"),
               secret.id);
    REQUIRE(receiver.wait_for([](const auto& d) { return d.size() >= 2; }));
    for (const Delivery& d : receiver.deliveries()) {
        check_signed(d);
        CHECK(d.host_header == "localhost:" + std::to_string(receiver.port()));
    }

    // The certificate names localhost only: by IP address, the TLS check fails and nothing
    // is delivered.
    const std::string other = create_customer(client, "c-2");
    const std::string call = place_call(client, other, acme.agent,
                                        hook_url(receiver.port(), "127.0.0.1", "https"), secret.id)
                                 .str("/data/id");
    REQUIRE(eventually([&] {
        for (const OutboxRow& row : outbox(server.database())) {
            if (row.call_id == call && row.attempts >= 2) return true;
        }
        return false;
    }));
    CHECK(receiver.deliveries().size() == 2);
    for (const OutboxRow& row : outbox(server.database())) {
        if (row.call_id == call) CHECK(row.state == "pending");
    }
}
