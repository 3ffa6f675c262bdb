// read<T>: JSON text -> a validated T, or every error of the document with its JSON Pointer path.
//
// A valid document is read straight from its bytes by the fast pass (read/fast_pass.hpp), which
// gives up at the first thing it does not take; the document is then read again by the full pass
// (read/full_pass.hpp, simdjson On-Demand), the one that reports errors, and the result is the
// same either way (tests/core/fast_pass.cpp and the fuzz targets compare the two). Both passes
// follow one description of how each type is read (read/kind.hpp).
//
// What is read: described structs (BOOST_DESCRIBE_STRUCT) member by member; described enums
// (enum.hpp) from their wire names; std::optional, Patch, std::vector, BoundedVector, bool, the
// integers, Validated<T>; types meeting StringValue / NumberValue (value_type.hpp), with nothing
// more to write (one that also has `static std::optional<Problem> parse_into(text, out)`, or
// `parse_into(text, options, out)`, changing `out` only when the text is valid, is read in place
// through it rather than through a Parsed<T>). Any other type of your own is read through the
// hook, `bool collectcall_read(collectcall::ValueReader&, T&)` (read/value_reader.hpp).
//
// The parts, one concern each, under read/: scan.hpp (byte scanners), reader.hpp (errors, paths,
// depth: the Reader), convert.hpp (text to value), members.hpp (member lookup, what an object's
// last key leads to, the cross-field rule of core/check.hpp), kind.hpp (the dispatch),
// value_reader.hpp and hook.hpp (ValueReader, declared and defined), full_pass.hpp,
// fast_pass.hpp, entry_points.hpp and entry.hpp (read, read_into: declared and defined). The
// declarations need no simdjson: a model's header includes them (core/readable.hpp, which
// includes this header unless COLLECTCALL_SEPARATE_COMPILATION).
#pragma once

#include "collectcall/core/check.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/read/entry.hpp"
#include "collectcall/core/read/entry_points.hpp"
#include "collectcall/core/read/fast_pass.hpp"
#include "collectcall/core/read/full_pass.hpp"
#include "collectcall/core/read/hook.hpp"
#include "collectcall/core/read/kind.hpp"
#include "collectcall/core/read/members.hpp"
#include "collectcall/core/read/reader.hpp"
#include "collectcall/core/read/value_reader.hpp"
