// Reader: the state of the full pass over one document. The errors it reports (bounded, with
// error scopes for the parts whose errors stay apart), the path of the value being read (the
// JSON Pointer of each error, built only when one is kept), nesting depth, structural errors, and
// what every part of the full pass shares: the reads of scalars from simdjson's values and the
// loops over objects and arrays.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/function_ref.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/json_number.hpp"
#include "collectcall/core/read/scan.hpp"
#include "collectcall/core/read/simdjson.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

namespace ondemand = simdjson::ondemand;

namespace detail {

// Thrown only for structural errors; it unwinds to read<T>, which turns it into one error.
struct Malformed {
    std::size_t offset;
    std::string what;
};
// Thrown by Reader::stop(); read<T> answers with the errors reported so far.
struct Stopped {};

}  // namespace detail

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
    COLLECTCALL_COLD void error(std::string_view code, std::string_view message) {
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
    COLLECTCALL_COLD void error_at(std::size_t path_depth, std::string_view code,
                                   std::string_view message) {
        const std::size_t here = path_size_;
        path_size_ = std::min(path_depth, here);  // the segments below stay where they are
        error(code, message);
        path_size_ = here;
    }
    // Reports a problem with a member of the object being read.
    COLLECTCALL_COLD void member_error(std::string_view member, std::string_view code,
                                       std::string_view message) {
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
    [[noreturn]] COLLECTCALL_COLD void malformed(const char* where, std::string what) const {
        std::size_t offset = 0;
        if (where != nullptr && where > begin_) offset = static_cast<std::size_t>(where - begin_);
        throw detail::Malformed{offset, std::move(what)};
    }
    [[noreturn]] COLLECTCALL_COLD void malformed(simdjson::error_code code) const {
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
        if (++depth_ > options_.max_depth) [[unlikely]]
            too_deep(where);
    }
    void leave() noexcept { --depth_; }

    // The JSON type of a value; malformed tokens are structural errors.
    COLLECTCALL_OUT_OF_LINE ondemand::json_type type_of(ondemand::value& value) {
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
    COLLECTCALL_OUT_OF_LINE std::optional<std::string_view> string(ondemand::value& value) {
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
    COLLECTCALL_OUT_OF_LINE std::optional<std::string_view> number_token(ondemand::value& value) {
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
    COLLECTCALL_COLD void type_error(ondemand::value& value, ondemand::json_type t,
                                     std::string_view message) {
        skip(value, t);
        error(codes::type, message);
    }

    // The loops over a container, written once for every reader of one in the full pass (its
    // objects and arrays, skip, the read hook): each_member calls member(field) for each member
    // of the object `value` is, each_element element(value) for each element of the array; the
    // caller has checked the type. Nesting depth is counted; malformed JSON stops reading.
    COLLECTCALL_OUT_OF_LINE void each_member(ondemand::value& value,
                                             detail::FunctionRef<void(ondemand::field&)> member) {
        const char* where = token_start(value);
        ondemand::object object;
        if (auto e = value.get_object().get(object)) malformed(where, simdjson::error_message(e));
        enter(where);
        for (auto field_result : object) {
            // Used where it is rather than copied out with get(): the copy of a field just built
            // member by member stalls on store forwarding.
            if (auto e = field_result.error()) malformed(e);
            ondemand::field&& field = std::move(field_result).value_unsafe();
            member(field);
        }
        leave();
    }
    COLLECTCALL_OUT_OF_LINE void each_element(ondemand::value& value,
                                              detail::FunctionRef<void(ondemand::value&)> element) {
        const char* where = token_start(value);
        ondemand::array array;
        if (auto e = value.get_array().get(array)) malformed(where, simdjson::error_message(e));
        enter(where);
        for (auto element_result : array) {
            if (auto e = element_result.error()) malformed(e);
            ondemand::value&& item = std::move(element_result).value_unsafe();
            element(item);
        }
        leave();
    }

    // Walks a value that will not be kept, so that malformed JSON inside it is still found.
    void skip(ondemand::value& value) { skip(value, type_of(value)); }
    void skip(ondemand::value& value, ondemand::json_type t) {
        switch (t) {
            case ondemand::json_type::object: {
                auto member = [&](ondemand::field& field) {
                    std::string_view key;
                    if (auto e = field.unescaped_key().get(key)) malformed(e);
                    skip(field.value());
                };
                each_member(value, detail::FunctionRef<void(ondemand::field&)>(member));
                break;
            }
            case ondemand::json_type::array: {
                auto element = [&](ondemand::value& item) { skip(item); };
                each_element(value, detail::FunctionRef<void(ondemand::value&)>(element));
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
    [[noreturn]] COLLECTCALL_COLD void too_deep(const char* where) const {
        std::string what = "nesting deeper than ";
        what += std::to_string(options_.max_depth);
        malformed(where, std::move(what));
    }

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

}  // namespace collectcall
