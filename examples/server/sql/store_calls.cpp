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
            return plan;  // the decision alone
        }
        sql::insert_call(db, account, customer, plan, call_owner());
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

namespace {

// A page of the customer's calls, or the calls of a page of its interactions, read in order:
// each call with its position (created time, 0 that puts a call after the SMS and e-mails of
// the same instant, sequence) and its stored bytes, whose events are read when `take` says the
// call is on the page. At most the page's rows to read.
template <class Take>
void read_calls(Db& db, const Uuid& account, const Uuid& customer, const api::PageRequest& page,
                Take&& take) {
    static const std::string text =
        "SELECT " + sql::column_list<CallRow>() +
        ", created_ms, seq, length(compliance) + coalesce(length(transcript), 0) "
        "FROM calls WHERE account_id = ?1 AND customer_id = ?2 AND created_ms <= ?3 AND "
        "(created_ms, 0, seq) < (?3, CAST(?4 AS BIGINT), ?5) ORDER BY created_ms DESC, seq DESC LIMIT ?6";
    constexpr int first = sql::column_count<CallRow>;
    const api::PageKey start = page.start();
    Query q(db, text.c_str());
    q.bind(1, account.view())
        .bind(2, customer.view())
        .bind(3, start.parts[0])
        .bind(4, start.parts[1])
        .bind(5, start.parts[2])
        .bind(6, static_cast<std::int64_t>(page.rows_to_read()));
    while (q.step()) {
        const api::PageKey key{{q.integer(first), 0, q.integer(first + 1), 0}};
        if (!take(key, static_cast<std::size_t>(q.integer(first + 2)),
                  [&] { return call_from_query(db, q); })) {
            break;
        }
    }
}

}  // namespace

Page<CallDetails> SqlStore::list_calls(const Uuid& account, const Uuid& customer,
                                       const api::PageRequest& page) {
    return reading([&](Db& db) {
        Page<CallDetails> out;
        api::PageBound bound(page);
        read_calls(db, account, customer, page, [&](const api::PageKey& key, std::size_t bytes,
                                                    const auto& call) {
            if (!bound.admit(key, bytes)) return false;
            out.items.push_back(call());
            return true;
        });
        out.next = bound.next();
        return out;
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
        if (standing) (void)sql::change_standing_in(db, account, customer, standing);
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

Page<ListedInteraction> SqlStore::list_interactions(const Uuid& account, const Uuid& customer,
                                                    const api::PageRequest& page) {
    return reading([&](Db& db) {
        // The SMS and e-mails, each with its position (timestamp, 1 that puts them before the
        // calls of the same instant, sequence) and its stored bytes, at most the page's rows to
        // read; then the calls of the same range, merged in by position.
        struct Message {
            api::PageKey key;
            std::size_t bytes = 0;
            InteractionRecord record;
        };
        std::vector<Message> messages;
        {
            static const std::string text =
                "SELECT " + sql::column_list<InteractionRow>() +
                ", timestamp_ms, seq, length(data) FROM interactions WHERE account_id = ?1 AND "
                "customer_id = ?2 AND timestamp_ms <= ?3 AND (timestamp_ms, 1, seq) < (?3, "
                "CAST(?4 AS BIGINT), ?5) ORDER BY timestamp_ms DESC, seq DESC LIMIT ?6";
            constexpr int first = sql::column_count<InteractionRow>;
            const api::PageKey start = page.start();
            Query q(db, text.c_str());
            q.bind(1, account.view())
                .bind(2, customer.view())
                .bind(3, start.parts[0])
                .bind(4, start.parts[1])
                .bind(5, start.parts[2])
                .bind(6, static_cast<std::int64_t>(page.rows_to_read()));
            while (q.step()) {
                messages.push_back(
                    Message{api::PageKey{{q.integer(first), 1, q.integer(first + 1), 0}},
                            static_cast<std::size_t>(q.integer(first + 2)),
                            interaction_from_row(q)});
            }
        }
        Page<ListedInteraction> out;
        api::PageBound bound(page);
        std::size_t next_message = 0;
        // Every message before `key` (or all of them), while the page has room.
        const auto messages_before = [&](const api::PageKey* key) {
            while (next_message < messages.size() &&
                   (key == nullptr || messages[next_message].key > *key)) {
                Message& m = messages[next_message];
                if (!bound.admit(m.key, m.bytes)) return false;
                out.items.emplace_back(std::move(m.record));
                ++next_message;
            }
            return true;
        };
        bool room = true;
        read_calls(db, account, customer, page,
                   [&](const api::PageKey& key, std::size_t bytes, const auto& call) {
                       room = messages_before(&key) && bound.admit(key, bytes);
                       if (room) out.items.emplace_back(call());
                       return room;
                   });
        if (room) messages_before(nullptr);
        out.next = bound.next();
        return out;
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
        return plan;
    });
}

StoredAnalysis SqlStore::save_analysis(const Uuid& account, const StoredAnalysis& analysis,
                                       const OutcomeApplier& apply) {
    return transacting([&](Db& db) {
        Query(db,
              "INSERT INTO analyses (interaction_id, account_id, customer_id, channel, variables, "
              "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
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
        if (apply && !stored.outcomes_applied) {
            (void)sql::change_standing_in(db, account, stored.customer_id, [&](StoredCustomer& c) {
                return apply(c, stored.variables);
            });
            Query(db, "UPDATE analyses SET outcomes_applied = TRUE WHERE interaction_id = ?")
                .bind(1, stored.interaction_id.view())
                .run();
            stored.outcomes_applied = true;
        }
        return stored;
    });
}

}  // namespace collectcall::server
