// Every read costs time linear in its bytes: for each family of hostile input, the CPU time of
// reading it through the public read<T> of the real models at four sizes, each twice the one
// before, must grow by at most ~2.5x per doubling over the three doublings together, and by less
// than 3.5x at any one of them (a quadratic cost gives 4x at each). The times are this thread's
// CPU time, the least of a few runs, compared only with each other within one run.
#include <catch2/catch.hpp>

#include <time.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"

namespace {

using collectcall::BulkCreateRequest;
using collectcall::CustomerCreate;
using collectcall::CustomerPatch;
using collectcall::ErrorList;
using collectcall::ReadOptions;

// Sanitizers make every byte cost several times more: smaller inputs keep the file quick there,
// and still twice the size per step.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t scale = 4;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr std::size_t scale = 4;
#else
constexpr std::size_t scale = 1;
#endif
#else
constexpr std::size_t scale = 1;
#endif

double thread_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The least time of `trials` runs of `reads` calls of `work`.
double least_time(const std::function<void()>& work, int reads, int trials = 5) {
    double best = 1e9;
    for (int t = 0; t < trials; ++t) {
        const double start = thread_seconds();
        for (int r = 0; r < reads; ++r)
            work();
        best = std::min(best, thread_seconds() - start);
    }
    return best;
}

// A cost quadratic in the input grows 4x per doubling; no doubling of a read may cost this much.
constexpr double step_limit = 3.5;

// Reads `make(n)` for n = base, 2 base, 4 base, 8 base with `read` and checks that the three
// doublings together cost at most `limit` times the size before each (the largest size at most
// limit^3 times the smallest), and each less than step_limit. One doubling alone may cost more
// than `limit`: where the larger input leaves a cache level that other work on the machine shares
// (a bulk of 1.7 MB after one of 0.9 MB measured 2.7x on a loaded machine), while a cost that grows
// faster than linear does so at every doubling. The smallest input is read often enough to take a
// few milliseconds, and every size as often. `read` also checks what it read, so that each size
// takes the path the family is about.
void check_linear(const std::string& family, std::size_t base,
                  const std::function<std::string(std::size_t)>& make,
                  const std::function<void(const std::string&)>& read, double limit = 2.5) {
    std::array<std::string, 4> docs;
    for (std::size_t i = 0; i < docs.size(); ++i) {
        docs[i] = make((base / scale) << i);
        docs[i].reserve(docs[i].size() + 64);  // read where it lies, as a server's body is
    }
    read(docs[0]);  // the thread's buffers, grown once
    int reads = 1;
    while (least_time([&] { read(docs[0]); }, reads, 1) < 0.002 && reads < 1 << 16)
        reads *= 2;
    std::array<double, 4> times{};
    const auto measure = [&] {
        for (std::size_t i = 0; i < docs.size(); ++i)
            times[i] = least_time([&] { read(docs[i]); }, reads);
    };
    const double overall_limit = limit * limit * limit;
    const auto within = [&] {
        for (std::size_t i = 1; i < docs.size(); ++i) {
            if (times[i] >= step_limit * times[i - 1]) return false;
        }
        return times.back() <= overall_limit * times.front();
    };
    measure();
    // A shared machine now and then slows every trial of one size; a cost that grows faster than
    // linear exceeds the limits again when measured anew.
    if (!within()) measure();
    for (std::size_t i = 1; i < docs.size(); ++i) {
        INFO(family << ": " << docs[i - 1].size() << " bytes " << times[i - 1] * 1e3 << " ms, "
                    << docs[i].size() << " bytes " << times[i] * 1e3 << " ms (" << reads
                    << " reads each)");
        if (std::getenv("COLLECTCALL_SCALING_REPORT") != nullptr) {
            std::printf("%s: %zu -> %zu bytes: %.3f -> %.3f ms (x%.2f)\n", family.c_str(),
                        docs[i - 1].size(), docs[i].size(), times[i - 1] * 1e3, times[i] * 1e3,
                        times[i] / times[i - 1]);
        }
        CHECK(times[i] < step_limit * times[i - 1]);
    }
    INFO(family << ": " << docs.front().size() << " bytes " << times.front() * 1e3 << " ms, "
                << docs.back().size() << " bytes " << times.back() * 1e3 << " ms, at most "
                << overall_limit << " times as long");
    CHECK(times.back() <= overall_limit * times.front());
}

// Finding duplicates in a tree and merging by a sorted index cost n log n: a doubling costs
// 2 (1 + 1 / log2 n), about 2.2 here, and the larger sizes leave the first cache levels; a
// quadratic cost would give 4.
constexpr double n_log_n_limit = 3.0;

// A valid customer whose collections end with `extensions` (a JSON value's text).
std::string customer(const std::string& extensions, const std::string& external_id = "acct-1") {
    return R"({"externalId":")" + external_id +
           R"(","firstName":"Ann","lastName":"Lee","email":"ann@example.com",)"
           R"("primaryPhone":"+13125550123","address":{"line1":"1 Main St","city":"Chicago",)"
           R"("state":"IL","zip":"60601"},"ssnLastFour":"1234","dateOfBirth":"1980-01-01",)"
           R"("collections":{"totalBalance":10,"extensions":)" +
           extensions + "}}";
}

// A valid customer but for its externalId, given as the text between the quotes.
std::string with_external_id(const std::string& text) {
    std::string out = customer("{}");
    return out.replace(out.find("acct-1"), 6, text);
}

// {"0":0,"1":0,...}: n distinct members.
std::string distinct_members(std::size_t n) {
    std::string out = "{";
    for (std::size_t i = 0; i < n; ++i) {
        if (i != 0) out += ',';
        out += '"' + std::to_string(i) + "\":0";
    }
    return out + "}";
}

std::string codes_of(const ErrorList& errors) {
    std::string out;
    for (const auto& e : errors)
        out += e.path + " " + e.code + ";";
    return out;
}

}  // namespace

TEST_CASE("extensions with many distinct members cost linear time", "[core][scaling]") {
    // Up to 64 KiB: valid, every member copied and checked against the others.
    check_linear(
        "distinct members under the bound", 400,
        [](std::size_t n) { return customer(distinct_members(n)); },
        [](const std::string& doc) {
            REQUIRE(codes_of(collectcall::read<CustomerCreate>(doc).errors()) == "");
        },
        n_log_n_limit);
    // Past it (16,000 to 128,000 members, up to 1.2 MB): refused at the bound. Not scaled down
    // under sanitizers: every size must be past the bound, and each costs what 64 KiB does.
    check_linear(
        "distinct members past the bound", 16000 * scale,
        [](std::size_t n) { return customer(distinct_members(n)); },
        [](const std::string& doc) {
            auto r = collectcall::read<CustomerCreate>(doc);
            REQUIRE(codes_of(r.errors()) == "/collections/extensions length;");
        });
}

TEST_CASE("extensions with many duplicate members cost linear time", "[core][scaling]") {
    // "a" and "\u0061" are one member: every one after the first is a duplicate.
    check_linear(
        "duplicate members", 4000,
        [](std::size_t n) {
            std::string out = R"({"a":0)";
            for (std::size_t i = 1; i < n; ++i)
                out += i % 2 == 0 ? R"(,"a":[1,{"b":2}])" : R"(,"\u0061":0)";
            return customer(out + "}");
        },
        [](const std::string& doc) {
            auto r = collectcall::read<CustomerCreate>(doc);
            REQUIRE(r.errors().size() == 101);  // max_errors details, then too_many_errors
            REQUIRE(r.errors().front().path == "/collections/extensions/a");
        });
    // Many duplicates under one long key: each error's path holds the key, and the paths kept
    // add up to at most 64 KiB (the rest are only counted).
    check_linear(
        "duplicates under a long key", 400,
        [](std::size_t n) {
            std::string out = "{\"" + std::string(n * 16, 'k') + R"(":{"a":0)";
            for (std::size_t i = 1; i < n; ++i)
                out += R"(,"a":0)";
            return customer(out + "}}");
        },
        [](const std::string& doc) {
            const auto r = collectcall::read<CustomerCreate>(doc);
            REQUIRE(r.errors().back().code == "too_many_errors");
            std::size_t kept = 0;
            for (const auto& e : r.errors())
                kept += e.path.size();
            REQUIRE(kept <= 64 * 1024);
        });
}

TEST_CASE("PATCH of large extensions costs linear time", "[core][scaling]") {
    // The read of the patch and its RFC 7396 merge into a customer with as many members, half
    // of them replaced, a quarter removed.
    auto patch_of = [](std::size_t n) {
        std::string out = R"({"collections":{"extensions":{)";
        for (std::size_t i = 0; i < n; ++i) {
            if (i != 0) out += ',';
            out += '"' + std::to_string(i * 2) + '"' + (i % 2 == 0 ? ":1" : ":null");
        }
        return out + "}}}";
    };
    auto current_of = [](std::size_t n) {
        return collectcall::read<CustomerCreate>(customer(distinct_members(n))).value();
    };
    std::map<std::size_t, CustomerCreate> current_for;  // by the size of the patch's text
    check_linear(
        "merge patch", 150,
        [&](std::size_t n) {
            std::string patch = patch_of(n);
            current_for[patch.size()] = current_of(n);
            return patch;
        },
        [&](const std::string& doc) {
            auto patch = collectcall::read<CustomerPatch>(doc);
            REQUIRE(patch.ok());
            auto merged = collectcall::apply_patch(current_for.at(doc.size()), patch.value());
            REQUIRE(merged.ok());
            REQUIRE(merged.value().changed);
        },
        n_log_n_limit);
}

TEST_CASE("many unknown members cost linear time", "[core][scaling]") {
    check_linear(
        "unknown members", 4000,
        [](std::size_t n) {
            std::string out = R"({"externalId":"acct-1")";
            for (std::size_t i = 0; i < n; ++i)
                out += ",\"x" + std::to_string(i) + R"(":{"y":[1,"z"]})";
            return out + "}";
        },
        [](const std::string& doc) {
            auto r = collectcall::read<CustomerCreate>(doc);
            REQUIRE(r.errors().size() == 101);
            REQUIRE(r.errors().front().code == "unknown_field");
        });
}

TEST_CASE("many repeated known members cost linear time", "[core][scaling]") {
    check_linear(
        "repeated members", 4000,
        [](std::size_t n) {
            std::string out = R"({"firstName":"Ann")";
            for (std::size_t i = 1; i < n; ++i)
                out += R"(,"firstName":"Bo","address":{"city":"X","city":"Y"})";
            return out + "}";
        },
        [](const std::string& doc) {
            auto r = collectcall::read<CustomerCreate>(doc);
            REQUIRE(r.errors().size() == 101);
            REQUIRE(r.errors().back().code == "too_many_errors");
        });
}

TEST_CASE("bulk requests of many items cost linear time", "[core][scaling]") {
    ReadOptions options;
    options.max_bulk_items = 1'000'000;  // the bound is not what is measured here
    auto bulk = [](std::size_t n, bool valid) {
        std::string out = R"({"customers":[)";
        for (std::size_t i = 0; i < n; ++i) {
            if (i != 0) out += ',';
            std::string item = customer(R"({"k":1})", "acct-" + std::to_string(i));
            if (!valid) item.replace(item.find("ann@example.com"), 15, "nope");
            out += item;
        }
        return out + "]}";
    };
    check_linear(
        "valid items", 250, [&](std::size_t n) { return bulk(n, true); },
        [&](const std::string& doc) {
            auto r = collectcall::read<BulkCreateRequest>(doc, options);
            REQUIRE(r.ok());
            REQUIRE(r.value().customers.front().ok());
        });
    check_linear(
        "invalid items", 250, [&](std::size_t n) { return bulk(n, false); },
        [&](const std::string& doc) {
            auto r = collectcall::read<BulkCreateRequest>(doc, options);
            REQUIRE(r.ok());
            REQUIRE_FALSE(r.value().customers.back().ok());
        });
    // Items whose extensions pass the bound: each item stops at its bound, the next is read.
    check_linear(
        "items past the extensions bound", 4,
        [&](std::size_t n) {
            std::string out = R"({"customers":[)";
            for (std::size_t i = 0; i < n; ++i)
                out += (i != 0 ? "," : "") + customer(distinct_members(12000));
            return out + "]}";
        },
        [&](const std::string& doc) {
            auto r = collectcall::read<BulkCreateRequest>(doc, options);
            REQUIRE(r.ok());
            REQUIRE(codes_of(r.value().customers.back().errors()) ==
                    "/collections/extensions length;");
        });
}

TEST_CASE("deep nesting costs linear time", "[core][scaling]") {
    ReadOptions options;
    options.max_depth = 100'000;  // the bound is not what is measured here
    // Inside an unknown member (skipped) and inside extensions (stopped at 16 deep).
    auto nested = [](std::size_t depth) {
        std::string out;
        for (std::size_t i = 0; i < depth; ++i)
            out += R"({"a":[)";
        out += "1";
        for (std::size_t i = 0; i < depth; ++i)
            out += "]}";
        return out;
    };
    // Under AddressSanitizer each level of the recursion also takes a frame of its fake stack
    // (use-after-return detection), which grows worse than linearly past a few hundred levels:
    // there the depths stay below that.
    check_linear(
        "nested unknown member", scale == 1 ? 500 : 125,
        [&](std::size_t n) { return R"({"deep":)" + nested(n) + "}"; },
        [&](const std::string& doc) {
            auto r = collectcall::read<CustomerCreate>(doc, options);
            REQUIRE(r.errors().front().code == "unknown_field");
        });
    check_linear(
        "nested extensions", scale == 1 ? 500 : 125,
        [&](std::size_t n) { return customer(nested(n)); },
        [&](const std::string& doc) {
            auto r = collectcall::read<CustomerCreate>(doc, options);
            REQUIRE(codes_of(r.errors()) == "/collections/extensions range;");
        });
    // Past the reader's own depth bound (64): malformed at the first level past it.
    check_linear(
        "nesting past max_depth", 100000,
        [&](std::size_t n) { return R"({"deep":)" + std::string(n, '[') + std::string(n, ']'); },
        [&](const std::string& doc) {
            REQUIRE(collectcall::read<CustomerCreate>(doc).errors().front().code ==
                    "malformed_json");
        });
}

TEST_CASE("long strings and many escapes cost linear time", "[core][scaling]") {
    check_linear(
        "long string", 64000, [](std::size_t n) { return with_external_id(std::string(n, 'x')); },
        [](const std::string& doc) {
            REQUIRE(codes_of(collectcall::read<CustomerCreate>(doc).errors()) ==
                    "/externalId length;");
        });
    check_linear(
        "escaped string", 8000,
        [](std::size_t n) {
            std::string escaped;
            for (std::size_t i = 0; i < n; ++i)
                escaped += i % 2 == 0 ? R"(\u00e9)" : R"(\n)";
            return with_external_id(escaped);
        },
        [](const std::string& doc) {
            REQUIRE(collectcall::read<CustomerCreate>(doc).errors().front().path == "/externalId");
        });
    check_linear(
        "escaped keys and strings in extensions", 250,
        [](std::size_t n) {
            std::string out = "{";
            for (std::size_t i = 0; i < n; ++i)
                out += (i != 0 ? "," : "") + std::string(R"("\u00e9\t)") + std::to_string(i) +
                       R"(":"\ud83d\ude00\"")";
            return customer(out + "}");
        },
        [](const std::string& doc) {
            REQUIRE(codes_of(collectcall::read<CustomerCreate>(doc).errors()) == "");
        });
    check_linear(
        "long unknown keys", 16000,
        [](std::size_t n) { return R"({")" + std::string(n, 'k') + R"(":1})"; },
        [](const std::string& doc) {
            REQUIRE(collectcall::read<CustomerCreate>(doc).errors().front().code ==
                    "unknown_field");
        });
}

TEST_CASE("extensions past 64 KiB are copied no further than the bound", "[core][scaling]") {
    // Past the bound nothing is copied and no key compared: the rest is only checked to be JSON
    // (malformed JSON anywhere is malformed_json), as a member that is not kept is. A 1 MiB
    // object in extensions costs the copy of its first 64 KiB and what the same object costs as
    // an unknown member, which is only checked; copying it all and comparing its keys would cost
    // several times more.
    const std::string members = distinct_members(110'000);
    const std::string over = customer(members);
    std::string skipped = customer("{}");
    skipped.insert(1, R"("unknown":)" + members + ",");
    REQUIRE(over.size() > 1024 * 1024);
    REQUIRE(codes_of(collectcall::read<CustomerCreate>(over).errors()) ==
            "/collections/extensions length;");
    REQUIRE(codes_of(collectcall::read<CustomerCreate>(skipped).errors()) ==
            "/unknown unknown_field;");
    int reads = 1;
    while (least_time([&] { (void)collectcall::read<CustomerCreate>(over); }, reads, 1) < 0.01)
        reads *= 2;
    const double over_time =
        least_time([&] { (void)collectcall::read<CustomerCreate>(over); }, reads);
    const double skipped_time =
        least_time([&] { (void)collectcall::read<CustomerCreate>(skipped); }, reads);
    // And one just under the bound, copied whole, for the record.
    const std::string under = customer(distinct_members(7000));
    REQUIRE(collectcall::read<CustomerCreate>(under).ok());
    const double under_time =
        least_time([&] { (void)collectcall::read<CustomerCreate>(under); }, reads);
    INFO(over.size() << " bytes in extensions " << over_time * 1e3 << " ms, as an unknown member "
                     << skipped_time * 1e3 << " ms; " << under.size() << " bytes "
                     << under_time * 1e3 << " ms");
    if (std::getenv("COLLECTCALL_SCALING_REPORT") != nullptr) {
        std::printf(
            "past the bound: %zu bytes %.3f ms, skipped %.3f ms (x%.2f); %zu bytes "
            "%.3f ms\n",
            over.size(), over_time * 1e3, skipped_time * 1e3, over_time / skipped_time,
            under.size(), under_time * 1e3);
    }
    // What is past the bound costs what checking it as an unknown member does, on top of the
    // 64 KiB copied before it (the ratio is about 1.15; a loaded machine has measured 1.2, so the
    // bound is twice that: a read that copied or compared what is past the bound costs several
    // times more)...
    CHECK(over_time <= 2.0 * (skipped_time + under_time));
    // ...and less than copying all of it at the rate of the first 64 KiB would (about 0.2 of it
    // in a Release build; 0.63 measured under AddressSanitizer on a loaded machine, where
    // checking JSON costs more beside a copy than it does otherwise).
    const double copy_all =
        under_time * static_cast<double>(over.size()) / static_cast<double>(under.size());
    CHECK(over_time < copy_all);
}
