// Helpers of the compliance tests: instants written as wall time, and the verdict of one check.
#pragma once

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <string_view>

#include <date/date.h>
#include <date/tz.h>

#include "collectcall/compliance/engine.hpp"

namespace compliance_test {

using collectcall::compliance::CallTime;

// An instant given as UTC wall time.
inline CallTime utc(int y, unsigned m, unsigned d, int hh, int mm, int ss = 0) {
    return CallTime{date::sys_days{date::year{y} / m / d}} + std::chrono::hours{hh} +
           std::chrono::minutes{mm} + std::chrono::seconds{ss};
}

// An instant given as wall time in a zone (the earlier one where the wall time repeats).
inline CallTime local(std::string_view zone, int y, unsigned m, unsigned d, int hh, int mm,
                      int ss = 0) {
    const auto wall = date::local_days{date::year{y} / m / d} + std::chrono::hours{hh} +
                      std::chrono::minutes{mm} + std::chrono::seconds{ss};
    return CallTime{date::locate_zone(zone)->to_sys(wall, date::choose::earliest)};
}

struct Found {
    bool present = false;
    bool passed = false;
    std::string reason;
};

// The check with this id, wherever it landed.
inline Found find(const collectcall::ComplianceResult& result, std::string_view id) {
    for (const auto& check : result.checksPassed) {
        if (collectcall::enum_name(check.id) == id) return {true, true, check.reason};
    }
    for (const auto& check : result.checksFailed) {
        if (collectcall::enum_name(check.id) == id) return {true, false, check.reason};
    }
    return {};
}

// The ids of a result's checks in evaluation order (passed and failed merged by that order).
inline std::string ids(const collectcall::ComplianceResult& result) {
    std::string out;
    for (auto id : collectcall::enum_values<collectcall::CheckId>) {
        if (find(result, collectcall::enum_name(id)).present) {
            if (!out.empty()) out += ' ';
            out += collectcall::enum_name(id);
        }
    }
    return out;
}

}  // namespace compliance_test
