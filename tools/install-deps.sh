#!/usr/bin/env bash
# Installs the Debian packages collectcall builds, tests and runs with (Debian 12 bookworm).
# Run as root, or with sudo available. Does nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3 curl ca-certificates tzdata
  g++-12 clang-16 libclang-rt-16-dev
  libboost1.81-dev libsimdjson-dev catch2 libcpp-httplib-dev libsqlite3-dev libssl-dev
  libhowardhinnant-date-dev python3-jsonschema wrk jq  # wrk and jq: the short soak in CI
  nlohmann-json3-dev libboost-json1.81-dev rapidjson-dev  # the benchmarks' fairness test
  libpq-dev postgresql  # the server's PostgreSQL store, and the cluster its tests run on
  prometheus-cpp-dev    # the server's /metrics
  libcurl4-openssl-dev  # the server's outbound webhook client
  zlib1g-dev libbrotli-dev  # the server's content codings: gzip, deflate and br bodies
)
if [[ "${COLLECTCALL_BENCH_DEPS:-0}" == 1 ]]; then
  # linux-perf and valgrind: benchmarks/profile.py; the plot is SVG written by
  # benchmarks/report.py.
  packages+=(libbenchmark-dev linux-perf valgrind)
fi
packages+=(${COLLECTCALL_EXTRA_PACKAGES:-})

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
echo "installing: ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
