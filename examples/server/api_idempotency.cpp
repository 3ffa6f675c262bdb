#include <signal.h>
#include <unistd.h>

#include <exception>
#include <string>
#include <string_view>

#include <collectcall/api/errors.hpp>
#include <collectcall/api/idempotency_key.hpp>

#include "api.hpp"
#include "crypto.hpp"
#include "handlers/handlers.hpp"
#include "http.hpp"

namespace collectcall::server {

namespace error_code = collectcall::api::errors;

void Api::run_idempotent(Exchange& x, std::string_view header) {
    const auto parsed = api::IdempotencyKey::parse(header);
    if (!parsed) {
        return x.fail(error_code::validation_failed,
                      "Idempotency-Key " + std::string(parsed.problem().message));
    }
    const std::string_view key = parsed.value().view();
    // The request is identified by what it asks, not by how it was framed.
    std::string fingerprint_input = x.request.method;
    fingerprint_input += ' ';
    fingerprint_input += x.request.path;
    fingerprint_input += '\n';
    fingerprint_input += x.body;
    const Sha256 fingerprint = sha256(fingerprint_input);

    IdempotencyBegin begin = store_.begin_idempotent(x.account, key, fingerprint, clock_.now());
    switch (begin.state) {
        case IdempotencyState::mismatch:
            return x.fail(error_code::idempotency_key_reused);
        case IdempotencyState::in_flight:
            return x.fail(error_code::idempotency_key_in_flight);
        case IdempotencyState::replay:
            x.response.headers.erase("X-Request-Id");
            x.response.set_header("X-Request-Id", begin.response.request_id);
            x.response.set_header("Idempotent-Replayed", "true");
            send_json(x.response, begin.response.status, begin.response.body);
            return;
        case IdempotencyState::started:
            break;
    }

    // The request's writes go through its own store, in the transaction that records its answer.
    Store& store = *begin.store;

    // Until the response is recorded, the key is held; any way out without a response that can
    // be replayed (a fault, the storage failing) releases it so that a retry runs again.
    struct Release {
        Store& store;
        const Uuid& account;
        std::string_view key;
        bool armed = true;
        ~Release() {
            if (!armed) return;
            try {
                store.abandon_idempotent(account, key);
            } catch (const std::exception&) {
                // The row stays in flight until the next start of the server clears it.
            }
        }
    } release{store, x.account, key};

    Services services = services_.with_store(store);
    handlers::dispatch(x, services);
    // A 5xx is not recorded, nor a 429 (a bulk request's items over the rate limit): the
    // release rolls back what the request wrote and frees the key for the retry.
    if (x.response.status >= 500 || x.response.status == 429) return;
    // The answer is committed in one transaction with the work it answers (store.hpp): a crash
    // before the commit leaves neither (the key is freed at the next start and a retry runs the
    // work once), after it both (a retry replays). A commit that fails keeps neither: the
    // release frees the key, and the client gets 503 from dispatch instead of an answer whose
    // work is not there.
    store.finish_idempotent(
        x.account, key,
        StoredResponse{x.response.status, x.replay_body.value_or(x.response.body), x.request_id});
    release.armed = false;
    if (!config_.test_kill_after_commit.empty() && key == config_.test_kill_after_commit) {
        ::kill(::getpid(), SIGKILL);  // tests only: the crash between the commit and the answer
    }
}

}  // namespace collectcall::server
