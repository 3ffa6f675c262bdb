// Every example of the served OpenAPI document against what the code produces for it: request
// bodies read as valid; answers and error bodies read back and written again byte for byte (the
// library writes exactly what the document shows); compliance results are what the engine
// decides for the example's customer and time; error messages are the ones the library builds.
#include "openapi_examples.hpp"

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "collectcall/api/openapi.hpp"
#include "collectcall/compliance/engine.hpp"
#include "collectcall/compliance/next_eligible.hpp"

using namespace collectcall;
using namespace openapi_examples_test;

ReadOptions openapi_examples_test::example_day() {
    ReadOptions options;
    options.today = std::chrono::sys_days{std::chrono::year{2026} / 11 / 20};
    return options;
}

std::vector<std::pair<std::string, std::string>> openapi_examples_test::examples_of(
    simdjson::dom::element media) {
    std::vector<std::pair<std::string, std::string>> out;
    simdjson::dom::object examples;
    if (media["examples"].get(examples) != simdjson::SUCCESS) return out;
    for (auto [name, example] : examples)
        out.emplace_back(std::string(name), simdjson::minify(example["value"]));
    return out;
}

namespace {

// The error examples of one operation: read back and written again byte for byte, with the
// message the library builds for them.
void check_error_examples(const api::Route& route, simdjson::dom::element op, Counts& counts) {
    const std::string where = std::string(route.method) + " " + std::string(route.path);
    simdjson::dom::object responses = op["responses"];
    for (auto [status, response] : responses) {
        if (status == "200") continue;
        for (const auto& [code, json] : examples_of(response["content"]["application/json"])) {
            if (code == api::errors::compliance_failed.code) {
                const auto blocked = round_trip<ErrorEnvelope<BlockedCall>>(where, json);
                CHECK_FALSE(blocked.data.compliance.passed);
                CHECK(blocked.error.message ==
                      compliance::failure_message(blocked.data.compliance));
            } else {
                const auto error = round_trip<ErrorEnvelope<>>(where, json);
                CHECK(error.error.code == code);
                if (code == api::errors::validation_failed.code) {
                    CHECK(error.error.message ==
                          invalid_fields_message(error.error.details.size()));
                }
            }
            ++counts.errors;
        }
    }
}

// The compliance of the example customer (Austin, 78701) called at `now` with no earlier calls.
compliance::ComplianceInput austin_input(int utc_hour) {
    compliance::ComplianceInput in;
    in.active = true;
    in.state = "TX";
    in.zip5 = "78701";
    in.now = compliance::CallTime{std::chrono::sys_days{std::chrono::year{2026} / 11 / 20}} +
             std::chrono::hours{utc_hour};
    return in;
}

ComplianceResult austin_at(int utc_hour) {
    return compliance::evaluate(austin_input(utc_hour));
}

}  // namespace

TEST_CASE("openapi examples: every example is what the library reads, writes and decides") {
    simdjson::dom::parser parser;
    const std::string document = openapi();
    simdjson::dom::element doc = parser.parse(document);
    Counts counts;
    for (const api::Route& route : api::routes) {
        std::string method(route.method);
        for (char& c : method)
            c = static_cast<char>(c - 'A' + 'a');
        simdjson::dom::element op;
        REQUIRE(doc["paths"][route.path][method].get(op) == simdjson::SUCCESS);
        // Exactly one part checks its request and answer examples.
        std::size_t checked_by = 0;
        for (const CheckPart check : check_parts)
            checked_by += check(route, op, counts) ? 1 : 0;
        CHECK(checked_by == 1);
        check_error_examples(route, op, counts);
    }
    // Not vacuous: the document shows request, answer and error examples.
    CHECK(counts.requests >= 5);
    CHECK(counts.answers >= 5);
    CHECK(counts.errors >= 40);
}

TEST_CASE("openapi examples: the calls' compliance is what the engine decides") {
    // The placed call: 15:00 UTC is 09:00 in Austin.
    auto placed = read<Call>(openapi_examples::call);
    REQUIRE(placed);
    CHECK(placed.value().compliance == austin_at(15));
    CHECK(placed.value().createdAt.view() == "2026-11-20T15:00:00.000Z");

    // The blocked call: 13:00 UTC is 07:00 in Austin, and its error message is the engine's.
    // Its next eligible time is the engine's: 08:00 in Austin.
    auto blocked = read<BlockedCall>(openapi_examples::blocked_call);
    REQUIRE(blocked);
    CHECK(blocked.value().compliance == austin_at(13));
    CHECK(blocked.value().createdAt.view() == "2026-11-20T13:00:00.000Z");
    REQUIRE(blocked.value().nextEligibleAt);
    CHECK(blocked.value().nextEligibleAt->time() == compliance::next_eligible(austin_input(13)));
    CHECK(api::errors::compliance_failed.example ==
          compliance::failure_message(blocked.value().compliance));
}
