// What the files of the suite share: registration entry points and small helpers.
#pragma once

#include <string>

#include <benchmark/benchmark.h>

namespace bench {

void register_read_benchmarks();
void register_write_benchmarks();
void register_validate_benchmarks();
// Registered only where the build has date::date-tz (COLLECTCALL_BENCH_COMPLIANCE).
void register_compliance_benchmarks();

}  // namespace bench
