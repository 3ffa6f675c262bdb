# Sourced by the scripts that run the example server on a loopback port of its choosing.
#
#   start_server LABEL SERVER DIR SERVE-ARGS...
#
# Starts `SERVER serve --listen 127.0.0.1:0 SERVE-ARGS...` in the background, its output in
# DIR/out and DIR/err, and sets `pid` and `port` once it listens; exits 1 with the server's
# stderr when it does not within 10 s.
start_server() {
  local label="$1" server="$2" dir="$3"
  shift 3
  # A server started before in DIR left its port in DIR/out: gone before this one starts, which
  # creates the file anew in the background.
  rm -f "$dir/out" "$dir/err"
  "$server" serve --listen 127.0.0.1:0 "$@" >"$dir/out" 2>"$dir/err" &
  pid=$!
  port=""
  for _ in $(seq 1 100); do
    # The file may not be there yet: then no port, not a failure.
    port="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$dir/out" 2>/dev/null | head -1 || true)"
    [[ -n "$port" ]] && return 0
    sleep 0.1
  done
  echo "$label: the server did not start" >&2
  cat "$dir/err" >&2
  exit 1
}
