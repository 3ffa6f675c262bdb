// Catch2's implementation, compiled once into a library that every test executable links: it
// takes about as long to compile as the heaviest test file, and each suite compiled it again in
// its own main.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "session.hpp"

int test::run_catch(int argc, char* argv[]) {
    return Catch::Session().run(argc, argv);
}
