#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests and benchmarks.
#   tools/pg-cluster.sh start DIR [PORT]   creates DIR, starts a cluster in it, creates the
#                                          database "collectcall" and prints its URI
#   tools/pg-cluster.sh stop DIR           stops the cluster and removes DIR
# The cluster runs as the postgres user when started as root (initdb refuses root), listens on
# 127.0.0.1 and a socket in DIR, trusts local connections, and keeps the default
# synchronous_commit and fsync (the durability the server's answers rest on).
set -euo pipefail
bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
command=${1:?start or stop}
dir=${2:?a directory}

as_owner=()
if [[ $(id -u) -eq 0 ]]; then as_owner=(runuser -u postgres --); fi

case "$command" in
  start)
    # A port below Linux's ephemeral range (32768-60999), where the system puts clients' own
    # ends of their connections; when one is taken anyway, the next try takes another.
    pick_port() { echo $((20000 + RANDOM % 12000)); }
    port=${3:-$(pick_port)}
    [[ -x "$bin/initdb" ]] || { echo "pg-cluster: no PostgreSQL binaries in $bin" >&2; exit 3; }
    mkdir -p "$dir"
    if [[ $(id -u) -eq 0 ]]; then chown postgres:postgres "$dir"; fi
    "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    for try in 1 2 3 4 5; do
      if "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400" start >/dev/null; then
        break
      fi
      if [[ -n "${3:-}" || $try -eq 5 ]] || ! grep -q "Address already in use" "$dir/server.log"; then
        cat "$dir/server.log" >&2
        exit 1
      fi
      port=$(pick_port)
    done
    "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
      -c "CREATE DATABASE collectcall" >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/collectcall"
    ;;
  stop)
    if [[ -d "$dir/data" ]]; then
      "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *) echo "pg-cluster: start or stop" >&2; exit 2 ;;
esac
