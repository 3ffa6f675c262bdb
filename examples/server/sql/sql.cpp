#include "sql/sql.hpp"

#include <stdexcept>

namespace collectcall::server::sql {

namespace {

constexpr std::string_view pg_tag = "{pg:";
constexpr std::string_view sqlite_tag = "{sqlite:";

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace

bool needs_translation(std::string_view sql, Dialect dialect) {
    if (sql.find('{') != std::string_view::npos) return true;
    return dialect == Dialect::postgres && sql.find('?') != std::string_view::npos;
}

std::string translate(std::string_view sql, Dialect dialect) {
    std::string out;
    out.reserve(sql.size() + 16);
    int next_parameter = 1;
    char quote = 0;  // inside '...' or "...": copied as it is
    for (std::size_t i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        if (quote != 0) {
            out.push_back(c);
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            out.push_back(c);
            continue;
        }
        if (c == '{') {
            const std::string_view rest = sql.substr(i);
            const bool pg = rest.starts_with(pg_tag);
            if (!pg && !rest.starts_with(sqlite_tag))
                throw std::logic_error("unknown dialect tag in statement");
            const std::size_t start = i + (pg ? pg_tag.size() : sqlite_tag.size());
            // The fragment ends at the first '}' outside quotes.
            std::size_t end = start;
            char inner = 0;
            for (; end < sql.size(); ++end) {
                if (inner != 0) {
                    if (sql[end] == inner) inner = 0;
                } else if (sql[end] == '\'' || sql[end] == '"') {
                    inner = sql[end];
                } else if (sql[end] == '}') {
                    break;
                }
            }
            if (end == sql.size()) throw std::logic_error("unclosed dialect tag in statement");
            if (pg == (dialect == Dialect::postgres)) {
                // A fragment's parameters are numbered (?N): the others' numbers must not
                // depend on the dialect.
                const std::string_view fragment = sql.substr(start, end - start);
                for (std::size_t k = 0; k < fragment.size(); ++k) {
                    if (fragment[k] == '?' &&
                        (k + 1 == fragment.size() || !is_digit(fragment[k + 1])))
                        throw std::logic_error("parameters in a dialect fragment must be numbered");
                }
                const std::string inner_text = translate(fragment, dialect);
                out += inner_text;
            }
            i = end;
            continue;
        }
        if (c == '?' && dialect == Dialect::postgres) {
            out.push_back('$');
            if (i + 1 < sql.size() && is_digit(sql[i + 1])) continue;  // ?N: $N
            out += std::to_string(next_parameter++);
            continue;
        }
        out.push_back(c);
    }
    return out;
}

}  // namespace collectcall::server::sql
