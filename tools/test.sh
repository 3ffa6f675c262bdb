#!/usr/bin/env bash
# Installs what is needed, builds everything and runs every test.
#   tools/test.sh                 GCC, Release
#   tools/test.sh --sanitize      clang 16 with AddressSanitizer and UndefinedBehaviorSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
"tools/install-deps.sh"

build=build/release
args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++-12)
if [[ "${1:-}" == "--sanitize" ]]; then
  build=build/sanitize
  # The header check and the packaging tests prove nothing more under sanitizers: the Release
  # build runs them.
  args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-16 -DCOLLECTCALL_SANITIZE=ON
        -DCOLLECTCALL_HEADER_CHECK=OFF -DCOLLECTCALL_PACKAGE_TESTS=OFF)
fi
cmake -S . -B "$build" -G Ninja "${args[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"
# The server suites run a second time on PostgreSQL: on the cluster in COLLECTCALL_TEST_PG_URI
# when it is set, else on a throwaway one started here when PostgreSQL 15 is installed. Without
# one those runs are reported as skipped (in CI, COLLECTCALL_REQUIRE_PG=1: failed).
if [[ -z "${COLLECTCALL_TEST_PG_URI:-}" && -x /usr/lib/postgresql/15/bin/initdb ]]; then
  pg_dir=$(mktemp -d /tmp/collectcall-pg.XXXXXX)
  trap 'tools/pg-cluster.sh stop "$pg_dir"' EXIT
  if uri=$(tools/pg-cluster.sh start "$pg_dir"); then
    export COLLECTCALL_TEST_PG_URI="$uri"
  elif [[ "${COLLECTCALL_REQUIRE_PG:-0}" == 1 ]]; then
    echo "test.sh: PostgreSQL did not start" >&2
    exit 1
  fi
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The suites over real HTTP mostly wait (timers, child processes, sockets) and run in shards
# (tests/CMakeLists.txt, collectcall_add_suite): several per core keep the cores busy.
ctest --test-dir "$build" --output-on-failure -j "$((4 * $(nproc)))"
