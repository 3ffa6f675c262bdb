// POST /calls/get-signed-url (API.md section 13): a call's id in, the signed, time-limited link to
// its recording out (the same link as the call-ended webhook's recordingUrl), as the hosted
// service's NewGetSignedUrlRequest and GetSignedUrlResponse.
#pragma once

#include <string>

#include <boost/describe/class.hpp>

#include "collectcall/types/uuid.hpp"

namespace collectcall {

struct SignedUrlRequest {
    Uuid callId;

    friend bool operator==(const SignedUrlRequest&, const SignedUrlRequest&) = default;
};
BOOST_DESCRIBE_STRUCT(SignedUrlRequest, (), (callId))

struct SignedUrl {
    Uuid callId;
    std::string signedUrl;

    friend bool operator==(const SignedUrl&, const SignedUrl&) = default;
};
BOOST_DESCRIBE_STRUCT(SignedUrl, (), (callId, signedUrl))

}  // namespace collectcall
