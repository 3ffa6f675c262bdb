// The compile-time benchmark's every-model program: reads, writes and derives the JSON Schema of
// every body and answer model of the API (api/endpoints.hpp), header-only. Standard input is
// read as the model whose position in that list is the first argument; its schema is printed,
// then the value written back, or the errors.
//
// With COMPILE_TIME_ONE_MORE the program has one more model, a copy of CustomerCreate under
// another name (one_more_model.hpp), for the cost of one more model.
//
// COMPILE_TIME_PART keeps one part of the program, for what each part costs (run.py's split):
// 0 the headers and the dispatch alone, 1 the JSON Schemas, 2 writing, 3 reading (both passes),
// 4 the fast pass alone, 5 the full pass alone. Without it, the whole program.
#include <cstddef>
#include <iostream>
#include <iterator>
#include <string>
#include <type_traits>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include "collectcall/api/endpoints.hpp"
#include "collectcall/core/schema.hpp"
#include "collectcall/core/write.hpp"

#ifdef COMPILE_TIME_ONE_MORE
#include "one_more_model.hpp"
#endif

namespace program {

namespace mp = boost::mp11;
using collectcall::api::endpoint;
using collectcall::api::Operation;

template <class D>
using body_of = typename endpoint<D::value>::body;
template <class D>
using data_of = typename endpoint<D::value>::data;
template <class T>
using is_model =
    mp::mp_bool<!std::is_same_v<T, collectcall::null_t> &&
                !std::is_same_v<T, collectcall::EmptyObject> && !std::is_same_v<T, std::string>>;

using Operations = boost::describe::describe_enumerators<Operation>;
using Models =
    mp::mp_filter<is_model, mp::mp_unique<mp::mp_append<mp::mp_transform<body_of, Operations>,
                                                        mp::mp_transform<data_of, Operations>
#ifdef COMPILE_TIME_ONE_MORE
                                                        ,
                                                        mp::mp_list<OneMoreModel>
#endif
                                                        >>>;

#if defined(COMPILE_TIME_PART)
// Makes the compiler emit what `p` points to, as a call would (GCC and clang).
inline void escape(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

template <class T>
int run(const std::string& text) {
#if COMPILE_TIME_PART == 0
    return static_cast<int>(text.size() % 2);
#elif COMPILE_TIME_PART == 1
    std::cout << collectcall::json_schema<T>() << '\n';
    return static_cast<int>(text.size() % 2);
#elif COMPILE_TIME_PART == 2
    std::cout << collectcall::write(T{}) << '\n';
    return static_cast<int>(text.size() % 2);
#elif COMPILE_TIME_PART == 3
    return collectcall::read<T>(text) ? 0 : 1;
#elif COMPILE_TIME_PART == 4
    // What read<T> instantiates of the fast pass (detail names: this program measures them).
    bool (collectcall::detail::FastReader::*pass)(T&) =
        &collectcall::detail::FastReader::document<T>;
    escape(&pass);
    return static_cast<int>(text.size() % 2);
#elif COMPILE_TIME_PART == 5
    // What read<T> instantiates of the full pass.
    bool (*pass)(collectcall::Reader&, simdjson::ondemand::value&, void*) =
        &collectcall::detail::read_root<T>;
    escape(&pass);
    return static_cast<int>(text.size() % 2);
#else
#error "COMPILE_TIME_PART is 0 to 5"
#endif
}
#else
template <class T>
int run(const std::string& text) {
    std::cout << collectcall::json_schema<T>() << '\n';
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

}  // namespace program

int main(int argc, char* argv[]) {
    constexpr std::size_t models = boost::mp11::mp_size<program::Models>::value;
    const std::size_t which = argc > 1 ? std::stoul(argv[1]) : 0;
    if (which >= models) {
        std::cout << "the model's position: 0 to " << models - 1 << '\n';
        return 2;
    }
    const std::string text{std::istreambuf_iterator<char>(std::cin), {}};
    return boost::mp11::mp_with_index<models>(which, [&](auto I) {
        return program::run<boost::mp11::mp_at_c<program::Models, I()>>(text);
    });
}
