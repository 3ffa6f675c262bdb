#!/usr/bin/env bash
# The drip scheduler attack of docs/security.md ("The newer surface"), measured: account A has
# STEPS enrolments (default 20,000) whose first step comes due at the same instant as account B's
# one step; the server is then started with its clock at that instant. Two runs: call steps; then
# SMS steps of MESSAGES of A's customers (default 1,000: 20,000 would import 5 GB), each thread
# ending with an inbound e-mail of 256 KiB, which the SMS step answers. Prints, in seconds from the
# server's start, when B's step ran and when A's last enrolled customer's step ran (the backlog
# B's step was served beside), polled every 50 ms.
#
#   tools/attacks/drip.sh                 # COLLECTCALL_SERVER=path uses that binary
#
# Needs curl, jq and bc. Not run in CI (it enrols 21,000 customers, imports 256 MiB of e-mail
# and takes two to four minutes).
source "$(dirname "$0")/../lib/attack.sh"
steps="${STEPS:-20000}"
messages="${MESSAGES:-1000}"
attack_begin drip

ran() {  # KEY CUSTOMER: whether the customer's enrolment's first step ran
  [[ "$(api "$1" "/customers/$2/drip-campaigns" | jq -r '.data.dripCampaigns[0].steps[0].ranAt // empty')" != "" ]]
}

run() {  # NAME CAMPAIGN COUNT MESSAGE-BYTES
  db="$work/$1.db"
  local a b ours theirs t0 b_ran="" a_ran=""
  a="$(account a --campaign "x=$2" | jq -r .apiKey)"
  b="$(account b --campaign "x=$2" | jq -r .apiKey)"
  # 04:00Z is 22:00 in Chicago: the steps are due at 08:00 there, 14:00Z.
  serve --quiet --rate-limit 0 --now 2026-11-20T04:00:00Z
  customers "$a" "$3" a >"$work/a.ids"
  theirs="$(customers "$b" 1 b)"
  if (($4 > 0)); then
    inbound_email_json "$4" 2026-11-20T03:59:00Z >"$work/email.json"
    sed 's#.*#/customers/&/interactions/email/import#' "$work/a.ids" |
      post_each "$a" "$work/email.json" | sort | uniq -c | sed 's/^/e-mail imports: /'
  fi
  echo '{"campaignName":"x"}' >"$work/enrol.json"
  sed 's#.*#/customers/&/drip-campaigns#' "$work/a.ids" | post_each "$a" "$work/enrol.json" |
    sort | uniq -c | sed 's/^/A enrolments: /'
  echo "/customers/$theirs/drip-campaigns" | post_each "$b" "$work/enrol.json" | sed 's/^/B enrolment: /'
  ours="$(tail -1 "$work/a.ids")"
  serve_stop
  t0="$(date +%s.%N)"
  serve --quiet --rate-limit 0 --now 2026-11-20T14:00:00Z
  while [[ -z "$b_ran" || -z "$a_ran" ]]; do
    [[ -z "$b_ran" ]] && ran "$b" "$theirs" && b_ran="$(seconds_since "$t0")"
    [[ -z "$a_ran" ]] && ran "$a" "$ours" && a_ran="$(seconds_since "$t0")"
    sleep 0.05
  done
  echo "$1: $3 of A's $2 steps due with B's; B's step ran ${b_ran} s after the server started, A's last ${a_ran} s (load average $(load))"
}

run call-steps call@0 "$steps" 0
run sms-steps-256k sms@0 "$messages" $((256 * 1024 - 1024))
