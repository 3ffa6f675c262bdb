// SqlStore: customers, their standing, and the records of compliance decisions.
#include <algorithm>
#include <array>
#include <bit>

#include "columns.hpp"
#include "rows.hpp"
#include "sql/sql_store.hpp"
#include "sql/statements.hpp"

namespace collectcall::server {

using sql::Db;
using sql::Query;

namespace {

// The stored documents of customers being inserted, written by the request's own thread before
// its write joins a batch: SQLite's writer thread runs the writes of every request in it one after
// the other while they wait, so what can run beside it does not run in it. One buffer per thread,
// reused from request to request.
class CustomerBodies {
  public:
    static CustomerBodies& write(std::span<const StoredCustomer> customers) {
        thread_local CustomerBodies bodies;
        bodies.text_.clear();
        bodies.ends_.clear();
        for (const StoredCustomer& s : customers) {
            write_to(bodies.text_, static_cast<const CustomerCreate&>(s.customer));
            bodies.ends_.push_back(bodies.text_.size());
        }
        return bodies;
    }
    [[nodiscard]] std::string_view operator[](std::size_t i) const {
        const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
        return std::string_view(text_).substr(begin, ends_[i] - begin);
    }
    // A very large bulk's buffer is not kept for the life of the thread.
    void release_if_large() {
        if (text_.capacity() > (std::size_t{1} << 20)) {
            std::string().swap(text_);
            std::vector<std::size_t>().swap(ends_);
        }
    }

  private:
    std::string text_;
    std::vector<std::size_t> ends_;
};

// A customer's CustomerInsert. The texts are bound where they lie (the customer, the account and
// the body outlive the Query): a bulk's writer would otherwise allocate and copy seven texts per
// row. `row` is the row's place in a statement of several rows.
void bind_customer_insert(Query& q, std::size_t row, const Uuid& account, const StoredCustomer& s,
                          std::string_view body) {
    const Customer& c = s.customer;
    sql::bind_row(
        q,
        CustomerInsert{c.id.view(), account.view(), c.externalId.view(), s.thread_id.view(),
                       s.active, s.cease_and_desist, body, c.createdAt.view(), c.updatedAt.view()},
        static_cast<int>(row) * sql::column_count<CustomerInsert> + 1);
}

// A bulk's rows go in by statements of up to this many rows (a power of two), each the largest
// that fits what is left: a statement's start and end (on SQLite, cursors on the table and its two
// indexes, the foreign-key bookkeeping; on PostgreSQL, a round trip) are then paid once for up to
// 32 rows instead of once per row. A duplicate externalId inserts no row and does not stop the
// rows after it (ON CONFLICT DO NOTHING).
constexpr std::size_t max_rows_per_insert = 32;

// The INSERT of `rows` customers, `rows` a power of two up to max_rows_per_insert. The texts
// live as long as the process: the statement caches are keyed by their address.
const char* insert_customers_sql(std::size_t rows) {
    static const auto texts = [] {
        std::array<std::string, std::bit_width(max_rows_per_insert)> text;
        std::string values = "(?";
        for (int column = 1; column < sql::column_count<CustomerInsert>; ++column)
            values += ", ?";
        values += ")";
        for (std::size_t k = 0; k < text.size(); ++k) {
            text[k] = "INSERT INTO customers (" + sql::column_list<CustomerInsert>() + ") VALUES ";
            for (std::size_t row = 0; row < (std::size_t{1} << k); ++row)
                text[k] += (row == 0 ? "" : ", ") + values;
            text[k] += " ON CONFLICT (account_id, external_id) DO NOTHING";
        }
        return text;
    }();
    return texts.at(static_cast<std::size_t>(std::countr_zero(rows))).c_str();
}

}  // namespace

bool SqlStore::insert_customer(const Uuid& account, const StoredCustomer& customer) {
    CustomerBodies& bodies = CustomerBodies::write(std::span(&customer, 1));
    return transacting([&](Db& db) {
        Query q(db, insert_customers_sql(1));
        bind_customer_insert(q, 0, account, customer, bodies[0]);
        const bool inserted = q.run() == 1;
        if (inserted) charge(db, account, 1);
        return inserted;
    });
}

std::vector<bool> SqlStore::insert_customers(const Uuid& account,
                                             std::span<const StoredCustomer> customers) {
    CustomerBodies& bodies = CustomerBodies::write(customers);
    std::vector<bool> created = transacting(customers.size(), [&](Db& db) {
        std::vector<bool> inserted;
        inserted.reserve(customers.size());
        // Several rows per INSERT (max_rows_per_insert). When a statement inserts fewer rows than
        // it has, some were duplicates: a row is there under its new id only if this statement
        // put it there.
        for (std::size_t i = 0; i < customers.size();) {
            const std::size_t rows =
                std::bit_floor(std::min(max_rows_per_insert, customers.size() - i));
            std::int64_t changed = 0;
            {
                Query q(db, insert_customers_sql(rows));
                for (std::size_t row = 0; row < rows; ++row)
                    bind_customer_insert(q, row, account, customers[i + row], bodies[i + row]);
                changed = q.run();
            }
            if (static_cast<std::size_t>(changed) == rows) {
                inserted.insert(inserted.end(), rows, true);
            } else {
                for (std::size_t row = 0; row < rows; ++row) {
                    Query q(db, "SELECT 1 FROM customers WHERE id = ?");
                    q.bind(1, customers[i + row].customer.id.view());
                    inserted.push_back(q.step());
                }
            }
            i += rows;
        }
        // The bulk's rows together: one past the budget refuses them all.
        charge(db, account, std::count(inserted.begin(), inserted.end(), true));
        return inserted;
    });
    bodies.release_if_large();
    return created;
}

std::optional<StoredCustomer> SqlStore::find_customer(const Uuid& account, const Uuid& id) {
    return reading([&](Db& db) -> std::optional<StoredCustomer> {
        static const std::string text =
            sql::select<CustomerRow>("FROM customers WHERE id = ? AND account_id = ?");
        Query q(db, text.c_str());
        q.bind(1, id.view()).bind(2, account.view());
        if (!q.step()) return std::nullopt;
        return customer_from_row(q);
    });
}

std::optional<StoredCustomer> SqlStore::find_customer_by_external_id(const Uuid& account,
                                                                     std::string_view external_id) {
    return reading([&](Db& db) -> std::optional<StoredCustomer> {
        static const std::string text =
            sql::select<CustomerRow>("FROM customers WHERE account_id = ? AND external_id = ?");
        Query q(db, text.c_str());
        q.bind(1, account.view()).bind(2, external_id);
        if (!q.step()) return std::nullopt;
        return customer_from_row(q);
    });
}

std::optional<StoredCustomer> SqlStore::change_standing(const Uuid& account, const Uuid& id,
                                                        const StandingChanger& change) {
    return transacting([&](Db& db) {
        bool recorded = false;
        auto stored =
            sql::change_standing_in(db, account, id, sql::noting_record(change, recorded));
        // Counted, never refused: a change of standing restricts contact (a cease-and-desist, an
        // opt-out), which the law requires to be honoured whatever the account's budget (15
        // U.S.C. 1692c(c); 47 CFR 64.1200(a)(10)).
        charge(db, account, recorded ? 1 : 0, false);
        return stored;
    });
}

std::optional<StoredCustomer> SqlStore::update_customer(
    const Uuid& account, const Uuid& id, const std::function<bool(StoredCustomer&)>& change) {
    return transacting([&](Db& db) -> std::optional<StoredCustomer> {
        std::optional<StoredCustomer> stored = sql::customer_for_update(db, account, id);
        if (!stored) return std::nullopt;
        if (change(*stored)) sql::update_customer_row(db, account, *stored);
        return stored;
    });
}

// --- Decisions -------------------------------------------------------------------------------

Page<ComplianceDecision> SqlStore::list_compliance_decisions(const Uuid& account,
                                                             const Uuid& customer,
                                                             const api::PageRequest& page) {
    return reading([&](Db& db) {
        // Newest first: the placed calls' decisions and the other evaluations', each of those
        // after the calls made before it (see the schema). A decision's position is its time,
        // the sequence of the call it follows, 1 for an evaluation's (0 for a call's) and the
        // evaluation's sequence; each side reads from the page's start in its index.
        Query q(db,
                "SELECT body, compliance, at_ms, call_seq, after, seq, "
                "length(body) + length(compliance) FROM ("
                "SELECT decision AS body, compliance, created_ms AS at_ms, seq AS call_seq, "
                "0 AS after, 0 AS seq FROM calls WHERE account_id = ?1 AND customer_id = ?2 AND "
                "decision IS NOT NULL AND created_ms <= ?3 AND (created_ms, seq, 0, 0) < (?3, ?4, "
                "CAST(?5 AS BIGINT), CAST(?6 AS BIGINT)) "
                "UNION ALL SELECT body, compliance, at_ms, call_seq, 1, seq FROM "
                "compliance_decisions WHERE account_id = ?1 AND customer_id = ?2 AND at_ms <= ?3 "
                "AND (at_ms, call_seq, 1, seq) < (?3, ?4, CAST(?5 AS BIGINT), ?6)) AS decisions "
                "ORDER BY at_ms DESC, call_seq DESC, after DESC, seq DESC LIMIT ?7");
        const api::PageKey start = page.start();
        q.bind(1, account.view())
            .bind(2, customer.view())
            .bind(3, start.parts[0])
            .bind(4, start.parts[1])
            .bind(5, start.parts[2])
            .bind(6, start.parts[3])
            .bind(7, static_cast<std::int64_t>(page.rows_to_read()));
        Page<ComplianceDecision> out;
        api::PageBound bound(page);
        while (q.step()) {
            const api::PageKey key{{q.integer(2), q.integer(3), q.integer(4), q.integer(5)}};
            if (!bound.admit(key, static_cast<std::size_t>(q.integer(6)))) break;
            out.items.push_back(decision_from_columns(q.text(0), q.text(1)));
        }
        out.next = bound.next();
        return out;
    });
}

}  // namespace collectcall::server
