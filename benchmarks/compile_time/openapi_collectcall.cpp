// The compile-time benchmark's OpenAPI program: builds the service's OpenAPI document
// (api/openapi.hpp) and prints it.
#include <iostream>

#include "collectcall/api/openapi.hpp"

int main() {
    std::cout << collectcall::openapi() << '\n';
}
