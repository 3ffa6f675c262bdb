// Collections (SPEC.md 2.4): the debt. totalBalance is required, every other member optional
// and nullable (API.md section 4). Amounts are exact decimals >= 0.
#pragma once

#include <optional>

#include <boost/describe/class.hpp>

#include "collectcall/core/presence.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/date.hpp"
#include "collectcall/types/json_object.hpp"
#include "collectcall/types/money.hpp"
#include "collectcall/types/text.hpp"

namespace collectcall {

struct Collections {
    Money totalBalance;
    std::optional<Money> principalBalance;
    std::optional<Text> originalCreditor;
    std::optional<Money> accruedInterestAmount;
    std::optional<PastDate> chargeOffDate;
    std::optional<PastDate> firstDelinquencyDate;
    std::optional<Money> settlementAggregationRate;
    std::optional<Text> originalAccountNumber;
    std::optional<Money> itemizationBalance;
    std::optional<Money> postItemizationInterest;
    std::optional<Money> postItemizationFees;
    std::optional<Money> postItemizationCredits;
    std::optional<Money> postItemizationPayments;
    std::optional<Text> productType;
    std::optional<Text> originalProductType;
    // Organisation-specific fields (the hosted service's extensions): any object, kept exactly.
    std::optional<JsonObject> extensions;

    friend bool operator==(const Collections&, const Collections&) = default;
};
BOOST_DESCRIBE_STRUCT(Collections, (),
                      (totalBalance, principalBalance, originalCreditor, accruedInterestAmount,
                       chargeOffDate, firstDelinquencyDate, settlementAggregationRate,
                       originalAccountNumber, itemizationBalance, postItemizationInterest,
                       postItemizationFees, postItemizationCredits, postItemizationPayments,
                       productType, originalProductType, extensions))

// The collections member of a PATCH body: merged member by member into the stored block, or,
// when the customer has none, the whole new block (then totalBalance is required).
struct CollectionsPatch {
    Patch<Money> totalBalance;
    Patch<Money> principalBalance;
    Patch<Text> originalCreditor;
    Patch<Money> accruedInterestAmount;
    Patch<PastDate> chargeOffDate;
    Patch<PastDate> firstDelinquencyDate;
    Patch<Money> settlementAggregationRate;
    Patch<Text> originalAccountNumber;
    Patch<Money> itemizationBalance;
    Patch<Money> postItemizationInterest;
    Patch<Money> postItemizationFees;
    Patch<Money> postItemizationCredits;
    Patch<Money> postItemizationPayments;
    Patch<Text> productType;
    Patch<Text> originalProductType;
    Patch<JsonObject> extensions;  // merged by RFC 7396

    friend bool operator==(const CollectionsPatch&, const CollectionsPatch&) = default;
};
BOOST_DESCRIBE_STRUCT(CollectionsPatch, (),
                      (totalBalance, principalBalance, originalCreditor, accruedInterestAmount,
                       chargeOffDate, firstDelinquencyDate, settlementAggregationRate,
                       originalAccountNumber, itemizationBalance, postItemizationInterest,
                       postItemizationFees, postItemizationCredits, postItemizationPayments,
                       productType, originalProductType, extensions))

template <class Schema>
void collectcall_schema(schema_tag<CollectionsPatch>, Schema& s) {
    s["description"] =
        "Members of the collections block to change. For a customer without collections this "
        "is the whole new block, and then totalBalance is required.";
    s.template patch_of<Collections>();
}

}  // namespace collectcall
