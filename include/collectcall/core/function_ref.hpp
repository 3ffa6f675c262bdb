// FunctionRef: a callable passed down by reference (the function given to ValueReader::object or
// array, the body of the reader's loops over a container), so that what walks the value is one
// function whatever the caller's lambda.
#pragma once

#include <utility>

namespace collectcall::detail {

template <class Signature>
class FunctionRef;
template <class R, class... A>
class FunctionRef<R(A...)> {
  public:
    template <class F>
    explicit FunctionRef(F& f) noexcept
        : object_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* object, A... args) -> R {
              return (*static_cast<F*>(object))(std::forward<A>(args)...);
          }) {}
    R operator()(A... args) const { return call_(object_, std::forward<A>(args)...); }

  private:
    void* object_;
    R (*call_)(void*, A...);
};

}  // namespace collectcall::detail
