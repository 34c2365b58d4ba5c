#!/usr/bin/env bash
# aggregate serve under load, side by side with nginx serving the same bytes from files, in one run:
# wrk (64 connections) against /api/items?limit=50 and /feed.atom. Prints requests/s and p99 latency of both
# and the throughput ratio (aggregate ÷ nginx).
#
#   Benchmarks/serve/run.sh                         # builds the release binary as Benchmarks/run.sh does
#   AGGREGATE_BIN=path/to/aggregate DURATION=20s Benchmarks/serve/run.sh
#
# Needs wrk and nginx (installed with apt-get when missing). Both servers and wrk share this machine's cores.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
duration="${DURATION:-10s}"
connections="${CONNECTIONS:-64}"

install() {
    echo "installing $1…" >&2
    apt-get install -y "$1" > /dev/null || (apt-get update > /dev/null && apt-get install -y "$1" > /dev/null)
}
command -v wrk > /dev/null || install wrk
command -v nginx > /dev/null || install nginx-light || install nginx

binary="${AGGREGATE_BIN:-}"
if [ -z "$binary" ]; then
    build=(swift build -c release)
    [ "$(uname -s)" = Linux ] && build+=(--static-swift-stdlib)
    (cd "$root" && "${build[@]}" --product aggregate >&2)
    binary="$(cd "$root" && "${build[@]}" --show-bin-path)/aggregate"
fi

work="$(mktemp -d)"
server_pid="" nginx_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2> /dev/null || true
    wait 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Two local sources of 300 dated records each: the server's cost is the API, not the sources.
mkdir -p "$work/data" "$work/www"
python3 - "$work/data" <<'PY'
import json, sys
for name in ("alpha", "beta"):
    with open(f"{sys.argv[1]}/{name}.ndjson", "w") as out:
        for i in range(300):
            out.write(json.dumps({"id": f"{name}-{i}", "title": f"{name} record {i} with a title of some length",
                                  "url": f"https://example.org/{name}/{i}", "date": f"2026-11-{1 + i % 28:02d}T{i % 24:02d}:00:00Z",
                                  "score": i, "tags": ["bench", name]}) + "\n")
PY
cat > "$work/manifest.json" <<'JSON'
{"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
  {"id": "alpha", "provider": "files", "options": {"paths": ["data/alpha.ndjson"]}},
  {"id": "beta", "provider": "files", "options": {"paths": ["data/beta.ndjson"]}}
]}
JSON

port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
aggregate_port="$(port)"
AGGREGATE_HOME="$work/home" "$binary" serve --manifest "$work/manifest.json" --listen "127.0.0.1:$aggregate_port" 2> "$work/serve.log" &
server_pid=$!
for _ in $(seq 200); do
    curl -sf "http://127.0.0.1:$aggregate_port/readyz" > /dev/null 2>&1 && break
    sleep 0.1
done
curl -sf "http://127.0.0.1:$aggregate_port/readyz" > /dev/null || { cat "$work/serve.log" >&2; exit 1; }

# nginx serves the very bytes aggregate serves, from files.
curl -sf "http://127.0.0.1:$aggregate_port/api/items?limit=50" -o "$work/www/items.json"
curl -sf "http://127.0.0.1:$aggregate_port/feed.atom" -o "$work/www/feed.atom"
nginx_port="$(port)"
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
user root;
events { worker_connections 1024; }
http {
    access_log off;
    types { application/json json; application/atom+xml atom; }
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/www;
        location = /api/items { default_type application/json; try_files /items.json =404; }
    }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$nginx_port/feed.atom" > /dev/null 2>&1 && break
    sleep 0.1
done

measure() {  # url → "requests/s p99(ms)"
    wrk -t2 -c"$connections" -d"$duration" --latency "$1" | python3 -c '
import re, sys
text = sys.stdin.read()
rate = float(re.search(r"Requests/sec:\s*([\d.]+)", text).group(1))
value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", text).groups()
p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(rate, p99, errors.group(1) if errors else 0)'
}

printf '%-26s %14s %12s %14s %12s %10s\n' target "aggregate r/s" "p99 ms" "nginx r/s" "p99 ms" "ratio"
for target in "/api/items?limit=50|/api/items" "/feed.atom|/feed.atom"; do
    ours="${target%%|*}" theirs="${target##*|}"
    read -r a_rate a_p99 a_errors < <(measure "http://127.0.0.1:$aggregate_port$ours")
    read -r n_rate n_p99 n_errors < <(measure "http://127.0.0.1:$nginx_port$theirs")
    ratio="$(python3 -c "print(f'{$a_rate / $n_rate:.2f}')")"
    printf '%-26s %14.0f %12.2f %14.0f %12.2f %10s\n' "$ours" "$a_rate" "$a_p99" "$n_rate" "$n_p99" "$ratio"
    [ "$a_errors" = 0 ] && [ "$n_errors" = 0 ] || echo "  non-2xx responses: aggregate $a_errors, nginx $n_errors" >&2
done
echo "wrk -t2 -c$connections -d$duration; body sizes: items $(wc -c < "$work/www/items.json") B, feed $(wc -c < "$work/www/feed.atom") B; machine: $(nproc) cores"
