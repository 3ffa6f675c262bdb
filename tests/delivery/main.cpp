#include <signal.h>

#include "harness.hpp"
#include "session.hpp"

int main(int argc, char* argv[]) {
    // A peer that goes away mid-response must not kill the test binary.
    signal(SIGPIPE, SIG_IGN);
    if (const auto code = test::store_preflight()) return *code;
    return test::run_catch(argc, argv);
}
