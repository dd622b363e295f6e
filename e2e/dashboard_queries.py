#!/usr/bin/env python3
"""Asks a Prometheus every query of a Grafana dashboard, and fails unless each one has data.

    e2e/dashboard_queries.py DASHBOARD URL START END NAME=VALUE...

Each panel target's expression, with every $NAME and ${NAME} replaced by its VALUE (the dashboard's variables and
Grafana's own, such as __rate_interval), goes to URL's /api/v1/query at END, then each second back to START, until
it returns a series whose value is a number other than zero. A zero does not count: the gateway registers its
counters at zero, so a series alone would show that a name is right, not that the panel shows what happened. A
target fails at once if it does not parse, has a variable left, or hides a missing series behind `or vector(` or
`absent(`; a panel fails if it or a target names another datasource than ${datasource}, so that the dashboard
imports anywhere. Prints each panel's title with the series its targets returned; exits 1 if any failed.
"""

import json
import math
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

DATASOURCE = "${datasource}"
FORBIDDEN = ("or vector(", "absent(")


def panels(dashboard):
    """Every panel, those inside collapsed rows too."""
    for panel in dashboard.get("panels", []):
        yield panel
        yield from panel.get("panels", [])


def substitute(expr, values):
    # Longest names first, so that $__range does not eat the start of a longer name.
    for name in sorted(values, key=len, reverse=True):
        expr = expr.replace("${" + name + "}", values[name])
        expr = re.sub(r"\$" + re.escape(name) + r"(?![A-Za-z0-9_])", values[name], expr)
    return expr


def query(url, expr, at):
    """The vector an instant query returns; raises ValueError with Prometheus's error if it has one."""
    address = f"{url}/api/v1/query?" + urllib.parse.urlencode({"query": expr, "time": at})
    try:
        with urllib.request.urlopen(address, timeout=10) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as error:
        answer = json.load(error)
    if answer.get("status") != "success":
        raise ValueError(answer.get("error", answer))
    if answer["data"]["resultType"] != "vector":
        raise ValueError(f"a {answer['data']['resultType']}, not a vector")
    return answer["data"]["result"]


def has_data(result):
    return any(math.isfinite(float(value)) and float(value) != 0 for _, value in (s["value"] for s in result))


def check_target(url, expr, start, end):
    """The series count at the latest second the target had data, or the reason it fails."""
    if any(word in expr for word in FORBIDDEN):
        return None, f"uses one of {', '.join(FORBIDDEN)}"
    if "$" in expr:
        return None, f"a variable is left: {expr}"
    try:
        for at in range(end, start - 1, -1):
            result = query(url, expr, at)
            if has_data(result):
                return len(result), None
    except ValueError as error:
        return None, f"Prometheus refused it: {error}"
    return None, f"no data in the {end - start} s: {expr}"


def main(path, url, start, end, assignments):
    values = dict(assignment.split("=", 1) for assignment in assignments)
    with open(path, encoding="utf-8") as file:
        dashboard = json.load(file)
    failures = 0
    for panel in panels(dashboard):
        targets = panel.get("targets", [])
        if not targets:
            continue
        counts = []
        for target in targets:
            count, problem = check_target(url, substitute(target["expr"], values), start, end)
            sources = {panel.get("datasource", {}).get("uid"), target.get("datasource", {"uid": DATASOURCE}).get("uid")}
            if sources != {DATASOURCE}:
                problem = f"a datasource other than {DATASOURCE}: {sources}"
            if problem:
                failures += 1
                print(f"  {panel['title']} ({target['refId']}): FAILED, {problem}")
            counts.append(f"{target['refId']} {count if count is not None else 0}")
        print(f"  {panel['title']}: series {', '.join(counts)}")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]))
