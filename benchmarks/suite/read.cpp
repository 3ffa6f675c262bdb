// read/{customer,customer_reversed,customer_shuffled,customer_full,bulk1000,mixed}/
// {collectcall,nlohmann,boost_json,rapidjson} and the floor,
// parse_only/{customer,customer_full,bulk1000,mixed}/simdjson_dom (and .../simdjson_dom_haswell on
// a machine where simdjson picks a wider kernel than AVX2's). collectcall and the floor read
// the same simdjson::padded_string; the peers, which need no padding, read the std::string.
// read/customer*/collectcall_copy reads the std::string too.
// `mixed` reads the corpus's 1000 varied single-customer documents, 5% of them invalid, per
// iteration: the unhappy path is measured too. `mixed_valid` and `mixed_faulty` are its two parts.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "collectcall/core/read.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"
#include "corpus/corpus.hpp"
#include "corpus/fixtures.hpp"
#include "peers/peers.hpp"
#include "suite/alloc_counter.hpp"
#include "suite/suite.hpp"

namespace bench {

namespace {

using PeerReadCustomer = bool (*)(std::string_view, const peers::Options&, peers::CustomerCreate&);
using PeerReadBulk = bool (*)(std::string_view, const peers::Options&, peers::BulkCreateRequest&);

peers::Options peer_options() {
    peers::Options options;
    options.today = corpus::get().today;
    return options;
}

void finish(benchmark::State& state, const AllocationCounter& allocs, std::size_t bytes) {
    allocs.report(state);
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

// collectcall reads the same padded input as the simdjson floor (parse_only/...), where it lies;
// `copy` reads a plain std::string instead, which costs a copy into the thread's padded buffer.
template <class T>
void read_collectcall(benchmark::State& state, const std::string* json, bool copy) {
    const collectcall::ReadOptions options = corpus::read_options(corpus::get());
    const simdjson::padded_string padded(*json);
    const auto read = [&] {
        return copy ? collectcall::read<T>(std::string_view(*json), options)
                    : collectcall::read<T>(padded, options);
    };
    if (!read().ok()) {  // also warms the thread's parser
        state.SkipWithError("collectcall rejects the document");
        return;
    }
    const AllocationCounter allocs;
    for (auto _ : state) {
        auto result = read();
        benchmark::DoNotOptimize(result);
    }
    finish(state, allocs, json->size());
}

template <class T, class Read>
void read_peer(benchmark::State& state, const std::string* json, Read read) {
    const peers::Options options = peer_options();
    T warm;
    if (!read(*json, options, warm)) {
        state.SkipWithError("the peer rejects the document");
        return;
    }
    const AllocationCounter allocs;
    for (auto _ : state) {
        T value;
        const bool ok = read(*json, options, value);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(value);
    }
    finish(state, allocs, json->size());
}

std::size_t total_bytes(const std::vector<corpus::Document>& documents) {
    std::size_t bytes = 0;
    for (const corpus::Document& d : documents)
        bytes += d.json.size();
    return bytes;
}

// The documents as simdjson reads them where they lie, made once before timing.
std::vector<simdjson::padded_string> padded_copies(const std::vector<corpus::Document>& documents) {
    std::vector<simdjson::padded_string> padded;
    padded.reserve(documents.size());
    for (const corpus::Document& d : documents)
        padded.emplace_back(d.json);
    return padded;
}

void read_collectcall_mixed(benchmark::State& state, const std::vector<corpus::Document>* docs) {
    const collectcall::ReadOptions options = corpus::read_options(corpus::get());
    const std::vector<simdjson::padded_string> padded = padded_copies(*docs);
    const AllocationCounter allocs;
    for (auto _ : state) {
        for (const simdjson::padded_string& json : padded) {
            auto result = collectcall::read<collectcall::CustomerCreate>(json, options);
            benchmark::DoNotOptimize(result);
        }
    }
    finish(state, allocs, total_bytes(*docs));
}

void read_peer_mixed(benchmark::State& state, const std::vector<corpus::Document>* docs,
                     PeerReadCustomer read) {
    const peers::Options options = peer_options();
    const AllocationCounter allocs;
    for (auto _ : state) {
        for (const corpus::Document& d : *docs) {
            peers::CustomerCreate value;
            const bool ok = read(d.json, options, value);
            benchmark::DoNotOptimize(ok);
            benchmark::DoNotOptimize(value);
        }
    }
    finish(state, allocs, total_bytes(*docs));
}

// The kernel of simdjson's AVX2 machines. Where the machine has a wider one (icelake: AVX-512),
// the DOM parse is also measured on this one (parse_only/.../simdjson_dom_haswell), which says how
// much of the reader's distance to the floor is the floor's wider vectors.
constexpr const char* avx2_kernel = "haswell";

// The kernel simdjson picked for this machine.
const simdjson::implementation* picked_kernel() {
    return simdjson::get_active_implementation();
}

// The AVX2 kernel when the machine runs it and simdjson picked a different one; else nullptr.
const simdjson::implementation* other_avx2_kernel() {
    const simdjson::implementation* kernel = simdjson::get_available_implementations()[avx2_kernel];
    if (kernel == nullptr || !kernel->supported_by_runtime_system() || kernel == picked_kernel()) {
        return nullptr;
    }
    return kernel;
}

// A DOM parser with room for `capacity` bytes, on `kernel` (nullptr: the one simdjson picked). A
// parser keeps the kernel it was allocated on; simdjson's choice is restored at once.
simdjson::dom::parser dom_parser(const simdjson::implementation* kernel, std::size_t capacity) {
    simdjson::dom::parser parser;
    if (kernel == nullptr) return parser;
    const simdjson::implementation* picked = picked_kernel();
    simdjson::get_active_implementation() = kernel;
    const simdjson::error_code error = parser.allocate(capacity);
    simdjson::get_active_implementation() = picked;
    if (error != simdjson::SUCCESS) throw std::runtime_error("simdjson cannot allocate a parser");
    return parser;
}

void parse_simdjson_dom_mixed(benchmark::State& state, const std::vector<corpus::Document>* docs,
                              const simdjson::implementation* kernel) {
    std::size_t largest = 0;
    for (const corpus::Document& d : *docs)
        largest = std::max(largest, d.json.size());
    simdjson::dom::parser parser = dom_parser(kernel, largest);
    const std::vector<simdjson::padded_string> padded = padded_copies(*docs);
    const AllocationCounter allocs;
    for (auto _ : state) {
        for (const simdjson::padded_string& json : padded) {
            simdjson::dom::element root;
            const auto error = parser.parse(json).get(root);
            benchmark::DoNotOptimize(error);
            benchmark::DoNotOptimize(root);
        }
    }
    finish(state, allocs, total_bytes(*docs));
}

void parse_simdjson_dom(benchmark::State& state, const std::string* json,
                        const simdjson::implementation* kernel) {
    simdjson::dom::parser parser = dom_parser(kernel, json->size());
    const simdjson::padded_string padded(*json);
    simdjson::dom::element warm;
    if (parser.parse(padded).get(warm) != simdjson::SUCCESS) {
        state.SkipWithError("simdjson rejects the document");
        return;
    }
    const AllocationCounter allocs;
    for (auto _ : state) {
        simdjson::dom::element root;
        const auto error = parser.parse(padded).get(root);
        benchmark::DoNotOptimize(error);
        benchmark::DoNotOptimize(root);
    }
    finish(state, allocs, json->size());
}

void register_document(const std::string& name, const std::string* json, bool bulk) {
    using benchmark::RegisterBenchmark;
    const std::string prefix = "read/" + name + "/";
    if (bulk) {
        RegisterBenchmark((prefix + "collectcall").c_str(),
                          read_collectcall<collectcall::BulkCreateRequest>, json, false);
        const auto peer = [&](std::string_view peer_name, PeerReadBulk read) {
            RegisterBenchmark((prefix + std::string(peer_name)).c_str(),
                              read_peer<peers::BulkCreateRequest, PeerReadBulk>, json, read);
        };
        peer(peers::nlohmann_json::name, &peers::nlohmann_json::read);
        peer(peers::boost_json::name, &peers::boost_json::read);
        peer(peers::rapidjson_dom::name, &peers::rapidjson_dom::read);
    } else {
        RegisterBenchmark((prefix + "collectcall").c_str(),
                          read_collectcall<collectcall::CustomerCreate>, json, false);
        RegisterBenchmark((prefix + "collectcall_copy").c_str(),
                          read_collectcall<collectcall::CustomerCreate>, json, true);
        const auto peer = [&](std::string_view peer_name, PeerReadCustomer read) {
            RegisterBenchmark((prefix + std::string(peer_name)).c_str(),
                              read_peer<peers::CustomerCreate, PeerReadCustomer>, json, read);
        };
        peer(peers::nlohmann_json::name, &peers::nlohmann_json::read);
        peer(peers::boost_json::name, &peers::boost_json::read);
        peer(peers::rapidjson_dom::name, &peers::rapidjson_dom::read);
    }
}

}  // namespace

void register_read_benchmarks() {
    const corpus::Corpus& c = corpus::get();
    register_document("customer", &c.customer, false);
    register_document("customer_reversed", &c.customer_reversed, false);
    register_document("customer_shuffled", &c.customer_shuffled, false);
    register_document("customer_full", &c.customer_full, false);
    register_document("bulk1000", &c.bulk1000, true);
    using benchmark::RegisterBenchmark;
    RegisterBenchmark("read/mixed/collectcall", read_collectcall_mixed, &c.mixed);
    const auto peer = [&](std::string_view peer_name, PeerReadCustomer read) {
        RegisterBenchmark(("read/mixed/" + std::string(peer_name)).c_str(), read_peer_mixed,
                          &c.mixed, read);
    };
    peer(peers::nlohmann_json::name, &peers::nlohmann_json::read);
    peer(peers::boost_json::name, &peers::boost_json::read);
    peer(peers::rapidjson_dom::name, &peers::rapidjson_dom::read);
    const auto dom_floor = [](const std::string& doc, auto parse, const auto* input) {
        RegisterBenchmark(("parse_only/" + doc + "/simdjson_dom").c_str(), parse, input, nullptr);
        if (const simdjson::implementation* avx2 = other_avx2_kernel()) {
            RegisterBenchmark(("parse_only/" + doc + "/simdjson_dom_" + avx2_kernel).c_str(), parse,
                              input, avx2);
        }
    };
    dom_floor("customer", &parse_simdjson_dom, &c.customer);
    dom_floor("customer_full", &parse_simdjson_dom, &c.customer_full);
    dom_floor("bulk1000", &parse_simdjson_dom, &c.bulk1000);
    dom_floor("mixed", &parse_simdjson_dom_mixed, &c.mixed);

    // The mixed documents split into the valid ones and the faulty ones (5%), each against the
    // DOM parse of the same documents: what each part costs the reader (docs/benchmarks.md).
    const auto part = [&c](bool faulty) {
        std::vector<corpus::Document> documents;
        for (const corpus::Document& d : c.mixed) {
            if ((d.fault != corpus::Fault::none) == faulty) documents.push_back(d);
        }
        return documents;
    };
    static const std::vector<corpus::Document> valid = part(false);
    static const std::vector<corpus::Document> faulty = part(true);
    RegisterBenchmark("read/mixed_valid/collectcall", read_collectcall_mixed, &valid);
    RegisterBenchmark("parse_only/mixed_valid/simdjson_dom", parse_simdjson_dom_mixed, &valid,
                      nullptr);
    RegisterBenchmark("read/mixed_faulty/collectcall", read_collectcall_mixed, &faulty);
    RegisterBenchmark("parse_only/mixed_faulty/simdjson_dom", parse_simdjson_dom_mixed, &faulty,
                      nullptr);
}

}  // namespace bench
