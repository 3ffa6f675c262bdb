// The traits read, write, merge_patch and schema share: the described members of a struct (one
// spelling of them, bases first), a member's JSON name by pointer, and which types are vectors.
#pragma once

#include <array>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

namespace collectcall {

// Every public data member of a described struct, bases first.
template <class T>
using described_members = boost::describe::describe_members<T, boost::describe::mod_public |
                                                                   boost::describe::mod_inherited>;

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
