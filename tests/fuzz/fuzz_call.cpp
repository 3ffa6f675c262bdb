// Fuzz target: read<T> of the call models (SPEC.md 2.5-2.7, 4.4, API.md sections 8-9) — every
// input is read as each of them.
#include <cstddef>
#include <cstdint>

#include "property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace collectcall;
    const fuzz::Input input(data, size);
    fuzz::check_model<CallRequest>("CallRequest", input);
    fuzz::check_model<Webhook>("Webhook", input);
    fuzz::check_model<Call>("Call", input);
    fuzz::check_model<CallDetails>("CallDetails", input);
    fuzz::check_model<CallList>("CallList", input);
    fuzz::check_model<CallWebhookEvent>("CallWebhookEvent", input);
    fuzz::check_model<WebhookSecret>("WebhookSecret", input);
    fuzz::check_model<ComplianceResult>("ComplianceResult", input);
    fuzz::check_model<Check>("Check", input);
    return 0;
}
