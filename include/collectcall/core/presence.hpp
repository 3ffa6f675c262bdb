// Presence of members: std::optional<T> is "absent or null"; Patch<T> keeps absent, null and a
// value apart (a merge patch needs all three, and a writer omits an absent member).
#pragma once

#include <optional>
#include <type_traits>
#include <utility>

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

}  // namespace collectcall
