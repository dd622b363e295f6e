# Shared by the scripts that run the gateway as plain processes on loopback: installing a missing tool from
# Debian's packages, waiting for a server to answer, reading X-Cache, and cleaning up on exit. Source it from the
# project's root.
# shellcheck shell=bash

# need COMMAND PACKAGE: installs PACKAGE when COMMAND is missing; fails, saying so, if it still is.
need() {
  command -v "$1" >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    # Installing Debian's nginx would start the system nginx on port 80; deny it, as the package allows.
    local policy=/usr/sbin/policy-rc.d created=false
    if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created=true; fi
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; }; } >/dev/null 2>&1 || true
    if $created; then rm -f "$policy"; fi
  fi
  command -v "$1" >/dev/null || { printf '%s is missing (Debian package %s)\n' "$1" "$2" >&2; return 1; }
}

# await URL SECONDS: waits until URL answers 2xx, or fails.
await() {
  local deadline=$((SECONDS + $2))
  until curl -fs -o /dev/null --max-time 2 "$1"; do
    [ "$SECONDS" -lt "$deadline" ] || { printf 'no answer from %s within %s s\n' "$1" "$2" >&2; exit 1; }
    sleep 0.5
  done
}

# x_cache URL [SECONDS]: the X-Cache header of URL's answer (empty if none within SECONDS, 5 by default).
x_cache() {
  curl -s -o /dev/null -D - --max-time "${2:-5}" "$1" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache" {print $2}'
}

# finish STATUS WORKDIR PID...: for an EXIT trap. Stops the processes (resuming a paused one first, or it could not
# take the signal), shows the end of the logs in WORKDIR if STATUS is a failure, removes WORKDIR, exits with STATUS.
finish() {
  local rc=$1 work=$2 pid
  shift 2
  for pid in "$@"; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then tail -n 30 "$work"/*.log 2>/dev/null || true; fi
  rm -rf "$work"
  exit "$rc"
}
