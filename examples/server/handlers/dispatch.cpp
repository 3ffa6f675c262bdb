#include <cstddef>

#include <boost/mp11/algorithm.hpp>

#include <collectcall/api/routes.hpp>

#include "handlers/handlers.hpp"

namespace collectcall::server::handlers {

namespace {

template <Operation operation>
concept has_handler = requires(Exchange& x, Services& s) {
    handle(endpoint<operation>{}, x, s);
};

}  // namespace

void dispatch(Exchange& x, Services& s) {
    boost::mp11::mp_with_index<api::routes.size()>(
        static_cast<std::size_t>(x.route.operation), [&](auto index) {
            constexpr auto operation = static_cast<Operation>(index());
            static_assert(has_handler<operation>,
                          "every endpoint of collectcall/api/endpoints.hpp has its handle() in "
                          "examples/server/handlers/, declared in handlers.hpp's headers");
            handle(endpoint<operation>{}, x, s);
        });
}

}  // namespace collectcall::server::handlers
