// collectcall's models -> the peers' structs, so that every writer serialises the same data and
// the fairness test can compare what each reader bound.
#pragma once

#include <string>

#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"
#include "peers/model.hpp"

namespace peers {

inline double to_double(const collectcall::Money& m) {
    // Exact for the corpus's amounts (few significant digits, few decimals): one correctly
    // rounded division, the same double a correct parser makes of the decimal text.
    double scale = 1;
    for (unsigned i = 0; i < m.scale(); ++i)
        scale *= 10;
    return static_cast<double>(m.significand()) / scale;
}

template <class T>
std::optional<std::string> to_string_opt(const std::optional<T>& v) {
    if (!v) return std::nullopt;
    return std::string(v->view());
}

inline std::optional<double> to_double_opt(const std::optional<collectcall::Money>& v) {
    if (!v) return std::nullopt;
    return to_double(*v);
}

inline Address to_peer(const collectcall::Address& a) {
    return Address{to_string_opt(a.line1), to_string_opt(a.line2), to_string_opt(a.city),
                   to_string_opt(a.state), std::string(a.zip.view())};
}

inline Collections to_peer(const collectcall::Collections& c) {
    return Collections{to_double(c.totalBalance),
                       to_double_opt(c.principalBalance),
                       to_string_opt(c.originalCreditor),
                       to_double_opt(c.accruedInterestAmount),
                       to_string_opt(c.chargeOffDate),
                       to_string_opt(c.firstDelinquencyDate),
                       to_double_opt(c.settlementAggregationRate),
                       to_string_opt(c.originalAccountNumber),
                       to_double_opt(c.itemizationBalance),
                       to_double_opt(c.postItemizationInterest),
                       to_double_opt(c.postItemizationFees),
                       to_double_opt(c.postItemizationCredits),
                       to_double_opt(c.postItemizationPayments),
                       to_string_opt(c.productType),
                       to_string_opt(c.originalProductType)};
}

inline CustomerCreate to_peer(const collectcall::CustomerCreate& c) {
    CustomerCreate out;
    out.externalId = c.externalId.view();
    out.clientId = to_string_opt(c.clientId);
    out.firstName = c.firstName.view();
    out.middleName = to_string_opt(c.middleName);
    out.lastName = c.lastName.view();
    out.email = c.email.view();
    out.primaryPhone = c.primaryPhone.view();
    out.secondaryPhone = to_string_opt(c.secondaryPhone);
    out.address = to_peer(c.address);
    out.ssnLastFour = to_string_opt(c.ssnLastFour);
    out.dateOfBirth = to_string_opt(c.dateOfBirth);
    if (c.collections) out.collections = to_peer(*c.collections);
    return out;
}

inline Customer to_peer(const collectcall::Customer& c) {
    Customer out;
    static_cast<CustomerCreate&>(out) = to_peer(static_cast<const collectcall::CustomerCreate&>(c));
    out.id = c.id.view();
    out.createdAt = c.createdAt.view();
    out.updatedAt = c.updatedAt.view();
    for (const collectcall::ContactChannel medium : c.restrictedMedia.media())
        out.restrictedMedia.emplace_back(collectcall::enum_name(medium));
    out.attorneyRepresented = c.attorneyRepresented;
    out.disputed = c.disputed;
    return out;
}

inline BulkResult to_peer(const collectcall::BulkResult& r) {
    BulkResult out;
    out.summary = {r.summary.total, r.summary.succeeded, r.summary.failed};
    out.results.reserve(r.results.size());
    for (const collectcall::BulkItemResult& item : r.results) {
        BulkItemResult& o = out.results.emplace_back();
        if (item.externalId.has_value()) o.externalId = *item.externalId;
        o.success = item.success;
        if (item.customer.has_value()) o.customer = to_peer(*item.customer);
        if (item.error.has_value()) o.error = *item.error;
        if (item.details.has_value()) {
            o.details.emplace();
            for (const collectcall::Error& e : *item.details)
                o.details->push_back({e.path, e.code, e.message});
        }
    }
    return out;
}

}  // namespace peers
