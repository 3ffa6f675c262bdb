#include "handlers/webhooks.hpp"

#include <optional>
#include <string>
#include <utility>

#include <boost/describe/class.hpp>

#include <collectcall/core/read.hpp>
#include <collectcall/webhook/signature.hpp>

#include "crypto.hpp"

namespace collectcall::server::handlers {

// What an Idempotency-Key replay of POST /webhook-secrets shows: the id, never the secret.
struct SecretReplay {
    Uuid id;
    std::optional<std::string> secret;  // always null
};
BOOST_DESCRIBE_STRUCT(SecretReplay, (), (id, secret))

void handle(endpoint<Operation::create_webhook_secret>, Exchange& x, Services& s) {
    // The secret text is shown in this answer only (API.md section 5): an Idempotency-Key replay
    // names the secret, with "secret": null.
    const auto answer = [&](WebhookSecret secret) {
        Envelope<SecretReplay> replay;
        replay.requestId = uuid_of(x.request_id);
        replay.data.id = secret.id;
        x.replay_body = write(replay);
        x.reply(200, std::move(secret));
    };
    // No body or `{}`: a new secret. {id, secret}: a secret brought from the hosted service,
    // kept under its own id (API.md section 5).
    const bool make = x.body.empty() || read<EmptyObject>(x.body).ok();
    if (make) {
        WebhookSecret secret{new_uuid(), webhook::generate_secret()};
        s.store.insert_webhook_secret(x.account, secret.id, secret.secret, s.clock.now());
        return answer(std::move(secret));
    }
    auto body = read<WebhookSecretImport>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    WebhookSecret secret{body.value().id, std::string(body.value().secret.view())};
    if (s.store.insert_webhook_secret(x.account, secret.id, secret.secret, s.clock.now()) ==
        SecretInsert::taken) {
        return x.fail(api::errors::webhook_secret_taken,
                      "webhook secret id " + std::string(secret.id.view()) + " is already in use");
    }
    answer(std::move(secret));
}

void Webhooks::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
