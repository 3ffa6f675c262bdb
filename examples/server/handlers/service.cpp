#include "handlers/service.hpp"

#include <memory>
#include <string>

#include <collectcall/api/openapi.hpp>

#include "http.hpp"
#include "output.hpp"
#include "store_error.hpp"

namespace collectcall::server::handlers {

using api::HealthStatus;

const std::shared_ptr<const std::string>& openapi_document() {
    static const auto document = std::make_shared<const std::string>(collectcall::openapi());
    return document;
}

void handle(endpoint<Operation::get_open_api>, Exchange& x, Services&) {
    // Bare, like healthz: it is a document, not an API call. Every answer refers to the same
    // bytes until its client has taken them.
    static const std::shared_ptr<const http::BodySource> document =
        http::shared_document(openapi_document());
    x.context.source = http::send_source(x.request, x.response, document, "application/json");
}

void handle(endpoint<Operation::get_health>, Exchange& x, Services&) {
    // Bare (API.md section 1): a probe reads only the status. Liveness: the process answers;
    // whether it can serve is /readyz's question.
    send_json(x.response, 200, write(HealthStatus{"ok"}));
}

void handle(endpoint<Operation::get_readiness>, Exchange& x, Services& s) {
    // Readiness: the store answers a trivial read. A load balancer takes a process whose
    // database is unreachable out of rotation without restarting it.
    try {
        s.store.check();
        send_json(x.response, 200, write(HealthStatus{"ready"}));
    } catch (const StoreError&) {
        send_json(x.response, 503, write(HealthStatus{"unavailable"}));
    }
}

void handle(endpoint<Operation::get_metrics>, Exchange& x, Services& s) {
    // Bare, no key, like healthz: what a Prometheus scraper expects.
    if (s.config.metrics == nullptr) return x.not_found(api::no_route_message);
    x.response.status = 200;
    x.response.set_content(s.config.metrics->text(), "text/plain; version=0.0.4; charset=utf-8");
}

void Service::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
