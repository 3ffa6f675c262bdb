#!/usr/bin/env bash
# The daily row budget of docs/security.md ("The newer surface"), measured: an account made with
# `init --daily-rows ROWS` (default 10,000) has CUSTOMERS customers (default 100, at most 100: a
# bulk call's limit) and floods POST /calls/bulk of all of them at 22:00 in their time zone, so
# that every item is blocked and stores the record of its decision, CONCURRENT requests at once
# (default 4), ROWS / CUSTOMERS + 20 requests in all. Prints the statuses, the rows stored
# (customers, and decisions counted page by page through the API), the flood's rate in rows a
# second, the refusal's code and Retry-After, and the statuses of the account's reads and of
# another account's write afterwards.
#
#   tools/attacks/quota.sh                  # COLLECTCALL_SERVER=path uses that binary
#
# Needs curl, jq and bc. Not run in CI.
source "$(dirname "$0")/../lib/attack.sh"
rows="${ROWS:-10000}"
count="${CUSTOMERS:-100}"
concurrent="${CONCURRENT:-4}"
attack_begin quota

a="$(account a --daily-rows "$rows")"
key="$(jq -r .apiKey <<<"$a")"
other="$(account b | jq -r .apiKey)"
serve --quiet --rate-limit 0 --now 2026-11-20T04:00:00Z  # 22:00 in Chicago: calls are blocked
customers "$key" "$count" a >"$work/ids"
calls_json "$(jq -r .agentId <<<"$a")" <"$work/ids" >"$work/calls.json"
t0="$(date +%s.%N)"
for _ in $(seq 1 $((rows / count + 20))); do echo /calls/bulk; done |
  post_each "$key" "$work/calls.json" "$concurrent" | sort | uniq -c | sed 's/^/bulk calls: /'
flood_seconds="$(seconds_since "$t0")"

decisions=0
while read -r customer; do
  cursor=""
  while :; do
    page="$(api "$key" "/customers/$customer/compliance-decisions?limit=1000${cursor:+&cursor=$cursor}")"
    decisions=$((decisions + $(jq '.data.decisions | length' <<<"$page")))
    cursor="$(jq -r '.data.nextCursor // empty' <<<"$page")"
    [[ -n "$cursor" ]] || break
  done
done <"$work/ids"
echo "rows stored: $count customers + $decisions decisions = $((count + decisions)) of a budget of $rows"
echo "the flood: $(echo "($count + $decisions) / $flood_seconds" | bc) rows a second until refused (load average $(load))"
curl -s -D "$work/headers" -o "$work/refusal" "$base/calls/bulk" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' --data-binary @"$work/calls.json"
echo "a write past it: $(head -1 "$work/headers" | tr -d '\r'), $(jq -r .error.code "$work/refusal"), $(grep -i '^retry-after' "$work/headers" | tr -d '\r')"
echo "reads afterwards: GET /customers/{id} $(curl -s -o /dev/null -w '%{http_code}' "$base/customers/$(head -1 "$work/ids")" -H "Authorization: Bearer $key")," \
  "GET .../compliance-decisions $(curl -s -o /dev/null -w '%{http_code}' "$base/customers/$(head -1 "$work/ids")/compliance-decisions" -H "Authorization: Bearer $key");" \
  "another account's POST /customers $(api "$other" /customers -o /dev/null -w '%{http_code}' -d "$(customer_json other-1)")"
