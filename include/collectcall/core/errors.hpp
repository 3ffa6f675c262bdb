// Errors with RFC 6901 JSON Pointer paths, and the Result of reading a document.
#pragma once

#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>

namespace collectcall {

// Detail codes of API.md section 3, plus `malformed_json` for structural errors.
namespace codes {
inline constexpr std::string_view required = "required";
inline constexpr std::string_view type = "type";
inline constexpr std::string_view format = "format";
inline constexpr std::string_view minimum = "minimum";
inline constexpr std::string_view range = "range";
inline constexpr std::string_view length = "length";
inline constexpr std::string_view unknown_field = "unknown_field";
inline constexpr std::string_view duplicate_field = "duplicate_field";
inline constexpr std::string_view not_allowed = "not_allowed";
inline constexpr std::string_view not_found = "not_found";
inline constexpr std::string_view conflict = "conflict";
inline constexpr std::string_view malformed_json = "malformed_json";
// The last detail of a list that was cut short: it stands for the errors not shown.
inline constexpr std::string_view too_many_errors = "too_many_errors";
}  // namespace codes

// One problem with one place of a document. `path` is a JSON Pointer ("" is the whole document).
struct Error {
    std::string path;
    std::string code;
    std::string message;

    friend bool operator==(const Error&, const Error&) = default;
};
BOOST_DESCRIBE_STRUCT(Error, (), (path, code, message))

using ErrorList = std::vector<Error>;

// The detail that ends a bounded list (API.md section 3): {"path": "", "code":
// "too_many_errors", "message": "N more errors not shown"}.
inline Error too_many_errors_detail(std::size_t hidden) {
    return Error{"", std::string(codes::too_many_errors),
                 std::to_string(hidden) + " more errors not shown"};
}

// How many errors a list stands for: its details, counting a too_many_errors detail as the
// errors it hides.
inline std::size_t error_total(const ErrorList& errors) {
    if (errors.empty() || errors.back().code != codes::too_many_errors) return errors.size();
    const std::string& message = errors.back().message;
    std::size_t hidden = 0;
    std::from_chars(message.data(), message.data() + message.size(), hidden);
    return errors.size() - 1 + hidden;
}

// What a validator says about a value that is not acceptable. Codes and messages are static
// strings, so validating never allocates.
struct Problem {
    std::string_view code;
    std::string_view message;
};

// The outcome of validating one value: either a T or the Problem with it.
template <class T>
class Parsed {
  public:
    // Two overloads rather than one by value: that would copy a small value type once more.
    Parsed(const T& value) : value_(value) {}        // NOLINT: implicit by design
    Parsed(T&& value) : value_(std::move(value)) {}  // NOLINT: implicit by design
    Parsed(Problem problem) : problem_(problem) {}   // NOLINT: implicit by design

    [[nodiscard]] bool ok() const noexcept { return value_.has_value(); }
    explicit operator bool() const noexcept { return ok(); }
    [[nodiscard]] T& value() & { return *value_; }
    [[nodiscard]] const T& value() const& { return *value_; }
    [[nodiscard]] T&& value() && { return std::move(*value_); }
    [[nodiscard]] const Problem& problem() const noexcept { return problem_; }

  private:
    std::optional<T> value_;
    Problem problem_{};
};

// Appends one reference token to a JSON Pointer, escaping `~` as `~0` and `/` as `~1`.
inline void append_pointer_token(std::string& pointer, std::string_view token) {
    pointer += '/';
    for (char c : token) {
        if (c == '~') {
            pointer += "~0";
        } else if (c == '/') {
            pointer += "~1";
        } else {
            pointer += c;
        }
    }
}

inline void append_pointer_index(std::string& pointer, std::size_t index) {
    pointer += '/';
    pointer += std::to_string(index);
}

// The result of `read<T>`: a fully valid T, or every error found in the document.
template <class T>
class Result {
  public:
    // Two overloads rather than one by value: a result is built from a whole document's value,
    // and a by-value parameter would move it twice.
    explicit Result(const T& value) : value_(value) {}
    explicit Result(T&& value) : value_(std::move(value)) {}
    explicit Result(ErrorList errors) : errors_(std::move(errors)) {}
    // A T built from `args` (none: default-constructed) to fill in place (read<T> builds its
    // value inside the result, so that a whole document's value is never moved), and the way
    // back to errors.
    template <class... Args>
    explicit Result(std::in_place_t, Args&&... args)
        : value_(std::in_place, std::forward<Args>(args)...) {}
    void set_errors(ErrorList errors) {
        value_.reset();
        errors_ = std::move(errors);
    }

    [[nodiscard]] bool ok() const noexcept { return value_.has_value(); }
    explicit operator bool() const noexcept { return ok(); }

    // Precondition: ok().
    [[nodiscard]] T& value() & { return *value_; }
    [[nodiscard]] const T& value() const& { return *value_; }
    [[nodiscard]] T&& value() && { return std::move(*value_); }

    // Empty when ok().
    [[nodiscard]] const ErrorList& errors() const& noexcept { return errors_; }
    [[nodiscard]] ErrorList&& errors() && noexcept { return std::move(errors_); }

  private:
    std::optional<T> value_;
    ErrorList errors_;
};

}  // namespace collectcall
