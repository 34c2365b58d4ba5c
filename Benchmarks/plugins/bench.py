#!/usr/bin/env python3
"""WebAssembly plugins (issue 50), each against a peer measured in the same run, in interleaved rounds.

    python3 Benchmarks/plugins/bench.py AGGREGATE_BINARY [RUNS]
    python3 Benchmarks/plugins/bench.py AGGREGATE_BINARY --fuel-rate

- fixed cost: one run of N plugin sources whose plugin (noop.c) is instantiated, called and returns, against one
  run of N exec sources spawning /bin/true (goal <= 1.0x); N = SOURCES (default 50), so the sources' cost and not
  the process's start is what is compared; the per-source cost is the run's wall time less a run of one source of
  the same kind, over N - 1;
- records: one source mapping a 10,000-record JSON response (fetched from a loopback server) to items: the Rust
  example plugin (Examples/plugins/rust-records) against records_peer.py, an exec program doing the same in
  Python (goal <= 2x);
- --fuel-rate: how much fuel WasmKit's interpreter burns in a second here: a plugin looping without calls
  (spin.c) with FUEL fuel (default 3e9) and a timeout it never reaches, timed to "ran out of fuel".

Plugins are built from source first (clang --target=wasm32-wasi with wasi-libc; Debian's rustc 1.63)."""
import http.server, json, os, random, shutil, statistics, subprocess, sys, tempfile, threading, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", ".."))
binary = os.path.abspath(sys.argv[1])
fuel_rate = len(sys.argv) > 2 and sys.argv[2] == "--fuel-rate"
runs = int(sys.argv[2]) if len(sys.argv) > 2 and not fuel_rate else 5
sources = int(os.environ.get("SOURCES", "50"))
work = tempfile.mkdtemp(prefix="aggregate-plugin-bench-")
clang = os.environ.get("CLANG", "/opt/swift/usr/bin/clang")


def build_c(name, flags=(), out_name=None):
    out = os.path.join(work, (out_name or name) + ".wasm")
    subprocess.run([
        clang, *flags, "--target=wasm32-wasi", "--sysroot=/usr", "-isystem", "/usr/include/wasm32-wasi", "-L/usr/lib/wasm32-wasi",
        "-O2", "-mexec-model=reactor", "-nostdlib", "-Wl,--no-entry", "-I", os.path.join(root, "Examples/plugins/include"),
        os.path.join(here, name + ".c"), "-lc", "-o", out], check=True)
    return out


def write_manifest(name, document):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def timed(manifest, check=True):
    """Wall seconds of one run (its own new home, so no run finds another's store), and its stdout."""
    home = tempfile.mkdtemp(dir=work)
    start = time.perf_counter()
    result = subprocess.run(
        [binary, "--manifest", manifest, "--format", "ndjson"], env=dict(os.environ, AGGREGATE_HOME=home),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    shutil.rmtree(home, True)
    if check and result.returncode != 0:
        sys.exit(f"{manifest}: exit {result.returncode}: {result.stderr.decode()[-2000:]}")
    return wall, result


def interleaved(candidates):
    times = {name: [] for name in candidates}
    for _ in range(runs):
        for name, manifest in candidates.items():
            times[name].append(timed(manifest)[0])
    return {name: statistics.median(values) for name, values in times.items()}


def plugin_manifest(name, module, count, options=None, hosts=(), timeout=30, fuel=None):
    plugin = {"name": name, "module": module, "allowedHosts": list(hosts)}
    if fuel:
        plugin["fuel"] = fuel
    return {"version": 1, "plugins": [plugin],
            "sources": [{"id": f"{name}-{i}", "provider": name, "timeoutSeconds": timeout, "options": options or {}}
                        for i in range(count)]}


def exec_manifest(command, count, config=None):
    return {"version": 1, "sources": [
        {"id": f"exec-{i}", "provider": "exec", "options": {"command": command, "config": config or {}}} for i in range(count)]}


if fuel_rate:
    fuel = int(float(os.environ.get("FUEL", "3e9")))
    empty = write_manifest("empty", plugin_manifest("noop", build_c("noop"), 1))
    for label, module in [("lone branch", build_c("spin", out_name="spin-empty", flags=["-DEMPTY"])),
                          ("load, add, store, branch", build_c("spin"))]:
        document = plugin_manifest("spin", module, 1, timeout=3600)
        document["plugins"][0]["fuel"] = fuel
        manifest = write_manifest("spin", document)
        for _ in range(3):
            wall, result = timed(manifest, check=False)
            base = timed(empty)[0]
            assert b"ran out of fuel" in result.stderr, result.stderr[-500:]
            print(f"{label}: fuel {fuel:.3g} in {wall - base:.2f} s (run {wall:.2f} s less a noop run {base:.2f} s): "
                  f"{fuel / (wall - base) / 1e6:.0f} M fuel/s")
    sys.exit(0)

# Fixed cost.
noop = build_c("noop")
candidates = {
    f"plugin x{sources}": write_manifest("plugin-n", plugin_manifest("noop", noop, sources)),
    f"exec /bin/true x{sources}": write_manifest("exec-n", exec_manifest(["/bin/true"], sources)),
    "plugin x1": write_manifest("plugin-1", plugin_manifest("noop", noop, 1)),
    "exec /bin/true x1": write_manifest("exec-1", exec_manifest(["/bin/true"], 1)),
}
medians = interleaved(candidates)
print(f"fixed cost, {runs} interleaved rounds, median wall:")
for name, median in medians.items():
    print(f"  {name:24} {median * 1000:8.1f} ms")
plugin_each = (medians[f"plugin x{sources}"] - medians["plugin x1"]) / (sources - 1)
exec_each = (medians[f"exec /bin/true x{sources}"] - medians["exec /bin/true x1"]) / (sources - 1)
print(f"  per source: plugin {plugin_each * 1000:.2f} ms, exec {exec_each * 1000:.2f} ms; "
      f"run ratio {medians[f'plugin x{sources}'] / medians[f'exec /bin/true x{sources}']:.2f}x, "
      f"per-source ratio {plugin_each / exec_each:.2f}x (goal <= 1.0x)")

# Records.
rng = random.Random(50)
records = [{"id": i, "title": f"Record {i}", "url": f"https://example.com/records/{i}",
            "score": round(rng.random() * 100, 2), "tags": rng.sample(["a", "b", "c", "d", "e"], 2),
            "owner": {"login": f"user{rng.randrange(1000)}", "admin": rng.random() < 0.1}} for i in range(10_000)]
body = json.dumps(records).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/records"
rust = os.path.join(work, "records.wasm")
subprocess.run(["/bin/sh", os.path.join(root, "Examples/plugins/rust-records/build.sh"), rust], check=True)
candidates = {
    "plugin (Rust) 10,000 records": write_manifest("records-plugin", plugin_manifest(
        "records", rust, 1, options={"url": url}, hosts=["127.0.0.1"], fuel=int(float(os.environ.get("RECORDS_FUEL", "2e10"))))),
    "exec Python 10,000 records": write_manifest("records-exec", exec_manifest(
        ["python3", os.path.join(here, "records_peer.py")], 1, config={"url": url})),
}
for manifest in candidates.values():
    lines = timed(manifest)[1].stdout.count(b"\n")
    assert lines == 10_000, f"{manifest}: {lines} items"
medians = interleaved(candidates)
print(f"records, {runs} interleaved rounds, median wall:")
for name, median in medians.items():
    print(f"  {name:30} {median * 1000:8.1f} ms")
ratio = medians["plugin (Rust) 10,000 records"] / medians["exec Python 10,000 records"]
print(f"  ratio {ratio:.2f}x (goal <= 2x)")
server.shutdown()
shutil.rmtree(work, True)
