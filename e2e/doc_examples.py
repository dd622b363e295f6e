#!/usr/bin/env python3
"""The docs' console examples, run against the compose demo and compared with what they show.

    e2e/doc_examples.py check        parse every example and check the rules below; needs no Docker
    e2e/doc_examples.py run          run them; e2e/doc-examples.sh starts the stack and calls this

Which files: README.md, docs/*.md and every README.md one directory down (bench/, deploy/, ...).

Which blocks: every ```console block runs, in the order of its file, except one whose last non-blank line before the
fence is an HTML comment that starts with "<!-- example: not run" and says why. Every command of a block that runs must
talk to the demo's published port (localhost:8080) or go through `docker compose`; anything else fails the check,
so an example can never be left out by accident.

How a block reads: a line that starts with "$ " is a command (a line ending in a backslash continues it on the
next line); the lines after it, up to the next command, are what it prints on standard output. What it prints on
standard error (curl's progress, Compose's "Stopping ...") is shown here but not compared. Trailing blanks and
carriage returns are ignored, so an HTTP head compares line by line.

Values that differ from run to run: "…" (one character, U+2026) in an output line matches any text within that
line, as in "Date: …"; a line that is "…" alone matches any number of lines, none included.

How a command runs: in bash, from the project's root, with localhost:8080 replaced by the port the checker
published the gateway on, and `docker compose` standing for the checker's own compose command and project, with
`exec -T` since no terminal is attached. Commands follow each other after a pause of 0.3 s, the least a reader
takes, so that a miss's store (which starts once the answer is written) is done before the next request.

The examples' commands need what a reader's machine has: bash, curl and jq, besides Docker. The checker prints
every command with what it printed, so that a CI log shows the examples' real output.

Each example starts from the same state, whatever the one before it did (e2e/stack_reset.py): every service is
started if an example stopped it, the gateway must answer a /no_cache path with 200 and show every memcached node
connected with its breaker CLOSED, and then memcached is flushed (flush_all). Within an example, commands share state in their
order, so a MISS then a HIT is deterministic; an example never depends on another.
"""

import difflib
import glob
import os
import re
import subprocess
import sys
import time

import stack_reset

MARK = "\u2026"
NOT_RUN = re.compile(r"^<!--\s*example:\s*not run\b")
PUBLISHED = "localhost:8080"
PAUSE_SECONDS = 0.3
COMMAND_TIMEOUT_SECONDS = 60

# docker is a function in every command's shell, so that `docker compose ...` anywhere in a pipeline is the
# checker's compose; everything else goes to the real docker.
PRELUDE = r'''
read -ra doc_compose <<<"$DOC_EXAMPLES_COMPOSE"
docker() {
  if [ "${1:-}" = compose ]; then
    shift
    if [ "${1:-}" = exec ]; then shift; set -- exec -T "$@"; fi
    "${doc_compose[@]}" "$@"
  else
    command docker "$@"
  fi
}
'''


class Command:
    def __init__(self, line, text):
        self.line = line
        self.text = text
        self.expected = []


class Example:
    def __init__(self, path, line, skip_reason):
        self.path = path
        self.line = line
        self.skip_reason = skip_reason
        self.commands = []

    def name(self):
        return f"{self.path}:{self.line}"


def doc_files(root):
    files = ["README.md"]
    files += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    files += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "*", "README.md")))
    return [f for f in files if os.path.isfile(os.path.join(root, f))]


def parse(root, path):
    """The console examples of one file, and the problems found in them."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    examples, problems = [], []
    previous = ""
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped.startswith("```"):
            if stripped:
                previous = stripped
            i += 1
            continue
        info = stripped[3:].strip()
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].strip().startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if info.split()[:1] == ["console"]:
            skip = previous if NOT_RUN.match(previous) else None
            example = Example(path, start + 1, skip)
            problems += read_block(example, body, start + 2)
            examples.append(example)
        previous = ""
    return examples, problems


def read_block(example, body, first_line):
    problems = []
    command = None
    continued = False
    for offset, raw in enumerate(body):
        line = raw.rstrip()
        if continued:
            command.text += "\n" + line
            continued = line.endswith("\\")
        elif line.startswith("$ "):
            command = Command(first_line + offset, line[2:])
            example.commands.append(command)
            continued = line.endswith("\\")
        elif command is None:
            if line:
                problems.append(f"{example.name()}: output before the first command: {line!r}")
        else:
            command.expected.append(line)
    if not example.commands:
        problems.append(f"{example.name()}: a console block without a command ('$ ')")
    for command in example.commands:
        while command.expected and not command.expected[-1]:
            command.expected.pop()
    if example.skip_reason is None:
        for command in example.commands:
            if PUBLISHED not in command.text and "docker compose " not in command.text:
                problems.append(
                    f"{example.name()}: `{command.text}` talks neither to {PUBLISHED} nor through docker compose;"
                    " make it, or mark the block <!-- example: not run, <why> -->")
    return problems


def matches(expected, actual):
    """Whether the actual lines are the expected ones, with … matching any text, and a lone … any lines."""
    patterns = [None if e == MARK else re.compile(".*".join(re.escape(p) for p in e.split(MARK)))
                for e in expected]
    memo = {}

    def match(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(patterns):
            result = j == len(actual)
        elif patterns[i] is None:
            result = match(i + 1, j) or (j < len(actual) and match(i, j + 1))
        else:
            result = j < len(actual) and patterns[i].fullmatch(actual[j]) is not None and match(i + 1, j + 1)
        memo[(i, j)] = result
        return result

    return match(0, 0)


def collect(root):
    examples, problems = [], []
    for path in doc_files(root):
        found, wrong = parse(root, path)
        examples += found
        problems += wrong
    return examples, problems


def self_test():
    """The matching rules, on made-up lines, so that a broken matcher cannot pass every example."""
    assert matches(["a"], ["a"])
    assert not matches(["a"], ["b"])
    assert matches([f"Date: {MARK}"], ["Date: Tue, 01 Dec 2026 02:41:37 GMT"])
    assert not matches([f"Date: {MARK}"], ["Age: 1"])
    assert matches(["a", MARK, "z"], ["a", "b", "c", "z"])
    assert matches(["a", MARK, "z"], ["a", "z"])
    assert not matches(["a", MARK, "z"], ["a", "b"])
    assert matches([], [])
    assert not matches([], ["x"])
    assert matches(["x.y"], ["x.y"]) and not matches(["x.y"], ["xzy"])


def shell(command, env):
    """Runs a command as an example's command runs, on the port the gateway is published on; returns its stdout."""
    command = command.replace(PUBLISHED, f"localhost:{env.get('GATEWAY_PORT', '8080')}")
    return subprocess.run(["bash", "-c", PRELUDE + command], env=env, stdout=subprocess.PIPE, stderr=None,
                          timeout=COMMAND_TIMEOUT_SECONDS, check=False)


def output_lines(data):
    lines = [line.rstrip() for line in data.decode("utf-8", "replace").replace("\r", "").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run(root, examples):
    env = dict(os.environ)
    if "DOC_EXAMPLES_COMPOSE" not in env or "COMPOSE_PROJECT_NAME" not in env:
        raise SystemExit("doc-examples: DOC_EXAMPLES_COMPOSE or COMPOSE_PROJECT_NAME is not set; "
                         "run e2e/doc-examples.sh")
    failures, ran, commands, skipped = [], 0, 0, 0
    for example in examples:
        if example.skip_reason is not None:
            skipped += 1
            print(f"doc-examples: {example.name()}: not run ({example.skip_reason})")
            continue
        stack_reset.reset(env["COMPOSE_PROJECT_NAME"], env.get("GATEWAY_PORT", "8080"))
        ran += 1
        print(f"doc-examples: {example.name()}")
        for command in example.commands:
            print(f"  $ {command.text}")
            actual = output_lines(shell(command.text, env).stdout)
            for line in actual:
                print(f"    {line}")
            commands += 1
            if not matches(command.expected, actual):
                diff = "\n".join(difflib.unified_diff(command.expected, actual, "shown", "printed", lineterm=""))
                failures.append(f"{example.name()} (command at line {command.line}): $ {command.text}\n{diff}")
                print(f"  differs from what {example.path} shows at line {command.line}")
            time.sleep(PAUSE_SECONDS)
    print(f"\ndoc-examples: {ran} examples, {commands} commands run, {skipped} examples not run, "
          f"{len(failures)} differ")
    for failure in failures:
        print(f"\ndoc-examples: DIFFERS: {failure}", file=sys.stderr)
    return 1 if failures else 0


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mode = sys.argv[1] if len(sys.argv) > 1 else "check"
    self_test()
    examples, problems = collect(root)
    for problem in problems:
        print(f"doc-examples: {problem}", file=sys.stderr)
    if problems:
        return 1
    if mode == "check":
        runnable = [e for e in examples if e.skip_reason is None]
        count = sum(len(e.commands) for e in runnable)
        print(f"doc-examples: {len(runnable)} examples with {count} commands to run, "
              f"{len(examples) - len(runnable)} not run, in {len(doc_files(root))} files")
        return 0
    if mode == "run":
        os.chdir(root)
        return run(root, examples)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
