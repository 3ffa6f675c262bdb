// The compile-time benchmark's nlohmann/json program: the same as read_write_collectcall.cpp
// written the way nlohmann/json's documentation shows (plain structs, the
// NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT bindings, std::optional through an
// adl_serializer). It binds and writes the same members; it checks less (no formats, no unknown
// or duplicate members), which makes it the cheaper program to compile. With
// COMPILE_TIME_ONE_MORE it also reads and writes one more model (OneMoreModel, the struct of
// one_more_model.hpp with the same members) when given an argument.
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace nlohmann {
template <class T>
struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& value) {
        if (value) {
            j = *value;
        } else {
            j = nullptr;
        }
    }
    static void from_json(const json& j, std::optional<T>& value) {
        if (j.is_null()) {
            value.reset();
        } else {
            value = j.get<T>();
        }
    }
};
}  // namespace nlohmann

namespace program {

struct Address {
    std::optional<std::string> line1;
    std::optional<std::string> line2;
    std::optional<std::string> city;
    std::optional<std::string> state;
    std::string zip;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Address, line1, line2, city, state, zip)

struct InconvenientTime {
    std::vector<std::string> days;
    std::string from;
    std::string to;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InconvenientTime, days, from, to)

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
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(
    Collections, totalBalance, principalBalance, originalCreditor, accruedInterestAmount,
    chargeOffDate, firstDelinquencyDate, settlementAggregationRate, originalAccountNumber,
    itemizationBalance, postItemizationInterest, postItemizationFees, postItemizationCredits,
    postItemizationPayments, productType, originalProductType)

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
    std::optional<std::vector<InconvenientTime>> inconvenientTimes;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CustomerCreate, externalId, clientId, firstName,
                                                middleName, lastName, email, primaryPhone,
                                                secondaryPhone, address, ssnLastFour, dateOfBirth,
                                                collections, inconvenientTimes)

#ifdef COMPILE_TIME_ONE_MORE
struct OneMoreModel {
    std::string externalId;
    std::string firstName;
    std::optional<std::string> middleName;
    std::string lastName;
    std::string email;
    std::string primaryPhone;
    std::optional<std::string> secondaryPhone;
    Address address;
    std::optional<std::string> dateOfBirth;
    std::optional<Collections> collections;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OneMoreModel, externalId, firstName, middleName,
                                                lastName, email, primaryPhone, secondaryPhone,
                                                address, dateOfBirth, collections)
#endif

}  // namespace program

int main([[maybe_unused]] int argc, char*[]) {
    const std::string text{std::istreambuf_iterator<char>(std::cin), {}};
    try {
#ifdef COMPILE_TIME_ONE_MORE
        if (argc > 1) {
            const auto more = nlohmann::json::parse(text).get<program::OneMoreModel>();
            std::cout << nlohmann::json(more).dump() << '\n';
            return 0;
        }
#endif
        const auto customer = nlohmann::json::parse(text).get<program::CustomerCreate>();
        std::cout << nlohmann::json(customer).dump() << '\n';
    } catch (const nlohmann::json::exception& e) {
        std::cout << e.what() << '\n';
        return 1;
    }
}
