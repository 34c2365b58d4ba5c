#!/usr/bin/env python3
"""Many feeds from local files to NDJSON, against libxml2's own streaming parser on the same files (issue 52, goal 1).

    python3 Benchmarks/feeds/scale.py AGGREGATE_BINARY [RUNS]
    SOURCES=10000 python3 Benchmarks/feeds/scale.py .build-release/release/aggregate 3

Writes SOURCES (default 1,000) RSS files of ITEMS (default 50) items, ~30 KB each (generate.py, a seed per file),
and a manifest with one `feed` source per file (`paths`). Each round, interleaved:

- **xmllint**: `xmllint --stream --noout` over every file, one process (the floor: libxml2's reader alone);
- **aggregate, no store**: `aggregate -f ndjson` with no store to keep items in (`AGGREGATE_HOME` cannot be made):
  reading, parsing and writing alone;
- **aggregate, new store**: `aggregate -f ndjson` into a new store (`AGGREGATE_HOME` empty: every item is new to
  the history and the archive);
- **aggregate, seen store**: the same run again on that store (every item already kept).

The figure is CPU time (user + system, from the process's rusage), which holds on a machine shared with other work
where wall time does not. Every aggregate run must exit 0 with SOURCES × ITEMS lines on stdout. Medians of RUNS."""
import json, os, shutil, statistics, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import write_feed  # noqa: E402
from measure import measured  # noqa: E402

binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
count = int(os.environ.get("SOURCES", "1000"))
items = int(os.environ.get("ITEMS", "50"))
work = tempfile.mkdtemp(prefix="aggregate-feed-scale-")


def cpu(command, env=None, expect_lines=None):
    """CPU seconds (user + system) of one run; exits when it fails or writes the wrong number of lines."""
    return measured(command, env, expect_lines)[2]


def main():
    feeds = os.path.join(work, "feeds")
    os.makedirs(feeds)
    paths = []
    for i in range(count):
        path = os.path.join(feeds, f"{i:05d}.rss")
        write_feed(path, items, seed=i, name=f"feed{i}")
        paths.append(path)
    manifest = os.path.join(work, "manifest.json")
    json.dump({"version": 1, "defaults": {"cacheTTLSeconds": 0},
               "sources": [{"id": f"feed{i:05d}", "provider": "feed", "options": {"paths": [p]}}
                           for i, p in enumerate(paths)]}, open(manifest, "w"))
    size = sum(os.path.getsize(p) for p in paths) / 1e6
    print(f"{count} feeds of {items} items, {size:.1f} MB; {runs} interleaved rounds; CPU seconds, median")
    command = [binary, "--manifest", manifest, "-f", "ndjson"]
    results = {"xmllint --stream --noout": [], "aggregate, no store": [], "aggregate, new store": [],
               "aggregate, seen store": []}
    for _ in range(runs):
        results["xmllint --stream --noout"].append(cpu(["xmllint", "--stream", "--noout", *paths]))
        results["aggregate, no store"].append(cpu(command, {"AGGREGATE_HOME": "/dev/null/no-store"}, count * items))
        home = tempfile.mkdtemp(dir=work)
        env = {"AGGREGATE_HOME": home}
        results["aggregate, new store"].append(cpu(command, env, count * items))
        results["aggregate, seen store"].append(cpu(command, env, count * items))
        shutil.rmtree(home)
    floor = statistics.median(results["xmllint --stream --noout"])
    for name, values in results.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.3f} | {median / floor:.2f}x | {' '.join(f'{v:.2f}' for v in values)} |")


try:
    main()
finally:
    shutil.rmtree(work, True)
