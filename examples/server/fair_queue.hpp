// FairQueue: work due at a time, kept per key (an account) and served in turn (API.md section 17,
// "background work is fair"). Among the keys that have an item due, each gives one before any
// gives a second, so that one account's thousands of due items delay another account's by one
// item each, not by all of them. Within a key, items come in the order they are due (and in the
// order they were pushed when due together).
//
// Not thread-safe: its owner holds its lock around it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace collectcall::server {

template <class Item>
class FairQueue {
  public:
    using TimePoint = std::chrono::steady_clock::time_point;

    void push(std::string key, TimePoint due, Item item) {
        auto [lane, added] = lanes_.try_emplace(key);
        if (added) turn_.push_back(std::move(key));
        lane->second.push(Entry{due, next_seq_++, std::move(item)});
        ++size_;
    }

    // The next item due at `now`: the first key in turn whose earliest item is due gives it and
    // goes to the end of the turn. nullopt when nothing is due.
    std::optional<Item> pop_due(TimePoint now) {
        for (std::size_t looked = 0, keys = turn_.size(); looked < keys; ++looked) {
            std::string key = std::move(turn_.front());
            turn_.pop_front();
            auto lane = lanes_.find(key);
            if (lane->second.top().due > now) {
                turn_.push_back(std::move(key));
                continue;
            }
            // top() is const: the entry is copied out before it is popped.
            Item item = lane->second.top().item;
            lane->second.pop();
            --size_;
            if (lane->second.empty()) {
                lanes_.erase(lane);
            } else {
                turn_.push_back(std::move(key));
            }
            return item;
        }
        return std::nullopt;
    }

    // When the earliest item of any key is due, or nullopt when there is none.
    [[nodiscard]] std::optional<TimePoint> next_due() const {
        std::optional<TimePoint> soonest;
        for (const auto& [key, lane] : lanes_) {
            if (!soonest || lane.top().due < *soonest) soonest = lane.top().due;
        }
        return soonest;
    }

    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t keys() const noexcept { return lanes_.size(); }

  private:
    struct Entry {
        TimePoint due;
        std::uint64_t seq;  // pushed earlier comes first among items due together
        Item item;
        bool operator>(const Entry& other) const {
            return due != other.due ? due > other.due : seq > other.seq;
        }
    };
    using Lane = std::priority_queue<Entry, std::vector<Entry>, std::greater<>>;

    std::unordered_map<std::string, Lane> lanes_;
    std::deque<std::string> turn_;  // the keys that have items, in the order they are served
    std::uint64_t next_seq_ = 0;
    std::size_t size_ = 0;
};

}  // namespace collectcall::server
