// The benchmark corpus: JSON documents generated deterministically from a seed, so that every
// run (and the fairness test) sees the same bytes without a data file in the repository.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

// What is wrong with a document of the mixed set. Every kind makes collectcall reject the
// document (or, inside a bulk body, the item).
enum class Fault {
    none,
    e164,                       // primaryPhone / secondaryPhone not E.164
    zip,                        // not 12345 or 12345-1234
    date_format,                // not YYYY-MM-DD, or not a real calendar day
    date_future,                // dateOfBirth / chargeOffDate after "today"
    date_year,                  // a real date outside 1900-2100
    ssn_last_four,              // not exactly 4 ASCII digits
    email,                      // not a WHATWG valid e-mail address
    text_blank,                 // empty or only (Unicode) white space
    text_long,                  // more than 200 code points after trimming
    text_control,               // a control character
    state,                      // not a USPS code
    money_negative,             // a collections amount below 0
    money_range,                // a collections amount above 2^53
    missing_required,           // a required member absent
    required_null,              // a required member null
    wrong_type,                 // a member of the wrong JSON type
    unknown_member,             // a member the model does not have
    duplicate_member,           // the same member twice in one object
    collections_conflict,       // collections without ssnLastFour or dateOfBirth
    collections_missing_total,  // collections without totalBalance
    malformed,                  // not JSON at all
    invalid_utf8,               // a string that is not UTF-8
};
inline constexpr int fault_count = static_cast<int>(Fault::invalid_utf8) + 1;

std::string_view fault_name(Fault fault);

struct Document {
    std::string json;
    Fault fault = Fault::none;
};

struct Corpus {
    std::uint64_t seed = 0;
    // "Today" for the date rules of every reader (a fixed day, so that results never depend on
    // when the suite runs).
    std::chrono::sys_days today;
    // One customer with every member of the customer and the usual collections members set
    // (about 700 bytes), keys in the order of the model.
    std::string customer;
    // The same members and values, every object's keys in reverse order.
    std::string customer_reversed;
    // The same again, every object's keys in an order that is neither the model's nor its
    // reverse (those at even places, then those at odd places, each from the last): in an object
    // of four keys or more, no key is written next to a key it follows or precedes in the model.
    std::string customer_shuffled;
    // Every member of the customer and every member of collections, in the order of the model,
    // with non-ASCII names, city, street and creditor written as \u escapes (about 1 KB).
    std::string customer_full;
    // {"customers": [...]} with 1000 valid customers of varied shapes.
    std::string bulk1000;
    std::size_t bulk_items = 0;
    // Single-customer documents, about 5% of them faulty (every Fault kind at least twice),
    // the valid ones with varied shapes, key orders, escapes and non-ASCII text.
    std::vector<Document> mixed;
};

inline constexpr std::uint64_t default_seed = 0x5eed'c011'ec7c'a11ULL;

Corpus generate(std::uint64_t seed = default_seed);

// The corpus of the default seed, generated on first use.
const Corpus& get();

// Inputs for the validator benchmarks: mostly valid values with some invalid ones mixed in
// (about one in eight), realistic lengths.
struct ValidatorInputs {
    std::vector<std::string> e164;
    std::vector<std::string> zip;
    std::vector<std::string> date;
    std::vector<std::string> email;
    std::vector<std::string> uuid;
};
const ValidatorInputs& validator_inputs();

}  // namespace corpus
