#include "handlers/customers.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <collectcall/core/read.hpp>

#include "crypto.hpp"

namespace collectcall::server::handlers {

using api::CustomerList;

namespace {

StoredCustomer new_customer(CustomerCreate fields, Time now) {
    StoredCustomer stored;
    static_cast<CustomerCreate&>(stored.customer) = std::move(fields);
    stored.customer.id = new_time_ordered_uuid();
    stored.customer.createdAt = Timestamp::from_time(now);
    stored.customer.updatedAt = stored.customer.createdAt;
    stored.thread_id = new_uuid();
    return stored;
}

// The detail of a clientId that names no client of the account.
Error client_not_found() {
    return Error{"/clientId", std::string(codes::not_found), "is not a client of this account"};
}

// The body of a POST that takes none: empty, or an empty object.
bool read_no_body(Exchange& x) {
    if (x.body.empty()) return true;
    auto read_result = read<EmptyObject>(x.body);
    if (read_result) return true;
    x.fail_read(std::move(read_result).errors());
    return false;
}

}  // namespace

void handle(endpoint<Operation::create_customer>, Exchange& x, Services& s) {
    auto body = read<CustomerCreate>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    // A clientId must name a client of the account (API.md section 4).
    const auto& client = body.value().clientId;
    if (client && !s.store.has_client(x.account, *client)) {
        return x.fail_validation(ErrorList{client_not_found()});
    }
    StoredCustomer stored = new_customer(std::move(body).value(), s.clock.now());
    if (!s.store.insert_customer(x.account, stored)) {
        return x.fail(api::errors::duplicate_external_id,
                      api::duplicate_external_id_message(stored.customer.externalId.view()));
    }
    x.reply(200, std::move(stored.customer));
}

void handle(endpoint<Operation::find_customers>, Exchange& x, Services& s) {
    ErrorList errors;
    for (const auto& [name, value] : x.request.params) {
        if (name != "externalId") {
            errors.push_back(Error{"", std::string(codes::unknown_field),
                                   "query parameter " + name + " is not known"});
        }
    }
    const std::size_t count = x.request.get_param_value_count("externalId");
    if (count == 0) {
        errors.push_back(
            Error{"", std::string(codes::required), "query parameter externalId is required"});
    } else if (count > 1) {
        errors.push_back(Error{"", std::string(codes::duplicate_field),
                               "query parameter externalId appears more than once"});
    }
    if (!errors.empty()) return x.fail_validation(std::move(errors));

    CustomerList list;
    if (auto found = s.store.find_customer_by_external_id(
            x.account, x.request.get_param_value("externalId"))) {
        list.customers.push_back(std::move(found->customer));
    }
    x.reply(200, std::move(list));
}

namespace {

// What a bulk request is read into and stored from, one per worker thread, kept from request to
// request: read_into reads over the items of the previous request, and both vectors keep their
// capacity, so a bulk allocates its items' storage once per thread instead of once per request.
// A vector of 1 MiB or more is not kept (the size from which the server has glibc map buffers on
// their own, main.cpp).
struct BulkScratch {
    BulkCreateRequest request;
    std::vector<StoredCustomer> valid;

    void release_if_large() {
        constexpr std::size_t kept = std::size_t{1} << 20;
        if (request.customers.capacity() * sizeof(Validated<CustomerCreate>) >= kept)
            request = BulkCreateRequest{};
        if (valid.capacity() * sizeof(StoredCustomer) >= kept) valid = {};
    }
};

}  // namespace

void handle(endpoint<Operation::create_customers>, Exchange& x, Services& s) {
    thread_local BulkScratch scratch;
    struct Release {
        BulkScratch& s;
        ~Release() { s.release_if_large(); }
    } release{scratch};
    ErrorList errors = read_into(x.body, scratch.request, s.read_options());
    if (!errors.empty()) return x.fail_read(std::move(errors));
    std::vector<Validated<CustomerCreate>>& items = scratch.request.customers;
    if (!s.charge_items(x, items.size())) return;

    // A clientId must name a client of the account: an item naming another fails alone. Each
    // id is looked up once, whatever the number of the account's clients.
    std::vector<std::pair<Uuid, bool>> known;
    for (Validated<CustomerCreate>& item : items) {
        const auto& client = item.value().clientId;
        if (!item.ok() || !client) continue;
        auto seen = std::find_if(known.begin(), known.end(),
                                 [&](const auto& k) { return k.first == *client; });
        if (seen == known.end()) {
            known.emplace_back(*client, s.store.has_client(x.account, *client));
            seen = std::prev(known.end());
        }
        if (!seen->second) item.add_error(client_not_found());
    }

    const Time now = s.clock.now();
    std::vector<StoredCustomer>& valid = scratch.valid;
    valid.clear();
    valid.reserve(items.size());
    for (Validated<CustomerCreate>& item : items) {
        if (item.ok()) valid.push_back(new_customer(std::move(item.value()), now));
    }
    const std::vector<bool> created = s.store.insert_customers(x.account, valid);
    x.reply(200,
            bulk_result(std::span(items), std::span(valid), created, &StoredCustomer::customer));
}

void handle(endpoint<Operation::get_customer>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    auto stored = s.store.find_customer(x.account, *id);
    if (!stored) return x.not_found(api::customer_not_found_message);
    x.reply(200, std::move(stored->customer));
}

void handle(endpoint<Operation::update_customer>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    auto patch = read<CustomerPatch>(x.body, s.read_options());
    if (!patch) return x.fail_read(std::move(patch).errors());

    const Time now = s.clock.now();
    ErrorList errors;
    auto updated = s.store.update_customer(x.account, *id, [&](StoredCustomer& stored) {
        errors.clear();  // a store may run this again, on the customer as it is then
        // Merged into a copy, then validated as a whole (API.md section 6).
        auto merged = apply_patch(stored.customer, patch.value());
        if (!merged) {
            errors = std::move(merged).errors();
            return false;
        }
        if (!merged.value().changed) return false;
        static_cast<CustomerCreate&>(stored.customer) = std::move(merged.value().customer);
        stored.customer.updatedAt = Timestamp::from_time(now);
        return true;
    });
    if (!updated) return x.not_found(api::customer_not_found_message);
    if (!errors.empty()) return x.fail_validation(std::move(errors));
    x.reply(200, std::move(updated->customer));
}

void set_customer_flag(Exchange& x, Services& s, bool StoredCustomer::*flag, bool value) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    if (!read_no_body(x)) return;
    const Time now = s.clock.now();
    auto updated = s.store.update_customer(x.account, *id, [&](StoredCustomer& stored) {
        if (stored.*flag == value) return false;  // idempotent: nothing changes, not even updatedAt
        stored.*flag = value;
        stored.customer.updatedAt = Timestamp::from_time(now);
        return true;
    });
    if (!updated) return x.not_found(api::customer_not_found_message);
    x.reply(200, std::move(updated->customer));
}

namespace {

// Changes the standing of the path's customer as `edit` says, with the record of the change
// (API.md section 16); idempotent: no change, no record, not even updatedAt.
template <class Edit>
void edit_standing(Exchange& x, Services& s, const Uuid& id, StandingCause cause, Edit&& edit) {
    const Time now = s.clock.now();
    const CompliancePolicy policy = s.store.account_settings(x.account).policy;
    auto updated = s.store.change_standing(x.account, id, [&](StoredCustomer& stored) {
        Standing after = customer_standing(stored);
        edit(after);
        return change_customer_standing(stored, after, now, policy, cause);
    });
    if (!updated) return x.not_found(api::customer_not_found_message);
    x.reply(200, std::move(updated->customer));
}

}  // namespace

void handle(endpoint<Operation::cease_and_desist>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    if (!read_no_body(x)) return;
    // There is no way back: a consumer's cease-and-desist request is final.
    edit_standing(x, s, *id, StandingCause::cease_and_desist,
                  [](Standing& standing) { standing.ceaseAndDesist = true; });
}

void handle(endpoint<Operation::deactivate_customer>, Exchange& x, Services& s) {
    set_customer_flag(x, s, &StoredCustomer::active, false);
}

void handle(endpoint<Operation::activate_customer>, Exchange& x, Services& s) {
    set_customer_flag(x, s, &StoredCustomer::active, true);
}

void handle(endpoint<Operation::do_not_call>, Exchange& x, Services& s) {
    const auto id = x.path_id();
    if (!id) return x.not_found(api::customer_not_found_message);
    if (!read_no_body(x)) return;
    // A request about a medium (12 CFR 1006.14(h)): kept until the customer says otherwise
    // (PUT .../restricted-media records that).
    edit_standing(x, s, *id, StandingCause::do_not_call,
                  [](Standing& standing) { standing.restrictedMedia.add(ContactChannel::call); });
}

void handle(endpoint<Operation::set_restricted_media>, Exchange& x, Services& s) {
    // The customer first (404 for an unknown id or another account's), then the body.
    const auto id = x.path_id();
    if (!id || !s.store.find_customer(x.account, *id))
        return x.not_found(api::customer_not_found_message);
    auto body = read<RestrictedMediaUpdate>(x.body, s.read_options());
    if (!body) return x.fail_read(std::move(body).errors());
    const RestrictedMedia media = body.value().media;
    edit_standing(x, s, *id, StandingCause::restricted_media,
                  [&](Standing& standing) { standing.restrictedMedia = media; });
}

void Customers::serve(Exchange& x, Services& s) {
    serve_resource<tag>(x, [&](auto e) -> decltype(handle(e, x, s)) { handle(e, x, s); });
}

}  // namespace collectcall::server::handlers
