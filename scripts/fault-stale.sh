#!/usr/bin/env bash
# Stale answers under load, across two gateways sharing one memcached. The backend's answers are fresh for 2 s and
# the gateways keep them 30 s longer for stale-if-error (no stale-while-revalidate), and wrk cycles through 300 paths
# on each gateway. The lookups get 500 ms rather than 100: wrk, two gateways and a backend that restarts share the
# machine's cores, and this run is about stale answers, not about a starved gateway's deadlines. After 10 s of
# warm-up, 20 s with the backend up: from the backend's own access log, its requests per key per
# expiry (each expiry of a key must reach it once, for both gateways together). Then 30 s in which the backend is
# stopped from 5 s to 25 s: non-2xx answers (the target is 0), the share of STALE answers, and p99.
#
#   scripts/fault-stale.sh        (needs memcached and wrk, from Debian's packages, and the built jars)
set -euo pipefail
cd "$(dirname "$0")/.."

memcached_port=${MEMCACHED_PORT:-31311}
comments_port=${COMMENTS_PORT:-34667}
gateway_ports=(38180 38181)
management_ports=(38182 38183)
work=$(mktemp -d)

# shellcheck source=scripts/common.sh
source scripts/common.sh

cleanup() { finish $? "$work" "${pids[@]}"; }
trap cleanup EXIT INT TERM

need memcached memcached
need wrk wrk
comments_jar=$(jar_of comments-service)
gateway_jar=$(jar_of gateway)

cat >"$work/paths.lua" <<'LUA'
-- Cycles through /api/v1/comments/1 to /api/v1/comments/300 and counts the answers by their X-Cache.
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) n = math.random(300); counts = {} end
request = function()
  n = n % 300 + 1
  return wrk.format("GET", "/api/v1/comments/" .. n)
end
function response(status, headers, body)
  local x = headers["X-Cache"] or "none"
  counts[x] = (counts[x] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for x, c in pairs(thread:get("counts")) do total[x] = (total[x] or 0) + c end
  end
  for x, c in pairs(total) do io.write(string.format("x-cache %s %d\n", x, c)) end
end
LUA

start_backend() {
    # Its access log has each request's path and start in milliseconds, for the count per key per expiry.
    spawn "$work/comments.log" java -jar "$comments_jar" --server.port="$comments_port" --comments.max-age=2s \
        --server.tomcat.accesslog.enabled=true --server.tomcat.accesslog.directory="$work" \
        --server.tomcat.accesslog.prefix=access --server.tomcat.accesslog.suffix=.log \
        --server.tomcat.accesslog.rotate=false --server.tomcat.accesslog.buffered=false \
        '--server.tomcat.accesslog.pattern=%{begin:msec}t %U'
    comments_pid=$spawned
    await "http://127.0.0.1:$comments_port/actuator/health" 90 "$comments_pid" "$work/comments.log"
}

start_memcached "$memcached_port" 64 "$work/memcached.log"
start_backend
for i in 0 1; do
    spawn "$work/gateway-$i.log" java -jar "$gateway_jar" --server.port="${gateway_ports[$i]}" \
        --management.server.port="${management_ports[$i]}" --memcached.servers="127.0.0.1:$memcached_port" \
        --comments-service.uri="http://127.0.0.1:$comments_port" --memcached.cache.stale-if-error=30s \
        --memcached.operation-timeout=500ms
    gateway_pid[i]=$spawned
done
for i in 0 1; do
    await "http://127.0.0.1:${management_ports[$i]}/actuator/health" 90 "${gateway_pid[$i]}" "$work/gateway-$i.log"
done

load() { # seconds label: wrk on both gateways at once
    local i
    for i in 0 1; do
        wrk -t1 -c10 -d"$1s" --latency -s "$work/paths.lua" "http://127.0.0.1:${gateway_ports[$i]}" \
            >"$work/wrk-$2-$i.txt" 2>&1 &
        wrk_pid[i]=$!
    done
}

await_load() { wait "${wrk_pid[0]}" "${wrk_pid[1]}"; }

log "10 s of load to warm the gateways up, not counted"
load 10 warm
await_load
counted_from=$(($(cat "$work"/access*.log | wc -l) + 1))

log "20 s with the backend up: backend requests per key per expiry, both gateways together"
load 20 up
await_load
# A key's requests less than a second apart belong to one expiry: its answers are fresh for 2 s.
per_expiry=$(cat "$work"/access*.log | tail -n +"$counted_from" | grep ' /api/v1/comments/' | awk '{print $2, $1}' \
    | sort -k1,1 -k2,2n | awk '
    $1 != key { key = $1; last = -10000 }
    { if ($2 - last > 1000) { expiries++; size = 0 } size++; if (size > most) most = size; requests++; last = $2 }
    END { printf "%d %d %d\n", requests, expiries, most }')
read -r backend_requests expiries most_in_one <<<"$per_expiry"

log "30 s of load, the backend stopped from 5 s to 25 s"
load 30 down
sleep 5
stop_all "$comments_pid"
log "5 s: backend stopped"
sleep 20
start_backend
log "25 s (and its start): backend started again"
await_load

echo
echo "Backend up, 20 s, two gateways: $backend_requests backend requests for $expiries key expiries" \
    "($(awk -v r="$backend_requests" -v e="$expiries" 'BEGIN { printf "%.2f", r / e }') per key per expiry;" \
    "at most $most_in_one for one expiry)"
echo
echo "| gateway | requests | non-2xx | socket errors | STALE | EXPIRED | HIT | p99 |"
echo "|---|---|---|---|---|---|---|---|"
count() { awk -v x="$1" '$1 == "x-cache" && $2 == x { print $3 }' "$file"; }
failed=0
for i in 0 1; do
    file=$work/wrk-down-$i.txt
    requests=$(wrk_field "$file" requests)
    non2xx=$(wrk_field "$file" non-2xx)
    stale=$(count STALE)
    printf '| %s | %s | %s | %s | %s (%s%%) | %s | %s | %s |\n' "${gateway_ports[$i]}" "$requests" "${non2xx:-0}" \
        "$(wrk_field "$file" socket-errors || true)" "${stale:-0}" \
        "$(awk -v s="${stale:-0}" -v r="$requests" 'BEGIN { printf "%.0f", 100 * s / r }')" \
        "$(count EXPIRED)" "$(count HIT)" "$(wrk_field "$file" p99)"
    [ "${non2xx:-0}" = 0 ] || failed=1
done
[ "$most_in_one" -eq 1 ] || failed=1
[ "$failed" = 0 ]
