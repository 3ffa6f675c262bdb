// The compile-time benchmark's collectcall program: reads a CustomerCreate from standard input
// and writes it back, or prints the errors. Built header-only, and with
// COLLECTCALL_SEPARATE_COMPILATION against a translation unit that includes collectcall/src.hpp.
#include <iostream>
#include <iterator>
#include <string>

#include "collectcall/collectcall.hpp"

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
