// The compile-time benchmark's floor for collectcall: a translation unit that only includes the
// umbrella header.
#include "collectcall/collectcall.hpp"

int main() {}
