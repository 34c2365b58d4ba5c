#!/usr/bin/env python3
"""1,000 feed sources at once (issue 20, goal 5; issue 42), side by side with `curl --parallel` fetching the same URLs
without parsing them (the floor of this server and loopback, on the same libcurl), and with newsboat on the same feeds
when it is installed. Every aggregate run must end with every source ok (exit 0): a source lost to the run's own
backlog fails the benchmark.

    python3 Benchmarks/many-sources/bench.py AGGREGATE_BINARY [RUNS]
    LIMITS=16,64 SOURCES=1000 DELAY=0.05 python3 Benchmarks/many-sources/bench.py .build/release/aggregate 5
    LIMITS=256 SOURCES=10000 TIMEOUT=10 python3 Benchmarks/many-sources/bench.py .build/release/aggregate 3

TIMEOUT is every source's `timeoutSeconds` (default 120); at 10 (the tool's default) it checks that no source times
out while it waits for a request slot.

For each limit L (`defaults.maxConcurrentRequests`; `reload-threads` for newsboat): the wall time against the ideal
for L (ceil(SOURCES / L) waves of DELAY seconds), peak RSS (VmHWM), peak open file descriptors (/proc/PID/fd,
polled every 20 ms: the poller shares the two cores with the run it measures, and both counts change slowly), and
the server's peaks of requests in flight and open connections. Interleaved rounds, medians of RUNS."""
import atexit, json, math, os, shutil, statistics, subprocess, sys, tempfile, time, urllib.request

here = os.path.dirname(os.path.abspath(__file__))
binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
count = int(os.environ.get("SOURCES", "1000"))
delay = float(os.environ.get("DELAY", "0.05"))
limits = [int(x) for x in os.environ.get("LIMITS", "16,64").split(",")]
timeout = float(os.environ.get("TIMEOUT", "120"))
work = tempfile.mkdtemp(prefix="aggregate-many-")
atexit.register(shutil.rmtree, work, True)


def stats(base, reset=False):
    return json.loads(urllib.request.urlopen(f"{base}/__{'reset' if reset else 'stats'}").read())


def status_value(pid, key):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None


def measure(command, env=None, stdout=subprocess.DEVNULL):
    """Wall seconds, peak RSS (MiB) and peak open fds of one run; exits on failure."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env={**os.environ, **(env or {})}, stdout=stdout, stderr=subprocess.PIPE)
    peak, fds = 0, 0
    while True:
        waited, status, _ = os.wait4(process.pid, os.WNOHANG)
        if waited:
            break
        peak = max(peak, status_value(process.pid, "VmHWM:") or 0)
        try:
            fds = max(fds, len(os.listdir(f"/proc/{process.pid}/fd")))
        except OSError:
            pass
        time.sleep(0.02)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{command[0]} exited {code}: {stderr[-2000:]}")
    return wall, peak / 1024, fds


def manifest(base, limit, options=None, suffix=""):
    path = os.path.join(work, f"manifest-{limit}{suffix}.json")
    sources = [{"id": f"feed{i:04d}", "provider": "feed", "options": {"urls": [f"{base}/feed/{i}.atom"], **(options or {})}}
               for i in range(count)]
    json.dump({"version": 1, "defaults": {"timeoutSeconds": timeout, "cacheTTLSeconds": 0, "maxConcurrentRequests": limit},
               "sources": sources}, open(path, "w"))
    return path


def newsboat(base, limit):
    directory = os.path.join(work, f"newsboat-{limit}")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "urls"), "w") as urls:
        urls.writelines(f"{base}/feed/{i}.atom\n" for i in range(count))
    with open(os.path.join(directory, "config"), "w") as config:
        config.write(f"reload-threads {limit}\n")
    cache = os.path.join(directory, "cache.db")
    command = ["newsboat", "-u", os.path.join(directory, "urls"), "-C", os.path.join(directory, "config"),
               "-c", cache, "-x", "reload"]
    return command, cache, {"HOME": directory}


def curl(base, limit):
    """`curl --parallel` on the same URLs: the floor this server and loopback allow at the limit (no parsing)."""
    path = os.path.join(work, f"curl-{limit}.cfg")
    with open(path, "w") as config:
        config.writelines(f'url = "{base}/feed/{i}.atom"\noutput = "/dev/null"\n' for i in range(count))
    return ["curl", "--silent", "--parallel", "--parallel-max", str(limit), "--config", path]


def main():
    with_newsboat = shutil.which("newsboat") is not None
    if not with_newsboat:
        print("newsboat is not installed (Debian: apt-get install newsboat): measured without it", file=sys.stderr)
    server = subprocess.Popen([sys.executable, os.path.join(here, "server.py"), str(delay), os.path.join(here, "feed.atom")],
                              stdout=subprocess.PIPE)
    base = f"http://127.0.0.1:{int(server.stdout.readline())}"
    rows = []
    try:
        for limit in limits:
            ideal = math.ceil(count / limit) * delay
            aggregate = [binary, "--manifest", manifest(base, limit), "--format", "json"]
            boat, cache, boat_env = newsboat(base, limit)
            floor = curl(base, limit)
            samples = {"aggregate": [], "curl --parallel": [], **({"newsboat": []} if with_newsboat else {})}
            for _ in range(runs):
                for name in samples:
                    stats(base, reset=True)
                    if name == "aggregate":
                        result = measure(aggregate, {"AGGREGATE_HOME": tempfile.mkdtemp(dir=work)})
                    elif name == "curl --parallel":
                        result = measure(floor)
                    else:
                        if os.path.exists(cache):
                            os.remove(cache)
                        result = measure(boat, boat_env)
                    seen = stats(base)
                    if seen["requests"] != count:
                        sys.exit(f"{name} made {seen['requests']} requests, expected {count}")
                    samples[name].append((*result, seen["peakInFlight"], seen["peakConnections"]))
            medians = {name: [statistics.median(s[i] for s in values) for i in range(3)] + [max(s[3] for s in values), max(s[4] for s in values)]
                       for name, values in samples.items()}
            for name, (wall, rss, fds, in_flight, connections) in medians.items():
                rows.append((f"{count:,} feeds x {delay * 1000:.0f} ms, limit {limit}", name, f"{wall * 1000:,.0f} ms",
                             f"{wall / ideal:.2f}", f"{rss:,.1f} MiB", f"{fds:.0f}", f"{in_flight}", f"{connections}",
                             f"{medians['aggregate'][0] / wall:.2f}" if name != "aggregate" else ""))
    finally:
        server.terminate()
    header = ("benchmark", "candidate", "median wall", "÷ ideal", "peak RSS", "peak fds", "max in flight",
              "max connections", "aggregate ÷ this")
    widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
    print(f"runs per candidate: {runs}; ideal = ceil({count} / limit) x {delay * 1000:.0f} ms")
    for row in [header] + rows:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())


main()
