// The one connection and statement interface both stores implement (SQLite: sqlite/sqlite.hpp,
// PostgreSQL: postgres/postgres.hpp), and the dialect their statements are written in.
//
// A statement is written once, in SQLite's syntax with `?` or `?N` parameters, and each backend
// translates it once per connection when it prepares it (translate()):
// - `?` and `?N` become PostgreSQL's `$k` and `$N`;
// - `{pg:text}` is PostgreSQL's alone and `{sqlite:text}` SQLite's alone: what the two dialects
//   write differently (row locks, `FOR UPDATE SKIP LOCKED` where SQLite's single writer has no
//   rows to skip, the row address, casts, random message ids) is written side by side there.
// Booleans and byte strings are bound and read through the interface (SQLite: integers and
// blobs; PostgreSQL: `t`/`f` and hexadecimal text), never spelled in a statement's text.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace collectcall::server::sql {

enum class Dialect { sqlite, postgres };

// `sql` as `dialect` reads it (see above).
[[nodiscard]] std::string translate(std::string_view sql, Dialect dialect);
// Whether translate() changes anything for `dialect` (most SQLite statements it does not).
[[nodiscard]] bool needs_translation(std::string_view sql, Dialect dialect);

// The message id of a webhook message made by a statement: `msg_` and 32 random hex digits.
#define COLLECTCALL_SQL_MESSAGE_ID                  \
    "{sqlite:'msg_' || lower(hex(randomblob(16)))}" \
    "{pg:'msg_' || replace(gen_random_uuid()::text, '-', '')}"

// One execution of a statement, as a backend runs it. Parameters count from 1, columns from 0;
// a parameter left unbound is NULL.
class Cursor {
  public:
    virtual ~Cursor() = default;
    // `stable` text stays valid and unchanged until the cursor is destroyed: a backend may read
    // it where it lies.
    virtual void bind_text(int index, std::string_view text, bool stable) = 0;
    virtual void bind_integer(int index, std::int64_t value) = 0;
    virtual void bind_boolean(int index, bool value) = 0;
    virtual void bind_bytes(int index, std::span<const unsigned char> bytes) = 0;
    virtual void bind_null(int index) = 0;
    // Runs the statement (on the first call) and advances to its next row; false when done.
    virtual bool step() = 0;
    // The rows the statement inserted, updated or deleted, once run.
    [[nodiscard]] virtual std::int64_t affected() const = 0;
    [[nodiscard]] virtual bool is_null(int column) const = 0;
    [[nodiscard]] virtual std::string_view text(int column) const = 0;
    [[nodiscard]] virtual std::int64_t integer(int column) const = 0;
    [[nodiscard]] virtual bool boolean(int column) const = 0;
    // Fills `out` with a byte-string column; false when the column does not hold exactly that
    // many bytes.
    [[nodiscard]] virtual bool bytes(int column, std::span<unsigned char> out) const = 0;
};

// A connection, for the length of one operation.
class Db {
  public:
    virtual ~Db() = default;
    // A cursor over `sql` (in the dialect above). `sql` must live as long as the process (a
    // string literal or a static string): its address keys the statement the connection prepares
    // for it once.
    [[nodiscard]] virtual std::unique_ptr<Cursor> open(const char* sql) = 0;
    [[nodiscard]] virtual Dialect dialect() const = 0;
};

// One execution of a statement on a Db: bind, step, read columns (the accessors rows.hpp maps a
// row through).
class Query {
  public:
    Query(Db& db, const char* sql) : cursor_(db.open(sql)) {}

    Query& bind(int index, std::string_view text) {
        cursor_->bind_text(index, text, false);
        return *this;
    }
    Query& bind(int index, std::int64_t value) {
        cursor_->bind_integer(index, value);
        return *this;
    }
    template <std::same_as<bool> Bool>
    Query& bind(int index, Bool value) {
        cursor_->bind_boolean(index, value);
        return *this;
    }
    // NULL when empty.
    template <class T>
    Query& bind(int index, const std::optional<T>& value) {
        if (value) return bind(index, *value);
        return bind_null(index);
    }
    // Text that outlives the Query (see Cursor::bind_text).
    Query& bind_static(int index, std::string_view text) {
        cursor_->bind_text(index, text, true);
        return *this;
    }
    Query& bind_bytes(int index, std::span<const unsigned char> bytes) {
        cursor_->bind_bytes(index, bytes);
        return *this;
    }
    Query& bind_null(int index) {
        cursor_->bind_null(index);
        return *this;
    }

    bool step() { return cursor_->step(); }
    // Runs a statement whose rows, if any, are not read: how many rows it changed.
    std::int64_t run() {
        while (cursor_->step()) {
        }
        return cursor_->affected();
    }

    [[nodiscard]] bool is_null(int column) const { return cursor_->is_null(column); }
    [[nodiscard]] std::string_view text(int column) const { return cursor_->text(column); }
    [[nodiscard]] std::int64_t integer(int column) const { return cursor_->integer(column); }
    [[nodiscard]] bool boolean(int column) const { return cursor_->boolean(column); }
    [[nodiscard]] bool bytes(int column, std::span<unsigned char> out) const {
        return cursor_->bytes(column, out);
    }

  private:
    std::unique_ptr<Cursor> cursor_;
};

// A reference to a callable taking a Db, for the backends' write and read policies (no copy, no
// allocation: it lives only as long as the call it is passed to).
class Work {
  public:
    template <class F>
    requires(!std::same_as<std::remove_cvref_t<F>, Work>)
        Work(F& f)  // NOLINT(google-explicit-constructor)
        : object_(static_cast<void*>(&f)),
          call_([](void* o, Db& db) { (*static_cast<F*>(o))(db); }) {}
    void operator()(Db& db) const { call_(object_, db); }

  private:
    void* object_;
    void (*call_)(void*, Db&);
};

}  // namespace collectcall::server::sql
