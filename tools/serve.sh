#!/usr/bin/env bash
# Installs what is needed, builds the example server and serves the API on 127.0.0.1:8080 with
# the embedded SQLite database ./collectcall.db. On first start it creates a demo account and
# prints its API key and agentId (once). Extra arguments go to `collectcall-server serve`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/tools/install-deps.sh"
build="$root/build/server"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++-12 \
  -DCOLLECTCALL_BUILD_TESTS=OFF -DCOLLECTCALL_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$build" --target collectcall-server -j "$(nproc)"
exec "$build/examples/server/collectcall-server" serve --db "${COLLECTCALL_DB:-./collectcall.db}" "$@"
