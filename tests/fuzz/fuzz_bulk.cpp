// Fuzz target: read<T> of the bulk import models (SPEC.md 4.2) — every input is read as the
// request, whose items carry their own errors, and as the per-item result.
#include <cstddef>
#include <cstdint>

#include "property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace collectcall;
    const fuzz::Input input(data, size);
    fuzz::check_model<BulkCreateRequest>("BulkCreateRequest", input);
    fuzz::check_model<BulkResult>("BulkResult", input);
    return 0;
}
