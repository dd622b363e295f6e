#!/usr/bin/env bash
# Whether this machine runs at one speed: nginx's keepalive hits (bench/nginx-keepalive.conf.template, its item stored
# straight in memcached) under wrk -t2 -c50 for a few minutes, with no JVM anywhere, and each 5 s window's requests/s,
# nginx's CPU per request, memcached's CPU per get and its gets per read. Neither nginx nor memcached warms up, so a
# window in which both spend more CPU per request, with as many gets per read, is the machine being slower (on a
# virtual machine, a neighbour on the same host), not the software. Run it before trusting a ratio of two
# measurements taken a minute apart, such as the warm-up case's first seconds against its steady state.
#
#   flock /tmp/bench.lock bench/machine-phases.sh [SECONDS]     (150 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

seconds=${1:-150}
memcached_port=31221 nginx_port=31222
# The template's fallback to comments-service is never taken: the item is stored before the first request.
comments_port=31223
path=/api/v1/comments/1
need memcached memcached
need nginx nginx
need wrk wrk
for port in "$memcached_port" "$nginx_port"; do
    port_free "$port" || fail "port $port is taken"
done
work=$(mktemp -d)
trap 'finish $? "$work" "${pids[@]}"' EXIT INT TERM

start_memcached "$memcached_port" 64 "$work/memcached.log"
memcached=$spawned
# A comment's size, as the benchmark's single payload.
body=$(printf '{"id":1,"author":"alice","body":"%0160d"}' 0)
[[ $(memcached_ask "$memcached_port" "set $path 0 0 ${#body}"$'\r\n'"$body") == STORED* ]] ||
    fail "memcached did not store $path"
mkdir -p "$work/nginx/logs" "$work/nginx/temp"
cp /etc/nginx/mime.types "$work/nginx/mime.types"
sed -e "s|@PORT@|$nginx_port|g" -e "s|@MEMCACHED_PORT@|$memcached_port|g" -e "s|@COMMENTS_PORT@|$comments_port|g" \
    bench/nginx-keepalive.conf.template >"$work/nginx/nginx.conf"
spawn "$work/nginx.log" nginx -p "$work/nginx/" -c "$work/nginx/nginx.conf" -g 'daemon off;'
nginx=$spawned
await "http://127.0.0.1:$nginx_port$path" 10 "$nginx" "$work/nginx.log"

# Once a second: the time, nginx's CPU (master and workers), memcached's, and the read calls memcached has made.
sample() {
    local cpu pid
    while :; do
        cpu=$(cpu_of "$nginx")
        for pid in $(pgrep -P "$nginx"); do cpu=$((cpu + $(cpu_of "$pid"))); done
        printf '%s %s %s %s\n' "$(date +%s.%N)" "$cpu" "$(cpu_of "$memcached")" \
            "$(awk '$1 == "syscr:" { print $2 }' "/proc/$memcached/io")"
        sleep 1
    done
}
sample >"$work/samples.txt" &
pids+=("$!")
sleep 1 # a sample before wrk's first second
started=$(date +%s.%N)
log "nginx hits for $seconds s"
wrk -t2 -c50 -d"${seconds}s" -s bench/per-second.lua "http://127.0.0.1:$nginx_port$path" >"$work/wrk.txt"
python3 - "$work/wrk.txt" "$work/samples.txt" "$started" <<'PY'
import statistics, sys
sys.path.insert(0, "bench")
from report import parse_per_second, value_at

COUNTERS = ("nginx", "memcached", "reads")
counts = parse_per_second(open(sys.argv[1]).read())
samples = [(float(time), dict(zip(COUNTERS, map(float, values))))
           for time, *values in (line.split() for line in open(sys.argv[2]))]
started = float(sys.argv[3])

def at(moment):  # the counters at a moment, None outside the samples
    values = [value_at(samples, counter, moment) for counter in COUNTERS]
    return None if None in values else values

WINDOW = 5
rows = []
for first in range(0, len(counts) - WINDOW, WINDOW):  # the last, cut short by wrk's end, left out
    requests = sum(counts[first:first + WINDOW])
    start, end = at(started + first), at(started + first + WINDOW)
    if start is None or end is None:
        continue
    nginx, memcached, reads = (e - s for s, e in zip(start, end))
    rows.append((first, requests / WINDOW, nginx / requests, memcached / requests, requests / reads))
print("from s  requests/s  nginx us/request  memcached us/get  gets/read")
for row in rows:
    print("%6d  %10.0f  %16.1f  %16.1f  %9.2f" % row)
rates = [row[1] for row in rows]
print(f"Slowest window at {min(rates) / max(rates):.2f} of the fastest; nginx's and memcached's CPU per request "
      f"correlate at {statistics.correlation([r[2] for r in rows], [r[3] for r in rows]):.2f}")
PY
