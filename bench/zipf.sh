#!/usr/bin/env bash
# Load shaped like traffic on a pool of three memcached servers: keys whose popularity follows Zipf's law (s = 1.0),
# with answers of both sizes comments-service has, through the gateway, then nginx's memcached_pass on the same ring,
# then the gateway with its near-cache. Prints a Markdown section: requests/s, p50 and p99, the hit ratio and each
# memcached server's share of the operations per target, and the size mix. See bench/README.md.
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
comments_port=$((ZIPF_PORT_BASE + 20))
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
# The answers that may fail (non-2xx, or a socket error) in a measured run, as a fraction of its requests: a few
# timeouts of a cold JVM in a quick run, never a broken path.
ZIPF_MAX_ERRORS=${ZIPF_MAX_ERRORS:-0.001}

# The JVMs as bench/run.sh runs them: the gateway as its image does, comments-service with a small bounded heap.
GATEWAY_JAVA=${GATEWAY_JAVA:-$(if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
    echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/java; else echo java; fi)}
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS--XX:+UseG1GC -Xmx460m -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError}
COMMENTS_JAVA_OPTS=${COMMENTS_JAVA_OPTS--Xmx96m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
# Settings for both gateways, split on blanks.
GATEWAY_ARGS=${GATEWAY_ARGS-}

# bench/run.sh's load: two wrk threads, 50 connections.
threads=2
connections=50
# 100,000 keys, half of them 2,176-byte collections, are about 130 MB of items with memcached's overhead; each
# server holds a third of them, and memcached takes memory only as items arrive.
memcached_mb=128
# As bench/run.sh's near-cache gateway: short-lived, and bounded well below the heap.
near_cache_args=(--memcached.cache.near-cache.ttl=5s --memcached.cache.near-cache.max-entries=10000
    --memcached.cache.near-cache.max-bytes=16MB)
jvm_start_seconds=120
quick=false
nginx_available=false
# The keys whose answer sizes are sampled: the hottest ten and others spread over the ranks.
size_samples=100

usage() {
    sed -n '2,9s/^# \{0,1\}//p' "$0"
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
    else
        ZIPF_KEYS=${ZIPF_KEYS:-100000} ZIPF_WARM_SECONDS=${ZIPF_WARM_SECONDS:-60} ZIPF_SECONDS=${ZIPF_SECONDS:-30}
    fi
}

# setup KEY VALUE: a fact about the run, for the report.
setup() {
    printf '%s\t%s\n' "$1" "$2" >>"$work/setup.tsv"
}

# path_of RANK: the key of that rank, as zipf.lua asks it.
path_of() {
    if (($1 % 2)); then echo "/api/v1/comments/$1"; else echo "/api/v1/comments/users/$1"; fi
}

# --- the servers ----------------------------------------------------------------------------------------------

start_backends() {
    local port
    for port in "${memcached_ports[@]}"; do
        log "starting memcached on $port"
        start_memcached "$port" "$memcached_mb" "$work/memcached-$port.log"
    done
    local java_opts
    read -ra java_opts <<<"$COMMENTS_JAVA_OPTS"
    log "starting comments-service on $comments_port: java $COMMENTS_JAVA_OPTS"
    # max-age as bench/run.sh's: no item expires during the run.
    spawn "$work/comments-service.log" java "${java_opts[@]}" -jar "$comments_jar" \
        --server.address=127.0.0.1 --server.port="$comments_port" --comments.max-age=3600s
    await "http://127.0.0.1:$comments_port/api/v1/comments/1/no_cache" "$jvm_start_seconds" "$spawned" \
        "$work/comments-service.log"
}

# start_gateway NAME PORT MANAGEMENT_PORT [SETTING...]: a gateway on the three servers, placing keys on nginx's ring;
# answering once this returns, its pid in $spawned.
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
        --comments-service.uri="http://127.0.0.1:$comments_port" --memcached.servers="${servers%,}" \
        --memcached.ring=nginx "$@" "${gateway_args[@]}"
    await "http://127.0.0.1:$port/api/v1/comments/1/no_cache" "$jvm_start_seconds" "$spawned" "$work/$name.log"
}

# start_nginx: nginx with bench/nginx-ring.conf.template under a prefix of its own, so that nothing of the system
# nginx is used; answering once this returns, its pid in $spawned.
start_nginx() {
    local prefix=$work/nginx
    mkdir -p "$prefix/logs" "$prefix/temp"
    if [ -f /etc/nginx/mime.types ]; then
        cp /etc/nginx/mime.types "$prefix/mime.types"
    else
        printf 'types {}\n' >"$prefix/mime.types"
    fi
    sed -e "s|@PORT@|$nginx_port|g" -e "s|@COMMENTS_PORT@|$comments_port|g" \
        -e "s|@MEMCACHED_PORT_1@|${memcached_ports[0]}|g" -e "s|@MEMCACHED_PORT_2@|${memcached_ports[1]}|g" \
        -e "s|@MEMCACHED_PORT_3@|${memcached_ports[2]}|g" "$bench/nginx-ring.conf.template" >"$prefix/nginx.conf"
    nginx -q -t -p "$prefix/" -c "$prefix/nginx.conf" >"$prefix/logs/test.log" 2>&1 || {
        show_logs "$prefix/logs/test.log"
        fail "nginx rejected $prefix/nginx.conf"
    }
    log "starting nginx on $nginx_port"
    spawn "$prefix/logs/run.log" nginx -p "$prefix/" -c "$prefix/nginx.conf" -g 'daemon off;'
    await "http://127.0.0.1:$nginx_port/api/v1/comments/1/no_cache" "$jvm_start_seconds" "$spawned" \
        "$prefix/logs/error.log"
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

# sample_sizes: the body size of sampled keys as comments-service answers them, into sizes.tsv (rank, path, bytes).
sample_sizes() {
    local i rank path bytes
    for ((i = 1; i <= size_samples; i++)); do
        if ((i <= 10)); then rank=$i; else rank=$(((i - 10) * ZIPF_KEYS / (size_samples - 10))); fi
        path=$(path_of "$rank")
        bytes=$(curl -fs -o /dev/null -w '%{size_download}' --max-time 5 "http://127.0.0.1:$comments_port$path") ||
            fail "comments-service did not answer $path"
        printf '%s\t%s\t%s\n' "$rank" "$path" "$bytes"
    done >"$work/sizes.tsv"
}

# run_wrk OUTPUT URL SEED SECONDS: zipf.lua's keys for SECONDS. Each run has a seed of its own, so that no run
# replays the keys of another (nginx would then find exactly the items the gateway's measured run stored), and each
# run repeats from one benchmark to the next.
run_wrk() {
    local output=$1 url=$2 seed=$3 seconds=$4
    # wrk stops itself after -d; the deadline is for a wrk that does not, with room for the script's set-up.
    timeout -k 5 $((seconds + 60)) wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency \
        -s "$bench/zipf.lua" "$url" -- "$ZIPF_KEYS" "$ZIPF_S" "$seed" >"$output" 2>&1 ||
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

# same_bytes URL PATH: URL answers PATH with comments-service's bytes.
same_bytes() {
    cmp -s <(curl -fs --max-time 5 "$1$2") <(curl -fs --max-time 5 "http://127.0.0.1:$comments_port$2") ||
        fail "$1$2 answered other bytes than comments-service"
}

# from_cache KIND URL: URL was answered from a cache: a gateway says X-Cache: HIT; nginx sends no Cache-Control
# with an answer from memcached, and comments-service's (the @fallback's) has one.
from_cache() {
    local headers
    headers=$(curl -s -o /dev/null -D - --max-time 5 "$2" | tr -d '\r')
    case $1 in
        gateway) grep -qi '^x-cache: *HIT$' <<<"$headers" ;;
        nginx) grep -q '^HTTP/[0-9.]* 200' <<<"$headers" && ! grep -qi '^cache-control:' <<<"$headers" ;;
    esac
}

# measure ID LABEL KIND URL MANAGEMENT_PORT|- SEED LOG: a warm-up run, then the measured run, with memcached's stats
# and a gateway's meters read on either side of it. The hottest key of each size must come from the cache, with
# comments-service's bytes, once warm.
measure() {
    local id=$1 label=$2 kind=$3 url=$4 management=$5 seed=$6 server_log=$7 rank
    log "$label: $ZIPF_WARM_SECONDS s of warm-up"
    run_wrk "$work/$id.warm-up.txt" "$url" "$seed" "$ZIPF_WARM_SECONDS"
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
    setup servers "$(printf '127.0.0.1:%s ' "${memcached_ports[@]}")"
    setup memcached_mb "$memcached_mb"
    setup cores "$(nproc)"
    setup cpu "$(grep -m 1 '^model name' /proc/cpuinfo | sed 's/.*: *//' || true)"
    setup gateway_java "$("$GATEWAY_JAVA" -version 2>&1 | head -n 1)"
    setup gateway_java_opts "$GATEWAY_JAVA_OPTS"
    setup gateway_args "--memcached.ring=nginx $GATEWAY_ARGS"
    setup near_cache_args "${near_cache_args[*]}"
    setup comments_java_opts "$COMMENTS_JAVA_OPTS"
    setup versions "$(memcached -V), $(if $nginx_available; then nginx -v 2>&1 | sed 's/.*: //'; else
        echo no nginx; fi), $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2)"
}

main() {
    parse_args "$@"
    local started_at=$SECONDS port out status=0
    need curl curl
    need memcached memcached
    need wrk wrk
    need python3 python3
    if need nginx nginx; then nginx_available=true; else log "nginx is not available: its target is left out"; fi
    comments_jar=$(jar_of comments-service)
    gateway_jar=$(jar_of gateway)
    for port in "${memcached_ports[@]}" "$comments_port" "$gateway_port" "$gateway_management_port" \
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

    start_backends
    sample_sizes

    # The gateway first: its misses fill memcached, which nginx only reads. Each target runs alone with memcached
    # and comments-service, so that no idle server's background work lands on the nodes' counters.
    start_gateway gateway "$gateway_port" "$gateway_management_port"
    local pid=$spawned
    measure gateway "gateway" gateway "http://127.0.0.1:$gateway_port" "$gateway_management_port" 1 \
        "$work/gateway.log"
    stop "$pid"

    if $nginx_available; then
        start_nginx
        pid=$spawned
        measure nginx "nginx (memcached_pass, same ring)" nginx "http://127.0.0.1:$nginx_port" - 3 \
            "$work/nginx/logs/error.log"
        stop "$pid"
    fi

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
