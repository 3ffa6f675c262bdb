// What benchmarks/profile.py runs under callgrind: reads the corpus document of one benchmark
// `repetitions` times, with collectcall or with simdjson's DOM parser, and nothing else, so that
// the difference between a run with N repetitions and one with none is what N reads execute.
// Built for AVX2 (x86-64-v3) rather than -march=native, as valgrind runs no AVX-512; the DOM
// parser picks its kernel at run time and takes the AVX2 one under valgrind too.
//
//   collectcall_profile_driver {collectcall|dom} {customer|customer_full|bulk1000|mixed} N
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "collectcall/core/read.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"
#include "corpus/corpus.hpp"
#include "corpus/fixtures.hpp"

namespace {

int usage() {
    std::fputs(
        "usage: collectcall_profile_driver {collectcall|dom} "
        "{customer|customer_full|bulk1000|mixed} N\n",
        stderr);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) return usage();
    const std::string_view reader = argv[1];
    const std::string_view document = argv[2];
    const long repetitions = std::strtol(argv[3], nullptr, 10);
    if ((reader != "collectcall" && reader != "dom") || repetitions < 0) return usage();

    const corpus::Corpus& c = corpus::get();
    std::vector<simdjson::padded_string> texts;
    if (document == "customer") {
        texts.emplace_back(c.customer);
    } else if (document == "customer_full") {
        texts.emplace_back(c.customer_full);
    } else if (document == "bulk1000") {
        texts.emplace_back(c.bulk1000);
    } else if (document == "mixed") {
        for (const corpus::Document& d : c.mixed)
            texts.emplace_back(d.json);
    } else {
        return usage();
    }

    const collectcall::ReadOptions options = corpus::read_options(c);
    simdjson::dom::parser dom;
    long valid = 0;
    for (long r = 0; r < repetitions; ++r) {
        for (const simdjson::padded_string& text : texts) {
            if (reader == "dom") {
                simdjson::dom::element root;
                valid += dom.parse(text).get(root) == simdjson::SUCCESS ? 1 : 0;
            } else if (document == "bulk1000") {
                valid += collectcall::read<collectcall::BulkCreateRequest>(text, options).ok();
            } else {
                valid += collectcall::read<collectcall::CustomerCreate>(text, options).ok();
            }
        }
    }
    std::printf("%ld of %ld documents valid\n", valid,
                repetitions * static_cast<long>(texts.size()));
    return 0;
}
