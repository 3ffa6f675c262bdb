// The translation unit of the separately compiled mode: the models' reading and writing that
// single_header.cpp and single_header_second.cpp call (COLLECTCALL_SEPARATE_COMPILATION).
#include <collectcall/src.hpp>
