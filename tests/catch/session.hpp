#pragma once

// Runs the test cases linked into the executable with Catch2's command line (catch_session.cpp,
// where Catch::Session is defined: catch.hpp declares it only with its implementation).
namespace test {
int run_catch(int argc, char* argv[]);
}  // namespace test
