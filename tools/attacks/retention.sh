#!/usr/bin/env bash
# The retention sweep of docs/security.md ("The newer surface"), measured: account A's CUSTOMERS
# customers (default 1,000) get ROWS records (default 159,000 compliance decisions: blocked
# POST /calls/bulk at 22:00 in their time zone); the server is then restarted with its clock past
# the three years of 12 CFR 1006.100(a), so that its first retention sweep, at its start, deletes
# them all. Meanwhile WRITERS loops (default 2) of account B's POST /customers run, one request
# after the other, until the sweep has logged its end, then as many again with nothing to sweep.
# Prints the rows deleted, how long the sweep took from the server's start, and the median and
# longest of B's writes during the sweep and after it.
#
#   tools/attacks/retention.sh              # COLLECTCALL_SERVER=path uses that binary
#
# The sweep starts with the server, before it listens: the first of B's writes comes a few
# hundred milliseconds after it began (the script prints when), so the first batches go unmeasured.
# Needs curl, jq and bc. Not run in CI (it writes 159,000 rows and takes two to four minutes).
source "$(dirname "$0")/../lib/attack.sh"
rows="${ROWS:-159000}"
count="${CUSTOMERS:-1000}"
writers="${WRITERS:-2}"
attack_begin retention

a="$(account a)"
key="$(jq -r .apiKey <<<"$a")"
other="$(account b | jq -r .apiKey)"
serve --quiet --rate-limit 0 --now 2026-11-20T04:00:00Z  # 22:00 in Chicago: calls are blocked
customers "$key" "$count" a >"$work/ids"
split -l 100 -d -a 4 "$work/ids" "$work/chunk."
for chunk in "$work"/chunk.*; do calls_json "$(jq -r .agentId <<<"$a")" <"$chunk" >"$chunk.json"; done
for _ in $(seq 1 $((rows / count))); do ls "$work"/chunk.*.json; done | sed 's#^#/calls/bulk #' |
  post_each "$key" | sort | uniq -c | sed 's/^/bulk calls (each item a decision): /'

write() {  # N: B's POST /customers one after the other until the file "stop" is there
  local i=0
  while [[ ! -e "$work/stop" ]]; do
    i=$((i + 1))
    api "$other" /customers -o /dev/null -w "%{time_total} $(date +%s.%N)\n" -d "$(customer_json "w$1-$i")"
  done
}
t0="$(date +%s.%N)"
serve --rate-limit 0 --now 2029-12-01T04:00:00Z  # three years and 11 days later; its log on
loops=()
for w in $(seq 1 "$writers"); do
  write "$w" >"$work/writes.$w" &
  loops+=($!)
done
until grep -q 'retention: deleted' "$work/err"; do sleep 0.01; done
swept="$(seconds_since "$t0")"
t1="$(date +%s.%N)"
sleep "$swept"
touch "$work/stop"
wait "${loops[@]}"
echo "the sweep deleted $(sed -n 's/.*retention: deleted [0-9]* finished webhook messages and \([0-9]*\).*/\1/p' "$work/err") rows"
first="$(sort -k2 -n "$work"/writes.* | head -1 | cut -d' ' -f2)"
echo "it ended ${swept} s after the server started; B's first write ended $(echo "$first - $t0" | bc | xargs printf '%.3f') s after"
summary() {  # LABEL: the writes of stdin, "seconds end"
  sort -n | awk -v l="$1" '{t[NR] = $1 * 1000} END {
    printf "B'"'"'s writes %s: %d, median %.1f ms, longest %.1f ms\n", l, NR, t[int((NR + 1) / 2)], t[NR] }'
}
cat "$work"/writes.* | awk -v t="$t1" '$2 <= t' | summary "during the sweep"
cat "$work"/writes.* | awk -v t="$t1" '$2 > t' | summary "after it"
echo "($writers writers; load average $(load))"
