#!/usr/bin/env bash
# Load shaped like traffic on a pool of three memcached servers: keys whose popularity follows Zipf's law (s = 1.0),
# each an item of its own size from 100 B to 50 KB served by an origin nginx of static files, through the gateway,
# then nginx's memcached_pass on the same ring, then the gateway with its near-cache. Prints a Markdown section:
# requests/s, p50 and p99, the hit ratio and each memcached server's share of the operations per target, each
# server's items and evictions, and the size mix. See bench/README.md.
#
#   bench/zipf.sh               100,000 keys, about 5 minutes: bench/results/<date>-<commit>-zipf.md
#   bench/zipf.sh --quick       10,000 keys, 3 s a phase: a smoke test, written to a file only when one is named
#   bench/zipf.sh --out FILE    the section into FILE as well (or ZIPF_OUT=FILE)
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
log_prefix=zipf
# shellcheck source=scripts/common.sh
source "$bench/../scripts/common.sh"
# What the run records for `report.py zipf` (its docstring lists the files), and the servers' logs; kept after the
# run, as bench/run.sh keeps bench/.work.
work=${ZIPF_WORK:-$bench/.work/zipf}

# Ports of their own, so that this runs beside bench/run.sh's and the e2e scripts' (21211-28091, 25xxx), and below
# Linux's ephemeral range (32768 and up), where an outgoing connection could hold one.
ZIPF_PORT_BASE=${ZIPF_PORT_BASE:-31100}
memcached_ports=($((ZIPF_PORT_BASE + 11)) $((ZIPF_PORT_BASE + 12)) $((ZIPF_PORT_BASE + 13)))
origin_port=$((ZIPF_PORT_BASE + 20))
gateway_port=$((ZIPF_PORT_BASE + 30))
gateway_management_port=$((ZIPF_PORT_BASE + 31))
near_cache_port=$((ZIPF_PORT_BASE + 32))
near_cache_management_port=$((ZIPF_PORT_BASE + 33))
nginx_port=$((ZIPF_PORT_BASE + 40))

ZIPF_KEYS=${ZIPF_KEYS-}
ZIPF_S=${ZIPF_S:-1.0}
ZIPF_WARM_SECONDS=${ZIPF_WARM_SECONDS-}
ZIPF_SECONDS=${ZIPF_SECONDS-}
ZIPF_OUT=${ZIPF_OUT-}
# The answers that may fail (non-2xx, a socket error, or slower than wrk's timeout) in a measured run, as a fraction
# of its requests: a stray timeout in a full run of 30 s, never a broken path.
ZIPF_MAX_ERRORS=${ZIPF_MAX_ERRORS:-0.001}
# wrk's --timeout: an answer slower than this counts as failed. A full run keeps wrk's 2 s. A quick run asserts no
# speed, and its JVMs are cold: 3 s into a gateway's life, on 2 cores shared with wrk and five servers, its slowest
# answers took 2 s, so that wrk's default failed the run on a few of them (2 of 1310) while every answer came.
ZIPF_TIMEOUT=${ZIPF_TIMEOUT-}
# The size mix (zipf.lua's header says how it is drawn): a lognormal of this median in bytes and sigma in ln bytes,
# clipped to 100 B to 50 KB, about 4 KB a key on average; the seed of the draw, so that every run has the same mix.
ZIPF_SIZE_MEDIAN=${ZIPF_SIZE_MEDIAN:-2000}
ZIPF_SIZE_SIGMA=${ZIPF_SIZE_SIGMA:-1.2}
ZIPF_SIZE_SEED=${ZIPF_SIZE_SEED:-1}

# The gateway's JVM as its image runs it (scripts/common.sh).
image_jvm
# Settings for both gateways, split on blanks.
GATEWAY_ARGS=${GATEWAY_ARGS-}

# bench/run.sh's load: two wrk threads, 50 connections.
threads=2
connections=50
# The 100,000 bodies of the default mix take 400 MB, so a server's third is about 135 MB, or 140 on the server the
# ring gives the most (34.5% of the items in the first run). memcached's slab classes, each 1.25 times the one
# before, round an item up by a tenth on average, its header and key add about 80 bytes, and each of the 30 or so
# classes that items of 100 B to 50 KB use holds a part-filled 1 MB page: about 190 MB in all. 64 MB, memcached's
# default, would hold a third of that and evict; 256 leaves a quarter spare, so that an eviction (the report
# counts them) means a sizing error, not the load. memcached takes memory only as items arrive.
memcached_mb=256
# As bench/run.sh's near-cache gateway: short-lived, and bounded well below the heap.
near_cache_args=(--memcached.cache.near-cache.ttl=5s --memcached.cache.near-cache.max-entries=10000
    --memcached.cache.near-cache.max-bytes=16MB)
jvm_start_seconds=120
quick=false
# The bodies whose bytes are compared, through each target, with the origin's: the hottest two, which must come
# from memcached once warm, and the hottest above 16 KB.
large_bytes=16000

usage() {
    sed -n '2,10s/^# \{0,1\}//p' "$0"
}

parse_args() {
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) quick=true ;;
            --out)
                [ $# -ge 2 ] || fail "--out needs a file"
                ZIPF_OUT=$2
                shift
                ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; fail "unknown argument: $1" ;;
        esac
        shift
    done
    # A quick run is a smoke test of every path: fewer keys and short phases keep CI's share small. A full run
    # warms each JVM for a minute, which the JIT needs under load on 2 cores (bench/README.md), and which fills
    # memcached with the hot keys as the gateway's misses store them.
    if $quick; then
        ZIPF_KEYS=${ZIPF_KEYS:-10000} ZIPF_WARM_SECONDS=${ZIPF_WARM_SECONDS:-3} ZIPF_SECONDS=${ZIPF_SECONDS:-3}
        ZIPF_TIMEOUT=${ZIPF_TIMEOUT:-10s}
    else
        ZIPF_KEYS=${ZIPF_KEYS:-100000} ZIPF_WARM_SECONDS=${ZIPF_WARM_SECONDS:-60} ZIPF_SECONDS=${ZIPF_SECONDS:-30}
        ZIPF_TIMEOUT=${ZIPF_TIMEOUT:-2s}
    fi
}

# setup KEY VALUE: a fact about the run, for the report.
setup() {
    printf '%s\t%s\n' "$1" "$2" >>"$work/setup.tsv"
}

# path_of RANK: the key of that rank, as zipf.lua asks it (keys.tsv: rank, path, bytes).
path_of() {
    awk -F'\t' -v rank="$1" '$1 == rank { print $2; exit }' "$work/keys.tsv"
}

# largest_hot_rank: the hottest rank whose body is above $large_bytes.
largest_hot_rank() {
    awk -F'\t' -v least="$large_bytes" '$3 > least { print $1; exit }' "$work/keys.tsv"
}

# --- the servers ----------------------------------------------------------------------------------------------

start_memcached_servers() {
    local port
    for port in "${memcached_ports[@]}"; do
        log "starting memcached on $port: -m $memcached_mb"
        start_memcached "$port" "$memcached_mb" "$work/memcached-$port.log"
    done
}

# nginx_prefix DIR: a prefix of its own for an nginx of this script's, so that nothing of the system nginx is used.
nginx_prefix() {
    mkdir -p "$1/logs" "$1/temp"
    if [ -f /etc/nginx/mime.types ]; then
        cp /etc/nginx/mime.types "$1/mime.types"
    else
        printf 'types {}\n' >"$1/mime.types"
    fi
}

# start_nginx_in DIR URL: nginx with DIR/nginx.conf, spawned, checked first; answering URL once this returns, its
# pid in $spawned.
start_nginx_in() {
    local prefix=$1 url=$2
    nginx -q -t -p "$prefix/" -c "$prefix/nginx.conf" >"$prefix/logs/test.log" 2>&1 || {
        show_logs "$prefix/logs/test.log"
        fail "nginx rejected $prefix/nginx.conf"
    }
    spawn "$prefix/logs/run.log" nginx -p "$prefix/" -c "$prefix/nginx.conf" -g 'daemon off;'
    await "$url" "$jvm_start_seconds" "$spawned" "$prefix/logs/error.log"
}

# write_items DIR: a JSON file of each class's size under DIR/html/sizes (classes.tsv: class, bytes), random
# base64 in a string, so that no body compresses or repeats another.
write_items() {
    local dir=$1/html/sizes class bytes opening closing='"}' file
    mkdir -p "$dir"
    while IFS=$'\t' read -r class bytes; do
        opening="{\"class\":$class,\"bytes\":$bytes,\"data\":\""
        file=$dir/$class.json
        # More base64 than the body needs, cut to its size: base64 makes 4 characters of 3 bytes.
        { printf '%s' "$opening"; head -c "$bytes" /dev/urandom | base64 -w 0; } >"$file"
        truncate -s $((bytes - ${#closing})) "$file"
        printf '%s' "$closing" >>"$file"
    done <"$work/classes.tsv"
}

# start_origin: the items' origin (bench/nginx-origin.conf.template) on its files; answering once this returns,
# each class checked for its size and the answer for its caching headers.
start_origin() {
    local prefix=$work/origin class bytes size headers
    nginx_prefix "$prefix"
    write_items "$prefix"
    sed -e "s|@PORT@|$origin_port|g" "$bench/nginx-origin.conf.template" >"$prefix/nginx.conf"
    log "starting the origin nginx on $origin_port: $(wc -l <"$work/classes.tsv") sizes of item"
    start_nginx_in "$prefix" "http://127.0.0.1:$origin_port$(path_of 1)"
    # Rank 0 is never asked: these requests go to the origin alone, and nothing is stored.
    while IFS=$'\t' read -r class bytes; do
        size=$(curl -fs -o /dev/null -w '%{size_download}' --max-time 5 "http://127.0.0.1:$origin_port/items/0-$class") ||
            fail "the origin did not answer /items/0-$class"
        [ "$size" = "$bytes" ] || fail "the origin answered /items/0-$class with $size bytes, not $bytes"
    done <"$work/classes.tsv"
    headers=$(curl -fs -o /dev/null -D - --max-time 5 "http://127.0.0.1:$origin_port$(path_of 1)" | tr -d '\r')
    if ! grep -qi '^content-type: application/json$' <<<"$headers" ||
        ! grep -qi '^cache-control: max-age=3600$' <<<"$headers"; then
        fail "the origin's answer is not cacheable JSON: $headers"
    fi
}

# start_gateway NAME PORT MANAGEMENT_PORT [SETTING...]: a gateway on the three servers, placing keys on nginx's ring,
# with bench/zipf-items.yml's route to the origin; ready once this returns, its pid in $spawned.
start_gateway() {
    local name=$1 port=$2 management_port=$3 java_opts gateway_args servers
    shift 3
    read -ra java_opts <<<"$GATEWAY_JAVA_OPTS"
    read -ra gateway_args <<<"$GATEWAY_ARGS"
    servers=$(printf '127.0.0.1:%s,' "${memcached_ports[@]}")
    log "starting the $name on $port: $GATEWAY_JAVA $GATEWAY_JAVA_OPTS $*"
    spawn "$work/$name.log" "$GATEWAY_JAVA" "${java_opts[@]}" -jar "$gateway_jar" \
        --server.address=127.0.0.1 --server.port="$port" \
        --management.server.address=127.0.0.1 --management.server.port="$management_port" \
        --spring.config.additional-location="$bench/zipf-items.yml" --zipf.origin-uri="http://127.0.0.1:$origin_port" \
        --memcached.servers="${servers%,}" --memcached.ring=nginx "$@" "${gateway_args[@]}"
    # Readiness, not a request through the route, which would store an item before the measured runs. The
    # management server starts once the gateway's own listens.
    await "http://127.0.0.1:$management_port/actuator/health/readiness" "$jvm_start_seconds" "$spawned" \
        "$work/$name.log"
}

# start_nginx: nginx's memcached_pass with bench/nginx-ring.conf.template; answering once this returns, its pid in
# $spawned.
start_nginx() {
    local prefix=$work/nginx
    nginx_prefix "$prefix"
    sed -e "s|@PORT@|$nginx_port|g" -e "s|@ORIGIN_PORT@|$origin_port|g" \
        -e "s|@MEMCACHED_PORT_1@|${memcached_ports[0]}|g" -e "s|@MEMCACHED_PORT_2@|${memcached_ports[1]}|g" \
        -e "s|@MEMCACHED_PORT_3@|${memcached_ports[2]}|g" "$bench/nginx-ring.conf.template" >"$prefix/nginx.conf"
    log "starting nginx on $nginx_port"
    # Rank 0 is never asked: a get that misses and an answer from the origin, which nginx does not store.
    start_nginx_in "$prefix" "http://127.0.0.1:$nginx_port/items/0-0"
}

# stop PID: stops one server that spawn started and forgets it, so that the exit's stop_all never signals a process
# that has since taken its pid.
stop() {
    local kept=() pid
    stop_all "$1"
    for pid in "${pids[@]}"; do
        if [ "$pid" != "$1" ]; then kept+=("$pid"); fi
    done
    pids=("${kept[@]}")
}

# --- measuring ------------------------------------------------------------------------------------------------

# run_wrk OUTPUT URL SEED SECONDS: zipf.lua's keys for SECONDS. Each run has a seed of its own, so that no run
# replays the keys of another (nginx would then find exactly the items the gateway's measured run stored), and each
# run repeats from one benchmark to the next.
run_wrk() {
    local output=$1 url=$2 seed=$3 seconds=$4
    # wrk stops itself after -d; the deadline is for a wrk that does not, with room for the script's set-up.
    timeout -k 5 $((seconds + 60)) wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout "$ZIPF_TIMEOUT" \
        --latency -s "$bench/zipf.lua" "$url" -- "$ZIPF_KEYS" "$ZIPF_S" "$seed" "$ZIPF_SIZE_SEED" "$ZIPF_SIZE_MEDIAN" \
        "$ZIPF_SIZE_SIGMA" >"$output" 2>&1 ||
        { cat "$output" >&2; fail "wrk failed on $url"; }
}

# snapshot NAME MANAGEMENT_PORT|-: each memcached server's stats (NAME.stats: server index, stat, value) and a
# gateway's cache meters (NAME.prom), as they stand.
snapshot() {
    local i
    for i in 0 1 2; do
        memcached_ask "${memcached_ports[$i]}" stats |
            awk -v node=$((i + 1)) '$1 == "STAT" { print node "\t" $2 "\t" $3 }'
    done >"$work/$1.stats"
    if [ "$2" != - ]; then
        curl -fs --max-time 5 "http://127.0.0.1:$2/actuator/prometheus" >"$work/$1.prometheus.txt" ||
            fail "no meters from http://127.0.0.1:$2/actuator/prometheus"
        grep -E '^memcached_cache_(lookups|stores)_total' "$work/$1.prometheus.txt" >"$work/$1.prom" || true
        rm -f "$work/$1.prometheus.txt"
    fi
}

# same_bytes URL PATH: URL answers PATH with the origin's bytes.
same_bytes() {
    cmp -s <(curl -fs --max-time 5 "$1$2") <(curl -fs --max-time 5 "http://127.0.0.1:$origin_port$2") ||
        fail "$1$2 answered other bytes than the origin"
}

# from_cache KIND URL: URL was answered from a cache: a gateway says X-Cache: HIT; nginx sends no Cache-Control
# with an answer from memcached, and the origin's (the @fallback's) has one.
from_cache() {
    local headers
    headers=$(curl -s -o /dev/null -D - --max-time 5 "$2" | tr -d '\r')
    case $1 in
        gateway) grep -qi '^x-cache: *HIT$' <<<"$headers" ;;
        nginx) grep -q '^HTTP/[0-9.]* 200' <<<"$headers" && ! grep -qi '^cache-control:' <<<"$headers" ;;
    esac
}

# measure ID LABEL KIND URL MANAGEMENT_PORT|- SEED LOG: a warm-up run, then the measured run, with memcached's stats
# and a gateway's meters read on either side of it. The hottest two keys must come from the cache once warm, and
# they and a large body with the origin's bytes.
measure() {
    local id=$1 label=$2 kind=$3 url=$4 management=$5 seed=$6 server_log=$7 rank large
    log "$label: $ZIPF_WARM_SECONDS s of warm-up"
    run_wrk "$work/$id.warm-up.txt" "$url" "$seed" "$ZIPF_WARM_SECONDS"
    # Few keys may have no body that large.
    large=$(largest_hot_rank)
    if [ -n "$large" ]; then same_bytes "$url" "$(path_of "$large")"; fi
    for rank in 1 2; do
        same_bytes "$url" "$(path_of "$rank")"
        from_cache "$kind" "$url$(path_of "$rank")" || {
            show_logs "$server_log"
            fail "$label did not answer $(path_of "$rank") from the cache after the warm-up"
        }
    done
    snapshot "$id.before" "$management"
    log "$label: $ZIPF_SECONDS s measured"
    run_wrk "$work/$id.wrk.txt" "$url" $((seed + 1)) "$ZIPF_SECONDS"
    snapshot "$id.after" "$management"
    printf '%s\t%s\t%s\n' "$id" "$label" "$([ "$management" = - ] && echo memcached || echo gateway)" \
        >>"$work/targets.tsv"
    python3 "$bench/report.py" zipf-line "$work" "$id" >&2
}

# Which server holds each of the hottest keys (hot.tsv: rank, path, server index or "-"): a server's share of the
# operations follows the few keys that take most of them.
locate_hot_keys() {
    local rank path i node
    for rank in 1 2 3 4 5 6 7 8 9 10; do
        path=$(path_of "$rank") node=-
        for i in 0 1 2; do
            if [[ $(memcached_ask "${memcached_ports[$i]}" "mg $path") == HD* ]]; then node=$((i + 1)); fi
        done
        printf '%s\t%s\t%s\n' "$rank" "$path" "$node"
    done >"$work/hot.tsv"
}

record_setup() {
    setup title "Zipf-distributed keys on three memcached servers, $(date -u +%F), $(git -C "$root" rev-parse \
        --short HEAD 2>/dev/null || echo unknown)$($quick && echo ' (quick)')"
    setup quick "$quick"
    setup keys "$ZIPF_KEYS"
    setup s "$ZIPF_S"
    setup warm_seconds "$ZIPF_WARM_SECONDS"
    setup seconds "$ZIPF_SECONDS"
    setup threads "$threads"
    setup connections "$connections"
    setup max_errors "$ZIPF_MAX_ERRORS"
    setup timeout "$ZIPF_TIMEOUT"
    setup size_seed "$ZIPF_SIZE_SEED"
    setup size_median "$ZIPF_SIZE_MEDIAN"
    setup size_sigma "$ZIPF_SIZE_SIGMA"
    setup servers "$(printf '127.0.0.1:%s ' "${memcached_ports[@]}")"
    setup memcached_mb "$memcached_mb"
    setup cores "$(nproc)"
    setup cpu "$(grep -m 1 '^model name' /proc/cpuinfo | sed 's/.*: *//' || true)"
    setup gateway_java "$("$GATEWAY_JAVA" -version 2>&1 | head -n 1)"
    setup gateway_java_opts "$GATEWAY_JAVA_OPTS"
    setup gateway_args "--memcached.ring=nginx $GATEWAY_ARGS"
    setup near_cache_args "${near_cache_args[*]}"
    setup versions "$(memcached -V), $(nginx -v 2>&1 | sed 's/.*: //'), $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2)"
}

main() {
    parse_args "$@"
    local started_at=$SECONDS port out status=0
    need curl curl
    need memcached memcached
    need wrk wrk
    need python3 python3
    # The origin is an nginx too, so nothing runs without one.
    need nginx nginx || fail "nginx is needed: it serves the items and is the reference"
    gateway_jar=$(jar_of gateway)
    for port in "${memcached_ports[@]}" "$origin_port" "$gateway_port" "$gateway_management_port" \
        "$near_cache_port" "$near_cache_management_port" "$nginx_port"; do
        port_free "$port" || fail "port $port is in use; set ZIPF_PORT_BASE to a free range of 100"
    done
    rm -rf "$work"
    mkdir -p "$work"
    setup load_before "$(cut -d' ' -f1-3 /proc/loadavg)"
    trap 'stop_all "${pids[@]}"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    record_setup
    log "the load generator shares the $(nproc) cores with the servers: compare within this run only"

    # The size classes and every key, as zipf.lua draws them, for the origin's files and the checks.
    python3 "$bench/report.py" zipf-keys "$work"
    start_memcached_servers
    start_origin

    # The gateway first: its misses fill memcached, which nginx only reads. Each target runs alone with memcached
    # and the origin, so that no idle server's background work lands on the nodes' counters.
    start_gateway gateway "$gateway_port" "$gateway_management_port"
    local pid=$spawned
    measure gateway "gateway" gateway "http://127.0.0.1:$gateway_port" "$gateway_management_port" 1 \
        "$work/gateway.log"
    stop "$pid"

    start_nginx
    pid=$spawned
    measure nginx "nginx (memcached_pass, same ring)" nginx "http://127.0.0.1:$nginx_port" - 3 \
        "$work/nginx/logs/error.log"
    stop "$pid"

    start_gateway gateway-near-cache "$near_cache_port" "$near_cache_management_port" "${near_cache_args[@]}"
    pid=$spawned
    measure near-cache "gateway with near-cache" gateway "http://127.0.0.1:$near_cache_port" \
        "$near_cache_management_port" 5 "$work/gateway-near-cache.log"
    stop "$pid"

    locate_hot_keys
    snapshot end -
    setup load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
    setup took "$((SECONDS - started_at))"

    out=$ZIPF_OUT
    if [ -z "$out" ] && ! $quick; then
        mkdir -p "$bench/results"
        out="$bench/results/$(date -u +%F)-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)-zipf.md"
    fi
    python3 "$bench/report.py" zipf "$work" >"$work/zipf.md" || status=$?
    cat "$work/zipf.md"
    if [ -n "$out" ]; then
        cp "$work/zipf.md" "$out"
        log "written: $out"
    fi
    [ "$status" -eq 0 ] || fail "the run does not pass its checks (above)"
}

main "$@"
