// The contract of a self-validating value type. A type that meets one of these concepts is read
// and written by the generic reader and writer with no further code:
//
//   StringValue:        static Parsed<T> parse(std::string_view text);          t.view()
//   ContextStringValue: static Parsed<T> parse(std::string_view, const ReadOptions&); t.view()
//   NumberValue:        static Parsed<T> from_json_number(std::string_view token);
//   t.append_json(out)
//
// `from_json_number` receives the number's own text, already checked against the JSON number
// grammar, so a type can keep it exactly (Money never goes through a double). A NumberValue may
// also offer `static std::optional<T> parse_plain(std::string_view token)`, which the reader tries
// first on a token starting with a digit: it must accept only valid JSON numbers, and give the
// value from_json_number would (nullopt leaves the token to the general path). With it,
// `static std::optional<T> parse_plain_prefix(std::string_view text, std::size_t& length)` reads
// the same shape from the front of `text` and says how many bytes it took, so that the fast pass
// scans a number once: the reader takes the value only when the byte after those cannot continue
// a JSON number.
//
// A string type may offer `static std::optional<Problem> parse_scanned_into(std::string_view,
// ScannedText, T&)`: parse_into for text whose bytes the reader has already scanned, with the
// same verdict as parse_into on such text (the reader falls back to parse_into when it gives a
// problem, and reports that one).
// Types that need more (a different JSON shape) use the ADL customisation points of read.hpp
// and write.hpp instead.
#pragma once

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/core/chrono.hpp"
#include "collectcall/core/errors.hpp"

namespace collectcall {

struct ReadOptions {
    // "Today" for rules such as "a date of birth is not in the future" (UTC calendar day).
    // Unset means the system clock's current day.
    std::optional<std::chrono::sys_days> today;
    // Deepest nesting accepted; deeper documents are malformed_json.
    std::size_t max_depth = 64;
    // Most customers accepted in one bulk request (API.md section 7).
    std::size_t max_bulk_items = 1000;
    // Most error details kept for one document (or one Validated<T> item); the rest are
    // counted in a last `too_many_errors` detail (API.md section 3).
    std::size_t max_errors = 100;
    // Read a document straight from its bytes first (read.hpp, "The fast pass"), and through
    // simdjson's index only when that pass gives up. Either way the result is the same; false
    // reads every document the long way (for a comparison of the two, as the tests make).
    bool fast_pass = true;
    // "Now" for rules such as "a message's timestamp is not more than 5 minutes in the future"
    // (PastTimestamp). Unset means the system clock when the value is read. (Last, so that a
    // positional initialiser of the members above keeps its meaning.)
    std::optional<std::chrono::sys_time<std::chrono::milliseconds>> now{};

    [[nodiscard]] std::chrono::sys_days today_or_now() const {
        return today ? *today
                     : std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
    }
    [[nodiscard]] std::chrono::sys_time<std::chrono::milliseconds> now_or_clock() const {
        return now ? *now
                   : std::chrono::floor<std::chrono::milliseconds>(
                         std::chrono::system_clock::now());
    }
};

// What the reader's scan of a JSON string found out about its text, from the most to the least:
// every byte printable ASCII (0x20-0x7E); valid UTF-8 with no control character below 0x20 (a
// 0x7F may be there); nothing known.
enum class ScannedText { printable_ascii, utf8, any };

template <class T>
concept StringValue = requires(std::string_view text, const T& value) {
    { T::parse(text) } -> std::same_as<Parsed<T>>;
    { value.view() } -> std::convertible_to<std::string_view>;
};

template <class T>
concept ContextStringValue = requires(std::string_view text, const ReadOptions& options,
                                      const T& value) {
    { T::parse(text, options) } -> std::same_as<Parsed<T>>;
    { value.view() } -> std::convertible_to<std::string_view>;
};

template <class T>
concept NumberValue = requires(std::string_view token, const T& value, std::string& out) {
    { T::from_json_number(token) } -> std::same_as<Parsed<T>>;
    value.append_json(out);
};

}  // namespace collectcall
