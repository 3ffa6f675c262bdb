// The compile-time benchmark's collectcall program: reads a CustomerCreate from standard input
// and writes it back, or prints the errors. Header-only, it includes what it uses, as the
// nlohmann program does: the model's header (which brings the reader) and the writer. With
// COMPILE_TIME_UMBRELLA it includes the umbrella header instead; with
// COLLECTCALL_SEPARATE_COMPILATION (the umbrella header too) it calls the models' reading and
// writing that a translation unit including collectcall/src.hpp compiles once. With
// COMPILE_TIME_ONE_MORE it also reads and writes one more model (one_more_model.hpp) when given
// an argument, for the cost of one more model.
#include <iostream>
#include <iterator>
#include <string>

#if defined(COMPILE_TIME_UMBRELLA) || defined(COLLECTCALL_SEPARATE_COMPILATION)
#include "collectcall/collectcall.hpp"
#else
#include "collectcall/core/write.hpp"
#include "collectcall/model/customer.hpp"
#endif

#ifdef COMPILE_TIME_ONE_MORE
#include "one_more_model.hpp"

template <class T>
int read_write(const std::string& text) {
    const collectcall::Result<T> value = collectcall::read<T>(text);
    if (!value) {
        for (const collectcall::Error& e : value.errors())
            std::cout << e.path << ": " << e.message << '\n';
        return 1;
    }
    std::cout << collectcall::write(value.value()) << '\n';
    return 0;
}
#endif

int main([[maybe_unused]] int argc, char*[]) {
    const std::string text{std::istreambuf_iterator<char>(std::cin), {}};
#ifdef COMPILE_TIME_ONE_MORE
    if (argc > 1) return read_write<program::OneMoreModel>(text);
#endif
    const collectcall::Result<collectcall::CustomerCreate> customer =
        collectcall::read<collectcall::CustomerCreate>(text);
    if (!customer) {
        for (const collectcall::Error& e : customer.errors())
            std::cout << e.path << ": " << e.message << '\n';
        return 1;
    }
    std::cout << collectcall::write(customer.value()) << '\n';
}
