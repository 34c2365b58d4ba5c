#!/usr/bin/env python3
"""aggregate serve for a long time under steady change: does its memory stay flat? (issue 40)

    Benchmarks/serve/soak.py path/to/aggregate                 # 30 minutes, 50 sources
    DURATION=600 SOURCES=20 Benchmarks/serve/soak.py path/to/aggregate

Not a test: a measurement, read by a person (BENCHMARKS.md has the figures). It runs `aggregate serve` with
SOURCES feed sources (default 50) against a fixture server on loopback and against files this script rewrites:

- most sources read a local feed file (the files provider, `format: "feed"`) that gains a new entry every second
  (`refreshSeconds: 1`: a source that asks no service may refresh that often), keeping its latest 30 entries;
- HTTP_SOURCES of them (default 10) fetch a feed from the fixture server (a threaded http.server here) that
  answers every request with a new entry on top, every 10 s (the shortest schedule for a source that asks a
  service), through the response cache (`cacheTTLSeconds: 5`, so every refresh misses it);
- SSE_CLIENTS clients (default 4) stay connected to /events and read everything; a reader asks for /api/items,
  /feed.atom and the dashboard every 2 s.

Every minute it prints the server's resident memory (VmRSS) and open file descriptors, from /proc. At the end:
the growth over the last 20 minutes (or the second half of a shorter run), which issue 40 asks to be at most
5 MiB once warmed up.
"""
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AGGREGATE_BIN", "")
if not binary:
    sys.exit("usage: soak.py path/to/aggregate (a release build: swift build -c release --product aggregate)")
duration = int(os.environ.get("DURATION", "1800"))
source_count = int(os.environ.get("SOURCES", "50"))
http_sources = min(source_count, int(os.environ.get("HTTP_SOURCES", "10")))
sse_clients = int(os.environ.get("SSE_CLIENTS", "4"))
interval = int(os.environ.get("SAMPLE_SECONDS", "60"))
kept_entries = 30

work = tempfile.mkdtemp(prefix="aggregate-soak-")
stop = threading.Event()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_document(title, newest, count):
    """An RSS 2.0 feed of entries newest..newest-count+1, newest first."""
    items = "".join(
        f"<item><title>{title} entry {n}</title><guid isPermaLink=\"false\">{title}-{n}</guid>"
        f"<link>https://example.org/{title}/{n}</link><description>Entry {n} of {title}, with a few words.</description>"
        f"<pubDate>{time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(1_780_000_000 + n))}</pubDate></item>"
        for n in range(newest, max(0, newest - count), -1))
    return f"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title>{items}</channel></rss>"


# The fixture server: each request for /feed/N.xml answers a feed one entry newer than the last answer.
counters = {}
counters_lock = threading.Lock()


class FeedHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        name = self.path.rsplit("/", 1)[-1].removesuffix(".xml")
        with counters_lock:
            counters[name] = counters.get(name, 0) + 1
            newest = counters[name]
        body = rss_document(name, newest, kept_entries).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


fixture = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FeedHandler)
fixture.daemon_threads = True
threading.Thread(target=fixture.serve_forever, daemon=True).start()
fixture_url = f"http://127.0.0.1:{fixture.server_address[1]}"

# The local feeds, rewritten every second with one more entry (atomically: a reader never sees half a file).
os.makedirs(f"{work}/data")
file_sources = source_count - http_sources


def write_files(tick):
    for index in range(file_sources):
        path = f"{work}/data/local{index}.xml"
        with open(path + ".tmp", "w") as out:
            out.write(rss_document(f"local{index}", tick + 1, kept_entries))
        os.replace(path + ".tmp", path)


def rewrite_files():
    tick = 0
    while not stop.wait(1):
        tick += 1
        write_files(tick)


write_files(0)
# The files provider reads the feeds (format "feed"): a provider that asks no service may refresh every second.
sources = [{"id": f"local{i}", "provider": "files", "refreshSeconds": 1,
            "options": {"paths": [f"data/local{i}.xml"], "format": "feed"}} for i in range(file_sources)]
sources += [{"id": f"remote{i}", "provider": "feed", "refreshSeconds": 10, "cacheTTLSeconds": 5,
             "options": {"urls": [f"{fixture_url}/feed/remote{i}.xml"]}} for i in range(http_sources)]
with open(f"{work}/manifest.json", "w") as out:
    json.dump({"version": 1, "sources": sources}, out)

probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
base = f"http://127.0.0.1:{port}"
log = open(f"{work}/serve.log", "w")
server = subprocess.Popen(
    [binary, "serve", "--manifest", f"{work}/manifest.json", "--listen", f"127.0.0.1:{port}"],
    env={**os.environ, "AGGREGATE_HOME": f"{work}/home"}, stdout=log, stderr=log)


def cleanup():
    stop.set()
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    fixture.shutdown()
    shutil.rmtree(work, ignore_errors=True)


try:
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{base}/readyz", timeout=2).read()
            break
        except OSError:
            time.sleep(0.2)
    else:
        sys.exit("serve did not become ready:\n" + open(f"{work}/serve.log").read())

    threading.Thread(target=rewrite_files, daemon=True).start()
    events = [0] * sse_clients

    def sse_client(slot):
        while not stop.is_set():
            try:
                with urllib.request.urlopen(f"{base}/events", timeout=60) as stream:
                    for line in stream:
                        if line.startswith(b"event:"):
                            events[slot] += 1
                        if stop.is_set():
                            return
            except OSError:
                stop.wait(1)

    for slot in range(sse_clients):
        threading.Thread(target=sse_client, args=(slot,), daemon=True).start()

    reads = [0]

    def reader():
        while not stop.wait(2):
            for path in ("/api/items?limit=50", "/feed.atom", "/"):
                try:
                    urllib.request.urlopen(base + path, timeout=10).read()
                    reads[0] += 1
                except OSError:
                    pass

    threading.Thread(target=reader, daemon=True).start()

    print(f"serve: {source_count} sources ({file_sources} files every 1 s, {http_sources} HTTP every 10 s), "
          f"{sse_clients} SSE clients, {duration} s", flush=True)
    print(f"{'minute':>6} {'RSS MiB':>8} {'fds':>5} {'events':>8} {'reads':>6}", flush=True)
    samples = []
    start = time.monotonic()
    while True:
        elapsed = time.monotonic() - start
        if server.poll() is not None:
            sys.exit("serve exited early:\n" + open(f"{work}/serve.log").read()[-4000:])
        rss = rss_kib(server.pid) / 1024
        fds = open_fds(server.pid)
        samples.append((elapsed, rss, fds))
        print(f"{elapsed / 60:6.1f} {rss:8.1f} {fds:5d} {sum(events):8d} {reads[0]:6d}", flush=True)
        if elapsed >= duration:
            break
        time.sleep(max(0, min(interval, duration - elapsed) - (time.monotonic() - start - elapsed)))

    window = min(20 * 60, duration / 2)
    late = [s for s in samples if s[0] >= samples[-1][0] - window - 1]
    growth = late[-1][1] - late[0][1]
    print(f"last {window / 60:.0f} min: RSS {late[0][1]:.1f} -> {late[-1][1]:.1f} MiB (growth {growth:+.1f} MiB, "
          f"range {min(s[1] for s in late):.1f}-{max(s[1] for s in late):.1f}), "
          f"fds {late[0][2]} -> {late[-1][2]}; {sum(events)} events to the SSE clients, {reads[0]} reads; "
          f"fixture answered {sum(counters.values())} requests", flush=True)
    print("flat" if growth <= 5 else "GROWING: more than 5 MiB", flush=True)
finally:
    cleanup()
