#!/usr/bin/env bash
# End to end through the real compose stack: builds and starts it from a clean state, drives it through the
# gateway as a client would, then takes memcached and comments-service away underneath it. The stack is always
# torn down; when a step fails, the containers' logs are printed first.
#
#   e2e/compose-e2e.sh            (needs a Docker engine; builds the jars if they are missing)
set -euo pipefail
cd "$(dirname "$0")/.."

export GATEWAY_PORT=${E2E_GATEWAY_PORT:-18080}
project=${E2E_PROJECT:-memcached-gateway-e2e}
base=http://localhost:$GATEWAY_PORT
work=$(mktemp -d)
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose -p "$project")
else
  compose=(docker-compose -p "$project")
fi

comment='{"id":2,"user_id":"paul","body":"this is a test comment to see how this thing works."}'
printf '%s' "$comment" >"$work/single.json"
{ printf '['; for i in $(seq 25); do [ "$i" -gt 1 ] && printf ','; printf '%s' "$comment"; done; printf ']'; } >"$work/collection.json"

step() { printf '\ne2e: %s\n' "$*"; }
fail() { printf 'e2e: FAILED: %s\n' "$*" >&2; exit 1; }

teardown() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    "${compose[@]}" ps || true
    "${compose[@]}" logs --no-color --tail=150 || true
  fi
  "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$work"
  [ "$rc" -eq 0 ] && printf '\ne2e: all steps passed\n'
  exit "$rc"
}
trap teardown EXIT

# GET $1; leaves the status in $status, the X-Cache value in $cache and the body in $work/body.
get() {
  status=$(curl -s --max-time 10 -o "$work/body" -D "$work/headers" -w '%{http_code}' "$base$1") || status=000
  cache=$(tr -d '\r' <"$work/headers" | awk -F': ' 'tolower($1) == "x-cache" {print $2}')
}

expect() { # path status x-cache [expected-body-file]
  get "$1"
  [ "$status" = "$2" ] || fail "GET $1: status $status, expected $2"
  [ "$cache" = "$3" ] || fail "GET $1: X-Cache '$cache', expected '$3'"
  if [ $# -ge 4 ]; then cmp -s "$work/body" "$4" || fail "GET $1: the body differs from $4"; fi
  echo "  GET $1 -> $status, X-Cache: ${cache:-none}"
}

await_hit() { # path expected-body-file seconds
  local deadline=$((SECONDS + $3))
  while [ "$SECONDS" -lt "$deadline" ]; do
    get "$1"
    if [ "$cache" = HIT ]; then
      cmp -s "$work/body" "$2" || fail "GET $1: the HIT's body differs from $2"
      echo "  GET $1 -> $status, X-Cache: HIT after $((SECONDS - deadline + $3)) s"
      return 0
    fi
    sleep 0.5
  done
  fail "GET $1: no HIT within $3 s (last: $status, X-Cache '$cache')"
}

await_healthy() { # service seconds
  local id deadline=$((SECONDS + $2))
  id=$("${compose[@]}" ps -q "$1")
  until [ "$(docker inspect -f '{{.State.Health.Status}}' "$id")" = healthy ]; do
    [ "$SECONDS" -lt "$deadline" ] || fail "$1 not healthy within $2 s"
    sleep 1
  done
}

step "building the jars if they are missing"
ls comments-service/target/comments-service-*.jar gateway/target/gateway-*.jar >/dev/null 2>&1 \
  || ./mvnw -B -q package -DskipTests

step "starting the stack from a clean state (${compose[*]})"
"${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
"${compose[@]}" up -d --build
await_healthy gateway 180
"${compose[@]}" ps

step "first request MISS, then HIT, byte for byte"
expect /api/v1/comments/1 200 MISS "$work/single.json"
await_hit /api/v1/comments/1 "$work/single.json" 5
expect /api/v1/comments/users/1 200 MISS "$work/collection.json"
await_hit /api/v1/comments/users/1 "$work/collection.json" 5
expect /api/v1/comments/1/no_cache 200 "" "$work/single.json"
expect /api/v1/comments/1/no_cache 200 "" "$work/single.json"

step "memcached stopped: the backend answers"
"${compose[@]}" stop memcached
for _ in 1 2 3; do expect /api/v1/comments/1 200 ERROR "$work/single.json"; done
expect /api/v1/comments/users/1 200 ERROR "$work/collection.json"

step "memcached started again: HITs come back within 10 s, no gateway restart"
"${compose[@]}" start memcached
await_hit /api/v1/comments/1 "$work/single.json" 10

step "comments-service stopped: cached paths still HIT, others get a clean 502 or 503"
"${compose[@]}" stop comments-service
expect /api/v1/comments/1 200 HIT "$work/single.json"
get /api/v1/comments/1/no_cache
case "$status" in 502 | 503) ;; *) fail "GET /api/v1/comments/1/no_cache with the backend down: status $status" ;; esac
grep -q "\"status\":$status" "$work/body" || fail "the $status is not the JSON error: $(head -c 300 "$work/body")"
grep -qi 'exception\|trace' "$work/body" && fail "the $status error shows internals: $(head -c 300 "$work/body")"
echo "  GET /api/v1/comments/1/no_cache -> $status: $(cat "$work/body")"
