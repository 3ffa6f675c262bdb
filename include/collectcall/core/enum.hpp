// Closed sets of names on the wire (a call's status, an event's type, a check's id) as C++
// enums described once with BOOST_DESCRIBE_ENUM. read<T>, write and json_schema<T> handle every
// described enum: on the wire it is a string, the enumerator's name in kebab case
// (`in_progress` <-> "in-progress"), and its schema is {"type": "string", "enum": [...]}.
//
//     enum class CallStatus { in_progress, completed, canceled };
//     BOOST_DESCRIBE_ENUM(CallStatus, in_progress, completed, canceled)
//
//     collectcall::enum_name(CallStatus::in_progress)       // "in-progress"
//     collectcall::enum_from_name<CallStatus>("completed")  // CallStatus::completed
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>

namespace collectcall {

template <class E>
concept DescribedEnum = std::is_enum_v<E> && boost::describe::has_describe_enumerators<E>::value;

namespace detail {

// The kebab-case spelling of one enumerator's name, with room for its terminating zero.
template <class D>
struct kebab_name {
    static constexpr std::size_t size = std::char_traits<char>::length(D::name);
    static constexpr std::array<char, size + 1> text = [] {
        std::array<char, size + 1> out{};
        for (std::size_t i = 0; i < size; ++i)
            out[i] = D::name[i] == '_' ? '-' : D::name[i];
        return out;
    }();
};

template <class E>
struct enum_table {
    using list = boost::describe::describe_enumerators<E>;
    static constexpr auto values = []<template <class...> class L, class... D>(L<D...>) {
        return std::array<E, sizeof...(D)>{D::value...};
    }(list{});
    static constexpr auto names = []<template <class...> class L, class... D>(L<D...>) {
        return std::array<std::string_view, sizeof...(D)>{
            std::string_view(kebab_name<D>::text.data(), kebab_name<D>::size)...};
    }(list{});
};

}  // namespace detail

// Every enumerator of E in declaration order, and their wire names in the same order.
template <DescribedEnum E>
inline constexpr const auto& enum_values = detail::enum_table<E>::values;
template <DescribedEnum E>
inline constexpr const auto& enum_names = detail::enum_table<E>::names;

// The wire name of `value`; empty for a value that is not one of E's enumerators.
template <DescribedEnum E>
[[nodiscard]] constexpr std::string_view enum_name(E value) noexcept {
    for (std::size_t i = 0; i < enum_values<E>.size(); ++i) {
        if (enum_values<E>[i] == value) return enum_names<E>[i];
    }
    return {};
}

// The enumerator a wire name names, if any (exact match, case-sensitive).
template <DescribedEnum E>
[[nodiscard]] constexpr std::optional<E> enum_from_name(std::string_view name) noexcept {
    for (std::size_t i = 0; i < enum_names<E>.size(); ++i) {
        if (enum_names<E>[i] == name) return enum_values<E>[i];
    }
    return std::nullopt;
}

// "must be one of a, b, c": what read<T> reports for a string that names no enumerator.
template <DescribedEnum E>
[[nodiscard]] std::string enum_expectation() {
    std::string out = "must be one of ";
    for (std::size_t i = 0; i < enum_names<E>.size(); ++i) {
        if (i != 0) out += ", ";
        out += enum_names<E>[i];
    }
    return out;
}

}  // namespace collectcall
