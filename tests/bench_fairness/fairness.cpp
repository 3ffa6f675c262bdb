// The benchmarks compare like with like: every peer (nlohmann, Boost.JSON, RapidJSON) accepts and
// rejects exactly the documents collectcall does, binds the same values, and writes JSON that
// reads back as the same data; the std::regex validators give collectcall's answers.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/types/date.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/email.hpp"
#include "collectcall/types/uuid.hpp"
#include "collectcall/types/zip.hpp"
#include "corpus/corpus.hpp"
#include "corpus/fixtures.hpp"
#include "peers/convert.hpp"
#include "peers/peers.hpp"
#include "peers/regex_validators.hpp"

namespace {

using corpus::Fault;

struct Peer {
    std::string_view name;
    peers::Capabilities capabilities;
    bool (*read_customer)(std::string_view, const peers::Options&, peers::CustomerCreate&);
    bool (*read_bulk)(std::string_view, const peers::Options&, peers::BulkCreateRequest&);
    std::string (*write_customer)(const peers::Customer&);
    std::string (*write_bulk_result)(const peers::BulkResult&);
};

#define COLLECTCALL_PEER(ns)                                                          \
    Peer {                                                                            \
        peers::ns::name, peers::ns::capabilities,                                     \
            static_cast<bool (*)(std::string_view, const peers::Options&,             \
                                 peers::CustomerCreate&)>(&peers::ns::read),          \
            static_cast<bool (*)(std::string_view, const peers::Options&,             \
                                 peers::BulkCreateRequest&)>(&peers::ns::read),       \
            static_cast<std::string (*)(const peers::Customer&)>(&peers::ns::write),  \
            static_cast<std::string (*)(const peers::BulkResult&)>(&peers::ns::write) \
    }

const std::array<Peer, 3> all_peers{COLLECTCALL_PEER(nlohmann_json), COLLECTCALL_PEER(boost_json),
                                    COLLECTCALL_PEER(rapidjson_dom)};

// A fault the peer cannot see at all. Such documents are excluded from the comparison, and the
// test checks that the limitation is real (the peer does accept them), so the list stays honest.
bool blind_to(const Peer& peer, Fault fault) {
    return fault == Fault::duplicate_member && !peer.capabilities.sees_duplicate_members;
}

const corpus::Corpus& the_corpus() {
    return corpus::get();
}

peers::Options peer_options() {
    peers::Options options;
    options.today = the_corpus().today;
    return options;
}

bool collectcall_accepts(std::string_view json) {
    return collectcall::read<collectcall::CustomerCreate>(json, corpus::read_options(the_corpus()))
        .ok();
}

// A bulk body made of the mixed documents that are JSON at all (a malformed item breaks the whole
// body, for every reader alike).
std::string mixed_bulk_body(std::vector<Fault>& faults) {
    std::string body = "{\"customers\":[";
    std::size_t count = 0;
    for (const corpus::Document& d : the_corpus().mixed) {
        if (d.fault == Fault::malformed || d.fault == Fault::invalid_utf8) continue;
        if (count == 1000) break;
        if (count++ != 0) body += ',';
        body += d.json;
        faults.push_back(d.fault);
    }
    return body + "]}";
}

}  // namespace

TEST_CASE("the corpus has the promised shape and is deterministic", "[bench][corpus]") {
    const corpus::Corpus& c = the_corpus();
    CHECK(c.customer.size() >= 600);
    CHECK(c.customer.size() <= 900);
    CHECK(c.customer_reversed.size() == c.customer.size());
    CHECK(c.customer_reversed != c.customer);
    CHECK(c.customer_shuffled.size() == c.customer.size());
    CHECK(c.customer_shuffled != c.customer);
    CHECK(c.customer_shuffled != c.customer_reversed);
    CHECK(c.customer.find("\"collections\":{") != std::string::npos);
    CHECK(c.bulk_items == 1000);
    // customer_full: every member of the customer and of collections, non-ASCII text escaped.
    for (const char* member :
         {"clientId", "middleName", "secondaryPhone", "line2", "totalBalance", "principalBalance",
          "originalCreditor", "accruedInterestAmount", "chargeOffDate", "firstDelinquencyDate",
          "settlementAggregationRate", "originalAccountNumber", "itemizationBalance",
          "postItemizationInterest", "postItemizationFees", "postItemizationCredits",
          "postItemizationPayments", "productType", "originalProductType"}) {
        INFO(member);
        CHECK(c.customer_full.find("\"" + std::string(member) + "\":") != std::string::npos);
    }
    CHECK(c.customer_full.find("Jos\\u00e9") != std::string::npos);
    CHECK(c.customer_full.find("\\ud83c\\udfe6") != std::string::npos);  // a surrogate pair
    CHECK(c.customer_full.find("null") == std::string::npos);

    std::size_t faulty = 0;
    std::array<int, corpus::fault_count> seen{};
    for (const corpus::Document& d : c.mixed) {
        faulty += d.fault != Fault::none ? 1 : 0;
        ++seen[static_cast<std::size_t>(d.fault)];
    }
    const double share = static_cast<double>(faulty) / static_cast<double>(c.mixed.size());
    CHECK(share >= 0.04);
    CHECK(share <= 0.06);
    for (int kind = 1; kind < corpus::fault_count; ++kind) {
        INFO(corpus::fault_name(static_cast<Fault>(kind)));
        CHECK(seen[static_cast<std::size_t>(kind)] >= 2);
    }

    const corpus::Corpus again = corpus::generate(c.seed);
    CHECK(again.customer == c.customer);
    CHECK(again.bulk1000 == c.bulk1000);
    CHECK(again.mixed.size() == c.mixed.size());
    CHECK(again.mixed.back().json == c.mixed.back().json);
    CHECK(corpus::generate(c.seed + 1).customer != c.customer);
}

TEST_CASE("collectcall accepts the valid documents and rejects the faulty ones",
          "[bench][corpus]") {
    const corpus::Corpus& c = the_corpus();
    CHECK(collectcall_accepts(c.customer));
    CHECK(collectcall_accepts(c.customer_reversed));
    CHECK(collectcall_accepts(c.customer_shuffled));
    CHECK(collectcall_accepts(c.customer_full));
    for (const corpus::Document& d : c.mixed) {
        INFO(corpus::fault_name(d.fault) << ": " << d.json);
        CHECK(collectcall_accepts(d.json) == (d.fault == Fault::none));
    }
    auto bulk =
        collectcall::read<collectcall::BulkCreateRequest>(c.bulk1000, corpus::read_options(c));
    REQUIRE(bulk.ok());
    REQUIRE(bulk.value().customers.size() == 1000);
    for (const auto& item : bulk.value().customers)
        CHECK(item.ok());
}

TEST_CASE("every peer accepts and rejects exactly the documents collectcall does",
          "[bench][fairness]") {
    const corpus::Corpus& c = the_corpus();
    const peers::Options options = peer_options();
    for (const Peer& peer : all_peers) {
        INFO("peer: " << peer.name);
        peers::CustomerCreate value;
        CHECK(peer.read_customer(c.customer, options, value));
        CHECK(peer.read_customer(c.customer_reversed, options, value));
        CHECK(peer.read_customer(c.customer_shuffled, options, value));
        CHECK(peer.read_customer(c.customer_full, options, value));
        std::size_t compared = 0, blind = 0;
        for (const corpus::Document& d : c.mixed) {
            INFO(corpus::fault_name(d.fault) << ": " << d.json);
            const bool accepted = peer.read_customer(d.json, options, value);
            if (blind_to(peer, d.fault)) {
                CHECK(accepted);  // the limitation is real, and documented in peers.hpp
                ++blind;
                continue;
            }
            CHECK(accepted == collectcall_accepts(d.json));
            ++compared;
        }
        CHECK(compared + blind == c.mixed.size());
    }
}

TEST_CASE("every peer binds the values collectcall reads", "[bench][fairness]") {
    const corpus::Corpus& c = the_corpus();
    const peers::Options options = peer_options();
    std::vector<std::string_view> documents{c.customer, c.customer_reversed, c.customer_shuffled,
                                            c.customer_full};
    for (const corpus::Document& d : c.mixed) {
        if (d.fault == Fault::none) documents.push_back(d.json);
    }
    for (const Peer& peer : all_peers) {
        INFO("peer: " << peer.name);
        for (std::string_view json : documents) {
            INFO(json);
            auto expected =
                collectcall::read<collectcall::CustomerCreate>(json, corpus::read_options(c));
            REQUIRE(expected.ok());
            peers::CustomerCreate value;
            REQUIRE(peer.read_customer(json, options, value));
            CHECK(value == peers::to_peer(expected.value()));
        }
    }
}

TEST_CASE("every peer gives each bulk item the verdict collectcall gives it", "[bench][fairness]") {
    const corpus::Corpus& c = the_corpus();
    const peers::Options options = peer_options();
    std::vector<Fault> faults;
    const std::string mixed = mixed_bulk_body(faults);

    for (const std::string* body : {&c.bulk1000, &mixed}) {
        auto expected =
            collectcall::read<collectcall::BulkCreateRequest>(*body, corpus::read_options(c));
        REQUIRE(expected.ok());
        const auto& items = expected.value().customers;
        for (const Peer& peer : all_peers) {
            INFO("peer: " << peer.name);
            peers::BulkCreateRequest request;
            REQUIRE(peer.read_bulk(*body, options, request));
            REQUIRE(request.customers.size() == items.size());
            for (std::size_t i = 0; i < items.size(); ++i) {
                const Fault fault = body == &mixed ? faults[i] : Fault::none;
                INFO("item " << i << " (" << corpus::fault_name(fault) << ")");
                if (blind_to(peer, fault)) {
                    CHECK(request.customers[i].ok);
                    continue;
                }
                CHECK(request.customers[i].ok == items[i].ok());
                if (items[i].ok() && request.customers[i].ok) {
                    CHECK(request.customers[i].value == peers::to_peer(items[i].value()));
                }
            }
        }
    }

    // Request-level rules: 1 to 1000 items, nothing but `customers`.
    std::string too_many = "{\"customers\":[";
    for (int i = 0; i < 1001; ++i)
        too_many += i == 0 ? "{}" : ",{}";
    too_many += "]}";
    for (std::string_view body :
         {std::string_view(R"({"customers":[]})"), std::string_view(R"({"customers":[],"x":1})"),
          std::string_view(R"({"customers":{}})"), std::string_view(R"({})"),
          std::string_view(too_many)}) {
        INFO(body.substr(0, 60));
        CHECK_FALSE(
            collectcall::read<collectcall::BulkCreateRequest>(body, corpus::read_options(c)).ok());
        for (const Peer& peer : all_peers) {
            INFO("peer: " << peer.name);
            peers::BulkCreateRequest request;
            CHECK_FALSE(peer.read_bulk(body, options, request));
        }
    }
}

TEST_CASE("every peer writes JSON that reads back as the same data", "[bench][fairness]") {
    const corpus::Corpus& c = the_corpus();
    const collectcall::Customer customer = corpus::stored_customer(c);
    const collectcall::BulkResult bulk = corpus::bulk_result(c);
    CHECK(bulk.summary.total == 1000);
    CHECK(bulk.summary.failed == 50);
    const peers::Customer peer_customer = peers::to_peer(customer);
    const peers::BulkResult peer_bulk = peers::to_peer(bulk);

    const std::string reference = collectcall::write(customer);
    auto own = collectcall::read<collectcall::Customer>(reference, corpus::read_options(c));
    REQUIRE(own.ok());
    CHECK(own.value() == customer);

    for (const Peer& peer : all_peers) {
        INFO("peer: " << peer.name);
        const std::string written = peer.write_customer(peer_customer);
        INFO(written);
        auto back = collectcall::read<collectcall::Customer>(written, corpus::read_options(c));
        REQUIRE(back.ok());
        CHECK(back.value() == customer);
        // Same members, same values; only number spelling and key order may differ.
        CHECK(written.size() > reference.size() * 8 / 10);
        CHECK(written.size() < reference.size() * 13 / 10);

        const std::string bulk_written = peer.write_bulk_result(peer_bulk);
        auto bulk_back =
            collectcall::read<collectcall::BulkResult>(bulk_written, corpus::read_options(c));
        REQUIRE(bulk_back.ok());
        CHECK(bulk_back.value() == bulk);
    }
}

TEST_CASE("the std::regex validators give collectcall's answers", "[bench][fairness]") {
    const corpus::ValidatorInputs& in = corpus::validator_inputs();
    const auto extra = [](std::vector<std::string> base, std::initializer_list<const char*> more) {
        for (const char* s : more)
            base.emplace_back(s);
        return base;
    };
    std::size_t invalid = 0;
    for (const std::string& s :
         extra(in.e164, {"+1", "+12", "+0123", "+1234567890123456", "12345", "+1-202", ""})) {
        INFO(s);
        const bool ok = collectcall::E164::parse(s).ok();
        invalid += ok ? 0 : 1;
        CHECK(peers::std_regex::e164(s) == ok);
    }
    for (const std::string& s :
         extra(in.zip, {"12345", "12345-6789", "1234", "12345-", "123456789", "12345-678a", ""})) {
        INFO(s);
        const bool ok = collectcall::Zip::parse(s).ok();
        invalid += ok ? 0 : 1;
        CHECK(peers::std_regex::zip(s) == ok);
    }
    for (const std::string& s :
         extra(in.date, {"2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "1899-12-31",
                         "2100-12-31", "2101-01-01", "2024-00-10", "2024-1-01"})) {
        INFO(s);
        const bool ok = collectcall::Date::parse(s).ok();
        invalid += ok ? 0 : 1;
        CHECK(peers::std_regex::date(s) == ok);
    }
    for (const std::string& s :
         extra(in.email, {"a@b", "a.@b.c", ".a@b", "a@b.", "a@-b.c", "a@b-.c", "a@b..c", "a b@c.d",
                          "a@b_c.d", "@b.c", "a@"})) {
        INFO(s);
        const bool ok = collectcall::Email::parse(s).ok();
        invalid += ok ? 0 : 1;
        CHECK(peers::std_regex::email(s) == ok);
    }
    const std::string long_label = "a@" + std::string(64, 'b') + ".c";
    CHECK(peers::std_regex::email(long_label) == collectcall::Email::parse(long_label).ok());
    const std::string too_long = std::string(64, 'a') + "@" + std::string(63, 'b') + "." +
                                 std::string(63, 'c') + "." + std::string(63, 'd');
    CHECK(peers::std_regex::email(too_long) == collectcall::Email::parse(too_long).ok());
    for (const std::string& s :
         extra(in.uuid,
               {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
                "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}"})) {
        INFO(s);
        const bool ok = collectcall::Uuid::parse(s).ok();
        invalid += ok ? 0 : 1;
        CHECK(peers::std_regex::uuid(s) == ok);
    }
    CHECK(invalid > 20);  // the inputs exercise the rejecting paths too
}
