#!/usr/bin/env python3
"""Loopback server for the fan-out and warm-cache benchmarks: answers every GET after DELAY seconds with a
recorded OpenWeather body, one thread per connection (HTTP/1.1 keep-alive), and counts requests.
GET /__count returns the count so far; GET /__reset returns it and zeroes it. Prints its port on stdout when listening."""
import sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

delay = float(sys.argv[1]) if len(sys.argv) > 1 else 0.1
body = open(sys.argv[2], "rb").read()
lock = threading.Lock()
count = 0

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        global count
        if self.path.startswith("/__count") or self.path.startswith("/__reset"):
            with lock:
                payload = str(count).encode()
                if self.path.startswith("/__reset"):
                    count = 0
            return self.reply(payload, "text/plain")
        with lock:
            count += 1
        time.sleep(delay)
        self.reply(body, "application/json; charset=utf-8")

    def reply(self, payload, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass

class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512  # the default backlog of 5 would drop simultaneous connects (1 s SYN retries)

server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
