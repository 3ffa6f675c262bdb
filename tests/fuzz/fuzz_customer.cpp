// Fuzz target: read<T> of the customer models (SPEC.md 2.2-2.4) — every input is read as each of
// them, and each read is checked against the property of property.hpp.
#include <cstddef>
#include <cstdint>

#include "property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace collectcall;
    const fuzz::Input input(data, size);
    fuzz::check_model<CustomerCreate>("CustomerCreate", input);
    fuzz::check_model<Customer>("Customer", input);
    fuzz::check_model<CustomerPatch>("CustomerPatch", input);
    fuzz::check_model<Address>("Address", input);
    fuzz::check_model<Collections>("Collections", input);
    return 0;
}
