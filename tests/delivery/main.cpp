#define CATCH_CONFIG_RUNNER
#include <signal.h>

#include <catch2/catch.hpp>

#include "harness.hpp"

int main(int argc, char* argv[]) {
    // A peer that goes away mid-response must not kill the test binary.
    signal(SIGPIPE, SIG_IGN);
    if (const auto code = test::store_preflight()) return *code;
    return Catch::Session().run(argc, argv);
}
