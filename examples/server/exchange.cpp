#include "exchange.hpp"

#include <chrono>
#include <utility>

#include "crypto.hpp"

namespace collectcall::server {

ReadOptions Services::read_options() const {
    ReadOptions options;
    options.today = std::chrono::floor<std::chrono::days>(clock.now());
    options.now = clock.now();  // a message's timestamp may not be far after it
    options.max_bulk_items = config.max_bulk_items;
    return options;
}

Uuid uuid_of(std::string_view text) {
    auto parsed = Uuid::parse(text);
    return parsed ? std::move(parsed).value() : new_uuid();
}

void send_json(httplib::Response& response, int status, std::string body) {
    response.status = status;
    response.body = std::move(body);
    // set_content would append a second Content-Type; replace the header instead.
    response.headers.erase("Content-Type");
    response.set_header("Content-Type", "application/json");
}

void Exchange::fail_read(ErrorList errors) {
    if (errors.size() == 1 && errors.front().code == codes::malformed_json) {
        std::string message = errors.front().message;
        fail(api::errors::malformed_json, std::move(message), std::move(errors));
        return;
    }
    fail_validation(std::move(errors));
}

void Exchange::fail_validation(ErrorList errors) {
    std::string message = invalid_fields_message(error_total(errors));
    fail(api::errors::validation_failed, std::move(message), std::move(errors));
}

std::optional<Uuid> Exchange::path_id(std::size_t index) const {
    if (index >= path_parameters.size()) return std::nullopt;
    auto parsed = Uuid::parse(path_parameters[index]);
    if (!parsed) return std::nullopt;
    return std::move(parsed).value();
}

std::optional<api::PageRequest> Exchange::page_request(const api::PageOwner& owner) {
    Result<api::PageRequest> page = api::read_page_request(request.params, owner);
    if (!page) {
        fail_validation(std::move(page).errors());
        return std::nullopt;
    }
    return std::move(page).value();
}

void Exchange::end_connection() {
    http::close_connection(response);
    context.close = true;
}

}  // namespace collectcall::server
