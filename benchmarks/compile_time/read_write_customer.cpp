// The compile-time benchmark's collectcall program as a file that includes what it uses: the
// same as read_write_collectcall.cpp, with the model's own header and the writer instead of the
// umbrella header (header-only: the model's header brings the reader).
#include <iostream>
#include <iterator>
#include <string>

#include "collectcall/core/write.hpp"
#include "collectcall/model/customer.hpp"

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
