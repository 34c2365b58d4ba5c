"""The item history's cost, two builds A/B in interleaved rounds (BENCHMARKS.md, "Batches known by their digest").

    python3 Benchmarks/history_ab.py BINARY_A,BINARY_B ROUNDS MANIFEST

MANIFEST is a run's manifest (bench.py history writes one: one files source on a 200,000-line NDJSON file). Per
round and binary: no store, a store that saw every id (recorded twice by that binary first) and a new store; prints
medians and each round's ratio to the same round's run without a store."""
import os, subprocess, sys, tempfile, time, statistics, shutil
binaries = sys.argv[1].split(",")
rounds = int(sys.argv[2])
manifest = sys.argv[3]
work = tempfile.mkdtemp(prefix="history-ab-")
def run(binary, home, extra=()):
    env = dict(os.environ, AGGREGATE_HOME=home)
    t = time.perf_counter()
    subprocess.run([binary, "--manifest", manifest, "-f", "ndjson", *extra], env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t
seen = {}
for b in binaries:
    seen[b] = tempfile.mkdtemp(dir=work)
    run(b, seen[b]); run(b, seen[b])
times = {(b, k): [] for b in binaries for k in ("no store", "seen", "fresh")}
for r in range(rounds):
    for b in binaries:
        times[(b, "no store")].append(run(b, "/dev/null/no-store"))
        times[(b, "seen")].append(run(b, seen[b]))
        fresh = tempfile.mkdtemp(dir=work)
        times[(b, "fresh")].append(run(b, fresh))
        shutil.rmtree(fresh)
for b in binaries:
    base = statistics.median(times[(b, "no store")])
    print(b)
    for k in ("no store", "seen", "fresh"):
        m = statistics.median(times[(b, k)])
        ratios = sorted(t / n for t, n in zip(times[(b, k)], times[(b, "no store")]))
        print(f"  {k:9s} median {m*1000:7.0f} ms  ratio of medians {m/base:.3f}  per-round ratios {' '.join(f'{x:.2f}' for x in ratios)}")
shutil.rmtree(work)
