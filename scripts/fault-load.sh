#!/usr/bin/env bash
# Load with a fault: wrk drives cache hits through the gateway for 30 s while memcached is killed (SIGKILL) at
# 10 s and started again, empty, at 20 s. It reports total requests, non-2xx answers, socket errors, p50/p99
# latency, and how long after memcached's return the gateway served HITs again. The target is 0 non-2xx.
#
#   scripts/fault-load.sh        (needs memcached and wrk, from Debian's packages, and the built jars)
set -euo pipefail
cd "$(dirname "$0")/.."

memcached_port=${MEMCACHED_PORT:-31211}
comments_port=${COMMENTS_PORT:-34567}
gateway_port=${GATEWAY_PORT:-38080}
management_port=${MANAGEMENT_PORT:-38081}
duration=${DURATION:-30}
path=/api/v1/comments/1
work=$(mktemp -d)

# shellcheck source=scripts/common.sh
source scripts/common.sh

cleanup() { finish $? "$work" "${pids[@]}"; }
trap cleanup EXIT INT TERM

need memcached memcached
need wrk wrk
comments_jar=$(jar_of comments-service)
gateway_jar=$(jar_of gateway)

start_memcached "$memcached_port" 64 "$work/memcached.log"
memcached_pid=$spawned
spawn "$work/comments.log" java -jar "$comments_jar" --server.port="$comments_port" --comments.max-age=3600s
comments_pid=$spawned
spawn "$work/gateway.log" java -jar "$gateway_jar" --server.port="$gateway_port" \
    --management.server.port="$management_port" --memcached.servers="127.0.0.1:$memcached_port" \
    --comments-service.uri="http://127.0.0.1:$comments_port"
gateway_pid=$spawned
await "http://127.0.0.1:$comments_port/actuator/health" 90 "$comments_pid" "$work/comments.log"
await "http://127.0.0.1:$management_port/actuator/health" 90 "$gateway_pid" "$work/gateway.log"

url=http://127.0.0.1:$gateway_port$path
await_x_cache "$url" HIT 5 || fail "no HIT before the run"

log "wrk -t2 -c50 -d${duration}s on $path; memcached is killed at 10 s and started again at 20 s"
wrk -t2 -c50 -d"${duration}s" --latency "$url" >"$work/wrk.txt" 2>&1 &
wrk_pid=$!
sleep 10
kill -9 "$memcached_pid"
wait "$memcached_pid" 2>/dev/null || true
log "10 s: memcached killed"
sleep 10
start_memcached "$memcached_port" 64 "$work/memcached.log"
restarted=$(date +%s.%N)
log "20 s: memcached started again, empty"
recovery=none
while kill -0 "$wrk_pid" 2>/dev/null; do
    # A short timeout: X-Cache is read while wrk keeps the gateway busy.
    if [ "$(x_cache "$url" 2)" = HIT ]; then
        recovery=$(echo "$(date +%s.%N) - $restarted" | bc)
        break
    fi
    sleep 0.05
done
wait "$wrk_pid"

requests=$(wrk_field "$work/wrk.txt" requests)
non2xx=$(wrk_field "$work/wrk.txt" non-2xx)
socket_errors=$(wrk_field "$work/wrk.txt" socket-errors)
p50=$(wrk_field "$work/wrk.txt" p50)
p99=$(wrk_field "$work/wrk.txt" p99)
echo
echo "| requests | non-2xx | socket errors | p50 | p99 | HITs again after memcached's return |"
echo "|---|---|---|---|---|---|"
printf '| %s | %s | %s | %s | %s | %s |\n' "$requests" "${non2xx:-0}" "${socket_errors:-none}" "$p50" "$p99" \
    "$([ "$recovery" = none ] && echo 'not within the run' || printf '%.2f s' "$recovery")"
echo
echo "Circuit breaker, from the gateway's log:"
grep -o 'memcached [^ ]* circuit breaker .*' "$work/gateway.log" || echo "  (no transition)"
echo
cat "$work/wrk.txt"
[ "${non2xx:-0}" = 0 ] && [ "$recovery" != none ]
