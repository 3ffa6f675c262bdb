// The check of the OpenAPI document's examples (openapi_examples.cpp), shared by the files that
// each check the request and answer examples of a range of operations: every model's reading and
// writing is compiled in one of them, so the files compile side by side.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <simdjson.h>
#include <boost/mp11/algorithm.hpp>

#include "collectcall/api/routes.hpp"
#include "collectcall/collectcall.hpp"

namespace openapi_examples_test {

struct Counts {
    std::size_t requests = 0;
    std::size_t answers = 0;
    std::size_t errors = 0;
};

// The day the examples are read on (their dates are before it).
collectcall::ReadOptions example_day();

// The examples of one media type object, as compact JSON texts.
std::vector<std::pair<std::string, std::string>> examples_of(simdjson::dom::element media);

// Reads `json` as T and writes it again; the example must be exactly what write() gives.
template <class T>
T round_trip(std::string_view where, const std::string& json) {
    INFO(where << ": " << json);
    auto value = collectcall::read<T>(json, example_day());
    if (!value) {
        for (const collectcall::Error& e : value.errors())
            INFO(e.path << " " << e.code << " " << e.message);
    }
    REQUIRE(value);
    CHECK(collectcall::write(value.value()) == json);
    return std::move(value).value();
}

// The request example and the answer examples of one operation. Its error examples are checked
// by check_error_examples (openapi_examples.cpp), the same for every operation.
template <class Endpoint>
void check_operation(const collectcall::api::Route& route, simdjson::dom::element op,
                     Counts& counts) {
    using Body = typename Endpoint::body;
    using Data = typename Endpoint::data;
    const std::string where = std::string(route.method) + " " + std::string(route.path);
    if constexpr (!std::is_same_v<Body, collectcall::null_t> &&
                  !std::is_same_v<Body, collectcall::EmptyObject>) {
        for (const auto& [name, json] :
             examples_of(op["requestBody"]["content"]["application/json"])) {
            INFO(where << " request example " << name << ": " << json);
            auto body = collectcall::read<Body>(json, example_day());
            CHECK(body);
            ++counts.requests;
        }
    }
    if constexpr (!std::is_same_v<Data, std::string>) {
        for (const auto& [name, json] :
             examples_of(op["responses"]["200"]["content"]["application/json"])) {
            if (route.access == collectcall::api::Access::document) {
                round_trip<Data>(where, json);
            } else {
                round_trip<collectcall::Envelope<Data>>(where, json);
            }
            ++counts.answers;
        }
    }
}

// The operations are checked in `parts` ranges of about the same length, one file each
// (openapi_examples_N.cpp); part N checks the operations [first_of(N), first_of(N + 1)).
inline constexpr std::size_t parts = 4;

constexpr std::size_t first_of(std::size_t part) {
    return collectcall::api::routes.size() * part / parts;
}

// Checks the request and answer examples of `route` when its operation is in part `Part`, and
// says whether it was.
template <std::size_t Part>
bool check_part(const collectcall::api::Route& route, simdjson::dom::element op, Counts& counts) {
    constexpr std::size_t first = first_of(Part);
    constexpr std::size_t last = first_of(Part + 1);
    const auto index = static_cast<std::size_t>(route.operation);
    if (index < first || index >= last) return false;
    boost::mp11::mp_with_index<last - first>(index - first, [&](auto I) {
        constexpr auto operation = static_cast<collectcall::api::Operation>(first + I());
        check_operation<collectcall::api::endpoint<operation>>(route, op, counts);
    });
    return true;
}

using CheckPart = bool (*)(const collectcall::api::Route&, simdjson::dom::element, Counts&);
bool check_part_0(const collectcall::api::Route&, simdjson::dom::element, Counts&);
bool check_part_1(const collectcall::api::Route&, simdjson::dom::element, Counts&);
bool check_part_2(const collectcall::api::Route&, simdjson::dom::element, Counts&);
bool check_part_3(const collectcall::api::Route&, simdjson::dom::element, Counts&);
inline constexpr std::array<CheckPart, parts> check_parts = {check_part_0, check_part_1,
                                                             check_part_2, check_part_3};

}  // namespace openapi_examples_test
