// Cross-field rules (core/check.hpp): what a rule is told of the members, and where each of
// RuleErrors' reports lands, through both passes of the reader (a valid document goes through
// the fast pass first, whose verdict must be the full pass's).
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectcall/core/check.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/read.hpp"

namespace rules {

struct Shipment {
    std::optional<std::string> carrier;
    std::optional<std::string> tracking;
    std::vector<std::int64_t> parcels;
    friend bool operator==(const Shipment&, const Shipment&) = default;
};
BOOST_DESCRIBE_STRUCT(Shipment, (), (carrier, tracking, parcels))

// A tracking number needs its carrier (at the member); a parcel of weight 0 is refused at the
// element; more than three parcels, at the shipment itself.
inline void collectcall_check(const Shipment& s, const collectcall::MemberStates& members,
                              collectcall::RuleErrors& errors) {
    if (members.present<&Shipment::tracking>() && !members.given<&Shipment::carrier>())
        errors.member_error<&Shipment::carrier>("required", "is required with tracking");
    for (std::size_t i = 0; i < s.parcels.size(); ++i) {
        if (s.parcels[i] == 0) errors.element_error<&Shipment::parcels>(i, "minimum", "weighs 0");
    }
    if (s.parcels.size() > 3) errors.error("length", "has more than 3 parcels");
}

struct Order {
    std::string id;
    Shipment shipment;
    friend bool operator==(const Order&, const Order&) = default;
};
BOOST_DESCRIBE_STRUCT(Order, (), (id, shipment))

std::vector<std::string> describe(const collectcall::ErrorList& errors) {
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.path + " " + e.code + " " + e.message);
    return out;
}

}  // namespace rules

TEST_CASE("a cross-field rule reports at the member, the element and the object", "[read][check]") {
    using rules::describe;
    using rules::Order;
    for (const bool fast : {true, false}) {
        collectcall::ReadOptions options;
        options.fast_pass = fast;
        INFO("fast pass " << fast);

        auto valid = collectcall::read<Order>(
            R"({"id":"o1","shipment":{"carrier":"x","tracking":"t","parcels":[1,2]}})", options);
        REQUIRE(valid.ok());
        CHECK(valid.value().shipment.parcels == std::vector<std::int64_t>{1, 2});

        auto member = collectcall::read<Order>(
            R"({"id":"o1","shipment":{"tracking":"t","parcels":[]}})", options);
        CHECK(describe(member.errors()) ==
              std::vector<std::string>{"/shipment/carrier required is required with tracking"});

        // null is not given: the rule fires for it too.
        auto null_carrier = collectcall::read<Order>(
            R"({"id":"o1","shipment":{"carrier":null,"tracking":"t","parcels":[]}})", options);
        CHECK(describe(null_carrier.errors()) ==
              std::vector<std::string>{"/shipment/carrier required is required with tracking"});

        auto elements =
            collectcall::read<Order>(R"({"id":"o1","shipment":{"parcels":[3,0,4,0,5]}})", options);
        CHECK(describe(elements.errors()) ==
              std::vector<std::string>{"/shipment/parcels/1 minimum weighs 0",
                                       "/shipment/parcels/3 minimum weighs 0",
                                       "/shipment length has more than 3 parcels"});
    }
}

TEST_CASE("a member that failed is given but not present to a rule", "[read][check]") {
    // carrier is present with the wrong type: it has its own error, and the rule does not add
    // one about its absence.
    auto result =
        collectcall::read<rules::Order>(R"({"id":"o1","shipment":{"carrier":7,"tracking":"t",)"
                                        R"("parcels":[]}})");
    CHECK(rules::describe(result.errors()) ==
          std::vector<std::string>{"/shipment/carrier type must be a string"});
}
