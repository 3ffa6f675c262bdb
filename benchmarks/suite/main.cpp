// The benchmark suite's entry point: says which simdjson kernels run, records the machine
// context into the JSON output, registers every benchmark and runs Google Benchmark.
#include <cstdio>
#include <string>

#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "corpus/corpus.hpp"
#include "peers/regex_validators.hpp"
#include "suite/suite.hpp"

#ifndef COLLECTCALL_BENCH_CXX_FLAGS
#define COLLECTCALL_BENCH_CXX_FLAGS "unknown"
#endif

int main(int argc, char** argv) {
    // On-Demand (collectcall::read) is compiled into this program for its own flags; the DOM
    // parser (parse_only/*) lives in libsimdjson and picks a kernel at run time.
    const std::string ondemand = SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION);
    const std::string dom = simdjson::get_active_implementation()->name();
    const corpus::Corpus& c = corpus::get();
    std::fprintf(
        stderr,
        "simdjson %s: On-Demand kernel (collectcall::read) %s, DOM kernel (parse_only) %s\n"
        "corpus: seed %llx, customer %zu bytes, bulk1000 %zu bytes\n",
        SIMDJSON_STRINGIFY(SIMDJSON_VERSION), ondemand.c_str(), dom.c_str(),
        static_cast<unsigned long long>(c.seed), c.customer.size(), c.bulk1000.size());
    benchmark::AddCustomContext("simdjson_version", SIMDJSON_STRINGIFY(SIMDJSON_VERSION));
    benchmark::AddCustomContext("simdjson_ondemand_kernel", ondemand);
    benchmark::AddCustomContext("simdjson_dom_kernel", dom);
#ifdef __clang__
    benchmark::AddCustomContext("compiler", "clang " __clang_version__);
#else
    benchmark::AddCustomContext("compiler", "GCC " __VERSION__);
#endif
    benchmark::AddCustomContext("cxx_flags", COLLECTCALL_BENCH_CXX_FLAGS);
    benchmark::AddCustomContext("corpus_customer_bytes", std::to_string(c.customer.size()));
    benchmark::AddCustomContext("corpus_bulk1000_bytes", std::to_string(c.bulk1000.size()));
    benchmark::AddCustomContext("libphonenumber",
                                peers::libphonenumber::available() ? "yes" : "not found");

    bench::register_read_benchmarks();
    bench::register_write_benchmarks();
    bench::register_validate_benchmarks();
#ifdef COLLECTCALL_BENCH_COMPLIANCE
    bench::register_compliance_benchmarks();
#endif

    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
