// The one translation unit that compiles collectcall's models (COLLECTCALL_SEPARATE_COMPILATION,
// collectcall/extern.hpp); every other file of the server calls them.
#include <collectcall/src.hpp>
