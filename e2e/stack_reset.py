#!/usr/bin/env python3
"""Brings a running compose stack back to its start state, whatever a check before did to it.

    e2e/stack_reset.py PROJECT PORT

Every container of compose project PROJECT is started if it was stopped; then this waits, for up to 120 s, until
the gateway (published on localhost:PORT) answers a /no_cache path with 200 and its health shows every memcached
node connected with its breaker CLOSED, and flushes every memcached service (flush_all). The doc examples reset
with it between examples, and the compose checks that share one stack (e2e/compose-suite.sh) between checks.

It talks to the containers with plain `docker`, found by the labels Compose puts on them: a compose command reads
the compose files and, with Compose v1, starts a Python interpreter each time, which on a busy machine takes
seconds, and a reset is a dozen commands.
"""

import subprocess
import sys
import time

DEADLINE_SECONDS = 120


def docker(*args, check=True):
    result = subprocess.run(["docker", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if check and result.returncode != 0:
        raise SystemExit(f"stack-reset: docker {' '.join(args[:2])} failed: {result.stderr.decode().strip()}")
    return result.stdout.decode("utf-8", "replace")


def containers(project):
    """The project's containers, running or not, as {service: id}."""
    listed = docker("ps", "-a", "--filter", f"label=com.docker.compose.project={project}",
                    "--format", '{{.ID}} {{.Label "com.docker.compose.service"}}')
    found = {service: container for container, service in (line.split(" ", 1) for line in listed.splitlines() if line)}
    if "gateway" not in found:
        raise SystemExit(f"stack-reset: no gateway container in compose project {project}")
    return found


def ready(gateway, port):
    state = docker("exec", gateway, "curl", "-s", "localhost:8081/actuator/health/memcached", check=False)
    backend = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
                              f"http://localhost:{port}/api/v1/comments/1/no_cache"],
                             stdout=subprocess.PIPE, check=False).stdout
    return ('"status":"UP"' in state and '"connected":false' not in state and '"circuitBreaker":"OPEN"' not in state
            and '"circuitBreaker":"HALF_OPEN"' not in state and backend == b"200"), state


def reset(project, port):
    found = containers(project)
    docker("start", *found.values())
    deadline = time.monotonic() + DEADLINE_SECONDS
    while True:
        done, state = ready(found["gateway"], port)
        if done:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"stack-reset: the stack is not back to its start within {DEADLINE_SECONDS} s: {state}")
        # Requests are the breaker's trial operations; their items go with the flush below.
        subprocess.run(["curl", "-s", "-o", "/dev/null", "--max-time", "5",
                        f"http://localhost:{port}/api/v1/comments/stack-reset-warm-up"], check=False)
        time.sleep(1)
    for service, container in sorted(found.items()):
        if service.startswith("memcached"):
            flushed = docker("exec", container, "bash", "-c",
                             'exec 3<>/dev/tcp/127.0.0.1/11211; printf "flush_all\\r\\n" >&3; head -n 1 <&3')
            if flushed.strip() != "OK":
                raise SystemExit(f"stack-reset: flush_all on {service} did not answer OK: {flushed!r}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    reset(sys.argv[1], sys.argv[2])
