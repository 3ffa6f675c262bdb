#!/usr/bin/env bash
# The compressed-body attack of docs/security.md ("The newer surface"), measured: one account sends
# CONCURRENT (default 32) POST .../interactions/email/import/bulk at once, each 60 e-mails of
# 255 KiB (about 15 MiB), first plain, then gzip-compressed (Content-Encoding: gzip: about 16 KiB
# on the wire), to a server with the default memory budget (512 MiB, an account's share 1/4).
# Prints for each run the answers' statuses, the server's resident memory before and at its peak,
# and the longest GET /healthz of those sent every 100 ms meanwhile.
#
#   tools/attacks/gzip.sh                   # COLLECTCALL_SERVER=path uses that binary
#
# Needs curl, jq, gzip and bc. Not run in CI (it sends 480 MiB twice and takes a minute or two).
source "$(dirname "$0")/../lib/attack.sh"
concurrent="${CONCURRENT:-32}"
attack_begin gzip

key="$(account a | jq -r .apiKey)"
serve --quiet --rate-limit 0 --now 2026-11-20T15:00:00Z
customer="$(customers "$key" 1 c)"
email="$(inbound_email_json $((255 * 1024)) 2026-11-20T14:59:00Z)"
{
  printf '{"interactions":[%s' "$email"
  for _ in $(seq 2 60); do printf ',%s' "$email"; done
  printf ']}'
} >"$work/bulk.json"
gzip -9 -c "$work/bulk.json" >"$work/bulk.json.gz"
echo "a bulk: $(wc -c <"$work/bulk.json") bytes; gzip-compressed: $(wc -c <"$work/bulk.json.gz") bytes"

attack() {  # NAME FILE [CURL-ARGS...]
  local name="$1" file="$2" before peak senders=() probe i
  shift 2
  before="$(rss)"
  (while kill -0 "$pid" 2>/dev/null; do rss; sleep 0.05; done) >"$work/rss" &
  local sampler=$!
  (while :; do curl -s -o /dev/null -w '%{time_total}\n' "${base%/api/v1}/healthz"; sleep 0.1; done) >"$work/healthz" &
  probe=$!
  for i in $(seq 1 "$concurrent"); do
    curl -s -o /dev/null -w '%{http_code}\n' "$base/customers/$customer/interactions/email/import/bulk" \
      -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "$@" --data-binary @"$file" >"$work/status.$i" &
    senders+=($!)
  done
  wait "${senders[@]}"
  kill "$sampler" "$probe" 2>/dev/null || true
  wait "$sampler" "$probe" 2>/dev/null || true
  peak="$(sort -n "$work/rss" | tail -1)"
  echo "$name: statuses $(cat "$work"/status.* | sort | uniq -c | awk '{printf "%s%sx%s", sep, $1, $2; sep = ", "}')"
  echo "$name: rss before $((before / 1024)) MiB, peak $((peak / 1024)) MiB (+$(((peak - before) / 1024)) MiB)"
  echo "$name: longest GET /healthz $(sort -n "$work/healthz" | tail -1) s of $(wc -l <"$work/healthz") (load average $(load))"
}
attack plain "$work/bulk.json"
attack gzip "$work/bulk.json.gz" -H 'Content-Encoding: gzip'
