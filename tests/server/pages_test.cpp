// Pages of the lists (API.md section 17): limit and cursor, newest first, every item once when a
// list is read page by page (also while it grows), nextCursor or a Link header, a page bounded
// in bytes, and 400 for a limit out of range or a cursor of another list, customer or account.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <collectcall/api/page.hpp>

#include "harness.hpp"

using namespace test;
using collectcall::server::ServerOptions;

namespace {

// 09:00 in Chicago, inside respectful hours; the clock stands still.
LocalServer::Tweak morning() {
    return [](ServerOptions& o) {
        o.now = frozen_time();
        o.call_step_ms = 600'000;  // calls stay in progress
    };
}

std::string sms_json(int i) {
    const int minute = i % 60;
    return R"({"direction":"inbound","timestamp":"2026-11-20T14:)" +
           std::string(minute < 10 ? "0" : "") + std::to_string(minute) +
           R"(:00Z","from":"+13125550123","to":"+12025550100","body":"text )" + std::to_string(i) +
           "\"}";
}

std::string email_json(const std::string& body) {
    return R"({"direction":"inbound","timestamp":"2026-11-20T14:59:00Z","from":"ann@example.com",)"
           R"("to":["accounts@example.com"],"subject":"Long","plainTextBody":")" +
           body + "\"}";
}

// A call placed to `customer` at `at`, stored as the server stores a placed call (the
// compliance gate would refuse a second call while one is in progress).
std::string seed_call(LocalServer& server, const Account& account, const std::string& customer,
                      collectcall::server::Time at) {
    const auto plan = server.store().place_call(
        collectcall::Uuid::parse(account.id).value(), collectcall::Uuid::parse(customer).value(),
        at, [&](const collectcall::server::StoredCustomer& stored, const auto&) {
            return placed_call_plan(stored, account.agent, at);
        });
    REQUIRE(plan);
    return std::string(plan->call.id.view());
}

// The id of item `i` of a page: under its channel's member for an interaction.
using IdOf = std::function<std::string(const Reply&, const std::string& item)>;

std::string plain_id(const Reply& r, const std::string& item) {
    return r.str(item + "/id");
}

std::string interaction_id(const Reply& r, const std::string& item) {
    const std::string channel = r.str(item + "/channel");
    return r.str(item + (channel == "voice" ? "/call/id" : "/" + channel + "/id"));
}

// A list read page by page with `limit`, following nextCursor until it is null.
struct Walk {
    std::vector<std::string> ids;  // in the order the pages gave them
    std::size_t pages = 0;
    std::size_t largest_answer = 0;  // bytes
};

Walk walk(Client& client, const std::string& path, const std::string& member, std::size_t limit,
          const IdOf& id_of = plain_id) {
    Walk out;
    std::string query = "?limit=" + std::to_string(limit);
    while (true) {
        const Reply r = client.get(path + query);
        REQUIRE(r.status == 200);
        ++out.pages;
        REQUIRE(out.pages <= 10'000);
        out.largest_answer = std::max(out.largest_answer, r.body.size());
        const std::size_t n = r.size("/data/" + member);
        CHECK(n <= limit);
        for (std::size_t i = 0; i < n; ++i)
            out.ids.push_back(id_of(r, "/data/" + member + "/" + std::to_string(i)));
        REQUIRE(r.has("/data/nextCursor"));  // present on every page, null on the last
        if (r.is_null("/data/nextCursor")) break;
        CHECK(n >= 1);
        query = "?limit=" + std::to_string(limit) + "&cursor=" + r.str("/data/nextCursor");
    }
    return out;
}

std::string cursor_after_one(Client& client, const std::string& path) {
    const Reply r = client.get(path + "?limit=1");
    REQUIRE(r.status == 200);
    REQUIRE_FALSE(r.is_null("/data/nextCursor"));
    return r.str("/data/nextCursor");
}

void check_refused(Client& client, const std::string& path, const std::string& code) {
    INFO(path);
    const Reply r = client.get(path);
    INFO(r.body);
    CHECK(r.status == 400);
    CHECK(r.error_code() == "validation_failed");
    CHECK(r.str("/error/details/0/code") == code);
    CHECK(r.str("/error/details/0/path").empty());
}

}  // namespace

TEST_CASE("pages: a customer's interactions page by page, calls merged in, newest first",
          "[pages]") {
    LocalServer server(morning());
    const Account account = server.create_account("acme");
    Client client = server.client(account);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("p-1")).str("/data/id");
    const std::string base = "/api/v1/customers/" + customer;

    // 250 SMS at 14:00..14:59 (several in the same minute), and 3 calls placed at 15:00.
    std::vector<std::string> sms_ids;
    for (int batch = 0; batch < 3; ++batch) {
        std::string body = "{\"interactions\":[";
        const int count = batch < 2 ? 100 : 50;
        for (int i = 0; i < count; ++i)
            body += (i == 0 ? "" : ",") + sms_json(batch * 100 + i);
        const Reply r = client.post(base + "/interactions/sms/import/bulk", body + "]}");
        REQUIRE(r.status == 200);
        REQUIRE(r.integer("/data/summary/succeeded") == count);
    }
    std::vector<std::string> call_ids;
    for (int i = 0; i < 3; ++i)
        call_ids.push_back(
            seed_call(server, account, customer, frozen_time() + std::chrono::seconds(i)));

    const Reply whole = client.get(base + "/interactions?limit=1000");
    REQUIRE(whole.status == 200);
    REQUIRE(whole.size("/data/interactions") == 253);
    CHECK(whole.is_null("/data/nextCursor"));
    std::vector<std::string> expected;
    for (std::size_t i = 0; i < 253; ++i)
        expected.push_back(interaction_id(whole, "/data/interactions/" + std::to_string(i)));
    // The calls are the newest (15:00); the first page of the default limit holds 100.
    CHECK(expected[0] == call_ids[2]);
    CHECK(expected[2] == call_ids[0]);
    const Reply first = client.get(base + "/interactions");
    CHECK(first.size("/data/interactions") == collectcall::api::default_page_limit);
    CHECK_FALSE(first.is_null("/data/nextCursor"));

    for (const std::size_t limit : {1u, 7u, 100u, 252u, 253u}) {
        INFO("limit " << limit);
        const Walk w = walk(client, base + "/interactions", "interactions", limit, interaction_id);
        CHECK(w.ids == expected);
        CHECK(w.pages == (253 + limit - 1) / limit);  // the last page is full or not, never empty
    }

    // Newer items added while a list is read do not move the pages still to read: every item
    // that was there is read once.
    const Reply page = client.get(base + "/interactions?limit=100");
    std::vector<std::string> read;
    for (std::size_t i = 0; i < 100; ++i)
        read.push_back(interaction_id(page, "/data/interactions/" + std::to_string(i)));
    seed_call(server, account, customer, frozen_time() + std::chrono::minutes(5));
    REQUIRE(client.post(base + "/interactions/sms/import", sms_json(30)).status == 200);
    std::string cursor = page.str("/data/nextCursor");
    while (!cursor.empty()) {
        const Reply next = client.get(base + "/interactions?limit=100&cursor=" + cursor);
        REQUIRE(next.status == 200);
        for (std::size_t i = 0; i < next.size("/data/interactions"); ++i)
            read.push_back(interaction_id(next, "/data/interactions/" + std::to_string(i)));
        cursor = next.is_null("/data/nextCursor") ? "" : next.str("/data/nextCursor");
    }
    // Every item that was there, once and in order; the SMS added at 14:30 comes on a later
    // page, where its place is; the call added at 15:05 is before the first page, not on one.
    CHECK(read.size() == expected.size() + 1);
    CHECK(std::set<std::string>(read.begin(), read.end()).size() == read.size());
    std::vector<std::string> old_ones;
    std::copy_if(read.begin(), read.end(), std::back_inserter(old_ones),
                 [&](const std::string& id) {
                     return std::find(expected.begin(), expected.end(), id) != expected.end();
                 });
    CHECK(old_ones == expected);
}

TEST_CASE("pages: a page of large e-mails stops early, with its cursor", "[pages]") {
    LocalServer server(morning());
    Client client = server.client(server.create_account("acme"));
    const std::string customer =
        client.post("/api/v1/customers", customer_json("p-1")).str("/data/id");
    const std::string base = "/api/v1/customers/" + customer;
    // 12 e-mails of 200 KiB: 2.4 MiB of history.
    const std::string body(200 * 1024, 'x');
    for (int i = 0; i < 12; ++i)
        REQUIRE(client.post(base + "/interactions/email/import", email_json(body)).status == 200);

    const Walk w = walk(client, base + "/interactions", "interactions", 100, interaction_id);
    CHECK(w.ids.size() == 12);
    CHECK(std::set<std::string>(w.ids.begin(), w.ids.end()).size() == 12);
    // Pages of at most max_page_bytes of items (the item that crosses it waits for the next).
    CHECK(w.pages >= 3);
    CHECK(w.largest_answer <= collectcall::api::max_page_bytes + 16 * 1024);
}

TEST_CASE("pages: decisions, drip enrolments and calls page by page", "[pages]") {
    LocalServer server(morning());
    collectcall::server::AccountSetup setup;
    setup.name = "acme";
    setup.fallback_caller_number = collectcall::E164::parse("+12025550100").value();
    setup.campaigns.push_back(collectcall::parse_drip_campaign("default").campaign.value());
    const auto made = server.store().create_credentials(setup, frozen_time());
    const Account account{std::string(made.accountId.view()), made.apiKey, made.agentId};
    Client client = server.client(account);
    const std::string customer =
        client.post("/api/v1/customers", customer_json("p-1")).str("/data/id");
    const std::string base = "/api/v1/customers/" + customer;

    // 4 calls placed at 14:00, 14:01, ...; then 21 requests that the gate refuses (a call in
    // progress, the daily limit) or lets through: 25 decisions, newest first.
    std::vector<std::string> seeded;
    for (int i = 0; i < 4; ++i) {
        seeded.insert(seeded.begin(), seed_call(server, account, customer,
                                                frozen_time() - std::chrono::minutes(60 - i)));
    }
    for (int i = 0; i < 21; ++i) {
        const Reply r = client.post(base + "/calls", R"({"agentId":")" + account.agent + "\"}");
        REQUIRE((r.status == 200 || r.status == 422));
    }
    const Reply calls = client.get(base + "/calls?limit=1000");
    REQUIRE(calls.size("/data/calls") >= 4);
    std::vector<std::string> expected_calls;
    for (std::size_t i = 0; i < calls.size("/data/calls"); ++i)
        expected_calls.push_back(calls.str("/data/calls/" + std::to_string(i) + "/id"));
    CHECK(std::vector<std::string>(expected_calls.end() - 4, expected_calls.end()) == seeded);
    const Walk by_three = walk(client, base + "/calls", "calls", 3);
    CHECK(by_three.ids == expected_calls);
    CHECK(by_three.pages == (expected_calls.size() + 2) / 3);

    const Reply decisions = client.get(base + "/compliance-decisions?limit=1000");
    REQUIRE(decisions.size("/data/decisions") == 25);
    std::vector<std::string> expected;
    for (std::size_t i = 0; i < 25; ++i) {
        expected.push_back(decisions.raw("/data/decisions/" + std::to_string(i)));
    }
    const IdOf whole = [](const Reply& r, const std::string& item) { return r.raw(item); };
    for (const std::size_t limit : {1u, 4u, 24u, 25u}) {
        INFO("limit " << limit);
        CHECK(walk(client, base + "/compliance-decisions", "decisions", limit, whole).ids ==
              expected);
    }

    // Enrolled, cancelled, enrolled again: 7 enrolments.
    std::vector<std::string> enrolments;
    for (int i = 0; i < 7; ++i) {
        const Reply r = client.post(base + "/drip-campaigns", R"({"campaignName":"default"})");
        REQUIRE(r.status == 200);
        enrolments.push_back(r.str("/data/id"));
        if (i < 6) {
            REQUIRE(client.send("DELETE", base + "/drip-campaigns/" + r.str("/data/id"), "", {})
                        .status == 200);
        }
    }
    std::reverse(enrolments.begin(), enrolments.end());
    CHECK(walk(client, base + "/drip-campaigns", "dripCampaigns", 2).ids == enrolments);
    CHECK(walk(client, base + "/drip-campaigns", "dripCampaigns", 2).pages == 4);
}

TEST_CASE("pages: GET /clients keeps its array, the next page in a Link header", "[pages]") {
    LocalServer server;
    Client client = server.client(server.create_account("acme"));
    std::vector<std::string> ids;
    for (int i = 0; i < 5; ++i) {
        const Reply r =
            client.post("/api/v1/clients", R"({"name":"Client )" + std::to_string(i) + "\"}");
        REQUIRE(r.status == 200);
        ids.insert(ids.begin(), r.str("/data/id"));  // newest first
    }
    std::vector<std::string> read;
    std::string next = "/api/v1/clients?limit=2";
    std::size_t pages = 0;
    while (!next.empty()) {
        const Reply r = client.get(next);
        REQUIRE(r.status == 200);
        ++pages;
        for (std::size_t i = 0; i < r.size("/data"); ++i)
            read.push_back(r.str("/data/" + std::to_string(i) + "/id"));
        const std::string link = r.header("Link");
        next.clear();
        if (!link.empty()) {
            REQUIRE(link.front() == '<');
            const auto end = link.find('>');
            REQUIRE(end != std::string::npos);
            CHECK(link.substr(end) == R"(>; rel="next")");
            next = link.substr(1, end - 1);
            CHECK(next.rfind("/api/v1/clients?limit=2&cursor=", 0) == 0);
        }
    }
    CHECK(read == ids);
    CHECK(pages == 3);
    const Reply all = client.get("/api/v1/clients");
    CHECK(all.size("/data") == 5);
    CHECK(all.header("Link").empty());
}

TEST_CASE("pages: a limit out of range, an unknown parameter, a cursor of another list is 400",
          "[pages]") {
    LocalServer server(morning());
    const Account acme = server.create_account("acme");
    Client client = server.client(acme);
    Client globex = server.client(server.create_account("globex"));
    const auto make_customer = [](Client& c, const std::string& external) {
        const std::string id = c.post("/api/v1/customers", customer_json(external)).str("/data/id");
        const std::string base = "/api/v1/customers/" + id;
        for (int i = 0; i < 3; ++i)
            REQUIRE(c.post(base + "/interactions/sms/import", sms_json(i)).status == 200);
        return base;
    };
    const std::string one = make_customer(client, "p-1");
    const std::string two = make_customer(client, "p-2");
    const std::string theirs = make_customer(globex, "p-1");
    const std::string path = one + "/interactions";

    check_refused(client, path + "?limit=0", "range");
    check_refused(client, path + "?limit=1001", "range");
    check_refused(client, path + "?limit=99999999999999999999", "type");
    check_refused(client, path + "?limit=ten", "type");
    check_refused(client, path + "?limit=", "type");
    check_refused(client, path + "?limit=-1", "type");
    check_refused(client, path + "?limit=2&limit=3", "duplicate_field");
    check_refused(client, path + "?page=2", "unknown_field");
    CHECK(client.get(path + "?limit=1000").status == 200);
    CHECK(client.get(path + "?limit=1").size("/data/interactions") == 1);

    const std::string cursor = cursor_after_one(client, path);
    CHECK(client.get(path + "?cursor=" + cursor).size("/data/interactions") == 2);
    // Not a cursor at all, or one changed by hand.
    check_refused(client, path + "?cursor=abc", "format");
    std::string upper = cursor;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](char c) { return c >= 'a' && c <= 'f' ? static_cast<char>(c - 32) : c; });
    check_refused(client, path + "?cursor=" + upper, "format");
    check_refused(client, path + "?cursor=" + cursor + "&cursor=x", "duplicate_field");
    // Another customer's list, another list of the customer, another account's list.
    check_refused(client, two + "/interactions?cursor=" + cursor, "format");
    check_refused(client, one + "/compliance-decisions?cursor=" + cursor, "format");
    check_refused(client, one + "/calls?cursor=" + cursor, "format");
    check_refused(client, "/api/v1/clients?cursor=" + cursor, "format");
    const std::string their_cursor = cursor_after_one(globex, theirs + "/interactions");
    check_refused(client, path + "?cursor=" + their_cursor, "format");
    check_refused(globex, theirs + "/interactions?cursor=" + cursor, "format");
    // Errors are all reported, and an unknown customer is still 404 first.
    const Reply both = client.get(path + "?limit=0&cursor=zz");
    CHECK(both.size("/error/details") == 2);
    CHECK(client.get("/api/v1/customers/0f8fad5b-d9cb-469f-a165-70867728950e/interactions?limit=0")
              .status == 404);
}
