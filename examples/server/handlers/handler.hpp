// What a handler is: one function for each endpoint of collectcall/api/endpoints.hpp,
//
//     void handle(endpoint<Operation::create_customer>, Exchange& x, Services& s) { ... }
//
// defined in the file of its resource, handlers/<resource>.cpp, the resource whose tag its route
// has (customers, calls, ...). It is declared nowhere else: the file ends with its resource's
// `serve`, which runs the handler of the request's operation among those the file defines
// (serve_resource below). The pipeline (api.cpp) has routed, authenticated and read the request
// before; the handler reads the body with the library, asks it for every rule, calls the store,
// and answers with x.reply or x.fail. The build fails for an endpoint without its handle() in
// the file of its resource.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include <collectcall/api/endpoints.hpp>
#include <collectcall/api/routes.hpp>

#include "exchange.hpp"

namespace collectcall::server::handlers {

using api::endpoint;
using api::Operation;

// A resource's tag, as the routes of api/endpoints.hpp name it: a template argument.
template <std::size_t N>
struct ResourceTag {
    char text[N];
    // NOLINTNEXTLINE(google-explicit-constructor): written as a string literal
    constexpr ResourceTag(const char (&tag)[N]) { std::copy_n(tag, N, text); }
    [[nodiscard]] constexpr std::string_view view() const { return {text, N - 1}; }
};

// Runs the handler of x.route.operation, an operation whose route has the tag `tag`:
// `handle(endpoint<operation>{})` calls it. Every operation of that tag must have its handler
// where `handle` is written (the file of the resource), which the build checks.
template <ResourceTag tag, class Handle>
void serve_resource(Exchange& x, Handle&& handle);

// The resources, each a struct in the header of its handlers:
//
//     struct Customers {
//         static constexpr ResourceTag tag = "customers";
//         static void serve(Exchange& x, Services& s);  // ends handlers/customers.cpp
//     };
template <class Resource>
concept HandlerResource = requires(Exchange& x, Services& s) {
    { Resource::tag.view() } -> std::convertible_to<std::string_view>;
    Resource::serve(x, s);
};

// A page of one of a customer's lists (API.md section 17): 404 for an unknown customer, 400 for
// a query that is refused, else the page `list(customer, request)` reads, answered as the
// `Answer` of its items and the next page's cursor.
template <class Answer, class List>
void reply_customer_page(Exchange& x, Store& store, api::PagedList kind, List&& list) {
    const auto id = x.path_id();
    if (!id || !store.find_customer(x.account, *id)) {
        return x.not_found(api::customer_not_found_message);
    }
    const api::PageOwner owner{kind, x.account.view(), id->view()};
    const auto request = x.page_request(owner);
    if (!request) return;
    auto page = list(*id, *request);
    x.reply(200, Answer{std::move(page.items), api::next_page_cursor(owner, page.next)});
}

template <ResourceTag tag, class Handle>
void serve_resource(Exchange& x, Handle&& handle) {
    static_assert(std::ranges::any_of(
                      api::routes, [](const api::Route& route) { return route.tag == tag.view(); }),
                  "a resource's tag is the tag of at least one route of api/endpoints.hpp");
    boost::mp11::mp_with_index<api::routes.size()>(
        static_cast<std::size_t>(x.route.operation), [&](auto index) {
            constexpr Operation operation = api::routes[index()].operation;
            if constexpr (api::routes[index()].tag == tag.view()) {
                static_assert(std::is_invocable_v<Handle&, endpoint<operation>>,
                              "every endpoint of api/endpoints.hpp has its handle() in the file "
                              "of its resource (handlers/<resource>.cpp), before its serve()");
                handle(endpoint<operation>{});
            }
        });
}

}  // namespace collectcall::server::handlers
