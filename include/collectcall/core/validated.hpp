// Validated<T>: a T read on its own. Its errors stay with it instead of failing the enclosing
// document, so that one bad item of a bulk request does not reject the others. Both passes of
// the reader read it as a kind of its own (read/kind.hpp).
#pragma once

#include <string>
#include <utility>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/core/write.hpp"

namespace collectcall {

namespace detail {
struct ValidatedAccess;
}  // namespace detail

template <class T>
class Validated {
  public:
    Validated() = default;
    explicit Validated(T value) : value_(std::move(value)) {}
    // The value made from `init` where it lies (the reader makes it without clearing it first,
    // as read<T> makes its result).
    template <class Init>
    Validated(std::in_place_t, Init&& init) : value_(std::forward<Init>(init)) {}

    [[nodiscard]] bool ok() const noexcept { return errors_.empty(); }
    // Every member that was valid is set, even when ok() is false (e.g. the externalId of an
    // item that failed for another reason).
    [[nodiscard]] const T& value() const noexcept { return value_; }
    [[nodiscard]] T& value() noexcept { return value_; }
    // Paths are relative to the item.
    [[nodiscard]] const ErrorList& errors() const& noexcept { return errors_; }
    [[nodiscard]] ErrorList&& errors() && noexcept { return std::move(errors_); }
    // A rule only the reader's caller can judge failed (an id that must name a stored record):
    // the item is invalid from then on, with this error after those reading found.
    void add_error(Error error) { errors_.push_back(std::move(error)); }

    friend bool operator==(const Validated&, const Validated&) = default;

    friend void collectcall_write(Writer& writer, const Validated& v) {
        write_value(writer, v.value_);
    }

  private:
    friend struct detail::ValidatedAccess;
    T value_{};
    ErrorList errors_;
};

namespace detail {

// What the reader fills in a Validated<T>.
struct ValidatedAccess {
    template <class T>
    static T& value(Validated<T>& v) noexcept {
        return v.value_;
    }
    template <class T>
    static ErrorList& errors(Validated<T>& v) noexcept {
        return v.errors_;
    }
};

}  // namespace detail

// An item read on its own has the schema of the item: a client sends only valid items.
template <class T, class Schema>
void collectcall_schema(schema_tag<Validated<T>>, Schema& s) {
    s.schema() = s.template schema_of<T>();
}

}  // namespace collectcall
