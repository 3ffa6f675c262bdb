// The response envelope and the error body of API.md section 3.
#include "collectcall/model/envelope.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "collectcall/core/read.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/model/compliance.hpp"

using collectcall::read;
using collectcall::write;

namespace {
const auto request_id = collectcall::Uuid::parse("7c9e6679-7425-40de-944b-e07fc1f90ae7").value();
}

TEST_CASE("Envelope: requestId, success, data") {
    collectcall::Envelope<collectcall::Check> envelope{
        request_id, true, {collectcall::CheckId::respectful_hours, "b", "c", "d"}};
    const std::string json = write(envelope);
    CHECK(json == R"({"requestId":"7c9e6679-7425-40de-944b-e07fc1f90ae7","success":true,)"
                  R"("data":{"id":"respectful-hours","name":"b","description":"c","reason":"d"}})");
    auto back = read<collectcall::Envelope<collectcall::Check>>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == envelope);
}

TEST_CASE("ErrorEnvelope: the error body with details and publicFacingMessage") {
    collectcall::ErrorEnvelope<> envelope;
    envelope.requestId = request_id;
    envelope.error.code = "validation_failed";
    envelope.error.message = collectcall::invalid_fields_message(2);
    envelope.error.details = {{"/address/zip", "format", "must be 12345 or 12345-1234"},
                              {"/primaryPhone", "required", "is required"}};
    envelope.publicFacingMessage = envelope.error.message;
    const std::string json = write(envelope);
    CHECK(json ==
          R"({"requestId":"7c9e6679-7425-40de-944b-e07fc1f90ae7","success":false,"data":null,)"
          R"("error":{"code":"validation_failed","message":"2 fields are invalid","details":[)"
          R"({"path":"/address/zip","code":"format","message":"must be 12345 or 12345-1234"},)"
          R"({"path":"/primaryPhone","code":"required","message":"is required"}]},)"
          R"("publicFacingMessage":"2 fields are invalid"})");
    auto back = read<collectcall::ErrorEnvelope<>>(json);
    REQUIRE(back.ok());
    CHECK(back.value() == envelope);
    CHECK(collectcall::invalid_fields_message(1) == "1 field is invalid");
}
