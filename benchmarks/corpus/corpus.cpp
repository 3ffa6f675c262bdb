#include "corpus/corpus.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <utility>

namespace corpus {

namespace {

using namespace std::chrono;

// SplitMix64: tiny, fully specified, so the corpus is the same with every standard library
// (std::uniform_int_distribution is not).
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform enough in [0, n) for a corpus.
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    int between(int lo, int hi) {
        return lo + static_cast<int>(below(static_cast<std::size_t>(hi - lo + 1)));
    }
    bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }
    template <class T, std::size_t N>
    const T& pick(const std::array<T, N>& items) {
        return items[below(N)];
    }

  private:
    std::uint64_t state_;
};

// A JSON value under construction: a raw scalar token, an object (ordered members) or an array.
struct Member;
struct Json {
    enum class Kind { scalar, object, array } kind = Kind::scalar;
    std::string token;  // a scalar's JSON text, e.g. "\"Ann\"", "12.5", "null"
    std::vector<Member> members;
    std::vector<Json> items;

    static Json object();
    static Json raw(std::string token);
    static Json null();
    static Json string(std::string_view text);

    Json& set(std::string_view key, Json value);
    Json* find(std::string_view key);
    void erase(std::string_view key);
};

struct Member {
    std::string key;
    Json value;
};

Json Json::object() {
    Json j;
    j.kind = Kind::object;
    return j;
}
Json Json::raw(std::string token) {
    Json j;
    j.token = std::move(token);
    return j;
}
Json Json::null() {
    return raw("null");
}

Json& Json::set(std::string_view key, Json value) {
    for (auto& [k, v] : members) {
        if (k == key) return v = std::move(value);
    }
    members.push_back(Member{std::string(key), std::move(value)});
    return members.back().value;
}
Json* Json::find(std::string_view key) {
    for (auto& [k, v] : members) {
        if (k == key) return &v;
    }
    return nullptr;
}
void Json::erase(std::string_view key) {
    std::erase_if(members, [&](const auto& m) { return m.key == key; });
}

// Escapes what JSON requires (quote, backslash, control characters); other bytes go out as they
// are, so a fault can plant bytes that are not UTF-8.
void append_string(std::string& out, std::string_view text) {
    out += '"';
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", u);
            out += buffer;
        } else {
            out += c;
        }
    }
    out += '"';
}

Json Json::string(std::string_view text) {
    std::string token;
    append_string(token, text);
    return raw(std::move(token));
}

// A JSON string with every non-ASCII character (UTF-8 `text`) written as a \u escape, astral
// ones as a surrogate pair.
Json escaped_string(std::string_view text) {
    std::string token = "\"";
    const auto escape = [&](std::uint16_t unit) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(unit));
        token += buffer;
    };
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c == '"' || c == '\\') token += '\\';
            token += static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        unsigned code = c & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
        for (std::size_t k = 1; k < n; ++k)
            code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
        if (code >= 0x10000) {
            escape(static_cast<std::uint16_t>(0xD800 + ((code - 0x10000) >> 10)));
            escape(static_cast<std::uint16_t>(0xDC00 + ((code - 0x10000) & 0x3FF)));
        } else {
            escape(static_cast<std::uint16_t>(code));
        }
        i += n;
    }
    token += '"';
    return Json::raw(std::move(token));
}

// The order in which an object's keys are written.
enum class KeyOrder {
    declared,  // the model's
    reversed,
    shuffled,  // as Corpus::customer_shuffled says
};

// The place in the model's order of the key written k-th of n.
std::size_t key_at(KeyOrder order, std::size_t k, std::size_t n) {
    switch (order) {
        case KeyOrder::declared:
            return k;
        case KeyOrder::reversed:
            return n - 1 - k;
        case KeyOrder::shuffled: {
            const std::size_t evens = (n + 1) / 2;
            const std::size_t odds = n / 2;
            return k < evens ? 2 * (evens - 1 - k) : 2 * (odds - 1 - (k - evens)) + 1;
        }
    }
    return k;
}

void serialize(const Json& value, std::string& out, KeyOrder order) {
    switch (value.kind) {
        case Json::Kind::scalar:
            out += value.token;
            return;
        case Json::Kind::array: {
            out += '[';
            for (std::size_t i = 0; i < value.items.size(); ++i) {
                if (i != 0) out += ',';
                serialize(value.items[i], out, order);
            }
            out += ']';
            return;
        }
        case Json::Kind::object: {
            out += '{';
            const std::size_t n = value.members.size();
            for (std::size_t k = 0; k < n; ++k) {
                const auto& [key, member] = value.members[key_at(order, k, n)];
                if (k != 0) out += ',';
                append_string(out, key);
                out += ':';
                serialize(member, out, order);
            }
            out += '}';
            return;
        }
    }
}

std::string to_text(const Json& value, KeyOrder order = KeyOrder::declared) {
    std::string out;
    serialize(value, out, order);
    return out;
}

constexpr std::array<std::string_view, 24> first_names{
    "Maria",    "James", "José",      "Mary",       "Robert",   "Zoë",
    "Michael",  "Linda", "William",   "Björk",      "David",    "Elizabeth",
    "Chen",     "Priya", "Oluwaseun", "Anne-Marie", "Jean Luc", "Siobhán",
    "Mohammed", "Ngozi", "Łukasz",    "Ana Lucía",  "Kenji",    "Fatima"};
constexpr std::array<std::string_view, 24> last_names{
    "Gonzalez", "Smith",     "Johnson", "O'Brien", "Williams",     "Brown",
    "Nguyen",   "García",    "Müller",  "Miller",  "Davis",        "Rodríguez",
    "Martinez", "Hernández", "Lopez",   "Wilson",  "Anderson",     "Thomas",
    "Taylor",   "李",        "Moore",   "Jackson", "Van der Berg", "Søndergaard"};
constexpr std::array<std::string_view, 12> email_locals{
    "maria.gonzalez", "jsmith",  "jose_garcia", "mary.j+bills", "rob",     "zoe.w",
    "m.brown1975",    "linda_w", "will.i.am",   "bjork",        "d.davis", "eliz.taylor"};
constexpr std::array<std::string_view, 8> email_domains{
    "example.com",           "mail.example.org", "example.net",   "corp.example.co.uk",
    "xn--bcher-kva.example", "example-mail.com", "inbox.example", "example.io"};
constexpr std::array<std::string_view, 16> streets{
    "Elm Street",       "Main St",    "Oak Avenue",      "Maple Dr",
    "Cedar Lane",       "Pine Road",  "Washington Blvd", "Lakeview Terrace",
    "Sunset Boulevard", "Park Place", "Calle de la Paz", "Riverside Drive",
    "Church St",        "Mill Road",  "Highland Ave",    "5th Avenue"};
constexpr std::array<std::string_view, 16> cities{
    "Springfield",  "Chicago",     "New York",      "San José", "Houston", "Phoenix",
    "Philadelphia", "San Antonio", "Coeur d'Alene", "Dallas",   "Austin",  "Jacksonville",
    "Honolulu",     "Anchorage",   "San Juan",      "Hagåtña"};
constexpr std::array<std::string_view, 62> states{
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
    "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
    "WI", "WY", "DC", "PR", "GU", "VI", "AS", "MP", "FM", "MH", "PW", "AA", "AE", "AP"};
constexpr std::array<std::string_view, 10> creditors{
    "First National Bank",          "Acme Credit Union", "Northwind Financial",
    "Contoso Card Services",        "Banco Popular",     "Fabrikam Auto Finance",
    "Tailspin Medical Group",       "Woodgrove Bank",    "Litware Telecom",
    "Proseware \"Premier\" Lending"};
constexpr std::array<std::string_view, 6> products{"credit_card",   "auto_loan", "medical",
                                                   "personal_loan", "telecom",   "utility"};
constexpr std::array<std::string_view, 6> original_products{
    "Visa Platinum",     "Mastercard Gold",         "Auto Loan 60m",
    "Hospital Services", "Personal Line of Credit", "Mobile Postpaid"};

std::string digits(Rng& rng, int count) {
    std::string out;
    for (int i = 0; i < count; ++i)
        out += static_cast<char>('0' + rng.below(10));
    return out;
}

std::string phone(Rng& rng) {
    if (rng.chance(85)) {  // North American: +1, area code 2-9xx, 555 exchange
        return "+1" + std::to_string(rng.between(201, 989)) + "555" + digits(rng, 4);
    }
    constexpr std::array<std::string_view, 5> prefixes{"+44791", "+4930", "+33612", "+52155",
                                                       "+8613"};
    return std::string(rng.pick(prefixes)) + digits(rng, 7);
}

std::string two(unsigned v) {
    char buffer[4];
    std::snprintf(buffer, sizeof buffer, "%02u", v);
    return buffer;
}

std::string date_text(int y, unsigned m, unsigned d) {
    return std::to_string(y) + "-" + two(m) + "-" + two(d);
}

// A real calendar day in [from_year, to_year]; now and then a leap day.
std::string past_date(Rng& rng, int from_year, int to_year) {
    if (rng.chance(3)) return date_text(rng.chance(50) ? 2000 : 1996, 2, 29);
    const int y = rng.between(from_year, to_year);
    const auto m = static_cast<unsigned>(rng.between(1, 12));
    const auto days_in_month =
        static_cast<unsigned>(year_month_day_last{year{y} / month{m} / std::chrono::last}.day());
    return date_text(y, m, static_cast<unsigned>(rng.between(1, static_cast<int>(days_in_month))));
}

// An amount as a client would send it: usually with cents, sometimes an integer, an exponent
// or trailing zeros.
std::string money(Rng& rng, int max_dollars, bool plain = false) {
    const int dollars = rng.between(0, max_dollars);
    const int cents = rng.between(0, 99);
    switch (plain ? 9 : rng.below(10)) {
        case 0:
            return std::to_string(dollars);
        case 1:
            return std::to_string(dollars) + ".00";
        case 2:
            return std::to_string(dollars) + "." + two(static_cast<unsigned>(cents)) + "e0";
        default:
            return std::to_string(dollars) + "." + two(static_cast<unsigned>(cents));
    }
}

// `typical` is the benchmark's customer: the members a collections agency usually sends, amounts
// with cents, about 700 bytes in all; otherwise the shape varies.
Json collections(Rng& rng, bool typical) {
    Json c = Json::object();
    const auto sometimes = [&](int percent) { return typical || rng.chance(percent); };
    c.set("totalBalance", Json::raw(money(rng, 25000, typical)));
    if (sometimes(70)) c.set("principalBalance", Json::raw(money(rng, 20000, typical)));
    if (sometimes(60)) c.set("originalCreditor", Json::string(rng.pick(creditors)));
    if (sometimes(40)) c.set("accruedInterestAmount", Json::raw(money(rng, 3000, typical)));
    if (sometimes(60)) c.set("chargeOffDate", Json::string(past_date(rng, 2018, 2025)));
    if (sometimes(60)) c.set("firstDelinquencyDate", Json::string(past_date(rng, 2016, 2017)));
    if (sometimes(30)) {
        c.set("settlementAggregationRate",
              Json::raw("0." + two(static_cast<unsigned>(rng.between(10, 95)))));
    }
    if (sometimes(50)) c.set("originalAccountNumber", Json::string(digits(rng, 16)));
    if (!typical) {
        if (rng.chance(30)) c.set("itemizationBalance", Json::raw(money(rng, 20000)));
        if (rng.chance(30)) c.set("postItemizationInterest", Json::raw(money(rng, 2000)));
        if (rng.chance(30)) c.set("postItemizationFees", Json::raw(money(rng, 500)));
        if (rng.chance(30)) c.set("postItemizationCredits", Json::raw(money(rng, 500)));
        if (rng.chance(30)) c.set("postItemizationPayments", Json::raw(money(rng, 5000)));
    }
    if (sometimes(60)) c.set("productType", Json::string(rng.pick(products)));
    if (sometimes(40)) c.set("originalProductType", Json::string(rng.pick(original_products)));
    // Optional members are sometimes sent as null rather than left out.
    if (!typical && rng.chance(20)) c.set("accruedInterestAmount", Json::null());
    return c;
}

// A valid customer. `full` sets every member of the customer, with typical collections (the
// benchmark's single customer); otherwise the shape varies the way real bodies do.
Json customer(Rng& rng, std::size_t index, bool full) {
    const bool with_collections = full || rng.chance(60);
    Json c = Json::object();
    c.set("externalId",
          Json::string("crm-" + std::to_string(100000 + index) + "-" + digits(rng, 4)));
    c.set("firstName", Json::string(rng.pick(first_names)));
    if (full || rng.chance(40)) {
        c.set("middleName", Json::string(rng.pick(first_names)));
    } else if (rng.chance(30)) {
        c.set("middleName", Json::null());
    }
    c.set("lastName", Json::string(rng.pick(last_names)));
    c.set("email",
          Json::string(std::string(rng.pick(email_locals)) + std::to_string(rng.below(1000)) + "@" +
                       std::string(rng.pick(email_domains))));
    c.set("primaryPhone", Json::string(phone(rng)));
    if (full || rng.chance(50)) {
        c.set("secondaryPhone", Json::string(phone(rng)));
    } else if (rng.chance(30)) {
        c.set("secondaryPhone", Json::null());
    }
    Json address = Json::object();
    address.set("line1", Json::string(std::to_string(rng.between(1, 9999)) + " " +
                                      std::string(rng.pick(streets))));
    if (full || rng.chance(35)) {
        address.set("line2", Json::string((rng.chance(50) ? "Apt " : "Suite ") +
                                          std::to_string(rng.between(1, 999)) +
                                          static_cast<char>('A' + rng.below(6))));
    } else if (rng.chance(20)) {
        address.set("line2", Json::null());
    }
    address.set("city", Json::string(rng.pick(cities)));
    address.set("state", Json::string(rng.pick(states)));
    address.set("zip", Json::string(rng.chance(50) ? digits(rng, 5)
                                                   : digits(rng, 5) + "-" + digits(rng, 4)));
    c.set("address", std::move(address));
    if (with_collections || rng.chance(50)) c.set("ssnLastFour", Json::string(digits(rng, 4)));
    if (with_collections || rng.chance(50)) {
        c.set("dateOfBirth", Json::string(past_date(rng, 1940, 2005)));
    }
    if (with_collections) {
        c.set("collections", collections(rng, full));
    } else if (rng.chance(20)) {
        c.set("collections", Json::null());
    }
    return c;
}

// Shuffles the keys of every object (Fisher-Yates).
void shuffle_keys(Json& value, Rng& rng) {
    if (value.kind != Json::Kind::object) return;
    for (std::size_t i = value.members.size(); i > 1; --i) {
        std::swap(value.members[i - 1], value.members[rng.below(i)]);
    }
    for (auto& [key, member] : value.members)
        shuffle_keys(member, rng);
}

// Valid but unusual values that every reader must still accept.
void add_edge_values(Json& c, Rng& rng) {
    switch (rng.below(6)) {
        case 0:  // 200 code points, 400 bytes, with white space around that is not counted
            c.set("firstName", Json::string("  " + [] {
                      std::string s;
                      for (int i = 0; i < 200; ++i)
                          s += "é";
                      return s;
                  }() + " "));
            break;
        case 1:
            c.set("lastName", Json::string("O\"Neil \\ Smith"));
            break;
        case 2:
            c.set("email", Json::string("a@b"));
            break;
        case 3:
            c.set("primaryPhone", Json::string("+123456789012345"));
            break;
        case 4:
            c.set("dateOfBirth", Json::string("1900-01-01"));
            break;
        default:
            c.set("middleName", Json::string("\u00a0Lee\u3000"));
            break;
    }
}

Json& ensure_collections(Json& c, Rng& rng) {
    Json* existing = c.find("collections");
    if (existing == nullptr || existing->kind != Json::Kind::object) {
        c.set("ssnLastFour", Json::string(digits(rng, 4)));
        c.set("dateOfBirth", Json::string(past_date(rng, 1940, 2005)));
        return c.set("collections", collections(rng, false));
    }
    return *existing;
}

// Turns a valid customer into one with the given fault; returns the text.
std::string with_fault(Json c, Fault fault, Rng& rng) {
    // Looked up when used: adding members to `c` may move the address.
    const auto address = [&c]() -> Json& { return *c.find("address"); };
    switch (fault) {
        case Fault::none:
            break;
        case Fault::e164: {
            constexpr std::array<std::string_view, 6> bad{
                "+0123456789",       "2125550123", "+1 212 555 0123",
                "+1234567890123456", "+1",         "+1212555012a"};
            c.set(rng.chance(70) ? "primaryPhone" : "secondaryPhone", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::zip: {
            constexpr std::array<std::string_view, 6> bad{"1234",       "123456", "12345-123",
                                                          "12345 1234", "1234a",  "١٢٣٤٥"};
            address().set("zip", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::date_format: {
            constexpr std::array<std::string_view, 6> bad{"2023-02-29", "2024-04-31", "2024-13-01",
                                                          "2024-1-05",  "12/31/1980", "1980-00-10"};
            c.set("dateOfBirth", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::date_future: {
            if (rng.chance(50)) {
                c.set("dateOfBirth", Json::string("2030-01-01"));
            } else {
                ensure_collections(c, rng).set("chargeOffDate", Json::string("2026-11-21"));
            }
            break;
        }
        case Fault::date_year: {
            constexpr std::array<std::string_view, 3> bad{"1899-12-31", "0001-01-01", "1776-07-04"};
            c.set("dateOfBirth", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::ssn_last_four: {
            constexpr std::array<std::string_view, 4> bad{"123", "12a4", "12345", "１２３４"};
            c.set("ssnLastFour", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::email: {
            constexpr std::array<std::string_view, 7> bad{"a..b@",
                                                          "ann@",
                                                          "@example.com",
                                                          "ann@-x.com",
                                                          "ann smith@example.com",
                                                          "ann@x_y.com",
                                                          "ann@example.com."};
            c.set("email", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::text_blank: {
            constexpr std::array<std::string_view, 4> bad{"", "   ", "\u00a0", "\u3000 \u2003"};
            const std::string_view value = rng.pick(bad);
            if (rng.chance(50)) {
                c.set("lastName", Json::string(value));
            } else {
                address().set("city", Json::string(value));
            }
            break;
        }
        case Fault::text_long:
            c.set("externalId", Json::string(std::string(201, 'x')));
            break;
        case Fault::text_control: {
            constexpr std::array<std::string_view, 4> bad{"Ann\tMarie", "Line\none", "Bell\x07",
                                                          "Del\x7f"};
            c.set(rng.chance(50) ? "firstName" : "externalId", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::state: {
            constexpr std::array<std::string_view, 5> bad{"XX", "zz", "N", "NYC", "Q1"};
            address().set("state", Json::string(rng.pick(bad)));
            break;
        }
        case Fault::money_negative: {
            Json& coll = ensure_collections(c, rng);
            coll.set(rng.chance(50) ? "totalBalance" : "postItemizationFees", Json::raw("-12.5"));
            break;
        }
        case Fault::money_range:
            ensure_collections(c, rng).set(
                "totalBalance", Json::raw(rng.chance(50) ? "1e17" : "20000000000000000"));
            break;
        case Fault::missing_required: {
            constexpr std::array<std::string_view, 6> top{"externalId", "firstName",    "lastName",
                                                          "email",      "primaryPhone", "address"};
            if (rng.chance(70)) {
                c.erase(rng.pick(top));
            } else {
                constexpr std::array<std::string_view, 4> inner{"line1", "city", "state", "zip"};
                address().erase(rng.pick(inner));
            }
            break;
        }
        case Fault::required_null: {
            constexpr std::array<std::string_view, 5> top{"externalId", "firstName", "email",
                                                          "primaryPhone", "address"};
            c.set(rng.pick(top), Json::null());
            break;
        }
        case Fault::wrong_type:
            switch (rng.below(6)) {
                case 0:
                    c.set("firstName", Json::raw("42"));
                    break;
                case 1:
                    ensure_collections(c, rng).set("totalBalance", Json::string("100"));
                    break;
                case 2:
                    c.set("address", Json::string("1 Main St"));
                    break;
                case 3:
                    c.set("dateOfBirth", Json::raw("19800101"));
                    break;
                case 4:
                    c.set("collections", Json::raw("[]"));
                    break;
                default:
                    c.set("ssnLastFour", Json::raw("1234"));
                    break;
            }
            break;
        case Fault::unknown_member:
            switch (rng.below(3)) {
                case 0:
                    c.set("nickname", Json::string("Bob"));
                    break;
                case 1:
                    address().set("county", Json::string("Cook"));
                    break;
                default:
                    ensure_collections(c, rng).set("currency", Json::string("USD"));
                    break;
            }
            break;
        case Fault::duplicate_member:
            if (rng.chance(50)) {
                c.members.push_back(Member{"lastName", Json::string("Smith")});
            } else {
                address().members.push_back(Member{"zip", Json::string("60601")});
            }
            break;
        case Fault::collections_conflict:
            ensure_collections(c, rng);
            if (rng.chance(50)) {
                c.erase("ssnLastFour");
            } else {
                c.set("dateOfBirth", Json::null());
            }
            break;
        case Fault::collections_missing_total:
            ensure_collections(c, rng).erase("totalBalance");
            break;
        case Fault::malformed: {
            std::string text = to_text(c);
            switch (rng.below(4)) {
                case 0:
                    return text.substr(0, text.size() / 2);  // truncated
                case 1:
                    return text.substr(0, text.size() - 1) + ",}";  // trailing comma
                case 2:
                    return text + " x";  // trailing garbage
                default: {               // a bare word where a value belongs
                    const std::size_t at = text.find("\"firstName\":");
                    return text.substr(0, at + 12) + "Ann" + text.substr(text.find(',', at));
                }
            }
        }
        case Fault::invalid_utf8:
            address().set("city", Json::string(rng.chance(50) ? "Caf\xc3\x28" : "Bad\xff"));
            break;
    }
    return to_text(c);
}

std::string make_bulk(Rng& rng, std::size_t count) {
    std::string out = "{\"customers\":[";
    for (std::size_t i = 0; i < count; ++i) {
        if (i != 0) out += ',';
        out += to_text(customer(rng, 5000 + i, false));
    }
    out += "]}";
    return out;
}

}  // namespace

std::string_view fault_name(Fault fault) {
    constexpr std::array<std::string_view, fault_count> names{"none",
                                                              "e164",
                                                              "zip",
                                                              "date_format",
                                                              "date_future",
                                                              "date_year",
                                                              "ssn_last_four",
                                                              "email",
                                                              "text_blank",
                                                              "text_long",
                                                              "text_control",
                                                              "state",
                                                              "money_negative",
                                                              "money_range",
                                                              "missing_required",
                                                              "required_null",
                                                              "wrong_type",
                                                              "unknown_member",
                                                              "duplicate_member",
                                                              "collections_conflict",
                                                              "collections_missing_total",
                                                              "malformed",
                                                              "invalid_utf8"};
    return names[static_cast<std::size_t>(fault)];
}

Corpus generate(std::uint64_t seed) {
    Rng rng(seed);
    Corpus corpus;
    corpus.seed = seed;
    corpus.today = sys_days{year{2026} / November / 20};

    const Json full = customer(rng, 1, true);
    corpus.customer = to_text(full);
    corpus.customer_reversed = to_text(full, KeyOrder::reversed);
    corpus.customer_shuffled = to_text(full, KeyOrder::shuffled);

    Json every = customer(rng, 2, true);
    // First: later references into `every` must not see its members move.
    every.set("clientId", Json::string("5e0c11ec-7c00-4a11-8000-000000000002"));
    every.set("firstName", escaped_string("José"));
    every.set("middleName", escaped_string("Łukasz"));
    every.set("lastName", escaped_string("Søndergaard-Müller 李"));
    Json& address = *every.find("address");
    address.set("line1", escaped_string("12 Calle de la Peña"));
    address.set("city", escaped_string("Hagåtña"));
    address.set("state", Json::string("GU"));
    address.set("zip", Json::string("96910"));
    Json& debt = *every.find("collections");
    debt.set("originalCreditor", escaped_string("Banco Español de Crédito 🏦"));
    debt.set("itemizationBalance", Json::raw(money(rng, 20000, true)));
    debt.set("postItemizationInterest", Json::raw(money(rng, 2000, true)));
    debt.set("postItemizationFees", Json::raw(money(rng, 500, true)));
    debt.set("postItemizationCredits", Json::raw(money(rng, 500, true)));
    debt.set("postItemizationPayments", Json::raw(money(rng, 5000, true)));
    // In the order of the model, as a client that serialises the struct would send them.
    const auto in_order = [](Json& object, std::initializer_list<const char*> keys) {
        Json ordered = Json::object();
        for (const char* key : keys)
            ordered.set(key, std::move(*object.find(key)));
        object = std::move(ordered);
    };
    in_order(debt, {"totalBalance", "principalBalance", "originalCreditor", "accruedInterestAmount",
                    "chargeOffDate", "firstDelinquencyDate", "settlementAggregationRate",
                    "originalAccountNumber", "itemizationBalance", "postItemizationInterest",
                    "postItemizationFees", "postItemizationCredits", "postItemizationPayments",
                    "productType", "originalProductType"});
    in_order(every, {"externalId", "clientId", "firstName", "middleName", "lastName", "email",
                     "primaryPhone", "secondaryPhone", "address", "ssnLastFour", "dateOfBirth",
                     "collections"});
    corpus.customer_full = to_text(every);

    corpus.bulk_items = 1000;
    corpus.bulk1000 = make_bulk(rng, corpus.bulk_items);

    // 1000 documents; every twentieth is faulty (5%), cycling through the fault kinds so that
    // each appears at least twice.
    constexpr std::size_t mixed_count = 1000;
    int next_fault = 1;
    for (std::size_t i = 0; i < mixed_count; ++i) {
        Json c = customer(rng, 10000 + i, false);
        if (i % 20 == 7) {
            const auto fault = static_cast<Fault>(next_fault);
            next_fault = next_fault + 1 == fault_count ? 1 : next_fault + 1;
            corpus.mixed.push_back({with_fault(std::move(c), fault, rng), fault});
            continue;
        }
        if (rng.chance(10)) add_edge_values(c, rng);
        if (rng.chance(15)) shuffle_keys(c, rng);
        corpus.mixed.push_back({to_text(c), Fault::none});
    }
    return corpus;
}

const Corpus& get() {
    static const Corpus corpus = generate();
    return corpus;
}

const ValidatorInputs& validator_inputs() {
    static const ValidatorInputs inputs = [] {
        Rng rng(default_seed ^ 0x7a11da7e);
        ValidatorInputs in;
        constexpr std::size_t count = 64;
        for (std::size_t i = 0; i < count; ++i) {
            const bool bad = i % 8 == 5;
            in.e164.push_back(bad ? std::string(i % 16 == 5 ? "+1 212 555 0199" : "+0445550199")
                                  : phone(rng));
            in.zip.push_back(
                bad ? std::string(i % 16 == 5 ? "1234" : "12345-12")
                    : (rng.chance(50) ? digits(rng, 5) : digits(rng, 5) + "-" + digits(rng, 4)));
            in.date.push_back(bad ? std::string(i % 16 == 5 ? "2023-02-29" : "1980-13-01")
                                  : past_date(rng, 1900, 2025));
            in.email.push_back(
                bad ? std::string(i % 16 == 5 ? "ann@example..com" : "ann smith@x.io")
                    : std::string(rng.pick(email_locals)) + std::to_string(rng.below(1000)) + "@" +
                          std::string(rng.pick(email_domains)));
            std::string uuid;
            constexpr std::string_view hex = "0123456789abcdef";
            for (int k = 0; k < 32; ++k) {
                if (k == 8 || k == 12 || k == 16 || k == 20) uuid += '-';
                uuid += hex[rng.below(16)];
            }
            if (bad) uuid[i % 16 == 5 ? 8 : 20] = i % 16 == 5 ? 'x' : 'g';
            in.uuid.push_back(uuid);
        }
        return in;
    }();
    return inputs;
}

}  // namespace corpus
