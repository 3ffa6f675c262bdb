#include <signal.h>
#include <sys/resource.h>

#include "harness.hpp"
#include "session.hpp"

int main(int argc, char* argv[]) {
    // A server answering a client that already went away must not kill the test binary.
    signal(SIGPIPE, SIG_IGN);
    // The slow-client tests hold a few hundred connections, both of their ends in this process.
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    if (const auto code = test::store_preflight()) return *code;
    return test::run_catch(argc, argv);
}
