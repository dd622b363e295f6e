#!/usr/bin/env bash
# The Grafana dashboard (deploy/grafana/) against a real Prometheus: Debian's, run here, scrapes the gateway of the
# compose stack with a pool of three memcached nodes while traffic gives every panel something to show, then each
# panel's queries must have data (e2e/dashboard_queries.py). The stack is always torn down.
#
#   e2e/dashboard-e2e.sh          (needs a Docker engine; builds the jars if they are missing)
set -euo pipefail
cd "$(dirname "$0")/.."

project=${E2E_PROJECT:-memcached-gateway-dashboard-e2e}
# A pool, so that the per-node panels show one node failing while the others serve; its gateway warms up for 5 s
# (e2e/short-warm-up.yml), as the pool's own check's does.
compose_files=(-f docker-compose.yml -f docker-compose.pool.yml -f e2e/short-warm-up.yml)
# shellcheck source=e2e/common.sh
source e2e/common.sh

need prometheus prometheus || fail "no prometheus to check the dashboard against"
scrape=1
later=()

# get_later PATH [HEADERS-FILE]: GET PATH in the background, answered once what holds it back is released; its
# response headers go to HEADERS-FILE if one is named.
get_later() {
    curl -s -o /dev/null -D "${2:-/dev/null}" --max-time 20 "$base$1" &
    later+=("$!")
}

# pause SERVICE: its container frozen, released on exit should a step fail. Paused, not stopped: a backend call to it
# waits and a memcached operation times out, and it is back, with its connections and items, the moment it is
# released, with no start-up to wait for.
pause() {
    cleanup_hooks+=("docker unpause $(container_of "$1") >/dev/null 2>&1")
    docker pause "$(container_of "$1")" >/dev/null
}

# The gateway's GC pause series, a line each: its count of collections, a tab, the series (whose labels hold spaces).
pause_counts() {
    curl -s --max-time 2 "$gateway_ip:8081/actuator/prometheus" |
        awk '/^jvm_gc_pause_seconds_count/ { print $NF "\t" substr($0, 1, length($0) - length($NF) - 1) }'
}

# collected_since FILE: whether a series that FILE lists (pause_counts's earlier output) has counted a collection
# since. The GC panel's rate shows a collection only on a series Prometheus already scraped: the first collection of a
# kind (a gateway that warmed up for a few seconds may have had none) only starts its series.
collected_since() {
    pause_counts | awk -F '\t' 'NR == FNR { before[$2] = $1; next } ($2 in before) && $1 > before[$2] { grew = 1 }
        END { exit !grew }' "$1" -
}

# breaker_in STATE: whether any node's breaker is in STATE (a basic regular expression: OPEN, or HALF_OPEN or OPEN).
breaker_in() {
    curl -s --max-time 2 "$gateway_ip:8081/actuator/health/memcached" | grep -q "\"circuitBreaker\":\"$1\""
}

build_and_start

step "Prometheus scrapes the gateway's management port every $scrape s"
gateway_ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(container_of gateway)")
# A port the kernel has free, unless one is given.
port=${E2E_PROMETHEUS_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')}
prometheus=http://127.0.0.1:$port
cat >"$work/prometheus.yml" <<EOF
global: {scrape_interval: ${scrape}s, scrape_timeout: ${scrape}s}
scrape_configs:
  - job_name: memcached-gateway
    metrics_path: /actuator/prometheus
    static_configs: [{targets: ["$gateway_ip:8081"]}]
EOF
spawn "$work/prometheus.log" prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$port"
cleanup_hooks+=("stop_all $spawned")
await "$prometheus/-/ready" 30 "$spawned" "$work/prometheus.log"
deadline=$((SECONDS + 30))
until curl -s "$prometheus/api/v1/query?query=up" | grep -q '"1"\]'; do
    [ "$SECONDS" -lt "$deadline" ] || fail "Prometheus has not scraped $gateway_ip:8081"
    sleep 0.5
done
start=$(date +%s)

step "misses, then hits, of body and http items; a 404, not stored"
for _ in 1 2; do
    for i in $(seq 1 10); do get "/api/v1/comments/$i"; get "/api/v1/whole/comments/$i"; done
    get /api/v1/no-such-thing
    sleep $((2 * scrape))
done

step "cold misses of collections until the JVM has collected garbage"
# A miss allocates about 100 KB, so a round fills a young generation of 50 MB; how large it has grown is the JVM's.
pause_counts >"$work/pauses"
collected=false
for round in $(seq 1 20); do
    curl -s --no-progress-meter -Z --parallel-max 8 -o /dev/null "$base/api/v1/comments/users/cold-$round-[1-500]"
    if collected_since "$work/pauses"; then collected=true && break; fi
    pause_counts >"$work/pauses"
done
$collected || fail "no garbage collection after $round rounds of 500 misses"
echo "  $((round * 500)) misses"
# On two cores such a storm can hold memcached's answers past their 100 ms deadline and open a node's breaker, whose
# lookups then go straight to the backend, uncoalesced: the next step waits until every breaker has closed, asking
# keys of every node meanwhile (a half-open breaker closes on lookups of its own node's keys).
deadline=$((SECONDS + 20))
while breaker_in '\(HALF_\)\{0,1\}OPEN'; do
    [ "$SECONDS" -lt "$deadline" ] || fail "a memcached breaker stayed open after the misses"
    for i in $(seq 1 30); do get "/api/v1/comments/$i"; done
    sleep 0.5
done

step "comments-service paused for a second: concurrent misses of a cold key wait for one backend call"
pause comments-service
for i in 1 2 3 4; do get_later /api/v1/comments/coalesced "$work/coalesced-$i"; done
sleep 1
docker unpause "$(container_of comments-service)" >/dev/null
wait "${later[@]}" || fail "the cold key's requests were not all answered"
# What each was answered, so that a panel without data names its cause.
answers=$(cat "$work"/coalesced-* | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache" { print $2 }' | sort | tr '\n' ' ')
echo "  X-Cache of the four: $answers"
case "$answers" in *COALESCED*) ;; *) fail "none of the cold key's four requests was coalesced: $answers" ;; esac

step "comments-service paused: past the route's backend calls, a stale item answers STALE and a miss 503"
for node in memcached memcached-2 memcached-3; do store_stale "$node" /api/v1/comments/stale "$work/single.json"; done
pause comments-service
# More than the route's 64 backend calls (memcached.overload.max-concurrent-backend-calls), each held until released.
later=()
for i in $(seq 1 70); do get_later "/api/v1/comments/held-$i"; done
deadline=$((SECONDS + 5))
until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$base/api/v1/comments/probe-$RANDOM")" = 503 ]; do
    [ "$SECONDS" -lt "$deadline" ] || fail "no 503 with the route's backend calls held"
done
for i in 1 2; do
    expect /api/v1/comments/stale 200 STALE
    expect "/api/v1/comments/shed-$i" 503 MISS
    sleep "$scrape"
done
docker unpause "$(container_of comments-service)" >/dev/null
# Whatever they were answered; the panels tell what they did.
wait "${later[@]}" || true

step "memcached-2 paused: its operations time out and its breaker opens"
pause memcached-2
deadline=$((SECONDS + 15))
until breaker_in OPEN; do
    [ "$SECONDS" -lt "$deadline" ] || fail "memcached-2's breaker did not open"
    for i in $(seq 1 30); do get "/api/v1/comments/$i"; done
done
# Open for two scrapes, refusing lookups.
for _ in 1 2; do
    for i in $(seq 1 30); do get "/api/v1/comments/$i"; done
    sleep "$scrape"
done
docker unpause "$(container_of memcached-2)" >/dev/null

step "every panel's queries have data in Prometheus"
sleep $((2 * scrape))
end=$(date +%s)
python3 e2e/dashboard_queries.py deploy/grafana/dashboards/memcached-gateway.json "$prometheus" "$start" "$end" \
    job=memcached-gateway __rate_interval=$((4 * scrape))s __interval=${scrape}s __range=$((end - start))s \
    || fail "a panel of the dashboard has no data"
