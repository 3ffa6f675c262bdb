#!/usr/bin/env bash
# The unpaged-list attack of docs/security.md ("The newer surface"), measured: one customer with
# EMAILS e-mails of 256 KiB each (default 240: 60 MiB of history), then CONCURRENT (default 16)
# GET /customers/{id}/interactions at once, while another account reads one of its customers.
# Prints the server's resident memory before and at its peak, the largest answer, and how long
# the other account's read took.
#
#   tools/attacks/lists.sh                 # COLLECTCALL_SERVER=path uses that binary
#
# Needs curl and jq. Not run in CI (it writes 60 MiB and takes a minute).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tools/lib/start-server.sh"
emails="${EMAILS:-240}"
concurrent="${CONCURRENT:-16}"
server="${COLLECTCALL_SERVER:-$root/build/release/examples/server/collectcall-server}"
[[ -x "$server" ]] || { echo "lists: build collectcall-server first, or set COLLECTCALL_SERVER" >&2; exit 2; }

work="$(mktemp -d)"
pid=""
cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

db="$work/lists.db"
key="$("$server" init --db "$db" --account attacker | jq -r .apiKey)"
other="$("$server" init --db "$db" --account other | jq -r .apiKey)"
start_server lists "$server" "$work" --db "$db" --quiet --rate-limit 0 --now 2026-11-20T15:00:00Z
base="http://127.0.0.1:$port/api/v1"
customer_body='{"externalId":"X","firstName":"Ann","lastName":"Lee","email":"ann@example.com","primaryPhone":"+13125550123","address":{"line1":"1 Main St","city":"Chicago","state":"IL","zip":"60601"}}'
customer="$(curl -s "$base/customers" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d "$customer_body" | jq -r .data.id)"
theirs="$(curl -s "$base/customers" -H "Authorization: Bearer $other" -H 'Content-Type: application/json' -d "$customer_body" | jq -r .data.id)"

body="$(head -c $((256 * 1024 - 1024)) /dev/zero | tr '\0' 'x')"
printf '{"direction":"inbound","timestamp":"2026-11-20T14:59:00Z","from":"ann@example.com","to":["accounts@example.com"],"subject":"Long","plainTextBody":"%s"}' "$body" >"$work/email.json"
for _ in $(seq 1 "$emails"); do
  curl -s -o /dev/null -w '%{http_code}\n' "$base/customers/$customer/interactions/email/import" \
    -H "Authorization: Bearer $key" -H 'Content-Type: application/json' --data-binary @"$work/email.json"
done | sort | uniq -c | sed 's/^/imports: /'

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
before="$(rss)"
peak="$before"
( while kill -0 "$pid" 2>/dev/null; do rss; sleep 0.05; done ) >"$work/rss" &
sampler=$!
readers=()
for i in $(seq 1 "$concurrent"); do
  curl -s -o "$work/answer.$i" "$base/customers/$customer/interactions" \
    -H "Authorization: Bearer $key" &
  readers+=($!)
done
sleep 0.2
other_time="$(curl -s -o /dev/null -w '%{time_total}' "$base/customers/$theirs" -H "Authorization: Bearer $other")"
wait "${readers[@]}"
kill "$sampler" 2>/dev/null || true
peak="$(sort -n "$work/rss" | tail -1)"
largest="$(wc -c "$work"/answer.* | sort -n | tail -2 | head -1 | awk '{print $1}')"
items="$(jq '.data.interactions | length' "$work/answer.1")"
echo "history: $emails e-mails of 256 KiB; $concurrent concurrent GET /interactions"
echo "rss before: $((before / 1024)) MiB; peak: $((peak / 1024)) MiB (+$(((peak - before) / 1024)) MiB)"
echo "largest answer: $largest bytes ($items items on the first page)"
echo "the other account's GET /customers/{id}: ${other_time}s"
