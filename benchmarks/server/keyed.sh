#!/usr/bin/env bash
# Another account's writes beside Idempotency-Key requests on SQLite (API.md section 17, "A keyed
# request does not hold the writer"): starts collectcall-server on a fresh database with two
# accounts and measures, with wrk on loopback, the latency of one account's plain POST /customers
# alone, then while the other account sends keyed POST /customers (a new Idempotency-Key each) at
# the same time. Prints the percentiles of both, in milliseconds.
#
#   benchmarks/server/keyed.sh SERVER_BINARY
#
# Environment: DURATION (seconds per run, default 10), CONNECTIONS (per account, default 16),
# WRK_THREADS (per wrk, default 1).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
server_bin=$1
duration=${DURATION:-10}
connections=${CONNECTIONS:-16}
wrk_threads=${WRK_THREADS:-1}
python=/usr/bin/python3
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

db="$work/keyed.db"
key_of() {  # ACCOUNT
  "$server_bin" init --db "$db" --account "$1" --daily-rows 1000000000000 |
    "$python" -c 'import json, sys; print(json.load(sys.stdin)["apiKey"])'
}
keyed_key=$(key_of keyed)
plain_key=$(key_of plain)
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The clock frozen inside respectful hours, the rate limit off (wrk would measure 429s).
"$server_bin" serve --db "$db" --listen "127.0.0.1:$port" --rate-limit 0 \
  --now 2026-11-20T17:00:00Z --quiet >"$work/server.log" 2>&1 &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -s -o /dev/null "$base/healthz" && break; sleep 0.1; done

cat "$here/common.lua" "$here/post_customers.lua" >"$work/plain.lua"
cat "$here/common.lua" "$here/post_keyed.lua" >"$work/keyed.lua"
wrk_run() {  # OUT SCRIPT RUN_ID KEY
  wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --latency -s "$2" "$base" -- "$3" "$4" \
    >"$1" 2>&1 || true
}

run_id="k$(date +%s)"
wrk_run "$work/alone.out" "$work/plain.lua" "${run_id}a" "$plain_key"
wrk_run "$work/beside.out" "$work/plain.lua" "${run_id}b" "$plain_key" &
plain_wrk=$!
wrk_run "$work/keyed.out" "$work/keyed.lua" "${run_id}k" "$keyed_key"
wait "$plain_wrk"

"$python" - "$work" "$duration" "$connections" <<'PY'
import json, sys
from pathlib import Path
work, duration, connections = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
print(f"{duration} s per run, {connections} connections per account")
print(f"{'run':<44} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  statuses")
for name, label in (("alone", "plain POST /customers, alone"),
                    ("beside", "plain POST /customers, beside keyed ones"),
                    ("keyed", "keyed POST /customers (other account)")):
    text = (work / f"{name}.out").read_text()
    line = next((l for l in text.splitlines() if l.startswith("WRK_JSON ")), None)
    if line is None:
        print(f"{label:<44} no result:\n{text}")
        continue
    w = json.loads(line[len("WRK_JSON "):])
    rate = w["requests"] / (w["duration_us"] / 1e6)
    print(f"{label:<44} {rate:>8.0f} {w['p50_us'] / 1000:>8.1f} {w['p95_us'] / 1000:>8.1f} "
          f"{w['p99_us'] / 1000:>8.1f}  {w['statuses']}")
PY
