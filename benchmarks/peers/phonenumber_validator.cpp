// libphonenumber, when the suite was configured with it (see benchmarks/fetch-libphonenumber.sh).
#include "peers/regex_validators.hpp"

#ifdef COLLECTCALL_HAVE_LIBPHONENUMBER
#include <string>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>
#endif

namespace peers::libphonenumber {

#ifdef COLLECTCALL_HAVE_LIBPHONENUMBER
bool available() {
    return true;
}

bool valid_number(std::string_view text) {
    using i18n::phonenumbers::PhoneNumberUtil;
    static const PhoneNumberUtil* const util = PhoneNumberUtil::GetInstance();
    i18n::phonenumbers::PhoneNumber number;
    if (util->Parse(std::string(text), "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR) {
        return false;
    }
    return util->IsValidNumber(number);
}
#else
bool available() {
    return false;
}
bool valid_number(std::string_view) {
    return false;
}
#endif

}  // namespace peers::libphonenumber
