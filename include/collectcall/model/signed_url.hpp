// POST /calls/get-signed-url (API.md section 13): a call's id in, the signed, time-limited link to
// its recording out (the same link as the call-ended webhook's recordingUrl), as the hosted
// service's NewGetSignedUrlRequest and GetSignedUrlResponse.
#pragma once

#include <string>

#include <boost/describe/class.hpp>

#include "collectcall/model/call.hpp"
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

// Whether a call has a recording to link to: it has ended, and was answered. A call still in
// progress or never answered has none (404 `Call not found`, as an unknown call).
[[nodiscard]] inline bool has_recording(const CallDetails& call) noexcept {
    return call.status != CallStatus::in_progress && call.endedReason.has_value() &&
           *call.endedReason != EndedReason::customer_did_not_answer;
}

}  // namespace collectcall
