#!/usr/bin/env python3
"""The item archive's benchmarks (issue 49), each against a peer measured in the same run, in interleaved rounds.

    python3 Benchmarks/archive/bench.py AGGREGATE_BINARY [RUNS]

- cost: a 200,000-line NDJSON file to -f ndjson with no store, with a new store (every item archived: staged, so
  written and indexed by the next reader) and with a store that saw the same items (goal: a store's run <= 1.25x the run with no store);
- search: `aggregate search WORD --limit 50 -f ndjson` on a store of 500,000 archived items against the same
  full-text query by the sqlite3 shell on the same file, process start included in both (goal <= 2x);
- search on PostgreSQL (with AGGREGATE_BENCH_POSTGRES_URL, a database it may fill): the same against psql;
- serve: on the same 500,000 items, a running `aggregate serve` answering `/api/items?q=WORD` (first 50) and the
  Google Reader API's `stream/items/ids?n=1000`, each request timed by this script's HTTP client, against the
  same sqlite3 shell query (the floor: process start included there, a warm server here).

The items are large/generate.py's GitHub-like issues (fixed seed): the same bytes on every machine."""
import json, os, random, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "large"))
import generate  # noqa: E402

binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
work = tempfile.mkdtemp(prefix="aggregate-archive-bench-")
WORD = "regression"


def write_items(path, count, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(count):
            f.write(json.dumps(generate.issue(rng, i), ensure_ascii=False) + "\n")


def manifest(name, path):
    target = os.path.join(work, name + ".json")
    with open(target, "w") as f:
        json.dump({"version": 1, "sources": [{"id": "issues", "provider": "files", "options": {"paths": [path]}}]}, f)
    return target


def timed(command, env=None):
    start = time.perf_counter()
    subprocess.run(command, env=dict(os.environ, **(env or {})), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def report(title, times, base):
    print(title)
    reference = statistics.median(times[base])
    for name, values in times.items():
        median = statistics.median(values)
        ratios = sorted(value / peer for value, peer in zip(values, times[base]))
        print(f"  {name:34s} median {median * 1000:8.1f} ms  ratio of medians {median / reference:5.2f}  "
              f"per-round {' '.join(f'{r:.2f}' for r in ratios)}")


def cost():
    data = os.path.join(work, "cost.ndjson")
    write_items(data, 200_000, 49)
    run_manifest = manifest("cost", data)
    seen = os.path.join(work, "seen-home")
    command = [binary, "--manifest", run_manifest, "-f", "ndjson"]
    timed(command, {"AGGREGATE_HOME": seen})
    times = {"no store": [], "new store (archive, staged)": [], "store that saw them": []}
    catch_up = []
    for _ in range(runs):
        times["no store"].append(timed(command, {"AGGREGATE_HOME": "/dev/null/no-store"}))
        fresh = tempfile.mkdtemp(dir=work)
        times["new store (archive, staged)"].append(timed(command, {"AGGREGATE_HOME": fresh}))
        # Not the run's cost, but where the staged work went: the next reader writes and indexes it.
        catch_up.append(timed([binary, "archive", "stats", "--manifest", run_manifest], {"AGGREGATE_HOME": fresh}))
        shutil.rmtree(fresh)
        times["store that saw them"].append(timed(command, {"AGGREGATE_HOME": seen}))
    report("200,000-line NDJSON -> -f ndjson (goal: a store <= 1.25x no store)", times, "no store")
    print(f"  the next reader of the new store (`archive stats`, writing and indexing what was staged): median "
          f"{statistics.median(catch_up) * 1000:.1f} ms")


def archived_store():
    """The 500,000-item store (made once): its home, the run's manifest and the sqlite3 shell's query (the floor)."""
    data = os.path.join(work, "search.ndjson")
    run_manifest = manifest("search", data)
    home = os.path.join(work, "search-home")
    if not os.path.exists(home):
        write_items(data, 500_000, 50)
        timed([binary, "--manifest", run_manifest, "-f", "ndjson"], {"AGGREGATE_HOME": home})
        # The run staged its large batches; the first reader writes and indexes them (timed once, apart).
        took = timed([binary, "archive", "stats", "--manifest", run_manifest], {"AGGREGATE_HOME": home})
        print(f"  writing and indexing the 500,000 staged items (the first reader after the run): {took * 1000:.0f} ms")
    database = os.path.join(home, "aggregate.sqlite")
    peer = ["sqlite3", database, "SELECT a.item_id, a.title, a.fields FROM archive_fts JOIN archive_item a ON a.id = archive_fts.rowid "
            f"WHERE archive_fts MATCH '\"{WORD}\"' ORDER BY bm25(archive_fts, 10.0, 4.0, 1.0, 2.0) LIMIT 50"]
    return home, run_manifest, peer


def search():
    home, run_manifest, peer = archived_store()
    ours = [binary, "search", WORD, "--limit", "50", "-f", "ndjson", "--manifest", run_manifest]
    times = {"sqlite3 shell": [], "aggregate search": []}
    for _ in range(runs):
        times["sqlite3 shell"].append(timed(peer))
        times["aggregate search"].append(timed(ours, {"AGGREGATE_HOME": home}))
    report(f"search '{WORD}' (first 50) over 500,000 archived items, SQLite (goal <= 2x)", times, "sqlite3 shell")
    url = os.environ.get("AGGREGATE_BENCH_POSTGRES_URL")
    if not url:
        print("  (PostgreSQL: set AGGREGATE_BENCH_POSTGRES_URL to measure it against psql)")
        return
    timed([binary, "--manifest", run_manifest, "-f", "ndjson"], {"AGGREGATE_STORE": url})
    psql = ["psql", url.split("?")[0], "-qAt", "-c",
            "SELECT item_id, title, fields FROM archive_item WHERE search @@ to_tsquery('english', '''" + WORD + "''') "
            "ORDER BY ts_rank(search, to_tsquery('english', '''" + WORD + "''')) DESC, id LIMIT 50"]
    times = {"psql": [], "aggregate search": []}
    for _ in range(runs):
        times["psql"].append(timed(psql))
        times["aggregate search"].append(timed(ours, {"AGGREGATE_STORE": url}))
    report(f"search '{WORD}' (first 50) over 500,000 archived items, PostgreSQL (goal <= 2x)", times, "psql")


def serve():
    home, _, peer = archived_store()
    # The same source id over an empty file: its first cycle is quick, and what serve shows is the archive.
    empty = os.path.join(work, "empty.ndjson")
    open(empty, "w").close()
    serve_manifest = os.path.join(work, "serve.json")
    with open(serve_manifest, "w") as f:
        json.dump({"version": 1, "reader": {"username": "bench", "password": "bench-password"},
                   "sources": [{"id": "issues", "provider": "files", "refreshSeconds": 3600, "options": {"paths": [empty]},
                                "retention": {"days": 36500, "maxItemsPerSource": 1000000}}]}, f)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{port}", "--manifest", serve_manifest],
                              env=dict(os.environ, AGGREGATE_HOME=home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if urllib.request.urlopen(base + "/readyz", timeout=5).status == 200:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        # serve prunes after its first cycle, then refreshes SQLite's statistics: measure the server as it runs.
        database = os.path.join(home, "aggregate.sqlite")
        for _ in range(600):
            stats = subprocess.run(["sqlite3", database, "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"],
                                   capture_output=True, text=True).stdout.strip()
            if stats == "1":
                break
            time.sleep(0.1)
        login = urllib.request.urlopen(base + "/accounts/ClientLogin", data=b"Email=bench&Passwd=bench-password").read().decode()
        token = next(line[5:] for line in login.splitlines() if line.startswith("Auth="))

        def get(path, headers=None):
            def run():
                start = time.perf_counter()
                with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers or {}), timeout=60) as reply:
                    reply.read()
                return time.perf_counter() - start
            return run

        # A new request target every round (the same query, spaces after it): the rendered-body cache must not answer.
        items = [get(f"/api/items?q={WORD}{'+' * round}&limit=50") for round in range(runs)]
        ids = get("/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=1000",
                  {"Authorization": f"GoogleLogin auth={token}"})
        times = {"sqlite3 shell": [], "/api/items?q= (first 50)": [], "reader stream/items/ids n=1000": []}
        for round in range(runs):
            times["sqlite3 shell"].append(timed(peer))
            times["/api/items?q= (first 50)"].append(items[round]())
            times["reader stream/items/ids n=1000"].append(ids())
        report(f"serve over 500,000 archived items: search '{WORD}' and reader ids against the sqlite3 shell", times, "sqlite3 shell")
    finally:
        server.terminate()
        server.wait()


try:
    for name in (sys.argv[3:] or ["cost", "search", "serve"]):
        {"cost": cost, "search": search, "serve": serve}[name]()
finally:
    shutil.rmtree(work, ignore_errors=True)
