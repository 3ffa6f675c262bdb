#include "sql/row_leases.hpp"

#include <utility>

namespace collectcall::server::sql {

bool RowLeases::take_held(const std::string& account, std::int64_t rows, std::int64_t day,
                          Charge& charge) {
    const auto found = held_.find(account);
    if (found == held_.end() || found->second.day < day || found->second.rows < rows) return false;
    found->second.rows -= rows;
    charge = Charge{account, RowGrant{found->second.day, rows}};
    return true;
}

void RowLeases::hold(const std::string& account, RowGrant rows) {
    if (rows.rows <= 0) return;
    RowGrant& held = held_[account];
    if (held.day == rows.day)
        held.rows += rows.rows;
    else if (held.day < rows.day)
        held = rows;
}

RowLeases::Charge RowLeases::charge(std::string_view account, std::int64_t rows, std::int64_t day,
                                    bool refusable, const Taker& take) {
    std::string key(account);
    Charge charge{key, RowGrant{day, 0}};
    if (rows <= 0) return charge;
    {
        std::lock_guard lock(mutex_);
        if (take_held(key, rows, day, charge)) return charge;
    }
    std::lock_guard taking(taking_);
    // What the account's lease holds, taken out while a lease is taken for the rest (the writes
    // of the account's that come meanwhile wait here for the lease).
    RowGrant pool{day, 0};
    {
        std::lock_guard lock(mutex_);
        if (take_held(key, rows, day, charge)) return charge;  // another write's lease
        if (const auto found = held_.find(key); found != held_.end()) {
            if (found->second.day >= day) pool = found->second;
            held_.erase(found);
        }
    }
    try {
        while (pool.rows < rows) {
            const RowGrant grant = take(rows - pool.rows, spare, refusable);
            // Counted on a later day than what was held (another process's clock passed
            // midnight first): what was held counts for a day that is over.
            pool = grant.day == pool.day ? RowGrant{pool.day, pool.rows + grant.rows} : grant;
        }
    } catch (...) {
        std::lock_guard lock(mutex_);
        hold(key, pool);
        throw;
    }
    pool.rows -= rows;
    std::lock_guard lock(mutex_);
    hold(key, pool);
    return Charge{std::move(key), RowGrant{pool.day, rows}};
}

void RowLeases::refund(const Charge& charge) noexcept {
    if (charge.rows.rows <= 0) return;
    try {
        std::lock_guard lock(mutex_);
        hold(charge.account, charge.rows);
    } catch (...) {
        // No memory for the account's entry: the rows stay counted, never stored.
    }
}

std::vector<RowLeases::Charge> RowLeases::release() {
    std::lock_guard taking(taking_);
    std::lock_guard lock(mutex_);
    std::vector<Charge> rest;
    for (auto& [account, rows] : held_)
        if (rows.rows > 0) rest.push_back(Charge{account, rows});
    held_.clear();
    return rest;
}

}  // namespace collectcall::server::sql
