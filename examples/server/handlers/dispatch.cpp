#include <array>
#include <cstddef>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include <collectcall/api/routes.hpp>

#include "handlers/handlers.hpp"

namespace collectcall::server::handlers {

namespace {

// Every resource: its handlers' file serves the routes of its tag.
using Resources = boost::mp11::mp_list<Service, Customers, Calls, Webhooks, Clients, Interactions,
                                       Compliance, DripCampaigns>;

using Serve = void (*)(Exchange&, Services&);

// The resource of each operation, by the tag of its route; the build fails for a route whose
// tag no resource has.
constexpr std::array<Serve, api::routes.size()> serve_by_operation = [] {
    std::array<Serve, api::routes.size()> serve{};
    for (std::size_t i = 0; i < api::routes.size(); ++i) {
        boost::mp11::mp_for_each<Resources>([&]<HandlerResource Resource>(Resource) {
            if (api::routes[i].tag == Resource::tag.view()) serve[i] = &Resource::serve;
        });
        if (serve[i] == nullptr) throw "a route's tag is the tag of a resource of handlers.hpp";
    }
    return serve;
}();

}  // namespace

void dispatch(Exchange& x, Services& s) {
    serve_by_operation[static_cast<std::size_t>(x.route.operation)](x, s);
}

}  // namespace collectcall::server::handlers
