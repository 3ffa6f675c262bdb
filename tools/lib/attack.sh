# Sourced by the scripts of tools/attacks: what each of them needs to run the example server on a
# fresh database, make accounts and customers, and time what it asks.
#
#   source "$(dirname "$0")/../lib/attack.sh"; attack_begin LABEL
#
# Sourcing it sets the shell's options (set -euo pipefail) and `root` (the tree). attack_begin
# sets `server` (COLLECTCALL_SERVER, or the Release build of this tree), `work` (a temporary
# directory, removed at exit with the server stopped) and `db` (a database file in it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/tools/lib/start-server.sh"

attack_begin() {
  label="$1"
  server="${COLLECTCALL_SERVER:-$root/build/release/examples/server/collectcall-server}"
  [[ -x "$server" ]] || { echo "$label: build collectcall-server first, or set COLLECTCALL_SERVER" >&2; exit 2; }
  command -v jq >/dev/null || { echo "$label: needs jq" >&2; exit 2; }
  work="$(mktemp -d)"
  db="$work/$label.db"
  pid=""
  trap attack_end EXIT
}

# Stops the server and removes the work directory (at exit).
attack_end() {
  serve_stop
  rm -rf "$work"
}

# serve SERVE-ARGS...: starts the server on $db (stopping the one running) and sets `base`.
serve() {
  serve_stop
  start_server "$label" "$server" "$work" --db "$db" "$@"
  base="http://127.0.0.1:$port/api/v1"
}

serve_stop() {
  if [[ -n "$pid" ]]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
  fi
}

# account NAME [INIT-ARGS...]: creates the account; prints init's JSON line (apiKey, agentId).
account() {
  local name="$1"
  shift
  "$server" init --db "$db" --account "$name" "$@"
}

# customer_json EXTERNAL_ID: a customer in Chicago (UTC-6 in November).
customer_json() {
  printf '{"externalId":"%s","firstName":"Ann","lastName":"Lee","email":"ann@example.com","primaryPhone":"+13125550123","address":{"line1":"1 Main St","city":"Chicago","state":"IL","zip":"60601"}}' "$1"
}

# inbound_email_json BYTES TIMESTAMP: an e-mail from customer_json's customer whose plain text is
# BYTES of plain words (a long letter: what the analysis of a message reads).
inbound_email_json() {
  local text
  text="$(awk -v n="$1" 'BEGIN {
    while (length(t) < n) t = t "I lost my job in March and cannot pay this month, please call me next week. "
    printf "%s", substr(t, 1, n) }')"
  printf '{"direction":"inbound","timestamp":"%s","from":"ann@example.com","to":["accounts@example.com"],"subject":"My account","plainTextBody":"%s"}' "$2" "$text"
}

# api KEY PATH [CURL-ARGS...]: the answer's body; a body given with -d or --data-binary is JSON.
api() {
  local key="$1" path="$2"
  shift 2
  curl -s "$base$path" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "$@"
}

# customers KEY COUNT PREFIX: creates COUNT customers (bulks of 1,000); prints their ids, one a
# line, in the order made.
customers() {
  local key="$1" count="$2" prefix="$3" from n
  for ((from = 0; from < count; from += 1000)); do
    n=$((count - from < 1000 ? count - from : 1000))
    seq "$from" $((from + n - 1)) |
      while read -r i; do customer_json "$prefix-$i"; done |
      jq -s '{customers: .}' >"$work/bulk.json"
    api "$key" /customers/bulk --data-binary @"$work/bulk.json" | jq -r '.data.results[].customer.id'
  done
}

# calls_json AGENT: the body of POST /calls/bulk for the customer ids read from stdin.
calls_json() { jq -R . | jq -s --arg agent "$1" '{agentId: $agent, customerIds: .}'; }

# post_each KEY [BODY-FILE [PARALLEL]]: POSTs to each path read from stdin (one a line, under
# $base; a line "PATH FILE" posts FILE there instead of BODY-FILE) with one curl, PARALLEL requests
# at once (default 4); prints each answer's status, one a line.
post_each() {
  awk -v base="$base" -v key="$1" -v body="${2:-}" '{
    if (NR > 1) print "next"
    printf "silent\nurl = \"%s%s\"\nheader = \"Authorization: Bearer %s\"\n", base, $1, key
    printf "header = \"Content-Type: application/json\"\ndata-binary = \"@%s\"\n", (NF > 1 ? $2 : body)
    printf "output = \"/dev/null\"\nwrite-out = \"%%{http_code}\\n\"\n"
  }' >"$work/each.curl"
  curl -s --no-progress-meter --parallel --parallel-max "${3:-4}" -K "$work/each.curl"
}

# rss: the server's resident memory, in KiB.
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }

# seconds_since T0: the seconds since T0 (a `date +%s.%N`), to the millisecond.
seconds_since() { echo "$(date +%s.%N) - $1" | bc | xargs printf '%.3f\n'; }

# load: the machine's load average over the last minute, for the record beside a figure.
load() { cut -d' ' -f1 /proc/loadavg; }
