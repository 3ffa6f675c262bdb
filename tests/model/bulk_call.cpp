// Bulk calls, clients and the signed recording link (model/bulk_call.hpp, client.hpp,
// signed_url.hpp).
#include "collectcall/model/bulk_call.hpp"
#include "collectcall/model/client.hpp"
#include "collectcall/model/signed_url.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "collectcall/core/read.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/model/openapi.hpp"

using namespace collectcall;

namespace {

std::vector<std::string> describe(const ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code);
    return out;
}

std::string ids(std::initializer_list<std::string_view> list) {
    std::string out = R"({"agentId":"agent-7","customerIds":[)";
    bool first = true;
    for (std::string_view id : list) {
        out += first ? "\"" : ",\"";
        out += id;
        out += '"';
        first = false;
    }
    return out + "]}";
}

constexpr std::string_view a = "7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a";
constexpr std::string_view b = "8e1d3b6a-4f1f-4a9f-8a7b-1d4c2e3f5a6b";
constexpr std::string_view a_upper = "7D0C2A59-3F0E-4F8E-9F6A-0C3B1F2D4E5A";

}  // namespace

TEST_CASE("BulkCallRequest: 1 to 100 distinct customer ids") {
    auto ok = read<BulkCallRequest>(openapi_examples::bulk_call_request);
    REQUIRE(ok.ok());
    CHECK(ok.value().customerIds.size() == 2);
    auto back = read<BulkCallRequest>(write(ok.value()));
    REQUIRE(back.ok());
    CHECK(back.value() == ok.value());

    auto repeated = read<BulkCallRequest>(ids({a, b, a_upper, b, "nope"}));
    REQUIRE_FALSE(repeated.ok());
    CHECK(describe(repeated.errors()) == std::vector<std::string>{"/customerIds/4 format",
                                                                  "/customerIds/2 conflict",
                                                                  "/customerIds/3 conflict"});
    CHECK(repeated.errors()[1].message == "customerIds must not contain duplicates");
    CHECK(has_duplicate_customer_ids(repeated.errors()));
    CHECK_FALSE(has_duplicate_customer_ids(read<BulkCallRequest>(ids({"x"})).errors()));

    CHECK(describe(read<BulkCallRequest>(ids({})).errors()) ==
          std::vector<std::string>{"/customerIds length"});
    std::string hundred = R"({"agentId":"a","customerIds":[)";
    for (int i = 0; i < 101; ++i) {
        char id[40];
        std::snprintf(id, sizeof id, "%08d-0000-4000-8000-000000000000", i);
        hundred += std::string(i == 0 ? "\"" : ",\"") + id + "\"";
    }
    CHECK(describe(read<BulkCallRequest>(hundred + "]}").errors()) ==
          std::vector<std::string>{"/customerIds length"});
    const std::size_t last_comma = hundred.rfind(',');
    CHECK(read<BulkCallRequest>(hundred.substr(0, last_comma) + "]}").ok());

    CHECK(describe(read<BulkCallRequest>(R"({"customerIds":["x"],"webhook":{"url":"ftp://x"}})")
                       .errors()) == std::vector<std::string>{"/customerIds/0 format",
                                                              "/webhook/url format",
                                                              "/agentId required"});
    CHECK(json_schema<BulkCallRequest>().find(R"("maxItems":100,"uniqueItems":true)") !=
          std::string::npos);
}

TEST_CASE("BulkCallResult: the hosted shape, placed and failed items in order") {
    auto call = read<Call>(openapi_examples::call);
    auto blocked = read<BlockedCall>(openapi_examples::blocked_call);
    REQUIRE(call.ok());
    REQUIRE(blocked.ok());
    const Uuid first = Uuid::parse(a).value();
    const Uuid second = Uuid::parse(b).value();
    BulkCallResult result;
    result.add_placed(first, call.value());
    result.add_failed(second, "Customer not eligible for call. Failed rules: …",
                      blocked.value().compliance);
    result.add_failed(Uuid::parse(a_upper).value(), "Customer not found");
    CHECK(result.summary == BulkCallSummary{3, 1, 2});
    const std::string json = write(result);
    CHECK(json.rfind(
              R"({"summary":{"total":3,"successful":1,"failed":2},"results":[{"customerId":")" +
                  std::string(a) + R"(","success":true,"data":{"id":)",
              0) == 0);
    CHECK(json.find(R"("success":false,"error":"Customer not found"})") != std::string::npos);
    CHECK(
        json.find(
            R"("success":false,"error":"Customer not eligible for call. Failed rules: …","compliance":{"passed":false)") !=
        std::string::npos);
    CHECK(json.find("null") == std::string::npos);
    auto back = read<BulkCallResult>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == result);
}

TEST_CASE("BulkCallResult: a blocked item carries its next eligible time, null when none") {
    auto blocked = read<BlockedCall>(openapi_examples::blocked_call);
    REQUIRE(blocked.ok());
    BulkCallResult result;
    result.add_blocked(Uuid::parse(a).value(), "Customer not eligible for call. Failed rules: …",
                       blocked.value().compliance, blocked.value().nextEligibleAt);
    result.add_blocked(Uuid::parse(b).value(), "Customer not eligible for call. Failed rules: …",
                       blocked.value().compliance, std::nullopt);
    CHECK(result.summary == BulkCallSummary{2, 0, 2});
    const std::string json = write(result);
    CHECK(json.find(R"(]},"nextEligibleAt":"2026-11-20T14:00:00.000Z"})") != std::string::npos);
    CHECK(json.find(R"(]},"nextEligibleAt":null})") != std::string::npos);
    auto back = read<BulkCallResult>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == result);
}

TEST_CASE("Clients and the signed recording link") {
    auto list = read<ClientList>(openapi_examples::client_list);
    REQUIRE(list.ok());
    REQUIRE(list.value().size() == 2);
    CHECK(list.value()[1].name.view() == "Globex Inc");
    CHECK(write(list.value()) == openapi_examples::client_list);

    auto create = read<ClientCreate>(openapi_examples::client_create);
    REQUIRE(create.ok());
    CHECK_FALSE(create.value().id.has_value());
    CHECK(describe(read<ClientCreate>(R"({"name":" ","id":"x"})").errors()) ==
          std::vector<std::string>{"/name length", "/id format"});

    auto request = read<SignedUrlRequest>(openapi_examples::signed_url_request);
    REQUIRE(request.ok());
    SignedUrl link{request.value().callId, "http://127.0.0.1:8080/api/v1/calls/x/recording?s=1"};
    CHECK(
        write(link) ==
        R"({"callId":"5a6b7c8d-1e2f-4a3b-8c4d-5e6f7a8b9c0d","signedUrl":"http://127.0.0.1:8080/api/v1/calls/x/recording?s=1"})");
    CHECK(describe(read<SignedUrlRequest>("{}").errors()) ==
          std::vector<std::string>{"/callId required"});
}
