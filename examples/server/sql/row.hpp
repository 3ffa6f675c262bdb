// Rows described once. A row struct names its columns as its members, in the order a statement
// lists them (BOOST_DESCRIBE_STRUCT); the column list of a statement, the reading of a row and
// the binding of an insert's values come from that description, so a column is written in one
// place:
//
//   struct ClientRow { Uuid id; Text name; };
//   BOOST_DESCRIBE_STRUCT(ClientRow, (), (id, name))
//   static const std::string sql = select<ClientRow>("FROM clients WHERE account_id = ?");
//   Query q(db, sql.c_str());  ...  read_row<ClientRow>(q)
//
// A member named in camel case, as a model's are, is the column of its name in snake case
// (durationMs: duration_ms); a row may take a base's members (CallRow, CallEnd's), first.
//
// A member's type says how its column is kept: text (std::string, or std::string_view in a row
// that is only bound, read where it lies), an integer, a boolean, a value type with parse() and
// view() (Uuid, E164, Timestamp, ...), a described enum by its name, or std::optional of one of
// these for a column that may be NULL.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include <collectcall/core/describe.hpp>
#include <collectcall/core/enum.hpp>

#include "columns.hpp"
#include "sql/sql.hpp"

namespace collectcall::server::sql {

template <class T>
inline constexpr bool is_optional_v = false;
template <class T>
inline constexpr bool is_optional_v<std::optional<T>> = true;

// The members of a described row, in order, its bases' first; a member missing from its
// BOOST_DESCRIBE_STRUCT does not compile (collectcall::described_members).
template <class R>
using row_members = collectcall::described_members<R>;

// The column of a member: its name in snake case.
inline std::string column_name(std::string_view member) {
    std::string out;
    for (const char c : member) {
        if (c >= 'A' && c <= 'Z') {
            out += '_';
            out += static_cast<char>(c - 'A' + 'a');
        } else {
            out += c;
        }
    }
    return out;
}

// How many columns a row has.
template <class R>
inline constexpr int column_count = static_cast<int>(boost::mp11::mp_size<row_members<R>>::value);

// "a, b, c": the row's columns, each after `prefix` (a table's alias and its dot).
template <class R>
std::string column_list(std::string_view prefix = {}) {
    std::string out;
    boost::mp11::mp_for_each<row_members<R>>([&](auto member) {
        if (!out.empty()) out += ", ";
        out += prefix;
        out += column_name(member.name);
    });
    return out;
}

// "a = ?, b = ?, c = ?": an UPDATE's SET of the row's columns, bound by bind_row from 1.
template <class R>
std::string assignments() {
    std::string out;
    boost::mp11::mp_for_each<row_members<R>>([&](auto member) {
        if (!out.empty()) out += ", ";
        out += column_name(member.name) + " = ?";
    });
    return out;
}

// "SELECT <the row's columns> <rest>". A statement is keyed by its text's address: keep the
// result in a function-local static.
template <class R>
std::string select(std::string_view rest) {
    std::string out = "SELECT " + column_list<R>() + " ";
    out += rest;
    return out;
}

// The value of column `column` of `row` (a Query, or any row with text, is_null, integer and
// boolean), `name` saying which in an error.
template <class T, class Row>
T column_value(const Row& row, int column, const char* name) {
    if constexpr (is_optional_v<T>) {
        if (row.is_null(column)) return std::nullopt;
        return column_value<typename T::value_type>(row, column, name);
    } else if constexpr (std::same_as<T, std::string>) {
        return std::string(row.text(column));
    } else if constexpr (std::same_as<T, bool>) {
        return row.boolean(column);
    } else if constexpr (std::integral<T>) {
        return static_cast<T>(row.integer(column));
    } else {
        return parse_column<T>(row.text(column), name);  // a value type or a described enum
    }
}

// The row whose first column is column `first` of `row`.
template <class R, class Row>
R read_row(const Row& row, int first = 0) {
    R out{};
    int column = first;
    boost::mp11::mp_for_each<row_members<R>>([&](auto member) {
        using T = std::remove_cvref_t<decltype(out.*member.pointer)>;
        out.*member.pointer = column_value<T>(row, column++, member.name);
    });
    return out;
}

template <class T>
void bind_value(Query& q, int index, const T& value) {
    if constexpr (is_optional_v<T>) {
        if (value) {
            bind_value(q, index, *value);
        } else {
            q.bind_null(index);
        }
    } else if constexpr (std::same_as<T, std::string_view>) {
        q.bind_static(index, value);  // a row of views lives as long as its Query
    } else if constexpr (std::same_as<T, std::string>) {
        q.bind(index, std::string_view(value));
    } else if constexpr (std::same_as<T, bool>) {
        q.bind(index, value);
    } else if constexpr (std::integral<T>) {
        q.bind(index, static_cast<std::int64_t>(value));
    } else if constexpr (DescribedEnum<T>) {
        q.bind(index, enum_name(value));
    } else {
        q.bind(index, value.view());
    }
}

// Binds the row's members to the parameters `first`, `first` + 1, ...
template <class R>
void bind_row(Query& q, const R& row, int first = 1) {
    int index = first;
    boost::mp11::mp_for_each<row_members<R>>(
        [&](auto member) { bind_value(q, index++, row.*member.pointer); });
}

namespace detail {
constexpr bool same_name(const char* a, const char* b) {
    while (*a != 0 && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}
template <class D>
struct named_as {
    template <class E>
    using fn = boost::mp11::mp_bool<same_name(D::name, E::name)>;
};
}  // namespace detail

// Sets each member of `to` (a model) named as a member of `from` (a row) to that member's value:
// a member of `from` that `to` lacks, or has with another type, does not compile.
template <class From, class To>
void assign_members(const From& from, To& to) {
    using Targets = collectcall::described_members<To>;
    boost::mp11::mp_for_each<row_members<From>>([&](auto member) {
        using D = decltype(member);
        using I = boost::mp11::mp_find_if_q<Targets, detail::named_as<D>>;
        static_assert(I::value < boost::mp11::mp_size<Targets>::value,
                      "a member of the row that the model does not have");
        using Target = boost::mp11::mp_at<Targets, I>;
        static_assert(std::is_same_v<std::remove_cvref_t<decltype(to.*Target::pointer)>,
                                     std::remove_cvref_t<decltype(from.*D::pointer)>>,
                      "a member of the row of another type than the model's");
        to.*Target::pointer = from.*D::pointer;
    });
}

// "INSERT INTO <table> (<the row's columns>) VALUES (?, ...)" and `rest`.
template <class R>
std::string insert(std::string_view table, std::string_view rest = {}) {
    std::string out = "INSERT INTO ";
    out += table;
    out += " (" + column_list<R>() + ") VALUES (?";
    for (int i = 1; i < column_count<R>; ++i)
        out += ", ?";
    out += ")";
    if (!rest.empty()) {
        out += " ";
        out += rest;
    }
    return out;
}

}  // namespace collectcall::server::sql
