#!/usr/bin/env python3
"""The benchmark's numbers: reads ab's and wrk's outputs and what bench/run.sh recorded around them, and writes the
Markdown report and the chart's data.

    report.py check ab|wrk FILE   one measurement's requests/s, p50 and p99; fails if any answer was not a 2xx
    report.py rps ab|wrk FILE     its requests/s alone, failing as check does
    report.py hit RULE            succeeds if the response head on stdin (curl -D -) is a cache's hit by RULE (one of
                                  HIT_RULES); else prints why not
    report.py steady RPS...       succeeds if the last STEADY_WINDOWS windows' requests/s are within STEADY_TOLERANCE
    report.py markdown RUN_DIR    the report of a run
    report.py chart RUN_DIR       the chart's data: label, then requests/s with ab, ab -k and wrk ("?" if none)
    report.py warm-up-chart RUN_DIR   the warm-up chart's data: second, then each gateway's answers in it as a
                                      fraction of its steady throughput ("?" if none)
    report.py zipf ZIPF_DIR       bench/zipf.sh's section; fails, saying why, if the run does not pass its checks
    report.py zipf-line ZIPF_DIR TARGET   one target's figures on one line
    report.py zipf-keys ZIPF_DIR  the run's size classes and keys, from its setup.tsv, for bench/zipf.sh

RUN_DIR holds what bench/run.sh writes as it goes, all tab-separated:
    setup.tsv         key, value: the run's title, mode, machine, versions and flags; a "note" per remark
    measurements.tsv  case id, label, tool, the tool's output file relative to RUN_DIR ("-" when skipped)
    cpu.tsv           case id, "before" or "after" the wrk run, process name, CPU time in clock ticks
    rss.tsv           case id ("-" outside a wrk run), process name, VmHWM in kB
    steady.tsv        case id, label, steady|cap|quick, seconds measured, the requests/s of each wrk window (commas)
    warm-up.tsv       name, label, milliseconds from start to ready, the per-second output, the steady case's id
    zipf.md           the Zipf case's section, as bench/zipf.sh wrote it (a full run only)
    memcached-stats.txt   memcached's answer to `stats` at the end
"""

import email.utils
import math
import re
import statistics
import sys
import time
from pathlib import Path

TOOLS = ("ab", "ab -k", "wrk")
# Three wrk windows in a row whose requests/s differ by at most this fraction (of the largest) are steady. Two were
# not enough: a JVM's throughput climbs in steps while the JIT compiles, and two windows on one step agreed.
STEADY_TOLERANCE = 0.05
STEADY_WINDOWS = 3
PAYLOADS = ("single", "collection")
# The ratios of requests/s the report shows, numerator and denominator by case id without the payload.
RATIOS = (
    ("gateway hit / direct miss", "gateway-hit", "direct-miss"),
    ("gateway hit / nginx hit (keepalive)", "gateway-hit", "nginx-keepalive-hit"),
    ("gateway hit / nginx hit (article)", "gateway-hit", "nginx-hit"),
    ("gateway hit / varnish hit", "gateway-hit", "varnish-hit"),
    ("gateway hit (near-cache) / nginx hit (keepalive)", "gateway-near-hit", "nginx-keepalive-hit"),
    ("gateway hit (http item) / gateway hit", "gateway-http-hit", "gateway-hit"),
    ("gateway hit (http item, 2 tags) / untagged", "gateway-http-hit", "gateway-http-untagged-hit"),
    ("gateway hit / spring LocalResponseCache hit", "gateway-hit", "spring-hit"),
    ("gateway miss (real) / gateway pass-through", "gateway-real-miss", "gateway-pass"),
    ("gateway miss (real) / nginx miss (fresh ids)", "gateway-real-miss", "nginx-keepalive-miss"),
    ("gateway miss (real) / direct (fresh ids)", "gateway-real-miss", "direct-fresh"),
    ("nginx miss (fresh ids) / direct (fresh ids)", "nginx-keepalive-miss", "direct-fresh"),
    ("gateway pass-through / direct miss", "gateway-pass", "direct-miss"),
    ("gateway pass-through / spring pass-through", "gateway-pass", "spring-pass"),
)
# The warm-up's later windows, in seconds.
WARM_UP_WINDOW = 5
# What the gateway is held to: a ratio of requests/s by case id without the payload, at least this much.
TARGETS = (
    ("gateway pass-through / spring pass-through", "gateway-pass", "spring-pass", 0.95),
    ("gateway miss (real) / gateway pass-through", "gateway-real-miss", "gateway-pass", 0.85),
    ("gateway hit / nginx hit (keepalive)", "gateway-hit", "nginx-keepalive-hit", 0.9),
    ("gateway hit / varnish hit", "gateway-hit", "varnish-hit", 0.9),
    # At most 15% more of the machine's CPU per tagged hit: the load generator and memcached take their share of
    # both, so this holds the gateway to a little less.
    ("gateway hit (http item, 2 tags) / untagged", "gateway-http-hit", "gateway-http-untagged-hit", 0.87),
)
# And the gateway's CPU per hit, in microseconds of this machine's CPU (nginx's and Varnish's are beside it in the
# CPU table), at most this much; by the hit case's wrk run, since the alternating rounds count no CPU.
HIT_CPU_MOST_MICROSECONDS = 35
# And a cold image, which warms itself up before it says ready: its mean over the first 5 s and every 5 s window
# after, as fractions of its steady throughput, at least these; its start to ready at most this many seconds.
WARM_UP_FIRST_LEAST = 0.8
WARM_UP_LATER_LEAST = 0.8
WARM_UP_LATER_FROM = 5
READY_MOST_SECONDS = 60
# The process whose CPU per request gauges how fast the machine ran in each warm-up window: one that the gateway's
# requests keep busy and that does not warm up itself. The pass-through reaches comments-service only (asked for 20 s
# before the gateway starts); hits and real misses reach memcached. On these cores the machine runs in phases up to a
# quarter slower for a minute at a time, in which every process spends that much more CPU per request
# (bench/README.md, "The machine's slow phases").
WARM_UP_GAUGES = {"no_cache": "comments-service"}
WARM_UP_GAUGE = "memcached"
# The cold gateway's name in cpu.tsv and its samples.
WARM_UP_GATEWAY = "warm-up-gateway"


INTRO = """\
The load generator (ab, wrk) shares this machine's {cores} cores with memcached, comments-service, the gateway,
nginx and Varnish, so the absolute numbers say little about any of them alone: compare ratios within this run only.

`ab -c {concurrency}` opens a new connection per request, as the article's run did; `ab -k` keeps connections
alive; `wrk -t2 -c{concurrency} --latency` keeps them alive too. Latencies are in milliseconds (ab rounds them to
whole ones).

"""

CPU_INTRO = """\
User plus system time each process spent, divided by the requests wrk completed: what a request costs
each process, whoever else shares the cores. It counts every thread, the JIT compiler and the garbage
collector included, and a process that is not saturated spends somewhat more per request (fewer
requests per wake-up). nginx is both of its instances together, masters and workers; varnish is varnishd's manager
and its cache process.

"""


class MeasurementError(Exception):
    """A measurement with errors or without a result: the run must not report it as a number."""


def _number(text):
    """The number at the start of text, as awk reads it: "950.12us" is 950.12."""
    match = re.match(r"[0-9.]+", text)
    if not match:
        raise MeasurementError(f"not a number: {text!r}")
    return float(match.group(0))


def wrk_milliseconds(value):
    """A wrk latency, which carries its unit (us, ms, s or m), in milliseconds."""
    number = _number(value)
    if value.endswith("us"):
        return number / 1000
    if value.endswith("ms"):
        return number
    if value.endswith("m"):
        return number * 60000
    return number * 1000


def parse_ab(text):
    """requests/s, p50 and p99 (ms) of ab's report; MeasurementError if an answer was not a 2xx or one failed."""
    if re.search(r"^Non-2xx responses:", text, re.M) or not re.search(r"^Failed requests: *0$", text, re.M):
        raise MeasurementError("ab: non-2xx or failed requests")
    rps = p50 = p99 = None
    for line in text.splitlines():
        fields = line.split()
        if line.startswith("Requests per second:"):
            rps = fields[3]
        elif fields[:1] == ["50%"]:
            p50 = float(fields[1])
        elif fields[:1] == ["99%"]:
            p99 = float(fields[1])
    if rps is None or p50 is None or p99 is None:
        raise MeasurementError("ab: no requests/s or percentiles")
    return {"rps": float(rps), "rps_text": rps, "p50": p50, "p99": p99,
            "keep_alive_requests": _ab_keep_alive_requests(text)}


def _ab_keep_alive_requests(text):
    match = re.search(r"^Keep-Alive requests: *([0-9]+)$", text, re.M)
    return int(match.group(1)) if match else None


def parse_wrk(text):
    """requests/s, p50 and p99 (ms) of `wrk --latency`, its request count and socket errors; MeasurementError if an
    answer was not a 2xx or 3xx."""
    if "Non-2xx or 3xx responses" in text:
        raise MeasurementError("wrk: non-2xx or 3xx responses")
    rps = p50 = p99 = requests = socket_errors = None
    in_distribution = False
    for line in text.splitlines():
        fields = line.split()
        if line.startswith("Requests/sec:"):
            rps = fields[1]
        elif "Latency Distribution" in line:
            in_distribution = True
        elif in_distribution and fields[:1] == ["50%"]:
            p50 = wrk_milliseconds(fields[1])
        elif in_distribution and fields[:1] == ["99%"]:
            p99 = wrk_milliseconds(fields[1])
        elif " requests in " in line and requests is None:
            requests = int(fields[0])
        elif re.match(r"^ *Socket errors:", line):
            socket_errors = line.strip()
    if rps is None or p50 is None or p99 is None:
        raise MeasurementError("wrk: no requests/s or percentiles")
    return {"rps": float(rps), "rps_text": rps, "p50": p50, "p99": p99, "requests": requests,
            "socket_errors": socket_errors}


PARSERS = {"ab": parse_ab, "ab -k": parse_ab, "wrk": parse_wrk}


def parse_per_second(text):
    """The answers in each second of a wrk run with per-second.lua: its "<second>\\t<answers>" lines, in order."""
    counts = {}
    for line in text.splitlines():
        match = re.match(r"^([0-9]+)\t([0-9]+)$", line)
        if match:
            counts[int(match.group(1))] = int(match.group(2))
    return [counts.get(second, 0) for second in range(1, max(counts, default=0) + 1)]


def _rows(path, columns):
    """The tab-separated rows of a file, none if it does not exist; the last column takes the rest of the line."""
    if not path.exists():
        return []
    return [line.split("\t", columns - 1) for line in path.read_text().splitlines() if line]


class Run:
    """What bench/run.sh recorded in a run directory."""

    def __init__(self, directory):
        self.directory = Path(directory)
        self.setup = {}
        self.notes = []
        for key, value in _rows(self.directory / "setup.tsv", 2):
            if key == "note":
                self.notes.append(value)
            else:
                self.setup[key] = value
        # (case id, label, tool, parsed output or None when skipped), in the order they ran.
        self.measurements = []
        for case, label, tool, output in _rows(self.directory / "measurements.tsv", 4):
            result = None if output == "-" else PARSERS[tool]((self.directory / output).read_text())
            self.measurements.append((case, label, tool, result))
        # In the order of the cases, and within a case of TOOLS, whichever tool ran first.
        first_seen = {}
        for case, _, _, _ in self.measurements:
            first_seen.setdefault(case, len(first_seen))
        self.measurements.sort(key=lambda m: (first_seen[m[0]], TOOLS.index(m[2])))
        # (case id, label, steady|cap|quick, seconds measured, [requests/s of each window]).
        self.steady = [(case, label, status, int(seconds), [float(rps) for rps in windows.split(",") if rps])
                       for case, label, status, seconds, windows in _rows(self.directory / "steady.tsv", 5)]
        # (name, label, milliseconds to ready, [answers in each second], steady case id).
        self.warm_ups = [(name, label, int(ready), parse_per_second((self.directory / output).read_text()), case)
                         for name, label, ready, output, case in _rows(self.directory / "warm-up.tsv", 5)]
        # {warm-up name: [(seconds since its first request, {process: CPU ticks so far})]}, from sample_cpu.
        self.warm_up_cpu = {name: _cpu_samples(self.directory / f"out/warm-up-{name}-cpu.tsv")
                            for name, _, _, _, _ in self.warm_ups}
        # (numerator case id, denominator case id, [its requests/s per round], [the other's]), from paired_rounds.
        self.paired = [(a, b, [float(rps) for rps in a_rps.split(",")], [float(rps) for rps in b_rps.split(",")])
                       for a, b, a_rps, b_rps in _rows(self.directory / "paired.tsv", 4)]
        self.cases = {}
        for case, label, _, _ in self.measurements:
            self.cases.setdefault(case, label)

    def steady_cpu_per_request(self, case, process):
        """A process's CPU seconds per request over a steady.tsv case's last window, or None: its ticks in cpu.tsv
        over the requests of out/<case>.wrk.txt."""
        ticks = {when: int(value) for measured, when, name, value in _rows(self.directory / "cpu.tsv", 4)
                 if measured == case and name == process}
        output = self.directory / f"out/{case}.wrk.txt"
        if len(ticks) < 2 or not output.exists():
            return None
        requests = parse_wrk(output.read_text())["requests"]
        return (ticks["after"] - ticks["before"]) / int(self.setup["clock_ticks"]) / requests if requests else None

    def steady_rps(self, case):
        """(requests/s of a steady.tsv case's last window, steady|cap|quick), or (None, None)."""
        for measured, _, status, _, windows in self.steady:
            if measured == case and windows:
                return windows[-1], status
        return None, None

    def result(self, case, tool):
        for measured, _, measured_tool, result in self.measurements:
            if measured == case and measured_tool == tool:
                return result
        return None

    def rps(self, case, tool):
        result = self.result(case, tool)
        return None if result is None else result["rps"]

    def cpu_per_request(self):
        """{case: {process: microseconds of CPU per request}} over each wrk run; processes in the order seen."""
        ticks = {}
        names = {}
        for case, when, name, value in _rows(self.directory / "cpu.tsv", 4):
            by_name = ticks.setdefault((case, when), {})
            # nginx runs twice under one name: its CPU time is both together.
            by_name[name] = by_name.get(name, 0) + int(value)
            # The warm-up's cold gateway is measured in its steady window only, which is not a case of the table.
            if when == "after" and case in self.cases:
                names.setdefault(name, None)
        hertz = int(self.setup["clock_ticks"])
        requests = {case: result["requests"] for case, _, tool, result in self.measurements
                    if tool == "wrk" and result is not None}
        table = {}
        for case in self.cases:
            before, after = ticks.get((case, "before")), ticks.get((case, "after"))
            if not before or not after or not requests.get(case):
                continue
            table[case] = {name: (after[name] - before.get(name, 0)) * 1000000 / hertz / requests[case]
                           for name in after}
        return list(names), table

    def peak_rss(self):
        """({process: peak MB over the run}, {case: {process: peak MB during its wrk run}}); a reading that is not
        a number stays as it is."""
        overall, by_case = {}, {}
        for case, name, kilobytes in _rows(self.directory / "rss.tsv", 3):
            megabytes = f"{int(kilobytes) / 1024:.0f}" if kilobytes.isdigit() else "?"
            overall.setdefault(name, None)
            if megabytes != "?" and (overall[name] is None or int(megabytes) > int(overall[name])):
                overall[name] = megabytes
            if case != "-":
                by_case.setdefault(case, {})[name] = megabytes
        return overall, by_case

    def measurement_notes(self):
        """What the outputs themselves ask the reader to know, in the order they were measured."""
        notes = []
        for _, label, tool, result in self.measurements:
            if tool == "ab -k" and result is None:
                notes.append(f"{label}: ab -k skipped: the answer to an HTTP/1.0 keep-alive request neither says "
                             '"Connection: keep-alive" nor closes the connection, so ab would wait for its timeout')
            elif tool == "ab -k" and result["keep_alive_requests"] == 0:
                notes.append(f"{label}: ab -k kept no connection alive: the server closes after each answer to "
                             "HTTP/1.0")
            elif tool == "wrk" and result["socket_errors"]:
                notes.append(f"{label} (wrk): wrk {result['socket_errors']}")
        return notes


def _cpu_samples(path):
    """sample_cpu's lines, [(seconds, {process: ticks})]; none if it did not run."""
    if not path.exists():
        return []
    header, *lines = path.read_text().splitlines()
    names = header.split("\t")[1:]
    return [(int(fields[0]) / 1000, dict(zip(names, map(int, fields[1:]))))
            for fields in (line.split("\t") for line in lines) if len(fields) == len(names) + 1]


def _table(header, align, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def results_table(run):
    rows = []
    for _, label, tool, result in run.measurements:
        if result is None:
            rows.append([label, tool, "n/a", "n/a", "n/a"])
        else:
            rows.append([label, tool, f"{result['rps']:.0f}", f"{result['p50']:.2f}", f"{result['p99']:.2f}"])
    return _table(["case", "tool", "requests/s", "p50 ms", "p99 ms"], ["---", "---", "---:", "---:", "---:"], rows)


def ratios_table(run):
    rows = []
    for name, numerator, denominator in RATIOS:
        for payload in PAYLOADS:
            cells = [name, payload]
            for tool in TOOLS:
                a = run.rps(f"{numerator}-{payload}", tool)
                b = run.rps(f"{denominator}-{payload}", tool)
                cells.append("n/a" if a is None or not b else f"{a / b:.2f}")
            rows.append(cells)
    return _table(["ratio of requests/s", "payload", "ab", "ab -k", "wrk"], ["---", "---", "---:", "---:", "---:"],
                  rows)


PAIRED_INTRO = """\
The same ratios again, from rounds that alternate the two sides (one 5 s wrk window each, the first side changing
every round), after every case above had run: both sides meet the same stage of their JITs and the same load on the
machine, which two cases minutes apart do not. The figure is the median of the rounds' ratios.

"""


def round_ratios(a_rps, b_rps):
    """Each round's ratio of the two sides' requests/s, leaving out a round whose denominator answered nothing."""
    return [x / y for x, y in zip(a_rps, b_rps) if y]


def paired_medians(run):
    """{(numerator case id, denominator case id): the median of the rounds' ratios}, for pairs with a round."""
    medians = {}
    for a, b, a_rps, b_rps in run.paired:
        ratios = round_ratios(a_rps, b_rps)
        if ratios:
            medians[(a, b)] = statistics.median(ratios)
    return medians


def paired_section(run):
    """Per pair and payload: the median of the rounds' ratios, their range, and each side's median requests/s."""
    if not run.paired:
        return ""
    names = {(numerator, denominator): name for name, numerator, denominator in RATIOS}
    rows = []
    for a, b, a_rps, b_rps in run.paired:
        payload = next(p for p in PAYLOADS if a.endswith("-" + p))
        pair = (a[:-len(payload) - 1], b[:-len(payload) - 1])
        ratios = round_ratios(a_rps, b_rps)
        rows.append([names.get(pair, " / ".join(pair)), payload, str(len(ratios)),
                     f"{statistics.median(ratios):.2f}" if ratios else "n/a",
                     f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "n/a",
                     f"{statistics.median(a_rps):.0f} / {statistics.median(b_rps):.0f}"])
    return ("\n## Ratios in alternating rounds\n\n" + PAIRED_INTRO
            + _table(["ratio of requests/s", "payload", "rounds", "median", "range", "median requests/s"],
                     ["---", "---", "---:", "---:", "---:", "---:"], rows))


def per_case_table(run, names, values):
    """A table of every case by process; a case or process without a value gets n/a."""
    rows = [[label] + [values.get(case, {}).get(name, "n/a") for name in names] for case, label in run.cases.items()]
    return _table(["case"] + names, ["---"] + ["---:"] * len(names), rows)


STEADY_INTRO = """\
wrk ran in windows of 5 s until {windows} in a row were within {tolerance:.0%} of each other, or for at most 120 s
(then the case says "no"); the last window is the measurement above. ab ran after it, on the warm server.

"""


def quick_window(run):
    """How long a quick run measured each case, as its wrk windows say (the run's own choice)."""
    return run.steady[0][3] if run.steady else "a few"


def steady_section(run):
    """Per wrk case: whether its throughput became steady and after how long, and its windows' requests/s."""
    if not run.steady:
        return ""
    if all(status == "quick" for _, _, status, _, _ in run.steady):
        return (f"\n## Steady state\n\nQuick run: one {quick_window(run)} s wrk window per case, measured as it "
                "came; no case was waited for until steady.\n")
    rows = []
    for _, label, status, seconds, windows in run.steady:
        became = {"steady": f"yes, after {seconds} s", "cap": f"no: still changing at the cap, {seconds} s",
                  "quick": f"quick: one {seconds} s window"}[status]
        rows.append([label, became, ", ".join(f"{rps:.0f}" for rps in windows)])
    return ("\n## Steady state\n\n" + STEADY_INTRO.format(windows=STEADY_WINDOWS, tolerance=STEADY_TOLERANCE)
            + _table(["case", "steady", "requests/s of each window"], ["---", "---", "---"], rows))


WARM_UP_INTRO = """\
A cold gateway (a fresh JVM, or a fresh container of the image with `--cpus 2 --memory 512m`) gets requests of
one kind (real misses: a fresh id per request; hits; or the pass-through; one comment, wrk -t2 -c{concurrency})
from the moment its readiness probe says UP, for {seconds} s, counted second by second; then its steady throughput
is measured as a case's (windows of 5 s until three in a row agree within 5%), counted by the same script. Each
kind gets a cold container of its own. Each figure is the requests/s of that second or window as a fraction of
that steady throughput.
Start to ready is from the start of the process (of `docker run` for an image) to readiness UP.
{backend}
"""

WARM_UP_BACKEND = """\
Before each gateway that asks the backend (real misses, the pass-through), comments-service was asked the same
straight for {seconds} s: a new replica joins in front of a warm backend.
"""


def _fraction_text(value):
    return "n/a" if value is None else f"{value:.2f}"


def window_fraction(counts, start, steady):
    """The mean of the WARM_UP_WINDOW seconds from second start on, as a fraction of steady; None without a steady
    throughput, or if the counts end within the window."""
    if not steady or start + WARM_UP_WINDOW > len(counts):
        return None
    return sum(counts[start:start + WARM_UP_WINDOW]) / WARM_UP_WINDOW / steady


def warm_up_figures(run, counts, case):
    """(the mean of the first 5 s, the lowest 5 s window from WARM_UP_LATER_FROM on), as fractions of the steady
    throughput that case measured; None for what the run does not have."""
    steady, _ = run.steady_rps(case)
    windows = (window_fraction(counts, start, steady)
               for start in range(WARM_UP_LATER_FROM, len(counts), WARM_UP_WINDOW))
    later = [fraction for fraction in windows if fraction is not None]
    return window_fraction(counts, 0, steady), min(later) if later else None


TARGETS_INTRO = """\
What the gateway is held to, and where this run puts it. A ratio is judged by the median of its alternating rounds
(below) where the run has them, else by its cases' wrk figures; the CPU per hit by its case's wrk run, in
microseconds of this machine, which runs slower in some phases than in others (its peers' are in the CPU table); the
warm-up by each cold container of the image.

"""


def targets_section(run):
    """Each target the run measured: its aim, its figure as measured once and in alternating rounds, and whether
    it is met."""
    medians = paired_medians(run)
    # A quick run's windows are too short and too cold to hold anything to an aim.
    quick = run.setup.get("quick") == "true"
    rows = []

    def row(name, aim, measured, paired=None, met=None):
        judged = paired if paired is not None else measured
        if judged is None:
            return
        rows.append([name, aim, _fraction_text(measured), _fraction_text(paired),
                     "not judged: quick run" if quick else "yes" if met(judged) else "no"])

    for name, numerator, denominator, least in TARGETS:
        for payload in PAYLOADS:
            a, b = run.rps(f"{numerator}-{payload}", "wrk"), run.rps(f"{denominator}-{payload}", "wrk")
            row(f"{name}, {payload}", f"at least {least:.2f}", a / b if a is not None and b else None,
                medians.get((f"{numerator}-{payload}", f"{denominator}-{payload}")), lambda x: x >= least)
    cpu = run.cpu_per_request()[1]
    for payload in PAYLOADS:
        row(f"gateway CPU per hit, µs, {payload}", f"at most {HIT_CPU_MOST_MICROSECONDS}",
            cpu.get(f"gateway-hit-{payload}", {}).get("gateway"), met=lambda x: x <= HIT_CPU_MOST_MICROSECONDS)
    for name, label, ready, counts, case in run.warm_ups:
        if not name.startswith("image"):
            continue
        first, later = warm_up_figures(run, counts, case)
        row(f"warm-up, {label}: first 5 s", f"at least {WARM_UP_FIRST_LEAST:.2f}", first,
            met=lambda x: x >= WARM_UP_FIRST_LEAST)
        row(f"warm-up, {label}: every 5 s window from {WARM_UP_LATER_FROM} s on", f"at least {WARM_UP_LATER_LEAST:.2f}",
            later, met=lambda x: x >= WARM_UP_LATER_LEAST)
        row(f"warm-up, {label}: start to ready, s", f"at most {READY_MOST_SECONDS}", ready / 1000,
            met=lambda x: x <= READY_MOST_SECONDS)
    if not rows:
        return ""
    return ("\n## Targets\n\n" + TARGETS_INTRO
            + _table(["target", "aim", "as measured", "alternating rounds, median", "met"],
                     ["---", "---", "---:", "---:", "---"], rows))


def warm_up_gauge(name):
    """The process that gauges the machine's speed in a warm-up: by what its name says the gateway was asked."""
    return next((gauge for asks, gauge in WARM_UP_GAUGES.items() if name.endswith(asks)), WARM_UP_GAUGE)


def value_at(samples, name, second):
    """A sampled counter's value at a moment, between the two samples around it; None outside the samples."""
    for (start, before), (end, after) in zip(samples, samples[1:]):
        if start <= second <= end and end > start:
            return before[name] + (after[name] - before[name]) * (second - start) / (end - start)
    return None


def _window_cpu_per_request(run, name, counts, process, start):
    """A process's CPU seconds per request in the WARM_UP_WINDOW seconds of a warm-up from second start on; None
    where it was not sampled."""
    samples = run.warm_up_cpu.get(name, [])
    if not samples or process not in samples[0][1]:
        return None
    first, last = value_at(samples, process, start), value_at(samples, process, start + WARM_UP_WINDOW)
    requests = sum(counts[start:start + WARM_UP_WINDOW])
    if first is None or last is None or not requests or last <= first:
        return None
    return (last - first) / int(run.setup["clock_ticks"]) / requests


def machine_speed(run, name, counts, case, start):
    """How fast the machine ran in the WARM_UP_WINDOW seconds from second start on: the gauge's CPU per request
    while steady over its CPU per request in that window, below 1 when it ran slower; None if the run has no such
    figures. A gateway slow for its own reasons wakes the gauge for fewer requests at a time, which costs the gauge
    more per request too: read it beside gateway_own_cost."""
    steady = run.steady_cpu_per_request(case, warm_up_gauge(name))
    window = _window_cpu_per_request(run, name, counts, warm_up_gauge(name), start)
    return steady / window if steady and window else None


def gateway_own_cost(run, name, counts, case, start):
    """The gateway's CPU per request over the gauge's in that window, against the same while steady: 1 when the
    gateway spends as much of its own per request as once steady, however fast the machine ran; above 1 while its
    code or its state still costs it more. None if the run has no such figures."""
    gauge = warm_up_gauge(name)
    steady_gateway, steady_gauge = (run.steady_cpu_per_request(case, process) for process in (WARM_UP_GATEWAY, gauge))
    gateway, window_gauge = (_window_cpu_per_request(run, name, counts, process, start)
                             for process in (WARM_UP_GATEWAY, gauge))
    if not (steady_gateway and steady_gauge and gateway and window_gauge):
        return None
    return gateway / window_gauge / (steady_gateway / steady_gauge)


WARM_UP_SPEED = """
The machine's speed and the gateway's own cost in each 5 s window, as "speed / own", by a gauge: memcached for hits
and real misses, comments-service for the pass-through. Speed is the CPU a request cost the gauge while the gateway
was steady over what it cost in that window (below 1: the machine ran slower, or the gateway woke the gauge for
fewer requests at a time); own is the gateway's CPU per request over the gauge's, against the same while steady (1:
the gateway spent as much of its own per request as once steady, however fast the machine ran; above 1: its code or
its state still cost it more). On these cores the machine runs in phases up to a quarter slower for a minute at a
time (bench/README.md, "The machine's slow phases").

"""


def warm_up_speed_table(run):
    """Each warm-up's gauge and, for each 5 s window, its speed and the gateway's own cost; empty if the run
    sampled no gauge."""
    seconds = int(run.setup.get("warm_up_seconds", 60))
    starts = range(0, seconds - WARM_UP_WINDOW + 1, WARM_UP_WINDOW)
    rows = []
    for name, label, _, counts, case in run.warm_ups:
        cells = [(machine_speed(run, name, counts, case, start), gateway_own_cost(run, name, counts, case, start))
                 for start in starts]
        if not any(speed for speed, _ in cells):
            continue
        rows.append([label, warm_up_gauge(name)]
                    + [f"{_fraction_text(speed)} / {_fraction_text(own)}" for speed, own in cells])
    if not rows:
        return ""
    return (WARM_UP_SPEED
            + _table(["gateway", "gauge"] + [f"{start}-{start + WARM_UP_WINDOW} s" for start in starts],
                     ["---", "---"] + ["---:"] * len(starts), rows))


def warm_up_section(run):
    """Start to ready, the first 5 s second by second, and each later 5 s window, as fractions of steady."""
    if not run.warm_ups:
        return ""
    seconds = int(run.setup.get("warm_up_seconds", 60))
    first = min(5, seconds)
    windows = range(WARM_UP_WINDOW, seconds - WARM_UP_WINDOW + 1, WARM_UP_WINDOW)
    first_rows, window_rows = [], []
    for _, label, ready, counts, case in run.warm_ups:
        steady, status = run.steady_rps(case)

        def fraction(answers):
            return _fraction_text(answers / steady if steady else None)

        steady_text = "n/a" if steady is None else f"{steady:.0f}" + {"steady": "", "cap": " (not steady)",
                                                                      "quick": " (quick: one window)"}[status]
        first_rows.append([label, f"{ready / 1000:.1f}", steady_text]
                          + [fraction(counts[i]) if i < len(counts) else "n/a" for i in range(first)])
        window_rows.append([label] + [_fraction_text(window_fraction(counts, start, steady)) for start in windows])
    # A run from before the backend was asked first recorded no such setting.
    backend_seconds = int(run.setup.get("backend_warm_seconds", 0))
    backend = WARM_UP_BACKEND.format(seconds=backend_seconds) if backend_seconds else ""
    parts = ["\n## Warm-up\n\n",
             WARM_UP_INTRO.format(concurrency=run.setup["concurrency"], seconds=seconds, backend=backend),
             _table(["gateway", "start to ready, s", "steady requests/s"] + [f"{i + 1} s" for i in range(first)],
                    ["---", "---:", "---:"] + ["---:"] * first, first_rows)]
    if len(windows):
        parts += ["\nLater windows of 5 s:\n\n",
                  _table(["gateway"] + [f"{start}-{start + WARM_UP_WINDOW} s" for start in windows],
                         ["---"] + ["---:"] * len(windows), window_rows)]
    parts.append(warm_up_speed_table(run))
    return "".join(parts)


def zipf_section(run):
    """The Zipf case's section, which bench/zipf.sh wrote in the run's directory; empty if it did not run."""
    path = run.directory / "zipf.md"
    return "\n" + path.read_text() if path.exists() else ""


def warm_up_chart_data(run):
    """A header line (second, then each warm-up's label), then per second the answers of each as a fraction of its
    steady throughput ("?" past its end or without one): a hit and a miss differ tenfold in requests/s."""
    lines = ["\t".join(["second"] + [label for _, label, _, _, _ in run.warm_ups])]
    steady = [run.steady_rps(case)[0] for _, _, _, _, case in run.warm_ups]
    longest = max((len(counts) for _, _, _, counts, _ in run.warm_ups), default=0)
    for second in range(longest):
        lines.append("\t".join([str(second + 1)] + [
            f"{counts[second] / rps:.3f}" if second < len(counts) and rps else "?"
            for (_, _, _, counts, _), rps in zip(run.warm_ups, steady)]))
    return "".join(line + "\n" for line in lines)


def memcached_summary(run):
    stats = {}
    path = run.directory / "memcached-stats.txt"
    for line in path.read_text().splitlines() if path.exists() else []:
        fields = line.split()
        if len(fields) >= 3 and fields[0] == "STAT":
            stats[fields[1]] = fields[2]
    limit = int(run.setup["memcached_mb"])
    items = int(stats.get("curr_items", 0))
    used = float(stats.get("bytes", 0)) / 1048576
    evicted = int(stats.get("evictions", 0))
    return f"-m {limit}: {items} items, {used:.0f} MB of {limit} MB used at the end; {evicted} evicted during the run"


def _after_colon(line):
    """What follows "key: " in a line such as /proc/cpuinfo's "model name : ..." or nginx -v's."""
    parts = re.split(r": *", line)
    return parts[1] if len(parts) > 1 else ""


def setup_section(run):
    s = run.setup
    cpu = _after_colon(s.get("cpu", "")) or "unknown CPU"
    memory = f"{_number(s['memory'].split()[1]) / 1048576:.0f} GiB"
    nginx = re.sub(r".*: ", "", s["nginx"]) if s.get("nginx") else "no nginx"
    # A run from before Varnish was a peer did not record it at all.
    varnish = "" if "varnish" not in s else ", " + (
        re.sub(r".*\(varnish-([^ ]*) .*", r"varnish \1", s["varnish"]) if s["varnish"] else "no varnish")
    ab = s["ab"].split()[4]
    wrk = " ".join(s["wrk"].split()[:2])
    mode = (f"quick (about {quick_window(run)} s per measurement, no warm-up)" if s["quick"] == "true"
            else "full (wrk in 5 s windows until steady, then ab -n 10000)")
    return "\n".join([
        f"- machine: {s['cores']} cores, {cpu}, {memory}",
        f"- load average before the run: {s['load_before']}; after: {s['load_after']}",
        f"- java: {s['java']}",
        f"- gateway JVM flags: `{s.get('gateway_java_opts') or 'none'}`; settings: `{s.get('gateway_args') or 'none'}`"
        f" (near-cache gateway: `{s['near_cache_args']}`"
        + (f"; whole-answers gateway: `{s['http_items_args']}`" if s.get("http_items_args") else "") + ")",
        f"- comments-service JVM flags: `{s.get('comments_java_opts') or 'none'}`",
        f"- memcached {s['memcached'].split()[1]}, {nginx}{varnish}, ab {ab}, {wrk}",
        f"- mode: {mode}; took {s['seconds']} s",
    ]) + "\n"


def markdown(run):
    s = run.setup
    cpu_names, cpu = run.cpu_per_request()
    peak, rss_by_case = run.peak_rss()
    parts = [
        f"# {s['title']}\n\n",
        INTRO.format(cores=s["cores"], concurrency=s["concurrency"]),
        results_table(run),
        targets_section(run),
        "\n## Ratios\n\n",
        ratios_table(run),
        paired_section(run),
        "\n## CPU time per request (microseconds, during the wrk run)\n\n",
        CPU_INTRO,
        per_case_table(run, cpu_names, {case: {name: f"{microseconds:.1f}" for name, microseconds in values.items()}
                                        for case, values in cpu.items()}),
        "\n## Peak RSS (VmHWM, MB)\n\nOver the whole run:\n\n",
        _table(["process", "MB"], ["---", "---:"], [[name, mb or "?"] for name, mb in peak.items()]),
        "\nDuring each wrk run (the peak is reset before each one):\n\n",
        per_case_table(run, list(peak), rss_by_case),
        steady_section(run),
        warm_up_section(run),
        zipf_section(run),
        f"\n## memcached\n\n{memcached_summary(run)}\n",
        "\n## Set-up\n\n",
        setup_section(run),
    ]
    notes = run.notes + run.measurement_notes()
    if notes:
        parts.append("\n## Notes\n\n" + "".join(f"- {note}\n" for note in notes))
    return "".join(parts)


def chart_data(run):
    """One line per case: its label, then requests/s as each tool printed it, "?" where it has none."""
    lines = []
    for case, label in run.cases.items():
        results = [run.result(case, tool) for tool in TOOLS]
        lines.append("\t".join([label] + ["?" if result is None else result["rps_text"] for result in results]))
    return "".join(line + "\n" for line in lines)


def response_head(text):
    """(status, {lower-case name: value}) of a response head as curl -D - writes it; (None, {}) if there is none."""
    status, headers = None, {}
    for line in text.replace("\r", "").splitlines():
        match = re.match(r"HTTP/[0-9.]+ ([0-9]{3})", line)
        if match:
            # A final answer after an interim one (100 Continue) starts over.
            status, headers = int(match.group(1)), {}
        elif status is not None and ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return status, headers


def _x_cache(headers, _now):
    value = headers.get("x-cache")
    return None if value == "HIT" else f"X-Cache is {value or 'missing'}, not HIT"


def _stored_date(headers, now):
    # LocalResponseCache answers with the headers it stored, so a hit carries the Date of the backend's answer,
    # which was stored at least a second before; a Date of this second is an answer made now.
    value = headers.get("date")
    try:
        stored = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return f"no Date to tell a stored answer by: {value!r}"
    return None if int(now) - int(stored) >= 1 else f"Date {value} is of this second: not a stored answer"


def _from_memcached(headers, _now):
    # nginx's memcached_pass sends no Cache-Control; an answer that has it came from the @fallback.
    return None if "cache-control" not in headers else "it has Cache-Control: nginx's @fallback answered it"


def _x_varnish(headers, _now):
    # Varnish's X-Varnish names the request, and on a hit also the request that stored the object. Age would say
    # it as well, but only once the object is a second old.
    value = headers.get("x-varnish")
    return None if value and len(value.split()) == 2 else f"X-Varnish is {value or 'missing'}, not a hit's two ids"


HIT_RULES = {"x-cache": _x_cache, "stored-date": _stored_date, "no-cache-control": _from_memcached,
             "x-varnish": _x_varnish}


def not_a_hit(rule, head, now):
    """Why the response head is not a hit by rule (HIT_RULES), or None if it is one. A hit is a 200."""
    status, headers = response_head(head)
    if status != 200:
        return "no answer" if status is None else f"status {status}, not 200"
    return HIT_RULES[rule](headers, now)


def steady(windows):
    """0 if the last STEADY_WINDOWS windows' requests/s differ by at most STEADY_TOLERANCE of the largest, else 1."""
    last = [float(rps) for rps in windows][-STEADY_WINDOWS:]
    if len(last) < STEADY_WINDOWS:
        return 1
    return 0 if max(last) - min(last) <= STEADY_TOLERANCE * max(last) else 1


def check(tool, path, rps_only=False):
    """Prints one measurement's line for the console, or its requests/s alone; exits non-zero, showing the output,
    on errors."""
    text = Path(path).read_text()
    try:
        result = PARSERS[tool](text)
    except MeasurementError:
        sys.stderr.write(text)
        return 1
    if rps_only:
        print(result["rps_text"])
    else:
        print(f"    {tool:<7s} {result['rps']:10.0f} req/s   p50 {result['p50']:7.2f} ms   p99 {result['p99']:7.2f} ms")
    return 0


# --- bench/zipf.sh: Zipf-distributed keys on three memcached servers -------------------------------------------

# What a memcached server counts as an operation here: every get (a key of a multi-get, an `mg`), every store (a
# `set`, `ms` or the lock's `add`) and every delete (the lock's release).
ZIPF_OPERATIONS = ("cmd_get", "cmd_set", "delete_hits", "delete_misses")
ZIPF_LOOKUP_RESULTS = ("hit", "miss", "coalesced", "error", "bypass", "updating", "stale", "expired", "revalidated")
# The size classes of zipf.lua, which must be these: 200 sizes spaced evenly in log size, each 3.2% above the one
# before, from 100 B to 50,000 B (a KB here is 1,000 bytes).
ZIPF_CLASSES = 200
ZIPF_SMALLEST = 100
ZIPF_LARGEST = 50000
# zipf.lua's generator (Park and Miller's minimal standard), exact in both languages.
ZIPF_MODULUS = 2147483647
# The size buckets of the mix, by their largest size.
ZIPF_BUCKETS = ((1000, "100 B to 1 KB"), (4000, "1 to 4 KB"), (16000, "4 to 16 KB"), (50000, "16 to 50 KB"))

ZIPF_INTRO = """\
{keys:,} keys asked with Zipf-distributed popularity (s = {s}): the hottest key takes {hottest:.1%} of the requests
and the hottest 1% of the keys {top:.0%}. Each key is an item of a size of its own, from 100 B to 50 KB (the size
mix below), which an origin nginx serves as static files with `Cache-Control: max-age=3600`. The keys live on three
memcached servers placed by nginx's ring (`hash $memcached_key consistent`; the gateways with
`memcached.ring=nginx`). Nothing was stored beforehand: the gateway stores its misses (the bodies, as nginx reads
them), nginx reads what the gateway stored and sends its misses to the origin without storing them, and the gateway
with its near-cache comes last on the same memcached. Each target ran alone beside memcached and the origin:
{warm} s of warm-up, then {seconds} s measured, with `wrk -t{threads} -c{connections} --latency` as bench/run.sh's
wrk runs, and [`zipf.lua`](../zipf.lua), each run with a seed of its own. An answer slower than {timeout} counts as
failed (wrk's `--timeout`).

"""

ZIPF_NOTES = """\
The hit ratio is, for a gateway, its answers with `X-Cache: HIT` (its near-cache's among them) of its lookups, and
for nginx, the gets that found their item. memcached operations are the three servers' gets, stores (the replica
lock's `add` among them) and deletes during the measured run, per request; a server's share is its part of them.
memcached fills from target to target (the gateway's misses are stored, and the later targets find what earlier
ones asked for), so a later target meets a higher hit ratio. The load generator shares the machine's {cores} cores
with every server: compare within this run only.

"""

ZIPF_SIZES = """\
The rank of a key says nothing of its size: zipf.lua draws each rank's size class once, from a lognormal
distribution of sizes (median {median:,} B, sigma {sigma} in ln bytes, seed {seed}) clipped to 100 B to 50 KB, over
{classes} classes spaced evenly in log size; the key is `/items/<rank>-<class>`, and the origin serves the class's
file for it. report.py draws the same classes, and each run's checksum of them matches. Sizes in bytes, a KB being
1,000 of them; a request's size is its key's body.

"""


def zipf_class_bytes(size_class):
    """The body size of a class, in bytes."""
    ratio = ZIPF_LARGEST / ZIPF_SMALLEST
    return math.floor(ZIPF_SMALLEST * ratio ** (size_class / (ZIPF_CLASSES - 1)) + 0.5)


def zipf_classes(keys, seed, median, sigma):
    """Each rank's size class, index 0 for rank 1, as zipf.lua draws them: twelve uniform draws less six make a
    normal deviate, which places the rank's size on the lognormal; the operations and their order are zipf.lua's, so
    that the doubles come out the same."""
    span = math.log(ZIPF_LARGEST / ZIPF_SMALLEST)
    centre = math.log(median / ZIPF_SMALLEST) / span * (ZIPF_CLASSES - 1)
    spread = sigma / span * (ZIPF_CLASSES - 1)
    state, classes = seed, []
    for _ in range(keys):
        total = 0.0
        for _ in range(12):
            state = state * 16807 % ZIPF_MODULUS
            total = total + state / ZIPF_MODULUS
        size_class = math.floor(centre + spread * (total - 6) + 0.5)
        classes.append(max(0, min(ZIPF_CLASSES - 1, size_class)))
    return classes


def zipf_checksum(classes):
    """zipf.lua's checksum of the classes: each weighted by its rank, so that two ranks that swap classes change it."""
    return sum(size_class * (rank % 1000 + 1) for rank, size_class in enumerate(classes, start=1))


def zipf_path(rank, size_class):
    return f"/items/{rank}-{size_class}"


def zipf_size_figures(weights):
    """{bytes: weight} -> median, mean, p90 and largest size, a percentile being the smallest size that reaches it."""
    total = sum(weights.values())
    figures, reached = {"mean": sum(size * weight for size, weight in weights.items()) / total}, 0
    for size in sorted(weights):
        reached += weights[size]
        for name, quantile in (("median", 0.5), ("p90", 0.9)):
            if name not in figures and reached >= quantile * total:
                figures[name] = size
    figures["max"] = max(size for size, weight in weights.items() if weight)
    return figures


class ZipfRun:
    """What bench/zipf.sh recorded in its work directory, all tab-separated:
        setup.tsv       key, value: the run's title, its settings (the size mix's among them), machine, versions, flags
        targets.tsv     target id, label, gateway|memcached (where its hit ratio comes from)
        ID.wrk.txt      the measured `wrk --latency` run, with zipf.lua's "zipf<TAB>name<TAB>..." lines
        ID.before.stats, ID.after.stats, end.stats   server index (1-3), stat, value: memcached's `stats`
        ID.before.prom, ID.after.prom   a gateway's memcached_cache_lookups_total and _stores_total lines
        hot.tsv         rank, path, index of the server that holds it ("-": none)
    """

    def __init__(self, directory):
        self.directory = Path(directory)
        self.setup = dict(_rows(self.directory / "setup.tsv", 2))
        self.targets = _rows(self.directory / "targets.tsv", 3)
        self.hot = _rows(self.directory / "hot.tsv", 3)
        self.servers = self.setup["servers"].split()
        self._classes = None

    @property
    def classes(self):
        """Each rank's size class (index 0 for rank 1), drawn as zipf.lua drew them."""
        if self._classes is None:
            s = self.setup
            self._classes = zipf_classes(int(s["keys"]), int(s["size_seed"]), float(s["size_median"]),
                                         float(s["size_sigma"]))
        return self._classes

    def stats(self, name):
        """{server index: {stat: number}} of NAME.stats."""
        servers = {}
        for server, stat, value in _rows(self.directory / f"{name}.stats", 3):
            if re.fullmatch(r"[0-9]+", value):
                servers.setdefault(int(server), {})[stat] = int(value)
        return servers

    def operations(self, target):
        """{server index: operations during the target's measured run}."""
        before, after = self.stats(f"{target}.before"), self.stats(f"{target}.after")
        return {server: sum(after.get(server, {}).get(stat, 0) - before.get(server, {}).get(stat, 0)
                            for stat in ZIPF_OPERATIONS)
                for server in range(1, len(self.servers) + 1)}

    def stat_delta(self, target, stat):
        before, after = self.stats(f"{target}.before"), self.stats(f"{target}.after")
        return sum(after[server].get(stat, 0) - before.get(server, {}).get(stat, 0) for server in after)

    def lookups(self, target):
        """{X-Cache result: lookups during the measured run}, over every route."""
        before, after = (parse_lookups(self.directory / f"{target}.{when}.prom") for when in ("before", "after"))
        return {result: after.get(result, 0) - before.get(result, 0) for result in after}

    def figures(self, target, kind):
        """The measured run's wrk figures, hit ratio (None if nothing was looked up), memcached operations per
        request and each server's share of them."""
        figures = parse_zipf_wrk((self.directory / f"{target}.wrk.txt").read_text())
        if kind == "gateway":
            lookups = self.lookups(target)
            total = sum(lookups.values())
            figures["hit_ratio"] = lookups.get("hit", 0) / total if total else None
        else:
            gets = self.stat_delta(target, "cmd_get")
            figures["hit_ratio"] = self.stat_delta(target, "get_hits") / gets if gets else None
        operations = self.operations(target)
        total = sum(operations.values())
        figures["operations"] = operations
        figures["operations_per_request"] = total / figures["requests"] if figures["requests"] else None
        figures["shares"] = {server: count / total if total else 0.0 for server, count in operations.items()}
        return figures


def parse_lookups(path):
    """{result: count} of memcached_cache_lookups_total lines, summed over routes; {} if the file is missing."""
    counts = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        match = re.match(r'^memcached_cache_lookups_total\{([^}]*)\} ([0-9.eE+-]+)$', line)
        result = re.search(r'result="([^"]*)"', match.group(1)) if match else None
        if result:
            counts[result.group(1)] = counts.get(result.group(1), 0) + float(match.group(2))
    return counts


def parse_zipf_wrk(text):
    """requests/s, p50 and p99 (ms), requests, failed answers (non-2xx, socket errors and timeouts, counted, not
    refused) in all and by kind, zipf.lua's counts and its requests per size class of `wrk --latency -s zipf.lua`."""
    figures = {"rps": None, "p50": None, "p99": None, "requests": 0, "failed": 0, "zipf": {}, "classes": {},
               "failures": {"non-2xx": 0, "socket errors": 0, "timeouts": 0}}
    in_distribution = False
    for line in text.splitlines():
        fields = line.split()
        if line.startswith("Requests/sec:"):
            figures["rps"] = float(fields[1])
        elif "Latency Distribution" in line:
            in_distribution = True
        elif in_distribution and fields[:1] in (["50%"], ["99%"]):
            figures["p" + fields[0][:-1]] = wrk_milliseconds(fields[1])
        elif " requests in " in line:
            figures["requests"] = int(fields[0])
        elif "Non-2xx or 3xx responses:" in line:
            figures["failures"]["non-2xx"] += int(fields[-1])
        elif re.match(r"^ *Socket errors:", line):
            counts = dict(re.findall(r"([a-z]+) ([0-9]+)", line))
            figures["failures"]["timeouts"] += int(counts.pop("timeout", 0))
            figures["failures"]["socket errors"] += sum(int(count) for count in counts.values())
        elif fields[:2] == ["zipf", "class"] and len(fields) == 4:
            figures["classes"][int(fields[2])] = int(fields[3])
        elif fields[:1] == ["zipf"] and len(fields) == 3:
            figures["zipf"][fields[1]] = int(fields[2])
    if figures["rps"] is None or figures["p50"] is None or figures["p99"] is None:
        raise MeasurementError("wrk: no requests/s or percentiles")
    figures["failed"] = sum(figures["failures"].values())
    return figures


def zipf_shares(keys, s):
    """(the hottest key's share of the requests, the hottest 1% of the keys' share)."""
    weights = [rank ** -s for rank in range(1, keys + 1)]
    total = sum(weights)
    return weights[0] / total, sum(weights[:max(1, keys // 100)]) / total


def _percent(value):
    return "n/a" if value is None else f"{value:.1%}"


def _bytes(value):
    return f"{value:,.0f}"


def zipf_line(run, target):
    """One target's figures on one line, for the console."""
    for measured, label, kind in run.targets:
        if measured == target:
            f = run.figures(target, kind)
            shares = " ".join(_percent(f["shares"][server]) for server in sorted(f["shares"]))
            return (f"    {label}: {f['rps']:.0f} req/s, p50 {f['p50']:.2f} ms, p99 {f['p99']:.2f} ms, hit ratio "
                    f"{_percent(f['hit_ratio'])}, servers {shares}, failed {f['failed']}")
    raise MeasurementError(f"no target {target}")


def zipf_checks(run):
    """What makes the run unusable, one sentence each: none if it passes."""
    failures = []
    bound = float(run.setup["max_errors"])
    if not run.targets:
        failures.append("no target was measured")
    expected = None
    for target, label, kind in run.targets:
        f = run.figures(target, kind)
        if not f["requests"]:
            failures.append(f"{label}: no request completed")
        elif f["failed"] > bound * f["requests"]:
            kinds = ", ".join(f"{kind} {count}" for kind, count in f["failures"].items() if count)
            failures.append(f"{label}: {f['failed']} of {f['requests']} answers failed ({kinds}; a timeout is an "
                            f"answer slower than wrk's {run.setup.get('timeout', '2s')}), more than {bound:.1%}")
        if not f["hit_ratio"]:
            failures.append(f"{label}: no hit")
        for server, count in f["operations"].items():
            if count <= 0:
                failures.append(f"{label}: memcached {run.servers[server - 1]} got no operation")
        expected = zipf_checksum(run.classes) if expected is None else expected
        if f["zipf"].get("checksum") != expected:
            failures.append(f"{label}: zipf.lua's size classes (checksum {f['zipf'].get('checksum')}) are not "
                            f"report.py's ({expected}), so the size mix would not be the one asked")
    return failures


def zipf_markdown(run):
    s = run.setup
    keys = int(s["keys"])
    hottest, top = zipf_shares(keys, float(s["s"]))
    parts = [f"## {s['title']}\n\n", ZIPF_INTRO.format(
        keys=keys, s=s["s"], hottest=hottest, top=top, warm=s["warm_seconds"], seconds=s["seconds"],
        threads=s["threads"], connections=s["connections"], timeout=s.get("timeout", "2s"))]
    rows, lookup_rows, per_class = [], [], {}
    for target, label, kind in run.targets:
        f = run.figures(target, kind)
        per_request = f["operations_per_request"]
        rows.append([label, f"{f['rps']:,.0f}", f"{f['p50']:.2f}", f"{f['p99']:.2f}", _percent(f["hit_ratio"]),
                     "n/a" if per_request is None else f"{per_request:.2f}"]
                    + [_percent(f["shares"][server]) for server in sorted(f["shares"])]
                    + [f"{f['failed']} of {f['requests']:,}", f"{f['zipf'].get('distinct', 0):,}"])
        for size_class, count in f["classes"].items():
            per_class[size_class] = per_class.get(size_class, 0) + count
        if kind == "gateway":
            lookups = run.lookups(target)
            lookup_rows.append([label] + [f"{lookups.get(result, 0):,.0f}" for result in ZIPF_LOOKUP_RESULTS])
    servers = [f"`{server}`" for server in run.servers]
    parts.append(_table(["target", "requests/s", "p50 ms", "p99 ms", "hit ratio", "memcached ops per request"]
                        + servers + ["failed", "distinct keys asked"],
                        ["---"] + ["---:"] * (7 + len(servers)), rows))
    parts.append("\n" + zipf_ratios(run) + ZIPF_NOTES.format(cores=s["cores"]))
    parts.append(zipf_servers_section(run))
    parts.append("\n### Size mix\n\n" + ZIPF_SIZES.format(
        median=int(float(s["size_median"])), sigma=s["size_sigma"], seed=s["size_seed"], classes=ZIPF_CLASSES))
    parts.append(zipf_size_tables(run, per_class))
    if lookup_rows:
        parts.append("\n### The gateways' lookups during the measured run, by `X-Cache`\n\n")
        parts.append(_table(["target"] + list(ZIPF_LOOKUP_RESULTS), ["---"] + ["---:"] * len(ZIPF_LOOKUP_RESULTS),
                            lookup_rows))
    parts.append("\n### Set-up\n\n" + "\n".join([
        f"- machine: {s['cores']} cores, {s.get('cpu') or 'unknown CPU'}; load average before {s['load_before']}, "
        f"after {s['load_after']}; took {s['took']} s",
        f"- gateway: {s['gateway_java']}, `{s.get('gateway_java_opts') or 'no flags'}`, `{s['gateway_args'].strip()}`"
        f", the one route of [`zipf-items.yml`](../zipf-items.yml); with the near-cache also `{s['near_cache_args']}`",
        f"- origin: nginx, [`nginx-origin.conf.template`](../nginx-origin.conf.template), {ZIPF_CLASSES} files, "
        f"`expires 1h`",
        f"- memcached: {', '.join(run.servers)}, `-m {s['memcached_mb']}` each; {s['versions']}",
    ]) + "\n")
    failures = zipf_checks(run)
    if failures:
        parts.append("\n### Checks that failed\n\n" + "".join(f"- {failure}\n" for failure in failures))
    return "".join(parts)


def zipf_servers_section(run):
    """Each server's items, their bytes and evictions at the end, and which of the hottest keys it holds."""
    s = run.setup
    keys = int(s["keys"])
    end = run.stats("end")
    indexes = range(1, len(run.servers) + 1)
    items = {server: end.get(server, {}).get("curr_items", 0) for server in indexes}
    weights = [rank ** -float(s["s"]) for rank in range(1, keys + 1)]
    total_weight = sum(weights)
    held = {}
    for rank, _, server in run.hot:
        if server != "-":
            rank = int(rank)
            held.setdefault(int(server), []).append(
                f"{rank}: {weights[rank - 1] / total_weight:.1%}, "
                f"{_bytes(zipf_class_bytes(run.classes[rank - 1]))} B")
    rows = [[f"`{run.servers[server - 1]}`", f"{items[server]:,}",
             _percent(items[server] / sum(items.values()) if sum(items.values()) else None),
             f"{end.get(server, {}).get('bytes', 0) / 1e6:,.1f}",
             f"{end.get(server, {}).get('evictions', 0):,}",
             "; ".join(held.get(server, [])) or "none"] for server in indexes]
    return ("Each server at the end: its items, the megabytes they take (memcached's `bytes`: bodies, keys and item\n"
            f"headers) of its `-m {s['memcached_mb']}`, the items it evicted for room, and which of the ten hottest "
            "keys it holds\n(rank: share of the requests, size):\n\n"
            + _table(["server", "items", "share of items", "MB of items", "evictions", "hottest keys"],
                     ["---", "---:", "---:", "---:", "---:", "---"], rows))


def zipf_size_tables(run, per_class):
    """The sizes of the keys and of the measured requests (median, mean, p90, largest), and their shares by bucket."""
    keys = len(run.classes)
    key_sizes = {}
    for size_class in run.classes:
        size = zipf_class_bytes(size_class)
        key_sizes[size] = key_sizes.get(size, 0) + 1
    request_sizes = {zipf_class_bytes(size_class): count for size_class, count in per_class.items()}
    requests = sum(request_sizes.values())
    rows = []
    for label, sizes in ((f"the {keys:,} keys", key_sizes), ("the requests of the measured runs", request_sizes)):
        if sum(sizes.values()):
            f = zipf_size_figures(sizes)
            rows.append([label] + [_bytes(f[name]) for name in ("median", "mean", "p90", "max")])
    parts = [_table(["bytes of", "median", "mean", "p90", "largest"], ["---", "---:", "---:", "---:", "---:"], rows)]
    bucket_rows, smallest = [], 0
    for largest, label in ZIPF_BUCKETS:
        in_keys = sum(count for size, count in key_sizes.items() if smallest < size <= largest)
        in_requests = sum(count for size, count in request_sizes.items() if smallest < size <= largest)
        bucket_rows.append([label, f"{in_keys:,}", _percent(in_keys / keys if keys else None),
                            _percent(in_requests / requests if requests else None)])
        smallest = largest
    parts.append("\n" + _table(["size", "keys", "share of the keys", "share of the requests"],
                               ["---", "---:", "---:", "---:"], bucket_rows))
    total = sum(size * count for size, count in key_sizes.items())
    parts.append(f"\nThe {keys:,} bodies together take {total / 1e6:,.1f} MB, about a third of it on each server "
                 f"once all are stored,\nagainst the `-m {run.setup['memcached_mb']}` of each: the evictions above "
                 "say whether a server's third, with its item headers\nand slab rounding, fitted.\n")
    return "".join(parts)


def zipf_ratios(run):
    """Each gateway's requests/s against nginx's, as a sentence; none without nginx."""
    rps = {target: (label, run.figures(target, kind)["rps"]) for target, label, kind in run.targets}
    if "nginx" not in rps or not rps["nginx"][1]:
        return ""
    ratios = [f"{label} {value / rps['nginx'][1]:.2f}" for target, (label, value) in rps.items() if target != "nginx"]
    return f"Requests/s against nginx's: {', '.join(ratios)}.\n\n" if ratios else ""


def zipf_keys(directory):
    """Writes the run's sizes for bench/zipf.sh: classes.tsv (class, bytes), from which it makes the origin's files,
    and keys.tsv (rank, path, bytes), every key as zipf.lua asks it."""
    run = ZipfRun(directory)
    with open(run.directory / "classes.tsv", "w") as out:
        for size_class in range(ZIPF_CLASSES):
            out.write(f"{size_class}\t{zipf_class_bytes(size_class)}\n")
    with open(run.directory / "keys.tsv", "w") as out:
        for rank, size_class in enumerate(run.classes, start=1):
            out.write(f"{rank}\t{zipf_path(rank, size_class)}\t{zipf_class_bytes(size_class)}\n")


def main(argv):
    if len(argv) == 4 and argv[1] in ("check", "rps") and argv[2] in PARSERS:
        return check(argv[2], argv[3], rps_only=argv[1] == "rps")
    if len(argv) == 3 and argv[1] == "hit" and argv[2] in HIT_RULES:
        why = not_a_hit(argv[2], sys.stdin.read(), time.time())
        if why:
            print(why)
        return 1 if why else 0
    if len(argv) >= 3 and argv[1] == "steady":
        return steady(argv[2:])
    if len(argv) == 3 and argv[1] == "markdown":
        sys.stdout.write(markdown(Run(argv[2])))
        return 0
    if len(argv) == 3 and argv[1] == "chart":
        sys.stdout.write(chart_data(Run(argv[2])))
        return 0
    if len(argv) == 3 and argv[1] == "warm-up-chart":
        sys.stdout.write(warm_up_chart_data(Run(argv[2])))
        return 0
    if len(argv) == 3 and argv[1] == "zipf":
        run = ZipfRun(argv[2])
        sys.stdout.write(zipf_markdown(run))
        failures = zipf_checks(run)
        for failure in failures:
            sys.stderr.write(f"zipf: {failure}\n")
        return 1 if failures else 0
    if len(argv) == 3 and argv[1] == "zipf-keys":
        zipf_keys(argv[2])
        return 0
    if len(argv) == 4 and argv[1] == "zipf-line":
        print(zipf_line(ZipfRun(argv[2]), argv[3]))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
