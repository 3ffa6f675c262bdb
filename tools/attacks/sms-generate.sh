#!/usr/bin/env bash
# The sms/generate attack of docs/security.md ("The newer surface"), measured: one customer's
# thread ends with an inbound e-mail of 256 KiB, another's with a short SMS; REQUESTS (default
# 50) POST .../interactions/sms/generate with {"from": ..., "persist": false} for each, one after
# the other. Prints the median and the longest time of each, in milliseconds, as curl sees them.
#
#   tools/attacks/sms-generate.sh           # COLLECTCALL_SERVER=path uses that binary
#
# Needs curl, jq and bc. Not run in CI.
source "$(dirname "$0")/../lib/attack.sh"
requests="${REQUESTS:-50}"
attack_begin sms-generate

key="$(account a | jq -r .apiKey)"
serve --quiet --rate-limit 0 --now 2026-11-20T15:00:00Z
{ read -r long; read -r short; } < <(customers "$key" 2 c)
inbound_email_json $((256 * 1024 - 1024)) 2026-11-20T14:59:00Z >"$work/email.json"
api "$key" "/customers/$long/interactions/email/import" --data-binary @"$work/email.json" | jq -r '"long: imported \(.data.id)"'
api "$key" "/customers/$short/interactions/sms/import" \
  -d '{"direction":"inbound","timestamp":"2026-11-20T14:59:00Z","from":"+13125550123","to":"+12025550100","body":"Can I pay next week?"}' |
  jq -r '"short: imported \(.data.id)"'
body='{"from":"+12025550100","persist":false}'
for customer in long short; do
  for _ in $(seq 1 "$requests"); do
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "$base/customers/${!customer}/interactions/sms/generate" \
      -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d "$body"
  done | sort -n -k2 | awk -v c="$customer" '{t[NR] = $2 * 1000; s[$1]++} END {
    for (code in s) statuses = statuses " " s[code] "x" code
    printf "%s: median %.1f ms, longest %.1f ms over %d requests (statuses:%s)\n", c, t[int((NR + 1) / 2)], t[NR], NR, statuses }'
done
echo "the request's body: ${#body} bytes; load average $(load)"
