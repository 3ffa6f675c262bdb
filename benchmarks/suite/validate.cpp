// validate/{e164,zip,date,email,uuid}/{collectcall,std_regex} and validate/e164/libphonenumber:
// one call per iteration, cycling through 64 realistic inputs of which one in eight is invalid.
#include <string>
#include <string_view>
#include <vector>

#include "collectcall/types/date.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/email.hpp"
#include "collectcall/types/uuid.hpp"
#include "collectcall/types/zip.hpp"
#include "corpus/corpus.hpp"
#include "peers/regex_validators.hpp"
#include "suite/alloc_counter.hpp"
#include "suite/suite.hpp"

namespace bench {

namespace {

using Validator = bool (*)(std::string_view);

void validate(benchmark::State& state, const std::vector<std::string>* inputs, Validator valid) {
    const std::size_t n = inputs->size();
    for (const std::string& s : *inputs)
        benchmark::DoNotOptimize(valid(s));  // warm up
    std::size_t i = 0;
    const AllocationCounter allocs;
    for (auto _ : state) {
        const bool ok = valid((*inputs)[i]);
        benchmark::DoNotOptimize(ok);
        i = i + 1 == n ? 0 : i + 1;
    }
    allocs.report(state);
    state.SetItemsProcessed(state.iterations());
}

template <class T>
bool parses(std::string_view text) {
    return T::parse(text).ok();
}

// An Email owns a copy of its text; the validator alone is check(), which std::regex_match is
// compared with (it does not copy either).
bool email_valid(std::string_view text) {
    return !collectcall::Email::check(text).has_value();
}

// Likewise E164::check: the verdict alone, as std::regex_match gives it.
bool e164_valid(std::string_view text) {
    return !collectcall::E164::check(text).has_value();
}

}  // namespace

void register_validate_benchmarks() {
    using benchmark::RegisterBenchmark;
    const corpus::ValidatorInputs& in = corpus::validator_inputs();
    struct Entry {
        const char* name;
        const std::vector<std::string>* inputs;
        Validator collectcall;
        Validator regex;
    };
    const Entry entries[] = {
        {"e164", &in.e164, e164_valid, peers::std_regex::e164},
        {"zip", &in.zip, parses<collectcall::Zip>, peers::std_regex::zip},
        {"date", &in.date, parses<collectcall::Date>, peers::std_regex::date},
        {"email", &in.email, email_valid, peers::std_regex::email},
        {"uuid", &in.uuid, parses<collectcall::Uuid>, peers::std_regex::uuid},
    };
    for (const Entry& e : entries) {
        const std::string prefix = std::string("validate/") + e.name + "/";
        RegisterBenchmark((prefix + "collectcall").c_str(), validate, e.inputs, e.collectcall);
        RegisterBenchmark((prefix + "std_regex").c_str(), validate, e.inputs, e.regex);
    }
    if (peers::libphonenumber::available()) {
        RegisterBenchmark("validate/e164/libphonenumber", validate, &in.e164,
                          Validator(peers::libphonenumber::valid_number));
    }
}

}  // namespace bench
