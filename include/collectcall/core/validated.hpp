// Validated<T>: a T read on its own. Its errors stay with it instead of failing the enclosing
// document, so that one bad item of a bulk request does not reject the others.
#pragma once

#include <string>
#include <utility>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"

namespace collectcall {

template <class T>
class Validated {
  public:
    Validated() = default;
    explicit Validated(T value) : value_(std::move(value)) {}

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

    friend bool collectcall_read(Reader& reader, ondemand::value& value, Validated& out) {
        const Reader::ErrorScope outer = reader.open_error_scope();
        read_value(reader, value, out.value_);
        out.errors_ = reader.close_error_scope(outer);
        if (!out.errors_.empty()) {
            // The path of the item itself, built only when it has errors.
            const std::size_t prefix = reader.current_path().size();
            for (Error& e : out.errors_) {
                if (e.code != codes::too_many_errors) e.path.erase(0, prefix);
            }
        }
        return true;
    }
    // The fast pass of read.hpp takes an item only when it is valid: no errors to keep.
    template <class Fast>
    friend bool collectcall_read_fast(Fast& fast, Validated& out) {
        if (!fast.value(out.value_)) return false;
        out.errors_.clear();
        return true;
    }
    friend void collectcall_write(Writer& writer, const Validated& v) {
        write_value(writer, v.value_);
    }

  private:
    T value_{};
    ErrorList errors_;
};

}  // namespace collectcall
