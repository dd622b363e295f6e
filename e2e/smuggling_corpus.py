#!/usr/bin/env python3
"""Writes the request smuggling corpus that SmugglingCorpusTests and e2e/smuggling-e2e.sh replay.

One request a line: a name, a tab, and the request's bytes with \\r, \\n, \\t, \\\\ and \\xHH escaped. The target is
__PATH__, which the replaying client fills in (a path of its own for every request), and the Host is localhost.

Two sources:
  - the mutations of the smuggler tool (github.com/defparam/smuggler, MIT, configs/default.py, exhaustive.py and
    doubles.py): each way of spelling Transfer-Encoding, sent with each of the tool's four bodies (its TE.CL probes
    with Content-Length 5 and 6, its CL.TE probes with 4 and 11). Bytes 0x80-0xFF go as single bytes.
  - requests written from RFC 9112 sections 2, 5, 6 and 7: transfer codings, Content-Length forms, chunk lines,
    line endings, header names, HTTP/1.0.

    python3 e2e/smuggling_corpus.py > gateway/src/test/resources/smuggling/corpus.txt
"""

import re

RN = "\r\n"
UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.87 Safari/537.36"


def smuggler_head(gadget, cl):
    # The tool's template, as its configs render it.
    return ("POST __PATH__?cb=1 HTTP/1.1" + RN + gadget + RN + "Host: localhost" + RN + "User-Agent: " + UA + RN
            + "Content-type: application/x-www-form-urlencoded; charset=UTF-8" + RN
            + "Content-Length: " + str(cl) + RN + RN)


def smuggler_gadgets():
    g = {}
    # configs/default.py
    g["nameprefix1"] = " Transfer-Encoding: chunked"
    g["tabprefix1"] = "Transfer-Encoding:\tchunked"
    g["tabprefix2"] = "Transfer-Encoding\t:\tchunked"
    g["space1"] = "Transfer-Encoding : chunked"
    for i in [0x1, 0x4, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0x1F, 0x20, 0x7f, 0xA0, 0xFF]:
        c = chr(i)
        g["midspace-%02x" % i] = "Transfer-Encoding:%cchunked" % c
        g["postspace-%02x" % i] = "Transfer-Encoding%c: chunked" % c
        g["prespace-%02x" % i] = "%cTransfer-Encoding: chunked" % c
        g["endspace-%02x" % i] = "Transfer-Encoding: chunked%c" % c
        g["xprespace-%02x" % i] = "X: X%cTransfer-Encoding: chunked" % c
        g["endspacex-%02x" % i] = "Transfer-Encoding: chunked%cX: X" % c
        g["rxprespace-%02x" % i] = "X: X\r%cTransfer-Encoding: chunked" % c
        g["xnprespace-%02x" % i] = "X: X%c\nTransfer-Encoding: chunked" % c
        g["endspacerx-%02x" % i] = "Transfer-Encoding: chunked\r%cX: X" % c
        g["endspacexn-%02x" % i] = "Transfer-Encoding: chunked%c\nX: X" % c
    # configs/exhaustive.py
    g["spacejoin1"] = "Transfer Encoding: chunked"
    g["underjoin1"] = "Transfer_Encoding: chunked"
    g["smashed"] = "Transfer Encoding:chunked"
    g["valueprefix1"] = "Transfer-Encoding:  chunked"
    g["vertprefix1"] = "Transfer-Encoding:\u000Bchunked"
    g["commaCow"] = "Transfer-Encoding: chunked, cow"
    g["cowComma"] = "Transfer-Encoding: cow, chunked"
    g["contentEnc"] = "Content-Encoding: chunked"
    g["linewrapped1"] = "Transfer-Encoding:\n chunked"
    g["quoted"] = "Transfer-Encoding: \"chunked\""
    g["aposed"] = "Transfer-Encoding: 'chunked'"
    g["lazygrep"] = "Transfer-Encoding: chunk"
    g["sarcasm"] = "TrAnSFer-EnCODinG: cHuNkeD"
    g["yelling"] = "TRANSFER-ENCODING: CHUNKED"
    g["0dsuffix"] = "Transfer-Encoding: chunked\r"
    g["tabsuffix"] = "Transfer-Encoding: chunked\t"
    g["revdualchunk"] = "Transfer-Encoding: cow\r\nTransfer-Encoding: chunked"
    g["0dspam"] = "Transfer\r-Encoding: chunked"
    g["nested"] = "Transfer-Encoding: cow chunked bar"
    g["spaceFF"] = "Transfer-Encoding:\xFFchunked"
    g["accentCH"] = "Transfer-Encoding: ch\x96nked"
    g["accentTE"] = "Transf\x82r-Encoding: chunked"
    g["x-rout"] = "X:X\rTransfer-Encoding: chunked"
    g["x-nout"] = "X:X\nTransfer-Encoding: chunked"
    for i in list(range(0x1, 0x20)) + list(range(0x7F, 0x100)):
        c = chr(i)
        g["midspace-%02x" % i] = "Transfer-Encoding:%cchunked" % c
        g["postspace-%02x" % i] = "Transfer-Encoding%c: chunked" % c
        g["prespace-%02x" % i] = "%cTransfer-Encoding: chunked" % c
        g["endspace-%02x" % i] = "Transfer-Encoding: chunked%c" % c
    # configs/doubles.py
    for i in list(range(0x1, 0x21)) + list(range(0x7F, 0x100)):
        c = chr(i)
        g["%02x-%02x-XX-XX" % (i, i)] = "%cTransfer-Encoding%c: chunked" % (c, c)
        g["%02x-XX-%02x-XX" % (i, i)] = "%cTransfer-Encoding:%cchunked" % (c, c)
        g["%02x-XX-XX-%02x" % (i, i)] = "%cTransfer-Encoding: chunked%c" % (c, c)
        g["XX-%02x-%02x-XX" % (i, i)] = "Transfer-Encoding%c:%cchunked" % (c, c)
        g["XX-%02x-XX-%02x" % (i, i)] = "Transfer-Encoding%c: chunked%c" % (c, c)
        g["XX-XX-%02x-%02x" % (i, i)] = "Transfer-Encoding:%cchunked%c" % (c, c)
    return g


def smuggler_cases():
    seen = set()
    for name, gadget in smuggler_gadgets().items():
        if gadget in seen:
            continue
        seen.add(gadget)
        # The tool's probes: TE.CL sends a last chunk and an X (Content-Length 5 or 6), CL.TE a chunk Z and a last
        # chunk (Content-Length 4 or 11).
        for probe, cl, body in (("tecl", 5, "0\r\n\r\nX"), ("tecl", 6, "0\r\n\r\nX"),
                                ("clte", 4, "1\r\nZ\r\n0\r\n\r\n"), ("clte", 11, "1\r\nZ\r\n0\r\n\r\n")):
            yield "smuggler %s %s-%d" % (name, probe, cl), smuggler_head(gadget, cl) + body


def request(head_lines, body="", start="POST __PATH__ HTTP/1.1"):
    return start + RN + "Host: localhost" + RN + "".join(line + RN for line in head_lines) + RN + body


def rfc_cases():
    chunked = "5\r\nhello\r\n0\r\n\r\n"
    c = []
    # Transfer codings (6.1, 6.3): chunked, once, and last; nothing else.
    c.append(("te chunked", request(["Transfer-Encoding: chunked"], chunked)))
    c.append(("te xchunked with content-length", request(["Transfer-Encoding: xchunked", "Content-Length: 5"], "hello")))
    c.append(("te chunked then te x", request(["Transfer-Encoding: chunked", "Transfer-Encoding: x"], chunked)))
    c.append(("te x then te chunked", request(["Transfer-Encoding: x", "Transfer-Encoding: chunked"], chunked)))
    c.append(("te chunked twice in one line", request(["Transfer-Encoding: chunked, chunked"], chunked)))
    c.append(("te chunked on two lines", request(["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"], chunked)))
    c.append(("te gzip then chunked", request(["Transfer-Encoding: gzip, chunked"], chunked)))
    c.append(("te chunked then gzip", request(["Transfer-Encoding: chunked, gzip"], chunked)))
    c.append(("te identity", request(["Transfer-Encoding: identity", "Content-Length: 5"], "hello")))
    c.append(("te empty", request(["Transfer-Encoding:", "Content-Length: 5"], "hello")))
    c.append(("te chunked with parameter", request(["Transfer-Encoding: chunked;q=1"], chunked)))
    c.append(("te chunked upper case", request(["Transfer-Encoding: CHUNKED"], chunked)))
    c.append(("te chunked and content-length", request(["Transfer-Encoding: chunked", "Content-Length: 5"], chunked)))
    c.append(("content-length and te chunked", request(["Content-Length: 5", "Transfer-Encoding: chunked"], chunked)))
    c.append(("te chunked and content-length 0", request(["Transfer-Encoding: chunked", "Content-Length: 0"], chunked)))
    c.append(("te chunked folded", request(["Transfer-Encoding:", " chunked"], chunked)))
    c.append(("te folded after chunked", request(["Transfer-Encoding: chunked", " , identity"], chunked)))
    c.append(("te in http/1.0", request(["Transfer-Encoding: chunked"], chunked, "POST __PATH__ HTTP/1.0")))
    c.append(("te and content-length in http/1.0",
              request(["Transfer-Encoding: chunked", "Content-Length: 5"], "hello", "POST __PATH__ HTTP/1.0")))
    c.append(("te on a get", request(["Transfer-Encoding: chunked"], chunked, "GET __PATH__ HTTP/1.1")))
    c.append(("te name with trailing space", request(["Transfer-Encoding : chunked", "Content-Length: 5"], chunked)))
    c.append(("te name with leading space", request([" Transfer-Encoding: chunked", "Content-Length: 5"], chunked)))
    c.append(("te value with vertical tab", request(["Transfer-Encoding: \x0bchunked", "Content-Length: 5"], chunked)))
    c.append(("te value with nul", request(["Transfer-Encoding: chunked\x00", "Content-Length: 5"], chunked)))
    # Content-Length (6.2, 6.3): one run of digits.
    c.append(("content-length", request(["Content-Length: 5"], "hello")))
    c.append(("content-length 0", request(["Content-Length: 0"])))
    c.append(("content-length with spaces around", request(["Content-Length:  5  "], "hello")))
    c.append(("content-length list of equal values", request(["Content-Length: 5, 5"], "hello")))
    c.append(("content-length repeated", request(["Content-Length: 5", "Content-Length: 5"], "hello")))
    c.append(("content-length list of different values", request(["Content-Length: 5, 6"], "hello!")))
    c.append(("content-length on two lines differing", request(["Content-Length: 6", "Content-Length: 5"], "hello!")))
    c.append(("content-length with plus", request(["Content-Length: +5"], "hello")))
    c.append(("content-length negative", request(["Content-Length: -5"], "hello")))
    c.append(("content-length hex", request(["Content-Length: 0x5"], "hello")))
    c.append(("content-length with a space inside", request(["Content-Length: 5 5"], "hello")))
    c.append(("content-length with letters", request(["Content-Length: 5a"], "hello")))
    c.append(("content-length empty", request(["Content-Length:"], "hello")))
    c.append(("content-length too large", request(["Content-Length: 99999999999999999999"], "hello")))
    c.append(("content-length with leading zeros", request(["Content-Length: 005"], "hello")))
    c.append(("content-length folded", request(["Content-Length:", " 5"], "hello")))
    c.append(("content-length name with space", request(["Content-Length : 5"], "hello")))
    c.append(("content-length with underscore", request(["Content_Length: 5"], "hello")))
    c.append(("content-length with vertical tab", request(["Content-Length:\x0b5"], "hello")))
    c.append(("content-length with form feed", request(["Content-Length: 5\x0c"], "hello")))
    c.append(("content-length with nul", request(["Content-Length: 5\x00"], "hello")))
    c.append(("content-length unicode digit", request(["Content-Length: \xb9"], "h")))
    # Chunks (7.1): a hex size, optional extensions, CRLF, the data, CRLF.
    c.append(("chunk size with junk", request(["Transfer-Encoding: chunked"], "5 junk\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk size followed by junk after data",
              request(["Transfer-Encoding: chunked"], "5\r\nhello\r\n3x\r\nabc\r\n0\r\n\r\n")))
    c.append(("chunk data longer than its size", request(["Transfer-Encoding: chunked"], "3\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk data shorter than its size", request(["Transfer-Encoding: chunked"], "7\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk size negative", request(["Transfer-Encoding: chunked"], "-5\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk size hex prefix", request(["Transfer-Encoding: chunked"], "0x5\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk size with plus", request(["Transfer-Encoding: chunked"], "+5\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk size overflowing 64 bits",
              request(["Transfer-Encoding: chunked"], "10000000000000005\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk size with leading space", request(["Transfer-Encoding: chunked"], " 5\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk size upper-case hex", request(["Transfer-Encoding: chunked"], "A\r\nhellohello\r\n0\r\n\r\n")))
    c.append(("chunk extension", request(["Transfer-Encoding: chunked"], "5;a=b\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk extension with bare lf", request(["Transfer-Encoding: chunked"], "5;a\nb\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk extension with bare cr", request(["Transfer-Encoding: chunked"], "5;a\rb\r\nhello\r\n0\r\n\r\n")))
    c.append(("chunk line ended by bare lf", request(["Transfer-Encoding: chunked"], "5\nhello\r\n0\r\n\r\n")))
    c.append(("chunk data ended by bare lf", request(["Transfer-Encoding: chunked"], "5\r\nhello\n0\r\n\r\n")))
    c.append(("chunk data ended by junk", request(["Transfer-Encoding: chunked"], "5\r\nhelloXX0\r\n\r\n")))
    c.append(("chunk size empty", request(["Transfer-Encoding: chunked"], "\r\nhello\r\n0\r\n\r\n")))
    c.append(("last chunk with trailer", request(["Transfer-Encoding: chunked"], "5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n")))
    c.append(("last chunk with content-length trailer",
              request(["Transfer-Encoding: chunked"], "5\r\nhello\r\n0\r\nContent-Length: 50\r\n\r\n")))
    c.append(("last chunk with a bad trailer", request(["Transfer-Encoding: chunked"], "5\r\nhello\r\n0\r\nX T: 1\r\n\r\n")))
    c.append(("last chunk 00", request(["Transfer-Encoding: chunked"], "5\r\nhello\r\n00\r\n\r\n")))
    c.append(("chunked body then a request",
              request(["Transfer-Encoding: chunked"], "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n")))
    c.append(("content-length body then a request",
              request(["Content-Length: 0"], "GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n")))
    # Lines and names (2.2, 5.1, 5.2).
    c.append(("header lines ended by bare lf", "POST __PATH__ HTTP/1.1\nHost: localhost\nContent-Length: 5\n\nhello"))
    c.append(("header line ended by bare cr", request(["X-A: 1\rContent-Length: 5"], "hello")))
    c.append(("request line ended by bare lf", "POST __PATH__ HTTP/1.1\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello"))
    c.append(("obs-fold in another header", request(["X-A: 1", " 2", "Content-Length: 5"], "hello")))
    c.append(("a header line without a colon", request(["Content-Length 5"], "hello")))
    c.append(("a header name with a slash", request(["X/A: 1", "Content-Length: 5"], "hello")))
    c.append(("a header name with a nul", request(["X\x00A: 1", "Content-Length: 5"], "hello")))
    c.append(("an empty header name", request([": 1", "Content-Length: 5"], "hello")))
    c.append(("a header value with a nul", request(["X-A: 1\x00", "Content-Length: 5"], "hello")))
    c.append(("whitespace before the first header", "POST __PATH__ HTTP/1.1\r\n Host: localhost\r\nContent-Length: 5\r\n\r\nhello"))
    c.append(("empty lines before the request line", "\r\n\r\n" + request(["Content-Length: 5"], "hello")))
    c.append(("http/1.0 with content-length", request(["Content-Length: 5"], "hello", "POST __PATH__ HTTP/1.0")))
    c.append(("http/1.0 without length", request([], "", "GET __PATH__ HTTP/1.0")))
    c.append(("two spaces in the request line", "POST  __PATH__ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"))
    c.append(("lower-case version", "POST __PATH__ http/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"))
    c.append(("version 1.2", "POST __PATH__ HTTP/1.2\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"))
    c.append(("no host", "POST __PATH__ HTTP/1.1\r\nContent-Length: 0\r\n\r\n"))
    c.append(("two hosts", request(["Host: other", "Content-Length: 0"])))
    c.append(("expect 100-continue", request(["Expect: 100-continue", "Content-Length: 5"], "hello")))
    c.append(("connection naming content-length", request(["Connection: Content-Length", "Content-Length: 5"], "hello")))
    c.append(("connection naming transfer-encoding",
              request(["Connection: Transfer-Encoding", "Transfer-Encoding: chunked"], chunked)))
    c.append(("a get with a body", request(["Content-Length: 5"], "hello", "GET __PATH__ HTTP/1.1")))
    c.append(("a head with a body", request(["Content-Length: 5"], "hello", "HEAD __PATH__ HTTP/1.1")))
    # A chunk-size is HEXDIG only (section 7.1): whitespace before the last one is neither a size nor an extension.
    c.append(("last chunk after spaces", request(["Transfer-Encoding: chunked"], "5\r\nhello\r\n           0\r\n\r\n")))
    return c


def escape(text):
    out = []
    for ch in text:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o >= 0x7f:
            out.append("\\x%02x" % o)
        else:
            out.append(ch)
    return "".join(out)


def main():
    cases = list(smuggler_cases()) + rfc_cases()
    print("# The request smuggling corpus: a name, a tab, the request with \\r \\n \\t \\\\ \\xHH escaped.")
    print("# Written by e2e/smuggling_corpus.py; the target __PATH__ is filled in by the client that replays it.")
    for name, text in cases:
        assert all(ord(ch) < 0x100 for ch in text), name
        print(name + "\t" + escape(text))


if __name__ == "__main__":
    main()
