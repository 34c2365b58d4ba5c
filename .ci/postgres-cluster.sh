#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the shared-store tests: initdb in a temp dir owned by the postgres system
# user (the server refuses root), loopback only, a free port, trust auth. Source it, then call
#   postgres_cluster_start   # exports AGGREGATE_TEST_POSTGRES_URL and AGGREGATE_TEST_POSTGRES_DIR
#   postgres_cluster_restart # restarts it (same port, same data)
#   postgres_cluster_pause   # stops it, keeping it (an outage); postgres_cluster_resume starts it again
#   postgres_cluster_stop    # stops the server and removes the directory (also what an EXIT trap should call)
# POSTGRES_CLUSTER_OPTIONS adds server options (a TLS test turns ssl on with its own certificate).
# Locally: `source .ci/postgres-cluster.sh && postgres_cluster_start`, run the tests, `postgres_cluster_stop`.

postgres_cluster_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
    done
    return 1
}

postgres_cluster_start() {
    local bin port dir as_postgres
    bin="$(postgres_cluster_bin)" || { echo "postgres-cluster: no PostgreSQL server (apt-get install postgresql)" >&2; return 1; }
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    dir="$(mktemp -d /tmp/aggregate-pg.XXXXXX)"
    as_postgres=()
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres:postgres "$dir"
        as_postgres=(runuser -u postgres --)
    fi
    "${as_postgres[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; return 1; }
    # Kept for postgres_cluster_resume, which starts the stopped server as it was.
    echo "-p $port -c listen_addresses=127.0.0.1 -k $dir -c max_connections=300 -c fsync=off ${POSTGRES_CLUSTER_OPTIONS:-}" >"$dir/options"
    "${as_postgres[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$(cat "$dir/options")" -w start \
        >"$dir/pg_ctl.log" 2>&1 || { cat "$dir/pg_ctl.log" "$dir/server.log" >&2; return 1; }
    export AGGREGATE_TEST_POSTGRES_DIR="$dir"
    export AGGREGATE_TEST_POSTGRES_BIN="$bin"
    export AGGREGATE_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
    echo "postgres-cluster: PostgreSQL on 127.0.0.1:$port ($dir)"
}

# Restarts the server (a test of recovery); the same port and data.
postgres_cluster_restart() {
    local as_postgres=()
    [ "$(id -u)" -eq 0 ] && as_postgres=(runuser -u postgres --)
    "${as_postgres[@]}" "$AGGREGATE_TEST_POSTGRES_BIN/pg_ctl" -D "$AGGREGATE_TEST_POSTGRES_DIR/data" \
        -l "$AGGREGATE_TEST_POSTGRES_DIR/server.log" -m fast -w restart >/dev/null 2>&1
}

# Stops the server and keeps it (an outage: connections are refused until postgres_cluster_resume).
postgres_cluster_pause() {
    local as_postgres=()
    [ "$(id -u)" -eq 0 ] && as_postgres=(runuser -u postgres --)
    "${as_postgres[@]}" "$AGGREGATE_TEST_POSTGRES_BIN/pg_ctl" -D "$AGGREGATE_TEST_POSTGRES_DIR/data" -m fast -w stop >/dev/null 2>&1
}

# Starts a paused server again (same port, same data).
postgres_cluster_resume() {
    local as_postgres=()
    [ "$(id -u)" -eq 0 ] && as_postgres=(runuser -u postgres --)
    "${as_postgres[@]}" "$AGGREGATE_TEST_POSTGRES_BIN/pg_ctl" -D "$AGGREGATE_TEST_POSTGRES_DIR/data" \
        -l "$AGGREGATE_TEST_POSTGRES_DIR/server.log" -o "$(cat "$AGGREGATE_TEST_POSTGRES_DIR/options")" -w start >/dev/null 2>&1
}

postgres_cluster_stop() {
    [ -n "${AGGREGATE_TEST_POSTGRES_DIR:-}" ] || return 0
    local as_postgres=()
    [ "$(id -u)" -eq 0 ] && as_postgres=(runuser -u postgres --)
    "${as_postgres[@]}" "$AGGREGATE_TEST_POSTGRES_BIN/pg_ctl" -D "$AGGREGATE_TEST_POSTGRES_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$AGGREGATE_TEST_POSTGRES_DIR"
    unset AGGREGATE_TEST_POSTGRES_DIR AGGREGATE_TEST_POSTGRES_URL
}
