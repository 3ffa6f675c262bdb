// The part of std::chrono the value types and ReadOptions use: durations, time points, the
// system clock and whole days (std::chrono::sys_days). libstdc++ keeps these in <bits/chrono.h>,
// apart from C++20's calendar and time zones, which make <chrono> itself several times costlier
// to compile in every file that includes a model (docs/benchmarks.md, compile time); with another
// standard library this is <chrono>. The types convert between days and calendar dates
// themselves (types/date.hpp). Code of the library that needs the calendar or time zones
// (compliance/) includes <chrono>.
#pragma once

#include <version>

#if defined(__GLIBCXX__) && __has_include(<bits/chrono.h>)
#include <bits/chrono.h>
#else
#include <chrono>
#endif
