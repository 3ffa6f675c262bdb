// The corpus of the differential test: documents for each request model, with the library's
// verdict on each, written as JSON lines for differential.py, which asks an independent JSON
// Schema validator for its verdict on the same documents against json_schema<T>().
//
// Documents are mutations of valid documents, one mutation each, so that every document tests
// one thing: each member's edge cases, wrong types, null, absence, unknown members, plus
// hand-picked cases. Everything is deterministic (no randomness, a fixed "today").
//
// A document whose verdicts are expected to differ carries the name of the difference; the
// test fails when an untagged document gets different verdicts, and also when a tagged one does
// not (so the list below never keeps a difference that has gone). The differences, and why a
// JSON Schema cannot express them, are in `differences` below.
//
// Output lines:
//   {"kind":"difference","tag":...,"why":...}
//   {"kind":"schema","model":...,"schema":{...}}
//   {"kind":"openapi","document":{...}}
//   {"kind":"case","model":...,"name":...,"doc":"<the document's text>","library":true|false,
//    "difference":"<tag>"|""}
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <collectcall/api/openapi.hpp>
#include <collectcall/collectcall.hpp>

using namespace collectcall;

namespace {

struct Difference {
    std::string_view tag;
    std::string_view why;
};

constexpr Difference differences[] = {
    {"future-date",
     "dateOfBirth, chargeOffDate and firstDelinquencyDate must not be after today (UTC). A schema "
     "is a fixed document: it cannot know which day today is. The library refuses such a date "
     "(`range`), the schema accepts it."},
    {"text-trimmed-length",
     "Text counts its 1 to 200 characters after trimming white space, and stores the text as "
     "sent. maxLength counts every character, and a regular expression that counts only the "
     "trimmed part would depend on how an engine counts characters outside the BMP. So white "
     "space around a 200-character value is accepted by the library and refused by the schema "
     "(the schema is the stricter one)."},
    {"number-precision",
     "Money is an exact decimal with at most 19 significant digits and 19 decimal places, "
     "compared exactly with 0 and 2^53. JSON Schema validators read numbers as binary doubles: "
     "1e-400 becomes 0, 9007199254740993.0 becomes 2^53, and digits past the 17th are lost, so "
     "they accept numbers the library refuses. multipleOf cannot help, as it is computed in "
     "floating point too."},
    {"duplicate-member",
     "A member that appears twice is an error for the library (`duplicate_field`). A parsed JSON "
     "object keeps one of the two values, so a validator never sees the duplicate: the schema "
     "cannot express the rule."},
    {"lone-surrogate",
     "A \\ud800 escape without its pair is not a Unicode character; simdjson refuses the document "
     "(`malformed_json`), while Python's json module accepts it as a string. This is a "
     "difference of JSON parsers, not of the schema."},
    {"future-timestamp",
     "The timestamp of an imported message must not be more than 5 minutes after now. A schema is "
     "a fixed document: it cannot know the time. The library refuses such a timestamp (`range`), "
     "the schema accepts it."},
    {"epoch-by-offset",
     "An imported timestamp is not before 1970-01-01T00:00:00Z. The pattern reads the year as "
     "written, so 1970-01-01T00:30:00+01:00 (23:30 on the last day of 1969 in UTC) matches it, and "
     "the library refuses it (`range`)."},
    {"impossible-timestamp",
     "The date-time pattern checks each field's range (month 01-12, day 01-31) but not the days of "
     "each month: 2025-02-30T00:00:00Z matches it, and the library refuses it (`format`)."},
    {"integer-notation",
     "An SMS segment count is an integer written as one (3). JSON Schema's integer is a number "
     "whose value is whole, so 3.0 and 3e0 are integers to a validator; the library refuses them "
     "(`type`)."},
    {"bytes-not-characters",
     "An e-mail body is at most 256 KiB of UTF-8. maxLength counts characters, so the schema "
     "bounds "
     "a body at 262144 characters: a body of characters of several bytes under that many "
     "characters but over 256 KiB is accepted by the schema and refused by the library."},
    {"uuid-case",
     "Customer ids are UUIDs, which compare equal whatever their letter case: the same id in upper "
     "and lower case is a repeat for the library. uniqueItems compares the strings, which differ."},
    {"stored-state",
     "PATCH: whether ssnLastFour or dateOfBirth may be cleared depends on the stored customer "
     "(not while it has collections), and so does whether a collections object must carry "
     "totalBalance (when the customer has none yet). The corpus patches a customer that has "
     "collections; the schema states only what holds for every stored customer."},
};

// "Today" and "now" for the not-in-the-future rules, fixed so that the corpus never changes.
ReadOptions read_options() {
    ReadOptions options;
    options.today = std::chrono::sys_days{std::chrono::year{2025} / 6 / 15};
    options.now = *options.today + std::chrono::hours{12};  // 2025-06-15T12:00:00Z
    return options;
}

// ---- Verdicts of the library ------------------------------------------------------------------

bool verdict_customer_create(const std::string& doc) {
    return read<CustomerCreate>(doc, read_options()).ok();
}

// The stored customer the PATCH documents are applied to: one with collections.
constexpr std::string_view stored_customer_json =
    R"({"externalId":"crm-1","firstName":"Ann","lastName":"Lee","email":"ann@example.com",)"
    R"("primaryPhone":"+15125550100","address":{"line1":"1 Main St","line2":"Apt 2",)"
    R"("city":"Austin","state":"TX","zip":"78701"},"ssnLastFour":"1234",)"
    R"("dateOfBirth":"1980-01-02","collections":{"totalBalance":100,"principalBalance":90}})";

// As the server does it: read the patch, merge it into the stored customer, validate the whole.
bool verdict_customer_patch(const std::string& doc) {
    auto patch = read<CustomerPatch>(doc, read_options());
    if (!patch) return false;
    static const CustomerCreate stored =
        read<CustomerCreate>(stored_customer_json, read_options()).value();
    CustomerCreate merged = stored;
    ErrorList errors = merge_patch(merged, patch.value());
    for (Error& e : validate(merged))
        errors.push_back(std::move(e));
    return errors.empty();
}

// The request is accepted and every item would be created. (The server accepts a request with
// invalid items and reports them one by one; the schema describes what a client should send,
// which is only valid items.)
bool verdict_bulk(const std::string& doc) {
    auto request = read<BulkCreateRequest>(doc, read_options());
    if (!request) return false;
    for (const auto& item : request.value().customers) {
        if (!item.ok()) return false;
    }
    return true;
}

bool verdict_call_request(const std::string& doc) {
    return read<CallRequest>(doc, read_options()).ok();
}

bool verdict_sms_import(const std::string& doc) {
    return read<SmsImportRequest>(doc, read_options()).ok();
}

bool verdict_email_import(const std::string& doc) {
    return read<EmailImportRequest>(doc, read_options()).ok();
}

bool verdict_bulk_call(const std::string& doc) {
    return read<BulkCallRequest>(doc, read_options()).ok();
}

// ---- Output -----------------------------------------------------------------------------------

struct Model {
    std::string_view name;
    bool (*verdict)(const std::string&);
    std::size_t count = 0;
};

void line(const Json& value) {
    std::cout << value.dump() << '\n';
}

void emit(Model& model, std::string name, const Json& doc, std::string_view difference = {}) {
    const std::string text = doc.dump();
    Json out = Json::object();
    out["kind"] = "case";
    out["model"] = model.name;
    out["name"] = std::move(name);
    out["doc"] = text;
    out["library"] = model.verdict(text);
    out["difference"] = difference;
    line(out);
    ++model.count;
}

// ---- Building documents -----------------------------------------------------------------------

using Path = std::vector<std::string>;

std::string path_name(const Path& path) {
    std::string name;
    for (const std::string& p : path)
        name += "/" + p;
    return name;
}

Json& at(Json& doc, const Path& path) {
    Json* node = &doc;
    for (const std::string& key : path)
        node = &(*node)[key];
    return *node;
}

Json with(const Json& base, const Path& path, Json value) {
    Json doc = base;
    at(doc, path) = std::move(value);
    return doc;
}

Json without(const Json& base, const Path& path) {
    Json doc = base;
    Path parent(path.begin(), path.end() - 1);
    at(doc, parent).erase(path.back());
    return doc;
}

std::string repeat(std::string_view s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

// One edge case of a value: its label, the value, and the difference it is expected to show
// (empty when the verdicts must agree).
struct Edge {
    std::string label;
    Json value;
    std::string_view difference = {};
};

using Edges = std::vector<Edge>;

// Edge cases [from, to) of a list.
Edges slice(const Edges& edges, std::size_t from, std::size_t to) {
    return Edges(edges.begin() + static_cast<std::ptrdiff_t>(from),
                 edges.begin() + static_cast<std::ptrdiff_t>(std::min(to, edges.size())));
}

Edges wrong_types() {
    return {{"type:number", 1},
            {"type:true", true},
            {"type:array", Json::array()},
            {"type:object", Json::object()},
            {"type:string-number", "12"}};
}

Edges text_edges() {
    Edges e = {
        {"a", "a"},
        {"name", "Ann"},
        {"200", repeat("A", 200)},
        {"201", repeat("A", 201)},
        {"accent", "Jos\xC3\xA9"},
        {"cjk", "\xE6\x9D\x8E\xE5\xB0\x8F\xE9\xBE\x99"},
        {"emoji-200", repeat("\xF0\x9F\x99\x82", 200)},
        {"emoji-201", repeat("\xF0\x9F\x99\x82", 201)},
        {"padded", " Ann "},
        {"nbsp-x", "\xC2\xA0x"},
        {"inner-space", "a b"},
        {"line-separator-inside",
         "a\xE2\x80\xA8"
         "b"},
        {"nel-inside", "x\xC2\x85"},
        {"empty", ""},
        {"space", " "},
        {"ideographic-space", "\xE3\x80\x80"},
        {"white-mix", "  \xC2\xA0\xE2\x80\x83"},
        {"nul", std::string("a\0b", 3)},
        {"tab", "a\tb"},
        {"newline", "a\nb"},
        {"trailing-newline", "ab\n"},
        {"leading-newline", "\nab"},
        {"del", "x\x7F"},
        {"unit-separator",
         "a\x1F"
         "b"},
        {"padded-200", " " + repeat("A", 200) + " ", "text-trimmed-length"},
        {"ideographic-padded-200", repeat("A", 200) + "\xE3\x80\x80", "text-trimmed-length"},
        {"padded-201", " " + repeat("A", 201) + " "},
    };
    for (Edge& w : wrong_types()) {
        if (w.label != "type:string-number") e.push_back(std::move(w));
    }
    return e;
}

Edges email_edges() {
    const std::string domain = "@example.com";
    return {
        {"short", "a@b"},
        {"plain", "ann.lee@example.com"},
        {"double-dot-local", "a..b@x"},
        {"leading-dot-local", ".a@x"},
        {"plus", "a+tag@sub.example.co"},
        {"specials", "!#$%&'*+/=?^_`{|}~-@x.org"},
        {"label-63", "x@" + repeat("a", 63) + ".com"},
        {"label-64", "x@" + repeat("a", 64) + ".com"},
        {"length-254", repeat("a", 254 - domain.size()) + domain},
        {"length-255", repeat("a", 255 - domain.size()) + domain},
        {"empty", ""},
        {"no-at", "a"},
        {"no-local", "@b"},
        {"no-domain", "a@"},
        {"two-at", "a@b@c"},
        {"label-leading-hyphen", "a@-b"},
        {"label-trailing-hyphen", "a@b-"},
        {"inner-hyphen", "a@b-c.d"},
        {"trailing-dot", "a@b."},
        {"leading-dot-domain", "a@.b"},
        {"empty-label", "a@b..c"},
        {"space", "a b@c"},
        {"non-ascii-local", "\xC3\xA4@b.c"},
        {"non-ascii-domain", "a@\xC3\xA4.com"},
        {"underscore-domain", "a@b_c"},
        {"trailing-newline", "a@b\n"},
        {"quoted", "\"a\"@b"},
        {"ip-literal", "a@[127.0.0.1]"},
        {"type:number", 5},
        {"type:array", Json::array()},
    };
}

Edges e164_edges() {
    return {
        {"two-digits", "+12"},
        {"us", "+12025550123"},
        {"uk", "+442071838750"},
        {"fifteen", "+" + repeat("1", 15)},
        {"sixteen", "+" + repeat("1", 16)},
        {"one-digit", "+1"},
        {"plus-only", "+"},
        {"empty", ""},
        {"leading-zero", "+0123"},
        {"no-plus", "12025550123"},
        {"double-zero", "0012025550123"},
        {"space", "+1 202 555 0123"},
        {"dashes", "+1-202-555-0123"},
        {"parentheses", "+1(202)5550123"},
        {"letter", "+1202555012a"},
        {"fullwidth-plus",
         "\xEF\xBC\x8B"
         "12025550123"},
        {"fullwidth-digits", "+\xEF\xBC\x91\xEF\xBC\x92"},
        {"trailing-newline", "+12025550123\n"},
        {"type:number", Json::number("12025550123")},
        {"type:true", true},
    };
}

Edges zip_edges() {
    return {
        {"five", "12345"},
        {"zip4", "12345-6789"},
        {"zeros", "00000"},
        {"four", "1234"},
        {"six", "123456"},
        {"zip4-short", "12345-678"},
        {"zip4-long", "12345-67890"},
        {"space", "12345 6789"},
        {"hyphen-only", "12345-"},
        {"letters", "abcde"},
        {"fullwidth", "\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x93\xEF\xBC\x94\xEF\xBC\x95"},
        {"nine-no-hyphen", "123456789"},
        {"trailing-newline", "12345\n"},
        {"empty", ""},
        {"type:number", 12345},
    };
}

Edges state_edges() {
    Edges e;
    for (std::string_view code : {"NY", "DC", "PR", "GU", "VI", "AS", "MP", "FM", "MH", "PW", "AA",
                                  "AE", "AP", "WY", "AL"}) {
        e.push_back({"code-" + std::string(code), code});
    }
    for (std::string_view bad : {"ny", "Ny", "XX", "N", "NYC", "", "UM", "N Y", "NY\n"}) {
        e.push_back({"bad-" + std::string(bad), bad});
    }
    e.push_back({"type:number", 1});
    return e;
}

Edges digits4_edges() {
    return {
        {"digits", "1234"},
        {"zeros", "0000"},
        {"three", "123"},
        {"five", "12345"},
        {"letter", "12a4"},
        {"space", "12 4"},
        {"fullwidth", "\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x93\xEF\xBC\x94"},
        {"empty", ""},
        {"trailing-newline", "1234\n"},
        {"type:number", 1234},
        {"type:array", Json::array()},
    };
}

// Dates of PastDate members; "today" is 2025-06-15.
Edges past_date_edges() {
    return {
        {"plain", "1990-01-15"},
        {"leap-2000", "2000-02-29"},
        {"leap-1904", "1904-02-29"},
        {"leap-2024", "2024-02-29"},
        {"first-day", "1900-01-01"},
        {"non-leap-1900-28", "1900-02-28"},
        {"today", "2025-06-15"},
        {"not-leap-2023", "2023-02-29"},
        {"not-leap-1900", "1900-02-29"},
        {"not-leap-2100", "2100-02-29"},
        {"before-1900", "1899-12-31"},
        {"after-2100", "2101-01-01"},
        {"month-13", "1990-13-01"},
        {"month-00", "1990-00-10"},
        {"day-00", "1990-01-00"},
        {"day-32", "1990-01-32"},
        {"april-31", "1990-04-31"},
        {"june-31", "2001-06-31"},
        {"short-parts", "1990-1-5"},
        {"basic-format", "19900115"},
        {"with-time", "1990-01-15T00:00:00Z"},
        {"slashes", "1990/01/15"},
        {"leading-space", " 1990-01-15"},
        {"trailing-newline", "1990-01-15\n"},
        {"empty", ""},
        {"tomorrow", "2025-06-16", "future-date"},
        {"future", "2099-01-01", "future-date"},
        {"last-day", "2100-12-31", "future-date"},
        {"type:number", 19900115},
    };
}

Edges money_edges() {
    auto n = [](std::string_view text) { return Json::number(text); };
    return {
        {"zero", n("0")},
        {"zero-fraction", n("0.0")},
        {"minus-zero", n("-0")},
        {"minus-zero-fraction", n("-0.0")},
        {"cents", n("1234.56")},
        {"exponent", n("1e2")},
        {"exponent-plus", n("1E+2")},
        {"small-exponent", n("1.5e-3")},
        {"two-to-53", n("9007199254740992")},
        {"two-to-53-fraction-zero", n("9007199254740992.0")},
        {"tenth", n("0.1")},
        {"trailing-zero", n("1.50")},
        {"seventeen-digits", n("100000000000000.25")},
        {"nineteen-decimals", n("0.0000000000000000001")},
        {"negative", n("-1")},
        {"negative-cent", n("-0.01")},
        {"negative-small", n("-1e-5")},
        {"two-to-53-plus-one", n("9007199254740993")},
        {"ten-to-16", n("1e16")},
        {"huge", n("1e400")},
        {"twenty-digit-integer", n("12345678901234567890")},
        {"underflow", n("1e-400"), "number-precision"},
        {"negative-underflow", n("-1e-400"), "number-precision"},
        {"twenty-decimals", n("0.00000000000000000001"), "number-precision"},
        {"twenty-significant", n("1.2345678901234567891"), "number-precision"},
        {"two-to-53-and-half", n("9007199254740992.5"), "number-precision"},
        {"two-to-53-plus-one-fraction", n("9007199254740993.0"), "number-precision"},
        {"type:string", "100"},
        {"type:true", true},
        {"type:array", Json::array()},
        {"type:object", Json::object()},
    };
}

Edges uuid_edges() {
    return {
        {"lower", "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c"},
        {"upper", "0B9E8C1A-52A7-4D7E-8F3C-6A1D2E3F4B5C"},
        {"mixed", "0b9E8c1A-52a7-4D7e-8f3C-6a1D2e3F4b5C"},
        {"nil", "00000000-0000-0000-0000-000000000000"},
        {"no-hyphens", "0b9e8c1a52a74d7e8f3c6a1d2e3f4b5c"},
        {"braces", "{0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c}"},
        {"urn", "urn:uuid:0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c"},
        {"short", "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5"},
        {"long", "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c0"},
        {"not-hex", "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5g"},
        {"hyphen-moved", "0b9e8c1a5-2a7-4d7e-8f3c-6a1d2e3f4b5c"},
        {"trailing-newline", "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c\n"},
        {"empty", ""},
        {"type:number", 1},
    };
}

Edges url_edges() {
    const std::string path = "https://example.com/";
    return {
        {"https", "https://hooks.example.com/calls"},
        {"http-bare", "http://example.com"},
        {"upper-scheme", "HTTPS://EXAMPLE.COM"},
        {"localhost-port", "http://localhost:8080/x"},
        {"ipv4", "http://127.0.0.1:80/"},
        {"ipv4-trailing-dot", "http://1.2.3.4./"},
        {"ipv6-loopback", "http://[::1]/"},
        {"ipv6-port-query-fragment", "http://[2001:db8::1]:8443/a?b=c#d"},
        {"ipv6-mapped", "http://[::ffff:192.0.2.1]/"},
        {"ipv6-full", "http://[1:2:3:4:5:6:7:8]/"},
        {"ipv6-trailing-compression", "http://[1::]/"},
        {"ipv6-seven-and-compression", "http://[1:2:3:4:5:6:7::]/"},
        {"ipv6-six-and-quad", "http://[1:2:3:4:5:6:1.2.3.4]/"},
        {"ipv6-compressed-quad", "http://[1::2:3:4:5:1.2.3.4]/"},
        {"ipv6-unspecified", "http://[::]/"},
        {"underscore-host", "http://a_b.example/"},
        {"hyphen-edges-label", "http://-a-.com/"},
        {"numeric-inner-label", "http://1.example/"},
        {"alnum-last-label", "http://a.1b/"},
        {"fqdn-dot", "http://example.com./"},
        {"query-no-path", "http://example.com?x=1"},
        {"fragment-no-path", "http://example.com#frag"},
        {"percent", "http://example.com/%20x%2F"},
        {"sub-delims", "http://x/~a!$&'()*+,;=:@/?"},
        {"port-max", "http://example.com:65535"},
        {"port-leading-zeros", "http://example.com:00080/"},
        {"label-63", "http://" + repeat("a", 63) + ".com/"},
        {"host-253", "http://" + repeat("a.", 126) + "a/"},
        {"host-253-dot", "http://" + repeat("a.", 126) + "a./"},
        {"length-2048", path + repeat("a", 2048 - path.size())},
        {"ftp", "ftp://example.com/"},
        {"single-slash", "http:/example.com"},
        {"no-host", "http://"},
        {"empty-host", "http:///x"},
        {"scheme-relative", "//example.com"},
        {"word", "example"},
        {"userinfo", "http://user:pw@example.com/"},
        {"user-only", "http://user@example.com/"},
        {"port-zero", "http://example.com:0"},
        {"port-too-big", "http://example.com:65536"},
        {"port-empty", "http://example.com:"},
        {"port-letters", "http://example.com:8a"},
        {"two-ports", "http://example.com:80:90/"},
        {"ipv6-unclosed", "http://[::1"},
        {"ipv6-junk-after", "http://[::1]x"},
        {"ipv6-port-empty", "http://[::1]:"},
        {"ipv6-nine-groups", "http://[1:2:3:4:5:6:7:8:9]/"},
        {"ipv6-two-compressions", "http://[1::2::3]/"},
        {"ipv6-compression-and-eight", "http://[1::2:3:4:5:6:7:8]/"},
        {"ipv6-zone", "http://[::1%25eth0]/"},
        {"ipv6-group-five-digits", "http://[12345::1]/"},
        {"ipv6-leading-colon", "http://[:1::2]/"},
        {"ipv6-trailing-colon", "http://[1:2:3:4:5:6:7:]/"},
        {"ipv6-quad-too-many", "http://[1:2:3:4:5:6:7:1.2.3.4]/"},
        {"ipv6-unbracketed", "http://::1/"},
        {"quad-out-of-range", "http://1.2.3.999/"},
        {"short-quad", "http://127.1/"},
        {"hex-quad", "http://0x7f.0.0.1/"},
        {"hex-last-label", "http://a.0x10/"},
        {"leading-zero-quad", "http://01.2.3.4/"},
        {"five-part-quad", "http://1.2.3.4.5/"},
        {"numeric-last-label", "http://example.123/"},
        {"empty-label", "http://a..b/"},
        {"leading-dot", "http://.a/"},
        {"label-64", "http://" + repeat("a", 64) + ".com/"},
        {"host-254", "http://" + repeat("a.", 126) + "ab/"},
        {"space", "http://example.com/a b"},
        {"non-ascii", "http://example.com/\xC3\xA4"},
        {"non-ascii-host", "http://\xC3\xA4.com/"},
        {"bad-percent", "http://example.com/%zz"},
        {"short-percent", "http://example.com/%2"},
        {"two-fragments", "http://example.com/#a#b"},
        {"angle-brackets", "http://example.com/<a>"},
        {"backslash", "http://example.com\\x"},
        {"square-bracket-path", "http://example.com/[x]"},
        {"trailing-newline", "http://example.com/\n"},
        {"length-2049", path + repeat("a", 2049 - path.size())},
        {"empty", ""},
        {"type:number", 5},
    };
}

// Applies each edge case at `path` of `base`.
void mutate(Model& model, const Json& base, const Path& path, const Edges& edges) {
    for (const Edge& e : edges) {
        emit(model, path_name(path) + "=" + e.label, with(base, path, e.value), e.difference);
    }
}

// The structural cases of one object member: absent, null, every wrong type.
void structure(Model& model, const Json& base, const Path& path) {
    emit(model, path_name(path) + " absent", without(base, path));
    emit(model, path_name(path) + "=null", with(base, path, nullptr));
    for (const Edge& e : wrong_types()) {
        emit(model, path_name(path) + "=" + e.label, with(base, path, e.value));
    }
}

// An unknown member next to `path` (an object), spelled a few ways.
void unknown_members(Model& model, const Json& base, const Path& object_path) {
    for (std::string_view name : {"extra", "FirstName", "first_name", "", "id "}) {
        Json doc = base;
        Json& object = object_path.empty() ? doc : at(doc, object_path);
        object[name] = "x";
        emit(model, path_name(object_path) + " unknown member '" + std::string(name) + "'", doc);
    }
    Json doc = base;
    Json& object = object_path.empty() ? doc : at(doc, object_path);
    object["extra"] = nullptr;
    emit(model, path_name(object_path) + " unknown member null", doc);
}

void root_types(Model& model) {
    for (auto [label, value] : std::initializer_list<std::pair<std::string_view, Json>>{
             {"array", Json::array()},
             {"string", "x"},
             {"number", 1},
             {"true", true},
             {"null", nullptr},
             {"empty-object", Json::object()}}) {
        emit(model, "root " + std::string(label), value);
    }
}

Json address() {
    Json a = Json::object();
    a["line1"] = "1 Main St";
    a["city"] = "Austin";
    a["state"] = "TX";
    a["zip"] = "78701";
    return a;
}

Json minimal_customer() {
    Json c = Json::object();
    c["externalId"] = "crm-1";
    c["firstName"] = "Ann";
    c["lastName"] = "Lee";
    c["email"] = "ann@example.com";
    c["primaryPhone"] = "+15125550100";
    c["address"] = address();
    return c;
}

Json full_customer() {
    Json c = Json::object();
    c["externalId"] = "crm-2";
    c["firstName"] = "Bob";
    c["middleName"] = "J";
    c["lastName"] = "Diaz";
    c["email"] = "bob@example.com";
    c["primaryPhone"] = "+13055550142";
    c["secondaryPhone"] = "+13055550143";
    Json a = address();
    a["line2"] = "Apt 4";
    c["address"] = std::move(a);
    c["ssnLastFour"] = "1234";
    c["dateOfBirth"] = "1980-06-15";
    Json col = Json::object();
    col["totalBalance"] = Json::number("1234.56");
    col["principalBalance"] = Json::number("1000");
    col["originalCreditor"] = "Example Bank";
    col["accruedInterestAmount"] = Json::number("12.5");
    col["chargeOffDate"] = "2024-03-31";
    col["firstDelinquencyDate"] = "2023-11-02";
    col["settlementAggregationRate"] = Json::number("0.35");
    col["originalAccountNumber"] = "4000-1234";
    col["itemizationBalance"] = Json::number("1100");
    col["postItemizationInterest"] = Json::number("34.56");
    col["postItemizationFees"] = Json::number("0");
    col["postItemizationCredits"] = Json::number("10");
    col["postItemizationPayments"] = Json::number("50");
    col["productType"] = "credit card";
    col["originalProductType"] = "store card";
    c["collections"] = std::move(col);
    return c;
}

const std::vector<std::string_view> collections_money = {
    "principalBalance",       "accruedInterestAmount",   "settlementAggregationRate",
    "itemizationBalance",     "postItemizationInterest", "postItemizationFees",
    "postItemizationCredits", "postItemizationPayments"};
const std::vector<std::string_view> collections_text = {"originalCreditor", "originalAccountNumber",
                                                        "productType", "originalProductType"};

// The edge cases of every member of a customer, at `prefix` of `base` (a document whose
// customer is valid); `full` adds the members of a collections customer; a `patch` has no
// externalId.
void customer_members(Model& model, const Json& base, const Path& prefix, bool full,
                      bool patch = false) {
    auto p = [&](std::initializer_list<std::string_view> tail) {
        Path path = prefix;
        for (std::string_view t : tail)
            path.emplace_back(t);
        return path;
    };
    if (!patch) mutate(model, base, p({"externalId"}), text_edges());
    mutate(model, base, p({"firstName"}), text_edges());
    mutate(model, base, p({"lastName"}), slice(text_edges(), 0, 14));
    mutate(model, base, p({"middleName"}), slice(text_edges(), 0, 14));
    mutate(model, base, p({"email"}), email_edges());
    mutate(model, base, p({"primaryPhone"}), e164_edges());
    mutate(model, base, p({"secondaryPhone"}), e164_edges());
    mutate(model, base, p({"address", "line1"}), text_edges());
    mutate(model, base, p({"address", "line2"}), slice(text_edges(), 0, 14));
    mutate(model, base, p({"address", "city"}), slice(text_edges(), 10, 100));
    mutate(model, base, p({"address", "state"}), state_edges());
    mutate(model, base, p({"address", "zip"}), zip_edges());
    if (full) {
        mutate(model, base, p({"ssnLastFour"}), digits4_edges());
        mutate(model, base, p({"dateOfBirth"}), past_date_edges());
        mutate(model, base, p({"collections", "totalBalance"}), money_edges());
        mutate(model, base, p({"collections", "chargeOffDate"}), past_date_edges());
        const Edges some_dates = slice(past_date_edges(), 20, 100);
        mutate(model, base, p({"collections", "firstDelinquencyDate"}), some_dates);
        const Edges some_money = slice(money_edges(), 14, 22);
        for (std::string_view m : collections_money)
            mutate(model, base, p({"collections", m}), some_money);
        const Edges some_text = slice(text_edges(), 12, 18);
        for (std::string_view m : collections_text)
            mutate(model, base, p({"collections", m}), some_text);
    }
}

void customer_structure(Model& model, const Json& base, const Path& prefix) {
    auto p = [&](std::initializer_list<std::string_view> tail) {
        Path path = prefix;
        for (std::string_view t : tail)
            path.emplace_back(t);
        return path;
    };
    for (std::string_view m :
         {"externalId", "firstName", "middleName", "lastName", "email", "primaryPhone",
          "secondaryPhone", "address", "ssnLastFour", "dateOfBirth", "collections"}) {
        structure(model, base, p({m}));
    }
    for (std::string_view m : {"line1", "line2", "city", "state", "zip"}) {
        structure(model, base, p({"address", m}));
    }
    for (std::string_view m :
         {"totalBalance", "principalBalance", "originalCreditor", "accruedInterestAmount",
          "chargeOffDate", "firstDelinquencyDate", "settlementAggregationRate",
          "originalAccountNumber", "itemizationBalance", "postItemizationInterest",
          "postItemizationFees", "postItemizationCredits", "postItemizationPayments", "productType",
          "originalProductType"}) {
        structure(model, base, p({"collections", m}));
    }
    unknown_members(model, base, prefix);
    unknown_members(model, base, p({"address"}));
    unknown_members(model, base, p({"collections"}));
}

// ---- The models -------------------------------------------------------------------------------

void customer_create_corpus(Model& model) {
    root_types(model);
    const Json minimal = minimal_customer();
    const Json full = full_customer();
    emit(model, "minimal", minimal);
    emit(model, "full", full);
    customer_members(model, full, {}, true);
    customer_structure(model, full, {});
    customer_structure(model, minimal, {});

    // The collections rule (API.md section 4).
    Json with_collections = full;
    emit(model, "collections without ssnLastFour", without(full, {"ssnLastFour"}));
    emit(model, "collections without dateOfBirth", without(full, {"dateOfBirth"}));
    emit(model, "collections without both",
         without(without(full, {"ssnLastFour"}), {"dateOfBirth"}));
    emit(model, "collections with ssnLastFour null", with(full, {"ssnLastFour"}, nullptr));
    emit(model, "collections with dateOfBirth null", with(full, {"dateOfBirth"}, nullptr));
    emit(model, "collections null without ssnLastFour",
         with(without(full, {"ssnLastFour"}), {"collections"}, nullptr));
    emit(model, "collections only totalBalance",
         with(minimal, {"collections"}, with(Json::object(), {"totalBalance"}, 5)));
    emit(model, "collections only totalBalance with identity",
         with(with(with(minimal, {"collections"}, with(Json::object(), {"totalBalance"}, 5)),
                   {"ssnLastFour"}, "0000"),
              {"dateOfBirth"}, "2000-01-01"));
    emit(model, "collections empty", with(full, {"collections"}, Json::object()));
    emit(model, "identity without collections",
         with(with(minimal, {"ssnLastFour"}, "1234"), {"dateOfBirth"}, "1970-01-01"));

    // Hand-picked.
    Json reordered = Json::object();
    for (std::size_t i = full.keys().size(); i-- > 0;)
        reordered[full.keys()[i]] = full.values()[i];
    emit(model, "members in reverse order", reordered);
    Json dup = minimal;
    dup.append("firstName", "Bo");
    emit(model, "duplicate firstName", dup, "duplicate-member");
    Json dup_nested = minimal;
    dup_nested["address"].append("zip", "78702");
    emit(model, "duplicate address/zip", dup_nested, "duplicate-member");
    Json dup_invalid = minimal;
    dup_invalid.append("email", "not an email");
    emit(model, "duplicate email, second invalid", dup_invalid);
    emit(model, "lone surrogate in firstName",
         with(minimal, {"firstName"}, Json::raw(R"("\ud800")")), "lone-surrogate");
    emit(model, "escaped pair in firstName",
         with(minimal, {"firstName"}, Json::raw(R"("\ud83d\ude42")")));
    emit(model, "escaped control in firstName",
         with(minimal, {"firstName"}, Json::raw(R"("A\u0007")")));
    emit(model, "escaped solidus in email",
         with(minimal, {"email"}, Json::raw(R"("a\/b@example.com")")));
    emit(model, "everything null that may be",
         with(with(with(with(with(with(minimal, {"middleName"}, nullptr), {"secondaryPhone"},
                                  nullptr),
                             {"ssnLastFour"}, nullptr),
                        {"dateOfBirth"}, nullptr),
                   {"collections"}, nullptr),
              {"address", "line2"}, nullptr));
    emit(
        model, "readme example",
        Json::raw(
            R"({"externalId": "c-1", "firstName": "Ann", "lastName": "Lee", "email": "ann@@example.com",)"
            R"( "primaryPhone": "415-555-0100", "address": {"line1": "1 Main St", "city": "Austin",)"
            R"( "state": "TX", "zip": "7870"}})"));
    emit(model, "openapi example minimal", Json::raw(openapi_examples::customer_create_minimal));
    emit(model, "openapi example collections",
         Json::raw(openapi_examples::customer_create_collections));
    emit(model, "id is not a create member",
         with(minimal, {"id"}, "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c"));
    emit(model, "createdAt is not a create member",
         with(minimal, {"createdAt"}, "2026-11-20T15:00:00Z"));
}

void customer_patch_corpus(Model& model) {
    root_types(model);
    const Json empty = Json::object();
    // Every member present: applied to the stored customer, it is valid.
    Json all = full_customer();
    all.erase("externalId");
    emit(model, "every member", all);
    customer_members(model, all, {}, true, true);

    // Absence is always fine in a patch; null is fine where the customer may lack the member.
    for (std::string_view m :
         {"firstName", "middleName", "lastName", "email", "primaryPhone", "secondaryPhone",
          "address", "ssnLastFour", "dateOfBirth", "collections"}) {
        emit(model, "only /" + std::string(m) + "=null", with(empty, {std::string(m)}, nullptr),
             m == "ssnLastFour" || m == "dateOfBirth" ? "stored-state" : "");
        emit(model, "every member but /" + std::string(m), without(all, {std::string(m)}));
        for (const Edge& e : wrong_types()) {
            emit(model, "only /" + std::string(m) + "=" + e.label,
                 with(empty, {std::string(m)}, e.value));
        }
    }
    for (std::string_view m : {"line1", "line2", "city", "state", "zip"}) {
        emit(model, "only /address/" + std::string(m) + "=null",
             with(empty, {"address", std::string(m)}, nullptr));
        emit(model, "address without " + std::string(m), without(all, {"address", std::string(m)}));
        emit(model, "only /address/" + std::string(m) + "=type:number",
             with(empty, {"address", std::string(m)}, 5));
    }
    for (std::string_view m : {"totalBalance", "principalBalance", "originalCreditor",
                               "chargeOffDate", "firstDelinquencyDate", "settlementAggregationRate",
                               "originalAccountNumber", "productType"}) {
        emit(model, "only /collections/" + std::string(m) + "=null",
             with(empty, {"collections", std::string(m)}, nullptr));
        emit(model, "collections without " + std::string(m),
             without(all, {"collections", std::string(m)}));
    }
    unknown_members(model, all, {});
    unknown_members(model, all, {"address"});
    unknown_members(model, all, {"collections"});

    // Members that cannot be in a patch at all.
    for (auto [label, value] : std::initializer_list<std::pair<std::string_view, Json>>{
             {"string", "crm-9"}, {"null", nullptr}, {"number", 1}}) {
        emit(model, "externalId " + std::string(label), with(empty, {"externalId"}, value));
        emit(model, "id " + std::string(label), with(empty, {"id"}, value));
    }
    emit(model, "id uuid", with(empty, {"id"}, "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c"));

    // Hand-picked.
    emit(model, "empty", empty);
    emit(model, "openapi example", Json::raw(openapi_examples::customer_patch));
    emit(model, "clear collections and identity",
         with(with(with(empty, {"collections"}, nullptr), {"ssnLastFour"}, nullptr),
              {"dateOfBirth"}, nullptr));
    emit(model, "clear collections only", with(empty, {"collections"}, nullptr));
    emit(model, "set collections and clear ssnLastFour",
         with(with(empty, {"collections", "totalBalance"}, 5), {"ssnLastFour"}, nullptr));
    emit(model, "set collections and clear dateOfBirth",
         with(with(empty, {"collections", "principalBalance"}, 5), {"dateOfBirth"}, nullptr));
    emit(model, "empty collections and clear ssnLastFour",
         with(with(empty, {"collections"}, Json::object()), {"ssnLastFour"}, nullptr));
    emit(model, "collections without totalBalance",
         with(empty, {"collections", "principalBalance"}, 7));
    emit(model, "empty address", with(empty, {"address"}, Json::object()));
    emit(model, "empty collections", with(empty, {"collections"}, Json::object()));
    emit(model, "address line2 cleared", with(empty, {"address", "line2"}, nullptr));
    Json dup = empty;
    dup["firstName"] = "Ann";
    dup.append("firstName", "Bo");
    emit(model, "duplicate firstName", dup, "duplicate-member");
    Json dup_null = empty;
    dup_null["middleName"] = nullptr;
    dup_null.append("middleName", nullptr);
    emit(model, "duplicate middleName null", dup_null, "duplicate-member");
    emit(model, "lone surrogate in lastName", with(empty, {"lastName"}, Json::raw(R"("x\udc00")")),
         "lone-surrogate");
    emit(model, "future dateOfBirth", with(empty, {"dateOfBirth"}, "2030-01-01"), "future-date");
    emit(model, "future chargeOffDate", with(empty, {"collections", "chargeOffDate"}, "2030-01-01"),
         "future-date");
}

Json bulk_of(std::initializer_list<Json> items) {
    Json request = Json::object();
    request["customers"] = Json::array(items);
    return request;
}

// A model that wraps CustomerCreate cases into bulk requests: the item at index 1 is mutated.
void bulk_corpus(Model& model) {
    root_types(model);
    const Json minimal = minimal_customer();
    const Json full = full_customer();
    const Json valid = bulk_of({minimal, full});
    emit(model, "two valid items", valid);
    emit(model, "one item", bulk_of({minimal}));
    emit(model, "no items", bulk_of({}));
    emit(model, "same externalId twice", bulk_of({minimal, minimal}));
    emit(model, "openapi example", Json::raw(openapi_examples::bulk_request));
    structure(model, valid, {"customers"});
    unknown_members(model, valid, {});
    for (const Edge& e : wrong_types()) {
        emit(model, "item " + e.label, bulk_of({minimal, e.value}));
    }
    emit(model, "item null", bulk_of({minimal, nullptr}));
    {
        Json many = Json::object();
        Json& items = many["customers"];
        items = Json::array();
        for (int i = 0; i < 1000; ++i)
            items.push_back(with(minimal, {"externalId"}, "crm-" + std::to_string(i)));
        emit(model, "1000 items", many);
        items.push_back(minimal);
        emit(model, "1001 items", many);
    }
    // CustomerCreate member cases, in the second item.
    auto wrap = [&](const Json& customer) { return bulk_of({minimal, customer}); };
    auto mutate_item = [&](const Path& tail, const Edges& edges) {
        for (const Edge& e : edges) {
            emit(model, "/customers/1" + path_name(tail) + "=" + e.label,
                 wrap(with(full, tail, e.value)), e.difference);
        }
    };
    mutate_item({"firstName"}, text_edges());
    mutate_item({"email"}, email_edges());
    mutate_item({"primaryPhone"}, e164_edges());
    mutate_item({"address", "zip"}, zip_edges());
    mutate_item({"address", "state"}, state_edges());
    mutate_item({"ssnLastFour"}, digits4_edges());
    mutate_item({"dateOfBirth"}, past_date_edges());
    mutate_item({"collections", "totalBalance"}, money_edges());
    for (std::string_view m : {"externalId", "firstName", "lastName", "email", "primaryPhone",
                               "address", "collections", "ssnLastFour"}) {
        emit(model, "/customers/1 without " + std::string(m),
             wrap(without(full, {std::string(m)})));
        emit(model, "/customers/1/" + std::string(m) + "=null",
             wrap(with(full, {std::string(m)}, nullptr)));
    }
    emit(model, "/customers/1 unknown member", wrap(with(full, {"extra"}, 1)));
    emit(model, "/customers/1/address unknown member", wrap(with(full, {"address", "extra"}, 1)));
    Json dup = full;
    dup.append("lastName", "Bo");
    emit(model, "/customers/1 duplicate lastName", wrap(dup), "duplicate-member");
    Json dup_root = valid;
    dup_root.append("customers", bulk_of({minimal})["customers"]);
    emit(model, "duplicate customers", dup_root, "duplicate-member");
}

Json call_request() {
    Json r = Json::object();
    r["agentId"] = "agent-7";
    r["webhook"]["url"] = "https://hooks.example.com/calls";
    r["webhook"]["secretId"] = "0b9e8c1a-52a7-4d7e-8f3c-6a1d2e3f4b5c";
    return r;
}

void call_request_corpus(Model& model) {
    root_types(model);
    const Json full = call_request();
    Json minimal = Json::object();
    minimal["agentId"] = "agent-7";
    emit(model, "full", full);
    emit(model, "minimal", minimal);
    emit(model, "webhook null", with(minimal, {"webhook"}, nullptr));
    emit(model, "openapi example", Json::raw(openapi_examples::call_request));
    mutate(model, full, {"agentId"}, text_edges());
    mutate(model, minimal, {"agentId"}, slice(text_edges(), 0, 26));
    mutate(model, full, {"webhook", "url"}, url_edges());
    mutate(model, full, {"webhook", "secretId"}, uuid_edges());
    for (std::string_view m : {"agentId", "webhook"})
        structure(model, full, {std::string(m)});
    for (std::string_view m : {"url", "secretId"})
        structure(model, full, {"webhook", std::string(m)});
    unknown_members(model, full, {});
    unknown_members(model, full, {"webhook"});
    emit(model, "webhook empty", with(minimal, {"webhook"}, Json::object()));
    for (std::string_view port : {"1", "80", "443", "8080", "65534", "65535", "65536", "65540",
                                  "99999", "100000", "0", "00000", "0001", "070000"}) {
        emit(model, "port " + std::string(port),
             with(full, {"webhook", "url"}, "https://example.com:" + std::string(port) + "/hook"));
        emit(model, "ipv6 port " + std::string(port),
             with(full, {"webhook", "url"}, "http://[::1]:" + std::string(port)));
    }
    Json dup = full;
    dup.append("agentId", "agent-8");
    emit(model, "duplicate agentId", dup, "duplicate-member");
    Json dup_nested = full;
    dup_nested["webhook"].append("url", "https://other.example.com/");
    emit(model, "duplicate webhook/url", dup_nested, "duplicate-member");
    emit(model, "lone surrogate in agentId", with(minimal, {"agentId"}, Json::raw(R"("\ud800x")")),
         "lone-surrogate");
}

// Timestamps of an imported message; "now" is 2025-06-15T12:00:00Z.
Edges past_timestamp_edges() {
    return {
        {"past", "2025-06-15T11:00:00Z"},
        {"fraction", "2025-06-15T11:00:00.123456789Z"},
        {"offset", "2025-06-15T07:00:00-05:00"},
        {"lower-case", "2025-06-15t11:00:00z"},
        {"now-plus-5-min", "2025-06-15T12:05:00Z"},
        {"year-0", "0000-01-01T00:00:00Z"},
        {"now-plus-5-min-1-ms", "2025-06-15T12:05:00.001Z", "future-timestamp"},
        {"future", "2030-01-01T00:00:00Z", "future-timestamp"},
        {"feb-30", "2025-02-30T00:00:00Z", "impossible-timestamp"},
        {"no-zone", "2025-06-15T11:00:00"},
        {"date-only", "2025-06-15"},
        {"space", "2025-06-15 11:00:00Z"},
        {"leap-second", "2016-12-31T23:59:60Z"},
        {"hour-24", "2025-06-15T24:00:00Z"},
        {"offset-24", "2025-06-15T11:00:00+24:00"},
        {"empty-fraction", "2025-06-15T11:00:00.Z"},
        {"trailing-newline", "2025-06-15T11:00:00Z\n"},
        {"empty", ""},
        {"type:number", 1},
        {"year-1969", "1969-12-31T23:59:59.999Z"},
        {"epoch", "1970-01-01T00:00:00Z"},
        {"before-epoch-by-offset", "1970-01-01T00:30:00+01:00", "epoch-by-offset"},
    };
}

Edges sms_body_edges() {
    return {
        {"one", "a"},
        {"1600", repeat("a", 1600)},
        {"1601", repeat("a", 1601)},
        {"emoji-1600", repeat("\xF0\x9F\x99\x82", 1600)},
        {"emoji-1601", repeat("\xF0\x9F\x99\x82", 1601)},
        {"line-feed", "\n"},
        {"breaks", "a\r\nb\tc\fd"},
        {"space", " "},
        {"empty", ""},
        {"bell", "a\x07"},
        {"vertical-tab", "a\x0B"},
        {"del", "\x7F"},
        {"nul", std::string("a\0b", 3)},
        {"type:number", 1},
        {"type:null", nullptr},
    };
}

Json sms_import() {
    Json r = Json::object();
    r["direction"] = "inbound";
    r["timestamp"] = "2025-06-15T11:58:00Z";
    r["from"] = "+15125550100";
    r["to"] = "+15125550111";
    r["body"] = "Can you call me back?";
    r["threadId"] = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
    r["segments"] = 1;
    return r;
}

void sms_import_corpus(Model& model) {
    root_types(model);
    const Json full = sms_import();
    emit(model, "full", full);
    // The example's timestamp is after the corpus's "now".
    emit(model, "openapi example", Json::raw(openapi_examples::sms_import), "future-timestamp");
    const Json minimal = without(without(full, {"threadId"}), {"segments"});
    emit(model, "minimal", minimal);
    mutate(model, minimal, {"body"}, sms_body_edges());
    mutate(model, full, {"timestamp"}, past_timestamp_edges());
    mutate(model, full, {"body"}, sms_body_edges());
    // Text's cases without its trimming rule, which an SMS body does not have.
    for (const Edge& e : slice(text_edges(), 0, 24))
        emit(model, "/body=text:" + e.label, with(full, {"body"}, e.value));
    mutate(model, full, {"from"}, e164_edges());
    mutate(model, full, {"to"}, e164_edges());
    mutate(model, full, {"threadId"}, uuid_edges());
    mutate(model, full, {"direction"},
           {{"inbound", "inbound"},
            {"outbound", "outbound"},
            {"sideways", "sideways"},
            {"upper", "INBOUND"},
            {"empty", ""},
            {"type:number", 1}});
    mutate(model, full, {"segments"},
           {{"1", 1},
            {"255", 255},
            {"256", 256},
            {"0", 0},
            {"-1", -1},
            {"fraction", Json::number("1.5")},
            {"whole-fraction", Json::number("3.0"), "integer-notation"},
            {"exponent", Json::number("3e0"), "integer-notation"},
            {"string", "1"}});
    for (std::string_view m :
         {"direction", "timestamp", "from", "to", "body", "threadId", "segments"})
        structure(model, full, {std::string(m)});
    unknown_members(model, full, {});
    emit(model, "hosted channel member", with(full, {"channel"}, "sms"));
    Json dup = full;
    dup.append("body", "again");
    emit(model, "duplicate body", dup, "duplicate-member");
}

Json email_import() {
    Json r = Json::object();
    r["direction"] = "outbound";
    r["timestamp"] = "2025-06-15T11:00:00Z";
    r["from"] = "accounts@collector.example";
    r["to"] = Json::array({"ann.lee@example.com"});
    r["cc"] = Json::array();
    r["bcc"] = Json::array({"audit@collector.example"});
    r["subject"] = "Your account";
    r["plainTextBody"] = "Hello Ann";
    r["htmlBody"] = "<p>Hello Ann</p>";
    r["threadId"] = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
    r["messageId"] = "abc123@mail.example.com";
    return r;
}

Json addresses(std::size_t n) {
    Json list = Json::array();
    for (std::size_t i = 0; i < n; ++i)
        list.push_back("u" + std::to_string(i) + "@example.com");
    return list;
}

void email_import_corpus(Model& model) {
    root_types(model);
    const Json full = email_import();
    const Json plain_only = without(full, {"htmlBody"});
    const Json html_only = without(full, {"plainTextBody"});
    const Json no_body = without(plain_only, {"plainTextBody"});
    emit(model, "full", full);
    emit(model, "openapi example", Json::raw(openapi_examples::email_import), "future-timestamp");
    emit(model, "plain text only", plain_only);
    emit(model, "html only", html_only);
    emit(model, "no body", no_body);
    emit(model, "both bodies null",
         with(with(full, {"plainTextBody"}, nullptr), {"htmlBody"}, nullptr));
    for (auto [label, plain, html] :
         std::initializer_list<std::tuple<std::string_view, Json, Json>>{
             {"empty and content", "", "<p>x</p>"},
             {"content and empty", "x", ""},
             {"both empty", "", ""},
             {"white space and empty", " \n\t", ""},
             {"nbsp and ideographic space", "\xC2\xA0", "\xE3\x80\x80"},
             {"null and white space", nullptr, "  "},
             {"null and content", nullptr, "x"},
             {"tab and content", "\t", " y "}}) {
        emit(model, "bodies " + std::string(label),
             with(with(full, {"plainTextBody"}, plain), {"htmlBody"}, html));
    }
    mutate(model, plain_only, {"plainTextBody"},
           {{"256-KiB", repeat("a", EmailBody::max_bytes)},
            {"256-KiB-plus-1", repeat("a", EmailBody::max_bytes + 1)},
            {"multibyte-over-256-KiB", repeat("\xC3\xA9", EmailBody::max_bytes / 2 + 1),
             "bytes-not-characters"},
            {"bell", "a\x07"},
            {"form-feed", "a\fb"}});
    mutate(model, full, {"timestamp"}, slice(past_timestamp_edges(), 0, 9));
    mutate(model, full, {"from"}, email_edges());
    mutate(model, full, {"subject"}, text_edges());
    mutate(model, full, {"messageId"}, slice(text_edges(), 0, 14));
    mutate(model, full, {"threadId"}, uuid_edges());
    mutate(model, full, {"to"},
           {{"none", Json::array()},
            {"50", addresses(50)},
            {"51", addresses(51)},
            {"bad", Json::array({"a@b", "bad@"})},
            {"string", "a@b"}});
    mutate(model, full, {"cc"}, {{"50", addresses(50)}, {"51", addresses(51)}});
    for (std::string_view m :
         {"direction", "timestamp", "from", "to", "cc", "bcc", "subject", "threadId", "messageId"})
        structure(model, full, {std::string(m)});
    unknown_members(model, full, {});
    Json dup = full;
    dup.append("subject", "again");
    emit(model, "duplicate subject", dup, "duplicate-member");
}

void bulk_call_corpus(Model& model) {
    root_types(model);
    const std::string a = "7d0c2a59-3f0e-4f8e-9f6a-0c3b1f2d4e5a";
    const std::string b = "8e1d3b6a-4f1f-4a9f-8a7b-1d4c2e3f5a6b";
    Json full = call_request();
    full["customerIds"] = Json::array({a, b});
    emit(model, "full", full);
    emit(model, "openapi example", Json::raw(openapi_examples::bulk_call_request));
    Json hundred = Json::array();
    for (int i = 0; i < 101; ++i) {
        char id[40];
        std::snprintf(id, sizeof id, "%08d-0000-4000-8000-000000000000", i);
        hundred.push_back(std::string(id));
    }
    Json exactly_hundred = hundred;
    exactly_hundred.values().pop_back();
    std::string a_upper = a;
    for (char& c : a_upper)
        c = static_cast<char>(c >= 'a' && c <= 'f' ? c - 'a' + 'A' : c);
    mutate(model, full, {"customerIds"},
           {{"one", Json::array({a})},
            {"none", Json::array()},
            {"100", exactly_hundred},
            {"101", hundred},
            {"repeat", Json::array({a, b, a})},
            {"repeat-in-other-case", Json::array({a, a_upper}), "uuid-case"},
            {"bad-id", Json::array({a, "x"})},
            {"string", a}});
    mutate(model, full, {"agentId"}, text_edges());
    mutate(model, without(full, {"webhook"}), {"agentId"}, slice(text_edges(), 0, 24));
    mutate(model, full, {"webhook", "url"}, url_edges());
    mutate(model, full, {"webhook", "secretId"}, uuid_edges());
    for (const Edge& e : uuid_edges()) {
        emit(model, "/customerIds/1=" + e.label,
             with(full, {"customerIds"}, Json::array({a, e.value})), e.difference);
    }
    for (std::string_view m : {"agentId", "customerIds", "webhook"})
        structure(model, full, {std::string(m)});
    unknown_members(model, full, {});
}

template <class T>
void schema_line(std::string_view name) {
    Json out = Json::object();
    out["kind"] = "schema";
    out["model"] = name;
    out["schema"] = json_schema_value<T>();
    line(out);
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    for (const Difference& d : differences) {
        Json out = Json::object();
        out["kind"] = "difference";
        out["tag"] = d.tag;
        out["why"] = d.why;
        line(out);
    }
    schema_line<CustomerCreate>("CustomerCreate");
    schema_line<CustomerPatch>("CustomerPatch");
    schema_line<BulkCreateRequest>("BulkCreateRequest");
    schema_line<CallRequest>("CallRequest");
    schema_line<SmsImportRequest>("SmsImportRequest");
    schema_line<EmailImportRequest>("EmailImportRequest");
    schema_line<BulkCallRequest>("BulkCallRequest");
    {
        Json out = Json::object();
        out["kind"] = "openapi";
        out["document"] = Json::raw(openapi());
        line(out);
    }

    Model models[] = {
        {"CustomerCreate", verdict_customer_create}, {"CustomerPatch", verdict_customer_patch},
        {"BulkCreateRequest", verdict_bulk},         {"CallRequest", verdict_call_request},
        {"SmsImportRequest", verdict_sms_import},    {"EmailImportRequest", verdict_email_import},
        {"BulkCallRequest", verdict_bulk_call}};
    customer_create_corpus(models[0]);
    customer_patch_corpus(models[1]);
    bulk_corpus(models[2]);
    call_request_corpus(models[3]);
    sms_import_corpus(models[4]);
    email_import_corpus(models[5]);
    bulk_call_corpus(models[6]);
    for (const Model& m : models)
        std::cerr << m.name << ": " << m.count << " documents\n";
    std::cout.flush();
    return std::cout ? 0 : 1;
}
