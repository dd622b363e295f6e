#!/usr/bin/env python3
"""The origin of e2e/rolling-update.sh: resources with versions, GETs that can be held at a gate, and counts of the
calls that reached it (stdlib only).

    python3 e2e/rolling_origin.py PORT

GET <path>[?gate=NAME]  200, application/json, Cache-Control: public, max-age=120, the body
                        {"path": ..., "version": V, "serial": S}: V is the resource's version when the GET arrived,
                        S a serial of the origin's, so that two backend calls never give the same body. With a gate
                        the answer waits until the gate is opened (at most 20 s), as a slow backend would; the
                        version is still the one the GET arrived with, so a write during the wait makes its answer
                        one from before the write.
PUT, POST, DELETE ...   bumps the resource's version and answers 200 with the new one, Cache-Control: no-store.
/_/calls?path=P         the number of GETs of P that reached the origin so far (not counted itself)
/_/arrived?gate=NAME    the number of GETs waiting at, or let through, gate NAME
/_/open?gate=NAME       opens gate NAME: the GETs at it answer, and later ones pass at once
A resource is its path: /r/a and /w/a have versions of their own.
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MAX_HOLD_SECONDS = 20
lock = threading.Lock()
versions = {}
calls = {}
serial = 0
gates = {}
arrivals = {}


def gate(name):
    with lock:
        return gates.setdefault(name, threading.Event())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "rolling-origin"

    def do_GET(self):
        global serial
        url = urlsplit(self.path)
        query = {name: values[0] for name, values in parse_qs(url.query).items()}
        if url.path.startswith("/_/"):
            self.control(url.path, query)
            return
        with lock:
            version = versions.get(url.path, 1)
            serial += 1
            number = serial
            calls[url.path] = calls.get(url.path, 0) + 1
            if "gate" in query:
                arrivals[query["gate"]] = arrivals.get(query["gate"], 0) + 1
        if "gate" in query:
            gate(query["gate"]).wait(MAX_HOLD_SECONDS)
        body = {"path": url.path, "version": version, "serial": number}
        self.answer(200, "public, max-age=120", body)

    def do_PUT(self):
        path = urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        with lock:
            versions[path] = versions.get(path, 1) + 1
            version = versions[path]
        self.answer(200, "no-store", {"path": path, "version": version})

    do_POST = do_PUT
    do_DELETE = do_PUT
    do_PATCH = do_PUT

    def control(self, path, query):
        if path == "/_/calls":
            with lock:
                self.answer(200, "no-store", calls.get(query.get("path", ""), 0))
        elif path == "/_/arrived":
            with lock:
                self.answer(200, "no-store", arrivals.get(query.get("gate", ""), 0))
        elif path == "/_/open":
            gate(query.get("gate", "")).set()
            self.answer(200, "no-store", "open")
        else:
            self.answer(404, "no-store", "no such control")

    def answer(self, status, cache_control, body):
        data = (json.dumps(body) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", cache_control)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        sys.stderr.write("origin: %s\n" % (format % args))


if __name__ == "__main__":
    # Room for a round of GETs that arrive at once; the default backlog is 5.
    ThreadingHTTPServer.request_queue_size = 64
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.serve_forever()
