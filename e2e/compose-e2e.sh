#!/usr/bin/env bash
# End to end through the real compose stack: builds and starts it from a clean state, drives it through the
# gateway as a client would, then takes memcached and comments-service away underneath it. The stack is always
# torn down; when a step fails, the containers' logs are printed first.
#
#   e2e/compose-e2e.sh            (needs a Docker engine; builds the jars if they are missing)
set -euo pipefail
cd "$(dirname "$0")/.."

project=${E2E_PROJECT:-memcached-gateway-e2e}
compose_files=(-f docker-compose.yml)
# shellcheck source=e2e/common.sh
source e2e/common.sh

build_and_start

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

step "comments-service stopped: cached paths still HIT, stale ones answer STALE, others get a clean 502 or 503"
"${compose[@]}" stop comments-service
expect /api/v1/comments/1 200 HIT "$work/single.json"
store_stale memcached /api/v1/comments/2 "$work/single.json"
expect /api/v1/comments/2 200 STALE "$work/single.json"
get /api/v1/comments/1/no_cache
case "$status" in 502 | 503) ;; *) fail "GET /api/v1/comments/1/no_cache with the backend down: status $status" ;; esac
grep -q "\"status\":$status" "$work/body" || fail "the $status is not the JSON error: $(head -c 300 "$work/body")"
grep -qi 'exception\|trace' "$work/body" && fail "the $status error shows internals: $(head -c 300 "$work/body")"
echo "  GET /api/v1/comments/1/no_cache -> $status: $(cat "$work/body")"
