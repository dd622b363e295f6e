#!/usr/bin/env bash
# The compose checks on one stack, brought up once: the smuggling corpus, the docs' examples and compose-e2e.sh's
# steps on docker-compose.yml, then compose-pool-e2e.sh's, for which Compose adds two memcached servers and
# recreates the gateway; memcached and comments-service stay; then the Grafana dashboard's on that pool. Each check
# still brings the stack back to its start state first (e2e/stack_reset.py) and each still runs alone; here they
# share the image builds, the start-ups and the tear-downs that each would repeat. The stack is always torn down;
# when a check fails, the containers' logs are printed first.
#
#   e2e/compose-suite.sh          (needs a Docker engine; builds the jars if they are missing)
set -euo pipefail
cd "$(dirname "$0")/.."

project=${E2E_PROJECT:-memcached-gateway-e2e}
compose_files=(-f docker-compose.yml)
# shellcheck source=e2e/common.sh
source e2e/common.sh

build_and_start

export E2E_SHARED_STACK="${compose_files[*]}" E2E_PROJECT=$project E2E_GATEWAY_PORT=$GATEWAY_PORT
export DOC_EXAMPLES_PROJECT=$project DOC_EXAMPLES_PORT=$GATEWAY_PORT
# The pool's come last: their compose files change the stack, which the others' do not bring back. The dashboard's
# check runs on the same pool, so that its per-node panels show one node failing apart from two that serve.
for check in e2e/smuggling-e2e.sh e2e/doc-examples.sh e2e/compose-e2e.sh e2e/compose-pool-e2e.sh \
    e2e/dashboard-e2e.sh; do
    step "$check, on the stack of $project"
    # The check has shown the containers' logs when it failed.
    "$check" || { logs_shown=true && fail "$check"; }
done
