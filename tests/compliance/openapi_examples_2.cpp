// The request and answer examples of the operations of part 2 (openapi_examples.hpp).
#include "openapi_examples.hpp"

bool openapi_examples_test::check_part_2(const collectcall::api::Route& route,
                                         simdjson::dom::element op, Counts& counts) {
    return check_part<2>(route, op, counts);
}
