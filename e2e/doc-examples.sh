#!/usr/bin/env bash
# The console examples of README.md, docs/*.md and the other READMEs, run against the compose demo, so that a
# changed header or value fails here instead of drifting in the docs. The rules (which blocks run, what "…" matches,
# the reset between files) are at the top of e2e/doc_examples.py. The stack is started from a clean state under a
# project of its own and always torn down; when an example differs, the containers' logs are printed first.
#
#   e2e/doc-examples.sh            (needs a Docker engine; builds the jars if they are missing)
#   e2e/doc-examples.sh --check    only parse the examples and check the rules; no Docker
#
# DOC_EXAMPLES_PROJECT and DOC_EXAMPLES_PORT choose the compose project and the port the gateway is published on.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --check ]; then
  exec python3 e2e/doc_examples.py check
fi
python3 e2e/doc_examples.py check

project=${DOC_EXAMPLES_PROJECT:-memcached-gateway-docs}
export GATEWAY_PORT=${DOC_EXAMPLES_PORT:-18090}
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose -p "$project" -f docker-compose.yml)
else
  compose=(docker-compose -p "$project" -f docker-compose.yml)
fi
# The examples' shell reads it back as words: no word of it holds a space.
export DOC_EXAMPLES_COMPOSE="${compose[*]}"

teardown() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    "${compose[@]}" ps || true
    "${compose[@]}" logs --no-color --tail=100 || true
  fi
  "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  exit "$rc"
}
trap teardown EXIT

ls comments-service/target/comments-service-*.jar gateway/target/gateway-*.jar >/dev/null 2>&1 \
  || ./mvnw -B -q package -DskipTests

"${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
"${compose[@]}" up -d --build
deadline=$((SECONDS + 180))
until [ "$(docker inspect -f '{{.State.Health.Status}}' "$("${compose[@]}" ps -q gateway)")" = healthy ]; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "doc-examples: the gateway is not healthy within 180 s" >&2
    exit 1
  fi
  sleep 1
done

python3 e2e/doc_examples.py run
