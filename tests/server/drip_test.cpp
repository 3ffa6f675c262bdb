// Drip campaigns over HTTP (API.md section 15): enrolment and its answers, cancellation, and the
// scheduler on a clock that runs 100000 times faster than real time (serve --clock-rate): each
// step at its first compliant instant, in order, with its webhooks; a cancellation or a
// cease-and-desist stops the steps left; a process killed mid-campaign loses no step and runs
// none twice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <date/tz.h>

#include <collectcall/collectcall.hpp>
// Reads the drip webhook bodies, which the separately compiled mode only writes.
#include <collectcall/core/read.hpp>

#include "harness.hpp"
#include "hooked_store.hpp"

using namespace test;
using collectcall::Timestamp;
using collectcall::server::ServerOptions;
using collectcall::server::Time;

namespace {

// 22:00 in Chicago (CST) on 2026-11-19: the first compliant instant after it is 08:00 the next
// morning, 2026-11-20T14:00:00Z.
constexpr std::string_view evening = "2026-11-20T04:00:00Z";
// A clock that runs a day in under a second: a campaign of four days runs in about four.
constexpr int fast = 100'000;
// How late a step may run on that clock: the scheduler's turns are 10 ms of real time (under 17
// minutes of it), but a step's writes and webhooks on a loaded machine can take a few hundred
// milliseconds more; twelve hours of it are 432 ms of real time, and a step run a day late (a
// wrong day, a wrong spacing) is still caught.
constexpr auto late_by_at_most = std::chrono::hours(12);

Time instant(std::string_view when) {
    return Timestamp::parse(when).value().time();
}

LocalServer::Tweak clock_at(std::string_view when, int rate = 0) {
    const Time start = instant(when);
    return [start, rate](ServerOptions& o) {
        o.now = start;
        o.clock_rate = rate;
        o.call_step_ms = 20;
        o.api.allow_private_webhooks = true;
    };
}

Account drip_account(LocalServer& server, std::vector<std::string_view> campaigns,
                     collectcall::CompliancePolicy policy = collectcall::CompliancePolicy::hosted,
                     std::string_view name = "acme") {
    collectcall::server::AccountSetup setup;
    setup.name = name;
    setup.policy = policy;
    setup.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    for (std::string_view text : campaigns)
        setup.campaigns.push_back(collectcall::parse_drip_campaign(text).campaign.value());
    const auto c = server.store().create_credentials(setup, instant("2026-01-01T00:00:00Z"));
    return Account{std::string(c.accountId.view()), c.apiKey, c.agentId};
}

std::string create_customer(Client& client, std::string_view external_id,
                            std::string_view phone = "+13125550123") {
    const Reply r = client.post("/api/v1/customers", customer_json(external_id, {}, phone));
    REQUIRE(r.status == 200);
    return r.str("/data/id");
}

std::string enrol_body(std::string_view campaign, std::string_view webhook = {}) {
    std::string body = R"({"campaignName":")" + std::string(campaign) + '"';
    if (!webhook.empty()) body += R"(,"webhook":{"url":")" + std::string(webhook) + R"("})";
    return body + '}';
}

std::string drip_path(const std::string& customer) {
    return "/api/v1/customers/" + customer + "/drip-campaigns";
}

Reply cancel(Client& client, const std::string& customer, const std::string& id,
             const std::string& body = {}) {
    httplib::Headers headers;
    if (!body.empty()) headers.emplace("Content-Type", "application/json");
    return client.send("DELETE", drip_path(customer) + "/" + id, body, headers);
}

// The customer's newest enrolment once `done` holds of it (the steps run on the server's
// scheduler), or as it is after `timeout`.
Reply wait_for(Client& client, const std::string& customer,
               const std::function<bool(const Reply&)>& done,
               std::chrono::seconds timeout = std::chrono::seconds(20)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        Reply r = client.get(drip_path(customer));
        REQUIRE(r.status == 200);
        REQUIRE(r.size("/data/dripCampaigns") >= 1);
        if (done(r) || std::chrono::steady_clock::now() > deadline) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

bool finished(const Reply& r) {
    return r.str("/data/dripCampaigns/0/status") != "in-progress";
}

bool step_ran(const Reply& r, int step) {
    return r.str("/data/dripCampaigns/0/steps/" + std::to_string(step) + "/status") == "completed";
}

// A webhook receiver on a loopback port: the bodies it was sent, in order of arrival (each also
// recorded for the conformance check against the hosted DripCampaignWebhook schemas).
class Receiver {
  public:
    Receiver() {
        server_.Post("/hook", [this](const httplib::Request& request, httplib::Response& response) {
            record_webhook(request.body);
            {
                const std::lock_guard lock(mutex_);
                bodies_.push_back(request.body);
            }
            changed_.notify_all();
            response.status = 204;
        });
        port_ = server_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { server_.listen_after_bind(); });
    }
    ~Receiver() {
        server_.stop();
        thread_.join();
    }
    Receiver(const Receiver&) = delete;
    Receiver& operator=(const Receiver&) = delete;

    [[nodiscard]] std::string url() const {
        return "http://127.0.0.1:" + std::to_string(port_) + "/hook";
    }
    // The bodies once there are `count`, or those there are after `timeout`.
    std::vector<std::string> wait(std::size_t count,
                                  std::chrono::seconds timeout = std::chrono::seconds(20)) {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, timeout, [&] { return bodies_.size() >= count; });
        return bodies_;
    }

  private:
    httplib::Server server_;
    int port_ = 0;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::string> bodies_;
};

// The ids of the SMS among the customer's interactions.
std::vector<std::string> texts_sent(Client& client, const std::string& customer) {
    const Reply r = client.get("/api/v1/customers/" + customer + "/interactions");
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < r.size("/data/interactions"); ++i) {
        const std::string item = "/data/interactions/" + std::to_string(i);
        if (r.str(item + "/channel") == "sms") ids.push_back(r.str(item + "/sms/id"));
    }
    return ids;
}

// The instant of a timestamp member of `r`.
Time time_at(const Reply& r, const std::string& pointer) {
    return instant(r.str(pointer));
}

}  // namespace

TEST_CASE("drip: enrolment, its answers and its cancellation", "[drip]") {
    LocalServer server(clock_at(evening));  // frozen: no step comes due
    const Account account = drip_account(server, {"default", "short=sms@0"});
    Client client = server.client(account);
    const std::string customer = create_customer(client, "d-1");
    const std::string path = drip_path(customer);

    SECTION("an unknown campaign is 400 at /campaignName, an unknown customer 404") {
        Reply r = client.post(path, enrol_body("nope"));
        CHECK(r.status == 400);
        CHECK(r.error_code() == "validation_failed");
        CHECK(r.str("/error/details/0/path") == "/campaignName");
        CHECK(r.str("/error/details/0/code") == "not_found");
        r = client.post(path, R"({"webhook":{"url":"https://example.com/h"}})");
        CHECK(r.status == 400);
        CHECK(r.str("/error/details/0/path") == "/campaignName");
        r = client.post(drip_path("0f8fad5b-d9cb-469f-a165-70867728950e"), enrol_body("default"));
        CHECK(r.status == 404);
        CHECK(client.get(drip_path("not-a-uuid")).status == 404);
        CHECK(client.get(path).size("/data/dripCampaigns") == 0);
    }

    SECTION("enrolled at 22:00 local, the first step runs at 08:00 the next morning") {
        const Reply r = client.post(path, enrol_body("default"));
        REQUIRE(r.status == 200);
        CHECK(r.str("/data/name") == "default");
        CHECK(r.str("/data/customerId") == customer);
        CHECK(r.str("/data/status") == "in-progress");
        CHECK(r.str("/data/createdAt") == "2026-11-20T04:00:00.000Z");
        REQUIRE(r.size("/data/steps") == 3);
        const char* channels[] = {"call", "sms", "call"};
        const char* due[] = {"2026-11-20T04:00:00.000Z", "2026-11-22T04:00:00.000Z",
                             "2026-11-24T04:00:00.000Z"};
        const char* eligible[] = {"2026-11-20T14:00:00.000Z", "2026-11-22T14:00:00.000Z",
                                  "2026-11-24T14:00:00.000Z"};
        for (int i = 0; i < 3; ++i) {
            const std::string step = "/data/steps/" + std::to_string(i);
            CHECK(r.str(step + "/channel") == channels[i]);
            CHECK(r.str(step + "/dueAt") == due[i]);
            CHECK(r.str(step + "/status") == "pending");
            CHECK(r.str(step + "/nextEligibleAt") == eligible[i]);
        }
        CHECK(r.str("/data/nextStepAt") == "2026-11-20T14:00:00.000Z");

        // Enrolled and not finished: 409; another campaign is another enrolment.
        CHECK(client.post(path, enrol_body("default")).error_code() == "already_enrolled");
        CHECK(client.post(path, enrol_body("short")).status == 200);
        const Reply list = client.get(path);
        REQUIRE(list.size("/data/dripCampaigns") == 2);
        CHECK(list.str("/data/dripCampaigns/0/name") == "short");  // newest first
        CHECK(list.str("/data/dripCampaigns/1/id") == r.str("/data/id"));

        // Canceled: every pending step with it, then 409 for a second cancellation, and the
        // campaign may be enrolled in again.
        const std::string id = r.str("/data/id");
        CHECK(cancel(client, customer, "0f8fad5b-d9cb-469f-a165-70867728950e").status == 404);
        CHECK(cancel(client, customer, "nope").status == 404);
        CHECK(cancel(client, customer, id, R"({"reason":"maybe"})").status == 400);
        const Reply canceled = cancel(client, customer, id, R"({"reason":"customer-engaged"})");
        REQUIRE(canceled.status == 200);
        CHECK(canceled.str("/data/status") == "canceled");
        CHECK(canceled.str("/data/canceledReason") == "customer-engaged");
        CHECK(canceled.is_null("/data/nextStepAt"));
        for (int i = 0; i < 3; ++i)
            CHECK(canceled.str("/data/steps/" + std::to_string(i) + "/status") == "canceled");
        const Reply again = cancel(client, customer, id);
        CHECK(again.status == 409);
        CHECK(again.error_code() == "drip_campaign_finished");
        CHECK(client.post(path, enrol_body("default")).status == 200);
    }

    SECTION("a customer who can never be contacted is 422 compliance_failed, recorded") {
        REQUIRE(client.post("/api/v1/customers/" + customer + "/cease-and-desist", "").status ==
                200);
        const Reply r = client.post(path, enrol_body("default"));
        CHECK(r.status == 422);
        CHECK(r.error_code() == "compliance_failed");
        CHECK_FALSE(r.boolean("/data/passed"));
        CHECK(r.str("/data/checksFailed/0/id") == "cease-and-desist-exclusion");
        CHECK(r.is_null("/data/nextEligibleAt"));
        CHECK(client.get(path).size("/data/dripCampaigns") == 0);
        // The refusal is a decision of its own, the newest (after the record of the
        // cease-and-desist).
        const Reply decisions =
            client.get("/api/v1/customers/" + customer + "/compliance-decisions");
        REQUIRE(decisions.size("/data/decisions") >= 1);
        CHECK(decisions.str("/data/decisions/0/operation") == "enrolment");
        for (std::size_t i = 1; i < decisions.size("/data/decisions"); ++i)
            CHECK(decisions.str("/data/decisions/" + std::to_string(i) + "/operation") !=
                  "enrolment");
        CHECK(decisions.str("/data/decisions/0/channel") == "call");
        CHECK(decisions.raw("/data/decisions/0/compliance/checksFailed") ==
              r.raw("/data/checksFailed"));
        CHECK(decisions.is_null("/data/decisions/0/nextEligibleAt"));
    }
}

TEST_CASE("drip: due steps are served account by account in turn", "[drip]") {
    LocalServer server(clock_at(evening));  // frozen: the store is asked directly
    const Account first = drip_account(server, {"default"});
    const Account second =
        drip_account(server, {"default"}, collectcall::CompliancePolicy::hosted, "globex");
    Client a = server.client(first);
    Client b = server.client(second);
    // Five of the first account's enrolments, due before the second account's one.
    for (int i = 0; i < 5; ++i) {
        const std::string customer = create_customer(a, "a-" + std::to_string(i));
        REQUIRE(a.post(drip_path(customer), enrol_body("default")).status == 200);
    }
    const std::string lone = create_customer(b, "b-0");
    REQUIRE(b.post(drip_path(lone), enrol_body("default")).status == 200);

    const Time later = instant(evening) + std::chrono::hours(48);
    const auto accounts_of = [&](std::size_t limit) {
        std::vector<std::string> out;
        for (const auto& due : server.store().due_drip_enrolments(later, limit))
            out.emplace_back(due.account.view());
        return out;
    };
    // Two at a time: one of each account, the second account's among the first two.
    CHECK(accounts_of(2) == std::vector<std::string>{first.id, second.id});
    // All six: the second account's one, then the first's other four.
    const std::vector<std::string> all = accounts_of(10);
    REQUIRE(all.size() == 6);
    CHECK(std::count(all.begin(), all.end(), second.id) == 1);
    CHECK(all[1] == second.id);
}

TEST_CASE("drip: a call step reads no message; an SMS step reads the thread's last inbound",
          "[drip]") {
    test::HookedStore* hooked = nullptr;
    LocalServer server(clock_at(evening, fast), [&](const std::string& path) {
        auto store = std::make_unique<test::HookedStore>(path);
        hooked = store.get();
        return store;
    });
    const Account account = drip_account(server, {"calls=call@0,call@2", "texts=sms@0"});
    Client client = server.client(account);
    const std::string customer = create_customer(client, "d-9");
    // A long inbound message on the customer's thread, which an SMS step answers.
    REQUIRE(client
                .post("/api/v1/customers/" + customer + "/interactions/sms/import",
                      R"({"direction":"inbound","timestamp":"2026-11-20T03:00:00Z",)"
                      R"("from":"+13125550123","to":"+12025550100","body":"Who is this?"})")
                .status == 200);

    // The due enrolments say which channel their step is.
    REQUIRE(client.post(drip_path(customer), enrol_body("calls")).status == 200);
    const auto due =
        server.store().due_drip_enrolments(instant(evening) + std::chrono::hours(48), 10);
    REQUIRE(due.size() == 1);
    CHECK(due[0].channel == collectcall::ContactChannel::call);

    const int before = hooked->inbound_reads.load();
    Reply r = wait_for(client, customer, finished);
    REQUIRE(r.str("/data/dripCampaigns/0/status") == "completed");
    CHECK(hooked->inbound_reads.load() == before);  // two call steps, no message read

    REQUIRE(client.post(drip_path(customer), enrol_body("texts")).status == 200);
    r = wait_for(client, customer, finished);
    REQUIRE(r.str("/data/dripCampaigns/0/status") == "completed");
    CHECK(r.str("/data/dripCampaigns/0/name") == "texts");
    CHECK(hooked->inbound_reads.load() >= before + 1);
}

TEST_CASE("drip: the steps run in order at their first compliant instants, with their webhooks",
          "[drip]") {
    LocalServer server(clock_at(evening, fast));
    const Account account = drip_account(server, {"default"});
    Client client = server.client(account);
    const std::string customer = create_customer(client, "d-2");
    Receiver receiver;
    const Reply enrolled = client.post(drip_path(customer), enrol_body("default", receiver.url()));
    REQUIRE(enrolled.status == 200);
    const std::string id = enrolled.str("/data/id");

    const Reply r = wait_for(client, customer, finished);
    REQUIRE(r.str("/data/dripCampaigns/0/status") == "completed");
    // The first step at 08:00 Chicago time, each later one two days after the one before it ran
    // (its spacing), never before 08:00 on its day: each soon after that instant
    // (late_by_at_most).
    const char* mornings[] = {"2026-11-20T14:00:00Z", "2026-11-22T14:00:00Z",
                              "2026-11-24T14:00:00Z"};
    std::vector<std::string> made;
    Time previous{};
    for (int i = 0; i < 3; ++i) {
        const std::string step = "/data/dripCampaigns/0/steps/" + std::to_string(i);
        CHECK(r.str(step + "/status") == "completed");
        const Time ran = time_at(r, step + "/ranAt");
        const Time due = i == 0 ? instant(mornings[i])
                                : std::max(instant(mornings[i]), previous + std::chrono::hours(48));
        CHECK(ran >= due);
        CHECK(ran - due < late_by_at_most);
        previous = ran;
        made.push_back(r.str(step + "/interactionId"));
    }

    // What the steps made: two calls and an SMS, each once.
    const Reply calls = client.get("/api/v1/customers/" + customer + "/calls");
    REQUIRE(calls.size("/data/calls") == 2);
    CHECK(calls.str("/data/calls/0/id") == made[2]);  // newest first
    CHECK(calls.str("/data/calls/1/id") == made[0]);
    CHECK(texts_sent(client, customer) == std::vector<std::string>{made[1]});
    // Each run's compliance decision, recorded as a drip step's.
    const Reply decisions = client.get("/api/v1/customers/" + customer + "/compliance-decisions");
    std::size_t drip_decisions = 0;
    for (std::size_t i = 0; i < decisions.size("/data/decisions"); ++i)
        drip_decisions +=
            decisions.str("/data/decisions/" + std::to_string(i) + "/operation") == "drip-step";
    CHECK(drip_decisions == 3);

    // Five webhooks: each call's call-created and call-ended, and the SMS; the library reads
    // each back as a DripWebhookEvent (the conformance check holds them to the hosted schemas).
    const std::vector<std::string> bodies = receiver.wait(5);
    REQUIRE(bodies.size() == 5);
    std::vector<std::string> types;
    for (const std::string& body : bodies) {
        const auto event = collectcall::read<collectcall::DripWebhookEvent>(body);
        REQUIRE(event.ok());
        CHECK(event.value().id.view() == id);
        CHECK(event.value().name == "default");
        CHECK(event.value().customerId.view() == customer);
        types.emplace_back(event.value().type.view());
        if (event.value().sms.has_value()) {
            CHECK(event.value().sms->id.view() == made[1]);
            CHECK(enum_name(*event.value().direction) == "outbound");
        }
        if (event.value().callCreated.has_value()) {
            const std::string call(event.value().callCreated->id.view());
            CHECK((call == made[0] || call == made[2]));
        }
    }
    std::sort(types.begin(), types.end());
    CHECK(types == std::vector<std::string>{"drip-campaign.call-created",
                                            "drip-campaign.call-created",
                                            "drip-campaign.call-ended", "drip-campaign.call-ended",
                                            "drip-campaign.sms"});
}

TEST_CASE("drip: a cancellation stops the steps left, and so does a cease-and-desist", "[drip]") {
    LocalServer server(clock_at(evening, fast));
    const Account account = drip_account(server, {"daily=call@0,call@1,call@2,call@3"});
    Client client = server.client(account);
    const bool by_operator = GENERATE(true, false);
    const std::string customer = create_customer(client, "d-3");
    const Reply enrolled = client.post(drip_path(customer), enrol_body("daily"));
    REQUIRE(enrolled.status == 200);
    const std::string id = enrolled.str("/data/id");

    REQUIRE(step_ran(wait_for(client, customer, [](const Reply& r) { return step_ran(r, 0); }), 0));
    if (by_operator) {
        REQUIRE(cancel(client, customer, id, R"({"reason":"customer-converted"})").status == 200);
    } else {
        REQUIRE(client.post("/api/v1/customers/" + customer + "/cease-and-desist", "").status ==
                200);
    }
    // Canceled at once, or at the next step's time (under a second of real time here).
    const Reply r = wait_for(client, customer, finished);
    CHECK(r.str("/data/dripCampaigns/0/status") == "canceled");
    CHECK(r.str("/data/dripCampaigns/0/canceledReason") ==
          (by_operator ? "customer-converted" : "customer-uncontactable"));
    // A day and a half of this clock later (two more steps due), the steps left have not run.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const Reply after = client.get(drip_path(customer));
    CHECK(after.str("/data/dripCampaigns/0/steps/0/status") == "completed");
    for (int i = 1; i < 4; ++i)
        CHECK(after.str("/data/dripCampaigns/0/steps/" + std::to_string(i) + "/status") ==
              "canceled");
    CHECK(client.get("/api/v1/customers/" + customer + "/calls").size("/data/calls") == 1);
}

TEST_CASE("drip: a server killed mid-campaign loses no step and runs none twice", "[drip]") {
    Database db;
    const ProcessResult init = run_binary(
        {"init", "--db", db.uri(), "--account", "acme", "--campaign", "d=call@0,sms@1,call@2"});
    REQUIRE(init.exit_code == 0);
    const Reply credentials = parse(init.out);
    const std::string key = credentials.str("/apiKey");
    const std::vector<std::string> fast_clock = {"--clock-rate", std::to_string(fast),
                                                 "--call-step-ms", "20", "--quiet"};
    const auto args = [&](std::string_view now) {
        std::vector<std::string> out = {"--now", std::string(now)};
        out.insert(out.end(), fast_clock.begin(), fast_clock.end());
        return out;
    };

    std::string customer;
    {
        ChildServer first(db.uri(), args(evening));
        Client client("127.0.0.1", first.port(), key);
        customer = create_customer(client, "d-4");
        REQUIRE(client.post(drip_path(customer), enrol_body("d")).status == 200);
        // Killed 0.3, 0.86 or 1.2 s after the first step ran: before, about when, or after the
        // second step runs (a day, 0.86 s, later on this clock).
        wait_for(client, customer, [](const Reply& r) { return step_ran(r, 0); });
        const auto pause = GENERATE(300, 860, 1200);
        std::this_thread::sleep_for(std::chrono::milliseconds(pause));
        first.signal(SIGKILL);
        CHECK(first.wait() == 128 + SIGKILL);
    }
    ChildServer second(db.uri(), args("2026-11-21T00:00:00Z"));
    Client client("127.0.0.1", second.port(), key);
    const Reply r = wait_for(client, customer, finished);
    REQUIRE(r.str("/data/dripCampaigns/0/status") == "completed");
    Time previous{};
    for (int i = 0; i < 3; ++i) {
        const std::string step = "/data/dripCampaigns/0/steps/" + std::to_string(i);
        CHECK(r.str(step + "/status") == "completed");
        const Time ran = time_at(r, step + "/ranAt");
        CHECK(ran > previous);
        previous = ran;
    }
    CHECK(client.get("/api/v1/customers/" + customer + "/calls").size("/data/calls") == 2);
    CHECK(texts_sent(client, customer).size() == 1);
}

TEST_CASE("drip: two processes on one database run each step once", "[drip]") {
    Database db;
    const ProcessResult init = run_binary(
        {"init", "--db", db.uri(), "--account", "acme", "--campaign", "d=call@0,sms@1,call@2"});
    REQUIRE(init.exit_code == 0);
    const std::string key = parse(init.out).str("/apiKey");
    const std::vector<std::string> args = {"--now",          std::string(evening),
                                           "--clock-rate",   std::to_string(fast),
                                           "--call-step-ms", "20",
                                           "--quiet"};
    ChildServer first(db.uri(), args);
    ChildServer second(db.uri(), args);
    Client a("127.0.0.1", first.port(), key);
    Client b("127.0.0.1", second.port(), key);

    // Six customers, enrolled through either process: both schedulers look for every step.
    std::vector<std::string> customers;
    for (int i = 0; i < 6; ++i) {
        Client& client = i % 2 == 0 ? a : b;
        customers.push_back(create_customer(client, "p-" + std::to_string(i)));
        REQUIRE(client.post(drip_path(customers.back()), enrol_body("d")).status == 200);
    }
    for (const std::string& customer : customers) {
        CAPTURE(customer);
        const Reply r = wait_for(a, customer, finished);
        CHECK(r.str("/data/dripCampaigns/0/status") == "completed");
        CHECK(a.get("/api/v1/customers/" + customer + "/calls").size("/data/calls") == 2);
        CHECK(texts_sent(b, customer).size() == 1);
    }
}

namespace {

// The first instant at `hh`:00 in Chicago `days` local days after the local day of `at`.
Time chicago_morning(Time at, int days, int hh = 8) {
    const date::time_zone* chicago = date::locate_zone("America/Chicago");
    const auto local_day = std::chrono::floor<date::days>(chicago->to_local(at));
    return std::chrono::time_point_cast<std::chrono::milliseconds>(chicago->to_sys(
        local_day + date::days{days} + std::chrono::hours{hh}, date::choose::earliest));
}

// Places a call to `customer` through the API, again until the server's clock is inside the
// calling window (a loaded machine may start it late), and waits for it to end: the call.
Reply call_that_ends(Client& client, const Account& account, const std::string& customer) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    std::string id;
    while (id.empty()) {
        const Reply r = client.post("/api/v1/customers/" + customer + "/calls",
                                    R"({"agentId":")" + account.agent + R"("})");
        if (r.status == 200) id = r.str("/data/id");
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        if (id.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    while (true) {
        Reply r = client.get("/api/v1/calls/" + id);
        REQUIRE(r.status == 200);
        if (r.str("/data/status") != "in-progress") return r;
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// How far apart, on the fast clock, two instants the server read before the transactions that
// ordered them may be: a step's instant is read before its transaction waits for the one that
// ends the call in progress, whose instant was read before that commit. Half a second of real
// time (14 hours of this clock; a wait of a few milliseconds is typical): far less than the two
// days a step placed during the call would be early by.
constexpr auto clock_lag = std::chrono::milliseconds(500) * fast;

// When the call of `r` (GET /calls/{id}) ended: its call-ended event.
Time ended_at(const Reply& r) {
    for (std::size_t i = 0; i < r.size("/data/events"); ++i) {
        const std::string event = "/data/events/" + std::to_string(i);
        if (r.str(event + "/type") == "call-ended") return time_at(r, event + "/createdAt");
    }
    FAIL("the call has no call-ended event");
    return {};
}

}  // namespace

TEST_CASE(
    "drip: after a conversation on a Monday, the enrolment shows when each step runs, and they "
    "run then, two and four days apart",
    "[drip][sequence]") {
    // Monday 2026-11-16, 08:00 in Chicago, on the fast clock.
    LocalServer server(clock_at("2026-11-16T14:00:00Z", fast));
    const Account account =
        drip_account(server, {"default"}, collectcall::CompliancePolicy::regulation_f);
    Client client = server.client(account);
    // 555-0173: the simulated dialer's call is a conversation the customer ends.
    const std::string customer = create_customer(client, "seq-1", "+13125550173");
    const Reply conversation = call_that_ends(client, account, customer);
    REQUIRE(conversation.str("/data/endedReason") == "customer-ended-call");
    const Time talked = time_at(conversation, "/data/createdAt");
    // Then a number whose calls go to voicemail: the campaign's calls are no conversations.
    REQUIRE(client.patch("/api/v1/customers/" + customer, R"({"primaryPhone":"+13125550172"})")
                .status == 200);

    const Reply enrolled = client.post(drip_path(customer), enrol_body("default"));
    REQUIRE(enrolled.status == 200);
    // The lockout: the day of the conversation and the six after it; then 08:00 the next morning
    // in the window. The SMS two days after that call, the second call four days after it.
    const Time first = chicago_morning(talked, 7);
    REQUIRE(time_at(enrolled, "/data/createdAt") < first);
    const Time shown[] = {first, first + std::chrono::hours(48), first + std::chrono::hours(96)};
    for (int i = 0; i < 3; ++i) {
        INFO("step " << i);
        CHECK(time_at(enrolled, "/data/steps/" + std::to_string(i) + "/nextEligibleAt") ==
              shown[i]);
    }
    CHECK(time_at(enrolled, "/data/nextStepAt") == shown[0]);

    // About ten days of this clock: ten seconds.
    const Reply r = wait_for(client, customer, finished, std::chrono::seconds(120));
    REQUIRE(r.str("/data/dripCampaigns/0/status") == "completed");
    // Each step at the instant shown or soon after (late_by_at_most), never early; each at least
    // the two days of its spacing after the one before it.
    Time ran[3];
    for (int i = 0; i < 3; ++i) {
        INFO("step " << i);
        const std::string step = "/data/dripCampaigns/0/steps/" + std::to_string(i);
        REQUIRE(r.str(step + "/status") == "completed");
        ran[i] = time_at(r, step + "/ranAt");
        CHECK(ran[i] >= shown[i]);
        if (i > 0) {
            CHECK(ran[i] >= ran[i - 1] + std::chrono::hours(48));
            CHECK(ran[i] - (ran[i - 1] + std::chrono::hours(48)) < late_by_at_most);
        } else {
            CHECK(ran[i] - shown[i] < late_by_at_most);
        }
    }
    // The second call was placed after the first had ended.
    const Reply first_call =
        client.get("/api/v1/calls/" + r.str("/data/dripCampaigns/0/steps/0/interactionId"));
    const Reply second_call =
        client.get("/api/v1/calls/" + r.str("/data/dripCampaigns/0/steps/2/interactionId"));
    REQUIRE(first_call.status == 200);
    REQUIRE(second_call.status == 200);
    CHECK(time_at(second_call, "/data/createdAt") >= ended_at(first_call));
}

TEST_CASE("drip: a call step waits for a call in progress to end, and the enrolment goes on",
          "[drip][sequence]") {
    // Calls that last two seconds of real time (over two days of this clock), under hosted.
    LocalServer server([](ServerOptions& o) {
        clock_at(evening, fast)(o);
        o.call_step_ms = 2000;
    });
    const Account account = drip_account(server, {"twice=call@0,call@0"});
    Client client = server.client(account);
    // 555-0171: no answer.
    const std::string customer = create_customer(client, "busy-1", "+13125550171");
    REQUIRE(client.post(drip_path(customer), enrol_body("twice")).status == 200);

    const Reply r = wait_for(client, customer, finished, std::chrono::seconds(60));
    REQUIRE(r.str("/data/dripCampaigns/0/status") == "completed");
    const Reply first_call =
        client.get("/api/v1/calls/" + r.str("/data/dripCampaigns/0/steps/0/interactionId"));
    const Reply second_call =
        client.get("/api/v1/calls/" + r.str("/data/dripCampaigns/0/steps/1/interactionId"));
    REQUIRE(first_call.status == 200);
    REQUIRE(second_call.status == 200);
    CHECK(time_at(second_call, "/data/createdAt") >= ended_at(first_call) - clock_lag);
    // Meanwhile the second step was refused for the call in progress, and tried again.
    const Reply decisions = client.get("/api/v1/customers/" + customer + "/compliance-decisions");
    std::size_t waited = 0;
    for (std::size_t i = 0; i < decisions.size("/data/decisions"); ++i) {
        const std::string d = "/data/decisions/" + std::to_string(i);
        if (decisions.has(d + "/blockedByCallId") && !decisions.is_null(d + "/blockedByCallId")) {
            CHECK(decisions.str(d + "/blockedByCallId") == first_call.str("/data/id"));
            CHECK(decisions.str(d + "/operation") == "drip-step");
            ++waited;
        }
    }
    CHECK(waited >= 1);
}
