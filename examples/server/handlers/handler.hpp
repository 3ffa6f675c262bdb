// What a handler is: one function for each endpoint of collectcall/api/endpoints.hpp,
//
//     void handle(endpoint<Operation::create_customer>, Exchange& x, Services& s);
//
// declared in the header of its resource (customers.hpp, calls.hpp, ...) and defined in its
// .cpp. The pipeline (api.cpp) has routed, authenticated and read the request before; the
// handler reads the body with the library, asks it for every rule, calls the store, and answers
// with x.reply or x.fail. The build fails for an endpoint without its handle() (dispatch.cpp).
#pragma once

#include <utility>

#include <collectcall/api/endpoints.hpp>

#include "exchange.hpp"

namespace collectcall::server::handlers {

using api::endpoint;
using api::Operation;

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

}  // namespace collectcall::server::handlers
