#!/usr/bin/env python3
"""The compile-time benchmark: how long the compiler takes over the same small program written
with collectcall (header-only, and separately compiled) and with nlohmann/json.

    benchmarks/compile_time/run.py [--runs N] [--out results.json] [--cxx g++-12]

Each program is one translation unit compiled to an object file with `-std=c++20 -O2` (no
linking). What is timed is the compiler's CPU time (user + system, from the kernel's accounting
of the child process), so that other work on the machine weighs less than it would on wall
time. The programs are compiled in turn, round after round, and each figure is the median of its
rounds; the ratios are between medians of the same run.

  read_write/collectcall           read_write_collectcall.cpp, header-only, including what it
                                   uses (the model's header and the writer)
  read_write/collectcall_umbrella  the same file with COMPILE_TIME_UMBRELLA: header-only, it
                                   includes the umbrella header instead
  read_write/collectcall_separate  the same file with COLLECTCALL_SEPARATE_COMPILATION (and the
                                   umbrella header): it calls the models' reading and writing that
                                   collectcall/src.hpp compiles once (that translation unit is
                                   timed apart, once per run, and is not part of the ratio)
  read_write/nlohmann              read_write_nlohmann.cpp, the same program with nlohmann/json
  include/collectcall              umbrella.cpp: only #include "collectcall/collectcall.hpp"
  include/nlohmann                 include_nlohmann.cpp: only #include <nlohmann/json.hpp>
  src/collectcall                  a file that includes collectcall/src.hpp
  every_model/collectcall          every_model_collectcall.cpp: reads, writes and derives the
                                   JSON Schema of every body and answer model of
                                   api/endpoints.hpp, header-only
  openapi/collectcall              openapi_collectcall.cpp: builds the OpenAPI document
  NAME+1                           read_write/collectcall, read_write/nlohmann and
                                   every_model/collectcall with COMPILE_TIME_ONE_MORE: one more
                                   model, the same struct for both libraries
                                   (one_more_model.hpp); NAME+1 minus NAME is what one more
                                   model costs

  every_model/PART                 every_model_collectcall.cpp with COMPILE_TIME_PART: the
                                   headers and the dispatch alone (headers), the JSON Schemas
                                   (schema), writing (write), reading (read), the fast pass
                                   alone (fast_pass), the full pass alone (full_pass); each
                                   minus the headers alone is what that part costs. They are
                                   compiled in the first --split-runs rounds only (default 3)

--quick leaves out the every-model and OpenAPI programs (the longest to compile).

With --baseline DIR, the collectcall programs are also built against the headers under DIR (an
older checkout's include/) in the same rounds, for a before/after comparison of one run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FLAGS = ["-std=c++20", "-O2"]
# The parts of the every-model program, as COMPILE_TIME_PART numbers them
# (every_model_collectcall.cpp).
EVERY_MODEL_PARTS = ["headers", "schema", "write", "read", "fast_pass", "full_pass"]


def programs(include_dir: Path, scratch: Path, quick: bool = False) -> dict[str, list[str]]:
    src = scratch / "collectcall_src.cpp"
    src.write_text('#include "collectcall/src.hpp"\n')
    inc = [f"-I{include_dir}"]
    result = {
        "read_write/collectcall": inc + [str(HERE / "read_write_collectcall.cpp")],
        "read_write/collectcall_separate": inc + ["-DCOLLECTCALL_SEPARATE_COMPILATION",
                                                  str(HERE / "read_write_collectcall.cpp")],
        "read_write/collectcall_umbrella": inc + ["-DCOMPILE_TIME_UMBRELLA",
                                                  str(HERE / "read_write_collectcall.cpp")],
        "read_write/nlohmann": [str(HERE / "read_write_nlohmann.cpp")],
        "include/collectcall": inc + [str(HERE / "umbrella.cpp")],
        "include/nlohmann": [str(HERE / "include_nlohmann.cpp")],
        "src/collectcall": inc + ["-DCOLLECTCALL_SEPARATE_COMPILATION", str(src)],
        "read_write/collectcall+1": inc + ["-DCOMPILE_TIME_ONE_MORE",
                                           str(HERE / "read_write_collectcall.cpp")],
        "read_write/nlohmann+1": ["-DCOMPILE_TIME_ONE_MORE",
                                  str(HERE / "read_write_nlohmann.cpp")],
    }
    if not quick:
        result.update({
            "every_model/collectcall": inc + [str(HERE / "every_model_collectcall.cpp")],
            "every_model/collectcall+1": inc + ["-DCOMPILE_TIME_ONE_MORE",
                                                str(HERE / "every_model_collectcall.cpp")],
            "openapi/collectcall": inc + [str(HERE / "openapi_collectcall.cpp")],
        })
        for number, part in enumerate(EVERY_MODEL_PARTS):
            result[f"every_model/{part}"] = inc + [f"-DCOMPILE_TIME_PART={number}",
                                                   str(HERE / "every_model_collectcall.cpp")]
    if not (include_dir / "collectcall" / "api" / "endpoints.hpp").is_file():
        # Headers from before the API's endpoints were described (--baseline of an older tree).
        for name in ("every_model/collectcall", "every_model/collectcall+1",
                     "openapi/collectcall", *(f"every_model/{p}" for p in EVERY_MODEL_PARTS)):
            result.pop(name, None)
    if not (include_dir / "collectcall" / "src.hpp").is_file():
        # Headers from before the separately compiled mode (--include of an older tree).
        del result["read_write/collectcall_separate"], result["src/collectcall"]
    return result


def is_part(name: str) -> bool:
    """Whether `name` is one part of the every-model program."""
    return name.startswith("every_model/") and name.split("/", 1)[1] in EVERY_MODEL_PARTS


def timed(command: list[str]) -> float:
    """The CPU time (user + system) of `command` and its children; it must succeed."""
    # os.times() counts every child reaped so far: the difference around one child is its own.
    before = os.times()
    process = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = os.times()
    if process.returncode != 0:
        sys.stderr.write(process.stderr.decode(errors="replace"))
        raise SystemExit(f"compile failed: {' '.join(command)}")
    return (after.children_user - before.children_user) + (after.children_system -
                                                           before.children_system)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="rounds (default 9)")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++-12"))
    parser.add_argument("--include", type=Path, default=ROOT / "include",
                        help="the collectcall headers to measure (default: include/)")
    parser.add_argument("--baseline", type=Path,
                        help="another include/ (an older checkout) whose collectcall programs "
                             "take turns with the others, as NAME@baseline")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--quick", action="store_true",
                        help="leave out the every-model and OpenAPI programs")
    parser.add_argument("--split-runs", type=int, default=3,
                        help="rounds that also compile the every-model program's parts "
                             "(default 3)")
    args = parser.parse_args()
    if shutil.which(args.cxx) is None:
        raise SystemExit(f"{args.cxx} not found")

    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        commands = {name: [args.cxx, *FLAGS, *rest, "-c", "-o", str(scratch / "out.o")]
                    for name, rest in programs(args.include.resolve(), scratch,
                                               args.quick).items()}
        if args.baseline:
            for name, rest in programs(args.baseline.resolve(), scratch, args.quick).items():
                if "collectcall" in name and name != "src/collectcall" and not is_part(name):
                    commands[f"{name}@baseline"] = [args.cxx, *FLAGS, *rest, "-c", "-o",
                                                    str(scratch / "out.o")]
        load_before = os.getloadavg()
        samples: dict[str, list[float]] = {name: [] for name in commands}
        # The separately compiled translation unit once (it is built once per project).
        if "src/collectcall" in commands:
            samples["src/collectcall"].append(timed(commands["src/collectcall"]))
        rotating = [name for name in commands if name != "src/collectcall"]
        for run in range(args.runs):
            # A different program first in each round, so that none always follows another.
            shift = run % len(rotating)
            this_round = [name for name in rotating[shift:] + rotating[:shift]
                          if run < args.split_runs or not is_part(name)]
            for name in this_round:
                samples[name].append(timed(commands[name]))
            line = ", ".join(f"{n} {samples[n][-1]:.2f}" for n in rotating if n in this_round)
            print(f"round {run + 1}/{args.runs}: {line}", flush=True)
        load_after = os.getloadavg()

    version = subprocess.run([args.cxx, "--version"], capture_output=True, text=True).stdout
    medians = {name: statistics.median(values) for name, values in samples.items() if values}
    nlohmann = medians["read_write/nlohmann"]
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "compiler": version.splitlines()[0] if version else args.cxx,
        "flags": " ".join(FLAGS),
        "runs": args.runs,
        "cores": os.cpu_count(),
        "load_avg_before": list(load_before),
        "load_avg_after": list(load_after),
        "medians_s": medians,
        "samples_s": samples,
        "ratios": {
            "header_only_vs_nlohmann": medians["read_write/collectcall"] / nlohmann,
            "include_collectcall_vs_include_nlohmann":
                medians["include/collectcall"] / medians["include/nlohmann"],
            "include_collectcall_vs_nlohmann": medians["include/collectcall"] / nlohmann,
            "umbrella_header_only_vs_nlohmann":
                medians["read_write/collectcall_umbrella"] / nlohmann,
        },
    }
    # What one more model costs: the same program with and without it.
    result["one_more_model_s"] = {
        name: medians[f"{name}+1"] - medians[name]
        for name in ("read_write/collectcall", "read_write/nlohmann", "every_model/collectcall")
        if name in medians and f"{name}+1" in medians}
    # What each part of the every-model program costs: the part minus the headers alone.
    if "every_model/headers" in medians:
        result["every_model_parts_s"] = {
            part: medians[f"every_model/{part}"] - medians["every_model/headers"]
            for part in EVERY_MODEL_PARTS[1:] if f"every_model/{part}" in medians}
    if "read_write/collectcall_separate" in medians:
        result["ratios"]["separate_vs_nlohmann"] = (medians["read_write/collectcall_separate"] /
                                                    nlohmann)
    for name, value in medians.items():
        print(f"{name:44} {value:6.2f} s")
    for name, value in result["ratios"].items():
        print(f"{name:42} {value:5.2f}x")
    for name, value in result["one_more_model_s"].items():
        print(f"one more model, {name:27} {value:+6.2f} s")
    for name, value in result.get("every_model_parts_s", {}).items():
        print(f"every model, {name:30} {value:+6.2f} s")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
