// Clients (API.md section 13): sub-entities of an account that group its customers, as the hosted
// service's Client. GET /clients answers with the array itself ([{id, name}]), as the hosted
// example shows; POST /clients (extension) creates one, under an id of its own or one brought
// from the hosted service.
#pragma once

#include <optional>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/types/text.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

struct Client {
    Uuid id;
    Text name;

    friend bool operator==(const Client&, const Client&) = default;
};
BOOST_DESCRIBE_STRUCT(Client, (), (id, name))

// The body of POST /clients: without id, the service makes one.
struct ClientCreate {
    Text name;
    std::optional<Uuid> id;

    friend bool operator==(const ClientCreate&, const ClientCreate&) = default;
};
BOOST_DESCRIBE_STRUCT(ClientCreate, (), (name, id))

// The data of GET /clients: the account's clients.
using ClientList = std::vector<Client>;

}  // namespace collectcall
