// The "usual" validators: std::regex (ECMAScript, optimize), compiled once, plus whatever a
// regex cannot say (a real calendar day, a length limit) checked the way such code usually does.
// They answer the same questions as collectcall's value types; the fairness test checks that
// on the validator inputs.
#pragma once

#include <string_view>

namespace peers::std_regex {

bool e164(std::string_view text);   // ^\+[1-9][0-9]{1,14}$
bool zip(std::string_view text);    // ^[0-9]{5}(-[0-9]{4})?$
bool date(std::string_view text);   // ^([0-9]{4})-([0-9]{2})-([0-9]{2})$, then year_month_day::ok()
bool email(std::string_view text);  // the WHATWG HTML pattern, at most 254 characters
bool uuid(std::string_view text);   // 8-4-4-4-12 hexadecimal digits

}  // namespace peers::std_regex

namespace peers::libphonenumber {

// Whether libphonenumber was found when the suite was configured.
bool available();
// PhoneNumberUtil::Parse(text, "ZZ") then IsValidNumber: is this a number in service in the
// numbering plan of its country? A different and stricter question than E.164 syntax.
bool valid_number(std::string_view text);

}  // namespace peers::libphonenumber
