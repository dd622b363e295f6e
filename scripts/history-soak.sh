#!/usr/bin/env bash
# Runs the history checker (gateway's HistoryCheckerTests and HistoryCheckerPoolTests) with random seeds and faults
# for a while: each round starts the gateways and memcached afresh and runs ROUND_SEEDS random seeds, each a longer
# history than CI's, with faults injected as it runs, and the cases of open gateway bugs. A round that finds a
# violation keeps its report, whose messages name the seed and the slice of the history that shows it (the seed
# replays the same choices; the interleaving is the machine's), and the soak goes on unless STOP_AT_FIRST=1. At the
# end it counts histories, requests, faults injected by kind and violations by rule. Docker must be running, as for
# the tests (source ../shared/ci/docker-offline.sh first on a machine without it).
#
#   scripts/history-soak.sh [MINUTES]     MINUTES: how long to go on (default 30)
#
# ROUND_SEEDS (default 10) and REQUESTS_EACH (requests per client per seed, default 200) size a round;
# HISTORY_FAULTS the faults random seeds inject (default all; a comma-separated list of FaultSchedule's kinds, or
# none); PROCESSES=true runs each gateway in a JVM of its own, so that a fault may pause one whole (SIGSTOP);
# OPEN_BUGS=false leaves out the cases of open gateway bugs; MAVEN_ARGS more arguments for Maven (-o offline).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

minutes=${1:-30}
round_seeds=${ROUND_SEEDS:-10}
requests_each=${REQUESTS_EACH:-200}
faults=${HISTORY_FAULTS:-all}
open_bugs=${OPEN_BUGS:-true}
processes=${PROCESSES:-false}
reports=gateway/target/surefire-reports
soak=$root/gateway/target/soak
rm -rf "$soak" && mkdir -p "$soak"
deadline=$((SECONDS + minutes * 60))
rounds=0 failed=0
while [ "$SECONDS" -lt "$deadline" ]; do
    rounds=$((rounds + 1))
    log "round $rounds: $round_seeds random seeds of $requests_each requests per client, faults $faults," \
        "gateways in processes: $processes"
    # shellcheck disable=SC2086 # MAVEN_ARGS is a list of arguments
    if ./mvnw -B -q ${MAVEN_ARGS:-} test -pl gateway -am -Dtest='HistoryChecker*Tests' \
        -Dsurefire.failIfNoSpecifiedTests=false -Dhistory.randomSeeds="$round_seeds" \
        -Dhistory.requestsEach="$requests_each" -Dhistory.faults="$faults" -Dhistory.openBugs="$open_bugs" \
        -Dhistory.processes="$processes" \
        >"$soak/round-$rounds.log" 2>&1; then
        grep -h 'HistoryCheckerTests: seed' "$soak/round-$rounds.log" >>"$soak/histories.txt" || true
        rm "$soak/round-$rounds.log"
    else
        grep -h 'HistoryCheckerTests: seed' "$soak/round-$rounds.log" >>"$soak/histories.txt" || true
        failed=$((failed + 1))
        cat "$reports"/dev.cachegateway.demo.history.HistoryChecker*Tests.txt >"$soak/round-$rounds.report"
        log "round $rounds found a violation: $soak/round-$rounds.report"
        if [ "${STOP_AT_FIRST:-0}" = 1 ]; then
            grep -h 'HistoryCheckerTests:' "$soak/round-$rounds.log" >&2 || true
            cat "$soak/round-$rounds.report" >&2
            fail "round $rounds found a violation"
        fi
    fi
done
rules='liveness\|a write wins\|every answer the origin.s\|every age true\|one origin call per version\|locks left'
rules+='\|leads left in flight\|memcached as a gateway sees it'
touch "$soak/histories.txt"
histories=$(wc -l <"$soak/histories.txt")
# Each history's total, not a case's "150 requests a client".
requests=$(grep -o '[0-9]* requests (' "$soak/histories.txt" | awk '{n += $1} END {print n + 0}')
log "$rounds rounds ($failed with a violation), $histories histories, $requests requests"
log "faults injected: $(grep -o 'faults {[^}]*}' "$soak/histories.txt" | grep -o '[A-Z_]*=[0-9]*' |
    awk -F= '{n[$1] += $2} END {for (k in n) printf "%s=%d ", k, n[k]}')"
if [ "$failed" -gt 0 ]; then
    # One count per history and rule, however many violations of it the history showed.
    log "histories with a violation, by rule: $(cat "$soak"/round-*.report | grep -o "seed [0-9]*[^:]*: \($rules\)" |
        sort -u | sed 's/.*: //' | sort | uniq -c | awk '{c = $1; $1 = ""; printf "%s=%d;", substr($0, 2), c}')"
    fail "$failed of $rounds rounds found a violation; their reports are in $soak"
fi
log "no violation"
