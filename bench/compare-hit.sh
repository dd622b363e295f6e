#!/usr/bin/env bash
# A hit on gateway variants side by side: each variant is the gateway jar (or another build) with its own JVM flags
# and settings, all in front of one memcached and comments-service, each warmed under load, then measured in
# alternating rounds (A B C, then C B A, ...) so that the JIT's progress and the machine's load fall on every side
# alike. Prints each round's requests/s and gateway CPU per hit, then each side's median and its ratio to the first.
#
#   flock /tmp/bench.lock bench/compare-hit.sh 'name|java flags|settings[|jar[|path[|first paths]]]' ...
#   e.g. bench/compare-hit.sh 'image|' 'unsafe|--sun-misc-unsafe-memory-access=allow|'
#        bench/compare-hit.sh 'single||||/api/v1/comments/1' 'collection||||/api/v1/comments/users/1'
#
# Each side's java flags come after the image's (GATEWAY_JAVA_OPTS); settings are --key=value, split on blanks.
# ROUNDS (6), ROUND_SECONDS (15), WARM_SECONDS (60), CONNECTIONS (50) and THREADS (1) shape the load; HIT_PATH
# the path asked for where a side names none, and X_CACHE the X-Cache its answers must carry (HIT; empty for the
# pass-through, e.g. HIT_PATH=/api/v1/comments/1/no_cache X_CACHE=). A side's first paths (blank-separated) are
# each asked for FIRST_SECONDS (60) before it is warmed, as a gateway that served other traffic before its hits; a
# path ending in / is asked with a fresh id per request (fresh-ids.lua), real misses. A side's own path may end in /
# too: its warming and rounds are then real misses (X_CACHE=MISS), checked on ids of a range no run takes.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/../scripts/common.sh"

rounds=${ROUNDS:-6}
round_seconds=${ROUND_SECONDS:-15}
warm_seconds=${WARM_SECONDS:-60}
first_seconds=${FIRST_SECONDS:-60}
probes=0
connections=${CONNECTIONS:-50}
threads=${THREADS:-1}
path=${HIT_PATH:-/api/v1/comments/1}
x_cache=${X_CACHE-HIT}
image_jvm
java=$GATEWAY_JAVA
read -ra image_opts <<<"$GATEWAY_JAVA_OPTS"
memcached_port=31021 comments_port=31022 first_port=31030
[ $# -ge 1 ] || fail "usage: $0 'name|java flags|settings[|jar[|path[|first paths]]]' ..."

need memcached memcached
need wrk wrk
work=$(mktemp -d)
trap 'finish $? "$work" "${pids[@]}"' EXIT INT TERM
start_memcached "$memcached_port" 64 "$work/memcached.log"
spawn "$work/comments.log" java -Xmx128m -XX:+UseSerialGC -jar "$(jar_of comments-service)" \
    --server.address=127.0.0.1 --server.port="$comments_port" --comments.max-age=3600s
await "http://127.0.0.1:$comments_port/actuator/health" 90 "$spawned" "$work/comments.log"

# wrk_at URL SECONDS [WRK ARGS...]: wrk on URL; one ending in / gets a fresh id per request, from a range of this
# run's own (next_fresh_base): the sides share memcached, and ids asked before would be hits.
wrk_at() {
    local at=$1 seconds=$2 fresh=() base=()
    shift 2
    if [[ $at == */ ]]; then
        next_fresh_base
        fresh=(-s "$(dirname "$0")/fresh-ids.lua") base=(-- "$fresh_base")
    fi
    wrk -t"$threads" -c"$connections" -d"${seconds}s" "$@" "${fresh[@]}" "$at" "${base[@]}"
}

# checked_x_cache URL SECONDS: fails unless URL answers X_CACHE within SECONDS; a URL ending in / is asked with an
# id of its own, far above every run's range, so that it is a miss.
checked_x_cache() {
    local at=$1
    if [[ $at == */ ]]; then probes=$((probes + 1)) && at=$at$((8000000000000000 + probes)); fi
    await_x_cache "$at" "$x_cache" "$2" || fail "no X-Cache: $x_cache at $at"
}

names=()
declare -A pid url origin first ready
port=$first_port
for side in "$@"; do
    IFS='|' read -r name flags settings jar side_path side_first <<<"$side"
    read -ra side_flags <<<"$flags"
    read -ra side_settings <<<"$settings"
    names+=("$name")
    for taken in "$port" $((port + 1)); do port_free "$taken" || fail "port $taken is taken"; done
    spawn "$work/$name.log" "$java" "${image_opts[@]}" "${side_flags[@]}" -jar "${jar:-$(jar_of gateway)}" \
        --server.address=127.0.0.1 --server.port="$port" --management.server.port=$((port + 1)) \
        --comments-service.uri="http://127.0.0.1:$comments_port" --memcached.servers="127.0.0.1:$memcached_port" \
        "${side_settings[@]}"
    pid[$name]=$spawned
    origin[$name]=http://127.0.0.1:$port
    ready[$name]=http://127.0.0.1:$((port + 1))/actuator/health/readiness
    url[$name]=${origin[$name]}${side_path:-$path}
    first[$name]=$side_first
    port=$((port + 10))
done
for name in "${names[@]}"; do
    await "${ready[$name]}" 120 "${pid[$name]}" "$work/$name.log"
    for asked in ${first[$name]}; do
        log "asking $name for $asked for ${first_seconds}s first"
        wrk_at "${origin[$name]}$asked" "$first_seconds" >/dev/null
    done
    checked_x_cache "${url[$name]}" 10
    log "warming $name for ${warm_seconds}s"
    warm_in_two_runs "$warm_seconds" wrk_at "${url[$name]}"
done

echo "| round | side | req/s | gateway CPU µs/request | JIT CPU ms |"
echo "|---|---|---|---|---|"
order=("${names[@]}")
for round in $(seq "$rounds"); do
    for name in "${order[@]}"; do
        before=$(cpu_of "${pid[$name]}") jit_before=$(jit_cpu "${pid[$name]}")
        wrk_at "${url[$name]}" "$round_seconds" >"$work/wrk.txt"
        spent=$(($(cpu_of "${pid[$name]}") - before)) jit=$(($(jit_cpu "${pid[$name]}") - jit_before))
        [ -z "$(wrk_field "$work/wrk.txt" non-2xx)" ] || fail "non-2xx answers on $name"
        awk -v round="$round" -v name="$name" -v cpu="$spent" -v rate="$(wrk_field "$work/wrk.txt" rate)" \
            -v requests="$(wrk_field "$work/wrk.txt" requests)" -v jit="$jit" \
            'BEGIN { printf "| %d | %s | %.0f | %.1f | %.0f |\n", round, name, rate, cpu / requests, jit / 1000 }' |
            tee -a "$work/rounds.md"
    done
    reverse order
done
for name in "${names[@]}"; do checked_x_cache "${url[$name]}" 5; done
echo
echo "Medians over $rounds rounds of ${round_seconds}s, wrk -t$threads -c$connections on each side's path:"
python3 - "$work/rounds.md" "${names[@]}" <<'EOF'
import statistics, sys
rows = [line.strip('|\n').split('|') for line in open(sys.argv[1])]
names = sys.argv[2:]
median = {n: (statistics.median(float(r[2]) for r in rows if r[1].strip() == n),
              statistics.median(float(r[3]) for r in rows if r[1].strip() == n)) for n in names}
for n in names:
    print(f"  {n}: {median[n][0]:.0f} req/s ({median[n][0] / median[names[0]][0]:.3f} of {names[0]}), "
          f"{median[n][1]:.1f} µs CPU per request")
EOF
