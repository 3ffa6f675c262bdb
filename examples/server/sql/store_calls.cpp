// SqlStore: calls, interactions and their analyses.
#include "columns.hpp"
#include "rows.hpp"
#include "sql/sql_store.hpp"
#include "sql/statements.hpp"

namespace collectcall::server {

using sql::Db;
using sql::Query;

namespace {

// A call and its events.
CallDetails call_from_query(Db& db, const Query& q) {
    CallDetails call = call_from_row(sql::read_row<CallRow>(q));
    static const std::string text =
        sql::select<EventRow>("FROM call_events WHERE call_id = ? ORDER BY seq");
    Query events(db, text.c_str());
    events.bind(1, call.id.view());
    while (events.step())
        call.events.push_back(event_from_row(sql::read_row<EventRow>(events)));
    return call;
}

}  // namespace

std::optional<CallPlan> SqlStore::place_call(const Uuid& account, const Uuid& customer, Time since,
                                             const CallDecider& decide) {
    return transacting([&](Db& db) -> std::optional<CallPlan> {
        // The customer's row stays locked from the count to the commit: concurrent calls to one
        // customer, in this process or another, are decided one after the other, so the daily
        // limit cannot be overrun by a race.
        const std::optional<StoredCustomer> stored =
            sql::customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        const ContactHistory history = sql::contact_history(db, account, customer, since);
        CallPlan plan = decide(*stored, history);
        if (!plan.place) {
            sql::insert_decision(db, account, customer, plan.decision);
        } else {
            sql::insert_call(db, account, customer, plan, call_owner());
        }
        // One row either way: the decision's, or the call's (which keeps its decision; its
        // events are the call's bookkeeping). A bulk's items are charged before the first.
        if (!plan.charged) charge(db, account, 1);
        return plan;
    });
}

std::optional<CallDetails> SqlStore::find_call(const Uuid& account, const Uuid& id) {
    return reading([&](Db& db) -> std::optional<CallDetails> {
        static const std::string text =
            sql::select<CallRow>("FROM calls WHERE id = ? AND account_id = ?");
        Query q(db, text.c_str());
        q.bind(1, id.view()).bind(2, account.view());
        if (!q.step()) return std::nullopt;
        return call_from_query(db, q);
    });
}

std::vector<CallDetails> SqlStore::list_calls(const Uuid& account, const Uuid& customer) {
    return reading([&](Db& db) {
        std::vector<CallDetails> calls;
        static const std::string text = sql::select<CallRow>(
            "FROM calls WHERE account_id = ? AND customer_id = ? ORDER BY created_ms DESC, seq "
            "DESC");
        Query q(db, text.c_str());
        q.bind(1, account.view()).bind(2, customer.view());
        while (q.step())
            calls.push_back(call_from_query(db, q));
        return calls;
    });
}

bool SqlStore::end_call(const Uuid& account, const Uuid& id, const EndedCall& ending) {
    const Time at = ending.at;
    return transacting([&](Db& db) {
        // The customer's row first, as every write of its records takes it.
        Query(db,
              "UPDATE customers SET last_activity_ms = "
              "{sqlite:max}{pg:GREATEST}(coalesce(last_activity_ms, ?1), ?1) "
              "WHERE id = (SELECT customer_id FROM calls WHERE id = ?2 AND account_id = ?3 AND "
              "status = 'in-progress')")
            .bind(1, to_ms(at))
            .bind(2, id.view())
            .bind(3, account.view())
            .run();
        if (Query(db,
                  "UPDATE calls SET status = ?, ended_reason = ?, duration_ms = ?, "
                  "transcript = ?, conversation = ? WHERE id = ? AND account_id = ? AND "
                  "status = 'in-progress'")
                .bind(1, enum_name(ending.status))
                .bind(2, enum_name(ending.reason))
                .bind(3, ending.duration_ms)
                .bind(4, ending.transcript)
                .bind(5, conversation_from_column(ending.transcript))
                .bind(6, id.view())
                .bind(7, account.view())
                .run() != 1)
            return false;
        sql::insert_event(db, id.view(), CallEventType::call_ended, at);
        return true;
    });
}

std::optional<std::string> SqlStore::find_call_transcript(const Uuid& account, const Uuid& call) {
    return reading([&](Db& db) -> std::optional<std::string> {
        Query q(db, "SELECT transcript FROM calls WHERE id = ? AND account_id = ?");
        q.bind(1, call.view()).bind(2, account.view());
        if (!q.step() || q.is_null(0)) return std::nullopt;
        return std::string(q.text(0));
    });
}

// --- Interactions ----------------------------------------------------------------------------

void SqlStore::insert_interactions(const Uuid& account, const Uuid& customer,
                                   std::span<const InteractionRecord> records,
                                   const StandingChanger& standing) {
    transacting([&](Db& db) {
        for (const InteractionRecord& record : records)
            sql::insert_interaction(db, account, customer, record);
        bool recorded = false;
        if (standing)
            (void)sql::change_standing_in(db, account, customer,
                                          sql::noting_record(standing, recorded));
        charge(db, account, static_cast<std::int64_t>(records.size()) + (recorded ? 1 : 0));
    });
}

std::optional<InteractionRecord> SqlStore::find_interaction(const Uuid& account, const Uuid& id) {
    return reading([&](Db& db) -> std::optional<InteractionRecord> {
        static const std::string text =
            sql::select<InteractionRow>("FROM interactions WHERE id = ? AND account_id = ?");
        Query q(db, text.c_str());
        q.bind(1, id.view()).bind(2, account.view());
        if (!q.step()) return std::nullopt;
        return interaction_from_row(q);
    });
}

std::vector<InteractionRecord> SqlStore::list_interactions(const Uuid& account,
                                                           const Uuid& customer) {
    return reading([&](Db& db) {
        std::vector<InteractionRecord> records;
        static const std::string text = sql::select<InteractionRow>(
            "FROM interactions WHERE account_id = ? AND customer_id = ? ORDER BY timestamp_ms "
            "DESC, seq DESC");
        Query q(db, text.c_str());
        q.bind(1, account.view()).bind(2, customer.view());
        while (q.step())
            records.push_back(interaction_from_row(q));
        return records;
    });
}

bool SqlStore::customer_has_thread(const Uuid& account, const Uuid& customer, const Uuid& thread) {
    return reading([&](Db& db) {
        // The customer's own thread, or a thread its interactions use: interactions_by_thread_
        // customer finds the latter without reading the thread's other customers' messages.
        Query q(db,
                "SELECT 1 FROM customers WHERE id = ?2 AND account_id = ?1 AND thread_id = ?3 "
                "UNION ALL SELECT 1 FROM (SELECT 1 FROM interactions WHERE account_id = ?1 AND "
                "thread_id = ?3 AND customer_id = ?2 LIMIT 1) AS used");
        q.bind(1, account.view()).bind(2, customer.view()).bind(3, thread.view());
        return q.step();
    });
}

std::optional<InteractionRecord> SqlStore::last_inbound_interaction(const Uuid& account,
                                                                    const Uuid& thread) {
    return reading([&](Db& db) -> std::optional<InteractionRecord> {
        static const std::string text = sql::select<InteractionRow>(
            "FROM interactions WHERE account_id = ? AND thread_id = ? AND direction = 'inbound' "
            "ORDER BY timestamp_ms DESC, seq DESC LIMIT 1");
        Query q(db, text.c_str());
        q.bind(1, account.view()).bind(2, thread.view());
        if (!q.step()) return std::nullopt;
        return interaction_from_row(q);
    });
}

std::optional<InteractionPlan> SqlStore::record_interaction(const Uuid& account,
                                                            const Uuid& customer, Time since,
                                                            const InteractionDecider& decide) {
    return transacting([&](Db& db) -> std::optional<InteractionPlan> {
        // As place_call: the customer's row stays locked from the counts to the commit.
        const std::optional<StoredCustomer> stored =
            sql::customer_for_update(db, account, customer);
        if (!stored) return std::nullopt;
        const std::vector<Time> calls = sql::placed_calls(db, account, customer, since);
        const std::vector<Time> texts = sql::sent_texts(db, account, customer, since);
        InteractionPlan plan = decide(*stored, calls, texts);
        if (plan.decision) sql::insert_decision(db, account, customer, *plan.decision);
        if (plan.store) sql::insert_interaction(db, account, customer, plan.record);
        charge(db, account, (plan.decision ? 1 : 0) + (plan.store ? 1 : 0));
        return plan;
    });
}

StoredAnalysis SqlStore::save_analysis(const Uuid& account, const StoredAnalysis& analysis,
                                       const OutcomeApplier& apply) {
    return transacting([&](Db& db) {
        const std::int64_t added =
            Query(db,
                  "INSERT INTO analyses (interaction_id, account_id, customer_id, channel, "
                  "variables, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
                .bind(1, analysis.interaction_id.view())
                .bind(2, account.view())
                .bind(3, analysis.customer_id.view())
                .bind(4, enum_name(analysis.channel))
                .bind(5, write(analysis.variables))
                .bind(6, timestamp_text(analysis.analysed_at))
                .run();
        // Locked: two processes analysing one interaction apply its outcomes once.
        StoredAnalysis stored;
        {
            static const std::string text = sql::select<AnalysisRow>(
                "FROM analyses WHERE interaction_id = ? AND account_id = ? {pg:FOR UPDATE}");
            Query q(db, text.c_str());
            q.bind(1, analysis.interaction_id.view()).bind(2, account.view());
            if (!q.step()) throw StoreError("analysis missing after insert", false);
            stored = analysis_from_row(sql::read_row<AnalysisRow>(q));
        }
        bool recorded = false;
        if (apply && !stored.outcomes_applied) {
            const StandingChanger applying = [&](StoredCustomer& c) {
                return apply(c, stored.variables);
            };
            (void)sql::change_standing_in(db, account, stored.customer_id,
                                          sql::noting_record(applying, recorded));
            Query(db, "UPDATE analyses SET outcomes_applied = TRUE WHERE interaction_id = ?")
                .bind(1, stored.interaction_id.view())
                .run();
            stored.outcomes_applied = true;
        }
        charge(db, account, added + (recorded ? 1 : 0));
        return stored;
    });
}

}  // namespace collectcall::server
