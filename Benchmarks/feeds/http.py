#!/usr/bin/env python3
"""Many feeds over HTTP to NDJSON, against `curl --parallel` fetching the same URLs and against the same run reading
the same feeds from local files (issue 52, goal 2: wall ≤ 1.10x the larger of the two, every source ok, peak RSS
≤ 128 MiB; and 1,000 feeds at 64 in flight ≤ 1.05x `curl --parallel`).

    python3 Benchmarks/feeds/http.py AGGREGATE_BINARY [RUNS]
    SOURCES=10000 LIMIT=256 python3 Benchmarks/feeds/http.py .build-release/release/aggregate 3
    SOURCES=1000 LIMIT=64 python3 Benchmarks/feeds/http.py .build-release/release/aggregate 5

Writes SOURCES RSS files of ITEMS (50) items, ~30 KB each (generate.py, a seed per file); the many-sources server
answers each one's URL after DELAY (0.05) seconds. No store (`AGGREGATE_HOME` cannot be made), so the figures are
the transport's and the parser's. `defaults.maxConcurrentRequests` and curl's `--parallel-max` are LIMIT. Every
aggregate run must exit 0 with SOURCES x ITEMS lines. Interleaved rounds, medians of RUNS; wall seconds, and the
aggregate runs' peak resident memory and CPU (user + system; wait4's rusage)."""
import json, os, shutil, statistics, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from generate import write_feed  # noqa: E402
from measure import measured as timed  # noqa: E402

binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
count = int(os.environ.get("SOURCES", "10000"))
items = int(os.environ.get("ITEMS", "50"))
limit = int(os.environ.get("LIMIT", "256"))
delay = os.environ.get("DELAY", "0.05")
work = tempfile.mkdtemp(prefix="aggregate-feed-http-")


def main():
    feeds = os.path.join(work, "feeds")
    os.makedirs(feeds)
    names = [f"{i:05d}.rss" for i in range(count)]
    for i, name in enumerate(names):
        write_feed(os.path.join(feeds, name), items, seed=i, name=f"feed{i}")
    server = subprocess.Popen([sys.executable, os.path.join(here, "..", "many-sources", "server.py"), delay,
                               os.path.join(feeds, names[0]), feeds], stdout=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{int(server.stdout.readline())}"
        urls = [f"{base}/feed/{name}" for name in names]

        def manifest(name, sources):
            path = os.path.join(work, name)
            json.dump({"version": 1, "defaults": {"cacheTTLSeconds": 0, "maxConcurrentRequests": limit},
                       "sources": sources}, open(path, "w"))
            return path

        over_http = manifest("http.json", [{"id": f"feed{i:05d}", "provider": "feed", "options": {"urls": [u]}}
                                           for i, u in enumerate(urls)])
        from_files = manifest("files.json", [{"id": f"feed{i:05d}", "provider": "feed",
                                              "options": {"paths": [os.path.join(feeds, n)]}} for i, n in enumerate(names)])
        config = os.path.join(work, "curl.cfg")
        with open(config, "w") as f:
            for url in urls:
                f.write(f'url = "{url}"\noutput = "/dev/null"\n')
        no_store = {"AGGREGATE_HOME": "/dev/null/no-store"}
        cases = {
            "aggregate over HTTP": lambda: timed([binary, "--manifest", over_http, "-f", "ndjson"], no_store, count * items),
            "curl --parallel": lambda: timed(["curl", "--silent", "--fail", "--parallel", "--parallel-max", str(limit),
                                              "--config", config]),
            "aggregate from files": lambda: timed([binary, "--manifest", from_files, "-f", "ndjson"], no_store, count * items),
        }
        results = {name: [] for name in cases}
        for _ in range(runs):
            for name, run in cases.items():
                results[name].append(run())
        medians = {name: statistics.median(wall for wall, _, _ in values) for name, values in results.items()}
        floor = max(medians["curl --parallel"], medians["aggregate from files"])
        print(f"{count} feeds of {items} items, {DELAY_TEXT}, limit {limit}; {runs} interleaved rounds; wall, median")
        for name, values in results.items():
            rss = max(r for _, r, _ in values)
            cpu = statistics.median(c for _, _, c in values)
            print(f"| {name} | {medians[name]:.2f} s | {medians[name] / floor:.2f}x the floor | "
                  f"{' '.join(f'{w:.2f}' for w, _, _ in values)} | CPU {cpu:.2f} s | peak RSS {rss:.1f} MiB |")
        print(f"aggregate over HTTP / curl --parallel: {medians['aggregate over HTTP'] / medians['curl --parallel']:.2f}x")
    finally:
        server.kill()


DELAY_TEXT = f"{float(delay) * 1000:.0f} ms latency"
try:
    main()
finally:
    shutil.rmtree(work, True)
