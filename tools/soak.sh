#!/usr/bin/env bash
# Soak test of the example server (issue 7): mixed traffic with wrk at 16 connections against a
# fresh server on loopback with a temporary database, for DURATION seconds (default 300).
# Fails when a response has an unexpected status or when resident memory grows by 10% or more
# after the warm-up (the first fifth of the run, at least 10 s). Writes the result to
# docs/soak.md (SOAK_REPORT=path to write elsewhere, SOAK_REPORT=- to print only).
#
#   tools/soak.sh [DURATION]     # e.g. tools/soak.sh 60
#
# COLLECTCALL_SERVER=path/to/collectcall-server uses that binary; otherwise a Release build is
# made in build/soak. Needs wrk (Debian package wrk) and jq. Not run in CI (it takes minutes).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/tools/lib/start-server.sh"
duration="${1:-300}"
connections="${SOAK_CONNECTIONS:-16}"
report="${SOAK_REPORT:-$root/docs/soak.md}"
command -v wrk >/dev/null || { echo "soak: wrk is needed (apt-get install wrk)" >&2; exit 2; }
command -v jq >/dev/null || { echo "soak: jq is needed" >&2; exit 2; }

server="${COLLECTCALL_SERVER:-}"
if [[ -z "$server" ]]; then
  build="$root/build/soak"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCOLLECTCALL_BUILD_TESTS=OFF -DCOLLECTCALL_BUILD_EXAMPLES=ON >/dev/null
  cmake --build "$build" --target collectcall-server >/dev/null
  server="$build/examples/server/collectcall-server"
fi

work="$(mktemp -d)"
pid=""
sampler=""
cleanup() {
  [[ -n "$sampler" ]] && kill "$sampler" 2>/dev/null || true
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

db="$work/soak.db"
# One account on one frozen day: its daily budget of stored rows (default 1,000,000) is raised so
# that a long run at full speed measures memory and statuses, not the budget's 429s.
account="$("$server" init --db "$db" --account soak --daily-rows 1000000000000)"
export SOAK_KEY="$(jq -r .apiKey <<<"$account")"
export SOAK_AGENT="$(jq -r .agentId <<<"$account")"
export SOAK_RUN="$$"

# A frozen clock inside calling hours, so that calls are placed (not blocked by the hour).
start_server soak "$server" "$work" --db "$db" --quiet --rate-limit 0 \
  --now 2026-11-20T15:00:00Z --call-step-ms 200

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
( while kill -0 "$pid" 2>/dev/null; do echo "$(date +%s) $(rss)"; sleep 2; done ) >"$work/rss" &
sampler=$!

start="$(date +%s)"
wrk -t 2 -c "$connections" -d "${duration}s" --timeout 10s --latency -s "$root/tools/soak.lua" \
  "http://127.0.0.1:$port" >"$work/wrk" 2>&1 || true
kill "$sampler" 2>/dev/null || true
sampler=""
end_rss="$(rss)"
alive=yes
kill -0 "$pid" 2>/dev/null || alive=no

warmup=$(( duration / 5 < 10 ? 10 : duration / 5 ))
warm_rss="$(awk -v t=$((start + warmup)) '$1 >= t {print $2; exit}' "$work/rss")"
max_rss="$(awk -v t=$((start + warmup)) '$1 >= t && $2 > m {m = $2} END {print m}' "$work/rss")"
first_rss="$(head -1 "$work/rss" | awk '{print $2}')"
growth="$(awk -v a="$warm_rss" -v b="$max_rss" 'BEGIN {printf "%.1f", (b - a) * 100 / a}')"
unexpected="$(sed -n 's/^unexpected \([0-9]*\)$/\1/p' "$work/wrk")"
requests="$(sed -n 's/^requests \([0-9]*\) .*/\1/p' "$work/wrk")"
socket_errors="$(sed -n 's/^requests [0-9]* errors(\(.*\))$/\1/p' "$work/wrk")"
customers="$(sqlite3 "$db" 'SELECT count(*) FROM customers' 2>/dev/null || echo '?')"

verdict=PASS
[[ "$alive" == yes ]] || verdict=FAIL
[[ "${unexpected:-1}" == 0 ]] || verdict=FAIL
awk -v g="$growth" 'BEGIN {exit !(g < 10)}' || verdict=FAIL

summary="$(cat <<EOT
## Run of $(date -u +%Y-%m-%dT%H:%M:%SZ)

\`tools/soak.sh $duration\` on $(nproc) cores ($(uname -sr)), server \`${server#$root/}\`,
wrk -t 2 -c $connections, rate limit off.

| measure | value |
|---|---|
| verdict | **$verdict** |
| requests | $requests in ${duration} s ($(( ${requests:-0} / duration )) per second) |
| unexpected statuses | ${unexpected:-?} |
| wrk errors (its "status" counts every status >= 400, here the expected 422s) | $socket_errors |
| customers created | $customers |
| latency | $(grep '^latency' "$work/wrk" | sed 's/^latency //') |
| VmRSS at start / after warm-up (${warmup} s) / max after / end | ${first_rss} / ${warm_rss} / ${max_rss} / ${end_rss:-gone} KiB |
| growth after warm-up | ${growth}% (limit 10%) |
| server alive at the end | $alive |
EOT
)"
echo "$summary"
grep '^first unexpected' "$work/wrk" || true
if [[ "$report" != "-" ]]; then
  if [[ ! -f "$report" ]]; then
    cat >"$report" <<'EOT'
# Soak

`tools/soak.sh [DURATION]` (default 300 s) runs mixed traffic against a fresh example server on
loopback with a temporary database: wrk at 16 connections, script `tools/soak.lua`. Each wrk
thread creates customers with distinct externalIds (one request in five, and whenever it has none
yet) and works on the ones it created: GET by id, lookup by externalId, PATCH (merge patch of the
first name), POST a call (the clock is frozen inside calling hours; a call over a customer's daily
limit is 422 `compliance_failed`, which is expected). The run fails on any other status than 200,
201 and that 422, on the server dying, or on resident memory (VmRSS, sampled every 2 s from
`/proc/<pid>/status`) growing by 10% or more between the end of the warm-up (the first fifth of the
run, at least 10 s) and its maximum afterwards. It is not part of CI; the results of runs are
appended below, newest last.

EOT
  fi
  printf '%s\n\n' "$summary" >>"$report"
fi
[[ "$verdict" == PASS ]]
