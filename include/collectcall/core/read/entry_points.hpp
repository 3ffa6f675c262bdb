// The declarations of read<T> and read_into<T> (defined by read/entry.hpp), without simdjson: a
// model's header declares its reading for the price of these lines (core/readable.hpp).
#pragma once

#include <concepts>
#include <string>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/value_type.hpp"

namespace simdjson {
struct padded_string;
class padded_string_view;
}  // namespace simdjson

namespace collectcall {

// Reads and validates a T from JSON text. On success the value satisfies every rule of its type,
// including cross-field rules; otherwise every error of the document is returned.
//
// The text is copied into a padded buffer of the thread's first. Text that is already padded is
// read where it lies: a simdjson::padded_string, a padded_string_view, or a std::string whose
// capacity leaves SIMDJSON_PADDING (64) bytes past its size (`s.reserve(s.size() + 64)`).
template <class T>
Result<T> read(std::string_view json, const ReadOptions& options = {});
template <class T>
Result<T> read(simdjson::padded_string_view json, const ReadOptions& options = {});
template <class T>
Result<T> read(const simdjson::padded_string& json, const ReadOptions& options = {});
template <class T, class String>
requires std::same_as<String, std::string> Result<T> read(const String& json,
                                                          const ReadOptions& options = {});

// Reads a T into `out`, which keeps the storage its strings and vectors already own: reading
// document after document into one object allocates only when a document needs more than any
// before it. The errors are those read<T> would return (none when the document is valid). On
// success `out` is the value read<T> would return; on failure it is valid but unspecified, except
// that a Validated<T> inside holds what read<T> would put there. The same inputs as read<T>.
template <class T>
[[nodiscard]] ErrorList read_into(std::string_view json, T& out, const ReadOptions& options = {});
template <class T>
[[nodiscard]] ErrorList read_into(simdjson::padded_string_view json, T& out,
                                  const ReadOptions& options = {});
template <class T>
[[nodiscard]] ErrorList read_into(const simdjson::padded_string& json, T& out,
                                  const ReadOptions& options = {});
template <class T, class String>
requires std::same_as<String, std::string>
[[nodiscard]] ErrorList read_into(const String& json, T& out, const ReadOptions& options = {});

}  // namespace collectcall
