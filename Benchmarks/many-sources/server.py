#!/usr/bin/env python3
"""Loopback server for the 1,000-source benchmark: answers every GET /feed/... after DELAY seconds with the same
recorded Atom feed (HTTP/1.1 keep-alive) and keeps count: requests, requests in flight and open connections, with
the peak of each.

    server.py DELAY FEED_FILE      # prints its port on stdout once listening
    server.py DELAY FEED_FILE DIR  # GET /feed/NAME answers DIR/NAME when it exists (read once, at start)

GET /__stats answers those counts as JSON; GET /__reset answers them and zeroes them.

An asyncio Protocol (a timer per request, the answer's bytes made once), not asyncio streams: the server shares
the machine's two cores with the client it measures, and the streams version cost ~115 us of CPU a request, so a
wave of 64 requests kept it busy ~7 ms and even `curl --parallel` came out at 1.17x the ideal (BENCHMARKS.md,
"Round six")."""
import asyncio, json, sys

delay = float(sys.argv[1])
body = open(sys.argv[2], "rb").read()
stats = {"requests": 0, "inFlight": 0, "peakInFlight": 0, "connections": 0, "peakConnections": 0}


def response(payload, content_type):
    return (b"HTTP/1.1 200 OK\r\nContent-Type: " + content_type.encode() + b"\r\nContent-Length: "
            + str(len(payload)).encode() + b"\r\n\r\n" + payload)


feed = response(body, "application/atom+xml")
files = {}
if len(sys.argv) > 3:
    import os
    for name in os.listdir(sys.argv[3]):
        with open(os.path.join(sys.argv[3], name), "rb") as f:
            files["/feed/" + name] = response(f.read(), "application/rss+xml")


class Connection(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport, self.pending = transport, b""
        stats["connections"] += 1
        stats["peakConnections"] = max(stats["peakConnections"], stats["connections"])

    def connection_lost(self, error):
        stats["connections"] -= 1

    def data_received(self, data):
        self.pending += data
        while (end := self.pending.find(b"\r\n\r\n")) >= 0:
            head, self.pending = self.pending[:end], self.pending[end + 4:]
            parts = head.split(b" ", 2)
            if len(parts) < 2:
                self.transport.close()
                return
            target = parts[1].decode(errors="replace")
            if target.startswith("/__"):
                payload = json.dumps(stats).encode()
                if target.startswith("/__reset"):
                    for key in stats:
                        stats[key] = 0 if key.startswith(("requests", "peak")) else stats[key]
                    stats["peakConnections"] = stats["connections"]
                self.transport.write(response(payload, "application/json"))
            else:
                stats["requests"] += 1
                stats["inFlight"] += 1
                stats["peakInFlight"] = max(stats["peakInFlight"], stats["inFlight"])
                loop.call_later(delay, self.answer, files.get(target, feed))

    def answer(self, payload):
        stats["inFlight"] -= 1
        if not self.transport.is_closing():
            self.transport.write(payload)


loop = asyncio.new_event_loop()
server = loop.run_until_complete(loop.create_server(Connection, "127.0.0.1", 0, backlog=2048))
print(server.sockets[0].getsockname()[1], flush=True)
loop.run_forever()
