// Values read back from the database. They were valid when written; one that no longer parses
// is a fault of the storage (a 500), never a client error.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <collectcall/core/enum.hpp>

#include "store_error.hpp"

namespace collectcall::server {

[[noreturn]] inline void corrupt(std::string_view what) {
    throw StoreError("stored data is not readable: " + std::string(what), false);
}

// A value type (Uuid, E164, Timestamp, ...) or a described enum (CallStatus, ...) from its text.
template <class T>
T parse_column(std::string_view text, std::string_view what) {
    if constexpr (DescribedEnum<T>) {
        const auto found = enum_from_name<T>(text);
        if (!found) corrupt(what);
        return *found;
    } else {
        auto parsed = T::parse(text);
        if (!parsed) corrupt(what);
        return std::move(parsed).value();
    }
}

}  // namespace collectcall::server
