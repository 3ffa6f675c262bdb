#!/usr/bin/python3
"""Where the reader's time goes: samples each collectcall read benchmark with `perf record` and
writes, per benchmark, the share of samples by source file and by source line (the header an
inlined instruction came from, which the benchmark binary's debug information gives); and, with
`--driver`, counts under callgrind the instructions and the mispredicted branches of one read of
each document, by collectcall and by the DOM parse, in the model of a branch predictor that
callgrind simulates (the same model for both: a count to compare, not what the processor does).

    benchmarks/profile.py --binary build-bench/benchmarks/collectcall_benchmarks \\
                          --driver build-bench/benchmarks/collectcall_profile_driver \\
                          --out build-bench/benchmarks/results/profile.json

benchmarks/run.sh runs it after the library benchmarks when `perf` can sample (Debian's
linux-perf; COLLECTCALL_BENCH_DEPS=1 tools/install-deps.sh installs it, and valgrind), and
report.py turns the
JSON into the section of docs/benchmarks.md that says what limits each read target. Samples are
taken with the cpu-clock software event, which needs no hardware counters (a virtual machine
often has none): an instruction's share is the time the processor spent at it or just after it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# The read benchmarks that have a target against the DOM parse (report.py's targets()).
BENCHMARKS = ("read/customer/collectcall", "read/customer_full/collectcall",
              "read/bulk1000/collectcall", "read/mixed/collectcall")
ROOT = Path(__file__).resolve().parent.parent
TOP_FILES = 12
TOP_LINES = 15


def perf_works() -> str | None:
    """perf's version when it can sample a process of this user, else None."""
    if shutil.which("perf") is None:
        return None
    try:
        version = subprocess.run(["perf", "--version"], capture_output=True, text=True,
                                 check=True, timeout=30).stdout.strip()
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-o", f"{tmp}/probe",
                            "--", "true"], capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return version


def intrinsic_name(file: str, line: int) -> str:
    """The SIMD intrinsic whose body holds line `line` of the compiler's header `file`."""
    for header in Path("/usr/lib/gcc").glob(f"*/*/include/{file}"):
        lines = header.read_text(errors="replace").splitlines()[:line]
        for text in reversed(lines):
            m = re.match(r"(_mm\w*)\s*\(", text)
            if m:
                return f"{m.group(1)} (SIMD intrinsic)"
    return ""


def source_text(file: str, line: int) -> str:
    """The line of the project's source a sample's file:line names, when the name is unique; for
    a compiler's intrinsics header, the intrinsic."""
    if file.endswith("intrin.h"):
        return intrinsic_name(file, line)
    matches = [p for d in ("include", "benchmarks") for p in (ROOT / d).rglob(file)]
    if len(matches) != 1:
        return ""
    lines = matches[0].read_text(errors="replace").splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def profile(binary: Path, benchmark: str, seconds: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        data = f"{tmp}/perf.data"
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o", data, "--",
                        str(binary), f"--benchmark_filter=^{re.escape(benchmark)}$",
                        f"--benchmark_min_time={seconds}"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort",
                                 "srcline", "--stdio", "--percent-limit", "0.01"],
                                capture_output=True, text=True, check=True).stdout
    by_line: dict[str, float] = {}
    for row in report.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+(\S+)", row)
        if m:
            by_line[m.group(2)] = by_line.get(m.group(2), 0.0) + float(m.group(1))
    # The corpus is generated before the benchmark starts: not the reader's time.
    by_line = {k: v for k, v in by_line.items() if not k.startswith("corpus.cpp:")}
    total = sum(by_line.values()) or 1.0
    files: dict[str, float] = {}
    for where, share in by_line.items():
        m = re.match(r"(.+):(\d+)$", where)
        file = m.group(1) if m and m.group(1) != "??" else "(no source line: libraries, kernel)"
        files[file] = files.get(file, 0.0) + share
    top_files = sorted(files.items(), key=lambda kv: -kv[1])[:TOP_FILES]
    lines = []
    for where, share in sorted(by_line.items(), key=lambda kv: -kv[1]):
        m = re.match(r"(.+\.(?:hpp|cpp|h)):(\d+)$", where)
        if not m:
            continue
        lines.append({"where": where, "share": round(100 * share / total, 2),
                      "source": source_text(m.group(1), int(m.group(2)))})
        if len(lines) == TOP_LINES:
            break
    return {"files": [{"file": f, "share": round(100 * s / total, 2)} for f, s in top_files],
            "lines": lines}


# One read, as each benchmark counts it: (document, repetitions under callgrind).
SIMULATED = (("customer", 400), ("customer_full", 400), ("bulk1000", 3), ("mixed", 3))


def callgrind_counts(driver: Path, reader: str, document: str, repetitions: int) -> list[int]:
    """Instructions, conditional branches mispredicted, indirect branches mispredicted."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--branch-sim=yes",
                          "--callgrind-out-file=/dev/null", str(driver), reader, document,
                          str(repetitions)], capture_output=True, text=True, check=True)
    m = re.search(r"Collected : (\d+) (\d+) (\d+) (\d+) (\d+)", run.stderr)
    if not m:
        raise RuntimeError(f"no callgrind summary for {reader} {document}")
    ir, _, cond_miss, _, indirect_miss = (int(x) for x in m.groups())
    return [ir, cond_miss, indirect_miss]


def simulate(driver: Path) -> dict:
    """Per read of each document: what collectcall and the DOM parse execute, and how many of
    their branches callgrind's predictor misses (a run of N reads less a run of none)."""
    result = {}
    for document, repetitions in SIMULATED:
        row = {}
        for reader in ("collectcall", "dom"):
            base = callgrind_counts(driver, reader, document, 0)
            full = callgrind_counts(driver, reader, document, repetitions)
            ir, cond, indirect = ((f - b) / repetitions for f, b in zip(full, base))
            row[reader] = {"instructions": round(ir), "mispredicted_conditional": round(cond, 1),
                           "mispredicted_indirect": round(indirect, 1)}
        result[document] = row
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--driver", type=Path,
                        help="collectcall_profile_driver: also count instructions and "
                             "mispredicted branches under callgrind (needs valgrind)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="how long each benchmark runs under perf (default 3)")
    args = parser.parse_args()
    version = perf_works()
    if version is None:
        print("perf cannot sample here (not installed, or kernel.perf_event_paranoid forbids "
              "it): no profile", file=sys.stderr)
        return 1
    result = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "perf": version, "event": "cpu-clock", "benchmarks": {}}
    for benchmark in BENCHMARKS:
        print(f"profiling {benchmark}", file=sys.stderr)
        result["benchmarks"][benchmark] = profile(args.binary, benchmark, args.seconds)
    if args.driver:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed: no simulated counts", file=sys.stderr)
        else:
            print("counting instructions and mispredicted branches (callgrind)", file=sys.stderr)
            result["simulated"] = simulate(args.driver)
            result["valgrind"] = subprocess.run(["valgrind", "--version"], capture_output=True,
                                                text=True).stdout.strip()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
