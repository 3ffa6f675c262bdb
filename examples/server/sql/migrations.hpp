// The schema's migrations from version 10 on, written once for both backends in the dialect of
// sql/sql.hpp. Each entry moves the schema from its version to the next; append only: a released
// entry never changes. Versions 1 to 9 are each backend's own list (migrations[] in
// sqlite/sqlite_store.cpp and postgres/postgres_store.cpp), written before this one and kept as
// they were released. The schema version follows from the two lists' lengths.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "sql/sql.hpp"

namespace collectcall::server::sql {

struct Migration {
    const char* up;  // to the next version
    // Back to the version before, its statements separated by ';': what the tests of a migration
    // from an older version undo on a database of this version (tests/server/store_test.cpp).
    const char* down;
};

// The migrations each backend lists itself (versions 1 to 9): no entry is added there.
inline constexpr int backend_migrations = 9;

// Each entry: the migration from version backend_migrations + its index to the next.
inline constexpr std::initializer_list<Migration> migrations = {};

inline constexpr int schema_version = backend_migrations + static_cast<int>(migrations.size());

// The text that moves the schema of `dialect` from version `from` (at least
// backend_migrations) to the next.
inline std::string shared_migration(std::int64_t from, Dialect dialect) {
    return translate(migrations.begin()[from - backend_migrations].up, dialect);
}

}  // namespace collectcall::server::sql
