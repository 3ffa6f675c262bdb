// Customer (SPEC.md 2.2): the body of POST /customers, the stored and returned customer, and the
// body of PATCH /customers/{id}.
#pragma once

#include <concepts>
#include <optional>
#include <string_view>
#include <utility>

#include <boost/describe/class.hpp>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/merge_patch.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/model/address.hpp"
#include "collectcall/model/collections.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/types/date.hpp"
#include "collectcall/types/digits.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/email.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

struct CustomerCreate {
    Text externalId;
    // A sub-entity of the caller's organisation (the hosted service's clientId): stored and
    // returned, null when absent; set on create only.
    std::optional<Uuid> clientId;
    Text firstName;
    std::optional<Text> middleName;
    Text lastName;
    Email email;
    E164 primaryPhone;
    std::optional<E164> secondaryPhone;
    Address address;
    std::optional<Digits<4>> ssnLastFour;
    std::optional<PastDate> dateOfBirth;
    std::optional<Collections> collections;
    // Extension: the times the customer designated inconvenient (12 CFR 1006.6(b)(1)), in their
    // local time, which the regulation-f policy honours. Left out of an answer when the customer
    // designated none, so that a customer reads as the hosted service's.
    Patch<InconvenientTimes> inconvenientTimes;

    friend bool operator==(const CustomerCreate&, const CustomerCreate&) = default;
};
BOOST_DESCRIBE_STRUCT(CustomerCreate, (),
                      (externalId, clientId, firstName, middleName, lastName, email, primaryPhone,
                       secondaryPhone, address, ssnLastFour, dateOfBirth, collections,
                       inconvenientTimes))

// A stored customer as the API returns it. The standing members (extension, API.md section 16)
// are read-only: what the customer told the collector, recorded by the server (an opt-out
// keyword imported, an analysis applied, POST .../do-not-call, PUT .../restricted-media). A
// body that sends them is refused: unknown members of POST /customers, `not_allowed` in a PATCH.
struct Customer : CustomerCreate {
    Uuid id;
    Timestamp createdAt;
    Timestamp updatedAt;
    RestrictedMedia restrictedMedia;   // the media the customer asked not to be contacted by
    bool attorneyRepresented = false;  // represented by an attorney about the debt
    bool disputed = false;             // the customer disputes the debt

    friend bool operator==(const Customer&, const Customer&) = default;
};
BOOST_DESCRIBE_STRUCT(Customer, (CustomerCreate),
                      (id, createdAt, updatedAt, restrictedMedia, attorneyRepresented, disputed))

// The hosted service's answers have no standing members: a customer read from one has none.
constexpr auto collectcall_defaulted(schema_tag<Customer>) {
    return defaulted<&Customer::restrictedMedia, &Customer::attorneyRepresented,
                     &Customer::disputed>{};
}

// The body of PATCH /customers/{id} (RFC 7396): each member absent (kept), null (cleared) or a
// value. externalId and id cannot be changed.
struct CustomerPatch {
    NotAllowed id;
    NotAllowed externalId;
    NotAllowed clientId;
    Patch<Text> firstName;
    Patch<Text> middleName;
    Patch<Text> lastName;
    Patch<Email> email;
    Patch<E164> primaryPhone;
    Patch<E164> secondaryPhone;
    Patch<AddressPatch> address;
    Patch<Digits<4>> ssnLastFour;
    Patch<PastDate> dateOfBirth;
    Patch<CollectionsPatch> collections;
    Patch<InconvenientTimes> inconvenientTimes;  // replaces the list; null clears it
    // The standing is the server's record, not the client's to edit (PUT .../restricted-media
    // sets the media).
    NotAllowed restrictedMedia;
    NotAllowed attorneyRepresented;
    NotAllowed disputed;

    friend bool operator==(const CustomerPatch&, const CustomerPatch&) = default;
};
BOOST_DESCRIBE_STRUCT(CustomerPatch, (),
                      (id, externalId, clientId, firstName, middleName, lastName, email,
                       primaryPhone, secondaryPhone, address, ssnLastFour, dateOfBirth, collections,
                       inconvenientTimes, restrictedMedia, attorneyRepresented, disputed))

// The cross-field rule of API.md section 4: a collections customer must have ssnLastFour and
// dateOfBirth. Returns the message of the `conflict` at /collections, or an empty view.
constexpr std::string_view collections_conflict(bool has_collections, bool has_ssn_last_four,
                                                bool has_date_of_birth) {
    if (!has_collections || (has_ssn_last_four && has_date_of_birth)) return {};
    if (!has_ssn_last_four && !has_date_of_birth) {
        return "requires ssnLastFour and dateOfBirth";
    }
    return has_ssn_last_four ? "requires dateOfBirth" : "requires ssnLastFour";
}

// Applied by read<CustomerCreate> (and read<Customer>). A member that is present but invalid has
// its own error already, so it does not also count as missing here.
inline void collectcall_check(const CustomerCreate&, const MemberStates& members,
                              RuleErrors& errors) {
    std::string_view message = collections_conflict(members.present<&CustomerCreate::collections>(),
                                                    members.given<&CustomerCreate::ssnLastFour>(),
                                                    members.given<&CustomerCreate::dateOfBirth>());
    if (!message.empty()) {
        errors.member_error<&CustomerCreate::collections>(codes::conflict, message);
    }
}

// The same rule on a value (a merged customer): the errors, if any.
inline ErrorList validate(const CustomerCreate& customer) {
    ErrorList errors;
    std::string_view message =
        collections_conflict(customer.collections.has_value(), customer.ssnLastFour.has_value(),
                             customer.dateOfBirth.has_value());
    if (!message.empty()) {
        errors.push_back(Error{"/collections", std::string(codes::conflict), std::string(message)});
    }
    return errors;
}

namespace detail {

// API.md section 4, the rule of collectcall_check above: a customer with collections must have
// ssnLastFour and dateOfBirth.
template <class Schema>
void collections_requires_identity(Schema& s, bool require_members) {
    constexpr std::string_view collections = member_name<&CustomerCreate::collections>;
    constexpr std::string_view ssn_last_four = member_name<&CustomerCreate::ssnLastFour>;
    constexpr std::string_view date_of_birth = member_name<&CustomerCreate::dateOfBirth>;
    auto& condition = s["if"];
    condition["properties"][collections]["type"] = "object";
    condition["required"].push_back(collections);
    auto& consequence = s["then"];
    consequence["properties"][ssn_last_four]["not"]["type"] = "null";
    consequence["properties"][date_of_birth]["not"]["type"] = "null";
    if (require_members) {
        consequence["required"].push_back(ssn_last_four);
        consequence["required"].push_back(date_of_birth);
    }
}

}  // namespace detail

template <class Schema>
void collectcall_schema(schema_tag<CustomerCreate>, Schema& s) {
    s["description"] =
        "A customer as sent to POST /customers. With collections, ssnLastFour and dateOfBirth "
        "are required too (a `conflict` error at /collections otherwise).";
    detail::collections_requires_identity(s, true);
}

template <class Schema>
void collectcall_schema(schema_tag<Customer>, Schema& s) {
    s["description"] =
        "A stored customer as the API returns it. restrictedMedia, attorneyRepresented and "
        "disputed (extension) are its standing, read-only: the server records them. An answer "
        "without them (the hosted service's) reads as none.";
    detail::collections_requires_identity(s, true);
    for (std::string_view member :
         {member_name<&Customer::restrictedMedia>, member_name<&Customer::attorneyRepresented>,
          member_name<&Customer::disputed>})
        s["properties"][member]["readOnly"] = true;
}

// What a merge patch may clear depends on the stored customer only through the collections rule:
// members the customer requires can never be null, and a patch that sets collections cannot
// also clear ssnLastFour or dateOfBirth. The rest (clearing ssnLastFour of a customer that keeps
// its collections, collections without totalBalance for a customer that has none) needs the
// stored customer, and is checked by the server after merging.
template <class Schema>
void collectcall_schema(schema_tag<CustomerPatch>, Schema& s) {
    s["description"] =
        "A JSON Merge Patch (RFC 7396) of a customer: an absent member is kept, null clears an "
        "optional member, address and collections merge member by member. The merged customer "
        "is validated as a whole.";
    s.template patch_of<CustomerCreate>();
    detail::collections_requires_identity(s, false);
}

// A customer with a PATCH applied (API.md section 6), and whether that changed anything.
struct PatchedCustomer {
    CustomerCreate customer;
    bool changed = false;

    friend bool operator==(const PatchedCustomer&, const PatchedCustomer&) = default;
};

// Applies `patch` to `current` by RFC 7396 and validates the merged customer as a whole: the
// merged customer, or every error of the merge (a required member cleared, ...) followed by those
// of the whole (clearing ssnLastFour while collections is set, ...), with paths into the merged
// customer. `current` is not touched: a patch that fails leaves nothing half-applied, and
// `changed` is false for a patch that sets every member to the value it has (`{}` included).
// A template of the one patch type, so that only a file that applies a patch compiles the merge.
template <std::same_as<CustomerPatch> PatchT>
[[nodiscard]] Result<PatchedCustomer> apply_patch(const CustomerCreate& current,
                                                  const PatchT& patch) {
    PatchedCustomer merged{current, false};
    ErrorList errors = merge_patch(merged.customer, patch);
    for (Error& e : validate(merged.customer))
        errors.push_back(std::move(e));
    if (!errors.empty()) return Result<PatchedCustomer>(std::move(errors));
    merged.changed = !(merged.customer == current);
    return Result<PatchedCustomer>(std::move(merged));
}

}  // namespace collectcall
