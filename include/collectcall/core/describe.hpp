// The traits read, write, merge_patch and schema share: the described members of a struct (one
// spelling of them, bases first), a member's JSON name by pointer, and which types are vectors.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/bases.hpp>
#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

namespace collectcall {

namespace detail {

// Converts to any member's type, for counting the members of an aggregate by how many
// initialisers it takes (a reference, so that a member with a converting constructor is not
// ambiguous between that constructor and this conversion).
struct any_member {
    template <class M>
    constexpr operator M&() const noexcept;  // NOLINT(google-explicit-constructor): never called
};

template <class T, std::size_t... I>
constexpr bool initialisable_with(std::index_sequence<I...>) {
    return requires {
        T{(static_cast<void>(I), any_member{})...};
    };
}

// Whether the description of T names every data member: an aggregate takes one initialiser for
// each base and each member, so it takes no more than its described ones. A member left out of
// BOOST_DESCRIBE_STRUCT would be silently absent from JSON, its schema and merges.
template <class T>
constexpr bool describes_every_member() {
    if constexpr (!std::is_aggregate_v<T>) {
        return true;  // a class with constructors describes what its constructors take
    } else {
        constexpr std::size_t fields =
            boost::mp11::mp_size<
                boost::describe::describe_members<T, boost::describe::mod_public>>::value +
            boost::mp11::mp_size<
                boost::describe::describe_bases<T, boost::describe::mod_public>>::value;
        return !initialisable_with<T>(std::make_index_sequence<fields + 1>{});
    }
}

template <class T>
struct checked_members {
    static_assert(describes_every_member<T>(),
                  "a data member of this struct is missing from its BOOST_DESCRIBE_STRUCT");
    using type = boost::describe::describe_members<T, boost::describe::mod_public |
                                                          boost::describe::mod_inherited>;
};

}  // namespace detail

// Every public data member of a described struct, bases first. Naming them checks at compile time
// that the description has every one (detail::describes_every_member).
template <class T>
using described_members = typename detail::checked_members<T>::type;

template <class T>
concept Described = boost::describe::has_describe_members<T>::value;

// std::vector<T> (a BoundedVector is told apart by is_bounded_vector_v, bounded.hpp).
template <class T>
inline constexpr bool is_vector_v = false;
template <class T, class A>
inline constexpr bool is_vector_v<std::vector<T, A>> = true;

namespace detail {
template <class P>
struct member_pointer_class;
template <class C, class M>
struct member_pointer_class<M C::*> {
    using type = C;
};

// The name a member is known by in JSON, indexed like described_members<T>.
template <class T>
inline constexpr auto member_names = []<template <class...> class L, class... D>(L<D...>) {
    return std::array<std::string_view, sizeof...(D)>{std::string_view(D::name)...};
}(described_members<T>{});
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

}  // namespace collectcall
