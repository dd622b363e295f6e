#!/usr/bin/env bash
# Reproduces the nginx + memcached article's table on this machine: comments-service answering a miss, the gateway
# answering a miss and a hit, and nginx's memcached_pass answering the same hit, measured with ab as the article did,
# ab with keep-alive, and wrk. See bench/README.md.
#
#   bench/run.sh           full run, writes bench/results/<date>-<commit>.md and .png
#   bench/run.sh --quick   one 1 s window per measurement, results under bench/.work/ (CI runs this)
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
log_prefix=bench
# shellcheck source=scripts/common.sh
source "$bench/../scripts/common.sh"
# What the run records as it goes, for bench/report.py (its docstring lists the files), and the servers' logs.
work=$bench/.work

MEMCACHED_PORT=${MEMCACHED_PORT:-21211}
COMMENTS_PORT=${COMMENTS_PORT:-24567}
GATEWAY_PORT=${GATEWAY_PORT:-28080}
MANAGEMENT_PORT=${MANAGEMENT_PORT:-28083}
NGINX_PORT=${NGINX_PORT:-28081}
NGINX_KEEPALIVE_PORT=${NGINX_KEEPALIVE_PORT:-28082}
NEAR_CACHE_PORT=${NEAR_CACHE_PORT:-28084}
NEAR_CACHE_MANAGEMENT_PORT=${NEAR_CACHE_MANAGEMENT_PORT:-28085}
HTTP_ITEMS_PORT=${HTTP_ITEMS_PORT:-28086}
HTTP_ITEMS_MANAGEMENT_PORT=${HTTP_ITEMS_MANAGEMENT_PORT:-28087}
SPRING_PEER_PORT=${SPRING_PEER_PORT:-28088}
SPRING_PEER_MANAGEMENT_PORT=${SPRING_PEER_MANAGEMENT_PORT:-28089}
WARM_UP_PORT=${WARM_UP_PORT:-28090}
WARM_UP_MANAGEMENT_PORT=${WARM_UP_MANAGEMENT_PORT:-28091}

# The gateways (and the Spring peer, for a like comparison) run as the image runs the gateway: its Java (25, where
# the machine has Temurin's) and its flags, with the heap its 768 MB limit gives (60%). comments-service keeps a
# small bounded heap with the serial collector: without flags the JVM sizes its heap from the machine's memory and
# peaks near 370 MB under this load; see bench/README.md for what else was measured.
GATEWAY_JAVA=${GATEWAY_JAVA:-$(if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
    echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/java; else echo java; fi)}
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS--XX:+UseG1GC -Xmx460m -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError}
COMMENTS_JAVA_OPTS=${COMMENTS_JAVA_OPTS--Xmx96m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
# Settings for both gateways, e.g. GATEWAY_ARGS=--memcached.cache.replica-lock=false; split on blanks.
GATEWAY_ARGS=${GATEWAY_ARGS-}
# Only the cases whose id matches this regular expression, e.g. BENCH_CASES='^gateway-(pass|hit)$'; all by default.
BENCH_CASES=${BENCH_CASES:-.}
# The gateway images whose warm-up is measured beside the jar's, when Docker is usable: by default the image
# gateway/Dockerfile builds from the jar, tagged memcached-gateway/gateway:bench; "none" for none.
WARM_UP_IMAGES=${WARM_UP_IMAGES-}

concurrency=50
# memcached's memory: the items a full run stores should fit, or the real miss would measure eviction too. The
# real-miss cases store one item per request until they are steady: nginx's at up to 10,000 requests/s for 10 to
# 20 s, the gateway's at about 3,000 for up to a minute; 250,000 collections of 2,176 bytes take 250,000 chunks of
# 2,320 bytes (580 MB). The report says how many items were evicted all the same.
memcached_mb=1024
# The near-cache's settings for the gateway that runs with it: short-lived, and bounded well below the heap.
near_cache_args=(--memcached.cache.near-cache.ttl=5s --memcached.cache.near-cache.max-entries=10000
    --memcached.cache.near-cache.max-bytes=16MB)
# The gateway whose comments route keeps whole answers (item-format http): its routes replace the jar's.
http_items_args=(--spring.config.additional-location="$bench/http-items.yml")
jvm_start_seconds=120
# The warm-up case: real misses for this long from the moment a cold gateway is ready (a quick run: 5 s).
warm_up_seconds=60
# A full run measures each wrk case once its throughput is steady: wrk runs in windows of window_seconds until
# report.py's STEADY_WINDOWS in a row are within its STEADY_TOLERANCE of each other, for at most steady_cap_seconds, and the
# last window is the measurement. A JVM's throughput climbs for a minute or more while the JIT compiles, so a
# fixed warm-up would measure some cases before they are steady. A quick run measures one short window.
window_seconds=5
steady_cap_seconds=120

# The cases, run in this order for each payload; the label gets ", <payload>". The gateways' hit cases come before
# nginx's, whose hits read the items the gateway stored. The near-cache gateway serves misses before its hits, as a
# real one does, which fills its near-cache to its bound. Columns:
#   server   what answers: comments-service (direct), a gateway (http-items: one that stores whole answers), the
#            Spring peer (a plain Spring Cloud Gateway with LocalResponseCache), or one of the two nginx
#   asks     no_cache: the payload's /no_cache path, which no gateway looks up (a miss for comments-service, the
#                      pass-through for a gateway);
#            cached:   the payload's path, a hit, checked before and after the measurement;
#            fresh:    the payload's path with a fresh id per request (fresh-ids.lua), a real miss
#   tools    ab (a connection per request, as the article), ab-k (keep-alive), wrk; a fresh id needs wrk's script.
#            wrk runs first, until steady, so that ab measures a warm server too.
cases='
# id                    server           asks      tools         label
direct-miss             direct           no_cache  ab,ab-k,wrk   direct miss
direct-fresh            direct           fresh     wrk           direct miss (fresh ids)
gateway-pass            gateway          no_cache  ab,ab-k,wrk   gateway pass-through
gateway-real-miss       gateway          fresh     wrk           gateway miss (real)
gateway-hit             gateway          cached    ab,ab-k,wrk   gateway hit
gateway-http-hit        http-items       cached    ab,ab-k,wrk   gateway hit (http item, 2 tags)
gateway-http-untagged-hit http-untagged  cached    ab,ab-k,wrk   gateway hit (http item, no tags)
spring-pass             spring           no_cache  ab,ab-k,wrk   spring pass-through
spring-hit              spring           cached    ab,ab-k,wrk   spring hit (LocalResponseCache)
gateway-near-real-miss  near-cache       fresh     wrk           gateway miss (real, near-cache)
gateway-near-hit        near-cache       cached    ab,ab-k,wrk   gateway hit (near-cache)
nginx-hit               nginx-article    cached    ab,ab-k,wrk   nginx hit (article)
nginx-keepalive-hit     nginx-keepalive  cached    ab,ab-k,wrk   nginx hit (keepalive)
nginx-keepalive-miss    nginx-keepalive  fresh     wrk           nginx miss (keepalive, fresh ids)
'
# Ratios also measured in alternating rounds, after every case has run: numerator and denominator case ids. Two
# cases run minutes apart meet their JVMs at different stages of the JIT's work and the machine at another load, so
# a ratio of two separate measurements swings by 10-15%; rounds that alternate the two sides (A B, then B A) share
# both. Each round is one wrk window per side; the report gives the median of the rounds' ratios.
pairs='
gateway-pass       spring-pass
gateway-real-miss  gateway-pass
gateway-hit        nginx-keepalive-hit
gateway-http-hit   gateway-http-untagged-hit
'
paired_rounds=6
declare -A payload_path=([single]=/api/v1/comments/1 [collection]=/api/v1/comments/users/1)
# What a server's cached cases add to the payload's path: the http-items gateway stores answers asked for with
# ?untagged without their tags (bench/http-items.yml).
declare -A server_query=([http-untagged]='?untagged')
# A fresh id is appended to these.
declare -A fresh_prefix=([single]=/api/v1/comments/ [collection]=/api/v1/comments/users/)
declare -A server_url=(
    [direct]=http://127.0.0.1:$COMMENTS_PORT
    [gateway]=http://127.0.0.1:$GATEWAY_PORT
    [near-cache]=http://127.0.0.1:$NEAR_CACHE_PORT
    [http-items]=http://127.0.0.1:$HTTP_ITEMS_PORT
    [http-untagged]=http://127.0.0.1:$HTTP_ITEMS_PORT
    [spring]=http://127.0.0.1:$SPRING_PEER_PORT
    [warm-up]=http://127.0.0.1:$WARM_UP_PORT
    [nginx-article]=http://127.0.0.1:$NGINX_PORT
    [nginx-keepalive]=http://127.0.0.1:$NGINX_KEEPALIVE_PORT
)
# Shown when a server's case fails.
declare -A server_log=(
    [direct]=$work/comments-service.log
    [gateway]=$work/gateway.log
    [near-cache]=$work/gateway-near-cache.log
    [http-items]=$work/gateway-http-items.log
    [http-untagged]=$work/gateway-http-items.log
    [spring]=$work/spring-peer.log
    [warm-up]=$work/warm-up.log
    [nginx-article]=$work/nginx-article/logs/error.log
    [nginx-keepalive]=$work/nginx-keepalive/logs/error.log
)

declare -A server_pid=()

quick=false
# A quick run is a smoke test of every path: one short window each keeps CI's share of it small.
quick_seconds=1
# The payloads each case is measured with; a quick run takes the single comment only, which runs the same paths.
payloads=(single collection)
nginx_available=false
gnuplot_available=false
docker_available=false
# Processes whose CPU time is read around each wrk measurement, "name pid", in the report's column order; and those
# whose peak RSS is (nginx has several processes: left out).
measured=()
rss_watched=()
# Each run of fresh-ids.lua gets a range of ids of its own.
fresh_runs=0

usage() {
    sed -n '2,7s/^# \{0,1\}//p' "$0"
}

parse_args() {
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) quick=true ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; fail "unknown argument: $1" ;;
        esac
        shift
    done
}

# setup KEY VALUE: a fact about the run, for the report's set-up section.
setup() {
    printf '%s\t%s\n' "$1" "$2" >>"$work/setup.tsv"
}

note() {
    log "$*"
    setup note "$*"
}

# --- set-up ---------------------------------------------------------------------------------------------------

ensure_tools() {
    need curl curl
    need memcached memcached
    need ab apache2-utils
    need wrk wrk
    need python3 python3
    command -v java >/dev/null || fail "java is missing (a JDK 17)"
    if need nginx nginx; then nginx_available=true; else note "nginx is not available: its cases are skipped"; fi
    if need gnuplot gnuplot-nox; then
        gnuplot_available=true
    else
        note "gnuplot is not available: no chart is drawn"
    fi
    if [ "$WARM_UP_IMAGES" = none ]; then
        WARM_UP_IMAGES=
    elif docker info >/dev/null 2>&1; then
        docker_available=true
    else
        note "Docker is not available: the warm-up is measured for the jar only"
    fi
}

# The Spring peer's jar, built every run (a few seconds), so that it never lags its sources.
build_spring_peer() {
    log "building the Spring peer"
    (cd "$root" && ./mvnw -f bench/spring-peer/pom.xml -B -q package -DskipTests) >&2 ||
        fail "the Spring peer's build failed"
    spring_peer_jar=$(compgen -G "$bench/spring-peer/target/spring-peer-*.jar" | grep -v '\.original$' | head -n 1)
}

# The gateway image from the jar, unless WARM_UP_IMAGES names the images to measure.
build_gateway_image() {
    $docker_available || return 0
    if [ -z "$WARM_UP_IMAGES" ]; then
        log "building the gateway image"
        if docker build -q -t memcached-gateway/gateway:bench "$root/gateway" >"$work/docker-build.log" 2>&1; then
            WARM_UP_IMAGES=memcached-gateway/gateway:bench
        else
            show_logs "$work/docker-build.log"
            note "the gateway image did not build: the warm-up is measured for the jar only"
        fi
    fi
}

start_servers() {
    log "starting memcached on $MEMCACHED_PORT"
    start_memcached "$MEMCACHED_PORT" "$memcached_mb" "$work/memcached.log"
    server_pid[memcached]=$spawned

    log "starting comments-service on $COMMENTS_PORT: java $COMMENTS_JAVA_OPTS"
    local java_opts
    read -ra java_opts <<<"$COMMENTS_JAVA_OPTS"
    spawn "${server_log[direct]}" java "${java_opts[@]}" -jar "$comments_jar" \
        --server.address=127.0.0.1 --server.port="$COMMENTS_PORT" --comments.max-age=3600s
    server_pid[direct]=$spawned

    log "starting the gateway on $GATEWAY_PORT: $GATEWAY_JAVA $GATEWAY_JAVA_OPTS"
    start_gateway gateway "$GATEWAY_PORT" "$MANAGEMENT_PORT"
    log "starting a gateway with the near-cache on $NEAR_CACHE_PORT: ${near_cache_args[*]}"
    start_gateway near-cache "$NEAR_CACHE_PORT" "$NEAR_CACHE_MANAGEMENT_PORT" "${near_cache_args[@]}"
    log "starting a gateway that keeps whole answers on $HTTP_ITEMS_PORT: ${http_items_args[*]}"
    start_gateway http-items "$HTTP_ITEMS_PORT" "$HTTP_ITEMS_MANAGEMENT_PORT" "${http_items_args[@]}"
    server_pid[http-untagged]=${server_pid[http-items]}
    log "starting the Spring peer on $SPRING_PEER_PORT with the gateway's JVM flags"
    read -ra java_opts <<<"$GATEWAY_JAVA_OPTS"
    spawn "${server_log[spring]}" "$GATEWAY_JAVA" "${java_opts[@]}" -jar "$spring_peer_jar" \
        --server.address=127.0.0.1 --server.port="$SPRING_PEER_PORT" \
        --management.server.address=127.0.0.1 --management.server.port="$SPRING_PEER_MANAGEMENT_PORT" \
        --comments-service.uri="${server_url[direct]}"
    server_pid[spring]=$spawned

    rss_watched=("gateway ${server_pid[gateway]}" "gateway-near-cache ${server_pid[near-cache]}"
        "gateway-http-items ${server_pid[http-items]}" "spring-peer ${server_pid[spring]}"
        "comments-service ${server_pid[direct]}" "memcached ${server_pid[memcached]}")
    measured=("${rss_watched[@]}")
    # A real endpoint rather than actuator, so that ready means "answers the benchmark's requests".
    local server
    for server in direct gateway near-cache http-items spring; do
        await "${server_url[$server]}${payload_path[single]}/no_cache" "$jvm_start_seconds" "${server_pid[$server]}" \
            "${server_log[$server]}"
    done
    log "the apps answer"

    if $nginx_available; then
        start_nginx nginx-article "$NGINX_PORT"
        start_nginx nginx-keepalive "$NGINX_KEEPALIVE_PORT"
    fi
}

# start_gateway SERVER PORT MANAGEMENT_PORT [SETTING...]: a gateway in front of comments-service and memcached.
start_gateway() {
    local server=$1 port=$2 management_port=$3 java_opts gateway_args
    shift 3
    read -ra java_opts <<<"$GATEWAY_JAVA_OPTS"
    read -ra gateway_args <<<"$GATEWAY_ARGS"
    spawn "${server_log[$server]}" "$GATEWAY_JAVA" "${java_opts[@]}" -jar "$gateway_jar" \
        --server.address=127.0.0.1 --server.port="$port" \
        --management.server.address=127.0.0.1 --management.server.port="$management_port" \
        --comments-service.uri="${server_url[direct]}" --memcached.servers="127.0.0.1:$MEMCACHED_PORT" \
        "$@" "${gateway_args[@]}"
    server_pid[$server]=$spawned
}

# start_nginx NAME PORT: nginx with bench/NAME.conf.template. Each nginx gets a prefix of its own, so that nothing of
# the system nginx (its config, logs, pid file or temp dirs) is used.
start_nginx() {
    local name=$1 port=$2 prefix="$work/$1"
    mkdir -p "$prefix/logs" "$prefix/temp"
    if [ -f /etc/nginx/mime.types ]; then
        cp /etc/nginx/mime.types "$prefix/mime.types"
    else
        printf 'types {}\n' >"$prefix/mime.types"
    fi
    sed -e "s|@PORT@|$port|g" -e "s|@MEMCACHED_PORT@|$MEMCACHED_PORT|g" \
        -e "s|@COMMENTS_PORT@|$COMMENTS_PORT|g" "$bench/$name.conf.template" >"$prefix/nginx.conf"

    log "starting nginx ($name) on $port"
    nginx -q -t -p "$prefix/" -c "$prefix/nginx.conf" >"$prefix/logs/stdout.log" 2>&1 || {
        show_logs "$prefix/logs/stdout.log"
        fail "nginx rejected $prefix/nginx.conf"
    }
    spawn "$prefix/logs/run.log" nginx -p "$prefix/" -c "$prefix/nginx.conf" -g 'daemon off;'
    server_pid[$name]=$spawned
    measured+=("nginx $spawned")
    await "${server_url[$name]}${payload_path[single]}/no_cache" "$jvm_start_seconds" "$spawned" "${server_log[$name]}"
}

# --- what each process costs ----------------------------------------------------------------------------------

# record_rss CASE: each watched process's peak RSS (VmHWM, kB) since the last reset, for CASE ("-" outside a wrk run).
record_rss() {
    local name pid kilobytes
    for entry in "${rss_watched[@]}"; do
        read -r name pid <<<"$entry"
        kilobytes=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$pid/status" 2>/dev/null || true)
        printf '%s\t%s\t%s\n' "$1" "$name" "${kilobytes:-?}" >>"$work/rss.tsv"
    done
}

# Keeps each process's peak so far, then resets its VmHWM (writing 5 to clear_refs), so that the next reading is
# the peak of one case alone.
reset_peak_rss() {
    local entry name pid
    record_rss -
    for entry in "${rss_watched[@]}"; do
        read -r name pid <<<"$entry"
        echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true
    done
}

# record_cpu CASE before|after: the user plus system CPU time, in clock ticks, of each measured process and its
# children (nginx's workers), as lines of cpu.tsv on stdout.
record_cpu() {
    local entry name pid children child ticks stat
    for entry in "${measured[@]}"; do
        read -r name pid <<<"$entry"
        mapfile -t children < <(pgrep -P "$pid" || true)
        ticks=0
        for child in "$pid" "${children[@]}"; do
            # The command names here (java, nginx, memcached) have no blanks, so the fields split on them.
            read -ra stat 2>/dev/null <"/proc/$child/stat" || continue
            ticks=$((ticks + stat[13] + stat[14]))
        done
        printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$name" "$ticks"
    done
}

# --- checks ---------------------------------------------------------------------------------------------------

# expect_hit SERVER URL: the answer came from memcached.
expect_hit() {
    case $1 in
        gateway | near-cache | http-items | http-untagged)
            if [ "$(x_cache "$2")" != HIT ]; then
                show_logs "${server_log[$1]}"
                fail "$2 was not answered with X-Cache: HIT"
            fi
            ;;
        spring)
            # LocalResponseCache answers with the headers it stored, so a hit carries the Date of the backend's
            # answer, which prime had stored at least a second before.
            local date
            date=$(curl -s -o /dev/null -D - --max-time 5 "$2" | header date)
            if [ -z "$date" ] || [ $(($(date +%s) - $(date -d "$date" +%s))) -lt 1 ]; then
                show_logs "${server_log[$1]}"
                fail "the Spring peer did not answer $2 from its LocalResponseCache"
            fi
            ;;
        nginx-*)
            # nginx sends no Cache-Control with an answer from memcached; one that has it came from the @fallback.
            local headers
            headers=$(curl -s -o /dev/null -D - --max-time 5 "$2" | tr -d '\r')
            if ! grep -q '^HTTP/[0-9.]* 200' <<<"$headers" || grep -qi '^cache-control:' <<<"$headers"; then
                show_logs "$work/memcached.log"
                fail "nginx did not answer $2 from memcached"
            fi
            ;;
    esac
}

# prime SERVER URL: one request through a gateway stores URL's answer in memcached; nginx finds what the gateway
# stored.
prime() {
    case $1 in
        gateway | near-cache | http-items | http-untagged)
            [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$2")" = 200 ] ||
                { show_logs "${server_log[$1]}"; fail "the gateway did not answer 200 for $2"; }
            await_x_cache "$2" HIT 5 || {
                show_logs "${server_log[$1]}" "${server_log[direct]}"
                fail "$2 is not a HIT after a first request through the gateway"
            }
            ;;
        spring)
            [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$2")" = 200 ] ||
                { show_logs "${server_log[$1]}"; fail "the Spring peer did not answer 200 for $2"; }
            sleep 1.1
            expect_hit "$1" "$2"
            ;;
        *) expect_hit "$1" "$2" ;;
    esac
}

# ab -k speaks HTTP/1.0: it keeps a connection only when the answer says "Connection: keep-alive", and otherwise
# reads until the server closes. An answer that does neither stalls ab until its 30 s timeout, so it is skipped.
stalls_ab_keepalive() {
    local url=$1 port path reply status=0
    [[ $url =~ ^http://[^:/]+:([0-9]+)(/.*)$ ]] || fail "cannot parse $url"
    port=${BASH_REMATCH[1]}
    path=${BASH_REMATCH[2]}
    curl -s -o /dev/null -D - --max-time 5 --http1.0 -H 'Connection: Keep-Alive' "$url" |
        grep -qi '^connection: *keep-alive' && return 1
    # shellcheck disable=SC2016 # $1 and $2 belong to the inner shell
    reply=$(timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" &&
        printf "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: Keep-Alive\r\n\r\n" "$2" >&3 && cat <&3' \
        _ "$port" "$path") || status=$?
    [ -n "$reply" ] && [ $status -eq 124 ]
}

# --- measuring ------------------------------------------------------------------------------------------------

# fresh_base: where the next run of fresh-ids.lua starts counting, far above every id an earlier run asked for.
fresh_base() {
    fresh_runs=$((fresh_runs + 1))
    fresh_from=$((fresh_runs * 100000000000))
}

# run_tool OUTPUT TOOL URL FRESH [SECONDS]: one run of ab, ab -k or wrk (for SECONDS, 1 in a quick run), its output
# in OUTPUT. FRESH=yes has wrk ask for a fresh id per request, from a range of ids of this run's own.
run_tool() {
    local output=$1 tool=$2 url=$3 fresh=$4 seconds=${5:-2} ab_args=(-n 10000) script=()
    if $quick; then ab_args=(-t "$quick_seconds" -n 1000); fi
    if [ "$fresh" = yes ]; then
        fresh_base
        script=(-s "$bench/fresh-ids.lua" "$url" -- "$fresh_from")
    else
        script=("$url")
    fi
    case $tool in
        ab) ab -q "${ab_args[@]}" -c "$concurrency" "$url" ;;
        ab-k) ab -q -k "${ab_args[@]}" -c "$concurrency" "$url" ;;
        wrk) wrk -t2 -c"$concurrency" -d"${seconds}s" --latency "${script[@]}" ;;
    esac >"$output" 2>&1 || { cat "$output" >&2; fail "$tool failed on $url"; }
}

# checked LABEL SERVER TOOL OUTPUT: prints the measurement's line; fails with the server's log if it had errors.
checked() {
    python3 "$bench/report.py" check "$3" "$4" || {
        show_logs "${server_log[$2]}" "${server_log[direct]}"
        fail "$1 ($3): errors or no result, see above"
    }
}

# until_steady ID LABEL SERVER URL FRESH: wrk in windows until the last few are within report.py's tolerance of each
# other (report.py steady) or the cap is reached (one 1 s window in a quick run), each window checked. The last window is the
# measurement: out/ID.wrk.txt, with the CPU time and peak RSS of the servers during it. steady.tsv gets the case's
# windows: ID, LABEL, steady|cap|quick, seconds measured, requests/s of each window.
until_steady() {
    local id=$1 label=$2 server=$3 url=$4 fresh=$5 output="out/$1.wrk.txt" seconds=0 windows=() status cpu
    local window=$work/out/$1.window.txt rps length=$window_seconds
    if $quick; then length=$quick_seconds; fi
    while :; do
        reset_peak_rss
        cpu=$(record_cpu "$id" before)
        run_tool "$window" wrk "$url" "$fresh" "$length"
        cpu+=$'\n'$(record_cpu "$id" after)
        checked "$label" "$server" wrk "$window" >/dev/null
        rps=$(python3 "$bench/report.py" rps wrk "$window")
        windows+=("$rps")
        if $quick; then seconds=$quick_seconds status=quick; break; fi
        seconds=$((seconds + window_seconds))
        if python3 "$bench/report.py" steady "${windows[@]}"; then
            status=steady
            break
        fi
        if [ "$seconds" -ge "$steady_cap_seconds" ]; then status=cap; break; fi
        log "$label: $rps requests/s in the last ${window_seconds} s, not steady yet"
    done
    mv "$window" "$work/$output"
    printf '%s\n' "$cpu" >>"$work/cpu.tsv"
    record_rss "$id"
    checked "$label" "$server" wrk "$work/$output"
    local IFS=,
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$label" "$status" "$seconds" "${windows[*]}" >>"$work/steady.tsv"
}

# measure_steady ID LABEL SERVER URL FRESH: until_steady, recorded as the case's wrk measurement.
measure_steady() {
    until_steady "$@"
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" wrk "out/$1.wrk.txt" >>"$work/measurements.tsv"
}

# measure ID LABEL SERVER TOOL URL: one measurement with ab or ab -k, checked and recorded.
measure() {
    local id=$1 label=$2 server=$3 tool=$4 url=$5 output="out/$1.$4.txt"
    local name=${tool/ab-k/ab -k}
    if [ "$tool" = ab-k ] && stalls_ab_keepalive "$url"; then
        printf '%s\t%s\t%s\t-\n' "$id" "$label" "$name" >>"$work/measurements.tsv"
        log "$label: ab -k skipped: the server neither keeps the HTTP/1.0 connection alive nor closes it"
        return
    fi
    run_tool "$work/$output" "$tool" "$url" no
    checked "$label" "$server" "$name" "$work/$output"
    printf '%s\t%s\t%s\t%s\n' "$id" "$label" "$name" "$output" >>"$work/measurements.tsv"
}

# target_of SERVER ASKS PAYLOAD: the URL a case asks.
target_of() {
    case $2 in
        no_cache) echo "${server_url[$1]}${payload_path[$3]}/no_cache" ;;
        cached) echo "${server_url[$1]}${payload_path[$3]}${server_query[$1]:-}" ;;
        fresh) echo "${server_url[$1]}${fresh_prefix[$3]}" ;;
        *) fail "a case asks for $2" ;;
    esac
}

# selected ID SERVER: whether this run measures the case.
selected() {
    [[ -n $1 && $1 != \#* && $1 =~ $BENCH_CASES ]] && ! { [[ $2 == nginx-* ]] && ! $nginx_available; }
}

# each_case COMMAND: runs COMMAND ID LABEL SERVER ASKS TOOLS URL for every case and payload, in order.
each_case() {
    local payload id server asks tools label
    for payload in "${payloads[@]}"; do
        # The cases are read from fd 3, so that no command in the loop can take them from stdin.
        while read -r -u 3 id server asks tools label; do
            selected "$id" "$server" || continue
            "$1" "$id-$payload" "$label, $payload" "$server" "$asks" "$tools" "$(target_of "$server" "$asks" "$payload")"
        done 3<<<"$cases"
    done
}

# paired_rounds: each pair of selected cases, for each payload, in rounds of one wrk window per side, alternating
# which side goes first. paired.tsv gets NUMERATOR-ID, DENOMINATOR-ID and each side's requests/s, one per round.
paired_rounds() {
    local payload a b round side server asks rps url fresh window=$work/out/paired.txt length=$window_seconds
    local rounds=$paired_rounds
    local -A asked rounds_rps
    if $quick; then length=$quick_seconds rounds=1; fi
    for payload in "${payloads[@]}"; do
        while read -r -u 3 a b; do
            [ -n "$a" ] || continue
            asked=()
            for side in "$a" "$b"; do
                read -r _ server asks _ < <(grep -E "^${side}[[:space:]]" <<<"$cases")
                selected "$side" "$server" || continue 2
                asked[$side]="$server $asks"
            done
            log "alternating $a and $b, $payload: $rounds rounds"
            rounds_rps=([$a]="" [$b]="")
            for ((round = 0; round <= rounds; round++)); do
                for side in $( ((round % 2)) && echo "$b $a" || echo "$a $b"); do
                    read -r server asks <<<"${asked[$side]}"
                    url=$(target_of "$server" "$asks" "$payload")
                    # Round 0 only primes: the cases' misses since the hit cases may have evicted their items.
                    # The rounds alternate which side goes first, and check that a hit still hits.
                    if ((round == 0)); then
                        if [ "$asks" = cached ]; then prime "$server" "$url"; fi
                        continue
                    fi
                    if [ "$asks" = cached ]; then expect_hit "$server" "$url"; fi
                    fresh=no
                    if [ "$asks" = fresh ]; then fresh=yes; fi
                    run_tool "$window" wrk "$url" "$fresh" "$length"
                    checked "$side, $payload (paired)" "$server" wrk "$window" >/dev/null
                    rps=$(python3 "$bench/report.py" rps wrk "$window")
                    rounds_rps[$side]+="${rounds_rps[$side]:+,}$rps"
                done
            done
            for side in "$a" "$b"; do
                read -r server asks <<<"${asked[$side]}"
                if [ "$asks" = cached ]; then expect_hit "$server" "$(target_of "$server" "$asks" "$payload")"; fi
            done
            printf '%s\t%s\t%s\t%s\n' "$a-$payload" "$b-$payload" "${rounds_rps[$a]}" "${rounds_rps[$b]}" \
                >>"$work/paired.tsv"
        done 3<<<"$pairs"
    done
}

prime_case() {
    local server=$3 asks=$4 target=$6
    if [ "$asks" = cached ]; then prime "$server" "$target"; fi
}

measure_case() {
    local id=$1 label=$2 server=$3 asks=$4 tools=$5 target=$6 tool
    if [ "$asks" = fresh ]; then
        # Every request asks for an id nobody asked for before: the server looks it up, misses, asks the backend
        # and stores the answer. Only wrk runs a script per request.
        [ "$tools" = wrk ] || fail "case $id: a fresh id per request needs wrk alone"
        log "$label: $target<fresh id>"
        measure_steady "$id" "$label" "$server" "$target" yes
        return
    fi
    log "$label: $target"
    if [ "$asks" = cached ]; then expect_hit "$server" "$target"; fi
    # wrk first: once it is steady, the server is warm for ab too.
    if [[ ,$tools, == *,wrk,* ]]; then measure_steady "$id" "$label" "$server" "$target" no; fi
    for tool in ${tools//,/ }; do
        if [ "$tool" != wrk ]; then measure "$id" "$label" "$server" "$tool" "$target"; fi
    done
    if [ "$asks" = cached ]; then expect_hit "$server" "$target"; fi
}

# --- the warm-up ----------------------------------------------------------------------------------------------

# await_ready URL PID LOGFILE: waits, asking every 50 ms, until a gateway's readiness probe at URL says UP.
await_ready() {
    local deadline=$((SECONDS + jvm_start_seconds))
    until curl -fs -o /dev/null --max-time 1 "$1"; do
        if ! kill -0 "$2" 2>/dev/null; then
            show_logs "$3"
            fail "what should answer $1 exited before it was ready"
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            show_logs "$3"
            fail "no readiness from $1 within $jvm_start_seconds s"
        fi
        sleep 0.05
    done
}

# warm_up NAME LABEL COMMAND...: starts a cold gateway with COMMAND on the warm-up ports and, as soon as its
# readiness probe says UP, sends it real misses for warm_up_seconds, counted second by second (per-second.lua);
# then measures its steady throughput, as a case's, and stops it. warm-up.tsv gets NAME, LABEL, the milliseconds
# from start to ready, the per-second output and the steady case's id.
warm_up() {
    local name=$1 label=$2 started ready pid output="out/warm-up-$1.txt"
    local url=${server_url[warm-up]}${fresh_prefix[single]}
    shift 2
    log "warm-up ($label): starting a cold gateway"
    started=$(date +%s%N)
    spawn "${server_log[warm-up]}" "$@"
    pid=$spawned
    await_ready "http://127.0.0.1:$WARM_UP_MANAGEMENT_PORT/actuator/health/readiness" "$pid" "${server_log[warm-up]}"
    ready=$((($(date +%s%N) - started) / 1000000))
    log "warm-up ($label): ready after $ready ms; real misses for $warm_up_seconds s"
    fresh_base
    wrk -t2 -c"$concurrency" -d"${warm_up_seconds}s" --latency -s "$bench/per-second.lua" "$url" -- "$fresh_from" \
        >"$work/$output" 2>&1 || { cat "$work/$output" >&2; fail "wrk failed on $url"; }
    checked "warm-up ($label)" warm-up wrk "$work/$output"
    until_steady "warm-up-$name" "warm-up ($label), steady" warm-up "$url" yes
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$label" "$ready" "$output" "warm-up-$name" >>"$work/warm-up.tsv"
    case $name in image-*) docker stop -t 10 "bench-warm-up-$$" >/dev/null 2>&1 || true ;; esac
    stop_all "$pid"
    cp "${server_log[warm-up]}" "$work/warm-up-$name.log"
}

# The warm-up case for the jar, and for each gateway image when Docker is usable: the image as deployed, with the
# limits of docker-compose.yml and the Kubernetes manifests (2 CPUs, 768 MB), on the host's network.
warm_up_all() {
    local java_opts image index=0
    read -ra java_opts <<<"$GATEWAY_JAVA_OPTS"
    local args=(--server.address=127.0.0.1 --server.port="$WARM_UP_PORT"
        --management.server.address=127.0.0.1 --management.server.port="$WARM_UP_MANAGEMENT_PORT"
        --comments-service.uri="${server_url[direct]}" --memcached.servers="127.0.0.1:$MEMCACHED_PORT")
    [[ warm-up =~ $BENCH_CASES ]] || return 0
    warm_up jar "jar, Java $("$GATEWAY_JAVA" -version 2>&1 | head -n 1 | cut -d'"' -f2)" \
        "$GATEWAY_JAVA" "${java_opts[@]}" -jar "$gateway_jar" "${args[@]}"
    $docker_available || return 0
    for image in $WARM_UP_IMAGES; do
        index=$((index + 1))
        warm_up "image-$index" "image $image" docker run --rm --name "bench-warm-up-$$" --network host --cpus 2 \
            --memory 768m "$image" "${args[@]}"
    done
}

# --- the report -----------------------------------------------------------------------------------------------

record_setup() {
    setup cores "$(nproc)"
    setup cpu "$(grep -m 1 '^model name' /proc/cpuinfo || true)"
    setup memory "$(grep -m 1 '^MemTotal:' /proc/meminfo)"
    setup java "$(java -version 2>&1 | head -n 1)"
    setup memcached "$(memcached -V)"
    setup nginx "$(if $nginx_available; then nginx -v 2>&1; fi)"
    setup ab "$(ab -V | head -n 1)"
    setup wrk "$(wrk -v 2>&1 | head -n 1)"
    setup gateway_java "$("$GATEWAY_JAVA" -version 2>&1 | head -n 1)"
    setup gateway_java_opts "$GATEWAY_JAVA_OPTS"
    setup gateway_args "$GATEWAY_ARGS"
    setup near_cache_args "${near_cache_args[*]}"
    setup http_items_args "${http_items_args[*]}"
    setup comments_java_opts "$COMMENTS_JAVA_OPTS"
    setup concurrency "$concurrency"
    setup memcached_mb "$memcached_mb"
    setup clock_ticks "$(getconf CLK_TCK)"
    setup quick "$quick"
    setup warm_up_seconds "$warm_up_seconds"
}

report() {
    local name title dir subtitle
    name="$(date -u +%F)-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if $quick; then
        # A quick run is a smoke test; its numbers do not belong next to the full runs.
        dir="$work/results"
        title="Benchmark $name (quick)"
    else
        dir="$bench/results"
        title="Benchmark $name"
    fi
    mkdir -p "$dir"
    record_rss -
    memcached_ask "$MEMCACHED_PORT" stats >"$work/memcached-stats.txt" || true
    setup title "$title"
    setup load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
    setup seconds "$((SECONDS - started_at))"
    python3 "$bench/report.py" markdown "$work" >"$dir/$name.md"
    if $gnuplot_available; then
        subtitle="$title: the load generator shares the $(nproc) cores, compare within this run only"
        # A run of the warm-up alone (BENCH_CASES) has no case to chart, and must not replace latest.png.
        if [ -s "$work/measurements.tsv" ]; then
            python3 "$bench/report.py" chart "$work" >"$work/chart.tsv"
            gnuplot -e "datafile='$work/chart.tsv'; outfile='$dir/$name.png'; subtitle='$subtitle'" \
                "$bench/chart.gp" || log "gnuplot failed: no chart"
            if ! $quick && [ -f "$dir/$name.png" ]; then cp "$dir/$name.png" "$dir/latest.png"; fi
        fi
        if [ -s "$work/warm-up.tsv" ]; then
            python3 "$bench/report.py" warm-up-chart "$work" >"$work/warm-up-chart.tsv"
            gnuplot -e "datafile='$work/warm-up-chart.tsv'; outfile='$dir/$name-warm-up.png'; subtitle='$subtitle';
                columns=$(head -n 1 "$work/warm-up-chart.tsv" | awk -F'\t' '{ print NF }')" "$bench/warm-up.gp" ||
                log "gnuplot failed: no warm-up chart"
        fi
    fi
    printf '\n'
    cat "$dir/$name.md"
    printf '\nwritten: %s\n' "$dir/$name.md"
}

main() {
    parse_args "$@"
    started_at=$SECONDS
    rm -rf "$work"
    mkdir -p "$work/out"
    setup load_before "$(cut -d' ' -f1-3 /proc/loadavg)"

    ensure_tools
    comments_jar=$(jar_of comments-service)
    gateway_jar=$(jar_of gateway)
    build_spring_peer
    if $quick; then warm_up_seconds=5 payloads=(single); fi
    local ports=("$MEMCACHED_PORT" "$COMMENTS_PORT" "$GATEWAY_PORT" "$MANAGEMENT_PORT" "$NEAR_CACHE_PORT"
        "$NEAR_CACHE_MANAGEMENT_PORT" "$HTTP_ITEMS_PORT" "$HTTP_ITEMS_MANAGEMENT_PORT" "$SPRING_PEER_PORT"
        "$SPRING_PEER_MANAGEMENT_PORT" "$WARM_UP_PORT" "$WARM_UP_MANAGEMENT_PORT") port
    if $nginx_available; then ports+=("$NGINX_PORT" "$NGINX_KEEPALIVE_PORT"); fi
    for port in "${ports[@]}"; do
        port_free "$port" || fail "port $port is in use; set the *_PORT variables to free ports"
    done

    trap 'stop_all "${pids[@]}"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    build_gateway_image
    start_servers
    record_setup
    if [ "$BENCH_CASES" != . ]; then note "only the cases whose id matches BENCH_CASES='$BENCH_CASES'"; fi
    log "the load generator shares the $(nproc) cores with the servers: compare ratios within this run only"

    each_case prime_case
    each_case measure_case
    paired_rounds
    warm_up_all
    report
}

main "$@"
