// Heap allocations made by the benchmarking thread, counted by a replaced global operator new
// (C++ allocations) and by malloc/calloc/realloc wrappers (libraries that call the C allocator
// directly, such as RapidJSON's CrtAllocator). Reported per operation as the "allocs" counter.
#pragma once

#include <cstdint>

#include <benchmark/benchmark.h>

namespace bench {

std::uint64_t allocations() noexcept;

class AllocationCounter {
  public:
    AllocationCounter() : start_(allocations()) {}
    // Sets the "allocs" counter to the allocations per iteration since construction.
    void report(benchmark::State& state) const {
        const auto count = static_cast<double>(allocations() - start_);
        const auto iterations = static_cast<double>(state.iterations());
        state.counters["allocs"] = benchmark::Counter(iterations > 0 ? count / iterations : 0);
    }

  private:
    std::uint64_t start_;
};

}  // namespace bench
