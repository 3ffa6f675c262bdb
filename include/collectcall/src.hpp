// The separately compiled part of collectcall (collectcall/extern.hpp): include this header in
// exactly one translation unit of a project built with COLLECTCALL_SEPARATE_COMPILATION, and
// nothing else in it needs to change:
//
//     // collectcall_src.cpp
//     #include "collectcall/src.hpp"
//
// It compiles the reading, merging and writing of every model of extern.hpp's lists once. With
// CMake: target_compile_definitions(app PRIVATE COLLECTCALL_SEPARATE_COMPILATION) and the file
// above among the sources of app.
#pragma once

#include "collectcall/collectcall.hpp"
#include "collectcall/core/read.hpp"
#include "collectcall/extern.hpp"

#define COLLECTCALL_DETAIL_DEFINE_BODY(T)    \
    COLLECTCALL_DETAIL_INSTANTIATE_READ(, T) \
    COLLECTCALL_DETAIL_INSTANTIATE_WRITE(, T)
#define COLLECTCALL_DETAIL_DEFINE_DOCUMENT(T) COLLECTCALL_DETAIL_INSTANTIATE_WRITE(, T)
#define COLLECTCALL_DETAIL_DEFINE_PATCH(Target, PatchT) \
    COLLECTCALL_DETAIL_INSTANTIATE_PATCH(, Target, PatchT)

namespace collectcall {
COLLECTCALL_SEPARATE_BODIES(COLLECTCALL_DETAIL_DEFINE_BODY)
COLLECTCALL_SEPARATE_STORED(COLLECTCALL_DETAIL_DEFINE_BODY)
COLLECTCALL_SEPARATE_DOCUMENTS(COLLECTCALL_DETAIL_DEFINE_DOCUMENT)
COLLECTCALL_SEPARATE_PATCHES(COLLECTCALL_DETAIL_DEFINE_PATCH)
}  // namespace collectcall
