// The structs the peer libraries read into and write from: the same members as collectcall's
// models, in the plain types a user of those libraries would choose (std::string for every
// string, double for amounts). Described with Boost.Describe so that Boost.JSON's value_to /
// value_from and the generic bindings of the peers can walk them.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

namespace peers {

struct Address {
    std::optional<std::string> line1;
    std::optional<std::string> line2;
    std::optional<std::string> city;
    std::optional<std::string> state;
    std::string zip;
    friend bool operator==(const Address&, const Address&) = default;
};
BOOST_DESCRIBE_STRUCT(Address, (), (line1, line2, city, state, zip))

struct Collections {
    double totalBalance = 0;
    std::optional<double> principalBalance;
    std::optional<std::string> originalCreditor;
    std::optional<double> accruedInterestAmount;
    std::optional<std::string> chargeOffDate;
    std::optional<std::string> firstDelinquencyDate;
    std::optional<double> settlementAggregationRate;
    std::optional<std::string> originalAccountNumber;
    std::optional<double> itemizationBalance;
    std::optional<double> postItemizationInterest;
    std::optional<double> postItemizationFees;
    std::optional<double> postItemizationCredits;
    std::optional<double> postItemizationPayments;
    std::optional<std::string> productType;
    std::optional<std::string> originalProductType;
    friend bool operator==(const Collections&, const Collections&) = default;
};
BOOST_DESCRIBE_STRUCT(Collections, (),
                      (totalBalance, principalBalance, originalCreditor, accruedInterestAmount,
                       chargeOffDate, firstDelinquencyDate, settlementAggregationRate,
                       originalAccountNumber, itemizationBalance, postItemizationInterest,
                       postItemizationFees, postItemizationCredits, postItemizationPayments,
                       productType, originalProductType))

struct CustomerCreate {
    std::string externalId;
    std::optional<std::string> clientId;
    std::string firstName;
    std::optional<std::string> middleName;
    std::string lastName;
    std::string email;
    std::string primaryPhone;
    std::optional<std::string> secondaryPhone;
    Address address;
    std::optional<std::string> ssnLastFour;
    std::optional<std::string> dateOfBirth;
    std::optional<Collections> collections;
    friend bool operator==(const CustomerCreate&, const CustomerCreate&) = default;
};
BOOST_DESCRIBE_STRUCT(CustomerCreate, (),
                      (externalId, clientId, firstName, middleName, lastName, email, primaryPhone,
                       secondaryPhone, address, ssnLastFour, dateOfBirth, collections))

struct Customer : CustomerCreate {
    std::string id;
    std::string createdAt;
    std::string updatedAt;
    // The customer's standing (extension members of the answer).
    std::vector<std::string> restrictedMedia;
    bool attorneyRepresented = false;
    bool disputed = false;
    friend bool operator==(const Customer&, const Customer&) = default;
};
BOOST_DESCRIBE_STRUCT(Customer, (CustomerCreate),
                      (id, createdAt, updatedAt, restrictedMedia, attorneyRepresented, disputed))

// One item of a bulk request with its own verdict (collectcall's Validated<CustomerCreate>).
struct BulkItem {
    bool ok = false;
    CustomerCreate value;
    friend bool operator==(const BulkItem&, const BulkItem&) = default;
};

struct BulkCreateRequest {
    std::vector<BulkItem> customers;
    friend bool operator==(const BulkCreateRequest&, const BulkCreateRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkCreateRequest, (), (customers))

struct Error {
    std::string path;
    std::string code;
    std::string message;
    friend bool operator==(const Error&, const Error&) = default;
};
BOOST_DESCRIBE_STRUCT(Error, (), (path, code, message))

struct BulkSummary {
    std::int64_t total = 0;
    std::int64_t succeeded = 0;
    std::int64_t failed = 0;
    friend bool operator==(const BulkSummary&, const BulkSummary&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkSummary, (), (total, succeeded, failed))

// An empty optional is left out of the JSON (collectcall's absent Patch<T>), not written null.
struct BulkItemResult {
    std::optional<std::string> externalId;
    bool success = false;
    std::optional<Customer> customer;
    std::optional<std::string> error;
    std::optional<std::vector<Error>> details;
    friend bool operator==(const BulkItemResult&, const BulkItemResult&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkItemResult, (), (externalId, success, customer, error, details))

struct BulkResult {
    BulkSummary summary;
    std::vector<BulkItemResult> results;
    friend bool operator==(const BulkResult&, const BulkResult&) = default;
};
BOOST_DESCRIBE_STRUCT(BulkResult, (), (summary, results))

struct Options {
    std::chrono::sys_days today;  // dates must not be after this day
    std::size_t max_bulk_items = 1000;
};

}  // namespace peers
