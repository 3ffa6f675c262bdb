// The peers: the same reading, validation and writing as collectcall, written with each JSON
// library's own API. The library headers stay inside the .cpp files, so that the benchmark and
// the fairness test compile against this one small interface.
//
// Reading = parse the bytes, bind into the peers:: structs (required members, JSON types,
// unknown members, duplicate members where the library lets one see them, null = absent for
// optional members), then peers::rules::validate. The result says whether the document is valid;
// a bulk request also gives each item its own verdict, like collectcall's Validated<T>.
#pragma once

#include <string>
#include <string_view>

#include "peers/model.hpp"

namespace peers {

// What a peer's reader can see at all: a DOM that keeps only one of two members with the same
// name cannot report the duplicate.
struct Capabilities {
    bool sees_duplicate_members = false;
};

// nlohmann::json (3.11): json::parse into the DOM (std::map objects), then find() each member.
namespace nlohmann_json {
inline constexpr std::string_view name = "nlohmann";
inline constexpr Capabilities capabilities{.sees_duplicate_members = false};
bool read(std::string_view json, const Options& options, CustomerCreate& out);
bool read(std::string_view json, const Options& options, BulkCreateRequest& out);
std::string write(const Customer& value);
std::string write(const BulkResult& value);
}  // namespace nlohmann_json

// Boost.JSON (1.81): a reused boost::json::parser over a monotonic_resource (the library's
// documented fast path), then value_to<T> with a tag_invoke for the described structs.
namespace boost_json {
inline constexpr std::string_view name = "boost_json";
inline constexpr Capabilities capabilities{.sees_duplicate_members = false};
bool read(std::string_view json, const Options& options, CustomerCreate& out);
bool read(std::string_view json, const Options& options, BulkCreateRequest& out);
std::string write(const Customer& value);
std::string write(const BulkResult& value);
}  // namespace boost_json

// RapidJSON (1.1): Document::Parse with UTF-8 validation into a pool allocator on a reused
// buffer, then one loop over each object's members; writing through rapidjson::Writer.
namespace rapidjson_dom {
inline constexpr std::string_view name = "rapidjson";
inline constexpr Capabilities capabilities{.sees_duplicate_members = true};
bool read(std::string_view json, const Options& options, CustomerCreate& out);
bool read(std::string_view json, const Options& options, BulkCreateRequest& out);
std::string write(const Customer& value);
std::string write(const BulkResult& value);
}  // namespace rapidjson_dom

}  // namespace peers
