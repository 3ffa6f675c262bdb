// The response envelope (SPEC.md 2.1) and the error body (API.md section 3).
#pragma once

#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/types/uuid.hpp"

namespace collectcall {

template <class T>
struct Envelope {
    Uuid requestId;
    bool success = true;
    T data;

    friend bool operator==(const Envelope&, const Envelope&) = default;
    BOOST_DESCRIBE_CLASS(Envelope, (), (requestId, success, data), (), ())
};

struct ErrorBody {
    std::string code;  // API.md section 2, e.g. validation_failed
    std::string message;
    std::vector<Error> details;

    friend bool operator==(const ErrorBody&, const ErrorBody&) = default;
};
BOOST_DESCRIBE_STRUCT(ErrorBody, (), (code, message, details))

// A failed request. `data` is null except where an endpoint says otherwise (a call blocked by
// compliance carries the call object).
template <class T = null_t>
struct ErrorEnvelope {
    Uuid requestId;
    bool success = false;
    T data{};
    ErrorBody error;
    std::string publicFacingMessage;  // = error.message

    friend bool operator==(const ErrorEnvelope&, const ErrorEnvelope&) = default;
    BOOST_DESCRIBE_CLASS(ErrorEnvelope, (), (requestId, success, data, error, publicFacingMessage),
                         (), ())
};

// "validation failed" summary of API.md section 3: "2 fields are invalid".
inline std::string invalid_fields_message(std::size_t count) {
    return count == 1 ? std::string("1 field is invalid")
                      : std::to_string(count) + " fields are invalid";
}

}  // namespace collectcall
