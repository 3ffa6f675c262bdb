#!/usr/bin/python3
"""Turns the benchmark results into the table of median ratios against the targets,
docs/benchmarks.md and an SVG plot of the ratios.

    benchmarks/report.py --library results/library.json [--server results/server.json]
                         [--compile-time results/compile_time.json] [--profile results/profile.json]
                         [--markdown docs/benchmarks.md] [--plot docs/benchmarks-ratios.svg]
    benchmarks/report.py --compile-time-section results/compile_time.json
                         --markdown docs/benchmarks.md

library.json is Google Benchmark's --benchmark_out (JSON, with repetitions and aggregates);
server.json is what benchmarks/server/run.sh writes; compile_time.json is what
benchmarks/compile_time/run.py writes; profile.json is what benchmarks/profile.py writes. Ratios use the median CPU time of each
benchmark: on a shared machine it is less disturbed than wall time by other processes.
Nothing here is typed by hand: every figure in the Markdown comes from these files. The plot is
SVG written here, with the standard library only (matplotlib cannot be installed next to
libboost1.81-dev on Debian 12).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

PEERS = ("nlohmann", "boost_json", "rapidjson")


@dataclass
class Target:
    label: str
    numerator: str  # benchmark names; ratio = time(numerator) / time(denominator)
    denominator: str
    op: str  # ">=" (a speed-up to reach) or "<=" (an overhead not to exceed)
    target: float
    group: str


def targets() -> list[Target]:
    t: list[Target] = []
    cc = "read/customer/collectcall"
    for peer, x in (("nlohmann", 12), ("boost_json", 3), ("rapidjson", 2.5)):
        t.append(Target(f"read+validate customer: {peer} / collectcall", f"read/customer/{peer}", cc,
                        ">=", x, "read"))
    t.append(Target("read+validate bulk1000: rapidjson / collectcall", "read/bulk1000/rapidjson",
                    "read/bulk1000/collectcall", ">=", 2, "read"))
    # The reader against its floor, the DOM parse of the same bytes (which validates nothing).
    for doc, x in (("customer", 1.2), ("customer_full", 1.5), ("bulk1000", 1.5), ("mixed", 2.0)):
        t.append(Target(f"read+validate {doc}: collectcall / simdjson DOM parse",
                        f"read/{doc}/collectcall", f"parse_only/{doc}/simdjson_dom", "<=", x,
                        "overhead"))
    t.append(Target("reversed keys: collectcall reversed / in order",
                    "read/customer_reversed/collectcall", cc, "<=", 1.3, "overhead"))
    for doc in ("customer", "bulk_result1000"):
        for peer, x in (("nlohmann", 8), ("boost_json", 3)):
            t.append(Target(f"write {doc}: {peer} / collectcall", f"write/{doc}/{peer}",
                            f"write/{doc}/collectcall", ">=", x, "write"))
    for v in ("e164", "zip", "date", "email", "uuid"):
        t.append(Target(f"validate {v}: std::regex / collectcall", f"validate/{v}/std_regex",
                        f"validate/{v}/collectcall", ">=", 20, "validate"))
    return t


def informational() -> list[tuple[str, str, str]]:
    """Ratios without a target, shown for context."""
    rows = []
    for doc in ("customer_reversed", "customer_shuffled"):
        for peer in PEERS:
            rows.append((f"read {doc}: {peer} / collectcall", f"read/{doc}/{peer}",
                         f"read/{doc}/collectcall"))
    rows.append(("shuffled keys: collectcall shuffled / in order",
                 "read/customer_shuffled/collectcall", "read/customer/collectcall"))
    for peer in ("nlohmann", "boost_json"):
        rows.append((f"read bulk1000: {peer} / collectcall", f"read/bulk1000/{peer}",
                     "read/bulk1000/collectcall"))
    for doc in ("customer_full", "mixed"):
        for peer in PEERS:
            rows.append((f"read {doc}: {peer} / collectcall", f"read/{doc}/{peer}",
                         f"read/{doc}/collectcall"))
    for part, what in (("mixed_valid", "the valid 95%"), ("mixed_faulty", "the faulty 5%")):
        rows.append((f"read mixed, {what} only: collectcall / simdjson DOM parse",
                     f"read/{part}/collectcall", f"parse_only/{part}/simdjson_dom"))
    for doc in ("customer", "customer_full", "bulk1000", "mixed"):
        rows.append((f"read {doc}: collectcall / simdjson DOM parse on its AVX2 kernel (haswell)",
                     f"read/{doc}/collectcall", f"parse_only/{doc}/simdjson_dom_haswell"))
    rows.append(("read mixed: time of the faulty 5% / time of all 1000 documents",
                 "read/mixed_faulty/collectcall", "read/mixed/collectcall"))
    rows.append(("read mixed: the 1000 documents in one stream / the valid 95% and the faulty 5% "
                 "each read in a stream of their own", "read/mixed/collectcall",
                 "read/mixed_valid/collectcall + read/mixed_faulty/collectcall"))
    rows.append(("read customer from a std::string (a copy) / from padded input",
                 "read/customer/collectcall_copy", "read/customer/collectcall"))
    for doc in ("customer", "bulk_result1000"):
        rows.append((f"write {doc}: rapidjson / collectcall", f"write/{doc}/rapidjson",
                     f"write/{doc}/collectcall"))
    rows.append(("validate e164: libphonenumber / collectcall", "validate/e164/libphonenumber",
                 "validate/e164/collectcall"))
    for case in ("daily_limit", "days_away"):
        rows.append((f"compliance {case}: a refusal's next eligible time / one evaluation",
                     f"compliance/next_eligible/{case}", f"compliance/evaluate/{case}"))
    return rows


def load_library(path: Path) -> tuple[dict, dict[str, dict]]:
    data = json.loads(path.read_text())
    medians: dict[str, dict] = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median":
            medians[b["run_name"]] = b
    if not medians:  # a run without repetitions: take the single iteration rows
        for b in data["benchmarks"]:
            if b.get("run_type", "iteration") == "iteration":
                medians[b["name"]] = b
    return data["context"], medians


def ns(b: dict, key: str = "cpu_time") -> float:
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return float(b[key]) * scale


def ratio(medians: dict[str, dict], numerator: str, denominator: str) -> float | None:
    """numerator / denominator, medians; a denominator "a + b" is the sum of both."""
    names = denominator.split(" + ")
    if numerator not in medians or any(name not in medians for name in names):
        return None
    return ns(medians[numerator]) / sum(ns(medians[name]) for name in names)


def met(value: float, op: str, target: float) -> bool:
    return value >= target if op == ">=" else value <= target


def fmt_time(value_ns: float) -> str:
    if value_ns >= 1e6:
        return f"{value_ns / 1e6:.2f} ms"
    if value_ns >= 1e3:
        return f"{value_ns / 1e3:.2f} µs"
    return f"{value_ns:.1f} ns"


def cpu_model() -> tuple[str, int]:
    model, count = platform.processor() or "unknown", os.cpu_count() or 0
    try:
        text = Path("/proc/cpuinfo").read_text()
        names = re.findall(r"^model name\s*:\s*(.+)$", text, re.M)
        if names:
            model, count = names[0].strip(), len(names)
    except OSError:
        pass
    return model, count


def target_rows(medians):
    rows = []
    for t in targets():
        r = ratio(medians, t.numerator, t.denominator)
        rows.append((t, r))
    return rows


# Heap allocations per operation: (benchmark, op, limit).
ALLOCATION_TARGETS = [(f"validate/{v}/collectcall", "==", 0)
                      for v in ("e164", "zip", "date", "email", "uuid")]
ALLOCATION_TARGETS.append(("read/bulk1000/collectcall", "<", 1100))


def allocation_met(allocs: float, op: str, limit: float) -> bool:
    return allocs == limit if op == "==" else allocs < limit


def allocation_rows(medians):
    rows = []
    for name, op, limit in ALLOCATION_TARGETS:
        if name in medians:
            allocs = float(medians[name].get("allocs", float("nan")))
            rows.append((name, allocs, op, limit))
    return rows


def print_table(medians, server) -> None:
    print()
    print(f"{'ratio (median CPU time)':<62} {'measured':>9} {'target':>8}  result")
    print("-" * 92)
    for t, r in target_rows(medians):
        shown = "n/a" if r is None else f"{r:.2f}x"
        result = "not run" if r is None else ("met" if met(r, t.op, t.target) else "MISSED")
        print(f"{t.label:<62} {shown:>9} {t.op}{t.target:>6g}x  {result}")
    for name, allocs, op, limit in allocation_rows(medians):
        result = "met" if allocation_met(allocs, op, limit) else "MISSED"
        print(f"{name + ' allocations per call':<62} {allocs:>9.4g} {op + ' ' + str(limit):>8}  "
              f"{result}")
    print()
    for label, num, den in informational():
        r = ratio(medians, num, den)
        if r is not None:
            print(f"{label:<62} {r:>8.2f}x  (no target)")
    if server:
        print()
        for line in server_summary_lines(server):
            print(line)
    print()


def server_summary_lines(server: dict) -> list[str]:
    lines = []
    if server.get("status") != "measured":
        lines.append(f"server under load: {server.get('status', 'not measured')}: "
                     f"{server.get('reason', '')}")
        return lines
    for s in server.get("scenarios", []):
        lines.append(f"server {s['name']:<22} {s['requests_per_second']:>10.0f} req/s  "
                     f"p50 {s['latency_p50_ms']:.2f} ms  p99 {s['latency_p99_ms']:.2f} ms  "
                     f"non-2xx {s['non_2xx']}  errors {socket_errors_text(s)}")
    for c in server_checks(server):
        lines.append(f"server target: {c[0]:<54} {c[1]:>14} {c[2]:>12}  {c[3]}")
    return lines


def socket_errors_text(s: dict) -> str:
    """The scenario's socket errors, with their kinds: "0", or "16 (read 16)"."""
    kinds = s.get("socket_error_kinds", {})
    if not s["socket_errors"] or not kinds:
        return str(s["socket_errors"])
    return f"{s['socket_errors']} ({', '.join(f'{k} {n}' for k, n in kinds.items())})"


def server_checks(server: dict) -> list[tuple[str, str, str, str]]:
    by_name = {s["name"]: s for s in server.get("scenarios", [])}
    checks = []
    ceiling = by_name.get("ceiling")
    post = by_name.get("post_customers")
    if ceiling and post:
        share = post["requests_per_second"] / ceiling["requests_per_second"]
        checks.append(("POST /customers req/s vs minimal server", f"{share:.0%}", ">= 50%",
                       "met" if share >= 0.5 else "MISSED"))
    read = by_name.get("get")
    if ceiling and read:
        # No target: the read path's distance to the ceiling, beside the write path's.
        share = read["requests_per_second"] / ceiling["requests_per_second"]
        checks.append(("GET /customers/{id} req/s vs minimal server", f"{share:.0%}", "-",
                       "reported"))
    calls = by_name.get("post_calls")
    if ceiling and calls:
        # The share POST calls had before every compliance evaluation was recorded (11,258 req/s
        # against the minimal server's 39,091 in the same run): recording them must not cost it.
        share = calls["requests_per_second"] / ceiling["requests_per_second"]
        checks.append(("POST /customers/{id}/calls req/s vs minimal server (29% before the "
                       "record of decisions)", f"{share:.0%}", ">= 29%",
                       "met" if share >= 0.29 else "MISSED"))
    pg = by_name.get("post_customers_pg")
    if post and pg:
        share = pg["requests_per_second"] / post["requests_per_second"]
        checks.append(("POST /customers req/s: PostgreSQL (one process) vs SQLite", f"{share:.0%}",
                       ">= 50%", "met" if share >= 0.5 else "MISSED"))
    for s in server.get("scenarios", []):
        if s["name"] == "ceiling":
            continue
        # A refused or dropped connection is a failure as much as an unexpected status; the two
        # are reported apart so that a miss says which it was.
        checks.append((f"{s['name']}: unexpected non-2xx responses / socket errors",
                       f"{s['non_2xx']} / {socket_errors_text(s)}", "0 / 0",
                       "met" if s["non_2xx"] == 0 and s["socket_errors"] == 0 else "MISSED"))
    if post:
        p99 = post["latency_p99_ms"]
        checks.append((f"POST /customers p99 at {post['connections']} connections",
                       f"{p99:.2f} ms", "< 20 ms", "met" if p99 < 20 else "MISSED"))
    bulk = by_name.get("post_bulk")
    if bulk:
        per_s = bulk["requests_per_second"] * bulk.get("items_per_request", 100)
        checks.append((f"bulk ({bulk.get('items_per_request', 100)} per request): customers "
                       "stored per second", f"{per_s:,.0f}", ">= 100,000",
                       "met" if per_s >= 100000 else "MISSED"))
    return checks


def markdown(context, medians, server, compile_time, profile, plot_name: str | None,
             run_note: str) -> str:
    model, cores = cpu_model()
    compiler = context.get("compiler", "unknown")
    out: list[str] = []
    w = out.append
    w("# Benchmarks")
    w("")
    w("<!-- Generated by benchmarks/report.py from the results of benchmarks/run.sh: "
      "do not edit by hand. -->")
    w("")
    w("collectcall against the usual C++ ways of reading, validating and writing the same "
      "documents: nlohmann::json, Boost.JSON and RapidJSON, each written with its own API and "
      "applying the same rules (see *What each peer checks*), with simdjson's DOM parser as the "
      "floor, and collectcall's validators against `std::regex`. A fairness test "
      "(`tests/bench_fairness`, run by ctest and by `benchmarks/run.sh` before measuring) checks "
      "that every peer accepts and rejects exactly the documents collectcall does. collectcall "
      "and the DOM floor read the same `simdjson::padded_string` where it lies; the peers, which "
      "need no padding, read a `std::string`; `read/customer*/collectcall_copy` reads the "
      "`std::string` too (a copy into a padded buffer first).")
    w("")
    w("Reproduce with one command (about 13 minutes on two cores, build included):")
    w("")
    w("```sh")
    w("COLLECTCALL_BENCH_DEPS=1 tools/install-deps.sh   # Google Benchmark, perf, valgrind")
    w("benchmarks/run.sh")
    w("```")
    w("")
    w("## Machine and run")
    w("")
    w(f"- Date: {context.get('date', 'unknown')}")
    w(f"- CPU: {model}, {cores} logical cores "
      f"({context.get('mhz_per_cpu', '?')} MHz as reported by Google Benchmark)")
    w(f"- Load average when the benchmarks started (it includes the build just before): "
      f"{', '.join(f'{x:.2f}' for x in context.get('load_avg', [])) or 'unknown'}")
    w(f"- Compiler: {compiler}, flags `{context.get('cxx_flags', '?')}`, Release build")
    w(f"- simdjson {context.get('simdjson_version', '?')}: On-Demand kernel compiled into "
      f"collectcall `{context.get('simdjson_ondemand_kernel', '?')}`, DOM kernel of libsimdjson "
      f"`{context.get('simdjson_dom_kernel', '?')}`")
    w(f"- Corpus: generated from a fixed seed; customer {context.get('corpus_customer_bytes', '?')} "
      f"bytes, bulk body {context.get('corpus_bulk1000_bytes', '?')} bytes (1000 customers)")
    w(f"- libphonenumber: {context.get('libphonenumber', 'not found')}")
    w(f"- {run_note}")
    w("")
    load = context.get("load_avg", [])
    # The one-minute load average still counts the build that benchmarks/run.sh does just
    # before: only a load above the number of cores says that something else was running.
    busy = bool(load) and load[0] > max(cores, 1)
    w(("**The machine was busy when the run started** (load average above its number of cores): "
       "e" if busy else "E") +
      "ach benchmark is repeated and the median is used, and ratios are between benchmarks of "
      "the same run, which keeps them comparable; absolute times depend on the machine, and on "
      "a virtual machine shared with other work the ratios carry noise of roughly ±10%.")
    w("")
    w("## Targets")
    w("")
    w("Ratios of median CPU times. A speed-up target (>=) is peer time / collectcall time; an "
      "overhead target (<=) is collectcall time / reference time.")
    w("")
    w("| ratio | measured | target | result |")
    w("|---|---:|---:|---|")
    for t, r in target_rows(medians):
        shown = "n/a" if r is None else f"{r:.2f}x"
        result = "not run" if r is None else ("met" if met(r, t.op, t.target) else "**missed**")
        w(f"| {t.label} | {shown} | {t.op} {t.target:g}x | {result} |")
    for name, allocs, op, limit in allocation_rows(medians):
        result = "met" if allocation_met(allocs, op, limit) else "**missed**"
        w(f"| `{name}` allocations per call | {allocs:.4g} | {op} {limit} | {result} |")
    w("")
    if plot_name:
        w(f"![ratios against targets]({plot_name})")
        w("")
    w("Other ratios of the same run (no target):")
    w("")
    w("| ratio | measured |")
    w("|---|---:|")
    for label, num, den in informational():
        r = ratio(medians, num, den)
        if r is not None:
            w(f"| {label} | {r:.2f}x |")
    w("")
    w(PROFILE_HEADING)
    w("")
    w(profile_markdown(profile, medians))
    w("")
    w("## All results")
    w("")
    w("Median of the repetitions. `allocs` is heap allocations per operation, counted by a "
      "replaced global `operator new` and `malloc` wrappers in the benchmark binary.")
    w("")
    w("| benchmark | CPU time | wall time | allocs | throughput |")
    w("|---|---:|---:|---:|---:|")
    for name, b in medians.items():
        allocs = b.get("allocs")
        allocs_text = "" if allocs is None else f"{float(allocs):.4g}"
        if "bytes_per_second" in b:
            throughput = f"{float(b['bytes_per_second']) / 1e6:.0f} MB/s"
        elif "items_per_second" in b:
            throughput = f"{float(b['items_per_second']) / 1e6:.1f} M/s"
        else:
            throughput = ""
        w(f"| `{name}` | {fmt_time(ns(b))} | {fmt_time(ns(b, 'real_time'))} | {allocs_text} | "
          f"{throughput} |")
    w("")
    w(COMPILE_TIME_HEADING)
    w("")
    w(compile_time_markdown(compile_time))
    w("")
    w("## The server under load")
    w("")
    w(server_markdown(server))
    w("")
    w(PEER_NOTES)
    return "\n".join(out) + "\n"


def server_markdown(server: dict | None) -> str:
    if not server:
        return ("Not measured in this run (`benchmarks/run.sh --no-server`, or the example "
                "server was not built).")
    if server.get("status") != "measured":
        return f"Not measured: {server.get('reason', 'unknown reason')}."
    lines = [
        f"`benchmarks/server/run.sh`: wrk {server.get('wrk_version', '')} on loopback, "
        f"{server.get('duration_s', '?')} s per scenario, {server.get('threads', '?')} wrk threads, "
        f"a fresh database per run; the server and wrk share the machine's two cores. "
        f"The ceiling is a minimal cpp-httplib server answering a fixed JSON body "
        f"(`benchmarks/server/ceiling.cpp`).",
        "",
        "| scenario | connections | req/s | p50 | p99 | non-2xx | socket errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in server["scenarios"]:
        lines.append(f"| {s['description']} | {s['connections']} | {s['requests_per_second']:,.0f} | "
                     f"{s['latency_p50_ms']:.2f} ms | {s['latency_p99_ms']:.2f} ms | {s['non_2xx']} | "
                     f"{socket_errors_text(s)} |")
    lines += ["", "| target | measured | required | result |", "|---|---:|---:|---|"]
    for label, measured, required, result in server_checks(server):
        shown = "**missed**" if result == "MISSED" else result
        lines.append(f"| {label} | {measured} | {required} | {shown} |")
    for note in server.get("notes", []):
        lines += ["", note]
    lines += ["", DURABILITY_NOTE]
    return "\n".join(lines)


DURABILITY_NOTE = """What the example server does that the ceiling does not: every request is authenticated
(SHA-256 of the key), read and validated, and every write is durable before it is answered
(SQLite in WAL mode with `synchronous = FULL`: each commit waits for `fdatasync` of the WAL;
PostgreSQL with `synchronous_commit = on`). On SQLite the writes of concurrent requests share
one transaction and one commit (group commit, `examples/server/sqlite/sqlite_writer.hpp`), each in a
savepoint of its own; on PostgreSQL the creates of concurrent requests do too, their statements
sent in one pipeline (`examples/server/postgres/postgres_writer.hpp`). The PostgreSQL rows run a local PostgreSQL 15 cluster with its default
settings on the same two cores as the server processes and wrk; with two server processes,
wrk's connections are split between them and the figures add up their requests."""

SERVER_HEADING = "## The server under load"
PROFILE_HEADING = "## What limits the reader"
PROFILE_SHOWN = 8  # files and lines shown per benchmark


def profile_markdown(profile: dict | None, medians) -> str:
    """Where each read benchmark with a target against the DOM parse spends its time."""
    if not profile:
        return ("Not profiled in this run: `benchmarks/profile.py` needs `perf` (Debian's "
                "linux-perf, which `COLLECTCALL_BENCH_DEPS=1 tools/install-deps.sh` installs with "
                "valgrind) and "
                "a kernel that lets a user sample a process (`kernel.perf_event_paranoid` at most "
                "2).")
    out: list[str] = []
    w = out.append
    w(f"`benchmarks/profile.py` ({profile.get('date', '?')}, {profile.get('perf', 'perf')}, "
      f"event `{profile.get('event', '?')}`) runs each read benchmark that has a target against "
      "the DOM parse under `perf record` and attributes the samples to the source line each "
      "instruction came from (the benchmark binary has debug information; the code is the same "
      "without it). A line's share is the time spent at that instruction or the one after it. "
      "Headers such as `emmintrin.h` are the SIMD intrinsics inlined into the line that calls "
      "them (the scan of a string, the comparison of a key).")
    w("")
    overhead = {t.numerator: t for t in targets() if t.group == "overhead"
                and t.denominator.startswith("parse_only/")}
    for name, data in profile.get("benchmarks", {}).items():
        t = overhead.get(name)
        r = ratio(medians, t.numerator, t.denominator) if t else None
        verdict = ""
        if t and r is not None:
            verdict = (f": {r:.2f}x the DOM parse, target {t.op} {t.target:g}x, "
                       + ("met" if met(r, t.op, t.target) else "**missed**"))
        w(f"**`{name}`**{verdict}")
        w("")
        w("| source file | share of samples |")
        w("|---|---:|")
        for f in data.get("files", [])[:PROFILE_SHOWN]:
            w(f"| `{f['file']}` | {f['share']:.1f}% |")
        w("")
        w("| line | share | source |")
        w("|---|---:|---|")
        for line in data.get("lines", [])[:PROFILE_SHOWN]:
            source = line.get("source", "").replace("|", "\\|")
            w(f"| `{line['where']}` | {line['share']:.1f}% | "
              + (f"`{source}`" if source else "") + " |")
        w("")
    simulated = profile.get("simulated")
    if simulated:
        w(f"Counted under callgrind ({profile.get('valgrind', 'valgrind')}, "
          "`collectcall_profile_driver`, both readers built for AVX2 as valgrind runs no "
          "AVX-512): what one read of each document executes, and how many of its branches "
          "the branch predictor that callgrind simulates misses. The model is simple (it "
          "learns no patterns across branches, so a processor misses fewer), but it is the "
          "same for both readers.")
        w("")
        w("| document | instructions: collectcall / DOM | mispredicted conditional branches: "
          "collectcall / DOM | mispredicted indirect branches: collectcall / DOM |")
        w("|---|---:|---:|---:|")
        for document, row in simulated.items():
            cc, dom = row["collectcall"], row["dom"]
            ratio_text = (f"{cc['instructions'] / dom['instructions']:.2f}x"
                          if dom["instructions"] else "n/a")
            w(f"| {document} | {cc['instructions']:,} / {dom['instructions']:,} "
              f"({ratio_text}) | {cc['mispredicted_conditional']:,.0f} / "
              f"{dom['mispredicted_conditional']:,.0f} | {cc['mispredicted_indirect']:,.0f} / "
              f"{dom['mispredicted_indirect']:,.0f} |")
        w("")
    w(PROFILE_READING)
    return "\n".join(out)


# What the profile above says about the design (the tables are measured; this is their reading,
# and names the lines it rests on by their source text, not by number).
PROFILE_READING = """How to read the tables. No single rule dominates: the conversions and checks of the values
(`text.hpp`, `money.hpp`, `date.hpp`, `email.hpp`, `e164.hpp`, ...) are a few percent each. Most
of the samples are in the walk through the document itself: `fast_pass.hpp`, `scan.hpp`,
`members.hpp` and the SIMD compares they inline, at the lines that find where a string ends
(`scan.hpp`), look at the byte after it (`if (*stop != '"')`, `skip_space`) and match the next
key with the member expected there (`is_key_with_colon`). The counts say why the walk costs more
than the DOM parse although it executes about as many instructions: its branches depend on the
document (which members an object has, how long each value is), and on the documents that vary
(`bulk1000`, `mixed`) it misses about twice as many of them. The DOM parse finds every quote and structural character 64 bytes at a time, with
branches that do not depend on what the values say, and then follows that index. This is also
why the reader is closest to the floor on `customer`, one document read again and again, whose
branches the processor learns, and furthest on `mixed`, a thousand different documents, of which
the faulty 5% also take the full pass (the `mixed_valid` and `mixed_faulty` ratios above).
On `mixed`, the documents also cost more in one stream than its two parts cost each in a stream
of its own (the ratio "in one stream / each read in a stream of their own" above): each faulty
document runs the fast pass up to its fault and then the full pass, code that the valid
documents around it do not run, and the valid documents after it find the fast pass's code and
branch history partly displaced. A smaller full pass would displace less.
Closing the distance takes a walk whose steps depend less on the document: token positions read
from an index built ahead (as simdjson's first stage builds it), a different design of the fast
pass rather than a faster rule.
The floor itself is faster on some machines than on others. simdjson picks its kernel when the
program starts: where the processor has AVX-512 it takes `icelake`, whose first stage classifies 64
bytes per instruction, and the DOM parse then takes less time than on the AVX2 kernel (`haswell`) of
the same machine (16-33% less on the Xeon this was written on). The ratios "on its AVX2 kernel"
under *Other ratios* (measured only where simdjson picked a wider kernel) say how much of the
reader's distance is that. The reader's own scans gain little from the wider vectors: a scan of a
string 32 bytes at a time with AVX-512 masks, in place of 16 with SSE2, measured no faster on
`customer`, `customer_full`, `bulk1000` or `mixed` on that Xeon (most of their strings end within
their first 16 bytes, where either scan takes one step; the time is in what the walk does after it)."""
COMPILE_TIME_HEADING = "## Compile time"

# (label, numerator, denominator, target): a compile-time ratio must be at most its target.
COMPILE_TIME_TARGETS = [
    ("read+write a CustomerCreate, header-only, including what it uses (the model's header and "
     "the writer): collectcall / nlohmann", "read_write/collectcall", "read_write/nlohmann", 1.0),
    ("read+write a CustomerCreate, umbrella header and the separately compiled models: "
     "collectcall / nlohmann", "read_write/collectcall_separate", "read_write/nlohmann", 0.5),
]
# (label, program, target in seconds): a program's CPU time must be at most its target.
COMPILE_TIME_SECONDS_TARGETS = [
    ("read, write and derive the JSON Schema of every body and answer model of the API, "
     "header-only", "every_model/collectcall", 25.0),
    ("build the OpenAPI document", "openapi/collectcall", 15.0),
]
COMPILE_TIME_OTHER = [
    ("read+write a CustomerCreate, header-only, including the umbrella header: "
     "collectcall / nlohmann", "read_write/collectcall_umbrella", "read_write/nlohmann"),
    ("a file that only includes the umbrella header / the nlohmann read+write program",
     "include/collectcall", "read_write/nlohmann"),
    ("a file that only includes the umbrella header / one that only includes nlohmann/json.hpp",
     "include/collectcall", "include/nlohmann"),
    ("read+write a CustomerCreate: header-only (what it uses) / separately compiled",
     "read_write/collectcall", "read_write/collectcall_separate"),
]
COMPILE_TIME_PROGRAMS = [
    ("read_write/collectcall", "read and write a CustomerCreate, header-only, including "
     "`collectcall/model/customer.hpp` and `collectcall/core/write.hpp` "
     "(`benchmarks/compile_time/read_write_collectcall.cpp`)"),
    ("read_write/collectcall_umbrella", "the same file including the umbrella header "
     "`collectcall/collectcall.hpp` instead (`COMPILE_TIME_UMBRELLA`), header-only"),
    ("read_write/collectcall_separate", "the same file with `COLLECTCALL_SEPARATE_COMPILATION` "
     "(and the umbrella header)"),
    ("read_write/nlohmann", "the same program with nlohmann/json 3.11 "
     "(`read_write_nlohmann.cpp`)"),
    ("include/collectcall", "only `#include \"collectcall/collectcall.hpp\"`"),
    ("include/nlohmann", "only `#include <nlohmann/json.hpp>`"),
    ("src/collectcall", "`collectcall/src.hpp`, the separately compiled models (once per "
     "project; once per run)"),
    ("every_model/collectcall", "read, write and derive the JSON Schema of every body and answer "
     "model of `api/endpoints.hpp`, header-only (`every_model_collectcall.cpp`)"),
    ("openapi/collectcall", "build the OpenAPI document (`openapi_collectcall.cpp`)"),
    ("read_write/collectcall+1", "read_write_collectcall.cpp with one more model "
     "(`COMPILE_TIME_ONE_MORE`, `one_more_model.hpp`)"),
    ("read_write/nlohmann+1", "read_write_nlohmann.cpp with the same model"),
    ("every_model/collectcall+1", "every_model_collectcall.cpp with the same model"),
]
# (label, program): what one more model costs, the program with it (NAME+1) minus without.
COMPILE_TIME_ONE_MORE = [
    ("collectcall, read and write, beside one model (`read_write_collectcall.cpp`)",
     "read_write/collectcall"),
    ("nlohmann/json, read and write, beside one model (`read_write_nlohmann.cpp`)",
     "read_write/nlohmann"),
    ("collectcall, read, write and JSON Schema, beside every model of the API "
     "(`every_model_collectcall.cpp`)", "every_model/collectcall"),
]


# (part, what it is): the parts of the every-model program (COMPILE_TIME_PART).
EVERY_MODEL_PARTS = [
    ("schema", "deriving the JSON Schemas"),
    ("write", "writing"),
    ("read", "reading (`read<T>`: both passes and what joins them)"),
    ("fast_pass", "of which the fast pass alone (`FastReader::document<T>`)"),
    ("full_pass", "of which the full pass alone (`read_root<T>`)"),
]


def every_model_parts_markdown(ct: dict) -> list[str]:
    """What limits the every-model program: the CPU time of each part of it."""
    medians = ct["medians_s"]
    if "every_model/headers" not in medians or "every_model/collectcall" not in medians:
        return []
    rounds = len(ct.get("samples_s", {}).get("every_model/headers", []))
    headers = medians["every_model/headers"]
    whole = medians["every_model/collectcall"]
    lines = ["", "What the every-model program's time goes to: the same file compiled with only "
             "one part of it (`COMPILE_TIME_PART`), each minus the file with none (the headers, "
             f"the list of models and the dispatch: {headers:.2f} s); medians of {rounds} "
             f"round{'s' if rounds != 1 else ''}. Parts share some instantiations, so they add up to a little more than the "
             f"whole ({whole:.2f} s).", "",
             "| part | CPU time beyond the headers | share of the whole beyond the headers |",
             "|---|---:|---:|"]
    beyond = whole - headers
    for part, label in EVERY_MODEL_PARTS:
        name = f"every_model/{part}"
        if name in medians:
            cost = medians[name] - headers
            lines.append(f"| {label} | {cost:.2f} s | {100 * cost / beyond:.0f}% |")
    return lines


def compile_time_markdown(ct: dict | None) -> str:
    if not ct:
        return ("Not measured in this run: `benchmarks/compile_time/run.py --out FILE`, then "
                "`benchmarks/report.py --compile-time-section FILE --markdown docs/benchmarks.md`.")
    medians = ct["medians_s"]
    load_before = ", ".join(f"{x:.2f}" for x in ct.get("load_avg_before", []))
    load_after = ", ".join(f"{x:.2f}" for x in ct.get("load_avg_after", []))
    lines = [
        f"`benchmarks/compile_time/run.py` ({ct.get('date', '?')}): each program is one "
        f"translation unit compiled to an object file by {ct.get('compiler', '?')} with "
        f"`{ct.get('flags', '?')}`; the figure is the compiler's CPU time (user + system), the "
        f"median of {ct.get('runs', '?')} rounds in which the programs take turns. Load average "
        f"{load_before} when the run started and {load_after} when it ended, on "
        f"{ct.get('cores', '?')} cores: a load above the number of cores means other work shared "
        "the machine, which stretches every figure alike and the ratios less.",
        "",
        "| ratio | measured | target | result |",
        "|---|---:|---:|---|",
    ]
    for label, num, den, target in COMPILE_TIME_TARGETS:
        if num in medians and den in medians:
            r = medians[num] / medians[den]
            result = "met" if r <= target else "**missed**"
            lines.append(f"| {label} | {r:.2f}x | <= {target:g}x | {result} |")
    for label, name, target in COMPILE_TIME_SECONDS_TARGETS:
        if name in medians:
            result = "met" if medians[name] <= target else "**missed**"
            lines.append(f"| {label} | {medians[name]:.2f} s | <= {target:g} s | {result} |")
    lines += ["", "| other ratio | measured |", "|---|---:|"]
    for label, num, den in COMPILE_TIME_OTHER:
        if num in medians and den in medians:
            lines.append(f"| {label} | {medians[num] / medians[den]:.2f}x |")
    one_more = [(label, name) for label, name in COMPILE_TIME_ONE_MORE
                if name in medians and f"{name}+1" in medians]
    if one_more:
        lines += ["", "The cost of one more model (`benchmarks/compile_time/one_more_model.hpp`: ten "
                  "members, among them two nested models; nlohmann/json's program declares the "
                  "same struct): the difference of the medians of the same program with and "
                  "without it.", "", "| one more model | CPU time added |", "|---|---:|"]
        for label, name in one_more:
            lines.append(f"| {label} | {medians[f'{name}+1'] - medians[name]:+.2f} s |")
    lines += every_model_parts_markdown(ct)
    lines += ["", "| program | CPU time (median) | fastest | slowest |", "|---|---:|---:|---:|"]
    samples = ct.get("samples_s", {})
    for name, description in COMPILE_TIME_PROGRAMS:
        if name in medians:
            values = samples.get(name, [medians[name]])
            lines.append(f"| {description} | {medians[name]:.2f} s | {min(values):.2f} s | "
                         f"{max(values):.2f} s |")
    baseline = [(name, description) for name, description in COMPILE_TIME_PROGRAMS
                if f"{name}@baseline" in medians]
    if baseline:
        lines += ["", "The same programs against the headers of the previous version "
                  "(`run.py --baseline`), in the same rounds:", "",
                  "| program | previous version | this version |", "|---|---:|---:|"]
        for name, description in baseline:
            now = f"{medians[name]:.2f} s" if name in medians else "-"
            lines.append(f"| {description} | {medians[f'{name}@baseline']:.2f} s | {now} |")
    return "\n".join(lines)


def replace_section(text: str, heading: str, section: str, before: str | None = None) -> str:
    """`text` with the body of its `heading` section replaced by `section`; a section that is
    not there yet goes before the `before` heading, or at the end."""
    start = text.find(heading)
    if start < 0:
        new = heading + "\n\n" + section + "\n"
        at = text.find(before) if before else -1
        if at < 0:
            return text.rstrip("\n") + "\n\n" + new
        return text[:at] + new + "\n" + text[at:]
    body = start + len(heading)
    end = text.find("\n## ", body)
    rest = text[end:] if end >= 0 else "\n"
    return text[:body] + "\n\n" + section + "\n" + rest


def section_of(text: str, heading: str) -> str | None:
    start = text.find(heading)
    if start < 0:
        return None
    body = start + len(heading)
    end = text.find("\n## ", body)
    return text[body:end if end >= 0 else len(text)].strip("\n")


def replace_server_section(text: str, section: str) -> str:
    """`text` with the body of its server section replaced by `section` (appended if absent)."""
    return replace_section(text, SERVER_HEADING, section)


def server_section_of(text: str) -> str | None:
    return section_of(text, SERVER_HEADING)


PEER_NOTES = """## What each peer checks

Every reader binds into the same structs (`benchmarks/peers/model.hpp`: `std::string` for
strings, `double` for amounts, `std::optional` for optional members) and then applies the same
field rules (`benchmarks/peers/rules.hpp`, hand-written scanners, independent of collectcall's
code): E.164, ZIP, dates (real calendar day, 1900-2100, not after the corpus's fixed "today"),
ssnLastFour, WHATWG e-mail, text 1..200 code points after trimming Unicode white space with no
control characters, USPS state codes, amounts >= 0 and <= 2^53, and the collections rule.
Required members, JSON types, null for optional members and unknown members are checked while
binding, each with the library's own API.

| | collectcall | nlohmann::json 3.11 | Boost.JSON 1.81 | RapidJSON 1.1 |
|---|---|---|---|---|
| parsing | a valid document straight from its bytes (the fast pass); any other, simdjson On-Demand | `json::parse` into a DOM of `std::map`s | reused `boost::json::parser` over a `monotonic_resource` | `Document::Parse` with UTF-8 validation, pool allocators on reused buffers |
| binding | `read<T>`, one loop per object | `find()` per member + size check | `value_to<T>` with a `tag_invoke` for described structs | one loop over each object's members |
| unknown members | yes | yes (size check) | yes (size check) | yes |
| duplicate members | yes | **no**: the DOM keeps one | **no**: the DOM keeps one | yes |
| exact money | yes (decimal, never a double) | no: double ("exact enough") | no: double | no: double |
| error report | every error with its JSON Pointer | valid / invalid only | first binding error | valid / invalid only |

The fairness test leaves the duplicate-member documents out for nlohmann and Boost.JSON (and
checks that they do accept them, so the table stays true); on every other document of the
corpus each peer must agree with collectcall, and must bind the same values. The peers report
only "valid or not", which flatters them on invalid documents; the benchmarks read valid ones.
Boost.JSON 1.81's built-in conversion of described structs cannot be used as it is: it requires
every member, optional ones included, and exactly as many members as the struct has.

`validate/*/std_regex` compiles each pattern once (`std::regex::optimize`); the date also needs
`std::chrono::year_month_day::ok()` and the year range, which a regex cannot say.
`validate/e164/libphonenumber` (parse + `isValidNumber`) answers a different and stricter
question (is this number in service in its country's plan) and is shown for context only; it
runs only when `benchmarks/fetch-libphonenumber.sh` has unpacked libphonenumber into the build
tree, since Debian's libphonenumber-dev cannot be installed next to libboost1.81-dev.
"""


def svg_panel(data, title: str, log: bool, top: float, y0: float) -> tuple[list[str], float]:
    """One panel of horizontal bars (green: met, red: missed) with the targets as black ticks;
    the SVG elements and the height used."""
    label_w, bar_w, row_h = 380, 440, 22
    out = [f'<text x="10" y="{y0 + 16:.0f}" font-size="13" font-weight="bold">{escape(title)}</text>']
    lo = 0.8 if log else 0.0

    def x_of(v: float) -> float:
        v = max(v, lo)
        if log:
            return label_w + bar_w * (math.log(v) - math.log(lo)) / (math.log(top) - math.log(lo))
        return label_w + bar_w * v / top

    y = y0 + 28
    ticks = [1, 2, 3, 5, 10, 20, 50, 100] if log else [x / 2 for x in range(0, int(top * 2) + 1)]
    axis_bottom = y + row_h * len(data)
    for tick in ticks:
        if tick > top or tick < lo:
            continue
        x = x_of(tick)
        out.append(f'<line x1="{x:.1f}" y1="{y - 4:.0f}" x2="{x:.1f}" y2="{axis_bottom:.0f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{axis_bottom + 14:.0f}" font-size="10" '
                   f'text-anchor="middle">{tick:g}x</text>')
    for t, r in data:
        colour = "#2e7d32" if met(r, t.op, t.target) else "#c62828"
        out.append(f'<text x="{label_w - 8}" y="{y + 14:.0f}" font-size="11" '
                   f'text-anchor="end">{escape(t.label)}</text>')
        x0 = x_of(lo)
        out.append(f'<rect x="{x0:.1f}" y="{y + 4:.0f}" width="{max(x_of(r) - x0, 1):.1f}" '
                   f'height="{row_h - 8}" fill="{colour}"/>')
        out.append(f'<text x="{x_of(r) + 4:.1f}" y="{y + 15:.0f}" font-size="10">{r:.2f}x</text>')
        tx = x_of(t.target)
        out.append(f'<line x1="{tx:.1f}" y1="{y + 1:.0f}" x2="{tx:.1f}" y2="{y + row_h - 1:.0f}" '
                   'stroke="black" stroke-width="3"/>')
        y += row_h
    return out, axis_bottom + 24 - y0


def plot(medians, path: Path) -> bool:
    """docs/benchmarks-ratios.svg: the target ratios, speed-ups (log scale) and overheads."""
    rows = [(t, r) for t, r in target_rows(medians) if r is not None]
    if not rows:
        return False
    speed = [(t, r) for t, r in rows if t.op == ">="]
    overhead = [(t, r) for t, r in rows if t.op == "<="]
    width = 900
    body = [f'<text x="10" y="22" font-size="15">collectcall, median ratios against the targets '
            '(green: met, red: missed; black tick: target)</text>']
    y = 36.0
    panels = ((speed, "speed-up: peer time / collectcall time (higher is better, log scale)",
               True, 1.5),
              (overhead, "overhead: collectcall time / reference time (lower is better)", False,
               1.2))
    for data, title, log, headroom in panels:
        if not data:
            continue
        top = max([r for _, r in data] + [t.target for t, _ in data] + [1]) * headroom
        elements, height = svg_panel(data, title, log, top, y)
        body += elements
        y += height
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y:.0f}" '
           f'viewBox="0 0 {width} {y:.0f}" font-family="sans-serif">',
           f'<rect width="{width}" height="{y:.0f}" fill="white"/>', *body, "</svg>"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(svg) + "\n")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path)
    parser.add_argument("--server", type=Path)
    parser.add_argument("--server-section", type=Path,
                        help="server.json: rewrite only the server section of --markdown")
    parser.add_argument("--compile-time", type=Path,
                        help="compile_time.json of benchmarks/compile_time/run.py")
    parser.add_argument("--compile-time-section", type=Path,
                        help="compile_time.json: rewrite only the compile-time section of "
                             "--markdown")
    parser.add_argument("--profile", type=Path,
                        help="profile.json of benchmarks/profile.py")
    parser.add_argument("--markdown", type=Path)
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--note", default="Repetitions as recorded in the JSON output.")
    args = parser.parse_args()

    if args.server_section:
        # The server's figures alone (benchmarks/server/run.sh --write-docs): the library's
        # sections stay as they are.
        if not args.markdown:
            parser.error("--server-section needs --markdown")
        server = json.loads(args.server_section.read_text())
        text = args.markdown.read_text() if args.markdown.exists() else "# Benchmarks\n"
        args.markdown.write_text(replace_server_section(text, server_markdown(server)))
        print(f"wrote the server section of {args.markdown}")
        return 0
    if args.compile_time_section:
        if not args.markdown:
            parser.error("--compile-time-section needs --markdown")
        ct = json.loads(args.compile_time_section.read_text())
        text = args.markdown.read_text() if args.markdown.exists() else "# Benchmarks\n"
        args.markdown.write_text(replace_section(text, COMPILE_TIME_HEADING,
                                                 compile_time_markdown(ct), SERVER_HEADING))
        print(f"wrote the compile-time section of {args.markdown}")
        return 0
    if not args.library:
        parser.error("--library is required")
    context, medians = load_library(args.library)
    server = None
    if args.server and args.server.exists():
        server = json.loads(args.server.read_text())
    compile_time = None
    if args.compile_time and args.compile_time.exists():
        compile_time = json.loads(args.compile_time.read_text())
    profile = None
    if args.profile and args.profile.exists():
        profile = json.loads(args.profile.read_text())
    print_table(medians, server)
    plot_name = None
    if args.plot and plot(medians, args.plot):
        plot_name = os.path.relpath(args.plot, args.markdown.parent) if args.markdown else str(args.plot)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        text = markdown(context, medians, server, compile_time, profile, plot_name, args.note)
        # Without new server figures, the server section written earlier (by a full run or by
        # benchmarks/server/run.sh --write-docs) is kept rather than replaced by "not measured".
        if server is None and args.markdown.exists():
            previous = server_section_of(args.markdown.read_text())
            if previous:
                text = replace_server_section(text, previous)
        # Likewise the compile-time section. A profile is of this run's binary: without one, the
        # section says so rather than keeping an older run's.
        if compile_time is None and args.markdown.exists():
            previous = section_of(args.markdown.read_text(), COMPILE_TIME_HEADING)
            if previous:
                text = replace_section(text, COMPILE_TIME_HEADING, previous)
        args.markdown.write_text(text)
        print(f"wrote {args.markdown}" + (f" and {args.plot}" if plot_name else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
