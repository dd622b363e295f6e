#!/usr/bin/env bash
# The request smuggling corpus against the real compose stack: builds and starts it from a clean state, replays
# every request of gateway/src/test/resources/smuggling/corpus.txt over a raw socket at the published gateway port,
# and checks each answer is a 400 with Connection: close or a clean answer. Then the gateway must still serve a MISS
# and a HIT as before. The stack is always torn down; when a step fails, the containers' logs are printed first.
#
#   e2e/smuggling-e2e.sh          (needs a Docker engine; builds the jars if they are missing)
set -euo pipefail
cd "$(dirname "$0")/.."

project=${E2E_PROJECT:-memcached-gateway-smuggling-e2e}
compose_files=(-f docker-compose.yml)
# shellcheck source=e2e/common.sh
source e2e/common.sh

build_and_start

step "the smuggling corpus, each request on a connection of its own"
python3 e2e/smuggling_replay.py gateway/src/test/resources/smuggling/corpus.txt "$GATEWAY_PORT" \
  || fail "the smuggling corpus"

step "the gateway still answers as before"
expect /api/v1/comments/2 200 MISS "$work/single.json"
await_hit /api/v1/comments/2 "$work/single.json" 5
