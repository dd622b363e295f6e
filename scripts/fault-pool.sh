#!/usr/bin/env bash
# Load with faults on a pool of three memcached servers: wrk cycles through 300 cached paths in three phases, a
# baseline, one server hung (SIGSTOP) for 6 s, and one server killed (SIGKILL). It prints non-2xx answers and the
# p99 latency of each phase, then the share of HITs on one pass over the 300 paths after the kill: about two thirds,
# since only the killed server's keys go to the backend. The target is 0 non-2xx in every phase.
#
#   scripts/fault-pool.sh        (needs memcached and wrk, from Debian's packages, and the built jars)
set -euo pipefail
cd "$(dirname "$0")/.."

ports=(51211 51212 51213)
comments_port=54567
gateway_port=58080
management_port=58081
phase_seconds=${PHASE_SECONDS:-12}
work=$(mktemp -d)
declare -A memcached_pid

# shellcheck source=scripts/common.sh
source scripts/common.sh

# finish resumes the memcached this script pauses before stopping it.
cleanup() { finish $? "$work" "${pids[@]}"; }
trap cleanup EXIT INT TERM

hit_share() {
    local i hits=0
    for i in $(seq 1 300); do
        if [ "$(x_cache "http://127.0.0.1:$gateway_port/api/v1/comments/$i")" = HIT ]; then hits=$((hits + 1)); fi
    done
    echo "$hits"
}

# wrk for one phase; the phase's events run in the background while it measures.
phase() { # name
    wrk -t2 -c50 -d"${phase_seconds}s" --latency -s "$work/paths.lua" "http://127.0.0.1:$gateway_port" \
        >"$work/$1.txt" 2>&1
    local non2xx p99 requests errors
    requests=$(wrk_field "$work/$1.txt" requests)
    non2xx=$(wrk_field "$work/$1.txt" non-2xx)
    errors=$(wrk_field "$work/$1.txt" socket-errors)
    p99=$(wrk_field "$work/$1.txt" p99)
    rows+=("| $1 | $requests | ${non2xx:-0} | ${errors:-none} | $p99 |")
    total_non2xx=$((total_non2xx + ${non2xx:-0}))
}

need memcached memcached
need wrk wrk
comments_jar=$(jar_of comments-service)
gateway_jar=$(jar_of gateway)

cat >"$work/paths.lua" <<'LUA'
-- Cycles through /api/v1/comments/1 to /api/v1/comments/300, so that every server of the pool gets its keys.
local n = 0
request = function()
  n = n % 300 + 1
  return wrk.format("GET", "/api/v1/comments/" .. n)
end
LUA

for port in "${ports[@]}"; do
    start_memcached "$port" 64 "$work/memcached-$port.log"
    memcached_pid[$port]=$spawned
done
spawn "$work/comments.log" java -jar "$comments_jar" --server.port="$comments_port" --comments.max-age=3600s
comments_pid=$spawned
spawn "$work/gateway.log" java -jar "$gateway_jar" --server.port="$gateway_port" \
    --management.server.port="$management_port" \
    --memcached.servers="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}" \
    --comments-service.uri="http://127.0.0.1:$comments_port"
gateway_pid=$spawned
await "http://127.0.0.1:$comments_port/actuator/health" 90 "$comments_pid" "$work/comments.log"
await "http://127.0.0.1:$management_port/actuator/health" 90 "$gateway_pid" "$work/gateway.log"

for i in $(seq 1 300); do curl -fs -o /dev/null "http://127.0.0.1:$gateway_port/api/v1/comments/$i"; done
sleep 1
log "before the faults: $(hit_share) of 300 paths HIT"

rows=() total_non2xx=0
log "phase 1: baseline, ${phase_seconds} s"
phase baseline
log "phase 2: the server on ${ports[1]} hung (SIGSTOP) from 3 s to 9 s"
( sleep 3; kill -STOP "${memcached_pid[${ports[1]}]}"; sleep 6; kill -CONT "${memcached_pid[${ports[1]}]}" ) &
hang=$!
phase "one hung for 6 s"
wait "$hang"
log "phase 3: the server on ${ports[2]} killed (SIGKILL) at the start"
kill -9 "${memcached_pid[${ports[2]}]}"
# Reaped here, so that bash does not report the kill in the middle of the results.
wait "${memcached_pid[${ports[2]}]}" 2>/dev/null || true
phase "one killed"
hits=$(hit_share)

echo
echo "| phase | requests | non-2xx | socket errors | p99 |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "After the kill, one pass over the 300 paths: $hits HITs ($((hits * 100 / 300))%)."
echo
echo "Circuit breakers, from the gateway's log:"
grep -o 'memcached [^ ]* circuit breaker .*' "$work/gateway.log" || echo "  (no transition)"
[ "$total_non2xx" = 0 ]
