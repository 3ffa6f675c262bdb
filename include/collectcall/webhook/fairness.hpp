// The order in which due webhook messages are handed to delivery workers (API.md section 9):
// accounts take turns, and within an account its receivers take turns, so that one account's
// backlog (slow or dead receivers, many host names) delays another account's deliveries by at
// most one attempt, and one receiver's backlog does not hold up the account's other receivers.
//
// Also the outbox's other rules that are not about bytes on the wire: how many attempts may begin
// and never finish before a message is parked, and how long finished messages are kept.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collectcall::webhook {

// A message whose attempts began this many times without finishing (the process died during
// each) is parked (given up) instead of being attempted at every start.
inline constexpr int max_unfinished_attempts = 3;

// Delivered and given-up outbox messages, and call events, are kept this long (API.md 11).
inline constexpr std::chrono::hours outbox_retention{24 * 7};

// Indices into `items` in the order to serve them: round 0 takes each account's first item,
// round 1 each account's second, and so on; the accounts of a round start after
// `after_account` (the last one served) and wrap around, so that a process that can serve only
// a few items at a time still reaches every account in turn. An account's own items alternate
// between its receivers the same way (each receiver's first item, then each one's second), in
// the order the items came for one receiver. `account_of(item)` and `receiver_of(item)` give
// keys convertible to std::string_view.
template <class Item, class AccountOf, class ReceiverOf>
std::vector<std::size_t> fair_order(const std::vector<Item>& items, AccountOf account_of,
                                    ReceiverOf receiver_of, std::string_view after_account = {}) {
    struct Receiver {
        std::vector<std::size_t> items;
    };
    struct Account {
        std::vector<std::string> receivers;  // in the order they first appear
        std::map<std::string, Receiver, std::less<>> by_receiver;
        std::vector<std::size_t> order;  // its items, receivers taking turns
    };
    std::map<std::string, Account, std::less<>> accounts;
    for (std::size_t i = 0; i < items.size(); ++i) {
        Account& account = accounts[std::string(std::string_view(account_of(items[i])))];
        const std::string_view receiver_key = receiver_of(items[i]);
        auto it = account.by_receiver.find(receiver_key);
        if (it == account.by_receiver.end()) {
            it = account.by_receiver.emplace(std::string(receiver_key), Receiver{}).first;
            account.receivers.emplace_back(receiver_key);
        }
        it->second.items.push_back(i);
    }

    std::size_t rounds = 0;
    for (auto& [name, account] : accounts) {
        for (std::size_t round = 0;; ++round) {
            bool any = false;
            for (const std::string& receiver : account.receivers) {
                const auto& list = account.by_receiver.find(receiver)->second.items;
                if (round < list.size()) {
                    account.order.push_back(list[round]);
                    any = true;
                }
            }
            if (!any) break;
        }
        rounds = std::max(rounds, account.order.size());
    }

    // Accounts after the last one served first, then the rest from the start.
    std::vector<const Account*> turn;
    for (auto it = accounts.upper_bound(after_account); it != accounts.end(); ++it)
        turn.push_back(&it->second);
    for (auto it = accounts.begin(); it != accounts.end() && it->first <= after_account; ++it)
        turn.push_back(&it->second);

    std::vector<std::size_t> order;
    order.reserve(items.size());
    for (std::size_t round = 0; round < rounds; ++round) {
        for (const Account* account : turn) {
            if (round < account->order.size()) order.push_back(account->order[round]);
        }
    }
    return order;
}

}  // namespace collectcall::webhook
