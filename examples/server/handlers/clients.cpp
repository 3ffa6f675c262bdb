#include "handlers/clients.hpp"

#include <string>
#include <utility>

#include <collectcall/core/read.hpp>

#include "crypto.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::list_clients>, Exchange& x, Services& s) {
    const api::PageOwner owner{api::PagedList::clients, x.account.view()};
    const auto page = x.page_request(owner);
    if (!page) return;
    Page<Client> clients = s.store.list_clients(x.account, *page);
    if (const auto cursor = api::next_page_cursor(owner, clients.next)) {
        x.response.set_header(std::string(api::next_page_header),
                              api::next_page_link(x.request.path, page->limit, *cursor));
    }
    x.reply(200, std::move(clients.items));
}

void handle(endpoint<Operation::create_client>, Exchange& x, Services& s) {
    auto body = read<ClientCreate>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    ClientCreate& request = body.value();
    Client client{request.id ? *request.id : new_uuid(), std::move(request.name)};
    if (s.store.insert_client(x.account, client, s.clock.now()) == ClientInsert::taken) {
        return x.fail(api::errors::client_taken,
                      "client id " + std::string(client.id.view()) + " is already in use");
    }
    x.reply(200, std::move(client));
}

void Clients::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
