// The field rules of API.md section 4, written once for all the peers so that nlohmann,
// Boost.JSON and RapidJSON apply exactly the same checks after binding. They are hand-written
// scanners like collectcall's (not std::regex, not collectcall's own code): the benchmark then
// compares reading and binding, and the fairness test compares two independent implementations
// of the rules.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string_view>

#include "peers/model.hpp"

namespace peers::rules {

constexpr bool digit(char c) {
    return c >= '0' && c <= '9';
}
constexpr bool alnum(char c) {
    return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// "+", a first digit 1-9, then 1 to 14 more digits.
constexpr bool e164(std::string_view s) {
    if (s.size() < 3 || s.size() > 16 || s[0] != '+' || s[1] < '1' || s[1] > '9') return false;
    for (std::size_t i = 2; i < s.size(); ++i) {
        if (!digit(s[i])) return false;
    }
    return true;
}

// 12345 or 12345-1234.
constexpr bool zip(std::string_view s) {
    if (s.size() != 5 && s.size() != 10) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i == 5 ? s[i] != '-' : !digit(s[i])) return false;
    }
    return true;
}

// Exactly four ASCII digits.
constexpr bool ssn_last_four(std::string_view s) {
    return s.size() == 4 && digit(s[0]) && digit(s[1]) && digit(s[2]) && digit(s[3]);
}

// YYYY-MM-DD, a real calendar day, year 1900-2100.
inline bool date(std::string_view s) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
        if (!digit(s[i])) return false;
    }
    const auto n = [&](std::size_t at, std::size_t len) {
        unsigned v = 0;
        for (std::size_t i = at; i < at + len; ++i)
            v = v * 10 + static_cast<unsigned>(s[i] - '0');
        return v;
    };
    const std::chrono::year_month_day ymd{std::chrono::year{static_cast<int>(n(0, 4))},
                                          std::chrono::month{n(5, 2)}, std::chrono::day{n(8, 2)}};
    return ymd.ok() && ymd.year() >= std::chrono::year{1900} &&
           ymd.year() <= std::chrono::year{2100};
}

// A date that is also not after `today`.
inline bool past_date(std::string_view s, std::chrono::sys_days today) {
    if (!date(s)) return false;
    const auto n = [&](std::size_t at, std::size_t len) {
        unsigned v = 0;
        for (std::size_t i = at; i < at + len; ++i)
            v = v * 10 + static_cast<unsigned>(s[i] - '0');
        return v;
    };
    const std::chrono::sys_days day{std::chrono::year{static_cast<int>(n(0, 4))} /
                                    std::chrono::month{n(5, 2)} / std::chrono::day{n(8, 2)}};
    return day <= today;
}

// The WHATWG "valid e-mail address", at most 254 characters:
//   [A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+ @ label ( "." label )*,
//   label = 1 to 63 of [A-Za-z0-9-], neither first nor last a hyphen.
constexpr bool email(std::string_view s) {
    if (s.size() > 254) return false;
    std::size_t i = 0;
    constexpr std::string_view local_specials = ".!#$%&'*+/=?^_`{|}~-";
    while (i < s.size() && (alnum(s[i]) || local_specials.find(s[i]) != std::string_view::npos))
        ++i;
    if (i == 0 || i == s.size() || s[i] != '@') return false;
    ++i;
    while (true) {  // one label per turn
        const std::size_t start = i;
        while (i < s.size() && (alnum(s[i]) || s[i] == '-'))
            ++i;
        const std::size_t length = i - start;
        if (length == 0 || length > 63 || s[start] == '-' || s[i - 1] == '-') return false;
        if (i == s.size()) return true;
        if (s[i] != '.') return false;
        ++i;
    }
}

// The 62 USPS codes in any letter case: 50 states, DC, PR GU VI AS MP, FM MH PW, AA AE AP.
constexpr bool state(std::string_view s) {
    constexpr std::string_view codes =
        "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
        "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP FM MH PW AA "
        "AE AP";
    const auto upper = [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; };
    if (s.size() != 2) return false;
    for (std::size_t i = 0; i < codes.size(); i += 3) {
        if (codes[i] == upper(s[0]) && codes[i + 1] == upper(s[1])) return true;
    }
    return false;
}

// 8-4-4-4-12 hex digits, either case.
constexpr bool uuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        const bool hex = digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (dash ? c != '-' : !hex) return false;
    }
    return true;
}

namespace detail {
// One code point from valid UTF-8 (every peer parser has checked the encoding), or -1.
constexpr long next_code_point(std::string_view s, std::size_t& i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = b(i);
    std::size_t size = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (size == 0 || i + size > s.size()) return -1;
    long cp = size == 1 ? lead : lead & (0x7F >> size);
    for (std::size_t k = 1; k < size; ++k)
        cp = cp << 6 | (b(i + k) & 0x3F);
    i += size;
    return cp;
}
constexpr bool white_space(long c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}
}  // namespace detail

// 1 to 200 code points once leading and trailing (Unicode) white space is trimmed; no control
// characters U+0000-U+001F, U+007F anywhere.
constexpr bool text(std::string_view s) {
    std::size_t count = 0, first = 0, end = 0;
    bool seen = false;
    for (std::size_t i = 0; i < s.size();) {
        const long c = detail::next_code_point(s, i);
        if (c < 0x20 || c == 0x7F) return false;  // also -1: not UTF-8
        if (!detail::white_space(c)) {
            if (!seen) first = count;
            seen = true;
            end = count + 1;
        }
        ++count;
    }
    return seen && end - first <= 200;
}

// >= 0 (so -0 passes), at most 2^53. Finite: no peer parser produces NaN or infinity.
constexpr bool amount(double v) {
    return v >= 0 && v <= 9007199254740992.0;
}

// Every rule of the model on a bound customer; returns the number of fields that break one.
inline int validate(const CustomerCreate& c, const Options& options) {
    int errors = 0;
    const auto check = [&errors](bool ok) { errors += ok ? 0 : 1; };
    const auto check_optional = [&check](const std::optional<std::string>& v, auto rule) {
        if (v) check(rule(*v));
    };
    const auto check_amount = [&check](const std::optional<double>& v) {
        if (v) check(amount(*v));
    };
    const auto past = [&options](std::string_view s) { return past_date(s, options.today); };
    check(text(c.externalId));
    check_optional(c.clientId, uuid);
    check(text(c.firstName));
    check_optional(c.middleName, text);
    check(text(c.lastName));
    check(email(c.email));
    check(e164(c.primaryPhone));
    check_optional(c.secondaryPhone, e164);
    check_optional(c.address.line1, text);
    check_optional(c.address.line2, text);
    check_optional(c.address.city, text);
    check_optional(c.address.state, state);
    check(zip(c.address.zip));
    check_optional(c.ssnLastFour, ssn_last_four);
    check_optional(c.dateOfBirth, past);
    if (c.collections) {
        const Collections& k = *c.collections;
        check(amount(k.totalBalance));
        check_amount(k.principalBalance);
        check_optional(k.originalCreditor, text);
        check_amount(k.accruedInterestAmount);
        check_optional(k.chargeOffDate, past);
        check_optional(k.firstDelinquencyDate, past);
        check_amount(k.settlementAggregationRate);
        check_optional(k.originalAccountNumber, text);
        check_amount(k.itemizationBalance);
        check_amount(k.postItemizationInterest);
        check_amount(k.postItemizationFees);
        check_amount(k.postItemizationCredits);
        check_amount(k.postItemizationPayments);
        check_optional(k.productType, text);
        check_optional(k.originalProductType, text);
        // The collections rule: a debt needs the identity to match it against.
        check(c.ssnLastFour.has_value() && c.dateOfBirth.has_value());
    }
    return errors;
}

}  // namespace peers::rules
