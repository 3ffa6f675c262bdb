// Interactions: the SMS and e-mails of a customer's conversation, imported one at a time or in
// bulk, listed with its calls, written by the sandbox (generate), and analysed (API.md section
// 13).
#pragma once

#include <string>

#include "handlers/handler.hpp"

namespace collectcall::server::handlers {

// The handlers of the routes tagged "interactions", run by serve() (the end of
// handlers/interactions.cpp).
struct Interactions {
    static constexpr ResourceTag tag = "interactions";
    static void serve(Exchange& x, Services& s);
};

// The next SMS the sandbox writes to a customer (docs/interactions.md): its first name and an
// answer to the last inbound message of `thread`.
std::string next_sms_text(Store& store, const Uuid& account, const Customer& customer,
                          const Uuid& thread);

}  // namespace collectcall::server::handlers
