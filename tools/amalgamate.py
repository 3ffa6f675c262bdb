#!/usr/bin/env python3
"""Builds single_include/ from include/: the library as one header per dependency set.

    python3 tools/amalgamate.py           regenerate single_include/ (and version.hpp)
    python3 tools/amalgamate.py --check   exit 1 if a checked-in generated file is out of date

Outputs (in single_include/collectcall/):

  collectcall.hpp  the umbrella collectcall/collectcall.hpp and everything it includes: needs
                   only simdjson and the Boost headers.
  webhook.hpp      every header under collectcall/webhook/ (needs OpenSSL libcrypto), when
                   that directory exists.
  compliance.hpp   every header under collectcall/compliance/ (needs date/tz), when that
                   directory exists.
  src.hpp          collectcall/src.hpp: the one translation unit of the separately compiled
                   mode (COLLECTCALL_SEPARATE_COMPILATION, collectcall/extern.hpp).

A component file never repeats a header of collectcall.hpp: it includes "collectcall.hpp"
instead, so any set of the single headers can be included together.

Each project header (a quoted `#include "collectcall/..."`) is inlined where it is first
included, once, without its `#pragma once`; angle-bracket includes (simdjson, Boost, OpenSSL,
the standard library) are left as they are. A project header is included inside #if only under
`#if !defined(COLLECTCALL_SEPARATE_COMPILATION)` (the reader, which the separately compiled mode
leaves to src.hpp): what is inlined there is wrapped in an include guard of its own, and inlined
again, under the same guard, wherever it is later included unconditionally (src.hpp included). The output depends only on the files' contents, so
it is reproducible byte for byte.

The version macros of include/collectcall/version.hpp are rewritten from project(VERSION) in
the root CMakeLists.txt, the single source of the version; --check fails when they differ.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

PROJECT_INCLUDE = re.compile(r'^\s*#\s*include\s*"(collectcall/[^"]+)"')
ANGLE_PROJECT_INCLUDE = re.compile(r"^\s*#\s*include\s*<collectcall/")
PRAGMA_ONCE = re.compile(r"^\s*#\s*pragma\s+once\b")
CONDITIONAL_OPEN = re.compile(r"^\s*#\s*if")  # #if, #ifdef, #ifndef
CONDITIONAL_CLOSE = re.compile(r"^\s*#\s*endif\b")
CONDITIONAL_ELSE = re.compile(r"^\s*#\s*(else|elif)\b")
# The one condition a project header may be included under: header-only, not separately compiled.
HEADER_ONLY = re.compile(
    r"^\s*#\s*if\s+!\s*defined\s*\(\s*COLLECTCALL_SEPARATE_COMPILATION\s*\)\s*$")
CMAKE_VERSION = re.compile(
    r"\bproject\s*\(\s*collectcall\b[^)]*?\bVERSION\s+(\d+)\.(\d+)\.(\d+)\b", re.IGNORECASE
)

UMBRELLA = "collectcall/collectcall.hpp"
SEPARATE_SOURCE = "collectcall/src.hpp"
VERSION_HEADER = "collectcall/version.hpp"
# (output file, directory of include/ whose headers it holds, what it needs besides the core)
COMPONENTS = [
    ("webhook.hpp", "collectcall/webhook", "OpenSSL 3 libcrypto (CMake: collectcall::webhooks)"),
    ("compliance.hpp", "collectcall/compliance", "date/tz (CMake: collectcall::compliance)"),
]


class AmalgamateError(Exception):
    pass


@dataclass
class Expansion:
    """Inlines headers into one text, remembering what has been inlined already."""

    include_dir: Path
    provided_elsewhere: frozenset[str] = frozenset()
    guarded_elsewhere: frozenset[str] = frozenset()  # inlined with a guard in collectcall.hpp
    inlined: list[str] = field(default_factory=list)  # unconditionally
    guarded: list[str] = field(default_factory=list)  # under HEADER_ONLY, with a guard
    included_umbrella: bool = False
    _active: list[str] = field(default_factory=list)
    _header_only: int = 0  # how many HEADER_ONLY conditions enclose the line being expanded

    def expand(self, name: str, out: list[str]) -> None:
        conditional = self._header_only > 0
        if name in self.inlined or (conditional and name in self.guarded):
            return
        if name in self._active:
            cycle = " -> ".join(self._active + [name])
            raise AmalgamateError(f"include cycle: {cycle}")
        path = self.include_dir / name
        if not path.is_file():
            raise AmalgamateError(f"{name} does not exist under {self.include_dir}")
        self._active.append(name)
        # A header inlined under the condition, or once before under it, has an include guard:
        # in the separately compiled mode its earlier copy is not there, in the header-only mode
        # a later copy must not repeat it.
        guard = (
            "COLLECTCALL_SINGLE_" + re.sub(r"[^A-Za-z0-9]", "_", name).upper()
            if conditional or name in self.guarded or name in self.guarded_elsewhere
            else None
        )
        # Marked as inlined before its body so that a header reached twice is emitted once.
        (self.guarded if conditional else self.inlined).append(name)
        out.append(f"// ---- begin {name} ----\n")
        if guard:
            out.append(f"#ifndef {guard}\n#define {guard}\n")
        depth = 0
        header_only: list[bool] = []  # for each open conditional, whether it is HEADER_ONLY
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            if PRAGMA_ONCE.match(line):
                continue
            match = PROJECT_INCLUDE.match(line)
            if match:
                if depth != 0 and not all(header_only):
                    # Inlining once is only correct when every include is unconditional.
                    raise AmalgamateError(
                        f"{name}:{number}: a project header is included inside #if; "
                        "tools/amalgamate.py only inlines unconditional includes"
                    )
                self._include(match.group(1), out)
                continue
            if ANGLE_PROJECT_INCLUDE.match(line):
                # It would stay an include of include/ in the single header.
                raise AmalgamateError(
                    f'{name}:{number}: include project headers with quotes ("collectcall/...")'
                )
            if CONDITIONAL_OPEN.match(line):
                depth += 1
                header_only.append(bool(HEADER_ONLY.match(line)))
                self._header_only += header_only[-1]
            elif CONDITIONAL_ELSE.match(line) and header_only:
                self._header_only -= header_only[-1]
                header_only[-1] = False
            elif CONDITIONAL_CLOSE.match(line) and header_only:
                depth -= 1
                self._header_only -= header_only.pop()
            out.append(line + "\n")
        self._header_only -= sum(header_only)  # an #if left open closes with its file
        if guard:
            out.append(f"#endif  // {guard}\n")
        out.append(f"// ---- end {name} ----\n")
        self._active.pop()

    def _include(self, name: str, out: list[str]) -> None:
        if name in self.provided_elsewhere:
            if not self.included_umbrella:
                self.included_umbrella = True
                out.append('#include "collectcall.hpp"\n')
            return
        self.expand(name, out)


def read_version(root: Path) -> tuple[int, int, int]:
    text = (root / "CMakeLists.txt").read_text(encoding="utf-8")
    match = CMAKE_VERSION.search(text)
    if not match:
        raise AmalgamateError("no `project(collectcall VERSION x.y.z ...)` in CMakeLists.txt")
    major, minor, patch = (int(g) for g in match.groups())
    return major, minor, patch


def versioned_header(text: str, version: tuple[int, int, int]) -> str:
    """version.hpp with its macros set to `version`; everything else kept as it is."""
    values = {
        "COLLECTCALL_VERSION_MAJOR": str(version[0]),
        "COLLECTCALL_VERSION_MINOR": str(version[1]),
        "COLLECTCALL_VERSION_PATCH": str(version[2]),
        "COLLECTCALL_VERSION_STRING": '"{}.{}.{}"'.format(*version),
    }
    for macro, value in values.items():
        pattern = re.compile(rf"^(\s*#\s*define\s+{macro}\s+).*$", re.MULTILINE)
        text, count = pattern.subn(lambda m, v=value: m.group(1) + v, text)
        if count != 1:
            raise AmalgamateError(f"{VERSION_HEADER} must define {macro} exactly once")
    return text


def banner(output: str, version: tuple[int, int, int], contents: str, needs: str) -> list[str]:
    return [
        f"// collectcall {'.'.join(map(str, version))}: single-header distribution, {output}\n",
        f"// Contents: {contents}.\n",
        f"// Needs: C++20, {needs}.\n",
        "//\n",
        "// GENERATED by tools/amalgamate.py from include/. Do not edit: change the headers under\n",
        "// include/ and run `python3 tools/amalgamate.py`.\n",
        "#pragma once\n",
        "\n",
    ]


def generate(root: Path, version: tuple[int, int, int]) -> dict[str, str]:
    """The text of every file single_include/collectcall/ must hold, by file name."""
    include_dir = root / "include"
    outputs: dict[str, str] = {}

    core = Expansion(include_dir)
    body: list[str] = []
    core.expand(UMBRELLA, body)
    if VERSION_HEADER not in core.inlined:
        raise AmalgamateError(f"{UMBRELLA} must include {VERSION_HEADER}")
    outputs["collectcall.hpp"] = "".join(
        banner("collectcall.hpp", version, UMBRELLA + " and the headers it includes",
               "simdjson (link libsimdjson) and the Boost headers (Describe, Mp11)")
        + body
    )

    for output, directory, needs in COMPONENTS:
        headers = sorted(
            p.relative_to(include_dir).as_posix() for p in (include_dir / directory).rglob("*.hpp")
        )
        if not headers:
            continue
        component = Expansion(include_dir, provided_elsewhere=frozenset(core.inlined),
                              guarded_elsewhere=frozenset(core.guarded))
        body = []
        for header in headers:
            component.expand(header, body)
        extra = ", collectcall.hpp next to this file" if component.included_umbrella else ""
        outputs[output] = "".join(
            banner(output, version, f"every header under {directory}/", needs + extra) + body
        )

    if (include_dir / SEPARATE_SOURCE).is_file():
        source = Expansion(include_dir, provided_elsewhere=frozenset(core.inlined),
                              guarded_elsewhere=frozenset(core.guarded))
        body = []
        source.expand(SEPARATE_SOURCE, body)
        outputs["src.hpp"] = "".join(
            banner("src.hpp", version,
                   f"{SEPARATE_SOURCE}, the separately compiled models",
                   "what collectcall.hpp needs, collectcall.hpp next to this file")
            + body
        )
    return outputs


def describe_difference(name: str, expected: str, actual: str | None) -> str:
    if actual is None:
        return f"{name}: missing\n"
    diff = list(
        difflib.unified_diff(
            actual.splitlines(keepends=True),
            expected.splitlines(keepends=True),
            fromfile=f"{name} (checked in)",
            tofile=f"{name} (generated)",
            n=1,
        )
    )
    shown = diff[:40]
    more = f"... {len(diff) - len(shown)} more diff lines\n" if len(diff) > len(shown) else ""
    return f"{name}: out of date\n" + "".join(shown) + more


def read_text(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Generate single_include/ from include/ (see the module docstring)."
    )
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a generated file differs from the tree")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="source tree (default: the one holding this script)")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()

    try:
        version = read_version(root)
        version_path = root / "include" / VERSION_HEADER
        version_actual = read_text(version_path)
        if version_actual is None:
            raise AmalgamateError(f"include/{VERSION_HEADER} is missing")
        version_text = versioned_header(version_actual, version)
        if not args.check and version_text != version_actual:
            # The version header is itself inlined, so it is settled first.
            version_path.write_text(version_text, encoding="utf-8", newline="\n")
            version_actual = version_text
        outputs = generate(root, version)
    except AmalgamateError as error:
        print(f"amalgamate.py: error: {error}", file=sys.stderr)
        return 2

    out_dir = root / "single_include" / "collectcall"
    expected_files = {f"single_include/collectcall/{name}": text for name, text in outputs.items()}
    expected_files[f"include/{VERSION_HEADER}"] = version_text
    stale = sorted(
        p.relative_to(root).as_posix()
        for p in (out_dir.iterdir() if out_dir.is_dir() else [])
        if p.is_file() and p.name not in outputs
    )

    if args.check:
        problems = [
            describe_difference(name, text, read_text(root / name))
            for name, text in sorted(expected_files.items())
            if read_text(root / name) != text
        ]
        problems += [f"{name}: not produced by tools/amalgamate.py any more\n" for name in stale]
        if problems:
            sys.stderr.write("".join(problems))
            sys.stderr.write(
                "amalgamate.py: the generated files are out of date: run "
                "`python3 tools/amalgamate.py` and commit the result\n"
            )
            return 1
        return 0

    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        path = out_dir / name
        if read_text(path) != text:
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {path.relative_to(root).as_posix()}")
    for name in stale:
        (root / name).unlink()
        print(f"removed {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
