// The conversions both passes share: a JSON string's text or a number's exact text into the
// value type, enum or string it is read as. What each pass reads is the same value because it is
// converted by the same function.
#pragma once

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall::detail {

template <class T>
concept Integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The types read from a JSON string, and how: both passes (read_value and the fast pass) convert
// through these. `report(code, message)` hears the problem when the text is not a valid T.
template <class T>
concept ParsesInto = requires(std::string_view t, T& o) {
    { T::parse_into(t, o) } -> std::same_as<std::optional<Problem>>;
}
|| requires(std::string_view t, const ReadOptions& options, T& o) {
    { T::parse_into(t, options, o) } -> std::same_as<std::optional<Problem>>;
};

template <class T>
inline constexpr bool from_json_string = DescribedEnum<T> || ParsesInto<T> || StringValue<T> ||
                                         ContextStringValue<T> || std::is_same_v<T, std::string>;

template <class T, class Report>
COLLECTCALL_HOT bool convert_string(std::string_view text, const ReadOptions& options, T& out,
                                    Report&& report) {
    if constexpr (DescribedEnum<T>) {
        if (auto found = enum_from_name<T>(text)) {
            out = *found;
            return true;
        }
        report(codes::format, enum_expectation<T>());
        return false;
    } else if constexpr (ParsesInto<T>) {
        // A value type that can parse into an existing value: no Parsed<T> to move from.
        std::optional<Problem> problem;
        if constexpr (requires(std::string_view t) { T::parse_into(t, out); }) {
            problem = T::parse_into(text, out);
        } else {
            problem = T::parse_into(text, options, out);
        }
        if (problem) {
            report(problem->code, problem->message);
            return false;
        }
        return true;
    } else if constexpr (StringValue<T> || ContextStringValue<T>) {
        Parsed<T> parsed = [&] {
            if constexpr (ContextStringValue<T>) {
                return T::parse(text, options);
            } else {
                return T::parse(text);
            }
        }();
        if (!parsed) {
            report(parsed.problem().code, parsed.problem().message);
            return false;
        }
        out = std::move(parsed).value();
        return true;
    } else {
        static_assert(std::is_same_v<T, std::string>);
        out.assign(text.data(), text.size());
        return true;
    }
}

// A NumberValue from a number's text, checked against the JSON grammar.
template <class T, class Report>
bool convert_number(std::string_view token, T& out, Report&& report) {
    Parsed<T> parsed = T::from_json_number(token);
    if (!parsed) {
        report(parsed.problem().code, parsed.problem().message);
        return false;
    }
    out = std::move(parsed).value();
    return true;
}

template <class T>
concept HasPlainNumbers = requires(std::string_view t) {
    { T::parse_plain(t) } -> std::same_as<std::optional<T>>;
};

template <class T>
concept HasPlainNumberPrefix = requires(std::string_view t, std::size_t& length) {
    { T::parse_plain_prefix(t, length) } -> std::same_as<std::optional<T>>;
};

// A string type that takes what the reader's scan found out about the text (value_type.hpp).
template <class T>
concept ParsesScannedInto = requires(std::string_view t, ScannedText scanned, T& o) {
    { T::parse_scanned_into(t, scanned, o) } -> std::same_as<std::optional<Problem>>;
};

}  // namespace collectcall::detail
