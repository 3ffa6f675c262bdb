// The request and answer examples of the operations of part 1 (openapi_examples.hpp).
#include "openapi_examples.hpp"

bool openapi_examples_test::check_part_1(const collectcall::api::Route& route,
                                         simdjson::dom::element op, Counts& counts) {
    return check_part<1>(route, op, counts);
}
