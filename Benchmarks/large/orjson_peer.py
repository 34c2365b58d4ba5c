#!/usr/bin/env python3
"""A large NDJSON file to `-f ndjson`, against a Python script doing the same with orjson (issue 52, goal 4).

    python3 Benchmarks/large/orjson_peer.py AGGREGATE_BINARY [RUNS]      # LINES=500000 by default
    python3 Benchmarks/large/orjson_peer.py --peer FILE SOURCE_ID        # the peer alone: FILE to stdout

The file is bench.py's issues file (an id, a number, a title, a state, a user object, labels, a date, a count per
line). The peer reads it line by line with orjson and writes each row in aggregate's envelope, the files
provider's field defaults applied (`id`, `title`, `url`, `date` as docs/providers/files.md says, for this file's
shape) and `fields` with sorted keys: its output is checked to be aggregate's, byte for byte, before timing.

Each round, interleaved: the peer; aggregate with no store (`AGGREGATE_HOME` cannot be made); aggregate into a new
store (every row new to the history and the archive); the same run again on that store. The figure is CPU time
(user + system, the process's rusage). Medians of RUNS."""
import json, os, shutil, statistics, subprocess, sys, tempfile


def peer(path, source):
    import orjson
    out = sys.stdout.buffer
    head = b'{"source":' + orjson.dumps(source) + b',"kind":"record","id":'
    with open(path, "rb") as rows:
        for line in rows:
            if not line.strip():
                continue
            row = orjson.loads(line)
            key = row.get("id")
            identifier = key if isinstance(key, str) else orjson.dumps(key).decode()
            title = next((row[k] for k in ("title", "name", "subject") if row.get(k) is not None), identifier)
            out.write(head + orjson.dumps(identifier) + b',"title":' + orjson.dumps(str(title))
                      + b',"subtitle":null,"url":null,"date":null,"fields":'
                      + orjson.dumps(row, option=orjson.OPT_SORT_KEYS) + b"}\n")


def cpu(command, env=None, stdout=subprocess.DEVNULL):
    process = subprocess.Popen(command, env={**os.environ, **(env or {})}, stdout=stdout, stderr=subprocess.PIPE)
    stderr = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{command[0]} failed: {stderr[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def main():
    binary = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    lines = int(os.environ.get("LINES", "500000"))
    work = tempfile.mkdtemp(prefix="aggregate-orjson-")
    try:
        path = os.path.join(work, "issues.ndjson")
        with open(path, "w") as f:
            for i in range(lines):
                f.write(json.dumps({"id": i, "number": i + 1, "title": f"Issue number {i}",
                                    "state": "open" if i % 3 else "closed", "user": {"login": f"user{i % 97}"},
                                    "labels": ["bug"] if i % 5 == 0 else [], "created_at": "2026-11-20T08:00:00Z",
                                    "comments": i % 13}) + "\n")
        manifest = os.path.join(work, "manifest.json")
        json.dump({"version": 1, "defaults": {"timeoutSeconds": 600},
                   "sources": [{"id": "issues", "provider": "files", "options": {"paths": [path]}}]}, open(manifest, "w"))
        aggregate = [binary, "--manifest", manifest, "-f", "ndjson"]
        script = [sys.executable, os.path.abspath(__file__), "--peer", path, "issues"]
        none = {"AGGREGATE_HOME": "/dev/null/no-store"}
        ours = subprocess.run(aggregate, env={**os.environ, **none}, capture_output=True, check=True).stdout
        theirs = subprocess.run(script, capture_output=True, check=True).stdout
        if ours != theirs:
            sys.exit("the peer's output differs from aggregate's")
        print(f"{lines:,} lines, {os.path.getsize(path) / 1e6:.1f} MB; outputs identical; {runs} rounds; CPU s, median")
        results = {"orjson script": [], "aggregate, no store": [], "aggregate, new store": [], "aggregate, seen store": []}
        for _ in range(runs):
            results["orjson script"].append(cpu(script))
            results["aggregate, no store"].append(cpu(aggregate, none))
            home = {"AGGREGATE_HOME": tempfile.mkdtemp(dir=work)}
            results["aggregate, new store"].append(cpu(aggregate, home))
            results["aggregate, seen store"].append(cpu(aggregate, home))
            shutil.rmtree(home["AGGREGATE_HOME"])
        floor = statistics.median(results["orjson script"])
        for name, values in results.items():
            median = statistics.median(values)
            print(f"| {name} | {median:.3f} | {median / floor:.2f}x | {' '.join(f'{v:.2f}' for v in values)} |")
    finally:
        shutil.rmtree(work, True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        peer(sys.argv[2], sys.argv[3])
    else:
        main()
