// simdjson as the reader includes it. The full pass runs simdjson On-Demand as compiled for this
// translation unit's target (simdjson's builtin implementation); the structural index comes from
// the library's choice at run time, whatever this file declares. simdjson.h also declares the
// kernels for the x86-64 targets the compiler was not told it may use (icelake, haswell,
// westmere: about 6,600 of its 31,500 lines), which On-Demand never calls from here, so they are
// left out: that is about 0.3 s less for the compiler in every file that reads
// (docs/benchmarks.md, compile time). A file that includes simdjson.h first, or defines
// COLLECTCALL_SIMDJSON_ALL_IMPLEMENTATIONS, has them all.
#pragma once

#if !defined(SIMDJSON_H) && !defined(COLLECTCALL_SIMDJSON_ALL_IMPLEMENTATIONS)
#if !defined(SIMDJSON_IMPLEMENTATION_ICELAKE) && !defined(__AVX512VBMI2__)
#define SIMDJSON_IMPLEMENTATION_ICELAKE 0
#endif
#if !defined(SIMDJSON_IMPLEMENTATION_HASWELL) && !defined(__AVX2__)
#define SIMDJSON_IMPLEMENTATION_HASWELL 0
#endif
#if !defined(SIMDJSON_IMPLEMENTATION_WESTMERE) && !(defined(__SSE4_2__) && defined(__PCLMUL__))
#define SIMDJSON_IMPLEMENTATION_WESTMERE 0
#endif
#endif

#include <simdjson.h>
