// A payment split between accounts, {"checking": 60, "savings": 40}: whole percentages, each
// from 1 to 100, that add up to 100. Read through the hook, then used like any member type.
#pragma once

#include <collectcall/collectcall.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace example {

struct PercentSplit {
    std::vector<std::pair<std::string, int>> parts;  // in the document's order
};

inline bool collectcall_read(collectcall::ValueReader& in, PercentSplit& out) {
    out.parts.clear();
    std::int64_t total = 0;
    const bool valid = in.object([&](std::string_view account, collectcall::ValueReader& share) {
        for (const auto& part : out.parts) {
            if (part.first == account) {
                return share.error("duplicate_field", "appears more than once");
            }
        }
        std::int64_t percent = 0;
        if (!share.read(percent)) return;  // not an integer: reported at /…/account
        if (percent < 1 || percent > 100) return share.error("range", "must be from 1 to 100");
        out.parts.emplace_back(account, static_cast<int>(percent));
        total += percent;
    });
    if (!valid) return false;  // not an object, or an error in a member
    if (total != 100) {
        in.error("range", "must add up to 100");
        return false;
    }
    return true;
}

inline void collectcall_write(collectcall::Writer& writer, const PercentSplit& split) {
    writer.raw('{');
    for (std::size_t i = 0; i < split.parts.size(); ++i) {
        if (i != 0) writer.raw(',');
        writer.string(split.parts[i].first);
        writer.raw(':');
        writer.raw(std::to_string(split.parts[i].second));
    }
    writer.raw('}');
}

struct Payment {
    collectcall::Money amount;
    PercentSplit split;
};
BOOST_DESCRIBE_STRUCT(Payment, (), (amount, split))

}  // namespace example
