// COLLECTCALL_HOT and COLLECTCALL_OUT_OF_LINE: what the reader and the writer inline on the path
// of every value whatever the compiler's estimate of its size (out of line it costs a call per
// member), and what they keep out of line because it runs only off that path, so as not to crowd
// it. COLLECTCALL_COLD is out of line too and runs only for a document with a problem (an error
// reported, malformed JSON): compiled for size, and a branch to it is the unlikely one. Without
// GCC's or clang's attributes all three are plain. COLLECTCALL_HOT_LAMBDA, written after a
// lambda's parameters, inlines the lambda where it is called: a step of a loop unrolled over a
// struct's members (mp_for_each), which out of line would keep the reader's state in memory.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define COLLECTCALL_HOT [[gnu::always_inline]] inline
#define COLLECTCALL_OUT_OF_LINE [[gnu::noinline]]
#define COLLECTCALL_COLD [[gnu::cold, gnu::noinline]]
#define COLLECTCALL_HOT_LAMBDA __attribute__((always_inline))
#else
#define COLLECTCALL_HOT inline
#define COLLECTCALL_OUT_OF_LINE
#define COLLECTCALL_COLD
#define COLLECTCALL_HOT_LAMBDA
#endif
