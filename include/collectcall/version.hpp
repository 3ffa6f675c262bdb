// The library's version. project(VERSION) in the root CMakeLists.txt is the source: after changing
// it, run tools/amalgamate.py, which rewrites these macros (ctest package.amalgamate_check fails
// while they differ).
#pragma once

#define COLLECTCALL_VERSION_MAJOR 0
#define COLLECTCALL_VERSION_MINOR 2
#define COLLECTCALL_VERSION_PATCH 0
#define COLLECTCALL_VERSION_STRING "0.2.0"
