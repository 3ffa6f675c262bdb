// write/{customer,bulk_result1000}/{collectcall,nlohmann,boost_json,rapidjson}: the same stored
// customer, and the same result of a 1000-item bulk request, serialised to a std::string.
#include <string>

#include "collectcall/core/write.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"
#include "corpus/corpus.hpp"
#include "corpus/fixtures.hpp"
#include "peers/convert.hpp"
#include "peers/peers.hpp"
#include "suite/alloc_counter.hpp"
#include "suite/suite.hpp"

namespace bench {

namespace {

template <class T, class Write>
void write_value(benchmark::State& state, const T* value, Write write) {
    std::size_t bytes = write(*value).size();
    const AllocationCounter allocs;
    for (auto _ : state) {
        std::string json = write(*value);
        benchmark::DoNotOptimize(json.data());
        bytes = json.size();
    }
    allocs.report(state);
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

struct Values {
    collectcall::Customer customer;
    collectcall::BulkResult bulk;
    peers::Customer peer_customer;
    peers::BulkResult peer_bulk;
};

const Values& values() {
    static const Values v = [] {
        Values out;
        out.customer = corpus::stored_customer(corpus::get());
        out.bulk = corpus::bulk_result(corpus::get());
        out.peer_customer = peers::to_peer(out.customer);
        out.peer_bulk = peers::to_peer(out.bulk);
        return out;
    }();
    return v;
}

template <class CC, class Peer>
void register_value(const std::string& name, const CC* value, const Peer* peer_value) {
    using benchmark::RegisterBenchmark;
    const std::string prefix = "write/" + name + "/";
    RegisterBenchmark((prefix + "collectcall").c_str(), write_value<CC, std::string (*)(const CC&)>,
                      value, [](const CC& v) { return collectcall::write(v); });
    using PeerWrite = std::string (*)(const Peer&);
    RegisterBenchmark((prefix + std::string(peers::nlohmann_json::name)).c_str(),
                      write_value<Peer, PeerWrite>, peer_value,
                      PeerWrite(&peers::nlohmann_json::write));
    RegisterBenchmark((prefix + std::string(peers::boost_json::name)).c_str(),
                      write_value<Peer, PeerWrite>, peer_value,
                      PeerWrite(&peers::boost_json::write));
    RegisterBenchmark((prefix + std::string(peers::rapidjson_dom::name)).c_str(),
                      write_value<Peer, PeerWrite>, peer_value,
                      PeerWrite(&peers::rapidjson_dom::write));
}

}  // namespace

void register_write_benchmarks() {
    const Values& v = values();
    register_value("customer", &v.customer, &v.peer_customer);
    register_value("bulk_result1000", &v.bulk, &v.peer_bulk);
}

}  // namespace bench
