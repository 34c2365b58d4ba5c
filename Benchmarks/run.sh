#!/usr/bin/env bash
# Every benchmark of issue 9, side by side with its peer, in one table (medians of RUNS runs; ratios are
# aggregate's wall time divided by the peer's, measured in the same run):
#
#   Benchmarks/run.sh                  # fan-out, warm cache, cold start, local files, then feeds
#   RUNS=7 LINES=200000 Benchmarks/run.sh
#   ONLY=fanout,warm Benchmarks/run.sh # a subset (fanout, warm, cold, files); FEEDS=0 skips the feed benchmark
#
# Builds the release binary once; installs jq and curl with apt-get when missing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs="${RUNS:-5}"

for tool in jq curl; do
    if ! command -v "$tool" > /dev/null; then
        echo "installing $tool…" >&2
        apt-get install -y "$tool" > /dev/null || (apt-get update > /dev/null && apt-get install -y "$tool" > /dev/null)
    fi
done

(cd "$root" && swift build -c release --product aggregate >&2)
binary="$(cd "$root" && swift build -c release --show-bin-path)/aggregate"

python3 "$here/bench.py" "$binary" "$runs"

if [ "${FEEDS:-1}" != 0 ]; then
    echo
    echo "feeds (Benchmarks/feeds/run.sh):"
    RUNS="$runs" "$here/feeds/run.sh"
fi
