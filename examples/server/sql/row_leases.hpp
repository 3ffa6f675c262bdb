// A process's leases on its accounts' daily row budgets (API.md section 17), for a database that
// several processes write at once (PostgreSQL).
//
// Counting every write on the account's one counter row in the write's own transaction would hold
// that row's lock to the write's commit, so that an account's concurrent writes would commit one
// after another. Instead a process takes rows from the counter ahead, in a short transaction of
// its own (sql::take_rows: what a write needs and up to `spare` more, never more than an eighth
// of what the day has left), and counts its writes against them in memory. A write rolled back
// gives its rows back to the lease, and the lease's rest goes back to the counter when the
// process stops (released()); a process that dies keeps it counted, so that an account can store
// up to `spare` rows fewer that day, never more than its budget.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "sql/statements.hpp"

namespace collectcall::server::sql {

class RowLeases {
  public:
    // The most a lease takes beyond what the write that takes it needs.
    static constexpr std::int64_t spare = 1024;

    // Rows a write counted: given back by refund() when the write is rolled back.
    struct Charge {
        std::string account;
        RowGrant rows;
    };
    // Takes `need` rows and up to `spare` more from the database's counter, in a transaction of
    // its own (sql::take_rows); throws QuotaExceeded when a `refusable` need passes the budget.
    using Taker = std::function<RowGrant(std::int64_t need, std::int64_t spare, bool refusable)>;

    // Counts `rows` of the account's on `day` (or the later day its lease counts in), taking a
    // lease through `take` when what is held is short. Throws what `take` throws, holding then
    // what it held before.
    Charge charge(std::string_view account, std::int64_t rows, std::int64_t day, bool refusable,
                  const Taker& take);
    // Gives a rolled-back write's rows back to the lease of their day (dropped when the lease has
    // moved on to a later day).
    void refund(const Charge& charge) noexcept;
    // What is held and not stored, emptied: given back to the counters when the process stops.
    [[nodiscard]] std::vector<Charge> release();

  private:
    // Takes `rows` from the account's lease when it holds them on `day` or later.
    bool take_held(const std::string& account, std::int64_t rows, std::int64_t day, Charge& charge);
    // Adds `rows` to the account's lease (merging on the later of the two days).
    void hold(const std::string& account, RowGrant rows);

    std::mutex mutex_;   // held_
    std::mutex taking_;  // one lease taken at a time, so that two threads do not both take one
    std::unordered_map<std::string, RowGrant> held_;
};

}  // namespace collectcall::server::sql
