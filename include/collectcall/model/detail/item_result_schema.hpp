// The schema of a bulk operation's item result: {"success": true, ...} or {"success": false, ...},
// each with its own required members (model/bulk.hpp, bulk_call.hpp, interaction.hpp).
#pragma once

#include <initializer_list>
#include <utility>

#include "collectcall/core/schema.hpp"

namespace collectcall::detail {

// A oneOf of the success and failure shapes of a bulk item: `success` true with `ok` required,
// or false with `failed` required.
inline void success_or_failure(SchemaBuilder& s, std::initializer_list<const char*> ok,
                               std::initializer_list<const char*> failed) {
    Json succeeded = Json::object();
    succeeded["properties"]["success"]["const"] = true;
    succeeded["required"] = Json::array({"success"});
    for (const char* name : ok)
        succeeded["required"].push_back(name);
    Json not_succeeded = Json::object();
    not_succeeded["properties"]["success"]["const"] = false;
    not_succeeded["required"] = Json::array({"success"});
    for (const char* name : failed)
        not_succeeded["required"].push_back(name);
    s["oneOf"] = Json::array({std::move(succeeded), std::move(not_succeeded)});
}

}  // namespace collectcall::detail
