#!/usr/bin/env bash
# Runs the history checker (gateway's HistoryCheckerTests) with random seeds for a while: each round starts the two
# gateways and memcached afresh and runs ROUND_SEEDS random seeds, each a longer history than CI's. It stops at the
# first round that finds a violation and prints that round's report, whose messages name the seed and the slice of
# the history that shows it; the seed replays the same choices (the interleaving is the machine's). Docker must be
# running, as for the tests (source ../shared/ci/docker-offline.sh first on a machine without it).
#
#   scripts/history-soak.sh [MINUTES]     MINUTES: how long to go on (default 30)
#
# ROUND_SEEDS (default 10) and REQUESTS_EACH (requests per client per seed, default 200) size a round.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

minutes=${1:-30}
round_seeds=${ROUND_SEEDS:-10}
requests_each=${REQUESTS_EACH:-200}
report=gateway/target/surefire-reports/dev.cachegateway.gateway.history.HistoryCheckerTests.txt
deadline=$((SECONDS + minutes * 60))
rounds=0
while [ "$SECONDS" -lt "$deadline" ]; do
    rounds=$((rounds + 1))
    log "round $rounds: $round_seeds random seeds of $requests_each requests per client"
    if ! ./mvnw -B -q test -pl gateway -Dtest=HistoryCheckerTests -Dsurefire.failIfNoSpecifiedTests=false \
        -Dhistory.randomSeeds="$round_seeds" -Dhistory.requestsEach="$requests_each" >"$root/gateway/target/soak.log" 2>&1; then
        grep -h 'HistoryCheckerTests:' "$root/gateway/target/soak.log" >&2 || true
        cat "$report" >&2 || show_logs "$root/gateway/target/soak.log"
        fail "round $rounds found a violation"
    fi
    grep -h 'HistoryCheckerTests: seed' "$root/gateway/target/soak.log" >&2 || true
done
log "$rounds rounds, $((rounds * round_seeds)) seeds, no violation"
