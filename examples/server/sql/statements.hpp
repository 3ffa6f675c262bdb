// The statements several families of SqlStore's methods share (sql_store.hpp), each run in the
// caller's transaction.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "rows.hpp"
#include "sql/row.hpp"
#include "sql/sql.hpp"
#include "store.hpp"

namespace collectcall::server::sql {

// The customer's row, locked until the transaction ends (PostgreSQL: FOR UPDATE; a concurrent
// call or message to the same customer, in this process or another, waits for it; SQLite: the
// writer's transaction holds the database). nullopt: no such customer.
std::optional<StoredCustomer> customer_for_update(Db& db, const Uuid& account, const Uuid& id);

// Everything of a stored customer that a change may touch.
void update_customer_row(Db& db, const Uuid& account, const StoredCustomer& stored);

// A change of the customer's standing: the customer and the record of the change are written
// together; nullopt when there is no such customer.
std::optional<StoredCustomer> change_standing_in(Db& db, const Uuid& account, const Uuid& id,
                                                 const StandingChanger& change);

// A collection activity of the customer's at `at` (compliance/retention.hpp): its records are
// kept three years from the latest. Locks the customer's row, as the writes that call it do first
// (the sweep locks it before the records it deletes).
void note_activity(Db& db, const Uuid& account, const Uuid& customer, Time at);

// The record of a decision that placed no call (a placed call keeps its own: insert_call).
void insert_decision(Db& db, const Uuid& account, const Uuid& customer,
                     const ComplianceDecision& decision);

// The contacts with a customer since `since` that compliance counts.
ContactHistory contact_history(Db& db, const Uuid& account, const Uuid& customer, Time since);

// The times of the calls placed to the customer, and of the SMS sent to it, since `since`,
// oldest first.
std::vector<Time> placed_calls(Db& db, const Uuid& account, const Uuid& customer, Time since);
std::vector<Time> sent_texts(Db& db, const Uuid& account, const Uuid& customer, Time since);

// A placed call, in progress (owned by `owner` where calls have owners), with its call-created
// event; its decision in its own row (see the schema).
void insert_call(Db& db, const Uuid& account, const Uuid& customer, const CallPlan& plan,
                 std::optional<std::string_view> owner);

// A call's event and, when the call has a webhook, its outbox message.
void insert_event(Db& db, std::string_view call_id, CallEventType type, Time at);

// An SMS or e-mail of the customer's, with its activity.
void insert_interaction(Db& db, const Uuid& account, const Uuid& customer,
                        const InteractionRecord& record);

// Rows counted against an account's daily budget: the UTC day they count in (days since
// 1970-01-01) and how many.
struct RowGrant {
    std::int64_t day = 0;
    std::int64_t rows = 0;
};

// Counts `need` new rows of the account's against its daily budget (API.md section 17), on the
// counter of `now`'s UTC day, and up to `spare` more for rows to come (a process's lease,
// RowLeases): at most an eighth of what the day's budget has left after `need`, so that the
// last rows of a budget are counted one write at a time. When `need` would pass the budget and
// the write is `refusable`, throws QuotaExceeded, which rolls the transaction back whole. Work
// the account started before (a drip step, a bulk's charged items) is counted and never refused.
// The counter's row stays locked to the commit: SQLite counts in the write's transaction, as its
// last statement; PostgreSQL in a short transaction of its own (RowLeases).
RowGrant take_rows(Db& db, const Uuid& account, std::int64_t need, std::int64_t spare, Time now,
                   bool refusable);
// Gives back `rows` counted on `day` and never stored (a lease's rest when its process stops).
void return_rows(Db& db, std::string_view account, RowGrant rows);

// A StandingChanger that notes in `recorded` whether it made a record (a row to charge).
[[nodiscard]] inline StandingChanger noting_record(const StandingChanger& change, bool& recorded) {
    return [&change, &recorded](StoredCustomer& customer) {
        std::optional<ComplianceDecision> record = change(customer);
        recorded = record.has_value();
        return record;
    };
}

// Writes an enrolment's document and the columns the scheduler reads.
void update_enrolment_row(Db& db, const DripEnrolment& enrolment);

}  // namespace collectcall::server::sql
