#!/usr/bin/env python3
"""The origin of e2e/srcache-e2e.sh: fixed answers whose every header a cache must keep, and a count of the requests
that reached it (stdlib only).

    python3 e2e/srcache_origin.py PORT

GET /page/<n>     200, text/html, Cache-Control: public, max-age=300, Last-Modified, Link,
                  Access-Control-Allow-Origin: *, X-Origin-Page: <n>, and Keep-Alive, a hop-by-hop header that no
                  cache may store
GET /missing/<n>  404, text/plain, Cache-Control: max-age=300
GET /moved/<n>    301 to /page/<n> (a relative Location), Cache-Control: max-age=300
GET /count        the number of requests answered so far, not counting /count itself
Anything else gets 404 without Cache-Control. The answers never change, so a cached copy must equal a fresh one.
"""
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LAST_MODIFIED = "Tue, 01 Jul 2025 10:00:00 GMT"
MAX_AGE = "max-age=300"
lock = threading.Lock()
count = 0


def answer(path):
    """(status, headers, body) for any path but /count."""
    parts = path.split("/")
    if len(parts) == 3 and parts[2].isdigit():
        kind, n = parts[1], parts[2]
        if kind == "page":
            return 200, [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "public, " + MAX_AGE),
                ("Last-Modified", LAST_MODIFIED),
                ("Link", "</style.css>; rel=preload; as=style"),
                ("Access-Control-Allow-Origin", "*"),
                ("X-Origin-Page", n),
                ("Keep-Alive", "timeout=5, max=100"),
            ], f"<!doctype html><title>page {n}</title><p>page {n}, from the origin.\n".encode()
        if kind == "missing":
            return 404, [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Cache-Control", MAX_AGE),
            ], f"no page {n} here\n".encode()
        if kind == "moved":
            return 301, [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Cache-Control", MAX_AGE),
                ("Location", f"/page/{n}"),
            ], f"moved to /page/{n}\n".encode()
    return 404, [("Content-Type", "text/plain; charset=utf-8")], b"not here\n"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "srcache-origin"

    def do_GET(self):
        global count
        if self.path == "/count":
            with lock:
                body = f"{count}\n".encode()
            status, headers = 200, [("Content-Type", "text/plain"), ("Cache-Control", "no-store")]
        else:
            with lock:
                count += 1
            status, headers, body = answer(self.path)
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        sys.stderr.write("origin: %s %s\n" % (self.address_string(), format % args))


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
