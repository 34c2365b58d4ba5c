#!/usr/bin/env python3
"""Loopback server for the 1,000-source benchmark: answers every GET /feed/... after DELAY seconds with the same
recorded Atom feed (HTTP/1.1 keep-alive; asyncio, so a thousand connections cost it no threads) and keeps count:
requests, requests in flight and open connections, with the peak of each.

    server.py DELAY FEED_FILE      # prints its port on stdout once listening

GET /__stats answers those counts as JSON; GET /__reset answers them and zeroes them."""
import asyncio, json, sys

delay = float(sys.argv[1])
body = open(sys.argv[2], "rb").read()
stats = {"requests": 0, "inFlight": 0, "peakInFlight": 0, "connections": 0, "peakConnections": 0}


def response(payload, content_type):
    return (b"HTTP/1.1 200 OK\r\nContent-Type: " + content_type.encode() + b"\r\nContent-Length: "
            + str(len(payload)).encode() + b"\r\n\r\n" + payload)


async def handle(reader, writer):
    stats["connections"] += 1
    stats["peakConnections"] = max(stats["peakConnections"], stats["connections"])
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            target = head.split(b" ", 2)[1].decode()
            if target.startswith("/__"):
                payload = json.dumps(stats).encode()
                if target.startswith("/__reset"):
                    for key in stats:
                        stats[key] = 0 if key.startswith(("requests", "peak")) else stats[key]
                    stats["peakConnections"] = stats["connections"]
                writer.write(response(payload, "application/json"))
            else:
                stats["requests"] += 1
                stats["inFlight"] += 1
                stats["peakInFlight"] = max(stats["peakInFlight"], stats["inFlight"])
                await asyncio.sleep(delay)
                stats["inFlight"] -= 1
                writer.write(response(body, "application/atom+xml"))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, IndexError):
        pass
    finally:
        stats["connections"] -= 1
        writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=2048)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()

asyncio.run(main())
