#!/usr/bin/env python3
"""Replays the request smuggling corpus against a running gateway over raw sockets (stdlib only).

    python3 e2e/smuggling_replay.py CORPUS PORT

Each request goes on a connection of its own, aimed at /api/v1/comments/<n> and followed by a last GET with
Connection: close. Every answer must be one the gateway can give: a 400 (or 413) with Connection: close that ends
the connection, or any other answer below 500. Prints the counts and exits 1 on the first request that breaks this.
"""
import socket
import sys
import time

LAST = b"GET /api/v1/comments/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
ESCAPES = {"r": b"\r", "n": b"\n", "t": b"\t", "\\": b"\\"}


def unescape(text):
    out, i = bytearray(), 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            out += ch.encode("latin-1")
            i += 1
        elif text[i + 1] == "x":
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out += ESCAPES[text[i + 1]]
            i += 2
    return bytes(out)


def exchange(port, data):
    received = bytearray()
    deadline = time.monotonic() + 10
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(data)
        while True:
            try:
                chunk = conn.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
            if time.monotonic() > deadline:
                raise RuntimeError("the connection stayed open for 10 s")
    return bytes(received)


def answers(data):
    """(status, headers) of each answer, reading bodies by Content-Length or chunks."""
    result, at = [], 0
    while at < len(data):
        end = data.index(b"\r\n\r\n", at)
        lines = data[at:end].decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        at = end + 4
        if status >= 200 and headers.get("transfer-encoding", "").lower() == "chunked":
            while True:
                line_end = data.index(b"\r\n", at)
                size = int(data[at:line_end].split(b";")[0], 16)
                at = line_end + 2 + size + 2
                if size == 0:
                    break
        elif status >= 200:
            at += int(headers.get("content-length", len(data) - at))
        result.append((status, headers))
    return result


def main():
    corpus, port = sys.argv[1], int(sys.argv[2])
    total = refused = 0
    with open(corpus, encoding="latin-1") as lines:
        for number, line in enumerate(l for l in lines if l.strip() and not l.startswith("#")):
            name, _, escaped = line.rstrip("\n").partition("\t")
            request = unescape(escaped).replace(b"__PATH__", b"/api/v1/comments/%d" % number)
            got = answers(exchange(port, request + LAST))
            problem = None
            if not got:
                problem = "no answer"
            for index, (status, headers) in enumerate(got):
                if status >= 500:
                    problem = "a %d" % status
                elif status in (400, 413) and headers.get("connection", "").lower() != "close":
                    problem = "a %d without Connection: close" % status
                elif status in (400, 413) and index != len(got) - 1:
                    problem = "answers after a %d" % status
            if problem:
                print("smuggling e2e: FAILED: %s: %s: %s" % (name, problem, got), file=sys.stderr)
                sys.exit(1)
            total += 1
            refused += 1 if got[0][0] == 400 else 0
    print("  %d requests replayed, %d refused with 400 at once, every answer a clean one" % (total, refused))


if __name__ == "__main__":
    main()
