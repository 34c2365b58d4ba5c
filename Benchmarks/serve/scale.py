#!/usr/bin/env python3
"""aggregate serve over a large fleet (issue 43): for each fleet size, N feed sources of ITEMS entries each (RSS
2.0 files with a title, link, date and a 300-character summary per entry, read by the feed provider's `paths`,
so the numbers are the server's and the parser's, not a loopback server's), the release binary's resident
memory once every source finished its first cycle, and for each route the time to first byte and the size,
plain and gzipped, of the first request (rendered) and of a second one (the rendered body reused).

    python3 Benchmarks/serve/scale.py AGGREGATE_BINARY
    SOURCES=1000,10000 ITEMS=50 python3 Benchmarks/serve/scale.py .build/release/aggregate

Per-item memory: the same fleet with 1 entry a source is run too (ITEMS_BASE), and the difference in resident
memory divided by the difference in items is the cost of an item kept (its text, fields and ids, and everything
the server keeps per item)."""
import atexit, json, os, shutil, socket, subprocess, sys, tempfile, time, urllib.request
from email.utils import formatdate

binary = os.path.abspath(sys.argv[1])
fleets = [int(x) for x in os.environ.get("SOURCES", "1000,10000").split(",")]
items = int(os.environ.get("ITEMS", "50"))
items_base = int(os.environ.get("ITEMS_BASE", "1"))
work = tempfile.mkdtemp(prefix="aggregate-serve-scale-")
atexit.register(shutil.rmtree, work, True)
routes = ["/", "/?status=failing", "/items", "/feed.atom", "/feed.json", "/api/items?limit=50", "/api/report", "/api/sources", "/metrics"]
words = ("fleet source feed entry summary reader server status item update refresh sparkline dashboard "
         "memory bounded page gzip metrics cursor").split()


def feed(source, count, base):
    entries = []
    for index in range(count):
        text = " ".join(words[(source + index + k) % len(words)] for k in range(45))[:300]
        date = formatdate(base - (source * count + index) * 60, usegmt=True)
        entries.append(f"<item><title>Entry {index} of source {source}: {words[index % len(words)]}</title>"
                       f"<link>https://example.org/{source}/{index}</link><guid>https://example.org/{source}/{index}</guid>"
                       f"<pubDate>{date}</pubDate><description>{text}</description></item>")
    return (f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Source {source}</title>'
            f"<link>https://example.org/{source}/</link><description>generated</description>{''.join(entries)}</channel></rss>")


def port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024  # MiB
    return 0.0


def fetch(url, gzip):
    """(seconds to the first byte, body bytes) of one GET, as curl measures them."""
    command = ["curl", "-s", "-o", "/dev/null", "-w", "%{time_starttransfer} %{size_download} %{http_code}", url]
    if gzip:
        command[1:1] = ["-H", "Accept-Encoding: gzip"]
    ttfb, size, code = subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()
    assert code == "200", f"{url}: {code}"
    return float(ttfb), int(size)


def run(count, per_source):
    directory = os.path.join(work, f"{count}x{per_source}")
    os.makedirs(os.path.join(directory, "feeds"))
    base = time.time()
    sources = []
    for source in range(count):
        path = os.path.join(directory, "feeds", f"{source}.xml")
        with open(path, "w") as out:
            out.write(feed(source, per_source, base))
        sources.append({"id": f"feed{source:05d}", "provider": "feed", "options": {"paths": [path]}})
    with open(os.path.join(directory, "manifest.json"), "w") as out:
        json.dump({"version": 1, "defaults": {"refreshSeconds": 86400}, "sources": sources}, out)
    listen = port()
    log = open(os.path.join(directory, "serve.log"), "w")
    started = time.time()
    server = subprocess.Popen([binary, "serve", "--manifest", os.path.join(directory, "manifest.json"), "--listen", f"127.0.0.1:{listen}"],
                              env=dict(os.environ, AGGREGATE_HOME=os.path.join(directory, "home")), stderr=log)
    try:
        url = f"http://127.0.0.1:{listen}"
        while True:
            try:
                if urllib.request.urlopen(url + "/readyz").status == 200:
                    break
            except Exception:
                pass
            if server.poll() is not None:
                raise SystemExit(open(log.name).read())
            time.sleep(0.2)
        ready = time.time() - started
        time.sleep(2)
        rss = status(server.pid, "VmRSS")
        figures = {}
        for route in routes:
            cold = fetch(url + route, gzip=False)
            warm = fetch(url + route, gzip=False)
            zipped = fetch(url + route, gzip=True)
            figures[route] = (cold, warm, zipped)
        return {"ready": ready, "rss": rss, "rssAfter": status(server.pid, "VmRSS"), "peak": status(server.pid, "VmHWM"), "routes": figures}
    finally:
        server.terminate()
        server.wait()


def kib(size):
    return f"{size / 1024:,.1f} KiB" if size < 1 << 20 else f"{size / (1 << 20):,.1f} MiB"


for count in fleets:
    result = run(count, items)
    print(f"\n{count:,} sources x {items} items: every first cycle done in {result['ready']:.1f} s; resident "
          f"{result['rss']:.0f} MiB when ready, {result['rssAfter']:.0f} MiB after the requests, peak {result['peak']:.0f} MiB")
    print(f"{'route':22} {'TTFB first':>11} {'TTFB again':>11} {'size':>12} {'gzipped':>12}")
    for route, ((cold, size), (warm, _), (_, zipped)) in result["routes"].items():
        print(f"{route:22} {cold * 1000:9.1f} ms {warm * 1000:9.1f} ms {kib(size):>12} {kib(zipped):>12}")
    if items_base != items:
        small = run(count, items_base)
        per_item = (result["rss"] - small["rss"]) * 1024 * 1024 / (count * (items - items_base))
        print(f"per item: ({result['rss']:.0f} - {small['rss']:.0f} MiB at {items_base} a source) / "
              f"{count * (items - items_base):,} items = {per_item / 1024:.2f} KiB")
print(f"\nmachine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
