// The request and answer examples of the operations of part 0 (openapi_examples.hpp).
#include "openapi_examples.hpp"

bool openapi_examples_test::check_part_0(const collectcall::api::Route& route,
                                         simdjson::dom::element op, Counts& counts) {
    return check_part<0>(route, op, counts);
}
