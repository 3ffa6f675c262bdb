// compliance/{evaluate,next_eligible}/{daily_limit,days_away}: what a refused contact costs the
// gate. evaluate() is one evaluation of the checks at one instant, the floor of every decision;
// next_eligible() searches the instants after a refusal for the first that passes (the
// decision's nextEligibleAt), evaluating at each boundary it resolves. Their ratio is how many
// evaluations' worth a refusal's search costs.
//   daily_limit: a New York customer called four times today at noon (default policy): next
//                eligible at 08:00 tomorrow.
//   days_away:   under regulation-f, seven calls in the last three days: next eligible days
//                later, once the first day's calls leave the seven-day window.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "collectcall/compliance/next_eligible.hpp"
#include "suite/suite.hpp"

namespace bench {

namespace {

using collectcall::compliance::CallTime;
using collectcall::compliance::ComplianceInput;
using namespace std::chrono_literals;

struct Case {
    std::vector<CallTime> calls;
    collectcall::CompliancePolicy policy = collectcall::CompliancePolicy::hosted;
};

// 2026-11-20 at 12:00 in New York (17:00 UTC).
CallTime noon() {
    return CallTime{date::sys_days{date::year{2026} / 11 / 20}} + 17h;
}

Case daily_limit() {
    Case c;
    for (int i = 1; i <= 4; ++i)
        c.calls.push_back(noon() - std::chrono::minutes{10 * i});
    return c;
}

Case days_away() {
    Case c;
    for (std::chrono::hours back : {50h, 49h, 48h, 26h, 25h, 2h, 1h})
        c.calls.push_back(noon() - back);
    c.policy = collectcall::CompliancePolicy::regulation_f;
    return c;
}

ComplianceInput input_of(const Case& c) {
    ComplianceInput in;
    in.policy = c.policy;
    in.active = true;
    in.state = "NY";
    in.zip5 = "10001";
    in.now = noon();
    in.placed_calls = c.calls;
    return in;
}

template <class F>
void run(benchmark::State& state, Case (*make)(), F f) {
    Case c = make();
    ComplianceInput in = input_of(c);
    // The case is a refusal, with a next eligible time: what it claims to measure.
    if (collectcall::compliance::evaluate(in).passed ||
        !collectcall::compliance::next_eligible(in)) {
        state.SkipWithError("the case is not a refusal with a next eligible time");
        return;
    }
    // Each iteration a search of its own: the instant moves within the minute, the answer stays.
    std::int64_t i = 0;
    for (auto _ : state) {
        in.now = noon() + std::chrono::seconds{i++ % 60};
        benchmark::DoNotOptimize(f(in));
    }
    state.SetItemsProcessed(state.iterations());
}

}  // namespace

void register_compliance_benchmarks() {
    using benchmark::RegisterBenchmark;
    struct Entry {
        const char* name;
        Case (*make)();
    };
    for (const Entry& e : {Entry{"daily_limit", daily_limit}, Entry{"days_away", days_away}}) {
        const std::string suffix = std::string("/") + e.name;
        RegisterBenchmark(("compliance/evaluate" + suffix).c_str(),
                          [make = e.make](benchmark::State& state) {
                              run(state, make, [](const ComplianceInput& in) {
                                  return collectcall::compliance::evaluate(in).passed;
                              });
                          });
        RegisterBenchmark(("compliance/next_eligible" + suffix).c_str(),
                          [make = e.make](benchmark::State& state) {
                              run(state, make, [](const ComplianceInput& in) {
                                  return collectcall::compliance::next_eligible(in);
                              });
                          });
    }
}

}  // namespace bench
