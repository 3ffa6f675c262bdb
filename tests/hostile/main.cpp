#define CATCH_CONFIG_RUNNER
#include <signal.h>

#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
    // A server answering a client that already went away must not kill the test binary.
    signal(SIGPIPE, SIG_IGN);
    return Catch::Session().run(argc, argv);
}
