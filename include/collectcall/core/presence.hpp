// Presence of members: std::optional<T> is "absent or null"; Patch<T> keeps absent, null and a
// value apart (a merge patch needs all three, and a writer omits an absent member).
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

#include "collectcall/core/schema_tag.hpp"

namespace collectcall {

struct null_t {
    friend bool operator==(null_t, null_t) = default;
};
inline constexpr null_t null{};

template <class T>
class Patch {
  public:
    using value_type = T;
    enum class State : unsigned char { absent, null, value };

    Patch() = default;
    Patch(null_t) : state_(State::null) {}                              // NOLINT
    Patch(T value) : state_(State::value), value_(std::move(value)) {}  // NOLINT

    [[nodiscard]] State state() const noexcept { return state_; }
    [[nodiscard]] bool absent() const noexcept { return state_ == State::absent; }
    [[nodiscard]] bool is_null() const noexcept { return state_ == State::null; }
    [[nodiscard]] bool has_value() const noexcept { return state_ == State::value; }

    // Precondition: has_value().
    [[nodiscard]] T& value() { return *value_; }
    [[nodiscard]] const T& value() const { return *value_; }
    T* operator->() { return &*value_; }
    const T* operator->() const { return &*value_; }
    T& operator*() { return *value_; }
    const T& operator*() const { return *value_; }

    void reset() noexcept { state_ = State::absent, value_.reset(); }
    void set_null() noexcept { state_ = State::null, value_.reset(); }
    T& emplace(T value) {
        state_ = State::value;
        return value_.emplace(std::move(value));
    }

    friend bool operator==(const Patch&, const Patch&) = default;

  private:
    State state_ = State::absent;
    std::optional<T> value_;
};

// A member that must not appear in a body (e.g. `externalId` in a PATCH): any value there is a
// `not_allowed` error, and it is never written.
struct NotAllowed {
    friend bool operator==(NotAllowed, NotAllowed) = default;
};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
inline constexpr bool is_optional_v = is_optional<T>::value;

template <class T>
struct is_patch : std::false_type {};
template <class T>
struct is_patch<Patch<T>> : std::true_type {};
template <class T>
inline constexpr bool is_patch_v = is_patch<T>::value;

// Whether absence is a valid state of a member of type T: an optional, a Patch and NotAllowed.
template <class T>
inline constexpr bool absence_is_valid_v =
    is_optional_v<T> || is_patch_v<T> || std::is_same_v<T, NotAllowed>;

// The members of a described struct that read as their type's default when a document lacks
// them, though their types cannot be absent. An answer that an extension widened is declared so
// beside its definition, and then reads the answers of a service without the extension:
//
//     constexpr auto collectcall_defaulted(schema_tag<Customer>) {
//         return defaulted<&Customer::attorneyRepresented, &Customer::disputed>{};
//     }
//
// They are always written, and left out of the schema's `required`.
template <auto... Members>
struct defaulted {
    template <auto Member>
    static constexpr bool contains() {
        return (same_member<Member, Members>() || ...);
    }

  private:
    template <auto A, auto B>
    static constexpr bool same_member() {
        if constexpr (std::is_same_v<decltype(A), decltype(B)>) {
            return A == B;
        } else {
            return false;
        }
    }
};

template <class T>
concept HasDefaultedMembers = requires {
    collectcall_defaulted(schema_tag<T>{});
};

// Whether a document must have member D (a Boost.Describe descriptor) of struct T.
template <class T, class D>
inline constexpr bool is_required_member_v = [] {
    using M = std::remove_cvref_t<decltype(std::declval<T&>().*D::pointer)>;
    if constexpr (absence_is_valid_v<M>) {
        return false;
    } else if constexpr (HasDefaultedMembers<T>) {
        return !decltype(collectcall_defaulted(schema_tag<T>{}))::template contains<D::pointer>();
    } else {
        return true;
    }
}();

}  // namespace collectcall
