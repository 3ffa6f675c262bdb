// What a webhook delivery says: the body of an outbox message, built from the stored event and
// its call by the library's call_created_event / call_ended_event (API.md section 9). The outbox
// selects the event with its call's row as the store reads it (CallRow, rows.hpp), so that a
// column of a call is named once.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rows.hpp"
#include "sql/row.hpp"
#include "webhook_body.hpp"

namespace collectcall::server {

// The columns of a call event that an outbox selects with its message: the event's (EventRow),
// its call's (CallRow) and the call's transcript; `e` and `c` are the tables' aliases.
inline const std::string& event_columns() {
    static const std::string columns = sql::column_list<EventRow>("e.") + ", " +
                                       sql::column_list<CallRow>("c.") + ", c.transcript";
    return columns;
}

// A call event as an outbox reads it.
struct StoredEvent {
    EventRow event;
    CallRow call;
    std::optional<std::string> transcript;
};

// A row of an outbox's query, column i being `column(i)` (nullopt for NULL), read as
// sql::read_row reads rows.
template <class Column>
struct ColumnRow {
    Column& column;

    [[nodiscard]] bool is_null(int i) const { return !column(i); }
    [[nodiscard]] std::string_view text(int i) const {
        return column(i).value_or(std::string_view{});
    }
    [[nodiscard]] std::int64_t integer(int i) const {
        const std::string_view t = text(i);
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
        if (error != std::errc{} || end != t.data() + t.size()) corrupt("integer column");
        return value;
    }
    [[nodiscard]] bool boolean(int i) const {
        const std::string_view t = text(i);
        return t == "1" || t == "t" || t == "true";
    }
};

// Reads event_columns() from a row whose column i is `column(i)`.
template <class Column>
StoredEvent stored_event(Column&& column) {
    const ColumnRow<std::remove_reference_t<Column>> row{column};
    StoredEvent e;
    e.event = sql::read_row<EventRow>(row, 0);
    e.call = sql::read_row<CallRow>(row, sql::column_count<EventRow>);
    const int transcript = sql::column_count<EventRow> + sql::column_count<CallRow>;
    if (!row.is_null(transcript)) e.transcript = std::string(row.text(transcript));
    return e;
}

// The body of the message of a call event: the call's own event, or a drip campaign's when the
// call was placed by a step of the enrolment whose document is `drip` (API.md section 15).
// Throws StoreError when a stored value does not read back.
std::string webhook_body(const StoredEvent& event, std::optional<std::string_view> drip,
                         const RecordingLinks& links);

// The body of an outbox message: `stored` when it was stored with the message (a drip
// campaign's SMS), else built from its call event, whose event_columns() `event_column(i)` reads.
template <class Column>
std::string outbox_body(std::optional<std::string_view> stored,
                        std::optional<std::string_view> drip, Column&& event_column,
                        const RecordingLinks& links) {
    if (stored) return std::string(*stored);
    return webhook_body(stored_event(event_column), drip, links);
}

}  // namespace collectcall::server
