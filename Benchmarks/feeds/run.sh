#!/usr/bin/env bash
# Feed parsing benchmark: a generated 50,000-item RSS 2.0 file (~31 MB, every item with a pubDate), parsed
# by FeedParsing (release build) and by Python's feedparser and feedparser-rs, in the same run on the same
# file. Prints each parser's median items/s and peak RSS, and FeedParsing's ratios against the peers.
#
#   Benchmarks/feeds/run.sh            # 5 runs each (feedparser takes ~30 s a run)
#   RUNS=3 ITEMS=20000 Benchmarks/feeds/run.sh
#   BASELINE=/tmp/main/.build/release/feed-bench PEERS=0 Benchmarks/feeds/run.sh   # against another build only
#
# BASELINE: a feed-bench binary built from another commit (e.g. main, `swift build -c release --static-swift-stdlib
# --product feed-bench` in a clone), run in the same rounds as a peer. PEERS=0 leaves out the Python parsers.
# Targets (issue "feeds"): >= 50x feedparser, >= 1.5x feedparser-rs items/s, peak RSS <= 64 MiB.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${RUNS:-5}"
items="${ITEMS:-50000}"
work="${TMPDIR:-/tmp}/aggregate-feed-bench"
file="$work/feed-$items.rss"
mkdir -p "$work"

peers="${PEERS:-1}"
if [ "$peers" = 1 ] && ! python3 -c "import feedparser, feedparser_rs" 2>/dev/null; then
    echo "installing the Python peers (feedparser, feedparser-rs)…" >&2
    python3 -m pip install --quiet feedparser feedparser-rs >&2
fi
[ -f "$file" ] || python3 "$here/generate.py" "$items" "$file"
# Same build flags as Benchmarks/run.sh (a static release on Linux), so running both does not rebuild twice.
build=(swift build -c release)
[ "$(uname -s)" = Linux ] && build+=(--static-swift-stdlib)
(cd "$root" && "${build[@]}" --product feed-bench >&2)
bench="$(cd "$root" && "${build[@]}" --show-bin-path)/feed-bench"

# name|command — each prints "entries seconds peak_rss_kib dated_entries".
parsers=(
    "FeedParsing (collect)|$bench $file"
    "FeedParsing (stream)|$bench --stream $file"
)
if [ -n "${BASELINE:-}" ]; then
    parsers+=("baseline (collect)|$BASELINE $file" "baseline (stream)|$BASELINE --stream $file")
fi
if [ "$peers" = 1 ]; then
    parsers+=(
        "feedparser-rs $(python3 -c 'import importlib.metadata as m; print(m.version("feedparser-rs"))')|python3 $here/peers.py feedparser-rs $file"
        "feedparser $(python3 -c 'import importlib.metadata as m; print(m.version("feedparser"))')|python3 $here/peers.py feedparser $file"
    )
fi

results="$work/results.txt"
: > "$results"
# Interleaved rounds, so load from elsewhere on a shared machine hits every parser alike.
for round in $(seq "$runs"); do
    for entry in "${parsers[@]}"; do
        name="${entry%%|*}"
        command="${entry#*|}"
        echo "round $round/$runs: $name" >&2
        echo "$name|$($command)" >> "$results"
    done
done

python3 - "$results" "$file" <<'PY'
import statistics, sys, os
rows = {}
for line in open(sys.argv[1]):
    name, values = line.rstrip("\n").split("|")
    entries, seconds, rss, dated = values.split()
    rows.setdefault(name, []).append((int(entries), float(seconds), int(rss), int(dated)))
size = os.path.getsize(sys.argv[2]) / 1e6
print(f"\n{os.path.basename(sys.argv[2])}: {size:.1f} MB, median of {len(next(iter(rows.values())))} runs\n")
print(f"| parser | entries (dated) | median s | items/s | peak RSS MiB |")
print(f"|---|---:|---:|---:|---:|")
rate = {}
for name, runs in rows.items():
    entries, dated = runs[0][0], runs[0][3]
    seconds = statistics.median(r[1] for r in runs)
    rss = max(r[2] for r in runs) / 1024
    rate[name] = entries / seconds
    print(f"| {name} | {entries} ({dated}) | {seconds:.3f} | {rate[name]:,.0f} | {rss:.1f} |")
ours = [n for n in rate if n.startswith("FeedParsing")]
peers = [n for n in rate if not n.startswith("FeedParsing")]
for mine in ours:
    base = "baseline" + mine[len("FeedParsing"):]
    if base in rate:
        print(f"{mine} vs {base}: {rate[mine] / rate[base]:.2f}x items/s")
print()
for mine in ours:
    print(f"{mine}: " + ", ".join(f"{rate[mine] / rate[p]:.1f}x {p.split()[0]}" for p in peers))
PY
