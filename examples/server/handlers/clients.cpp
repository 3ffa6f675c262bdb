#include "handlers/clients.hpp"

#include <string>
#include <utility>

#include <collectcall/core/read.hpp>

#include "crypto.hpp"

namespace collectcall::server::handlers {

void handle(endpoint<Operation::list_clients>, Exchange& x, Services& s) {
    x.reply(200, s.store.list_clients(x.account));
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

}  // namespace collectcall::server::handlers
