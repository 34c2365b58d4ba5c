"""Issue 20's large inputs, run by bench.py (`ONLY=large`, or `ONLY=large-peers` / `ONLY=large-formats`):

- peers: each input to `-f ndjson` beside its peer in the same rounds (jq -c ., jq -c '.[]', mlr --icsv --ojsonl cat);
- formats: every output format (and --sort date, --dedupe) on each input, for peak RSS (goal: <= 64 MiB each).

The inputs come from generate.py (deterministic) into LARGE_DIR (default: /tmp/aggregate-large), made once."""
import os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
directory = os.environ.get("LARGE_DIR", "/tmp/aggregate-large")
matrix_runs = int(os.environ.get("FORMAT_RUNS", "3"))


def inputs():
    paths = subprocess.run([sys.executable, os.path.join(here, "generate.py"), directory], check=True,
                           capture_output=True, text=True).stdout.split()
    by_kind = {path.rsplit(".", 1)[1]: path for path in paths}
    return [("1,000,000-line NDJSON", by_kind["ndjson"], "ndjson", 1_000_000, ["jq", "-c", "."]),
            ("500,000-element JSON array", by_kind["json"], "json", 500_000, ["jq", "-c", ".[]"]),
            ("500,000-row CSV", by_kind["csv"], "csv", 500_000, ["mlr", "--icsv", "--ojsonl", "cat"])]


def peers(bench):
    for label, path, fmt, count, peer in inputs():
        manifest = bench.files_manifest(f"large-{fmt}", path, fmt)
        results = bench.rounds([
            ("aggregate -f ndjson", ([bench.binary, "--manifest", manifest, "-f", "ndjson"], {"AGGREGATE_HOME": bench.home()})),
            (" ".join(peer[:-1] + [repr(peer[-1])] if fmt == "json" else peer), (peer + [path], None)),
        ])
        goal = {"ndjson": ">= 3x jq", "json": ">= 3x jq", "csv": ">= 1.0x mlr"}[fmt] + ", RSS <= 64 MiB"
        bench.add(f"large: {label}", results, "aggregate -f ndjson", goal, count, "items")


FORMATS = [("ndjson", []), ("json", []), ("csv", []), ("markdown", []), ("table", []),
           ("ndjson", ["--sort", "date"]), ("ndjson", ["--dedupe", "title"])]


def formats(bench):
    for label, path, fmt, count, _ in inputs():
        manifest = bench.files_manifest(f"large-{fmt}", path, fmt)
        candidates = [(f"-f {output} {' '.join(extra)}".strip(),
                       ([bench.binary, "--manifest", manifest, "-f", output, *extra], {"AGGREGATE_HOME": bench.home()}))
                      for output, extra in FORMATS]
        results = bench.rounds_n(matrix_runs, candidates)
        bench.add(f"formats: {label}", results, candidates[0][0], "RSS <= 64 MiB each", count, "items")
