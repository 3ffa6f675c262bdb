// The compile-time benchmark's collectcall program: reads a CustomerCreate from standard input
// and writes it back, or prints the errors. Header-only, it includes what it uses, as the
// nlohmann program does: the model's header (which brings the reader) and the writer. With
// COMPILE_TIME_UMBRELLA it includes the umbrella header instead; with
// COLLECTCALL_SEPARATE_COMPILATION (the umbrella header too) it calls the models' reading and
// writing that a translation unit including collectcall/src.hpp compiles once.
#include <iostream>
#include <iterator>
#include <string>

#if defined(COMPILE_TIME_UMBRELLA) || defined(COLLECTCALL_SEPARATE_COMPILATION)
#include "collectcall/collectcall.hpp"
#else
#include "collectcall/core/write.hpp"
#include "collectcall/model/customer.hpp"
#endif

int main() {
    const std::string text{std::istreambuf_iterator<char>(std::cin), {}};
    const collectcall::Result<collectcall::CustomerCreate> customer =
        collectcall::read<collectcall::CustomerCreate>(text);
    if (!customer) {
        for (const collectcall::Error& e : customer.errors())
            std::cout << e.path << ": " << e.message << '\n';
        return 1;
    }
    std::cout << collectcall::write(customer.value()) << '\n';
}
