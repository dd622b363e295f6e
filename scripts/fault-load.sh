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
pids=()

log() { printf 'fault-load: %s\n' "$*"; }

# shellcheck source=scripts/common.sh
source scripts/common.sh

# shellcheck disable=SC2086 # no memcached running: no argument
cleanup() { finish $? "$work" "${pids[@]}" ${memcached_pid:-}; }
trap cleanup EXIT INT TERM

start_memcached() {
    memcached -u nobody -l 127.0.0.1 -p "$memcached_port" -m 64 >"$work/memcached.log" 2>&1 &
    memcached_pid=$!
}

# A short timeout: it is read while memcached is down and wrk keeps the gateway busy.
path_x_cache() { x_cache "http://127.0.0.1:$gateway_port$path" 2; }

need memcached memcached
need wrk wrk
ls comments-service/target/comments-service-*.jar gateway/target/gateway-*.jar >/dev/null 2>&1 \
    || ./mvnw -B -q package -DskipTests

start_memcached
java -jar comments-service/target/comments-service-*.jar --server.port="$comments_port" \
    --comments.max-age=3600s >"$work/comments.log" 2>&1 &
pids+=($!)
java -jar gateway/target/gateway-*.jar --server.port="$gateway_port" \
    --management.server.port="$management_port" --memcached.servers="127.0.0.1:$memcached_port" \
    --comments-service.uri="http://127.0.0.1:$comments_port" >"$work/gateway.log" 2>&1 &
pids+=($!)
await "http://127.0.0.1:$comments_port/actuator/health" 90
await "http://127.0.0.1:$management_port/actuator/health" 90

for _ in $(seq 50); do [ "$(path_x_cache)" = HIT ] && break; sleep 0.1; done
[ "$(path_x_cache)" = HIT ] || { log "no HIT before the run"; exit 1; }

log "wrk -t2 -c50 -d${duration}s on $path; memcached is killed at 10 s and started again at 20 s"
wrk -t2 -c50 -d"${duration}s" --latency "http://127.0.0.1:$gateway_port$path" >"$work/wrk.txt" 2>&1 &
wrk_pid=$!
sleep 10
kill -9 "$memcached_pid"
wait "$memcached_pid" 2>/dev/null || true
log "10 s: memcached killed"
sleep 10
start_memcached
restarted=$(date +%s.%N)
log "20 s: memcached started again, empty"
recovery=none
while kill -0 "$wrk_pid" 2>/dev/null; do
    if [ "$(path_x_cache)" = HIT ]; then
        recovery=$(echo "$(date +%s.%N) - $restarted" | bc)
        break
    fi
    sleep 0.05
done
wait "$wrk_pid"

requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
non2xx=$(awk '/Non-2xx or 3xx responses/ {print $NF}' "$work/wrk.txt")
socket_errors=$(awk '/Socket errors/ {sub(/.*Socket errors: /, ""); print}' "$work/wrk.txt")
p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
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
