// The entry points of reading: read<T> and read_into over the ways a text may come (a string
// view, a padded string, a std::string with room past its end), the thread's parser and buffer,
// and the order of the two passes over one document.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "collectcall/core/describe.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/read/entry_points.hpp"
#include "collectcall/core/read/fast_pass.hpp"
#include "collectcall/core/read/full_pass.hpp"
#include "collectcall/core/read/members.hpp"
#include "collectcall/core/read/reader.hpp"
#include "collectcall/core/read/scan.hpp"
#include "collectcall/core/read/simdjson.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

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

COLLECTCALL_COLD inline ErrorList malformed_error(std::size_t offset, std::string_view what) {
    std::string message = "malformed JSON at byte ";
    message += std::to_string(offset);
    message += ": ";
    message += what;
    ErrorList errors(1);
    errors.front().code = codes::malformed_json;
    errors.front().message = std::move(message);
    return errors;
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

// The full pass over one document, the same code for every type: `read` reads the root value
// into `out`. `doc` and `reader` are read_input's.
using ReadRoot = bool (*)(Reader&, ondemand::value&, void* out);
COLLECTCALL_OUT_OF_LINE inline ErrorList full_pass(ThreadState& state, const Input& input,
                                                   ondemand::document& doc, Reader& reader,
                                                   ReadRoot read, void* out) {
    const char* text = input.buffer + input.offset;
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
                read(reader, element, out);
            }
            if (count == 0) reader.malformed(text, "empty document");
        } else {
            // Not get_object(), which checks that the document's last token closes it: reading
            // stops at a container's bound without looking at the rest, however broken.
            ondemand::value root;
            if (auto e = doc.get_value().get(root)) reader.malformed(e);
            read(reader, root, out);
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

template <class T>
bool read_root(Reader& reader, ondemand::value& value, void* out) {
    return read_value(reader, value, *static_cast<T*>(out));
}

// The fast pass, then the full pass when it gives up.
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
    return full_pass(state, input, doc, reader, &read_root<T>, &out);
}

// Where `json` is parsed from. `readable` is how many bytes from json.data() may be read (0 when
// unknown): with SIMDJSON_PADDING of them past the text, and the first of those ending any token
// (a std::string's NUL, a padded_string's zeros), an object or array is parsed where it lies.
// Anything else is copied first, into the thread's buffer.
inline Input place_input(ThreadState& state, std::string_view json, std::size_t readable) {
    // An object or an array is a value simdjson hands out as it is; a scalar at the root is not
    // (simdjson 3.0), so it is read as the one element of the document wrapped in [ ].
    std::size_t first = 0;
    while (first < json.size() && is_json_space(json[first]))
        ++first;
    const bool container = first < json.size() && (json[first] == '{' || json[first] == '[');
    if (container && readable >= json.size() + simdjson::SIMDJSON_PADDING) {
        const char after = json.data()[json.size()];
        if (after == '\0' || is_json_space(after)) {
            return Input{json.data(), json.size(), readable, 0, json.size(), false};
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
    return Input{buffer, length, needed, offset, json.size(), !container};
}

// Reads `json` into `out`; `readable` as place_input takes it.
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
    return read_input(state, place_input(state, json, readable), *resolved, out);
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

// The entry points declared by read/entry_points.hpp.
template <class T>
Result<T> read(std::string_view json, const ReadOptions& options) {
    return detail::read_result<T>(json, 0, options);
}
template <class T>
Result<T> read(simdjson::padded_string_view json, const ReadOptions& options) {
    return detail::read_result<T>(json, json.capacity(), options);
}
template <class T>
Result<T> read(const simdjson::padded_string& json, const ReadOptions& options) {
    return detail::read_result<T>(json, json.size() + simdjson::SIMDJSON_PADDING, options);
}
template <class T, class String>
requires std::same_as<String, std::string> Result<T> read(const String& json,
                                                          const ReadOptions& options) {
    return detail::read_result<T>(json, json.capacity(), options);
}

template <class T>
ErrorList read_into(std::string_view json, T& out, const ReadOptions& options) {
    return detail::read_text(json, 0, options, out);
}
template <class T>
ErrorList read_into(simdjson::padded_string_view json, T& out, const ReadOptions& options) {
    return detail::read_text(json, json.capacity(), options, out);
}
template <class T>
ErrorList read_into(const simdjson::padded_string& json, T& out, const ReadOptions& options) {
    return detail::read_text(json, json.size() + simdjson::SIMDJSON_PADDING, options, out);
}
template <class T, class String>
requires std::same_as<String, std::string> ErrorList read_into(const String& json, T& out,
                                                               const ReadOptions& options) {
    return detail::read_text(json, json.capacity(), options, out);
}

}  // namespace collectcall
