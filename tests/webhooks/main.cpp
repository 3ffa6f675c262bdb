#define CATCH_CONFIG_RUNNER
#include <signal.h>

#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
    // A peer that goes away mid-response must not kill the test binary.
    signal(SIGPIPE, SIG_IGN);
    return Catch::Session().run(argc, argv);
}
