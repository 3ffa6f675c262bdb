// The compile-time benchmark's every-model program: reads, writes and derives the JSON Schema of
// every body and answer model of the API (api/endpoints.hpp), header-only. Standard input is
// read as the model whose position in that list is the first argument; its schema is printed,
// then the value written back, or the errors.
//
// With COMPILE_TIME_ONE_MORE the program has one more model, a copy of CustomerCreate under
// another name (one_more_model.hpp), for the cost of one more model.
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
