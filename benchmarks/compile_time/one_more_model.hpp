// One more model for the compile-time benchmark's programs (COMPILE_TIME_ONE_MORE): a customer's
// contact record, made of members and nested models that the API's models already use, so that
// what it adds is its own reading, writing and schema. read_write_nlohmann.cpp declares the same
// struct with the same members for nlohmann/json.
#pragma once

#include <optional>

#include <boost/describe/class.hpp>

#include "collectcall/model/customer.hpp"

namespace program {

struct OneMoreModel {
    collectcall::Text externalId;
    collectcall::Text firstName;
    std::optional<collectcall::Text> middleName;
    collectcall::Text lastName;
    collectcall::Email email;
    collectcall::E164 primaryPhone;
    std::optional<collectcall::E164> secondaryPhone;
    collectcall::Address address;
    std::optional<collectcall::PastDate> dateOfBirth;
    std::optional<collectcall::Collections> collections;
};
BOOST_DESCRIBE_STRUCT(OneMoreModel, (),
                      (externalId, firstName, middleName, lastName, email, primaryPhone,
                       secondaryPhone, address, dateOfBirth, collections))

}  // namespace program
