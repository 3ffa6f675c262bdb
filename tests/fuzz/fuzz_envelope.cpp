// Fuzz target: read<T> of the response envelopes (SPEC.md 2.1, API.md section 3) around the data
// the API returns — every input is read as each of them.
#include <cstddef>
#include <cstdint>

#include "property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace collectcall;
    const fuzz::Input input(data, size);
    fuzz::check_model<Envelope<Customer>>("Envelope<Customer>", input);
    fuzz::check_model<Envelope<CallDetails>>("Envelope<CallDetails>", input);
    fuzz::check_model<Envelope<CallList>>("Envelope<CallList>", input);
    fuzz::check_model<Envelope<BulkResult>>("Envelope<BulkResult>", input);
    fuzz::check_model<Envelope<WebhookSecret>>("Envelope<WebhookSecret>", input);
    fuzz::check_model<ErrorEnvelope<>>("ErrorEnvelope<>", input);
    fuzz::check_model<ErrorEnvelope<Call>>("ErrorEnvelope<Call>", input);
    fuzz::check_model<ErrorBody>("ErrorBody", input);
    return 0;
}
