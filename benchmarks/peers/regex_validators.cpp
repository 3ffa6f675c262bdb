#include "peers/regex_validators.hpp"

#include <chrono>
#include <regex>

namespace peers::std_regex {

namespace {
constexpr auto flags = std::regex::ECMAScript | std::regex::optimize;

bool matches(std::string_view text, const std::regex& pattern) {
    return std::regex_match(text.begin(), text.end(), pattern);
}
}  // namespace

bool e164(std::string_view text) {
    static const std::regex pattern(R"(\+[1-9][0-9]{1,14})", flags);
    return matches(text, pattern);
}

bool zip(std::string_view text) {
    static const std::regex pattern(R"([0-9]{5}(-[0-9]{4})?)", flags);
    return matches(text, pattern);
}

bool date(std::string_view text) {
    static const std::regex pattern(R"(([0-9]{4})-([0-9]{2})-([0-9]{2}))", flags);
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_match(text.begin(), text.end(), m, pattern)) return false;
    const auto number = [&](std::size_t i) { return std::stoi(m[i].str()); };
    const std::chrono::year_month_day ymd{std::chrono::year{number(1)},
                                          std::chrono::month{static_cast<unsigned>(number(2))},
                                          std::chrono::day{static_cast<unsigned>(number(3))}};
    return ymd.ok() && ymd.year() >= std::chrono::year{1900} &&
           ymd.year() <= std::chrono::year{2100};
}

bool email(std::string_view text) {
    // https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address
    static const std::regex pattern(
        R"([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)"
        R"((?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)",
        flags);
    return text.size() <= 254 && matches(text, pattern);
}

bool uuid(std::string_view text) {
    static const std::regex pattern(
        "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", flags);
    return matches(text, pattern);
}

}  // namespace peers::std_regex
