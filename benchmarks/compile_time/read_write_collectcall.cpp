// The compile-time benchmark's collectcall program: reads a CustomerCreate from standard input
// and writes it back, or prints the errors. Built header-only, and with
// COLLECTCALL_SEPARATE_COMPILATION against a translation unit that includes collectcall/src.hpp.
// With COMPILE_TIME_MODEL_HEADER it includes what it uses instead of the umbrella header: the
// model's header (which brings the reader, header-only) and the writer.
#include <iostream>
#include <iterator>
#include <string>

#if defined(COMPILE_TIME_MODEL_HEADER)
#include "collectcall/core/write.hpp"
#include "collectcall/model/customer.hpp"
#else
#include "collectcall/collectcall.hpp"
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
