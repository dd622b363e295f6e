#!/usr/bin/env bash
# Runs the liveness rounds (gateway's ColdRoundsLivenessTests) long: ROUNDS rounds of fifty concurrent requests for
# a fresh key, through one gateway on a real memcached and a real backend, with each kind of client the test knows
# (the JDK's HttpClient, Reactor Netty's on loops of its own and on the gateway's). It prints each client's counts:
# rounds, requests, lost, late, wrong, backend calls beyond one a round. A failure prints the test's report, whose
# lines name the round and request and say what the gateway saw of it. Docker must be running, as for the tests
# (source ../shared/ci/docker-offline.sh first on a machine without it).
#
#   scripts/liveness-soak.sh [ROUNDS]     ROUNDS: rounds per client (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

rounds=${1:-2000}
output=$root/gateway/target/liveness-soak.log
report=$root/gateway/target/surefire-reports/dev.cachegateway.gateway.cache.miss.ColdRoundsLivenessTests.txt
mkdir -p "$root/gateway/target"
log "$rounds rounds of 50 concurrent cold requests per client"
started=$SECONDS
if ! ./mvnw -B -q test -pl gateway -am -Dtest=ColdRoundsLivenessTests -Dsurefire.failIfNoSpecifiedTests=false \
    -Dliveness.rounds="$rounds" >"$output" 2>&1; then
    grep -h 'ColdRoundsLivenessTests: ' "$output" >&2 || true
    cat "$report" >&2 || show_logs "$output"
    fail "a request was not answered within its bound (output in $output)"
fi
# The test says how far it got every few hundred rounds; the last line of each client is its total.
grep -h 'ColdRoundsLivenessTests: ' "$output" | grep -v ': so far '
log "every request answered, in $((SECONDS - started)) s"
