#!/usr/bin/env bash
# Every benchmark of issue 9, side by side with its peer, in one table (medians of RUNS runs; ratios are
# aggregate's wall time divided by the peer's, measured in the same run):
#
#   Benchmarks/run.sh                  # fan-out, warm cache, cold start, local files, then feeds
#   RUNS=7 LINES=200000 Benchmarks/run.sh
#   ONLY=fanout,warm Benchmarks/run.sh # a subset (fanout, warm, cold, files, shape, feeds-ndjson); FEEDS=0 skips the
#                                      # feed benchmarks, MANY=0 the 1,000-source one
#   ONLY=feeds-ndjson FEEDS=0 MANY=0 Benchmarks/run.sh  # the files provider on the 50,000-item RSS file to -f ndjson
#                                      # beside a feedparser-rs script writing the same lines (issue 20, goal 7)
#   ONLY=large-peers,large-formats FEEDS=0 Benchmarks/run.sh   # issue 20's large inputs (Benchmarks/large/), not by default
#
# Builds the release binary once, the way a release ships (on Linux with the Swift runtime and Foundation
# linked in statically: --static-swift-stdlib, see README "Installing"); installs jq, curl and, for that
# static link, libcurl's development files (libcurl4-openssl-dev) with apt-get when missing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs="${RUNS:-5}"

install() {
    echo "installing $1…" >&2
    apt-get install -y "$1" > /dev/null || (apt-get update > /dev/null && apt-get install -y "$1" > /dev/null)
}
for tool in jq curl; do
    command -v "$tool" > /dev/null || install "$tool"
done
command -v mlr > /dev/null || install miller  # the CSV peer of the large inputs
# The peer of feeds end to end (bench.py's feeds-ndjson, Benchmarks/feeds/ndjson_peer.py).
if [ "${FEEDS:-1}" != 0 ] || [[ ",${ONLY:-}," == *,feeds-ndjson,* ]]; then
    python3 -c "import feedparser_rs" 2> /dev/null || python3 -m pip install --quiet feedparser-rs >&2
fi

build=(swift build -c release)
if [ "$(uname -s)" = Linux ]; then
    # CCurl compiles against libcurl's headers (the library itself is loaded by the first request).
    [ -n "$(ls /usr/include/curl/curl.h /usr/include/*/curl/curl.h 2>/dev/null)" ] || install libcurl4-openssl-dev
    build+=(--static-swift-stdlib)
fi
(cd "$root" && "${build[@]}" --product aggregate >&2)
binary="$(cd "$root" && "${build[@]}" --show-bin-path)/aggregate"
# libcurl, libxml2 and libjq are loaded by the first call that needs them (Sources/CLibraryOnDemand), never by the
# dynamic loader.
if command -v readelf > /dev/null; then
    for library in libcurl libxml2 libjq; do
        if readelf -d "$binary" | grep -q "NEEDED.*$library"; then
            echo "warning: $binary names $library as a needed library: every start pays for it (see BENCHMARKS.md)" >&2
        fi
    done
    # The tool exports no symbols of its own (Package.swift, --no-export-dynamic): a few hundred from libraries.
    exported="$(readelf --dyn-syms -W "$binary" | wc -l)"
    if [ "$exported" -gt 5000 ]; then
        echo "warning: $binary exports $exported dynamic symbols: every start pays for them (see BENCHMARKS.md)" >&2
    fi
fi

python3 "$here/bench.py" "$binary" "$runs"

if [ "${MANY:-1}" != 0 ]; then
    echo
    echo "1,000 sources at once (Benchmarks/many-sources/bench.py; newsboat installed when missing):"
    command -v newsboat > /dev/null || install newsboat
    python3 "$here/many-sources/bench.py" "$binary" "$runs"
fi

if [ "${FEEDS:-1}" != 0 ]; then
    echo
    echo "feeds (Benchmarks/feeds/run.sh):"
    RUNS="$runs" "$here/feeds/run.sh"
fi
