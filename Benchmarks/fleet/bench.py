#!/usr/bin/env python3
"""Issue 41's benchmark: the shared PostgreSQL store against SQLite for one process, and a fleet of workers
against one worker, on feed sources of distinct URLs served by the many-sources server (one Atom feed, DELAY
seconds of latency). Needs a PostgreSQL server: AGGREGATE_TEST_POSTGRES_URL (as the tests), a fresh database per
round. Interleaved rounds, medians of RUNS; CPU is user + sys of the aggregate processes (wait4's rusage).

    python3 Benchmarks/fleet/bench.py AGGREGATE_BINARY [RUNS]
    SOURCES=300 FLEET_SOURCES=2000 WORKERS=2 DELAY=0.05 python3 Benchmarks/fleet/bench.py .build/release/aggregate 3

CLIENT_CPUS=1 runs every aggregate process in a cgroup (v1 cpu controller, as root) with a quota of that many cores,
so that the database server has the rest of the machine and a round trip's cost is not hidden by the two sharing
cores (issue 52's third goal: PostgreSQL against SQLite with the process limited to one core).

BATCH sets the workers' --batch (50). With a slow server (DELAY=0.5) and small batches (BATCH=10) a worker is bound by
its own sources in flight (4 batches), as workers on machines of their own are, rather than by this machine's cores.

Rows:
  one process, SQLite / PostgreSQL, plain and --new (SOURCES sources, cacheTTLSeconds 300): wall and CPU
  1 worker / WORKERS workers --once (FLEET_SOURCES sources): wall, total CPU, every source fetched once

SCALE=20000 runs only the scale case instead: WORKERS long-running workers (not --once) on SCALE sources of
refreshSeconds INTERVAL (300), all due at once when the first worker registers, until each ran once: how long that
took, the schedule lag (the age of the oldest due source nobody held, sampled every 0.5 s: an upper bound of every
claim's lag but for the 0.5 s between samples; and the time until 99 % of the sources had been requested, which
bounds the p99 claim lag from above, as they were all due at the start, counted from the registration), peak RSS
per worker, total CPU.

    SCALE=20000 WORKERS=4 python3 Benchmarks/fleet/bench.py .build/release/aggregate
"""
import atexit, json, os, resource, shutil, statistics, subprocess, sys, tempfile, time, urllib.parse, urllib.request, uuid

here = os.path.dirname(os.path.abspath(__file__))
binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
sources = int(os.environ.get("SOURCES", "300"))
fleet_sources = int(os.environ.get("FLEET_SOURCES", "2000"))
workers = int(os.environ.get("WORKERS", "2"))
delay = os.environ.get("DELAY", "0.05")
batch = int(os.environ.get("BATCH", "50"))
server_url = os.environ.get("AGGREGATE_TEST_POSTGRES_URL")
if not server_url:
    sys.exit("set AGGREGATE_TEST_POSTGRES_URL (source .ci/postgres-cluster.sh && postgres_cluster_start)")
work = tempfile.mkdtemp(prefix="aggregate-fleet-")
client_cpus = float(os.environ.get("CLIENT_CPUS", "0"))
cgroup = None
if client_cpus:
    cgroup = f"/sys/fs/cgroup/cpu/aggregate-bench-{os.getpid()}"
    os.mkdir(cgroup)
    with open(os.path.join(cgroup, "cpu.cfs_period_us"), "w") as file:
        file.write("100000")
    with open(os.path.join(cgroup, "cpu.cfs_quota_us"), "w") as file:
        file.write(str(int(client_cpus * 100000)))

    def remove_cgroup():
        try:
            os.rmdir(cgroup)
        except OSError as error:  # a process still in it (killed, not yet reaped)
            print(f"left {cgroup}: {error}", file=sys.stderr)
    atexit.register(remove_cgroup)  # registered first, so it runs after the workers are killed


def into_cgroup():
    """In the child before exec: the aggregate process joins the client's cgroup."""
    if cgroup:
        with open(os.path.join(cgroup, "tasks"), "w") as file:
            file.write(str(os.getpid()))

server = subprocess.Popen(
    [sys.executable, os.path.join(here, "../many-sources/server.py"), delay, os.path.join(here, "../many-sources/feed.atom")],
    stdout=subprocess.PIPE, text=True)
port = int(server.stdout.readline())
base = f"http://127.0.0.1:{port}"


def stats(reset=False):
    with urllib.request.urlopen(f"{base}/__{'reset' if reset else 'stats'}") as answer:
        return json.load(answer)


def manifest(count, name, interval=None):
    path = os.path.join(work, name)
    defaults = {"cacheTTLSeconds": 300, "timeoutSeconds": 120}
    if interval:
        defaults["refreshSeconds"] = interval
    with open(path, "w") as file:
        json.dump({"version": 1, "defaults": defaults,
                   "sources": [{"id": f"s{i:05d}", "provider": "feed", "options": {"urls": [f"{base}/feed/{i}"]}}
                               for i in range(count)]}, file)
    return path


def database():
    name = "fleet_bench_" + uuid.uuid4().hex
    subprocess.run(["psql", server_url, "-X", "-q", "-c", f"CREATE DATABASE {name}"], check=True)
    parts = urllib.parse.urlsplit(server_url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def start(arguments, store):
    environment = dict(os.environ, AGGREGATE_HOME=tempfile.mkdtemp(dir=work), NO_COLOR="1")
    if store:
        environment["AGGREGATE_STORE"] = store
    # stderr to a file: a pipe nobody reads until the end fills up and stops the process writing to it.
    log = tempfile.NamedTemporaryFile(dir=work, delete=False)
    process = subprocess.Popen([binary] + arguments, env=environment, stdout=subprocess.DEVNULL, stderr=log,
                               preexec_fn=into_cgroup)
    process.log = log.name
    return process


def finish(process):
    _, status, usage = os.wait4(process.pid, 0)
    stderr = open(process.log).read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0 or "warning" in stderr:
        sys.exit(f"aggregate exited {code}: {stderr[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def one_process(store_kind, new):
    store = database() if store_kind == "postgres" else None
    path = manifest(sources, "one.json")
    arguments = ["-f", "ndjson", "--manifest", path] + (["--new"] if new else [])
    stats(reset=True)
    began = time.monotonic()
    cpu = finish(start(arguments, store))
    wall = time.monotonic() - began
    requests = stats()["requests"]
    assert requests == sources, f"{requests} requests for {sources} sources"
    return wall, cpu


def fleet(count):
    store = database()
    path = manifest(fleet_sources, "fleet.json")
    stats(reset=True)
    began = time.monotonic()
    processes = [start(["worker", "--once", "--batch", str(batch), "--manifest", path], store) for _ in range(count)]
    cpu = sum(finish(process) for process in processes)
    wall = time.monotonic() - began
    requests = stats()["requests"]
    assert requests == fleet_sources, f"{requests} requests for {fleet_sources} sources"
    return wall, cpu


def psql(store, sql):
    """The answer, or "" while the workers have not created the schema yet."""
    answer = subprocess.run(["psql", store, "-X", "-A", "-t", "-q", "-c", sql], capture_output=True, text=True)
    return answer.stdout.strip() if answer.returncode == 0 else ""


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def scale(count, workers, interval):
    store = database()
    path = manifest(count, "scale.json", interval)
    stats(reset=True)
    began = time.monotonic()
    processes = [start(["worker", "--manifest", path], store) for _ in range(workers)]
    # Workers run until stopped: stop them whatever happens here.
    atexit.register(lambda: [p.kill() for p in processes if p.poll() is None])
    now = "EXTRACT(EPOCH FROM now())"
    max_lag, p99_at, registered, rss = 0.0, None, None, [0.0] * workers
    while True:
        time.sleep(0.5)
        requests = stats()["requests"]
        if registered is None:
            # Every source is due from the registration on; until one completed it, the oldest due_at says when.
            registered = float(psql(store, "SELECT MIN(due_at) FROM fleet_source") or 0) or None
        if p99_at is None and registered and requests >= 0.99 * count:
            p99_at = float(psql(store, f"SELECT {now}") or 0) - registered
        lag = psql(store, f"""SELECT COALESCE(MAX({now} - due_at), 0) FROM fleet_source
                               WHERE due_at <= {now} AND (claim_until IS NULL OR claim_until < {now})""")
        max_lag = max(max_lag, float(lag or 0))
        rss = [max(peak_rss_mib(p.pid), old) for p, old in zip(processes, rss)]
        finished = psql(store, "SELECT count(*) FROM fleet_source WHERE last_finished_at IS NOT NULL")
        if int(finished or 0) >= count:
            break
        if time.monotonic() - began > 3 * interval:
            sys.exit(f"only {finished} of {count} sources finished in {3 * interval} s")
    drained = time.monotonic() - began
    for process in processes:
        process.send_signal(15)
    cpu = sum(finish(process) for process in processes)
    requests = stats()["requests"]
    assert requests == count, f"{requests} requests for {count} sources: some ran twice or never"
    print(f"| {count} sources, {workers} workers, refreshSeconds {interval} | value |")
    print("|---|---:|")
    print(f"| every source ran once (requests) | {requests} |")
    print(f"| until each had run | {drained:.1f} s |")
    print(f"| schedule lag p99 (99 % requested) | {p99_at:.1f} s |")
    print(f"| schedule lag max (sampled) | {max_lag:.1f} s |")
    print(f"| peak RSS per worker | {', '.join(f'{r:.0f}' for r in rss)} MiB |")
    print(f"| CPU, all workers | {cpu:.1f} s |")


if os.environ.get("SCALE"):
    try:
        scale(int(os.environ["SCALE"]), workers, int(os.environ.get("INTERVAL", "300")))
    finally:
        server.terminate()
        shutil.rmtree(work, True)
    sys.exit(0)

rows = {}
cases = [(f"one process, SQLite, {sources} sources", lambda: one_process("sqlite", False)),
         (f"one process, PostgreSQL, {sources} sources", lambda: one_process("postgres", False)),
         (f"one process, SQLite, --new", lambda: one_process("sqlite", True)),
         (f"one process, PostgreSQL, --new", lambda: one_process("postgres", True)),
         (f"1 worker --once, {fleet_sources} sources", lambda: fleet(1)),
         (f"{workers} workers --once, {fleet_sources} sources", lambda: fleet(workers))]
try:
    for _ in range(runs):
        for name, case in cases:
            rows.setdefault(name, []).append(case())
finally:
    server.terminate()
    shutil.rmtree(work, True)

print(f"| case | wall (median of {runs}) | CPU user+sys |")
print("|---|---:|---:|")
median = {name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values)) for name, values in rows.items()}
for name, (wall, cpu) in median.items():
    print(f"| {name} | {wall:.2f} s | {cpu:.2f} s |")
names = list(median)
print()
print(f"PostgreSQL / SQLite, plain: {median[names[1]][0] / median[names[0]][0]:.2f}x wall")
print(f"PostgreSQL / SQLite, --new: {median[names[3]][0] / median[names[2]][0]:.2f}x wall")
print(f"{workers} workers / 1 worker: {median[names[5]][0] / median[names[4]][0]:.2f}x wall, "
      f"{median[names[5]][1] / median[names[4]][1]:.2f}x CPU")
