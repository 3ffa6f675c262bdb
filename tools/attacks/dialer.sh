#!/usr/bin/env bash
# The dialer attack of docs/security.md ("The newer surface"), measured: account A places CALLS
# calls (default 30,000) through POST /calls/bulk, 100 customers a request, CONCURRENT requests at
# once (default 4); as soon as the last is placed, account B places one call. With the simulated
# dialer's default step each call ends 2 s after it is placed when nothing is ahead of it.
# Prints how long after its placement B's call ended (polled every 50 ms), and how long after the
# last of A's calls was placed that one ended (the backlog B's call was served beside).
#
#   tools/attacks/dialer.sh                 # COLLECTCALL_SERVER=path uses that binary
#
# Needs curl, jq and bc. Not run in CI (it places 30,000 calls and takes two to four minutes).
source "$(dirname "$0")/../lib/attack.sh"
calls="${CALLS:-30000}"
concurrent="${CONCURRENT:-4}"
attack_begin dialer

a="$(account a)"
b="$(account b)"
serve --quiet --rate-limit 0 --now 2026-11-20T15:00:00Z  # 09:00 in Chicago: calls are placed
customers "$(jq -r .apiKey <<<"$a")" "$calls" a >"$work/a.ids"
theirs="$(customers "$(jq -r .apiKey <<<"$b")" 1 b)"

# A's bulks: CONCURRENT streams, each placing every CONCURRENT-th hundred.
split -l 100 -d -a 4 "$work/a.ids" "$work/chunk."
for chunk in "$work"/chunk.*; do
  calls_json "$(jq -r .agentId <<<"$a")" <"$chunk" >"$chunk.json"
done
t_bulk="$(date +%s.%N)"
ls "$work"/chunk.*.json | sed 's#^#/calls/bulk #' | post_each "$(jq -r .apiKey <<<"$a")" "" "$concurrent" |
  sort | uniq -c | sed 's/^/A bulk requests: /'
bulk_seconds="$(seconds_since "$t_bulk")"
load_then="$(load)"

# B's call, and A's last placed call (the last customer of the last chunk).
t0="$(date +%s.%N)"
b_call="$(api "$(jq -r .apiKey <<<"$b")" "/customers/$theirs/calls" -d "{\"agentId\":\"$(jq -r .agentId <<<"$b")\"}" | jq -r .data.id)"
a_last_customer="$(tail -1 "$work/a.ids")"
a_call="$(api "$(jq -r .apiKey <<<"$a")" "/customers/$a_last_customer/calls?limit=1" | jq -r '.data.calls[0].id')"
ended() {  # KEY CALL
  [[ "$(api "$1" "/calls/$2" | jq -r .data.status)" == completed ]]
}
b_ended="" a_ended=""
while [[ -z "$b_ended" || -z "$a_ended" ]]; do
  [[ -z "$b_ended" ]] && ended "$(jq -r .apiKey <<<"$b")" "$b_call" && b_ended="$(seconds_since "$t0")"
  [[ -z "$a_ended" ]] && ended "$(jq -r .apiKey <<<"$a")" "$a_call" && a_ended="$(seconds_since "$t0")"
  sleep 0.05
done
echo "A: $calls calls in $bulk_seconds s ($concurrent bulk requests at once); load average $load_then"
echo "B's call (a 2 s step) ended ${b_ended} s after it was placed"
echo "A's last call ended ${a_ended} s after B's was placed"
