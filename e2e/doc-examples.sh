#!/usr/bin/env bash
# The console examples of README.md, docs/*.md and the other READMEs, run against the compose demo, so that a
# changed header or value fails here instead of drifting in the docs. The rules (which blocks run, what "…" matches,
# the reset between examples) are at the top of e2e/doc_examples.py. The stack is started from a clean state under
# a project of its own and always torn down; when an example differs, the containers' logs are printed first.
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
compose_files=(-f docker-compose.yml)
export E2E_GATEWAY_PORT=${DOC_EXAMPLES_PORT:-18090}
# shellcheck source=e2e/common.sh
source e2e/common.sh
need jq jq

# The examples' shell reads it back as words: no word of it holds a space.
export DOC_EXAMPLES_COMPOSE="${compose[*]}"

build_and_start
python3 e2e/doc_examples.py run
