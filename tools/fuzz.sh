#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with clang 16 under AddressSanitizer and
# UndefinedBehaviorSanitizer and runs each for a time budget.
#
#   tools/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS is per target (default 60); TARGETs default to all (customer bulk call envelope values
# webhook_response interaction server). Each target starts from its seed corpus (tests/fuzz/corpus/<target>/) plus what earlier
# runs found (build/fuzz/corpus/<target>/, kept between runs), with the dictionary
# tests/fuzz/<target>.dict if there is one, else tests/fuzz/json.dict. Inputs are at most 8 KiB,
# for `server` 20 KiB (enough to go over cpp-httplib's 8 KiB limits on a header line and on the
# request target). A crash, leak, timeout or property
# violation stops that target and is saved in build/fuzz/artifacts/<target>/; copy it to
# tests/fuzz/regressions/<target>/ so that the replay test (ctest -R fuzz_replay) keeps it fixed.
# The server target needs the example server, so the build is configured with the examples; only
# the fuzz_ targets (and what they link) are built.
# Environment: COLLECTCALL_FUZZ_JOBS (build jobs, default: the number of CPUs),
# COLLECTCALL_FUZZ_PARALLEL (targets run at once, default: the number of CPUs),
# COLLECTCALL_FUZZ_BUILD_DIR (default build/fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(customer bulk call envelope values webhook_response interaction server)
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "usage: tools/fuzz.sh [SECONDS] [TARGET...]" >&2
  exit 2
fi

tools/install-deps.sh

build=${COLLECTCALL_FUZZ_BUILD_DIR:-build/fuzz}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-16 \
  -DCOLLECTCALL_FUZZ=ON -DCOLLECTCALL_SANITIZE=OFF -DCOLLECTCALL_BUILD_EXAMPLES=ON \
  -DCOLLECTCALL_BUILD_BENCHMARKS=OFF -DCOLLECTCALL_INSTALL=OFF >/dev/null
cmake --build "$build" -j "${COLLECTCALL_FUZZ_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Runs one target; its libFuzzer output goes to $build/fuzz_<target>.log, its exit status to
# $build/fuzz_<target>.status.
run_target() {
  local target=$1
  local corpus="$build/corpus/$target" artifacts="$build/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  local dict=tests/fuzz/$target.dict
  [[ -f "$dict" ]] || dict=tests/fuzz/json.dict
  local max_len=8192
  [[ "$target" == server ]] && max_len=20480
  local status=0
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$max_len" -dict="$dict" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 "$corpus" "tests/fuzz/corpus/$target" >"$build/fuzz_$target.log" 2>&1 ||
    status=$?
  echo "$status" >"$build/fuzz_$target.status"
}

# Each libFuzzer process runs on one core: as many targets at once as there are cores
# (COLLECTCALL_FUZZ_PARALLEL), each for its full budget.
parallel=${COLLECTCALL_FUZZ_PARALLEL:-$(nproc)}
for target in "${targets[@]}"; do
  while (( $(jobs -rp | wc -l) >= parallel )); do wait -n || true; done
  echo "== fuzz_$target: $seconds s" >&2
  rm -f "$build/fuzz_$target.status"
  run_target "$target" &
done
wait

failed=()
for target in "${targets[@]}"; do
  log="$build/fuzz_$target.log"
  echo "== fuzz_$target" >&2
  if [[ "$(cat "$build/fuzz_$target.status" 2>/dev/null)" == 0 ]]; then
    grep -E '^(Done|stat::(number_of_executed_units|new_units_added|peak_rss_mb))' "$log" >&2 || true
  else
    failed+=("$target")
    # The report: the sanitizer's or the property's, and the input that caused it.
    grep -v -E '^(#[0-9]+|INFO:|")' "$log" | tail -n 60 >&2
    echo "fuzz_$target failed; full log: $log; input saved in $build/artifacts/$target/" >&2
  fi
done

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzzing: ${targets[*]}: no problem found in $seconds s each" >&2
