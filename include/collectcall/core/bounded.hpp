// BoundedVector<T, Min, Max>: a std::vector whose length read<T> enforces while it reads.
//
// The element past the bound is never built: read<T> reports one `length` error at the array
// and stops reading the document there, so that a hostile array of millions of elements costs no
// more memory than `Max` elements. An array shorter than `Min` is the same `length` error, at its
// end. `Max` is either a number or a pointer to a std::size_t member of ReadOptions, which makes
// the bound configurable per read (the example server's --max-bulk-items); the JSON Schema
// publishes minItems and the default of maxItems.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "collectcall/core/inlining.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

namespace detail {

// The message of a BoundedVector's `length` error, for every bound.
COLLECTCALL_COLD inline std::string length_message(std::size_t min, std::size_t max) {
    std::string message = min == 0 ? "must have at most " : "must have ";
    if (min != 0) {
        message += std::to_string(min);
        message += " to ";
    }
    message += std::to_string(max);
    message += " items";
    return message;
}

}  // namespace detail

template <class T, std::size_t Min, auto Max>
class BoundedVector : public std::vector<T> {
  public:
    using std::vector<T>::vector;

    static constexpr std::size_t min_items = Min;

    // The most elements read<T> accepts with these options.
    [[nodiscard]] static std::size_t max_items(const ReadOptions& options) noexcept {
        if constexpr (std::is_member_object_pointer_v<decltype(Max)>) {
            return options.*Max;
        } else {
            return static_cast<std::size_t>(Max);
        }
    }
    [[nodiscard]] static std::size_t default_max_items() noexcept {
        return max_items(ReadOptions{});
    }

    // The message of the `length` error: "must have 1 to 1000 items".
    [[nodiscard]] static std::string length_message(std::size_t max) {
        return detail::length_message(Min, max);
    }
};

template <class T>
struct is_bounded_vector : std::false_type {};
template <class T, std::size_t Min, auto Max>
struct is_bounded_vector<BoundedVector<T, Min, Max>> : std::true_type {};
template <class T>
inline constexpr bool is_bounded_vector_v = is_bounded_vector<T>::value;

}  // namespace collectcall
