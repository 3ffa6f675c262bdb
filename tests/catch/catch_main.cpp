// The main of the test executables that need nothing done before Catch2 runs.
#include "session.hpp"

int main(int argc, char* argv[]) {
    return test::run_catch(argc, argv);
}
