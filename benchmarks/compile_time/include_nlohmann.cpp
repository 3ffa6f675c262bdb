// The compile-time benchmark's floor for nlohmann/json: a translation unit that only includes it.
#include <nlohmann/json.hpp>

int main() {}
