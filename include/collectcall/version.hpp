// The library's version, kept equal to the CMake project version (a test checks it).
#pragma once

#define COLLECTCALL_VERSION_MAJOR 0
#define COLLECTCALL_VERSION_MINOR 1
#define COLLECTCALL_VERSION_PATCH 0
#define COLLECTCALL_VERSION_STRING "0.1.0"
