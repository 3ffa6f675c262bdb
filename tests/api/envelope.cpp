// The error body (API.md section 3) built from the error table.
#include "collectcall/api/envelope.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "collectcall/core/write.hpp"
#include "collectcall/model/call.hpp"

namespace api = collectcall::api;
using collectcall::write;

namespace {
const collectcall::Uuid request_id =
    collectcall::Uuid::parse("6f1c1c1e-1111-4a2a-9e1b-7d6f5a4b3c2d").value();
}

TEST_CASE("error_envelope: code from the table, message twice, data null by default") {
    const auto envelope =
        api::error_envelope(request_id, api::errors::not_found, "Customer not found");
    CHECK_FALSE(envelope.success);
    CHECK(envelope.requestId == request_id);
    CHECK(envelope.error.code == "not_found");
    CHECK(envelope.error.message == "Customer not found");
    CHECK(envelope.publicFacingMessage == envelope.error.message);
    CHECK(envelope.error.details.empty());
    CHECK(write(envelope) ==
          R"({"requestId":"6f1c1c1e-1111-4a2a-9e1b-7d6f5a4b3c2d","success":false,"data":null,)"
          R"("error":{"code":"not_found","message":"Customer not found","details":[]},)"
          R"("publicFacingMessage":"Customer not found"})");
}

TEST_CASE("error_envelope: details in order, and data where an endpoint gives some") {
    const collectcall::ErrorList details{{"/address/zip", "format", "must be 12345 or 12345-1234"},
                                         {"/primaryPhone", "required", "is required"}};
    const auto envelope = api::error_envelope(request_id, api::errors::validation_failed,
                                              collectcall::invalid_fields_message(2), details);
    CHECK(envelope.error.code == "validation_failed");
    CHECK(envelope.error.details == details);
    CHECK(write(envelope).find(
              R"("error":{"code":"validation_failed","message":"2 fields are invalid","details":)"
              R"([{"path":"/address/zip","code":"format","message":"must be 12345 or 12345-1234"},)"
              R"({"path":"/primaryPhone","code":"required","message":"is required"}]})") !=
          std::string::npos);

    collectcall::Call call;
    call.id = request_id;
    const auto blocked = api::error_envelope(request_id, api::errors::compliance_failed,
                                             "Customer not eligible for call.", {}, call);
    CHECK(blocked.data == call);
    CHECK(blocked.error.code == "compliance_failed");
    // The call is written as the envelope's data, before the error.
    CHECK(write(blocked).find(R"("success":false,"data":)" + write(call) + R"(,"error":{)") !=
          std::string::npos);
}
