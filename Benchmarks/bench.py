#!/usr/bin/env python3
"""Runs the aggregate benchmarks side by side with their peers and prints one table.

    python3 Benchmarks/bench.py AGGREGATE_BINARY [RUNS]

Each benchmark runs the candidates in interleaved rounds (load from elsewhere on a shared machine hits every
candidate alike) and reports the median wall time and the median peak RSS (from wait4) of RUNS runs."""
import atexit, json, os, shutil, statistics, subprocess, sys, tempfile, time, urllib.request

here = os.path.dirname(os.path.abspath(__file__))
binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
lines = int(os.environ.get("LINES", "1000000"))
work = tempfile.mkdtemp(prefix="aggregate-bench-")
atexit.register(shutil.rmtree, work, True)  # manifests, homes and stores: ~60 MB a run
rows = []


def peak_rss_kib(pid):
    """VmHWM of a running process (its own peak RSS since exec), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None


def measure(command, env=None, stdout=subprocess.DEVNULL, check=True):
    """Wall seconds and peak RSS (MiB) of one run of `command`.

    The peak is the last VmHWM read while the process runs (polled every 2 ms): wait4's ru_maxrss would count
    the forked Python before exec, and on this machine /usr/bin/time reports nonsense. A process that ends
    within the first poll reports its peak as read, possibly a little low."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env={**os.environ, **(env or {})}, stdout=stdout, stderr=subprocess.PIPE)
    peak = None
    while True:
        waited, status, usage = os.wait4(process.pid, os.WNOHANG)
        if waited:
            break
        peak = peak_rss_kib(process.pid) or peak
        time.sleep(0.002)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if check and code != 0:
        sys.exit(f"{command[0]} exited {code}: {stderr[-2000:]}")
    return wall, (peak or usage.ru_maxrss) / 1024


def rounds(candidates, before=None, after=None):
    """Interleaved runs; returns {name: (median wall, median RSS)}."""
    samples = {name: [] for name, _ in candidates}
    for _ in range(runs):
        for name, (command, env) in candidates:
            if before: before(name)
            samples[name].append(measure(command, env))
            if after: after(name)
    return {name: (statistics.median(s[0] for s in values), statistics.median(s[1] for s in values))
            for name, values in samples.items()}


def add(benchmark, results, subject, goal, unit_count=None, unit=""):
    for name, (wall, rss) in results.items():
        ratio = "" if name == subject else f"{results[subject][0] / wall:.2f}"
        throughput = f"{unit_count / wall:,.0f} {unit}/s" if unit_count else ""
        rows.append((benchmark, name, f"{wall * 1000:,.0f} ms", throughput, f"{rss:,.1f} MiB", ratio, goal if name == subject else ""))


def home():
    return tempfile.mkdtemp(prefix="home-", dir=work)


# MARK: - Fan-out and warm cache

def server(delay):
    process = subprocess.Popen([sys.executable, os.path.join(here, "fanout", "server.py"), str(delay),
                                os.path.join(here, "fanout", "weather.json")], stdout=subprocess.PIPE)
    port = int(process.stdout.readline())
    return process, f"http://127.0.0.1:{port}"


def count(base, reset=False):
    return int(urllib.request.urlopen(f"{base}/__{'reset' if reset else 'count'}").read())


def weather_manifest(base, ttl, extra=None, name=""):
    sources = [{"id": f"weather{s}", "provider": "openweather", "concurrency": 10,
                "options": dict({"cities": [f"City{s}x{c}" for c in range(10)], "apiKey": "bench", "baseURL": base,
                                 "maxRetries": 0}, **(extra or {}))} for s in range(4)]
    path = os.path.join(work, f"fanout-{ttl}{name}.json")
    json.dump({"version": 1, "defaults": {"timeoutSeconds": 30, "cacheTTLSeconds": ttl}, "sources": sources},
              open(path, "w"))
    return path


def fan_out():
    process, base = server(0.1)
    try:
        manifest = weather_manifest(base, 0)
        config = os.path.join(work, "curl.txt")
        with open(config, "w") as f:
            for s in range(4):
                for c in range(10):
                    f.write(f'url = "{base}/data/2.5/weather?q=City{s}x{c}&appid=bench&units=metric"\noutput = "/dev/null"\n')
        counts = {}
        def after(name):
            counts.setdefault(name, set()).add(count(base, reset=True))
        count(base, reset=True)
        results = rounds([
            ("aggregate (4 sources x 10)", ([binary, "--manifest", manifest, "--format", "json"], {"AGGREGATE_HOME": home()})),
            ("curl --parallel --parallel-max 40", (["curl", "-s", "--parallel", "--parallel-max", "40", "-K", config], None)),
            ("curl, one by one", (["curl", "-s", "-K", config], None)),
        ], after=after)
        for name, seen in counts.items():
            if seen != {40}:
                sys.exit(f"fan-out: {name} made {seen} requests per run, expected 40")
        add("fan-out: 40 GETs, 100 ms each", results, "aggregate (4 sources x 10)", "<= 1.10x curl --parallel")
    finally:
        process.terminate()


def warm_cache():
    process, base = server(0.1)
    try:
        manifest = weather_manifest(base, 300)
        shared = home()
        command = [binary, "--manifest", manifest, "--format", "json"]
        measure(command, {"AGGREGATE_HOME": shared})
        first = count(base, reset=True)
        results = rounds([("aggregate, 2nd run in TTL", (command, {"AGGREGATE_HOME": shared}))])
        second = count(base)
        if first != 40 or second != 0:
            sys.exit(f"warm cache: the first run made {first} requests (expected 40), the next {runs} made {second} (expected 0)")
        add(f"warm cache: requests {first} then {second}", results, "aggregate, 2nd run in TTL", "0 requests")
    finally:
        process.terminate()


# MARK: - Cold start and local files

def files_manifest(name, path, fmt):
    """One files source; its timeout is raised from the default 10 s, which a loaded machine can need for 1M lines."""
    manifest = os.path.join(work, f"{name}-manifest.json")
    json.dump({"version": 1, "sources": [{"id": name, "provider": "files", "timeoutSeconds": 600,
                                          "options": {"paths": [path], "format": fmt}}]},
              open(manifest, "w"))
    return manifest


def cold_start():
    tiny = os.path.join(work, "tiny.json")
    json.dump([{"id": "1", "title": "hello", "done": False}], open(tiny, "w"))
    manifest = files_manifest("tiny", tiny, "json")
    results = rounds_n(max(20, runs), [
        ("aggregate --format json", ([binary, "--manifest", manifest, "--format", "json"], {"AGGREGATE_HOME": home()})),
        ("jq . tiny.json", (["jq", ".", tiny], None)),
    ])
    add("cold start: tiny manifest", results, "aggregate --format json", "<= 1.0x jq")


def rounds_n(n, candidates):
    global runs
    saved, runs = runs, n
    try:
        return rounds(candidates)
    finally:
        runs = saved


def issues_file():
    path = os.path.join(work, f"issues-{lines}.ndjson")
    if os.path.exists(path):
        return path
    with open(path, "w") as f:
        for i in range(lines):
            f.write(json.dumps({"id": i, "number": i + 1, "title": f"Issue number {i}", "state": "open" if i % 3 else "closed",
                                "user": {"login": f"user{i % 97}"}, "labels": ["bug"] if i % 5 == 0 else [],
                                "created_at": "2026-11-20T08:00:00Z", "comments": i % 13}) + "\n")
    return path


def local_files():
    path = issues_file()
    manifest = files_manifest("issues", path, "ndjson")
    results = rounds([
        ("aggregate --format ndjson", ([binary, "--manifest", manifest, "--format", "ndjson"], {"AGGREGATE_HOME": home()})),
        ("jq -c .", (["jq", "-c", ".", path], None)),
    ])
    add(f"local files: {lines:,}-line NDJSON", results, "aggregate --format ndjson", ">= 1.5x jq, RSS <= 64 MiB", lines, "lines")


def shaping():
    """What --jq and --dedupe cost on the NDJSON stream: every item through libjq (serialised, parsed, filtered,
    printed), or through the dedupe key set (every title distinct: the set fills and turns over)."""
    path = issues_file()
    manifest = files_manifest("issues", path, "ndjson")
    aggregate = lambda *extra: ([binary, "--manifest", manifest, "--format", "ndjson", *extra], {"AGGREGATE_HOME": home()})
    results = rounds([
        ("aggregate -f ndjson", aggregate()),
        ("aggregate -f ndjson --dedupe title", aggregate("--dedupe", "title")),
        ("aggregate -f ndjson --dedupe id", aggregate("--dedupe", "id")),
        ("aggregate -f ndjson --jq .title", aggregate("--jq", ".title")),
        ("aggregate -f ndjson --jq 'select(.fields.comments > 6) | .id'",
         aggregate("--jq", "select(.fields.comments > 6) | .id")),
        ("jq -r .title", (["jq", "-r", ".title", path], None)),
    ])
    add(f"shaping: {lines:,}-line NDJSON", results, "aggregate -f ndjson", "cost of --jq / --dedupe", lines, "lines")


def history():
    """What the item history costs (issue 40, goal: at most 10 % over no history): the same NDJSON file to -f ndjson
    with no store (AGGREGATE_HOME cannot be made: the run goes on without one), with a store recording the ids as
    items stream (no --new), with --new on a fresh store (every id recorded and checked before its item is
    printed), and with --new on a store that saw every item (all checked, none printed). Also --dedupe title,
    whose goal is at most 1.5x the plain run. LINES=200000 is the issue's size."""
    path = issues_file()
    manifest = files_manifest("issues", path, "ndjson")
    command = [binary, "--manifest", manifest, "--format", "ndjson"]
    fresh, seen = {"AGGREGATE_HOME": home()}, {"AGGREGATE_HOME": home()}
    measure(command + ["--new"], seen)  # every item recorded

    def before(name):
        if name == "--new, fresh store":
            fresh["AGGREGATE_HOME"] = home()

    results = rounds([
        ("no store", (command, {"AGGREGATE_HOME": "/dev/null/no-store"})),
        ("history, no --new", (command, {"AGGREGATE_HOME": home()})),
        ("--new, fresh store", (command + ["--new"], fresh)),
        ("--new, all seen", (command + ["--new"], seen)),
        ("--dedupe title (no store)", (command + ["--dedupe", "title"], {"AGGREGATE_HOME": "/dev/null/no-store"})),
    ], before=before)
    add(f"history: {lines:,}-line NDJSON", results, "no store", "history <= 1.10x, --dedupe title <= 1.5x", lines, "lines")


# MARK: - Feeds end to end (issue 20, goal 7)

def feeds_ndjson():
    """The files provider on the feed benchmark's 50,000-item RSS file to -f ndjson, beside a python script doing
    the same with feedparser-rs (Benchmarks/feeds/ndjson_peer.py, same output bytes)."""
    items = 50_000
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "aggregate-feed-bench", f"feed-{items}.rss")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run([sys.executable, os.path.join(here, "feeds", "generate.py"), str(items), path], check=True)
    manifest = files_manifest("feed", path, "feed")
    results = rounds([
        ("aggregate -f ndjson", ([binary, "--manifest", manifest, "-f", "ndjson"], {"AGGREGATE_HOME": home()})),
        ("feedparser-rs script", ([sys.executable, os.path.join(here, "feeds", "ndjson_peer.py"), path, "feed"], None)),
    ])
    add(f"feeds: {items:,}-item RSS to NDJSON", results, "aggregate -f ndjson", ">= 3x the feedparser-rs script", items, "items")


# Issue 20's large inputs (Benchmarks/large/formats.py): not in the default set, they take ~10 minutes.
sys.path.insert(0, os.path.join(here, "large"))
import formats as large  # noqa: E402

selected = os.environ.get("ONLY", "fanout,warm,cold,files,shape" + (",feeds-ndjson" if os.environ.get("FEEDS", "1") != "0" else "")).split(",")
for name, function in [("fanout", fan_out), ("warm", warm_cache), ("cold", cold_start), ("files", local_files),
                       ("shape", shaping), ("history", history), ("feeds-ndjson", feeds_ndjson), ("large-peers", lambda: large.peers(sys.modules[__name__])),
                       ("large-formats", lambda: large.formats(sys.modules[__name__]))]:
    if name in selected:
        print(f"running {name}…", file=sys.stderr, flush=True)
        function()

widths = [max(len(str(row[i])) for row in rows + [("benchmark", "candidate", "median wall", "throughput", "peak RSS", "subject wall ÷ this", "goal")]) for i in range(7)]
header = ("benchmark", "candidate", "median wall", "throughput", "peak RSS", "subject wall ÷ this", "goal")
print(f"runs per candidate: {runs} (cold start: {max(20, runs)}), machine: {os.cpu_count()} cores")
for row in [header] + rows:
    print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
