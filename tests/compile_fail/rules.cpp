// What the compiler refuses: a patch struct without a member for one of its target's members,
// a cross-field rule that names a member that does not exist, the schema of a struct whose
// cross-field rule has no schema note beside it, and a struct (here a derived one) with a member
// its description leaves out. Built once as it is (it must
// compile: the control) and once with each mistake defined (it must not, with the message the
// CMake test expects).
#include <collectcall/collectcall.hpp>

namespace shop {

struct Order {
    collectcall::Text id;
    std::optional<collectcall::Money> refund;
    std::optional<collectcall::Text> reason;
};
BOOST_DESCRIBE_STRUCT(Order, (), (id, refund, reason))

struct OrderPatch {
    collectcall::NotAllowed id;
    collectcall::Patch<collectcall::Money> refund;
#ifndef COLLECTCALL_FORGET_PATCH_MEMBER
    collectcall::Patch<collectcall::Text> reason;
#endif
};
#ifndef COLLECTCALL_FORGET_PATCH_MEMBER
BOOST_DESCRIBE_STRUCT(OrderPatch, (), (id, refund, reason))
#else
BOOST_DESCRIBE_STRUCT(OrderPatch, (), (id, refund))
#endif

// A returned order: an order and when it came back.
struct ReturnedOrder : Order {
    collectcall::Timestamp returnedAt;
#ifdef COLLECTCALL_FORGET_DESCRIBED_MEMBER
    std::optional<collectcall::Text> note;  // not in the description below
#endif
};
BOOST_DESCRIBE_STRUCT(ReturnedOrder, (Order), (returnedAt))

// A refund needs its reason.
inline void collectcall_check(const Order&, const collectcall::MemberStates& members,
                              collectcall::RuleErrors& errors) {
#ifndef COLLECTCALL_MISSPELL_RULE
    if (members.present<&Order::refund>() && !members.given<&Order::reason>())
#else
    if (members.present<&Order::refund>() && !members.given<&Order::reasn>())
#endif
        errors.member_error<&Order::reason>("required", "is required");
}

#ifndef COLLECTCALL_FORGET_SCHEMA_NOTE
inline void collectcall_schema(collectcall::schema_tag<Order>, collectcall::SchemaBuilder&) {}
#endif
inline void collectcall_schema(collectcall::schema_tag<OrderPatch>, collectcall::SchemaBuilder& s) {
    s.patch_of<Order>();
}

}  // namespace shop

int main() {
    auto order = collectcall::read<shop::Order>(R"({"id":"o-1","refund":1.50})");
    auto patch = collectcall::read<shop::OrderPatch>(R"({"reason":"damaged"})");
    shop::Order merged{};
    const auto errors =
        patch.ok() ? collectcall::merge_patch(merged, patch.value()) : collectcall::ErrorList{};
    auto returned = collectcall::read<shop::ReturnedOrder>(
        R"({"id":"o-1","returnedAt":"2026-11-20T15:00:00.000Z"})");
    const std::string schema =
        collectcall::json_schema<shop::Order>() + collectcall::write(returned.value());
    return order.ok() || !errors.empty() || !returned.ok() || schema.empty() ? 1 : 0;
}
