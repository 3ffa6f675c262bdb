// read<T>: JSON text -> a validated T, or every error of the document with its JSON Pointer path.
//
// A valid document is read straight from its bytes by the fast pass (FastReader, below), which
// gives up at the first thing it does not take; the document is then read again by the full pass,
// the one that reports errors, and the result is the same either way (tests/core/fast_pass.cpp and
// the fuzz targets compare the two).
//
// The full pass: one pass of simdjson On-Demand. Each object is iterated once and each key
// dispatched to its member (out-of-order keys cost no extra pass); a presence bitset gives
// required, duplicate and unknown members in the same pass. Field errors are collected and reading
// goes on; only a structural error (malformed JSON, invalid UTF-8, trailing content, nesting too
// deep) stops it.
//
// Customisation point: a type of your own becomes readable by a function found by ADL,
//
//     bool collectcall_read(collectcall::Reader& reader, simdjson::ondemand::value& value, T& out);
//
// returning true when `out` holds a valid value and otherwise reporting through
// `reader.error(code, message)`. Such a type is read by the full pass only, unless it also has
// `template <class Fast> bool collectcall_read_fast(Fast& fast, T& out)`, true when it took a
// valid value through `fast.value(part)` (as Validated<T> does). Described enums (enum.hpp) are
// read from their wire names. Types meeting StringValue / NumberValue (value_type.hpp) need nothing
// at all; one that also has `static std::optional<Problem> parse_into(text, out)` (or
// `parse_into(text, options, out)`), changing `out` only when the text is valid, is read in
// place through it rather than through a Parsed<T>.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <simdjson.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/json_number.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/utf8.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

namespace ondemand = simdjson::ondemand;

// Every public data member of a described struct, bases first.
template <class T>
using described_members = boost::describe::describe_members<T, boost::describe::mod_public |
                                                                   boost::describe::mod_inherited>;

template <class T>
concept Described = boost::describe::has_describe_members<T>::value;

namespace detail {
template <class P>
struct member_pointer_class;
template <class C, class M>
struct member_pointer_class<M C::*> {
    using type = C;
};
}  // namespace detail

// The JSON name of a described member, named by pointer (`member_name<&CustomerCreate::email>`
// is "email"): a misspelt or renamed member does not compile.
template <auto Member>
inline constexpr std::string_view member_name = [] {
    using C = typename detail::member_pointer_class<decltype(Member)>::type;
    static_assert(Described<C>, "member_name names a member of a described struct");
    std::string_view name;
    boost::mp11::mp_for_each<described_members<C>>([&](auto D) {
        if constexpr (std::is_same_v<std::remove_cv_t<decltype(D.pointer)>, decltype(Member)>) {
            if (D.pointer == Member && name.empty()) name = D.name;
        }
    });
    return name;
}();

class Reader;

namespace detail {

// Thrown only for structural errors; it unwinds to read<T>, which turns it into one error.
struct Malformed {
    std::size_t offset;
    std::string what;
};
// Thrown by Reader::stop(); read<T> answers with the errors reported so far.
struct Stopped {};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
concept Integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;

inline bool is_json_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

inline std::string_view trim_json_space(std::string_view token) {
    while (!token.empty()) {
        char c = token.back();
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        token.remove_suffix(1);
    }
    return token;
}

// Where the first `a` or `b` is in the `n` bytes at `p` of the document (n when there is none):
// inline, sixteen bytes at a time where SSE2 is (a call to memchr costs more than the scan of a
// string or a key). Reads up to 15 bytes past the n, which the padding of the document's buffer
// allows.
COLLECTCALL_HOT std::size_t find_in_document(const char* p, std::size_t n, char a,
                                             char b) noexcept {
#if defined(__SSE2__)
    const __m128i first = _mm_set1_epi8(a);
    const __m128i second = _mm_set1_epi8(b);
    for (std::size_t i = 0; i < n; i += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const auto found = static_cast<unsigned>(_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(chunk, first), _mm_cmpeq_epi8(chunk, second))));
        if (found != 0) return std::min(n, i + static_cast<std::size_t>(std::countr_zero(found)));
    }
    return n;
#else
    for (std::size_t i = 0; i < n; ++i) {
        if (p[i] == a || p[i] == b) return i;
    }
    return n;
#endif
}
COLLECTCALL_HOT std::size_t find_in_document(const char* p, std::size_t n, char c) noexcept {
#if defined(__SSE2__)
    return find_in_document(p, n, c, c);
#else
    const void* found = std::memchr(p, c, n);
    return found == nullptr ? n : static_cast<std::size_t>(static_cast<const char*>(found) - p);
#endif
}

// The name a member is known by in JSON, indexed like described_members<T>.
template <class T>
inline constexpr auto member_names = []<template <class...> class L, class... D>(L<D...>) {
    return std::array<std::string_view, sizeof...(D)>{std::string_view(D::name)...};
}(described_members<T>{});

}  // namespace detail

// A member is required when absence is not a valid state of its type.
template <class T>
inline constexpr bool is_required_member_v =
    !is_optional_v<T> && !is_patch_v<T> && !std::is_same_v<T, NotAllowed>;

// What a cross-field check (collectcall_check) may ask about the members of one object.
class MemberStates {
  public:
    MemberStates(const std::string_view* names, std::size_t count, const bool* present,
                 const bool* failed)
        : names_(names), count_(count), present_(present), failed_(failed) {}

    // Members are named by pointer (`present<&CustomerCreate::collections>()`), so that a rule
    // naming a member that does not exist, or no longer does, does not compile.

    // The member was in the document with a value other than null.
    template <auto Member>
    [[nodiscard]] bool present() const {
        return flag(present_, checked_name<Member>());
    }
    // The member was in the document and an error was reported inside it.
    template <auto Member>
    [[nodiscard]] bool failed() const {
        return flag(failed_, checked_name<Member>());
    }
    // The member was in the document with a value other than null, valid or not: a rule about
    // its absence does not also fire for a member that has its own error.
    template <auto Member>
    [[nodiscard]] bool given() const {
        return present<Member>() || failed<Member>();
    }

  private:
    template <auto Member>
    static constexpr std::string_view checked_name() {
        constexpr std::string_view name = member_name<Member>;
        static_assert(!name.empty(), "a member pointer of a described member");
        return name;
    }
    // Names of the same length are told apart by their first byte before any call to compare
    // the rest (a rule asks several times per object).
    [[nodiscard]] bool flag(const bool* flags, std::string_view name) const {
        if (name.empty()) return false;  // no member has an empty name
        for (std::size_t i = 0; i < count_; ++i) {
            const std::string_view candidate = names_[i];
            if (candidate.size() == name.size() && candidate[0] == name[0] && candidate == name)
                return flags[i];
        }
        return false;
    }
    const std::string_view* names_;
    std::size_t count_;
    const bool* present_;
    const bool* failed_;
};

class Reader {
  public:
    // `json_end`, when known, bounds bytes_after().
    Reader(const char* json_begin, const ReadOptions& options, ondemand::document* doc,
           const char* json_end = nullptr)
        : begin_(json_begin), end_(json_end), options_(options), doc_(doc) {}

    [[nodiscard]] const ReadOptions& options() const noexcept { return options_; }
    // How many errors were reported (and not taken away by an error scope), including those
    // past the bound of the list that are only counted.
    [[nodiscard]] std::size_t error_count() const noexcept { return count_; }

    // The errors of the document: at most options().max_errors details, then one
    // too_many_errors detail for the rest.
    [[nodiscard]] ErrorList take_errors() {
        ErrorList errors = std::move(errors_);
        if (count_ > errors.size())
            errors.push_back(too_many_errors_detail(count_ - errors.size()));
        errors_.clear();
        count_ = 0;
        scope_ = {};
        return errors;
    }

    // An error scope gathers the errors of one part of the document apart from the rest, with a
    // bound of its own (a Validated<T> item of a bulk request): open_error_scope() starts it and
    // close_error_scope() takes its errors away, bounded like take_errors(), and returns to the
    // enclosing scope.
    struct ErrorScope {
        std::size_t stored_from = 0;   // where the scope's details start in the list
        std::size_t counted_from = 0;  // error_count() when it started
    };
    [[nodiscard]] ErrorScope open_error_scope() noexcept {
        const ErrorScope outer = scope_;
        scope_ = {errors_.size(), count_};
        return outer;
    }
    [[nodiscard]] ErrorList close_error_scope(ErrorScope outer) {
        const auto from = static_cast<std::ptrdiff_t>(scope_.stored_from);
        ErrorList mine(std::make_move_iterator(errors_.begin() + from),
                       std::make_move_iterator(errors_.end()));
        errors_.resize(scope_.stored_from);
        const std::size_t counted = count_ - scope_.counted_from;
        if (counted > mine.size()) mine.push_back(too_many_errors_detail(counted - mine.size()));
        count_ = scope_.counted_from;
        scope_ = outer;
        return mine;
    }

    // Reports a problem with the value being read, at the current path. Past the bound of the
    // list it is only counted (and its path never built).
    //
    // So is an error after the first whose path would take the paths kept for the document (or
    // for the error scope, a bulk item) past 64 KiB: an error's path repeats every key above
    // it, and a long key (a JsonObject member's, up to 64 KiB) above many errors would otherwise
    // make the errors many times the size of the document. No document with keys of a usual
    // length comes near it (100 errors with paths of 600 bytes each).
    COLLECTCALL_OUT_OF_LINE void error(std::string_view code, std::string_view message) {
        if (errors_.size() - scope_.stored_from < options_.max_errors && path_fits()) {
            errors_.push_back(Error{current_path(), std::string(code), std::string(message)});
        }
        ++count_;
    }
    static constexpr std::size_t max_path_bytes = 64 * 1024;

    // Stops reading the document: what was reported so far is its answer (a container past its
    // bound, whose further elements must not be built).
    [[noreturn]] void stop() const { throw detail::Stopped{}; }
    // How deep the path is: error_at() reports at such a depth from further down.
    [[nodiscard]] std::size_t path_depth() const noexcept { return path_size_; }
    // Reports a problem with the value at `path_depth` (a path_depth() taken above the value
    // being read), as error() would have there.
    void error_at(std::size_t path_depth, std::string_view code, std::string_view message) {
        const std::size_t here = path_size_;
        path_size_ = std::min(path_depth, here);  // the segments below stay where they are
        error(code, message);
        path_size_ = here;
    }
    // Reports a problem with a member of the object being read.
    void member_error(std::string_view member, std::string_view code, std::string_view message) {
        push(member);
        error(code, message);
        pop();
    }

    // The current JSON Pointer, built only when an error needs it.
    [[nodiscard]] std::string current_path() const {
        std::string path;
        for (std::size_t i = 0; i < path_size_; ++i) {
            const Segment& s =
                i < inline_segments ? inline_path_[i] : deep_path_[i - inline_segments];
            if (s.is_index) {
                append_pointer_index(path, s.index);
            } else {
                append_pointer_token(path, s.key());
            }
        }
        return path;
    }

    // Whether the current path fits in what is left of max_path_bytes. The first error of a
    // document or scope is always kept: its path is no longer than the document.
    [[nodiscard]] bool path_fits() const noexcept {
        if (errors_.size() == scope_.stored_from) return true;
        std::size_t used = path_size_bound();
        for (std::size_t i = scope_.stored_from; i < errors_.size(); ++i)
            used += errors_[i].path.size();
        return used <= max_path_bytes;
    }

    // At least current_path().size(), without building it: a key may double in the pointer
    // (each '~' and '/' is escaped as two bytes), an index takes at most 20 digits.
    [[nodiscard]] std::size_t path_size_bound() const noexcept {
        std::size_t bound = 0;
        for (std::size_t i = 0; i < path_size_; ++i) {
            const Segment& s =
                i < inline_segments ? inline_path_[i] : deep_path_[i - inline_segments];
            bound += 1 + (s.is_index ? 20 : 2 * s.key_size);
        }
        return bound;
    }

    // Every member and element read is pushed and popped, so this stays inline and allocation
    // free up to a depth no real document reaches; deeper paths spill into a vector.
    // The fields are stored one by one: building a Segment first and copying it makes the
    // compiler reload it through the stack, which stalls store forwarding on every member.
    COLLECTCALL_HOT void push(std::string_view key) {
        if (path_size_ < inline_segments) [[likely]] {
            Segment& s = inline_path_[path_size_];
            s.set_key(key);
            s.is_index = false;
        } else {
            deep_path_.push_back(Segment{key.data(), key.size(), 0, false});
        }
        ++path_size_;
    }
    COLLECTCALL_HOT void push(std::size_t index) {
        if (path_size_ < inline_segments) [[likely]] {
            Segment& s = inline_path_[path_size_];
            s.index = index;
            s.is_index = true;
        } else {
            deep_path_.push_back(Segment{nullptr, 0, index, true});
        }
        ++path_size_;
    }
    // Names the innermost segment anew: the members of an object take turns in one segment,
    // pushed once for the object.
    COLLECTCALL_HOT void rename_top(std::string_view key) noexcept {
        if (path_size_ <= inline_segments) [[likely]] {
            inline_path_[path_size_ - 1].set_key(key);
        } else {
            deep_path_.back().set_key(key);
        }
    }
    COLLECTCALL_HOT void pop() noexcept {
        if (--path_size_ >= inline_segments) [[unlikely]]
            deep_path_.pop_back();
    }

    // Structural errors: stop reading. The offset is into the caller's text.
    [[noreturn]] void malformed(const char* where, std::string what) const {
        std::size_t offset = 0;
        if (where != nullptr && where > begin_) offset = static_cast<std::size_t>(where - begin_);
        throw detail::Malformed{offset, std::move(what)};
    }
    [[noreturn]] void malformed(simdjson::error_code code) const {
        malformed(location(), simdjson::error_message(code));
    }
    [[nodiscard]] const char* location() const {
        const char* where = nullptr;
        if (doc_ != nullptr && doc_->current_location().get(where) != simdjson::SUCCESS) {
            where = nullptr;
        }
        return where;
    }

    // How many bytes of the document follow `at` (0 when its end is not known).
    [[nodiscard]] std::size_t bytes_after(const char* at) const noexcept {
        return end_ != nullptr && at != nullptr && at < end_ ? static_cast<std::size_t>(end_ - at)
                                                             : 0;
    }

    void enter(const char* where) {
        if (++depth_ > options_.max_depth) {
            malformed(where, "nesting deeper than " + std::to_string(options_.max_depth));
        }
    }
    void leave() noexcept { --depth_; }

    // The JSON type of a value; malformed tokens are structural errors.
    COLLECTCALL_HOT ondemand::json_type type_of(ondemand::value& value) {
        ondemand::json_type t{};
        if (auto e = value.type().get(t)) malformed(token_start(value), simdjson::error_message(e));
        return t;
    }

    COLLECTCALL_HOT static const char* token_start(ondemand::value& value) {
        return value.raw_json_token().data();
    }

    // A scalar's own text, checked against the JSON grammar (simdjson validates only what is
    // consumed, and a number is never consumed through a double here).
    std::string_view scalar_token(ondemand::value& value, ondemand::json_type t) {
        std::string_view token = detail::trim_json_space(value.raw_json_token());
        bool valid = false;
        switch (t) {
            case ondemand::json_type::number:
                valid = is_json_number(token);
                break;
            case ondemand::json_type::boolean:
                valid = is_literal(token, "true") || is_literal(token, "false");
                break;
            case ondemand::json_type::null:
                valid = is_literal(token, "null");
                break;
            default:
                valid = true;
        }
        if (!valid) malformed(token.data(), "invalid literal or number");
        return token;
    }

    // A comparison at the literal's compile-time length, which needs no call to memcmp.
    template <std::size_t N>
    static bool is_literal(std::string_view token, const char (&literal)[N]) noexcept {
        return token.size() == N - 1 && std::memcmp(token.data(), literal, N - 1) == 0;
    }

    // Reads a string, reporting a type error for anything else.
    COLLECTCALL_HOT std::optional<std::string_view> string(ondemand::value& value) {
        // A value that starts with '"' is a string: the common case needs no type() first.
        const std::string_view token = value.raw_json_token();
        const char* quote = token.data();
        // Without a backslash before it, the first quote after the opening one closes the
        // string, and the text between them is the string itself: the parser has checked it for
        // UTF-8 and unescaped control characters, and nothing needs unescaping into its buffer.
        // One scan finds that quote or the first backslash. The token runs to the next
        // structural character, so the closing quote is in it. A string followed by ':' is read
        // the long way, whose error it needs: left unread, simdjson would skip it as a key and
        // take the colon with it.
        if (*quote == '"' && quote[token.size()] != ':') [[likely]] {
            const std::size_t after = token.size() - 1;
            const std::size_t end = detail::find_in_document(quote + 1, after, '"', '\\');
            if (end < after && quote[1 + end] == '"') [[likely]] {
                ondemand::raw_json_string consumed;
                (void)value.get_raw_json_string().get(consumed);
                return std::string_view(quote + 1, end);
            }
        }
        return string_the_long_way(value);
    }

    // Reads a number's exact text, reporting a type error for anything else.
    COLLECTCALL_HOT std::optional<std::string_view> number_token(ondemand::value& value) {
        ondemand::json_type t = type_of(value);
        if (t != ondemand::json_type::number) {
            type_error(value, t, "must be a number");
            return std::nullopt;
        }
        return scalar_token(value, t);
    }

    // Reader::string for what its fast path leaves: a string with escapes or followed by ':',
    // and anything that is not a string.
    COLLECTCALL_OUT_OF_LINE std::optional<std::string_view> string_the_long_way(
        ondemand::value& value) {
        if (*token_start(value) == '"') {
            std::string_view text;
            if (auto e = value.get_string().get(text)) {
                malformed(token_start(value), simdjson::error_message(e));
            }
            return text;
        }
        ondemand::json_type t = type_of(value);
        type_error(value, t, "must be a string");
        return std::nullopt;
    }

    // Reports a type error, after checking that the unexpected value is well-formed JSON.
    COLLECTCALL_OUT_OF_LINE void type_error(ondemand::value& value, ondemand::json_type t,
                                            std::string_view message) {
        skip(value, t);
        error(codes::type, message);
    }

    // Walks a value that will not be kept, so that malformed JSON inside it is still found.
    void skip(ondemand::value& value) { skip(value, type_of(value)); }
    void skip(ondemand::value& value, ondemand::json_type t) {
        switch (t) {
            case ondemand::json_type::object: {
                const char* where = token_start(value);
                ondemand::object object;
                if (auto e = value.get_object().get(object))
                    malformed(where, simdjson::error_message(e));
                enter(where);
                for (auto field_result : object) {
                    if (auto e = field_result.error()) malformed(e);
                    ondemand::field&& field = std::move(field_result).value_unsafe();
                    std::string_view key;
                    if (auto e = field.unescaped_key().get(key)) malformed(e);
                    skip(field.value());
                }
                leave();
                break;
            }
            case ondemand::json_type::array: {
                const char* where = token_start(value);
                ondemand::array array;
                if (auto e = value.get_array().get(array))
                    malformed(where, simdjson::error_message(e));
                enter(where);
                for (auto element_result : array) {
                    if (auto e = element_result.error()) malformed(e);
                    ondemand::value&& element = std::move(element_result).value_unsafe();
                    skip(element);
                }
                leave();
                break;
            }
            case ondemand::json_type::string: {
                std::string_view text;
                if (auto e = value.get_string().get(text)) {
                    malformed(token_start(value), simdjson::error_message(e));
                }
                break;
            }
            default:
                scalar_token(value, t);
        }
    }

  private:
    // Trivial, so that the inline path is not cleared for each document: only the segments
    // below path_size_ are ever read.
    struct Segment {
        const char* key_data;
        std::size_t key_size;
        std::size_t index;
        bool is_index;
        [[nodiscard]] std::string_view key() const noexcept { return {key_data, key_size}; }
        void set_key(std::string_view key) noexcept {
            key_data = key.data();
            key_size = key.size();
        }
    };
    static constexpr std::size_t inline_segments = 24;

    const char* begin_;
    const char* end_;
    const ReadOptions& options_;
    ondemand::document* doc_;
    ErrorList errors_;
    std::size_t count_ = 0;
    ErrorScope scope_;
    std::size_t path_size_ = 0;
    std::array<Segment, inline_segments> inline_path_;
    std::vector<Segment> deep_path_;
    std::size_t depth_ = 0;
};

namespace detail {

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

}  // namespace detail

template <class T>
bool read_value(Reader& reader, ondemand::value& value, T& out);

namespace detail {

// Converts to a default-initialised T, built where the conversion's result goes (no copy, no
// move). A described struct that the reader is about to fill is made this way where a failed
// read throws it away (the value of read<T>, an optional member): the reader writes every member
// (a member the document lacks is reset), and value-initialisation would first clear the whole
// object, inline text buffers and all (a customer is more than a kilobyte). Not for a
// Validated<T>, whose value is seen even when it failed.
struct Unfilled {
    template <class T>
    operator T() const {  // NOLINT(google-explicit-constructor): converting is its purpose
        T value;
        return value;
    }
};

// Whether a failed read leaves `out` as it found it (a value type, a Patch: everything but the
// containers of parts, which hold their valid parts, and the types with a reader of their own).
template <class T>
inline constexpr bool read_whole =
    !Described<T> && !is_vector<T>::value && !is_bounded_vector_v<T> && !is_optional_v<T> &&
    !requires(Reader & r, ondemand::value& v, T& o) {
    collectcall_read(r, v, o);
};

// Empties a member the document does not have, keeping the storage a string or vector owns.
template <class T>
void forget(T& out) {
    if constexpr (std::is_same_v<T, std::string> || is_vector<T>::value || is_bounded_vector_v<T>) {
        out.clear();
    } else {
        out = T{};
    }
}

// A part that failed is made fresh out of line, like every path only a value with a problem
// takes (Reader::error, type_error, string_the_long_way): the functions that read valid values
// stay small, with fewer registers to save and restore on every call.
template <class T>
COLLECTCALL_OUT_OF_LINE void reset_part(T& out) {
    out = T{};
}

// Reads a member or an element. A value that fails is left as a fresh one would be (read<T> fills
// a default T; read_into reads over a value that held something else).
template <class T>
bool read_part(Reader& reader, ondemand::value& value, T& out) {
    if constexpr (read_whole<T>) {
        if (read_value(reader, value, out)) [[likely]]
            return true;
        reset_part(out);
        return false;
    } else {
        return read_value(reader, value, out);
    }
}

template <class T>
bool read_integer(Reader& reader, ondemand::value& value, T& out) {
    auto token = reader.number_token(value);
    if (!token) return false;
    std::string_view text = *token;
    bool negative = !text.empty() && text.front() == '-';
    if (negative) text.remove_prefix(1);
    if (text.find_first_of(".eE") != std::string_view::npos) {
        reader.error(codes::type, "must be an integer");
        return false;
    }
    // Accumulate as the negative magnitude so that the minimum of a signed type fits.
    using Wide = std::conditional_t<std::is_signed_v<T>, std::intmax_t, std::uintmax_t>;
    Wide result = 0;
    bool overflow = false;
    for (char c : text) {
        Wide digit = static_cast<Wide>(c - '0');
        if constexpr (std::is_signed_v<T>) {
            if (result < (std::numeric_limits<T>::min() + digit) / 10) overflow = true;
            if (!overflow) result = result * 10 - digit;
        } else {
            if (result > (std::numeric_limits<T>::max() - digit) / 10) overflow = true;
            if (!overflow) result = result * 10 + digit;
        }
    }
    if constexpr (std::is_signed_v<T>) {
        if (!negative && result == std::numeric_limits<T>::min()) overflow = true;
        // Not when it overflowed: -min would be undefined for the widest type.
        if (!negative && !overflow) result = -result;
    } else {
        if (negative && result != 0) {
            reader.error(codes::minimum, "must be >= 0");
            return false;
        }
    }
    if (overflow) {
        reader.error(codes::range, "is out of range");
        return false;
    }
    out = static_cast<T>(result);
    return true;
}

// Reads an array into `out`. With a bound (BoundedVector), the element past `max_items` is not
// built: one `length` error at the array, then reading stops.
template <class T, class Bound = void>
bool read_array(Reader& reader, ondemand::value& value, std::vector<T>& out) {
    constexpr bool bounded = !std::is_void_v<Bound>;
    std::size_t max_items = std::numeric_limits<std::size_t>::max();
    if constexpr (bounded) max_items = Bound::max_items(reader.options());
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::array) {
        reader.type_error(value, t, "must be an array");
        return false;
    }
    const char* where = Reader::token_start(value);
    ondemand::array array;
    if (auto e = value.get_array().get(array)) reader.malformed(where, simdjson::error_message(e));
    reader.enter(where);
    std::size_t before = reader.error_count();
    // A bounded array (a bulk body's items) gets its storage at once rather than by a doubling
    // growth that moves every element several times: as many elements as the rest of the
    // document could hold (two bytes each at the least), never more than the bound.
    if constexpr (bounded) out.reserve(std::min(max_items, reader.bytes_after(where) / 2));
    std::size_t index = 0;
    for (auto element_result : array) {
        if (auto e = element_result.error()) reader.malformed(e);
        ondemand::value&& element = std::move(element_result).value_unsafe();
        if constexpr (bounded) {
            if (index == max_items) [[unlikely]] {
                reader.error(codes::length, Bound::length_message(max_items));
                reader.stop();
            }
        }
        reader.push(index);
        // The elements already there (read_into) are read over, keeping what they own.
        if constexpr (std::is_same_v<T, bool>) {  // vector<bool> hands out proxies
            bool b = false;
            read_value(reader, element, b);
            if (index < out.size()) {
                out[index] = b;
            } else {
                out.push_back(b);
            }
        } else {
            read_part(reader, element, index < out.size() ? out[index] : out.emplace_back());
        }
        ++index;
        reader.pop();
    }
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(index), out.end());
    reader.leave();
    if constexpr (bounded) {
        if (index < Bound::min_items) reader.error(codes::length, Bound::length_message(max_items));
    }
    return reader.error_count() == before;
}

// The member names of T grouped by length, so that a key is compared only with the names as
// long as it is: whatever the order of the keys, a lookup costs a scan for the closing quote and
// usually one comparison.
template <class T>
struct member_lookup {
    static constexpr auto& names = member_names<T>;
    static constexpr std::size_t n = names.size();
    static constexpr std::size_t max_length = [] {
        std::size_t longest = 0;
        for (std::string_view name : names)
            longest = std::max(longest, name.size());
        return longest;
    }();
    // Member indices ordered by name length (declaration order within a length)...
    static constexpr std::array<std::size_t, n> by_length = [] {
        std::array<std::size_t, n> order{};
        std::size_t at = 0;
        for (std::size_t length = 0; length <= max_length; ++length) {
            for (std::size_t i = 0; i < n; ++i) {
                if (names[i].size() == length) order[at++] = i;
            }
        }
        return order;
    }();
    // ...and where the names of each length start in that order.
    static constexpr std::array<std::size_t, max_length + 2> starts = [] {
        std::array<std::size_t, max_length + 2> first{};
        for (std::size_t length = 0; length <= max_length; ++length) {
            std::size_t count = 0;
            for (std::string_view name : names)
                count += name.size() == length ? 1 : 0;
            first[length + 1] = first[length] + count;
        }
        return first;
    }();
#if defined(__SSE2__)
    // Each name followed by its closing quote, as 16-byte chunks with a mask of the bytes that
    // count: a key is compared in one or two loads, whatever the name's length.
    static constexpr std::size_t chunks = (max_length + 1 + 15) / 16;
    struct Chunks {
        std::array<std::array<char, 16>, chunks> bytes{};
        std::array<unsigned, chunks> mask{};
    };
    static constexpr std::array<Chunks, n> chunked = [] {
        std::array<Chunks, n> table{};
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t b = 0; b <= names[i].size(); ++b) {
                table[i].bytes[b / 16][b % 16] = b < names[i].size() ? names[i][b] : '"';
                table[i].mask[b / 16] |= 1U << (b % 16);
            }
        }
        return table;
    }();
#else
    // Each name followed by its closing quote, as little-endian 64-bit words with a mask of the
    // bytes that count: a key is compared in at most a few loads, whatever the name's length.
    static constexpr std::size_t words = (max_length + 1 + 7) / 8;
    struct Key {
        std::array<std::uint64_t, words> word{};
        std::array<std::uint64_t, words> mask{};
    };
    static constexpr std::array<Key, n> keys = [] {
        std::array<Key, n> table{};
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t b = 0; b <= names[i].size(); ++b) {
                const auto byte =
                    static_cast<unsigned char>(b < names[i].size() ? names[i][b] : '"');
                table[i].word[b / 8] |= std::uint64_t{byte} << (8 * (b % 8));
                table[i].mask[b / 8] |= std::uint64_t{0xFF} << (8 * (b % 8));
            }
        }
        return table;
    }();
#endif
    // The member a raw key names, found by the key's length (a search for its closing quote that
    // stops at the longest name's length) among the names of that length; n when no name is the
    // key's raw text (an unknown key, or one with escapes).
    static std::size_t by_raw_key(const char* raw) noexcept {
        if (const std::size_t length = find_in_document(raw, max_length + 1, '"');
            length <= max_length) {
            for (std::size_t k = starts[length]; k < starts[length + 1]; ++k) {
                if (is(raw, by_length[k])) return by_length[k];
            }
        }
        return n;
    }

    // Whether the key at `raw` is name i. The wide loads read at most 64 bytes from the key's
    // start, which the document's padding allows past its closing quote; a struct with a name too
    // long for that compares byte by byte, stopping at the first difference (the key's closing
    // quote at the latest, as no name has a quote).
    static bool is(const char* raw, std::size_t i) noexcept {
#if defined(__SSE2__)
        if constexpr (16 * chunks <= simdjson::SIMDJSON_PADDING) return equal(raw, chunked[i]);
#else
        if constexpr (std::endian::native == std::endian::little &&
                      8 * words <= simdjson::SIMDJSON_PADDING) {
            const Key& key = keys[i];
            std::uint64_t differ = 0;
            for (std::size_t w = 0; w < words; ++w) {
                std::uint64_t loaded = 0;
                std::memcpy(&loaded, raw + 8 * w, 8);
                differ |= (loaded ^ key.word[w]) & key.mask[w];
            }
            return differ == 0;
        }
#endif
        const std::string_view name = names[i];
        for (std::size_t b = 0; b < name.size(); ++b) {
            if (raw[b] != name[b]) return false;
        }
        return raw[name.size()] == '"';
    }

#if defined(__SSE2__)
    // is() for a name given as its chunks.
    static bool equal(const char* raw, const Chunks& name) noexcept {
        unsigned differ = 0;
        for (std::size_t c = 0; c < chunks; ++c) {
            const __m128i loaded = _mm_loadu_si128(reinterpret_cast<const __m128i*>(raw + 16 * c));
            const __m128i expected =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(name.bytes[c].data()));
            const auto same =
                static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(loaded, expected)));
            differ |= ~same & name.mask[c];
        }
        return differ == 0;
    }
#endif
};

// The member expected next in an object: the one after the last (declaration order), or the one
// before it once a key came before the last in that order (documents written in reverse), so that
// both orders are matched by the first comparison; any other order is found by the lookup by
// length.
class MemberHint {
  public:
    // A member index, or one that is none (-1 or past the last).
    [[nodiscard]] std::size_t expected() const noexcept { return static_cast<std::size_t>(next_); }
    void saw(std::size_t i) noexcept {
        const auto at = static_cast<std::ptrdiff_t>(i);
        if (at != next_) [[unlikely]]
            step_ = at > next_ - step_ ? 1 : -1;  // after or before the last member
        next_ = at + step_;
    }

  private:
    std::ptrdiff_t next_ = 0;
    std::ptrdiff_t step_ = 1;  // from the last member to the next: 1 or -1
};

// Finds the member a key names, comparing the raw key in the input buffer (always padded, so
// reading a little past a key is safe): the member expected next (read_members' hint), where a
// document in declaration order or its reverse hits; then, out of line, by the key's length
// (found by a search for its closing quote that stops at the longest name's length), the names of
// that length; for a key with escapes, its unescaped form. n when no member has the name.
template <class T>
COLLECTCALL_OUT_OF_LINE std::size_t match_other_member(ondemand::field& field, const char* raw,
                                                       Reader& reader,
                                                       std::string_view& unescaped) {
    constexpr auto& names = member_names<T>;
    constexpr std::size_t n = names.size();
    if (const std::size_t i = member_lookup<T>::by_raw_key(raw); i != n) return i;
    if (auto e = field.unescaped_key().get(unescaped))
        reader.malformed(raw, simdjson::error_message(e));
    for (std::size_t i = 0; i < n; ++i) {
        if (names[i] == unescaped) return i;
    }
    return n;
}

template <class T>
COLLECTCALL_HOT std::size_t match_member(ondemand::field& field, std::size_t hint, Reader& reader,
                                         std::string_view& unescaped) {
    using Lookup = member_lookup<T>;
    const char* raw = field.key().raw();
    if (hint < Lookup::n && Lookup::is(raw, hint)) [[likely]]
        return hint;
    return match_other_member<T>(field, raw, reader, unescaped);
}

// Reads member I of T: one function per member, so that the member a key names is reached by
// one indirect call rather than a call into a switch over them all.
template <class T, std::size_t I>
bool read_member(Reader& reader, ondemand::value& value, T& out) {
    using D = boost::mp11::mp_at_c<described_members<T>, I>;
    return read_part(reader, value, out.*D::pointer);
}

template <class T>
inline constexpr auto member_readers = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<bool (*)(Reader&, ondemand::value&, T&), sizeof...(I)>{&read_member<T, I>...};
}
(std::make_index_sequence<boost::mp11::mp_size<described_members<T>>::value>{});

// Reads the members of an object that starts at `where`.
template <class T>
bool read_members(Reader& reader, ondemand::object& object, const char* where, T& out) {
    using Members = described_members<T>;
    constexpr std::size_t n = boost::mp11::mp_size<Members>::value;
    constexpr auto& names = member_names<T>;

    reader.enter(where);
    const std::size_t before = reader.error_count();

    // What a cross-field rule may ask (MemberStates) is recorded only for a struct that has one.
    constexpr bool checked = requires(const MemberStates& states) {
        collectcall_check(out, states, reader);
    };
    bool seen[n + 1] = {};
    [[maybe_unused]] bool present[checked ? n + 1 : 1] = {};
    [[maybe_unused]] bool failed[checked ? n + 1 : 1] = {};
    MemberHint hint;
    reader.push(std::string_view{});  // renamed for each member
    for (auto field_result : object) {
        // Used where it is rather than copied out with get(): the copy of a field just built
        // member by member stalls on store forwarding (here and in every loop of this file).
        if (auto e = field_result.error()) reader.malformed(e);
        ondemand::field&& field = std::move(field_result).value_unsafe();
        std::string_view unescaped;
        const std::size_t i = match_member<T>(field, hint.expected(), reader, unescaped);
        if (i == n) {
            reader.rename_top(unescaped);
            reader.skip(field.value());
            reader.error(codes::unknown_field, "is not a known member");
            continue;
        }
        hint.saw(i);
        reader.rename_top(names[i]);
        if (seen[i]) {
            reader.skip(field.value());
            reader.error(codes::duplicate_field, "appears more than once");
            if constexpr (checked) failed[i] = true;
        } else {
            seen[i] = true;
            [[maybe_unused]] const std::size_t member_before = reader.error_count();
            ondemand::value& member_value = field.value();
            if constexpr (checked) {
                // Only `null` starts with 'n' (anything else malformed has already stopped us).
                present[i] = *Reader::token_start(member_value) != 'n';
            }
            member_readers<T>[i](reader, member_value, out);
            if constexpr (checked) failed[i] = reader.error_count() != member_before;
        }
    }
    reader.pop();
    reader.leave();

    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto I) {
        using D = boost::mp11::mp_at_c<Members, decltype(I)::value>;
        using M = std::remove_cvref_t<decltype(out.*D::pointer)>;
        if (!seen[I]) {
            if constexpr (is_required_member_v<M>) {
                reader.member_error(names[I], codes::required, "is required");
            }
            forget(out.*D::pointer);
        }
    });

    if constexpr (checked) {
        MemberStates states(names.data(), n, present, failed);
        collectcall_check(out, states, reader);
    }
    return reader.error_count() == before;
}

template <class T>
bool read_object(Reader& reader, ondemand::value& value, T& out) {
    ondemand::json_type t = reader.type_of(value);
    if (t != ondemand::json_type::object) {
        reader.type_error(value, t, "must be an object");
        return false;
    }
    const char* where = Reader::token_start(value);
    ondemand::object object;
    if (auto e = value.get_object().get(object))
        reader.malformed(where, simdjson::error_message(e));
    return read_members(reader, object, where, out);
}

}  // namespace detail

// Reads one value of any supported type. Returns true when `out` holds a valid value; otherwise
// the problems were reported to `reader`.
template <class T>
bool read_value(Reader& reader, ondemand::value& value, T& out) {
    if constexpr (requires { collectcall_read(reader, value, out); }) {
        return collectcall_read(reader, value, out);
    } else if constexpr (is_optional_v<T> || is_patch_v<T>) {
        // Only null starts with 'n' (what else does is malformed, which scalar_token reports).
        if (*Reader::token_start(value) == 'n') {
            reader.scalar_token(value, ondemand::json_type::null);
            if constexpr (is_optional_v<T>) {
                out.reset();
            } else {
                out.set_null();
            }
            return true;
        }
        if constexpr (is_optional_v<T>) {
            // Read in place: no temporary to move from (and no stall reloading it).
            if (!out.has_value()) {
                if constexpr (Described<typename T::value_type>) {
                    out.emplace(detail::Unfilled{});
                } else {
                    out.emplace();
                }
            }
            if (read_value(reader, value, *out)) return true;
            out.reset();
            return false;
        } else {
            typename T::value_type inner{};
            if (!read_value(reader, value, inner)) {
                out.reset();
                return false;
            }
            out = std::move(inner);
            return true;
        }
    } else if constexpr (std::is_same_v<T, NotAllowed>) {
        reader.skip(value);
        reader.error(codes::not_allowed, "cannot be set");
        return false;
    } else if constexpr (detail::from_json_string<T>) {
        auto text = reader.string(value);
        if (!text) return false;
        return detail::convert_string(
            *text, reader.options(), out,
            [&](std::string_view code, std::string_view message) { reader.error(code, message); });
    } else if constexpr (NumberValue<T>) {
        if constexpr (detail::HasPlainNumbers<T>) {
            // The plain shape first (digits, maybe a point and digits: Money's 1234.56), which
            // is a JSON number whenever parse_plain accepts it: no type() and no grammar check.
            if (const char c = *Reader::token_start(value); c >= '0' && c <= '9') {
                const std::string_view token = detail::trim_json_space(value.raw_json_token());
                if (std::optional<T> plain = T::parse_plain(token)) {
                    out = *plain;
                    return true;
                }
            }
        }
        auto token = reader.number_token(value);
        if (!token) return false;
        return detail::convert_number(
            *token, out,
            [&](std::string_view code, std::string_view message) { reader.error(code, message); });
    } else if constexpr (std::is_same_v<T, bool>) {
        ondemand::json_type t = reader.type_of(value);
        if (t != ondemand::json_type::boolean) {
            reader.type_error(value, t, "must be true or false");
            return false;
        }
        out = Reader::is_literal(reader.scalar_token(value, t), "true");
        return true;
    } else if constexpr (std::is_same_v<T, null_t>) {
        ondemand::json_type t = reader.type_of(value);
        if (t != ondemand::json_type::null) {
            reader.type_error(value, t, "must be null");
            return false;
        }
        reader.scalar_token(value, t);
        return true;
    } else if constexpr (detail::Integer<T>) {
        return detail::read_integer(reader, value, out);
    } else if constexpr (is_bounded_vector_v<T>) {
        return detail::read_array<typename T::value_type, T>(reader, value, out);
    } else if constexpr (detail::is_vector<T>::value) {
        return detail::read_array(reader, value, out);
    } else if constexpr (Described<T>) {
        return detail::read_object(reader, value, out);
    } else {
        static_assert(sizeof(T) == 0,
                      "collectcall cannot read this type: describe it with BOOST_DESCRIBE_STRUCT, "
                      "meet StringValue/NumberValue, or provide collectcall_read found by ADL");
        return false;
    }
}

namespace detail {

// Where a JSON string's text stops: the first '"', '\\' or control character from `p` (`end`
// when there is none before it); `high` is set when a byte above 0x7F comes first. The vector
// forms read up to 63 bytes past `end`, which the padding of the document's buffer allows. One
// form per instruction set, each tested against the scalar one (tests/core/fast_pass.cpp).
COLLECTCALL_HOT const char* scan_string_scalar(const char* p, const char* end,
                                               bool& high) noexcept {
    for (; p < end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\' || c < 0x20) return p;
        high = high || c >= 0x80;
    }
    return end;
}
#if defined(__SSE2__)
COLLECTCALL_HOT const char* scan_string_sse2(const char* p, const char* end, bool& high) noexcept {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i controls = _mm_set1_epi8(0x1F);
    for (; p < end; p += 16) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(c, controls), c);
        const auto stops = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(c, quote), _mm_cmpeq_epi8(c, backslash)), control)));
        const auto highs = static_cast<unsigned>(_mm_movemask_epi8(c));
        if (stops != 0) {
            const auto at = static_cast<unsigned>(std::countr_zero(stops));
            high = high || (highs & ((1U << at) - 1)) != 0;
            return p + at < end ? p + at : end;
        }
        high = high || highs != 0;
    }
    return end;
}
#endif
COLLECTCALL_HOT const char* scan_string(const char* p, const char* end, bool& high) noexcept {
#if defined(__SSE2__)
    return scan_string_sse2(p, end, high);
#else
    return scan_string_scalar(p, end, high);
#endif
}

// The fast pass. Most documents are valid and written without escapes, with their members in
// declaration order or near it. Such a document is read straight from its bytes, without
// simdjson's index: each key compared in place with the member it names (member_lookup, as the
// full pass does), each value scanned once and converted by the same functions as in the full
// pass (convert_string, convert_number), each required member and each cross-field rule checked
// the same way. At the first thing it does not take (any problem at all, an escape, an unknown or
// repeated key, a type without a fast form, nesting past max_depth, a container past its bound)
// it gives up, and the document is read again from the start by the full pass, which reports
// every error. The fast pass reports none: a document's errors are always those of the full
// pass, and a document it takes is one the full pass takes, with the same value.
//
// What it takes is JSON (RFC 8259): it checks the grammar of everything it reads, refuses control
// characters in strings, and checks a string with a byte above 0x7F for UTF-8. Every scan is
// bounded by the end of the text; the wide loads read up to 63 bytes past it, which the padding
// of the document's buffer allows.
class FastReader {
  public:
    FastReader(const char* begin, const char* end, const ReadOptions& options, Reader& reader,
               std::string& scratch)
        : p_(begin), end_(end), options_(options), reader_(reader), scratch_(scratch) {}

    // Reads the whole text as one T followed only by white space.
    template <class T>
    bool document(T& out) {
        skip_space();
        if (!value(out)) return false;
        skip_space();
        return p_ == end_;
    }

    template <class T>
    bool value(T& out);

  private:
    [[nodiscard]] char peek() const noexcept { return p_ < end_ ? *p_ : '\0'; }
    void skip_space() noexcept {
        while (p_ < end_ && is_json_space(*p_))
            ++p_;
    }
    bool null_literal() noexcept {
        if (end_ - p_ < 4 || std::memcmp(p_, "null", 4) != 0) return false;
        p_ += 4;
        return true;
    }
    bool enter() noexcept { return ++depth_ <= options_.max_depth; }

    // What follows a member or an element: a comma and more, the container's `close`, or
    // anything else (which the fast pass does not take).
    enum class After { more, closed, wrong };
    COLLECTCALL_HOT After after_value(char close) noexcept {
        skip_space();
        const char next = peek();
        ++p_;
        if (next == ',') {
            skip_space();
            return After::more;
        }
        return next == close ? After::closed : After::wrong;
    }
    void leave() noexcept { --depth_; }

    // A string, at its opening quote: where it lies when it has no escapes, else unescaped into
    // the thread's buffer (valid until the next string with escapes).
    COLLECTCALL_HOT std::optional<std::string_view> string() {
        const char* text = p_ + 1;
        bool high = false;
        const char* stop = scan_string(text, high);
        if (stop == end_) return std::nullopt;
        if (*stop != '"') [[unlikely]]
            return unescaped(text, stop, high);
        const std::string_view content(text, static_cast<std::size_t>(stop - text));
        if (high && !valid_utf8(content)) return std::nullopt;
        p_ = stop + 1;
        return content;
    }

    // The rest of string(): from `text`, stopped at `stop` by a backslash or a control character.
    COLLECTCALL_OUT_OF_LINE std::optional<std::string_view> unescaped(const char* text,
                                                                      const char* stop, bool high) {
        std::string& out = scratch_;
        out.assign(text, stop);
        while (stop < end_ && *stop == '\\') {
            if (end_ - stop < 2) return std::nullopt;
            const char* at = stop + 2;
            switch (stop[1]) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    std::uint32_t code = 0;
                    if (!hex4(stop + 2, code)) return std::nullopt;
                    at = stop + 6;
                    if (code >= 0xD800 && code <= 0xDBFF) {  // a high surrogate: its low one next
                        std::uint32_t low = 0;
                        if (end_ - at < 6 || at[0] != '\\' || at[1] != 'u' || !hex4(at + 2, low) ||
                            low < 0xDC00 || low > 0xDFFF)
                            return std::nullopt;
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        at += 6;
                    } else if (code >= 0xDC00 && code <= 0xDFFF) {
                        return std::nullopt;  // a low surrogate alone
                    }
                    append_utf8(out, code);
                    break;
                }
                default:
                    return std::nullopt;
            }
            const char* next = scan_string(at, high);
            if (next == end_) return std::nullopt;
            out.append(at, next);
            stop = next;
        }
        if (stop == end_ || *stop != '"') return std::nullopt;  // a control character
        // The bytes above 0x7F are the text's own (an escape writes valid UTF-8).
        if (high && !valid_utf8(out)) return std::nullopt;
        p_ = stop + 1;
        return std::string_view(out);
    }

    static bool valid_utf8(std::string_view text) noexcept {
        return text.size() <= 64 ? is_utf8(text)
                                 : simdjson::validate_utf8(text.data(), text.size());
    }

    bool hex4(const char* at, std::uint32_t& code) const noexcept {
        if (end_ - at < 4) return false;
        for (int i = 0; i < 4; ++i) {
            const char c = at[i];
            std::uint32_t digit = 0;
            if (c >= '0' && c <= '9') {
                digit = static_cast<std::uint32_t>(c - '0');
            } else if (c >= 'a' && c <= 'f') {
                digit = static_cast<std::uint32_t>(c - 'a' + 10);
            } else if (c >= 'A' && c <= 'F') {
                digit = static_cast<std::uint32_t>(c - 'A' + 10);
            } else {
                return false;
            }
            code = code << 4 | digit;
        }
        return true;
    }

    static void append_utf8(std::string& out, std::uint32_t code) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | code >> 6);
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | code >> 12);
            out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | code >> 18);
            out += static_cast<char>(0x80 | (code >> 12 & 0x3F));
            out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    COLLECTCALL_HOT const char* scan_string(const char* p, bool& high) const noexcept {
        return detail::scan_string(p, end_, high);
    }

    // The text of what may be a number: the bytes a JSON number can hold, up to the first other
    // one (its grammar is for the caller to check).
    std::string_view number() noexcept {
        const char* start = p_;
        while (p_ < end_ && ((*p_ >= '0' && *p_ <= '9') || *p_ == '.' || *p_ == '-' || *p_ == '+' ||
                             *p_ == 'e' || *p_ == 'E'))
            ++p_;
        return std::string_view(start, static_cast<std::size_t>(p_ - start));
    }

    template <class T>
    bool object(T& out);
    template <class T, class Bound>
    bool array(std::vector<T>& out);

    template <class T, std::size_t I>
    static bool member(FastReader& fast, T& out) {
        using D = boost::mp11::mp_at_c<described_members<T>, I>;
        return fast.value(out.*D::pointer);
    }
    template <class T>
    static constexpr auto members = []<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<bool (*)(FastReader&, T&), sizeof...(I)>{&member<T, I>...};
    }
    (std::make_index_sequence<boost::mp11::mp_size<described_members<T>>::value>{});

    const char* p_;
    const char* end_;
    const ReadOptions& options_;
    Reader& reader_;        // for a cross-field rule's verdict
    std::string& scratch_;  // where strings with escapes are unescaped
    std::size_t depth_ = 0;
};

template <class T>
bool FastReader::value(T& out) {
    if constexpr (requires(Reader & r, ondemand::value & v) { collectcall_read(r, v, out); }) {
        // A type with a reader of its own takes the fast pass only if it says how.
        if constexpr (requires { collectcall_read_fast(*this, out); }) {
            return collectcall_read_fast(*this, out);
        } else {
            return false;
        }
    } else if constexpr (is_optional_v<T>) {
        if (peek() == 'n') {
            if (!null_literal()) return false;
            out.reset();
            return true;
        }
        if (!out.has_value()) {
            if constexpr (Described<typename T::value_type>) {
                out.emplace(Unfilled{});
            } else {
                out.emplace();
            }
        }
        return value(*out);
    } else if constexpr (from_json_string<T>) {
        if (peek() != '"') return false;
        const std::optional<std::string_view> text = string();
        return text && convert_string(*text, options_, out, [](auto&&...) {});
    } else if constexpr (NumberValue<T>) {
        const char c = peek();
        if (c != '-' && (c < '0' || c > '9')) return false;
        const std::string_view token = number();
        if constexpr (HasPlainNumbers<T>) {
            // parse_plain takes only JSON numbers (value_type.hpp): no grammar check first.
            if (std::optional<T> plain = T::parse_plain(token)) {
                out = *plain;
                return true;
            }
        }
        return is_json_number(token) && convert_number(token, out, [](auto&&...) {});
    } else if constexpr (is_bounded_vector_v<T>) {
        return array<typename T::value_type, T>(out);
    } else if constexpr (is_vector<T>::value) {
        if constexpr (std::is_same_v<typename T::value_type, bool>) {
            return false;  // vector<bool> hands out proxies: the full pass
        } else {
            return array<typename T::value_type, void>(out);
        }
    } else if constexpr (Described<T>) {
        return object(out);
    } else {
        return false;  // the rest (Patch, NotAllowed, integers, booleans, null): the full pass
    }
}

template <class T>
bool FastReader::object(T& out) {
    using Members = described_members<T>;
    using Lookup = member_lookup<T>;
    constexpr std::size_t n = boost::mp11::mp_size<Members>::value;
    if constexpr (n > 64) {
        return false;  // more members than the bit sets below hold
    } else {
        if (peek() != '{' || !enter()) return false;
        ++p_;
        skip_space();
        std::uint64_t seen = 0;
        std::uint64_t nulls = 0;
        MemberHint hint;
        if (peek() == '}') {
            ++p_;
        } else {
            while (true) {
                if (peek() != '"') return false;
                const char* raw = p_ + 1;
                const std::size_t expected = hint.expected();
                const std::size_t i =
                    expected < n && Lookup::is(raw, expected) ? expected : Lookup::by_raw_key(raw);
                if (i == n) return false;  // unknown, or a key with escapes
                const std::uint64_t bit = std::uint64_t{1} << i;
                if ((seen & bit) != 0) return false;
                seen |= bit;
                p_ = raw + member_names<T>[i].size() + 1;
                if (p_ >= end_) return false;
                hint.saw(i);
                skip_space();
                if (peek() != ':') return false;
                ++p_;
                skip_space();
                if (peek() == 'n') nulls |= bit;
                if (!members<T>[i](*this, out)) return false;
                const After after = after_value('}');
                if (after == After::more) continue;
                if (after == After::closed) break;
                return false;
            }
        }
        leave();

        bool complete = true;
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto I) {
            using D = boost::mp11::mp_at_c<Members, decltype(I)::value>;
            using M = std::remove_cvref_t<decltype(out.*D::pointer)>;
            if ((seen & (std::uint64_t{1} << I)) == 0) {
                if constexpr (is_required_member_v<M>) complete = false;
                forget(out.*D::pointer);
            }
        });
        if (!complete) return false;

        if constexpr (requires(const MemberStates& states) {
                          collectcall_check(out, states, reader_);
                      }) {
            bool present[n + 1] = {};
            const bool failed[n + 1] = {};
            for (std::size_t i = 0; i < n; ++i)
                present[i] = ((seen & ~nulls) >> i & 1) != 0;
            const MemberStates states(member_names<T>.data(), n, present, failed);
            const std::size_t before = reader_.error_count();
            collectcall_check(out, states, reader_);
            if (reader_.error_count() != before) return false;
        }
        return true;
    }
}

template <class T, class Bound>
bool FastReader::array(std::vector<T>& out) {
    std::size_t max_items = std::numeric_limits<std::size_t>::max();
    if constexpr (!std::is_void_v<Bound>) max_items = Bound::max_items(options_);
    if (peek() != '[' || !enter()) return false;
    ++p_;
    // As read_array does: room for as many elements as the rest of the text could hold.
    if constexpr (!std::is_void_v<Bound>) {
        out.reserve(std::min(max_items, static_cast<std::size_t>(end_ - p_) / 2));
    }
    skip_space();
    std::size_t index = 0;
    if (peek() == ']') {
        ++p_;
    } else {
        while (true) {
            if (index == max_items) return false;
            if (!value(index < out.size() ? out[index] : out.emplace_back())) return false;
            ++index;
            const After after = after_value(']');
            if (after == After::more) continue;
            if (after == After::closed) break;
            return false;
        }
    }
    leave();
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(index), out.end());
    if constexpr (!std::is_void_v<Bound>) {
        if (index < Bound::min_items) return false;
    }
    return true;
}

}  // namespace detail

namespace detail {

// One parser and one padded buffer per thread, reused across documents.
struct ThreadState {
    ondemand::parser parser;
    std::unique_ptr<char[]> buffer;
    std::size_t capacity = 0;
    std::string unescaped;  // the fast pass's
};

inline ThreadState& thread_state() {
    thread_local ThreadState state;
    return state;
}

// A very large document's buffers (the padded copy, the parser's indexes: several times the
// document's size) are not kept for the life of the thread: they go when it has been read.
struct ReleaseLargeBuffers {
    static constexpr std::size_t kept = std::size_t{1} << 20;
    ThreadState& state;
    ~ReleaseLargeBuffers() {
        if (state.capacity > kept) {
            state.buffer.reset();
            state.capacity = 0;
        }
        if (state.parser.capacity() > kept) state.parser = ondemand::parser{};
        if (state.unescaped.capacity() > kept) std::string().swap(state.unescaped);
    }
};

inline ErrorList malformed_error(std::size_t offset, std::string_view what) {
    std::string message = "malformed JSON at byte " + std::to_string(offset) + ": ";
    message += what;
    return ErrorList{Error{"", std::string(codes::malformed_json), std::move(message)}};
}

// Where the text to parse lies: `buffer` holds `length` bytes of JSON and is readable up to
// `capacity` (at least SIMDJSON_PADDING more, the first of them NUL or white space, so that no
// token runs on past the end, and a container left open meets a byte that closes nothing). The
// caller's text is at `offset` in the buffer: the same bytes, or the same bytes wrapped in [ ].
struct Input {
    const char* buffer;
    std::size_t length;
    std::size_t capacity;
    std::size_t offset;
    std::size_t text_size;
    bool wrapped;
};

template <class T>
ErrorList read_input(ThreadState& state, const Input& input, const ReadOptions& options, T& out) {
    ondemand::document doc;
    const char* text = input.buffer + input.offset;
    Reader reader(text, options, &doc, text + input.text_size);
    if (options.fast_pass && !input.wrapped) {
        FastReader fast(text, text + input.text_size, options, reader, state.unescaped);
        if (fast.document(out)) return {};
        (void)reader.take_errors();  // a cross-field rule's, which the full pass reports again
    }
    if (auto e = state.parser.iterate(input.buffer, input.length, input.capacity).get(doc)) {
        return malformed_error(0, simdjson::error_message(e));
    }
    try {
        if (input.wrapped) {
            // Trailing content shows up as a second element or as text after the closing
            // bracket.
            ondemand::array root;
            if (auto e = doc.get_array().get(root)) reader.malformed(e);
            std::size_t count = 0;
            for (auto element_result : root) {
                if (auto e = element_result.error()) reader.malformed(e);
                ondemand::value&& element = std::move(element_result).value_unsafe();
                if (count++ != 0) {
                    reader.malformed(Reader::token_start(element), "trailing content");
                }
                read_value(reader, element, out);
            }
            if (count == 0) reader.malformed(text, "empty document");
        } else {
            // Not get_object(), which checks that the document's last token closes it: reading
            // stops at a container's bound without looking at the rest, however broken.
            ondemand::value root;
            if (auto e = doc.get_value().get(root)) reader.malformed(e);
            read_value(reader, root, out);
        }
        const char* rest = nullptr;
        if (doc.current_location().get(rest) == simdjson::SUCCESS) {
            reader.malformed(rest, "trailing content");
        }
    } catch (const detail::Malformed& m) {
        return malformed_error(std::min(m.offset, input.text_size), m.what);
    } catch (const detail::Stopped&) {
        return reader.take_errors();
    }
    return reader.take_errors();
}

// Reads `json` into `out`. `readable` is how many bytes from json.data() may be read (0 when
// unknown): with SIMDJSON_PADDING of them past the text, and the first of those ending any token
// (a std::string's NUL, a padded_string's zeros), an object or array is parsed where it lies.
// Anything else is copied first, into the thread's buffer.
template <class T>
ErrorList read_text(std::string_view json, std::size_t readable, const ReadOptions& options,
                    T& out) {
    ThreadState& state = thread_state();
    const ReleaseLargeBuffers release{state};  // after the document below is gone

    // "Today" is asked of the clock once per document, not once per date.
    const ReadOptions* resolved = &options;
    ReadOptions with_today;
    if (!options.today) {
        with_today = options;
        with_today.today = options.today_or_now();
        resolved = &with_today;
    }

    // An object or an array is a value simdjson hands out as it is; a scalar at the root is not
    // (simdjson 3.0), so it is read as the one element of the document wrapped in [ ].
    std::size_t first = 0;
    while (first < json.size() && is_json_space(json[first]))
        ++first;
    const bool container = first < json.size() && (json[first] == '{' || json[first] == '[');
    if (container && readable >= json.size() + simdjson::SIMDJSON_PADDING) {
        const char after = json.data()[json.size()];
        if (after == '\0' || is_json_space(after)) {
            const Input input{json.data(), json.size(), readable, 0, json.size(), false};
            return read_input(state, input, *resolved, out);
        }
    }
    const std::size_t offset = container ? 0 : 1;
    const std::size_t length = json.size() + 2 * offset;
    const std::size_t needed = length + simdjson::SIMDJSON_PADDING;
    if (needed > state.capacity) {
        state.buffer = std::make_unique<char[]>(needed);
        state.capacity = needed;
    }
    char* buffer = state.buffer.get();
    // An empty view may have a null data(), which memcpy must not be given even for 0 bytes.
    if (!json.empty()) std::memcpy(buffer + offset, json.data(), json.size());
    if (!container) {
        buffer[0] = '[';
        buffer[length - 1] = ']';
    }
    std::memset(buffer + length, 0, simdjson::SIMDJSON_PADDING);
    const Input input{buffer, length, needed, offset, json.size(), !container};
    return read_input(state, input, *resolved, out);
}

template <class T>
Result<T> read_result(std::string_view json, std::size_t readable, const ReadOptions& options) {
    // One object returned on every path, so that it is constructed in the caller (NRVO).
    Result<T> result = [] {
        if constexpr (Described<T>) {
            return Result<T>(std::in_place, Unfilled{});
        } else {
            return Result<T>(std::in_place);
        }
    }();
    ErrorList errors = read_text(json, readable, options, result.value());
    if (!errors.empty()) result.set_errors(std::move(errors));
    return result;
}

}  // namespace detail

// Reads and validates a T from JSON text. On success the value satisfies every rule of its type,
// including cross-field rules; otherwise every error of the document is returned.
//
// The text is copied into a padded buffer of the thread's first. Text that is already padded is
// read where it lies: a simdjson::padded_string, a padded_string_view, or a std::string whose
// capacity leaves SIMDJSON_PADDING (64) bytes past its size (`s.reserve(s.size() + 64)`).
template <class T>
Result<T> read(std::string_view json, const ReadOptions& options = {}) {
    return detail::read_result<T>(json, 0, options);
}
template <class T>
Result<T> read(simdjson::padded_string_view json, const ReadOptions& options = {}) {
    return detail::read_result<T>(json, json.capacity(), options);
}
template <class T>
Result<T> read(const simdjson::padded_string& json, const ReadOptions& options = {}) {
    return detail::read_result<T>(json, json.size() + simdjson::SIMDJSON_PADDING, options);
}
template <class T, class String>
requires std::same_as<String, std::string> Result<T> read(const String& json,
                                                          const ReadOptions& options = {}) {
    return detail::read_result<T>(json, json.capacity(), options);
}

// Reads a T into `out`, which keeps the storage its strings and vectors already own: reading
// document after document into one object allocates only when a document needs more than any
// before it. The errors are those read<T> would return (none when the document is valid). On
// success `out` is the value read<T> would return; on failure it is valid but unspecified, except
// that a Validated<T> inside holds what read<T> would put there. The same inputs as read<T>.
template <class T>
[[nodiscard]] ErrorList read_into(std::string_view json, T& out, const ReadOptions& options = {}) {
    return detail::read_text(json, 0, options, out);
}
template <class T>
[[nodiscard]] ErrorList read_into(simdjson::padded_string_view json, T& out,
                                  const ReadOptions& options = {}) {
    return detail::read_text(json, json.capacity(), options, out);
}
template <class T>
[[nodiscard]] ErrorList read_into(const simdjson::padded_string& json, T& out,
                                  const ReadOptions& options = {}) {
    return detail::read_text(json, json.size() + simdjson::SIMDJSON_PADDING, options, out);
}
template <class T, class String>
requires std::same_as<String, std::string>
[[nodiscard]] ErrorList read_into(const String& json, T& out, const ReadOptions& options = {}) {
    return detail::read_text(json, json.capacity(), options, out);
}

}  // namespace collectcall
