// Fuzz target: the value types' own parsers, without JSON around them. The first byte picks the
// type, the rest is the text. For every type:
//   - parse(text) either fails with a known code (never malformed_json) and a message, or gives a
//     value whose view() is non-empty, parses again to an equal value with the same view (parse
//     -> view -> parse is the identity), and survives write -> read<T> unchanged;
//   - where the rule is short enough to state independently (E164, Zip, Uuid, Date, PastDate,
//     Digits, Text, Money), the verdict agrees with that statement of it, and the stored text is
//     the one that was sent (or its canonical form: lowercase Uuid, UTC Timestamp, plain Money).
// Money is checked through from_json_number on grammatical numbers against an exact decimal
// reference (value, canonical text and which rule refuses it), and through parse on anything.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "property.hpp"

namespace {

using namespace collectcall;
using fuzz::Context;
using fuzz::fail;

const Context* current = nullptr;  // for the checks below, which all concern one input

void require(bool condition, std::string_view what, std::string_view detail = {}) {
    if (!condition) fail(*current, what, detail);
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool all_digits(std::string_view s) {
    for (char c : s) {
        if (!is_digit(c)) return false;
    }
    return true;
}

template <class T>
void check_problem(const Parsed<T>& parsed) {
    const Problem& p = parsed.problem();
    require(fuzz::is_known_code(p.code) && p.code != codes::malformed_json,
            "a value type refuses with a known field code", p.code);
    require(!p.message.empty(), "a value type's problem has a message");
}

// The text a value stands for: its view, or for Money its plain decimal notation.
template <class T>
std::string text_of(const T& value) {
    if constexpr (requires { value.view(); }) {
        return std::string(value.view());
    } else {
        return value.to_string();
    }
}

// parse -> view -> parse is the identity, and the value survives JSON (write, then read<T>).
template <class T, class Parse>
const T* check_identity(std::string_view text, Parse parse) {
    static std::optional<T> kept;
    kept.reset();
    Parsed<T> first = parse(text);
    if (!first) {
        check_problem(first);
        return nullptr;
    }
    const T& value = first.value();
    const std::string view = text_of(value);
    require(!view.empty(), "a parsed value has a non-empty view");
    Parsed<T> second = parse(view);
    require(second.ok(), "the view of a value parses", view);
    require(second.value() == value, "the view of a value parses to an equal value", view);
    require(text_of(second.value()) == view, "parsing the view gives the same view", view);

    const std::string json = write(value);
    require(fuzz::is_utf8(json), "a written value is UTF-8", fuzz::printable(json));
    Result<T> back = read<T>(json, fuzz::options());
    require(back.ok(), "a written value reads back",
            fuzz::printable(json) + "\n" + fuzz::describe(back.errors()));
    require(back.value() == value, "a written value reads back equal", fuzz::printable(json));
    kept.emplace(std::move(first).value());
    return &*kept;
}

// Decodes valid UTF-8 (checked with fuzz::is_utf8 first) into code points.
std::u32string code_points(std::string_view text) {
    std::u32string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (std::size_t k = 1; k < len; ++k) {
            cp = cp << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        }
        out += cp;
        i += len;
    }
    return out;
}

// Unicode 15 White_Space.
bool is_white_space(char32_t c) {
    switch (c) {
        case 0x09:
        case 0x0A:
        case 0x0B:
        case 0x0C:
        case 0x0D:
        case 0x20:
        case 0x85:
        case 0xA0:
        case 0x1680:
        case 0x2028:
        case 0x2029:
        case 0x202F:
        case 0x205F:
        case 0x3000:
            return true;
        default:
            return c >= 0x2000 && c <= 0x200A;
    }
}

void check_text(std::string_view text) {
    const Text* value =
        check_identity<Text>(text, [](std::string_view t) { return Text::parse(t); });
    bool expected = fuzz::is_utf8(text);
    if (expected) {
        const std::u32string cps = code_points(text);
        std::size_t first = cps.size();
        std::size_t last = 0;
        for (std::size_t i = 0; i < cps.size(); ++i) {
            if (cps[i] < 0x20 || cps[i] == 0x7F) expected = false;
            if (!is_white_space(cps[i])) {
                if (first == cps.size()) first = i;
                last = i;
            }
        }
        if (first == cps.size() || last - first + 1 > Text::max_code_points) expected = false;
    }
    require((value != nullptr) == expected,
            "Text: UTF-8 without control characters, 1 to 200 code points after trimming");
    if (value != nullptr) require(value->view() == text, "Text is stored as sent");
}

void check_email(std::string_view text) {
    const Email* value =
        check_identity<Email>(text, [](std::string_view t) { return Email::parse(t); });
    if (value == nullptr) return;
    require(value->view() == text, "Email is stored as sent");
    require(text.size() <= Email::max_size, "Email: at most 254 characters");
    const std::size_t at = text.find('@');
    require(
        at != 0 && at != std::string_view::npos && text.find('@', at + 1) == std::string_view::npos,
        "Email: one @ after a non-empty local part");
}

void check_e164(std::string_view text) {
    const E164* value =
        check_identity<E164>(text, [](std::string_view t) { return E164::parse(t); });
    const bool expected = text.size() >= 3 && text.size() <= 16 && text[0] == '+' &&
                          text[1] >= '1' && text[1] <= '9' && all_digits(text.substr(2));
    require((value != nullptr) == expected, "E164: + then 2 to 15 digits, the first 1-9");
    if (value != nullptr) require(value->view() == text, "E164 is stored as sent");
}

void check_zip(std::string_view text) {
    const Zip* value = check_identity<Zip>(text, [](std::string_view t) { return Zip::parse(t); });
    const bool expected = (text.size() == 5 && all_digits(text)) ||
                          (text.size() == 10 && all_digits(text.substr(0, 5)) && text[5] == '-' &&
                           all_digits(text.substr(6)));
    require((value != nullptr) == expected, "Zip: 12345 or 12345-1234");
    if (value != nullptr) require(value->view() == text, "Zip is stored as sent");
}

void check_uuid(std::string_view text) {
    const Uuid* value =
        check_identity<Uuid>(text, [](std::string_view t) { return Uuid::parse(t); });
    bool expected = text.size() == 36;
    std::string lower;
    for (std::size_t i = 0; expected && i < text.size(); ++i) {
        const bool hyphen = i == 8 || i == 13 || i == 18 || i == 23;
        expected = hyphen ? text[i] == '-' : is_hex(text[i]);
        lower += (text[i] >= 'A' && text[i] <= 'Z') ? static_cast<char>(text[i] + 32) : text[i];
    }
    require((value != nullptr) == expected, "Uuid: 8-4-4-4-12 hexadecimal digits");
    if (value != nullptr) require(value->view() == lower, "Uuid is stored in lowercase");
}

// Whether `text` is a real date YYYY-MM-DD in 1900-2100, by std::chrono.
std::optional<std::chrono::sys_days> reference_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !all_digits(text.substr(0, 4)) ||
        !all_digits(text.substr(5, 2)) || !all_digits(text.substr(8, 2))) {
        return std::nullopt;
    }
    const int y = std::stoi(std::string(text.substr(0, 4)));
    const auto m = static_cast<unsigned>(std::stoi(std::string(text.substr(5, 2))));
    const auto d = static_cast<unsigned>(std::stoi(std::string(text.substr(8, 2))));
    const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{m},
                                          std::chrono::day{d}};
    if (!ymd.ok() || y < 1900 || y > 2100) return std::nullopt;
    return std::chrono::sys_days{ymd};
}

void check_date(std::string_view text) {
    const Date* value =
        check_identity<Date>(text, [](std::string_view t) { return Date::parse(t); });
    const auto expected = reference_date(text);
    require((value != nullptr) == expected.has_value(),
            "Date: a real date YYYY-MM-DD in 1900-2100");
    if (value == nullptr) return;
    require(value->view() == text, "Date is stored as sent");
    require(value->days() == *expected, "Date: the day it names");
}

void check_past_date(std::string_view text) {
    const PastDate* value = check_identity<PastDate>(
        text, [](std::string_view t) { return PastDate::parse(t, fuzz::options()); });
    const auto expected = reference_date(text);
    require((value != nullptr) == (expected && *expected <= *fuzz::options().today),
            "PastDate: a Date not after today");
}

void check_timestamp(std::string_view text) {
    const Timestamp* value =
        check_identity<Timestamp>(text, [](std::string_view t) { return Timestamp::parse(t); });
    if (value == nullptr) return;
    const std::string_view view = value->view();
    require(view.size() == 24 && view[10] == 'T' && view[19] == '.' && view[23] == 'Z',
            "Timestamp: canonical form YYYY-MM-DDTHH:MM:SS.mmmZ");
    // In UTC already: the canonical text is the input's, with the fraction cut or padded to 3.
    if (text.back() == 'Z' && text[10] == 'T') {
        std::string expected(text.substr(0, 19));
        expected += '.';
        std::string fraction;
        if (text[19] == '.') fraction = text.substr(20, text.size() - 21);
        fraction.resize(3, '0');
        expected += fraction.substr(0, 3);
        expected += 'Z';
        require(view == expected, "Timestamp in UTC keeps its date and time", expected);
    }
}

void check_url(std::string_view text) {
    const Url* value = check_identity<Url>(text, [](std::string_view t) { return Url::parse(t); });
    if (value == nullptr) return;
    require(value->view() == text, "Url is stored as sent");
    require(value->scheme() == "http" || value->scheme() == "https", "Url: http or https");
    require(!value->host().empty(), "Url: a host");
    require(value->port() != 0, "Url: a port 1-65535");
    require(!value->target().empty() && value->target().front() == '/',
            "Url: a target starting with /");
    require(value->target().find('#') == std::string_view::npos, "Url: the target has no fragment");
    for (char c : text) {
        require(static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7F,
                "Url: printable ASCII only");
    }
}

void check_digits(std::string_view text) {
    const Digits<4>* value =
        check_identity<Digits<4>>(text, [](std::string_view t) { return Digits<4>::parse(t); });
    require((value != nullptr) == (text.size() == 4 && all_digits(text)),
            "Digits<4>: four digits 0-9");
    if (value != nullptr) require(value->view() == text, "Digits is stored as sent");
}

void check_state(std::string_view text) {
    const UsState* value =
        check_identity<UsState>(text, [](std::string_view t) { return UsState::parse(t); });
    if (value == nullptr) return;
    // Stored as the canonical upper-case code of what was sent, in any letter case.
    require(value->view().size() == 2 && text.size() == 2, "UsState is two letters");
    for (std::size_t i = 0; i < 2; ++i) {
        const char sent =
            text[i] >= 'a' && text[i] <= 'z' ? static_cast<char>(text[i] - 32) : text[i];
        require(value->view()[i] == sent, "UsState is stored as sent, in upper case");
    }
}

// The outcome Money must give for a JSON number, computed on its decimal digits as text.
struct MoneyVerdict {
    std::string_view code;  // empty when accepted
    std::string canonical;
};

MoneyVerdict money_reference(std::string_view number) {
    const bool negative = number.front() == '-';
    if (negative) number.remove_prefix(1);
    std::size_t i = 0;
    std::string digits;
    while (i < number.size() && is_digit(number[i]))
        digits += number[i++];
    std::int64_t point = static_cast<std::int64_t>(digits.size());  // after this many digits
    if (i < number.size() && number[i] == '.') {
        ++i;
        while (i < number.size() && is_digit(number[i]))
            digits += number[i++];
    }
    std::int64_t exponent = 0;
    if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
        ++i;
        bool negative_exponent = false;
        if (number[i] == '+' || number[i] == '-') negative_exponent = number[i++] == '-';
        for (; i < number.size(); ++i) {
            if (exponent < 1'000'000'000'000'000) exponent = exponent * 10 + (number[i] - '0');
        }
        if (negative_exponent) exponent = -exponent;
    }
    point += exponent;
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return {{}, "0"};
    const std::size_t last = digits.find_last_not_of('0');
    const std::string significant = digits.substr(first, last - first + 1);
    point -= static_cast<std::int64_t>(first);
    if (negative) return {codes::minimum, {}};
    constexpr std::string_view two_to_53 = "9007199254740992";
    if (point > 16) return {codes::range, {}};
    if (point == 16) {
        std::string integer = significant.substr(0, 16);
        integer.resize(16, '0');
        if (integer > two_to_53 || (integer == two_to_53 && significant.size() > 16)) {
            return {codes::range, {}};
        }
    }
    if (significant.size() > 19) return {codes::format, {}};
    const std::int64_t n = static_cast<std::int64_t>(significant.size());
    if (n - point > 19) return {codes::format, {}};
    if (point <= 0) {
        return {{}, "0." + std::string(static_cast<std::size_t>(-point), '0') + significant};
    }
    if (n <= point)
        return {{}, significant + std::string(static_cast<std::size_t>(point - n), '0')};
    const auto p = static_cast<std::size_t>(point);
    return {{}, significant.substr(0, p) + "." + significant.substr(p)};
}

void check_money(std::string_view text) {
    if (!is_json_number(text)) {
        const Parsed<Money> parsed = Money::parse(text);
        require(!parsed.ok() && parsed.problem().code == codes::format,
                "Money::parse refuses what is not a JSON number with format");
        return;
    }
    const Money* value =
        check_identity<Money>(text, [](std::string_view t) { return Money::from_json_number(t); });
    const Parsed<Money> parsed = Money::parse(text);
    require(parsed.ok() == (value != nullptr) && (!parsed.ok() || parsed.value() == *value),
            "Money::parse and from_json_number agree");
    const MoneyVerdict expected = money_reference(text);
    if (value == nullptr) {
        const Parsed<Money> refused = Money::from_json_number(text);
        require(refused.problem().code == expected.code,
                "Money refuses for the reason of the reference",
                "reference: " +
                    std::string(expected.code.empty() ? "accepted " + expected.canonical
                                                      : std::string(expected.code)) +
                    ", Money: " + std::string(refused.problem().code));
        return;
    }
    const std::string written = value->to_string();
    require(
        expected.code.empty() && written == expected.canonical,
        "Money has the exact value of the number, in plain notation",
        "reference: " + (expected.code.empty() ? expected.canonical : std::string(expected.code)) +
            ", Money: " + written);
    require(is_json_number(written), "Money writes a JSON number", written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    static constexpr std::string_view names[] = {"Text", "Email",     "E164",     "Zip",
                                                 "Uuid", "Date",      "PastDate", "Timestamp",
                                                 "Url",  "Digits<4>", "UsState",  "Money"};
    const std::size_t which = data[0] % std::size(names);
    const Context context{names[which], text};
    current = &context;
    switch (which) {
        case 0:
            check_text(text);
            break;
        case 1:
            check_email(text);
            break;
        case 2:
            check_e164(text);
            break;
        case 3:
            check_zip(text);
            break;
        case 4:
            check_uuid(text);
            break;
        case 5:
            check_date(text);
            break;
        case 6:
            check_past_date(text);
            break;
        case 7:
            check_timestamp(text);
            break;
        case 8:
            check_url(text);
            break;
        case 9:
            check_digits(text);
            break;
        case 10:
            check_state(text);
            break;
        default:
            check_money(text);
            break;
    }
    current = nullptr;
    return 0;
}
