#!/usr/bin/env bash
# The example server under load: starts collectcall-server on a fresh database and drives it with
# wrk on loopback (POST /customers, POST /customers/bulk with 500 items, GET, PATCH, POST calls), and,
# in the same run, the minimal cpp-httplib server of ceiling.cpp as the ceiling of this HTTP
# stack. When PostgreSQL 15 is installed, POST /customers again on a throwaway PostgreSQL cluster
# (tools/pg-cluster.sh), with one server process and with two side by side on the same database.
# Writes the figures as JSON for benchmarks/report.py. Called by benchmarks/run.sh.
#
#   benchmarks/server/run.sh BUILD_DIR OUT.json [--quick] [--write-docs]
#
# --write-docs also rewrites the section "The server under load" of docs/benchmarks.md from these
# figures (benchmarks/report.py --server-section), leaving the library's sections as they are.
#
# Environment: DURATION (seconds per scenario, default 10; 3 with --quick), CONNECTIONS
# (default 16), WRK_THREADS (default 2).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build=$1
out=$2
quick=""
write_docs=0
for arg in "${@:3}"; do
  case "$arg" in
    --quick) quick=--quick ;;
    --write-docs) write_docs=1 ;;
    *) echo "usage: $0 BUILD_DIR OUT.json [--quick] [--write-docs]" >&2; exit 2 ;;
  esac
done
python=/usr/bin/python3

duration=${DURATION:-10}
[[ "$quick" == --quick ]] && duration=${DURATION:-3}
connections=${CONNECTIONS:-16}
wrk_threads=${WRK_THREADS:-2}
server_bin="$build/examples/server/collectcall-server"
ceiling_bin="$build/benchmarks/collectcall_bench_ceiling"

not_measured() {
  "$python" - "$out" "$1" <<'PY'
import json, sys
json.dump({"status": "not measured", "reason": sys.argv[2]}, open(sys.argv[1], "w"), indent=2)
PY
  echo "server benchmark not measured: $1" >&2
  exit 0
}
command -v wrk >/dev/null || not_measured "wrk is not installed (COLLECTCALL_BENCH_DEPS=1 tools/install-deps.sh)"
command -v curl >/dev/null || not_measured "curl is not installed"
[[ -x "$server_bin" ]] || not_measured "the example server was not built ($server_bin)"
[[ -x "$ceiling_bin" ]] || not_measured "the ceiling server was not built (cpp-httplib not found)"

work=$(mktemp -d)
chmod 755 "$work"
pids=()
pg_dir=""
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n "$pg_dir" ]] && "$here/../../tools/pg-cluster.sh" stop "$pg_dir"
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_for() {  # URL
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "no answer from $1" >&2
  return 1
}

# A fresh database and account; the clock frozen inside respectful hours in New York, the rate
# limit off and the daily row budget far above what a run stores (wrk would otherwise be
# measuring 429s).
db="$work/bench.db"
unbounded_rows=1000000000000
credentials=$("$server_bin" init --db "$db" --account bench --daily-rows "$unbounded_rows")
api_key=$(echo "$credentials" | "$python" -c 'import json, sys; print(json.load(sys.stdin)["apiKey"])')
agent_id=$(echo "$credentials" | "$python" -c 'import json, sys; print(json.load(sys.stdin)["agentId"])')
port=$(free_port)
"$server_bin" serve --db "$db" --listen "127.0.0.1:$port" --rate-limit 0 \
  --now 2026-11-20T17:00:00Z --quiet >"$work/server.log" 2>&1 &
server_pid=$!
pids+=($server_pid)
base="http://127.0.0.1:$port"
wait_for "$base/healthz"

# Customers for PATCH and calls: 5000, created through the bulk endpoint.
"$python" - "$base" "$api_key" "$work/ids" <<'PY'
import json, sys, urllib.request
base, key, ids_path = sys.argv[1:4]
ids = []
for batch in range(50):
    customers = []
    for i in range(100):
        n = batch * 100 + i
        customers.append({
            "externalId": f"seed-{n}", "firstName": "Ann", "lastName": "Lee",
            "email": f"ann.lee{n}@example.com", "primaryPhone": f"+1212555{n % 10000:04d}",
            "address": {"line1": "1 Main St", "city": "New York", "state": "NY", "zip": "10001"},
            "ssnLastFour": "1234", "dateOfBirth": "1980-01-01",
            "collections": {"totalBalance": 100.5}})
    request = urllib.request.Request(
        base + "/api/v1/customers/bulk", data=json.dumps({"customers": customers}).encode(),
        headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        data = json.load(response)["data"]
    ids += [r["customer"]["id"] for r in data["results"] if r["success"]]
if len(ids) != 5000:
    sys.exit(f"seeding created {len(ids)} customers, not 5000")
open(ids_path, "w").write("\n".join(ids) + "\n")
PY

run_id="r$(date +%s)"
run_scenario() {  # NAME SCRIPT URL [ARGS...]
  local name=$1 script=$2 url=$3
  shift 3
  cat "$here/common.lua" "$here/$script" >"$work/$name.lua"
  echo "-- $name: wrk -t$wrk_threads -c$connections -d${duration}s" >&2
  wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --latency -s "$work/$name.lua" "$url" \
    -- "$@" >"$work/$name.out" 2>&1 || true
  grep -E "Requests/sec|Latency|Non-2xx|Socket errors" "$work/$name.out" >&2 || true
}

ceiling_port=$(free_port)
"$ceiling_bin" "$ceiling_port" >"$work/ceiling.log" 2>&1 &
ceiling_pid=$!
pids+=($ceiling_pid)
wait_for "http://127.0.0.1:$ceiling_port/"
run_scenario ceiling ceiling.lua "http://127.0.0.1:$ceiling_port"
kill "$ceiling_pid" 2>/dev/null || true

run_scenario post_customers post_customers.lua "$base" "$run_id" "$api_key"
run_scenario post_bulk post_bulk.lua "$base" "$run_id" "$api_key" 500
run_scenario get get.lua "$base" "$run_id" "$api_key" "$work/ids"
run_scenario patch patch.lua "$base" "$run_id" "$api_key" "$work/ids"
run_scenario post_calls post_calls.lua "$base" "$run_id" "$api_key" "$work/ids" "$agent_id" "$wrk_threads"
# The SQLite server stops before the PostgreSQL runs: its simulated dialer would go on moving the
# calls just placed through their states (most of a core for the next ten seconds), beside them.
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true

# PostgreSQL: the same POST /customers on one server process, then on two processes serving one
# database side by side (wrk's connections split between them), on a throwaway local cluster.
pg_note=""
if [[ -x /usr/lib/postgresql/15/bin/initdb ]]; then
  pg_dir=$(mktemp -d /tmp/collectcall-bench-pg.XXXXXX)
  if pg_uri=$("$here/../../tools/pg-cluster.sh" start "$pg_dir"); then
    pg_key=$("$server_bin" init --db "$pg_uri" --account bench --daily-rows "$unbounded_rows" |
      "$python" -c 'import json, sys; print(json.load(sys.stdin)["apiKey"])')
    pg_ports=()
    for i in 1 2; do
      p=$(free_port)
      "$server_bin" serve --db "$pg_uri" --listen "127.0.0.1:$p" --rate-limit 0 \
        --now 2026-11-20T17:00:00Z --quiet >"$work/pg-server-$i.log" 2>&1 &
      pids+=($!)
      wait_for "http://127.0.0.1:$p/healthz"
      pg_ports+=("$p")
    done
    run_scenario post_customers_pg post_customers.lua "http://127.0.0.1:${pg_ports[0]}" "${run_id}pg" "$pg_key"
    # Two processes: two wrk at once, half the connections each.
    cat "$here/common.lua" "$here/post_customers.lua" >"$work/pg2.lua"
    half=$((connections / 2))
    echo "-- post_customers_pg2: 2 x wrk -t1 -c$half -d${duration}s" >&2
    for i in 0 1; do
      wrk -t1 -c"$half" -d"${duration}s" --latency -s "$work/pg2.lua" \
        "http://127.0.0.1:${pg_ports[$i]}" -- "${run_id}pg2x$i" "$pg_key" >"$work/post_customers_pg2_$i.out" 2>&1 &
      wrk_pids[$i]=$!
    done
    wait "${wrk_pids[0]}" "${wrk_pids[1]}" || true
    grep -h "Requests/sec" "$work"/post_customers_pg2_*.out >&2 || true
  else
    pg_note="PostgreSQL: the throwaway cluster did not start; not measured."
  fi
else
  pg_note="PostgreSQL: not installed (PostgreSQL 15 binaries not found); not measured."
fi

"$python" - "$work" "$out" "$duration" "$connections" "$wrk_threads" "$pg_note" <<'PY'
import json, re, subprocess, sys
from pathlib import Path
work, out, duration, connections, threads = Path(sys.argv[1]), sys.argv[2], *map(int, sys.argv[3:6])
pg_note = sys.argv[6]
scenarios = [
    ("ceiling", "minimal cpp-httplib server, fixed body (POST)", {201}, 1),
    # Creates answer 200, as the hosted service does (API.md section 2).
    ("post_customers", "POST /customers (new externalId each)", {200}, 1),
    ("post_bulk", "POST /customers/bulk, 500 new customers", {200}, 500),
    ("get", "GET /customers/{id}", {200}, 1),
    ("patch", "PATCH /customers/{id} (merge patch)", {200}, 1),
    ("post_calls", "POST /customers/{id}/calls (422 once a customer had 4)", {200, 422}, 1),
    ("post_customers_pg", "PostgreSQL: POST /customers, one server process", {200}, 1),
    ("post_customers_pg2", "PostgreSQL: POST /customers, two server processes on one database",
     {200}, 1),
]


def wrk_json(path):
    if not path.exists():
        return None, ""
    text = path.read_text()
    line = next((l for l in text.splitlines() if l.startswith("WRK_JSON ")), None)
    return (json.loads(line[len("WRK_JSON "):]) if line else None), text


# wrk's socket errors, by kind.
error_kinds = ("connect_errors", "read_errors", "write_errors", "timeouts")

# The two wrk runs of post_customers_pg2 as one: requests added up, the slower percentiles.
halves = [wrk_json(work / f"post_customers_pg2_{i}.out")[0] for i in (0, 1)]
if all(halves):
    merged = {"requests": sum(h["requests"] for h in halves),
              "duration_us": max(h["duration_us"] for h in halves), "statuses": {}}
    for k in ("p50_us", "p90_us", "p99_us", "max_us"):
        merged[k] = max(h[k] for h in halves)
    for k in error_kinds:
        merged[k] = sum(h[k] for h in halves)
    for h in halves:
        for code, n in h["statuses"].items():
            merged["statuses"][code] = merged["statuses"].get(code, 0) + n
    (work / "post_customers_pg2.out").write_text("WRK_JSON " + json.dumps(merged) + "\n")

result = {"status": "measured", "duration_s": duration, "connections": connections,
          "threads": threads, "scenarios": [], "notes": []}
version = subprocess.run(["wrk", "-v"], capture_output=True, text=True)
match = re.search(r"wrk (?:[a-z]+/)?([0-9][^ ]*)", version.stdout + version.stderr)  # "debian/4.1.0-3"
result["wrk_version"] = match.group(1) if match else ""
for name, description, expected, items in scenarios:
    w, text = wrk_json(work / f"{name}.out")
    if name.startswith("post_customers_pg") and not (work / f"{name}.out").exists():
        continue
    if w is None:
        result["notes"].append(f"{name}: wrk produced no result: {text.strip()[:300]}")
        continue
    statuses = {int(k): v for k, v in w["statuses"].items()}
    unexpected = sum(n for code, n in statuses.items() if code not in expected)
    seconds = w["duration_us"] / 1e6
    result["scenarios"].append({
        "name": name, "description": description, "connections": connections,
        "requests": w["requests"], "requests_per_second": w["requests"] / seconds,
        "items_per_request": items,
        "latency_p50_ms": w["p50_us"] / 1000, "latency_p90_ms": w["p90_us"] / 1000,
        "latency_p99_ms": w["p99_us"] / 1000, "latency_max_ms": w["max_us"] / 1000,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "non_2xx": unexpected,
        "socket_errors": sum(w[k] for k in error_kinds),
        "socket_error_kinds": {k.removesuffix("_errors"): w[k] for k in error_kinds if w[k]},
    })
calls = next((s for s in result["scenarios"] if s["name"] == "post_calls"), None)
if calls:
    result["notes"].append(
        f"POST calls: {calls['statuses'].get('200', 0)} calls placed (200) and "
        f"{calls['statuses'].get('422', 0)} refused by compliance (422, expected once a customer "
        "had its 4 calls of the day; 5000 customers were seeded). Every evaluation is recorded "
        "(API.md section 14): a placed call's record is in its own row, a refused call writes one "
        "row of its own, where it wrote nothing before the record of decisions existed.")
if pg_note:
    result["notes"].append(pg_note)
# The disk under the SQLite scenarios: every commit waits for one fdatasync of the WAL, and that
# wait differs from one machine to another more than anything else the figures depend on.
import os, statistics, time
probe = os.open(work / "fsync-probe", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
page = b"\0" * 8192
waits = []
for i in range(200):
    began = time.perf_counter()
    os.pwrite(probe, page, i * len(page))
    os.fdatasync(probe)
    waits.append(time.perf_counter() - began)
os.close(probe)
result["fdatasync_ms"] = statistics.median(waits) * 1000
result["notes"].append(
    f"The disk: appending 8 KiB to a file and waiting for its fdatasync took {result['fdatasync_ms']:.2f} ms "
    "(median of 200 in a row, in the database's directory, after the scenarios); each SQLite "
    "commit waits for one such sync of the WAL.")
load = open("/proc/loadavg").read().split()[:3]
result["notes"].append(
    f"Load average when the run ended: {' '.join(load)} (1, 5, 15 min) on {__import__('os').cpu_count()} "
    "cores; a load above the number of cores means other work shared the machine and the "
    "figures, the p99 above all, are lower than the machine gives alone.")
json.dump(result, open(out, "w"), indent=2)
PY
echo "wrote $out" >&2
if [[ $write_docs == 1 ]]; then
  "$python" "$here/../report.py" --server-section "$out" --markdown "$here/../../docs/benchmarks.md"
fi
