// SqlStore: calls, interactions and their analyses.
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

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

namespace {

// The pages of a customer's calls and of its interactions are read in two steps, so that what a
// page holds in memory is the page: first the positions and stored sizes of the items after the
// page's start (at most the rows to read: small rows), which the PageBound decides on; then the
// items from the start down to the last one on the page. An item's position is its time, a rank
// (1 for an SMS or e-mail, 0 for a call: the messages of an instant come before its calls) and
// its sequence.
struct Position {
    api::PageKey key;
    std::size_t bytes = 0;
    bool call = false;
};

#define COLLECTCALL_PAGE_WHERE(time, rank)                                               \
    "WHERE account_id = ?1 AND customer_id = ?2 AND " time " <= ?3 AND (" time ", " rank \
    ", seq) < (?3, CAST(?4 AS BIGINT), ?5) "

const char* const call_positions =
    "SELECT created_ms, seq, length(compliance) + coalesce(length(transcript), 0) FROM "
    "calls " COLLECTCALL_PAGE_WHERE("created_ms",
                                    "0") "ORDER BY created_ms DESC, seq DESC LIMIT ?6";
const char* const message_positions =
    "SELECT timestamp_ms, seq, length(data) FROM interactions " COLLECTCALL_PAGE_WHERE(
        "timestamp_ms", "1") "ORDER BY timestamp_ms DESC, seq DESC LIMIT ?6";

// Binds the account, the customer and the page's start (?1 to ?5).
void bind_start(Query& q, const Uuid& account, const Uuid& customer, const api::PageKey& start) {
    q.bind(1, account.view())
        .bind(2, customer.view())
        .bind(3, start.parts[0])
        .bind(4, start.parts[1])
        .bind(5, start.parts[2]);
}

void read_positions(Db& db, const char* text, bool calls, const Uuid& account, const Uuid& customer,
                    const api::PageRequest& page, std::vector<Position>& out) {
    Query q(db, text);
    bind_start(q, account, customer, page.start());
    q.bind(6, static_cast<std::int64_t>(page.rows_to_read()));
    while (q.step()) {
        out.push_back(Position{api::PageKey{{q.integer(0), calls ? 0 : 1, q.integer(1), 0}},
                               static_cast<std::size_t>(q.integer(2)), calls});
    }
}

// The calls from the page's start down to `last`, newest first, each with its position.
template <class Add>
void read_calls_down_to(Db& db, const Uuid& account, const Uuid& customer,
                        const api::PageRequest& page, const api::PageKey& last, Add&& add) {
    static const std::string text =
        "SELECT " + sql::column_list<CallRow>() +
        ", created_ms, seq FROM calls " COLLECTCALL_PAGE_WHERE("created_ms", "0") "AND "
        "(created_ms, 0, seq) >= (?6, CAST(?7 AS BIGINT), ?8) ORDER BY created_ms DESC, seq DESC";
    constexpr int first = sql::column_count<CallRow>;
    Query q(db, text.c_str());
    bind_start(q, account, customer, page.start());
    q.bind(6, last.parts[0]).bind(7, last.parts[1]).bind(8, last.parts[2]);
    while (q.step())
        add(api::PageKey{{q.integer(first), 0, q.integer(first + 1), 0}}, call_from_query(db, q));
}

}  // namespace

Page<CallDetails> SqlStore::list_calls(const Uuid& account, const Uuid& customer,
                                       const api::PageRequest& page) {
    return reading([&](Db& db) {
        std::vector<Position> positions;
        read_positions(db, call_positions, true, account, customer, page, positions);
        api::PageBound bound(page);
        std::optional<api::PageKey> last;
        for (const Position& p : positions) {
            if (!bound.admit(p.key, p.bytes)) break;
            last = p.key;
        }
        Page<CallDetails> out;
        if (last) {
            read_calls_down_to(db, account, customer, page, *last,
                               [&](const api::PageKey&, CallDetails call) {
                                   out.items.push_back(std::move(call));
                               });
        }
        out.next = bound.next();
        return out;
    });
}

namespace {

// end_calls' statements for one call.
bool end_call_in(Db& db, const CallToEnd& ended) {
    const Uuid& id = ended.id;
    const Uuid& account = ended.account;
    const EndedCall& ending = ended.ending;
    // The customer's row first, as every write of its records takes it.
    Query(db,
          "UPDATE customers SET last_activity_ms = "
          "{sqlite:max}{pg:GREATEST}(coalesce(last_activity_ms, ?1), ?1) "
          "WHERE id = (SELECT customer_id FROM calls WHERE id = ?2 AND account_id = ?3 AND "
          "status = 'in-progress')")
        .bind(1, to_ms(ending.at))
        .bind(2, id.view())
        .bind(3, account.view())
        .run();
    static const std::string set =
        "UPDATE calls SET " + sql::assignments<CallEnd>() +
        ", transcript = ?, conversation = ? WHERE id = ? AND account_id = ? AND "
        "status = 'in-progress'";
    Query q(db, set.c_str());
    sql::bind_row(q, ending.call);
    constexpr int next = sql::column_count<CallEnd> + 1;
    q.bind(next, ending.transcript)
        .bind(next + 1, conversation_from_column(ending.transcript))
        .bind(next + 2, id.view())
        .bind(next + 3, account.view());
    if (q.run() != 1) return false;
    sql::insert_event(db, id.view(), CallEventType::call_ended, ending.at);
    return true;
}

}  // namespace

std::vector<bool> SqlStore::end_calls(std::span<const CallToEnd> endings) {
    return transacting(endings.size(), [&](Db& db) {
        std::vector<bool> ended;
        ended.reserve(endings.size());
        for (const CallToEnd& ending : endings)
            ended.push_back(end_call_in(db, ending));
        return ended;
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
    transacting(records.size(), [&](Db& db) {
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

Page<ListedInteraction> SqlStore::list_interactions(const Uuid& account, const Uuid& customer,
                                                    const api::PageRequest& page) {
    return reading([&](Db& db) {
        // The positions of both kinds, merged: the page is decided on them alone.
        std::vector<Position> positions;
        read_positions(db, message_positions, false, account, customer, page, positions);
        read_positions(db, call_positions, true, account, customer, page, positions);
        std::sort(positions.begin(), positions.end(),
                  [](const Position& a, const Position& b) { return a.key > b.key; });
        api::PageBound bound(page);
        std::optional<api::PageKey> last_message;
        std::optional<api::PageKey> last_call;
        for (const Position& p : positions) {
            if (!bound.admit(p.key, p.bytes)) break;
            (p.call ? last_call : last_message) = p.key;
        }

        // The items on the page, merged by position.
        std::vector<std::pair<api::PageKey, ListedInteraction>> items;
        if (last_message) {
            static const std::string text =
                "SELECT " + sql::column_list<InteractionRow>() +
                ", timestamp_ms, seq FROM interactions " COLLECTCALL_PAGE_WHERE(
                    "timestamp_ms", "1") "AND (timestamp_ms, 1, seq) >= (?6, CAST(?7 AS BIGINT), "
                                         "?8) ORDER BY timestamp_ms DESC, seq DESC";
            constexpr int first = sql::column_count<InteractionRow>;
            Query q(db, text.c_str());
            bind_start(q, account, customer, page.start());
            q.bind(6, last_message->parts[0])
                .bind(7, last_message->parts[1])
                .bind(8, last_message->parts[2]);
            while (q.step()) {
                items.emplace_back(api::PageKey{{q.integer(first), 1, q.integer(first + 1), 0}},
                                   interaction_from_row(q));
            }
        }
        if (last_call) {
            read_calls_down_to(db, account, customer, page, *last_call,
                               [&](const api::PageKey& key, CallDetails call) {
                                   items.emplace_back(key, std::move(call));
                               });
        }
        std::stable_sort(items.begin(), items.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        Page<ListedInteraction> out;
        out.items.reserve(items.size());
        for (auto& item : items)
            out.items.push_back(std::move(item.second));
        out.next = bound.next();
        return out;
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
