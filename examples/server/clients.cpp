// GET /clients and POST /clients (API.md section 13).
#include "api.hpp"
#include "api_context.hpp"

namespace collectcall::server {

void Api::list_clients(Context& ctx) {
    ctx.reply(200, store_.list_clients(ctx.account));
}

void Api::create_client(Context& ctx) {
    auto body = read<ClientCreate>(ctx.body, read_options());
    if (!body) return ctx.fail_read(std::move(body).errors());
    ClientCreate& request = body.value();
    Client client{request.id ? *request.id : new_uuid(), std::move(request.name)};
    if (store_.insert_client(ctx.account, client, clock_.now()) == ClientInsert::taken) {
        return ctx.fail(api::errors::client_taken,
                        "client id " + std::string(client.id.view()) + " is already in use");
    }
    ctx.reply(200, std::move(client));
}

}  // namespace collectcall::server
