#!/usr/bin/env bash
# The benchmark suite in one command: builds Release with -O3 -march=native, checks that the peers
# are fair (the fairness test), runs every library benchmark with repetitions into JSON, drives
# the example server with wrk, profiles the reader (benchmarks/profile.py, when perf can sample), times the compilation of one program written with collectcall and
# with nlohmann/json (benchmarks/compile_time/run.py), prints the table of median ratios against
# the targets and regenerates docs/benchmarks.md and docs/benchmarks-ratios.svg.
#
#   benchmarks/run.sh                 everything (about 13 minutes on two cores, build included)
#   benchmarks/run.sh --quick         fewer repetitions and shorter runs, for a first look
#   benchmarks/run.sh --no-server     no server under load
#   benchmarks/run.sh --no-compile-time   no compile-time benchmark (benchmarks/compile_time)
#   benchmarks/run.sh --no-profile    no profile of the reader (benchmarks/profile.py)
#   benchmarks/run.sh --report-only   redo the table, docs and plot from the last results
#
# Environment: COLLECTCALL_BENCH_BUILD (build directory, default build-bench), JOBS (parallel
# compile jobs, default 2), CXX (default g++-12).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${COLLECTCALL_BENCH_BUILD:-build-bench}
jobs=${JOBS:-2}
repetitions=10
min_time=0.5
server=1
compile_time=1
profile=1
compile_runs=9
report_only=0
quick=""
for arg in "$@"; do
  case "$arg" in
    --quick) repetitions=3; min_time=0.1; compile_runs=3; quick=1 ;;
    --no-server) server=0 ;;
    --no-compile-time) compile_time=0 ;;
    --no-profile) profile=0 ;;
    --report-only) report_only=1 ;;
    *) echo "usage: $0 [--quick] [--no-server] [--no-compile-time] [--no-profile] [--report-only]" >&2; exit 2 ;;
  esac
done
results="$build/benchmarks/results"
python=/usr/bin/python3  # the standard library is all report.py needs

if [[ $report_only == 0 ]]; then
  # validate/e164/libphonenumber, for context: unpacked into the build tree (never installed);
  # without it (no package registry, say) that one benchmark is left out.
  if [[ ! -d "$build/libphonenumber/usr/include/phonenumbers" ]]; then
    benchmarks/fetch-libphonenumber.sh "$build" >/dev/null 2>&1 ||
      echo "libphonenumber could not be fetched: validate/e164/libphonenumber is left out" >&2
  fi
  examples=OFF
  [[ $server == 1 && -f examples/server/CMakeLists.txt ]] && examples=ON
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="${CXX:-g++-12}" \
    -DCOLLECTCALL_NATIVE=ON -DCOLLECTCALL_BUILD_BENCHMARKS=ON -DCOLLECTCALL_BUILD_TESTS=ON \
    -DCOLLECTCALL_BUILD_EXAMPLES=$examples >/dev/null
  targets=(collectcall_benchmarks collectcall_bench_fairness collectcall_profile_driver)
  if [[ $examples == ON ]]; then targets+=(collectcall-server collectcall_bench_ceiling); fi
  cmake --build "$build" --target "${targets[@]}" -j "$jobs"

  echo "== fairness: every peer accepts and rejects what collectcall does"
  "$build/tests/bench_fairness/collectcall_bench_fairness"

  mkdir -p "$results"
  rm -f "$results/server.json"
  echo "== library benchmarks: $repetitions repetitions of at least ${min_time}s each"
  # The repetitions of all benchmarks run in a random order rather than each benchmark's ten
  # together: a burst of other work on a shared machine then slows a little of every benchmark,
  # not most of one, and the ratios of medians stay comparable.
  "$build/benchmarks/collectcall_benchmarks" --benchmark_enable_random_interleaving=true \
    --benchmark_repetitions="$repetitions" --benchmark_min_time="$min_time" \
    --benchmark_report_aggregates_only=true --benchmark_display_aggregates_only=true \
    --benchmark_out="$results/library.json" --benchmark_out_format=json

  rm -f "$results/profile.json"
  if [[ $profile == 1 ]]; then
    echo "== where the reader's time goes (perf)"
    "$python" benchmarks/profile.py --binary "$build/benchmarks/collectcall_benchmarks" \
      --driver "$build/benchmarks/collectcall_profile_driver" \
      --out "$results/profile.json" ${quick:+--seconds 1} ||
      echo "no profile of the reader: docs/benchmarks.md says so" >&2
  fi

  if [[ $server == 1 ]]; then
    echo "== the example server under load"
    benchmarks/server/run.sh "$build" "$results/server.json" ${quick:+--quick}
  fi

  if [[ $compile_time == 1 ]]; then
    echo "== compile time: the same program with collectcall and with nlohmann/json"
    rm -f "$results/compile_time.json"
    "$python" benchmarks/compile_time/run.py --runs "$compile_runs" --cxx "${CXX:-g++-12}" \
      --out "$results/compile_time.json"
  fi
fi

note="$repetitions repetitions per benchmark, each of at least ${min_time} s; medians reported."
[[ $report_only == 1 ]] && note="Repetitions as recorded in the JSON output; medians reported."
server_args=()
[[ -f "$results/server.json" ]] && server_args=(--server "$results/server.json")
[[ -f "$results/compile_time.json" ]] && server_args+=(--compile-time "$results/compile_time.json")
[[ -f "$results/profile.json" ]] && server_args+=(--profile "$results/profile.json")
"$python" benchmarks/report.py --library "$results/library.json" "${server_args[@]}" \
  --markdown docs/benchmarks.md --plot docs/benchmarks-ratios.svg --note "$note"
