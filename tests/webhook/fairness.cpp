#include <collectcall/webhook/fairness.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace wh = collectcall::webhook;

namespace {

struct Item {
    std::string account;
    std::string receiver;
    std::string name;
};

std::vector<std::string> names(const std::vector<Item>& items, std::string_view after = {}) {
    std::vector<std::string> out;
    for (const std::size_t i : wh::fair_order(
             items, [](const Item& x) -> std::string_view { return x.account; },
             [](const Item& x) -> std::string_view { return x.receiver; }, after)) {
        out.push_back(items[i].name);
    }
    return out;
}

}  // namespace

TEST_CASE("accounts take turns however long one account's backlog is", "[webhook][fairness]") {
    std::vector<Item> items;
    for (int i = 0; i < 5; ++i)
        items.push_back({"a", "r" + std::to_string(i), "a" + std::to_string(i)});
    items.push_back({"b", "x", "b0"});
    items.push_back({"c", "y", "c0"});
    CHECK(names(items) == std::vector<std::string>{"a0", "b0", "c0", "a1", "a2", "a3", "a4"});
    // After serving a, the next turn is b's; after c, a's again.
    CHECK(names(items, "a") == std::vector<std::string>{"b0", "c0", "a0", "a1", "a2", "a3", "a4"});
    CHECK(names(items, "c") == std::vector<std::string>{"a0", "b0", "c0", "a1", "a2", "a3", "a4"});
}

TEST_CASE("an account's receivers take turns", "[webhook][fairness]") {
    const std::vector<Item> items{{"a", "slow", "s1"},  {"a", "slow", "s2"},  {"a", "slow", "s3"},
                                  {"a", "quick", "q1"}, {"a", "other", "o1"}, {"a", "quick", "q2"}};
    CHECK(names(items) == std::vector<std::string>{"s1", "q1", "o1", "s2", "q2", "s3"});
    CHECK(names({}).empty());
}
