// The fast pass of read<T> (read.hpp): it takes the valid documents it is meant for, it gives up
// on everything else, and whatever it takes reads exactly as the full pass reads it. Its string
// scanner agrees with the scalar one in every instruction set it is compiled for.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "collectcall/core/read.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"

using namespace collectcall;

namespace {

ReadOptions with_fast_pass(bool fast) {
    ReadOptions options;
    options.today = std::chrono::sys_days{std::chrono::year{2025} / std::chrono::June / 15};
    options.fast_pass = fast;
    return options;
}

// Whether the fast pass alone takes the document.
template <class T>
bool fast_pass_takes(std::string_view json, const ReadOptions& options = with_fast_pass(true)) {
    const simdjson::padded_string padded(json);
    Reader reader(padded.data(), options, nullptr, padded.data() + padded.size());
    std::string scratch;
    T out{};
    detail::FastReader fast(padded.data(), padded.data() + padded.size(), options, reader, scratch);
    return fast.document(out);
}

// read<T> with the fast pass and without: the same errors, and the same value when valid.
template <class T>
void same_either_way(std::string_view json) {
    INFO(std::string(json));
    const Result<T> fast = read<T>(json, with_fast_pass(true));
    const Result<T> full = read<T>(json, with_fast_pass(false));
    REQUIRE(fast.ok() == full.ok());
    CHECK(fast.errors() == full.errors());
    if (fast.ok()) CHECK(fast.value() == full.value());
}

const std::string customer =
    R"({"externalId":"c-1","firstName":"Ann","middleName":null,"lastName":"Lee",)"
    R"("email":"ann@example.com","primaryPhone":"+14155550100",)"
    R"("address":{"line1":"1 Main St","line2":null,"city":"Austin","state":"TX","zip":"78701"},)"
    R"("ssnLastFour":"1234","dateOfBirth":"1980-02-29",)"
    R"("collections":{"totalBalance":1234.56,"principalBalance":0,"originalCreditor":"First Bank",)"
    R"("chargeOffDate":"2024-12-10","settlementAggregationRate":0.36,"productType":"auto_loan"}})";

// The customer with `from` replaced by `to` (the first occurrence).
std::string with(std::string_view from, std::string_view to, std::string text = customer) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    return text;
}

}  // namespace

TEST_CASE("The fast pass takes valid documents in any member order and layout") {
    CHECK(fast_pass_takes<CustomerCreate>(customer));
    // White space anywhere between tokens.
    std::string spaced;
    for (char c : customer) {
        spaced += c;
        if (c == ',' || c == ':' || c == '{' || c == '[') spaced += "\n\t ";
    }
    CHECK(fast_pass_takes<CustomerCreate>("  " + spaced + " \r\n"));
    // Members in another order, optional ones absent.
    CHECK(fast_pass_takes<CustomerCreate>(
        R"({"lastName":"Lee","firstName":"Ann","externalId":"c-1","primaryPhone":"+14155550100",)"
        R"("email":"ann@example.com","address":{"zip":"78701","state":"TX","city":"Austin",)"
        R"("line1":"1 Main St"}})"));
    // Escapes, surrogate pairs and UTF-8 in strings.
    CHECK(fast_pass_takes<CustomerCreate>(
        with(R"("Ann")", R"("Sio\u0062h\u00e1n \"A\" \ud83d\ude00")")));
    CHECK(fast_pass_takes<CustomerCreate>(with(R"("Ann")", "\"Siobh\xc3\xa1n\"")));
    // Numbers in every JSON form Money takes.
    CHECK(fast_pass_takes<CustomerCreate>(with("1234.56", "1.23456e3")));
    // A bulk body: its items are Validated<CustomerCreate>.
    CHECK(
        fast_pass_takes<BulkCreateRequest>(R"({"customers":[)" + customer + "," + customer + "]}"));
}

TEST_CASE("The fast pass gives up on anything the full pass has to judge") {
    const std::vector<std::string> refused = {
        with(R"("Ann")", R"("")"),                  // a rule broken
        with(R"("ann@example.com")", R"("ann@")"),  // another
        with(R"("ssnLastFour":"1234",)", ""),       // a cross-field rule broken
        with(R"("externalId":"c-1",)", ""),         // a required member missing
        with(R"("lastName":"Lee",)", R"("lastName":"Lee","lastName":"Lee",)"),  // repeated
        with(R"("lastName":"Lee",)", R"("nickname":"Al","lastName":"Lee",)"),   // unknown
        with(R"("lastName")", R"("last\u004eame")"),      // a key with an escape
        with(R"("Ann")", R"(17)"),                        // a wrong type
        with(R"("Ann")", "\"A\tn\""),                     // a control character
        with(R"("Ann")", "\"A\xc3n\""),                   // not UTF-8
        with(R"("Ann")", R"("\ud83d")"),                  // a lone surrogate
        with(R"("Ann")", R"("\x41")"),                    // an unknown escape
        with("1234.56", "01234.56"),                      // not a JSON number
        with("1234.56", "-1"),                            // a rule of Money's
        with("1234.56", "1234.56.7"),                     // not a number
        with(R"("line2":null)", R"("line2":nul)"),        // not a literal
        with(R"("zip":"78701"})", R"("zip":"78701",})"),  // a trailing comma
        customer + " x",                                  // trailing content
        customer.substr(0, customer.size() - 1),          // cut short
        "[" + customer + "]",                             // not an object
    };
    for (const std::string& json : refused) {
        INFO(json);
        CHECK_FALSE(fast_pass_takes<CustomerCreate>(json));
    }
    // A container past its bound, and nesting past max_depth.
    ReadOptions bounded = with_fast_pass(true);
    bounded.max_bulk_items = 1;
    CHECK_FALSE(fast_pass_takes<BulkCreateRequest>(
        R"({"customers":[)" + customer + "," + customer + "]}", bounded));
    ReadOptions shallow = with_fast_pass(true);
    shallow.max_depth = 2;
    CHECK(fast_pass_takes<CustomerCreate>(customer, shallow));
    shallow.max_depth = 1;
    CHECK_FALSE(fast_pass_takes<CustomerCreate>(customer, shallow));
}

TEST_CASE("Documents read the same with the fast pass and without") {
    const std::vector<std::string> documents = {
        customer,
        with(R"("Ann")", R"("Sio\u0062h\u00e1n \"A\" \ud83d\ude00 \/ \b\f\n\r\t")"),
        with(R"("Ann")", R"("  Ann  ")"),
        with(R"("Ann")", R"("")"),
        with(R"("ssnLastFour":"1234",)", ""),
        with(R"("ssnLastFour":"1234",)", R"("ssnLastFour":null,)"),
        with(R"("externalId":"c-1",)", ""),
        with(R"("lastName":"Lee",)", R"("lastName":"Lee","lastName":"Lee",)"),
        with(R"("lastName":"Lee",)", R"("nickname":"Al","lastName":"Lee",)"),
        with(R"("lastName")", R"("last\u004eame")"),
        with(R"("Ann")", "\"A\xc3n\""),
        with(R"("Ann")", R"("\ud83d")"),
        with(R"("Ann")", R"("\udc00")"),
        with("1234.56", "1.23456e3"),
        with("1234.56", "-0"),
        with("1234.56", "1e400"),
        with("1234.56", "12345678901234567890123"),
        with(R"("1980-02-29")", R"("2030-01-01")"),
        with(R"("line2":null)", R"("line2":nul)"),
        customer + " x",
        customer.substr(0, customer.size() - 1),
        "",
        "   ",
        "{}",
        "null",
        R"({"customers":[]})",
        R"({"customers":[)" + customer + "," + with(R"("Ann")", R"("")") + "]}",
        R"({"customers":[)" + customer + "," + customer + "]}",
    };
    for (const std::string& json : documents) {
        same_either_way<CustomerCreate>(json);
        same_either_way<Customer>(json);
        same_either_way<CustomerPatch>(json);
        same_either_way<BulkCreateRequest>(json);
    }
}

TEST_CASE("Strings with escapes read the same with the fast pass and without, at every length") {
    // Plain runs of 0 to 40 bytes between escapes of every kind, in texts from a few bytes to
    // past the limit of 200 code points: the unescaped text is built in pieces, in a buffer that
    // grows while it is written.
    std::mt19937 random(20261129);
    const std::vector<std::string> escapes = {R"(\")",     R"(\\)",     R"(\/)",
                                              R"(\u00e9)", R"(\u674e)", R"(\ud83c\udfe6)",
                                              R"(\u0041)", R"(\n)"};
    std::size_t taken = 0;
    for (int round = 0; round < 400; ++round) {
        std::string text;
        const std::size_t pieces = 1 + random() % 24;
        for (std::size_t k = 0; k < pieces; ++k) {
            text.append(random() % 41, static_cast<char>('a' + random() % 26));
            text += escapes[random() % escapes.size()];
        }
        text.append(random() % 20, 'z');
        const std::string json = with(R"("First Bank")", '"' + text + '"');
        same_either_way<CustomerCreate>(json);
        if (read<CustomerCreate>(json, with_fast_pass(true)).ok()) {
            ++taken;
            CHECK(fast_pass_takes<CustomerCreate>(json));  // a valid text is the fast pass's
        }
    }
    CHECK(taken > 40);  // the valid texts are not a handful (87 of the 400)
}

TEST_CASE("The fast pass's string scanner agrees with the scalar one") {
    std::mt19937 random(20261126);
    const std::string alphabet = std::string("\"\\\x01\x1f\x20\x7f\x80\xc3\xff", 9) + "abcdefgh";
    for (int round = 0; round < 20000; ++round) {
        const std::size_t size = random() % 200;
        std::string text(size, 'a');
        // Mostly plain bytes, a few of the ones that stop a scan or count as high.
        for (char& c : text) {
            if (random() % 16 == 0) c = alphabet[random() % alphabet.size()];
        }
        const simdjson::padded_string padded(text);
        const char* begin = padded.data();
        const char* end = begin + padded.size();
        for (std::size_t from = 0; from <= size; from += 1 + random() % 7) {
            bool scalar_high = false;
            const char* scalar = detail::scan_string_scalar(begin + from, end, scalar_high);
#if defined(__SSE2__)
            bool sse2_high = false;
            CHECK(detail::scan_string_sse2(begin + from, end, sse2_high) == scalar);
            CHECK(sse2_high == scalar_high);
#endif
        }
    }
}
