// Fuzz target: read<T> of the models of the rest of the hosted API (API.md section 13) — the SMS
// and e-mail imports (one and in bulk), the generate and analyze requests, clients, bulk calls and
// the signed-url request, and their answers — every input is read as each of them.
#include <cstddef>
#include <cstdint>

#include "property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace collectcall;
    const fuzz::Input input(data, size);
    fuzz::check_model<SmsImportRequest>("SmsImportRequest", input);
    fuzz::check_model<EmailImportRequest>("EmailImportRequest", input);
    fuzz::check_model<SmsImportBulkRequest>("SmsImportBulkRequest", input);
    fuzz::check_model<EmailImportBulkRequest>("EmailImportBulkRequest", input);
    fuzz::check_model<SmsGenerateRequest>("SmsGenerateRequest", input);
    fuzz::check_model<EmailGenerateRequest>("EmailGenerateRequest", input);
    fuzz::check_model<AnalyzeInteractionRequest>("AnalyzeInteractionRequest", input);
    fuzz::check_model<ClientCreate>("ClientCreate", input);
    fuzz::check_model<BulkCallRequest>("BulkCallRequest", input);
    fuzz::check_model<SignedUrlRequest>("SignedUrlRequest", input);
    fuzz::check_model<SmsInteractionData>("SmsInteractionData", input);
    fuzz::check_model<EmailInteractionData>("EmailInteractionData", input);
    fuzz::check_model<SmsImportBulkResult>("SmsImportBulkResult", input);
    fuzz::check_model<AnalyzeInteractionResult>("AnalyzeInteractionResult", input);
    fuzz::check_model<BulkCallResult>("BulkCallResult", input);
    fuzz::check_model<ClientList>("ClientList", input);
    return 0;
}
