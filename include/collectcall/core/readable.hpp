// What the header of a readable type includes: the declarations of reading (read<T> and
// read_into<T>, the read hook's ValueReader, the cross-field rules' MemberStates and RuleErrors),
// none of which needs simdjson, and, header-only, the reader itself (core/read.hpp), so that a
// model's header is all a file that reads the model includes.
//
// With COLLECTCALL_SEPARATE_COMPILATION the reader is left out: the models' reading is compiled
// once by collectcall/src.hpp (collectcall/extern.hpp), and a file that reads any other type
// includes core/read.hpp itself.
#pragma once

#include "collectcall/core/check.hpp"
#include "collectcall/core/read/entry_points.hpp"
#include "collectcall/core/read/value_reader.hpp"

#if !defined(COLLECTCALL_SEPARATE_COMPILATION)
#include "collectcall/core/read.hpp"
#endif
