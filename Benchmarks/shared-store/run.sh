#!/usr/bin/env bash
# Issue 18's benchmark: PROCS aggregate processes at once on one manifest (one openweather source, CITIES
# requests, a loopback server answering after 100 ms), sharing one PostgreSQL store (AGGREGATE_STORE), against
# the same PROCS processes each with its own SQLite store. Upstream requests and wall time of each round;
# candidates interleaved round by round, medians of RUNS rounds. Prints a table and the ratios.
#
#   Benchmarks/shared-store/run.sh                   # needs a built aggregate (swift build) and PostgreSQL
#   AGGREGATE_BIN=.build/release/aggregate RUNS=5 PROCS=8 CITIES=4 Benchmarks/shared-store/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS="${RUNS:-5}"
PROCS="${PROCS:-8}"
CITIES="${CITIES:-4}"
BIN="${AGGREGATE_BIN:-$(swift build --show-bin-path)/aggregate}"
[ -x "$BIN" ] || { echo "build aggregate first (swift build), or set AGGREGATE_BIN" >&2; exit 1; }

work="$(mktemp -d /tmp/aggregate-shared-bench.XXXXXX)"
server_pid=""
source .ci/postgres-cluster.sh
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    postgres_cluster_stop
    rm -rf "$work"
}
trap cleanup EXIT
postgres_cluster_start >&2

python3 Benchmarks/fanout/server.py 0.1 Benchmarks/fanout/weather.json >"$work/port" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
port="$(cat "$work/port")"
cities="$(python3 -c "import json; print(json.dumps(['City%d' % i for i in range($CITIES)]))")"
cat >"$work/manifest.json" <<JSON
{"version": 1, "defaults": {"cacheTTLSeconds": 300},
 "sources": [{"id": "weather", "provider": "openweather", "timeoutSeconds": 60,
   "options": {"cities": $cities, "apiKey": "bench-key-0123456789abcdef0123456789", "baseURL": "http://127.0.0.1:$port",
               "maxRetries": 0}}]}
JSON

# One round: PROCS processes at once; prints "<wall ms> <upstream requests>".
round() {
    local mode="$1" n="$2" store="" start end i pids=()
    curl -s "http://127.0.0.1:$port/__reset" >/dev/null
    if [ "$mode" = postgres ]; then
        psql "$AGGREGATE_TEST_POSTGRES_URL" -X -q -c "CREATE DATABASE bench_$n" >/dev/null
        store="${AGGREGATE_TEST_POSTGRES_URL%/postgres*}/bench_$n?sslmode=disable"
    fi
    start="$(date +%s%N)"
    for i in $(seq "$PROCS"); do
        mkdir -p "$work/$mode-$n-$i"
        AGGREGATE_HOME="$work/$mode-$n-$i" AGGREGATE_STORE="$store" \
            "$BIN" --manifest "$work/manifest.json" -f ndjson -q >"$work/$mode-$n-$i.out" 2>&1 &
        pids+=($!)
    done
    for i in "${pids[@]}"; do wait "$i" || echo "bench: a $mode process failed: $(cat "$work/$mode-$n-"*.out | head -3)" >&2; done
    end="$(date +%s%N)"
    echo "$(( (end - start) / 1000000 )) $(curl -s "http://127.0.0.1:$port/__count")"
}

: >"$work/postgres"; : >"$work/sqlite"
for n in $(seq "$RUNS"); do
    round postgres "$n" >>"$work/postgres"
    round sqlite "$n" >>"$work/sqlite"
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
pg_wall="$(cut -d' ' -f1 "$work/postgres" | median)"; pg_req="$(cut -d' ' -f2 "$work/postgres" | median)"
sq_wall="$(cut -d' ' -f1 "$work/sqlite" | median)"; sq_req="$(cut -d' ' -f2 "$work/sqlite" | median)"
printf '%-48s %12s %18s\n' "candidate ($PROCS processes, $CITIES requests each)" "median wall" "upstream requests"
printf '%-48s %9s ms %18s\n' "one shared PostgreSQL store" "$pg_wall" "$pg_req"
printf '%-48s %9s ms %18s\n' "a SQLite store each" "$sq_wall" "$sq_req"
echo "requests: shared ÷ separate = $(python3 -c "print(round($pg_req / $sq_req, 3))") (goal: 1/$PROCS = $(python3 -c "print(round(1 / $PROCS, 3))"))"
echo "wall:     shared ÷ separate = $(python3 -c "print(round($pg_wall / $sq_wall, 2))")"
echo "rounds (wall ms, requests): postgres: $(tr '\n' ';' <"$work/postgres") sqlite: $(tr '\n' ';' <"$work/sqlite")"
