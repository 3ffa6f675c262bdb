// SqlStore: drip campaign enrolments and their steps (API.md section 15).
#include "columns.hpp"
#include "rows.hpp"
#include "sql/sql_store.hpp"
#include "sql/statements.hpp"

namespace collectcall::server {

using sql::Db;
using sql::Query;

std::optional<DripEnrolResult> SqlStore::enrol_drip(const Uuid& account, const Uuid& customer,
                                                    std::string_view campaign, Time since,
                                                    const DripEnrolDecider& decide) {
    return transacting([&](Db& db) -> std::optional<DripEnrolResult> {
        // The customer's row stays locked until the commit: two enrolments of one customer in
        // one campaign, in any processes, are decided one after the other.
        const std::optional<StoredCustomer> stored =
            sql::customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        DripEnrolResult result;
        {
            Query q(db,
                    "SELECT 1 FROM drip_enrolments WHERE account_id = ? AND customer_id = ? AND "
                    "name = ? AND status = 'in-progress'");
            q.bind(1, account.view()).bind(2, customer.view()).bind(3, campaign);
            result.already_enrolled = q.step();
        }
        if (result.already_enrolled) return result;
        result.plan = decide(*stored, sql::contact_history(db, account, customer, since));
        if (!result.plan.store) {
            // The refusal's record alone.
            if (result.plan.decision) {
                sql::insert_decision(db, account, customer, *result.plan.decision);
                charge(db, account, 1);
            }
            return result;
        }
        const DripEnrolment& e = result.plan.enrolment;
        Query insert(db,
                     "INSERT INTO drip_enrolments (id, account_id, customer_id, name, status, "
                     "next_ms, webhook_url, webhook_secret_id, body) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, e.id.view())
            .bind(2, account.view())
            .bind(3, customer.view())
            .bind(4, e.name)
            .bind(5, enum_name(e.status))
            .bind(6, enrolment_next_ms(e))
            .bind(9, write(e));
        if (const auto& webhook = result.plan.webhook) {
            insert.bind(7, webhook->url.view());
            if (webhook->secretId) insert.bind(8, webhook->secretId->view());
        }
        insert.run();
        charge(db, account, 1);
        return result;
    });
}

Page<DripEnrolment> SqlStore::list_drip_enrolments(const Uuid& account, const Uuid& customer,
                                                   const api::PageRequest& page) {
    return reading([&](Db& db) {
        // An enrolment's position is its sequence.
        Query q(db,
                "SELECT body, seq, length(body) FROM drip_enrolments WHERE account_id = ? AND "
                "customer_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?");
        q.bind(1, account.view())
            .bind(2, customer.view())
            .bind(3, page.start().parts[0])
            .bind(4, static_cast<std::int64_t>(page.rows_to_read()));
        Page<DripEnrolment> out;
        api::PageBound bound(page);
        while (q.step()) {
            if (!bound.admit(api::PageKey{{q.integer(1)}}, static_cast<std::size_t>(q.integer(2))))
                break;
            out.items.push_back(enrolment_from_column(q.text(0)));
        }
        out.next = bound.next();
        return out;
    });
}

std::optional<DripEnrolment> SqlStore::update_drip_enrolment(
    const Uuid& account, const Uuid& customer, const Uuid& id,
    const std::function<bool(DripEnrolment&)>& change) {
    return transacting([&](Db& db) -> std::optional<DripEnrolment> {
        std::optional<DripEnrolment> enrolment;
        {
            Query q(db,
                    "SELECT body FROM drip_enrolments WHERE id = ? AND account_id = ? AND "
                    "customer_id = ? {pg:FOR UPDATE}");
            q.bind(1, id.view()).bind(2, account.view()).bind(3, customer.view());
            if (!q.step()) return std::nullopt;
            enrolment = enrolment_from_column(q.text(0));
        }
        if (change(*enrolment)) sql::update_enrolment_row(db, *enrolment);
        return enrolment;
    });
}

std::vector<DueEnrolment> SqlStore::due_drip_enrolments(Time now, std::size_t limit) {
    return reading([&](Db& db) {
        // Accounts in turn (Store::due_drip_enrolments): each account's soonest, then each
        // one's second, ...
        Query q(
            db,
            "SELECT account_id, id, customer_id, body FROM (SELECT account_id, id, customer_id, "
            "body, next_ms, seq, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY next_ms, "
            "seq) AS turn FROM drip_enrolments WHERE status = 'in-progress' AND next_ms <= ?) AS "
            "due ORDER BY turn, next_ms, seq LIMIT ?");
        q.bind(1, to_ms(now)).bind(2, static_cast<std::int64_t>(limit));
        std::vector<DueEnrolment> out;
        while (q.step()) {
            DripEnrolment enrolment = enrolment_from_column(q.text(3));
            const DripStep* step = next_pending_step(enrolment);
            out.push_back(DueEnrolment{parse_column<Uuid>(q.text(0), "account id"),
                                       parse_column<Uuid>(q.text(1), "enrolment id"),
                                       parse_column<Uuid>(q.text(2), "customer id"),
                                       step ? step->channel : ContactChannel::call});
        }
        return out;
    });
}

std::optional<DripStepPlan> SqlStore::run_drip_step(const Uuid& account, const Uuid& enrolment,
                                                    Time now, Time since,
                                                    const DripStepRunner& run) {
    return transacting([&](Db& db) -> std::optional<DripStepPlan> {
        // The enrolment's row stays locked until the commit of what its step made: another
        // process skips it (SKIP LOCKED) and, once committed, finds the step no longer due. A
        // process that dies before the commit leaves nothing, and the step to another. (SQLite:
        // the writer's transaction; no other write runs between the check that the step is due
        // and the commit.)
        std::optional<Uuid> customer;
        std::optional<DripEnrolment> e;
        std::optional<Webhook> webhook;
        {
            Query q(db,
                    "SELECT customer_id, body, webhook_url, webhook_secret_id FROM "
                    "drip_enrolments WHERE id = ? AND account_id = ? AND status = 'in-progress' "
                    "AND next_ms <= ? {pg:FOR UPDATE SKIP LOCKED}");
            q.bind(1, enrolment.view()).bind(2, account.view()).bind(3, to_ms(now));
            if (!q.step()) return std::nullopt;
            customer = parse_column<Uuid>(q.text(0), "customer id");
            e = enrolment_from_column(q.text(1));
            webhook = webhook_from_row(q, 2, 3);
        }
        const std::optional<StoredCustomer> stored =
            sql::customer_for_update(db, account, *customer);
        if (!stored) return std::nullopt;
        DripStepPlan plan =
            run(*e, *stored, sql::contact_history(db, account, *customer, since), webhook);
        // A call placed keeps its decision in its own row.
        if (plan.call) {
            sql::insert_call(db, account, *customer, *plan.call, call_owner());
        } else if (plan.decision) {
            sql::insert_decision(db, account, *customer, *plan.decision);
        }
        if (plan.sms) sql::insert_interaction(db, account, *customer, *plan.sms);
        if (plan.event) {
            Query(db,
                  "INSERT INTO webhook_outbox (message_id, drip_id, event_seq, body) "
                  "SELECT " COLLECTCALL_SQL_MESSAGE_ID
                  ", id, (SELECT COUNT(*) FROM webhook_outbox WHERE drip_id = ?1), ?2 "
                  "FROM drip_enrolments WHERE id = ?1 AND webhook_url IS NOT NULL")
                .bind(1, enrolment.view())
                .bind(2, *plan.event)
                .run();
        }
        sql::update_enrolment_row(db, *e);
        // Counted, not refused: the enrolment that runs it was charged when it was made, and
        // its steps are bounded by its campaign's.
        charge(db, account, (plan.call || plan.decision ? 1 : 0) + (plan.sms ? 1 : 0), false);
        return plan;
    });
}

}  // namespace collectcall::server
