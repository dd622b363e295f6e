#!/usr/bin/env bash
# Reproduces the nginx + memcached article's table on this machine: comments-service answering a miss, the gateway
# answering a miss and a hit, and nginx's memcached_pass answering the same hit, measured with ab as the article did,
# ab with keep-alive, and wrk. See bench/README.md.
#
#   bench/run.sh           full run, writes bench/results/<date>-<commit>.md and .png
#   bench/run.sh --quick   about 2 s per measurement, no warm-up, results under bench/.work/ (CI runs this)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
WORK="$BENCH_DIR/.work"

MEMCACHED_PORT=${MEMCACHED_PORT:-21211}
COMMENTS_PORT=${COMMENTS_PORT:-24567}
GATEWAY_PORT=${GATEWAY_PORT:-28080}
MANAGEMENT_PORT=${MANAGEMENT_PORT:-28083}
NGINX_PORT=${NGINX_PORT:-28081}
NGINX_KEEPALIVE_PORT=${NGINX_KEEPALIVE_PORT:-28082}
NEAR_CACHE_PORT=${NEAR_CACHE_PORT:-28084}
NEAR_CACHE_MANAGEMENT_PORT=${NEAR_CACHE_MANAGEMENT_PORT:-28085}

# Without flags the JVM sizes its heap from the machine's memory and peaks near 440 MB (gateway) and 370 MB
# (comments-service) under this load. A bounded heap with the serial collector peaks near 245 and 210 MB at the same
# throughput; see bench/README.md for what else was measured. Trimming the native heap, as the container images do,
# gives back what the JIT compiler freed.
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS--Xmx128m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
COMMENTS_JAVA_OPTS=${COMMENTS_JAVA_OPTS--Xmx96m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
# Settings for both gateways, e.g. GATEWAY_ARGS=--memcached.cache.replica-lock=false; split on blanks.
GATEWAY_ARGS=${GATEWAY_ARGS-}

CONCURRENCY=50
# memcached's memory: every item a full run stores must fit, or the real miss would measure eviction too. The
# real-miss cases store one item per request: at up to 10,000 requests/s for 25 s (warm-up and measurement), 250,000
# collections of 2,176 bytes take 250,000 chunks of 2,320 bytes (580 MB), the single comments 50 MB more. The report
# says how many items were evicted all the same.
MEMCACHED_MEMORY_MB=1024
# The near-cache's settings for the gateway that runs with it: short-lived, and bounded well below the heap.
NEAR_CACHE_ARGS=(--memcached.cache.near-cache.ttl=5s --memcached.cache.near-cache.max-entries=10000
    --memcached.cache.near-cache.max-bytes=16MB)
JVM_START_TIMEOUT=120

QUICK=false
NGINX_AVAILABLE=false
GNUPLOT_AVAILABLE=false
PIDS=()
declare -A PEAK_RSS=()
NOTES=()
# Processes whose CPU time is read around each wrk measurement: "name pid" pairs, in the report's column order.
MEASURED=()

DIRECT="http://127.0.0.1:$COMMENTS_PORT"
GATEWAY="http://127.0.0.1:$GATEWAY_PORT"
NGINX_ARTICLE="http://127.0.0.1:$NGINX_PORT"
NGINX_KEEPALIVE="http://127.0.0.1:$NGINX_KEEPALIVE_PORT"
NEAR_CACHE="http://127.0.0.1:$NEAR_CACHE_PORT"
SINGLE=/api/v1/comments/1
COLLECTION=/api/v1/comments/users/1
# The real miss asks for <prefix><fresh id>; each run of bench/fresh-ids.lua gets a range of ids of its own.
SINGLE_PREFIX=/api/v1/comments/
COLLECTION_PREFIX=/api/v1/comments/users/
FRESH_RUNS=0

log() {
    printf '==> %s\n' "$*"
}

note() {
    log "$*"
    NOTES+=("$*")
}

die() {
    printf 'bench: %s\n' "$*" >&2
    exit 1
}

usage() {
    sed -n '2,7s/^# \{0,1\}//p' "$0"
}

parse_args() {
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) QUICK=true ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die "unknown argument: $1" ;;
        esac
        shift
    done
}

# --- set-up ---------------------------------------------------------------------------------------------------

apt_install() {
    # Installing Debian's nginx would start the system nginx on port 80; deny it, as the package allows.
    local policy=/usr/sbin/policy-rc.d created=false
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created=true
    fi
    local status=0
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >"$WORK/apt.log" 2>&1 || status=$?
    if $created; then rm -f "$policy"; fi
    return $status
}

ensure_tools() {
    local required=() optional=()
    command -v curl >/dev/null || required+=(curl)
    command -v memcached >/dev/null || required+=(memcached)
    command -v ab >/dev/null || required+=(apache2-utils)
    command -v wrk >/dev/null || required+=(wrk)
    command -v nginx >/dev/null || optional+=(nginx)
    command -v gnuplot >/dev/null || optional+=(gnuplot-nox)

    if [ $((${#required[@]} + ${#optional[@]})) -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        log "installing ${required[*]} ${optional[*]}"
        apt-get update -qq >"$WORK/apt.log" 2>&1 || true
        if [ ${#required[@]} -gt 0 ]; then
            apt_install "${required[@]}" || { tail -n 20 "$WORK/apt.log" >&2; die "could not install ${required[*]}"; }
        fi
        local package
        for package in "${optional[@]}"; do
            apt_install "$package" || log "could not install $package"
        done
    fi

    local tool
    for tool in curl memcached ab wrk java; do
        command -v "$tool" >/dev/null || die "$tool is missing (Debian: memcached, apache2-utils, wrk, curl, a JDK 17)"
    done
    if command -v nginx >/dev/null; then NGINX_AVAILABLE=true; else note "nginx is not available: its cases are skipped"; fi
    if command -v gnuplot >/dev/null; then GNUPLOT_AVAILABLE=true; else note "gnuplot is not available: no chart is drawn"; fi
}

find_jar() {
    # The *.jar.original next to a Boot jar is the plain one, without dependencies.
    compgen -G "$ROOT/$1/target/$1-*.jar" | grep -v '\.original$' | head -n 1 || true
}

build_jars() {
    if [ -z "$(find_jar comments-service)" ] || [ -z "$(find_jar gateway)" ]; then
        log "building the jars"
        (cd "$ROOT" && ./mvnw -B -q package -DskipTests)
    fi
    COMMENTS_JAR=$(find_jar comments-service)
    GATEWAY_JAR=$(find_jar gateway)
    if [ -z "$COMMENTS_JAR" ] || [ -z "$GATEWAY_JAR" ]; then die "the build left no jars under $ROOT"; fi
}

# Something else on a port would answer the readiness checks in place of what this script starts.
check_ports_free() {
    local port
    for port in "$@"; do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            die "port $port is in use; set the *_PORT variables to free ports"
        fi
    done
}

# --- processes ------------------------------------------------------------------------------------------------

cleanup() {
    local status=$? pid
    trap - EXIT INT TERM
    # Last started, first stopped: the gateway should not see memcached go away before itself.
    local i
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        kill -TERM "${PIDS[i]}" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        local waited=0
        while kill -0 "$pid" 2>/dev/null && [ $waited -lt 50 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        kill -KILL "$pid" 2>/dev/null || true
    done
    exit $status
}

show_log() {
    printf -- '--- last lines of %s ---\n' "$1" >&2
    tail -n 40 "$1" >&2 || true
}

fail_with_logs() {
    local message=$1 file
    shift
    for file in "$@"; do show_log "$file"; done
    die "$message"
}

# Polls a real endpoint rather than actuator, so that readiness means "answers the benchmark's requests".
wait_for_http() {
    local name=$1 pid=$2 url=$3 logfile=$4 deadline=$((SECONDS + JVM_START_TIMEOUT))
    while [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)" != 200 ]; do
        kill -0 "$pid" 2>/dev/null || fail_with_logs "$name exited during start-up" "$logfile"
        [ $SECONDS -lt $deadline ] || fail_with_logs "$name did not answer $url within ${JVM_START_TIMEOUT}s" "$logfile"
        sleep 0.5
    done
}

start_memcached() {
    local logfile="$WORK/memcached.log"
    log "starting memcached on $MEMCACHED_PORT"
    # memcached refuses to run as root without -u; as another user it ignores it.
    memcached -u nobody -l 127.0.0.1 -p "$MEMCACHED_PORT" -m "$MEMCACHED_MEMORY_MB" -c 4096 >"$logfile" 2>&1 &
    MEMCACHED_PID=$!
    PIDS+=("$MEMCACHED_PID")
    local tries=0 reply=""
    while [ $tries -lt 50 ]; do
        if { exec 3<>"/dev/tcp/127.0.0.1/$MEMCACHED_PORT"; } 2>/dev/null; then
            printf 'version\r\n' >&3
            read -r -t 2 reply <&3 || true
            exec 3<&-
            [[ $reply == VERSION* ]] && return 0
        fi
        kill -0 "$MEMCACHED_PID" 2>/dev/null || break
        sleep 0.1
        tries=$((tries + 1))
    done
    fail_with_logs "memcached did not come up on $MEMCACHED_PORT" "$logfile"
}

start_apps() {
    log "starting comments-service on $COMMENTS_PORT: java $COMMENTS_JAVA_OPTS"
    # shellcheck disable=SC2086 # the options are a list of flags
    java $COMMENTS_JAVA_OPTS -jar "$COMMENTS_JAR" \
        --server.address=127.0.0.1 --server.port="$COMMENTS_PORT" \
        --comments.max-age=3600s >"$WORK/comments-service.log" 2>&1 &
    COMMENTS_PID=$!
    PIDS+=("$COMMENTS_PID")

    log "starting the gateway on $GATEWAY_PORT: java $GATEWAY_JAVA_OPTS"
    # shellcheck disable=SC2086
    java $GATEWAY_JAVA_OPTS -jar "$GATEWAY_JAR" \
        --server.address=127.0.0.1 --server.port="$GATEWAY_PORT" \
        --management.server.address=127.0.0.1 --management.server.port="$MANAGEMENT_PORT" \
        --comments-service.uri="$DIRECT" \
        --memcached.servers="127.0.0.1:$MEMCACHED_PORT" $GATEWAY_ARGS >"$WORK/gateway.log" 2>&1 &
    GATEWAY_PID=$!
    PIDS+=("$GATEWAY_PID")

    log "starting a gateway with the near-cache on $NEAR_CACHE_PORT: ${NEAR_CACHE_ARGS[*]}"
    # shellcheck disable=SC2086
    java $GATEWAY_JAVA_OPTS -jar "$GATEWAY_JAR" \
        --server.address=127.0.0.1 --server.port="$NEAR_CACHE_PORT" \
        --management.server.address=127.0.0.1 --management.server.port="$NEAR_CACHE_MANAGEMENT_PORT" \
        --comments-service.uri="$DIRECT" \
        --memcached.servers="127.0.0.1:$MEMCACHED_PORT" "${NEAR_CACHE_ARGS[@]}" $GATEWAY_ARGS \
        >"$WORK/gateway-near-cache.log" 2>&1 &
    NEAR_CACHE_PID=$!
    PIDS+=("$NEAR_CACHE_PID")

    MEASURED+=("gateway $GATEWAY_PID" "gateway-near-cache $NEAR_CACHE_PID" "comments-service $COMMENTS_PID"
        "memcached $MEMCACHED_PID")

    wait_for_http comments-service "$COMMENTS_PID" "$DIRECT$SINGLE/no_cache" "$WORK/comments-service.log"
    wait_for_http gateway "$GATEWAY_PID" "$GATEWAY$SINGLE/no_cache" "$WORK/gateway.log"
    wait_for_http "gateway (near-cache)" "$NEAR_CACHE_PID" "$NEAR_CACHE$SINGLE/no_cache" "$WORK/gateway-near-cache.log"
    log "both apps answer"
}

# $1: the template in bench/, $2: its port. Each nginx gets a prefix of its own, so that nothing of the system
# nginx (its config, logs, pid file or temp dirs) is used.
start_nginx() {
    local template=$1 port=$2 name
    name=$(basename "$template" .conf.template)
    local prefix="$WORK/$name"
    mkdir -p "$prefix/logs" "$prefix/temp"
    if [ -f /etc/nginx/mime.types ]; then
        cp /etc/nginx/mime.types "$prefix/mime.types"
    else
        printf 'types {}\n' >"$prefix/mime.types"
    fi
    sed -e "s|@PORT@|$port|g" -e "s|@MEMCACHED_PORT@|$MEMCACHED_PORT|g" \
        -e "s|@COMMENTS_PORT@|$COMMENTS_PORT|g" "$BENCH_DIR/$template" >"$prefix/nginx.conf"

    log "starting nginx ($name) on $port"
    nginx -q -t -p "$prefix/" -c "$prefix/nginx.conf" >"$prefix/logs/stdout.log" 2>&1 ||
        fail_with_logs "nginx rejected $prefix/nginx.conf" "$prefix/logs/stdout.log"
    nginx -p "$prefix/" -c "$prefix/nginx.conf" -g 'daemon off;' >>"$prefix/logs/stdout.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    MEASURED+=("nginx $pid")
    wait_for_http "nginx ($name)" "$pid" "http://127.0.0.1:$port$SINGLE/no_cache" "$prefix/logs/error.log"
}

# VmHWM is the peak resident set since the process started, or since it was last reset.
peak_rss_mb() {
    awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "?"
}

# The processes whose peak RSS is reported per case: "name pid" pairs (nginx has several processes: left out).
rss_watched() {
    printf '%s\n' "gateway $GATEWAY_PID" "gateway-near-cache $NEAR_CACHE_PID" "comments-service $COMMENTS_PID" \
        "memcached $MEMCACHED_PID"
}

# Keeps each process's peak so far, then resets its VmHWM (writing 5 to clear_refs), so that the next reading is
# the peak of one case alone.
reset_peak_rss() {
    local name pid
    while read -r name pid; do
        record_peak "$name" "$(peak_rss_mb "$pid")"
        echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true
    done < <(rss_watched)
}

# $1 case id: appends "id name MB" lines with each process's peak during the case.
record_case_rss() {
    local name pid mb
    while read -r name pid; do
        mb=$(peak_rss_mb "$pid")
        record_peak "$name" "$mb"
        printf '%s\t%s\t%s\n' "$1" "$name" "$mb" >>"$WORK/rss.tsv"
    done < <(rss_watched)
}

record_peak() {
    [[ $2 =~ ^[0-9]+$ ]] || return 0
    if [ -z "${PEAK_RSS[$1]:-}" ] || [ "$2" -gt "${PEAK_RSS[$1]}" ]; then PEAK_RSS[$1]=$2; fi
}

# User plus system CPU time of a process and its children (nginx's workers), in clock ticks. The command names
# here (java, nginx, memcached) have no spaces, so the fields of /proc/<pid>/stat can be split on blanks.
cpu_ticks() {
    local pid total=0 ticks
    for pid in "$1" $(pgrep -P "$1" || true); do
        ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)
        total=$((total + ticks))
    done
    echo "$total"
}

# One line of "name ticks" per measured process.
cpu_snapshot() {
    local entry
    for entry in "${MEASURED[@]}"; do
        # shellcheck disable=SC2086 # "name pid", split on purpose
        set -- $entry
        printf '%s %s\n' "$1" "$(cpu_ticks "$2")"
    done
}

# $1 case id, $2 snapshot before, $3 snapshot after, $4 wrk's output. Appends "id name microseconds" lines: the CPU
# time each process spent per request, which says what a request costs each process whoever else shares the cores.
record_cpu() {
    local requests
    requests=$(awk '/ requests in / { print $1; exit }' "$4")
    [ -n "$requests" ] && [ "$requests" -gt 0 ] || return 0
    awk -v id="$1" -v requests="$requests" -v hz="$CLOCK_TICKS" '
        FNR == NR { before[$1] += $2; next }
        { after[$1] += $2; if (!($1 in order)) { order[$1] = ++n; names[n] = $1 } }
        END { for (i = 1; i <= n; i++) { name = names[i]
                  printf "%s\t%s\t%.1f\n", id, name, (after[name] - before[name]) * 1000000 / hz / requests } }' \
        <(printf '%s\n' "$2") <(printf '%s\n' "$3") >>"$WORK/cpu.tsv"
}

# --- checks ---------------------------------------------------------------------------------------------------

headers_of() {
    curl -s -o /dev/null -D - --max-time 5 "$1" | tr -d '\r'
}

# The gateway stores a miss after answering it, so the item may land a moment after the first response.
prime_gateway() {
    local url=$1 tries=0
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url")" = 200 ] ||
        fail_with_logs "the gateway did not answer 200 for $url" "$WORK/gateway.log"
    until headers_of "$url" | grep -qi '^x-cache: *HIT'; do
        tries=$((tries + 1))
        [ $tries -lt 50 ] || fail_with_logs "$url is not a HIT after a first request through the gateway" \
            "$WORK/gateway.log" "$WORK/comments-service.log"
        sleep 0.1
    done
}

expect_gateway_hit() {
    headers_of "$1" | grep -qi '^x-cache: *HIT' ||
        fail_with_logs "$1 was not answered with X-Cache: HIT" "$WORK/gateway.log"
}

# nginx sends no Cache-Control with an answer from memcached; one that has it came from the @fallback.
expect_nginx_hit() {
    local headers
    headers=$(headers_of "$1")
    if ! grep -q '^HTTP/[0-9.]* 200' <<<"$headers" || grep -qi '^cache-control:' <<<"$headers"; then
        fail_with_logs "nginx did not answer $1 from memcached" "$WORK/memcached.log"
    fi
}

# --- measuring ------------------------------------------------------------------------------------------------

ab_args() {
    if $QUICK; then echo "-t 2 -n 2000"; else echo "-n 10000"; fi
}

wrk_duration() {
    if $QUICK; then echo 2s; else echo 15s; fi
}

# Prints "requests/s p50 p99" (milliseconds) from ab's report, after checking that every answer was a 2xx.
parse_ab() {
    local file=$1
    if grep -q '^Non-2xx responses:' "$file" || ! grep -q '^Failed requests: *0$' "$file"; then
        cat "$file" >&2
        return 1
    fi
    awk '/^Requests per second:/ { rps = $4 }
         $1 == "50%" { p50 = $2 }
         $1 == "99%" { p99 = $2 }
         END { if (rps == "" || p50 == "" || p99 == "") exit 1; print rps, p50, p99 }' "$file"
}

# Same for wrk --latency, whose percentiles carry their unit (us, ms or s).
parse_wrk() {
    local file=$1
    if grep -q 'Non-2xx or 3xx responses' "$file"; then
        cat "$file" >&2
        return 1
    fi
    awk 'function ms(v) {
             if (v ~ /us$/) return v / 1000
             if (v ~ /ms$/) return v + 0
             if (v ~ /m$/) return v * 60000
             return v * 1000
         }
         /^Requests\/sec:/ { rps = $2 }
         /Latency Distribution/ { in_dist = 1 }
         in_dist && $1 == "50%" { p50 = ms($2) }
         in_dist && $1 == "99%" { p99 = ms($2) }
         END { if (rps == "" || p50 == "" || p99 == "") exit 1; print rps, p50, p99 }' "$file"
}

# $1 case id, $2 label, $3 tool name, $4 output file, $5 parser
record() {
    local values rps p50 p99
    values=$("$5" "$4") || fail_with_logs "$2 ($3): errors or no result, see above" \
        "$WORK/gateway.log" "$WORK/comments-service.log"
    read -r rps p50 p99 <<<"$values"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$rps" "$p50" "$p99" >>"$WORK/results.tsv"
    printf '    %-7s %10.0f req/s   p50 %7.2f ms   p99 %7.2f ms\n' "$3" "$rps" "$p50" "$p99"
    if grep -q '^ *Socket errors:' "$4"; then
        note "$2 ($3): wrk $(grep '^ *Socket errors:' "$4" | sed 's/^ *//')"
    fi
}

# ab -k speaks HTTP/1.0: it keeps a connection only when the answer says "Connection: keep-alive", and otherwise
# reads until the server closes. An answer that does neither stalls ab until its 30 s timeout, so it is skipped.
stalls_ab_keepalive() {
    local url=$1 port path reply status=0
    [[ $url =~ ^http://[^:/]+:([0-9]+)(/.*)$ ]] || die "cannot parse $url"
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

# $1 case id, $2 label, $3 URL. The article's ab run (a new connection per request), ab with keep-alive, and wrk.
measure() {
    local id=$1 label=$2 url=$3 out="$WORK/out/$1"
    log "$label: $url"
    # shellcheck disable=SC2046 # ab_args is a list of flags
    ab -q $(ab_args) -c "$CONCURRENCY" "$url" >"$out.ab.txt" 2>&1 || { cat "$out.ab.txt" >&2; die "ab failed on $url"; }
    record "$id" "$label" ab "$out.ab.txt" parse_ab

    if stalls_ab_keepalive "$url"; then
        printf '%s\t%s\t%s\t-\t-\t-\n' "$id" "$label" "ab -k" >>"$WORK/results.tsv"
        note "$label: ab -k skipped: the answer to an HTTP/1.0 keep-alive request neither says" \
            "\"Connection: keep-alive\" nor closes the connection, so ab would wait for its timeout"
    else
        # shellcheck disable=SC2046
        ab -q -k $(ab_args) -c "$CONCURRENCY" "$url" >"$out.ab-k.txt" 2>&1 || { cat "$out.ab-k.txt" >&2; die "ab -k failed on $url"; }
        record "$id" "$label" "ab -k" "$out.ab-k.txt" parse_ab
        if grep -q '^Keep-Alive requests: *0$' "$out.ab-k.txt"; then
            note "$label: ab -k kept no connection alive: the server closes after each answer to HTTP/1.0"
        fi
    fi

    measure_wrk "$id" "$label" "$url"
}

# $1 case id, $2 label, then wrk's URL and script arguments. wrk with the CPU time and peak RSS of the servers.
measure_wrk() {
    local id=$1 label=$2 out="$WORK/out/$1.wrk.txt" before after
    shift 2
    reset_peak_rss
    before=$(cpu_snapshot)
    wrk -t2 -c"$CONCURRENCY" -d"$(wrk_duration)" --latency "$@" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed on $*"; }
    after=$(cpu_snapshot)
    record_case_rss "$id"
    record "$id" "$label" wrk "$out" parse_wrk
    record_cpu "$id" "$before" "$after" "$out"
}

# $1 case id, $2 label, $3 URL up to the id. A real miss: every request asks for an id nobody asked for before, so
# the gateway looks it up, misses, asks the backend and stores the answer. wrk only, since ab asks for one URL.
measure_fresh() {
    local id=$1 label=$2 url=$3
    log "$label: $url<fresh id>"
    FRESH_RUNS=$((FRESH_RUNS + 1))
    measure_wrk "$id" "$label" -s "$BENCH_DIR/fresh-ids.lua" "$url" -- "$((FRESH_RUNS * 100000000000))"
}

# The JIT compiles what runs: about 20 s per path, half on new connections and half on kept-alive ones, as measured.
warm_up() {
    local url=$1
    log "warming up: $url"
    ab -q -t 10 -n 200000 -c "$CONCURRENCY" "$url" >"$WORK/out/warm-up.txt" 2>&1 || { cat "$WORK/out/warm-up.txt" >&2; die "warm-up failed on $url"; }
    wrk -t2 -c"$CONCURRENCY" -d10s "$url" >"$WORK/out/warm-up.txt" 2>&1 || { cat "$WORK/out/warm-up.txt" >&2; die "warm-up failed on $url"; }
}

# The real miss's own path (lookup, miss, store, coalescing), 10 s with fresh ids.
warm_up_fresh() {
    local url=$1
    log "warming up: $url<fresh id>"
    FRESH_RUNS=$((FRESH_RUNS + 1))
    wrk -t2 -c"$CONCURRENCY" -d10s -s "$BENCH_DIR/fresh-ids.lua" "$url" -- "$((FRESH_RUNS * 100000000000))" \
        >"$WORK/out/warm-up.txt" 2>&1 || { cat "$WORK/out/warm-up.txt" >&2; die "warm-up failed on $url"; }
}

run_cases() {
    local payload path prefix
    for payload in single collection; do
        if [ $payload = single ]; then path=$SINGLE; else path=$COLLECTION; fi
        prime_gateway "$GATEWAY$path"
        prime_gateway "$NEAR_CACHE$path"
        if $NGINX_AVAILABLE; then
            expect_nginx_hit "$NGINX_ARTICLE$path"
            expect_nginx_hit "$NGINX_KEEPALIVE$path"
        fi
    done

    if ! $QUICK; then
        for path in "$SINGLE" "$COLLECTION"; do
            warm_up "$DIRECT$path/no_cache"
            warm_up "$GATEWAY$path/no_cache"
            warm_up "$GATEWAY$path"
            warm_up "$NEAR_CACHE$path"
        done
        warm_up_fresh "$GATEWAY$SINGLE_PREFIX"
        warm_up_fresh "$GATEWAY$COLLECTION_PREFIX"
        # The near-cache gateway serves misses too, as any gateway does; cold, its miss ran at a fifth of the other's.
        warm_up_fresh "$NEAR_CACHE$SINGLE_PREFIX"
        warm_up_fresh "$NEAR_CACHE$COLLECTION_PREFIX"
    fi

    for payload in single collection; do
        if [ $payload = single ]; then path=$SINGLE prefix=$SINGLE_PREFIX; else path=$COLLECTION prefix=$COLLECTION_PREFIX; fi
        measure "direct-miss-$payload" "direct miss, $payload" "$DIRECT$path/no_cache"
        measure_fresh "direct-fresh-$payload" "direct miss (fresh ids), $payload" "$DIRECT$prefix"
        measure "gateway-pass-$payload" "gateway pass-through, $payload" "$GATEWAY$path/no_cache"
        measure_fresh "gateway-real-miss-$payload" "gateway miss (real), $payload" "$GATEWAY$prefix"
        expect_gateway_hit "$GATEWAY$path"
        measure "gateway-hit-$payload" "gateway hit, $payload" "$GATEWAY$path"
        expect_gateway_hit "$GATEWAY$path"
        expect_gateway_hit "$NEAR_CACHE$path"
        measure "gateway-near-hit-$payload" "gateway hit (near-cache), $payload" "$NEAR_CACHE$path"
        expect_gateway_hit "$NEAR_CACHE$path"
        # Every answer it stores goes into its near-cache too, so this fills the near-cache to its bound: its
        # peak RSS here is what the bound costs.
        measure_fresh "gateway-near-real-miss-$payload" "gateway miss (real, near-cache), $payload" \
            "$NEAR_CACHE$prefix"
        if $NGINX_AVAILABLE; then
            measure "nginx-hit-$payload" "nginx hit (article), $payload" "$NGINX_ARTICLE$path"
            expect_nginx_hit "$NGINX_ARTICLE$path"
            measure "nginx-keepalive-hit-$payload" "nginx hit (keepalive), $payload" "$NGINX_KEEPALIVE$path"
            expect_nginx_hit "$NGINX_KEEPALIVE$path"
            # The reference for the gateway's miss: nginx asks memcached, misses, and proxies to comments-service.
            measure_fresh "nginx-keepalive-miss-$payload" "nginx miss (keepalive, fresh ids), $payload" \
                "$NGINX_KEEPALIVE$prefix"
        fi
    done
}

# --- reporting ------------------------------------------------------------------------------------------------

results_table() {
    printf '| case | tool | requests/s | p50 ms | p99 ms |\n|---|---|---:|---:|---:|\n'
    awk -F'\t' 'function num(v, format) { return v == "-" ? "n/a" : sprintf(format, v) }
        { printf "| %s | %s | %s | %s | %s |\n", $2, $3, num($4, "%.0f"), num($5, "%.2f"), num($6, "%.2f") }' \
        "$WORK/results.tsv"
}

ratios_table() {
    printf '| ratio of requests/s | payload | ab | ab -k | wrk |\n|---|---|---:|---:|---:|\n'
    awk -F'\t' '
        $4 != "-" { rps[$1 SUBSEP $3] = $4 }
        function ratio(a, b, tool) {
            if (!((a SUBSEP tool) in rps) || !((b SUBSEP tool) in rps) || rps[b SUBSEP tool] == 0) return "n/a"
            return sprintf("%.2f", rps[a SUBSEP tool] / rps[b SUBSEP tool])
        }
        function row(name, a, b, payload) {
            printf "| %s | %s | %s | %s | %s |\n", name, payload,
                ratio(a "-" payload, b "-" payload, "ab"), ratio(a "-" payload, b "-" payload, "ab -k"),
                ratio(a "-" payload, b "-" payload, "wrk")
        }
        END {
            split("single collection", payloads, " ")
            for (i = 1; i <= 2; i++) row("gateway hit / direct miss", "gateway-hit", "direct-miss", payloads[i])
            for (i = 1; i <= 2; i++) row("gateway hit / nginx hit (keepalive)", "gateway-hit", "nginx-keepalive-hit", payloads[i])
            for (i = 1; i <= 2; i++) row("gateway hit / nginx hit (article)", "gateway-hit", "nginx-hit", payloads[i])
            for (i = 1; i <= 2; i++) row("gateway hit (near-cache) / nginx hit (keepalive)", "gateway-near-hit", "nginx-keepalive-hit", payloads[i])
            for (i = 1; i <= 2; i++) row("gateway miss (real) / gateway pass-through", "gateway-real-miss", "gateway-pass", payloads[i])
            for (i = 1; i <= 2; i++) row("gateway miss (real) / nginx miss (fresh ids)", "gateway-real-miss", "nginx-keepalive-miss", payloads[i])
            for (i = 1; i <= 2; i++) row("gateway miss (real) / direct (fresh ids)", "gateway-real-miss", "direct-fresh", payloads[i])
            for (i = 1; i <= 2; i++) row("nginx miss (fresh ids) / direct (fresh ids)", "nginx-keepalive-miss", "direct-fresh", payloads[i])
            for (i = 1; i <= 2; i++) row("gateway pass-through / direct miss", "gateway-pass", "direct-miss", payloads[i])
        }' "$WORK/results.tsv"
}

cpu_table() {
    per_case_table "$WORK/cpu.tsv"
}

# $1: "case name value" lines, as a table of cases by process.
per_case_table() {
    awk -F'\t' '
        FNR == NR { if (!($1 in label)) { label[$1] = $2; cases[++n] = $1 }; next }
        { cpu[$1 SUBSEP $2] = $3; if (!($2 in seen)) { seen[$2] = 1; names[++m] = $2 } }
        END {
            printf "| case |"; for (j = 1; j <= m; j++) printf " %s |", names[j]
            printf "\n|---|"; for (j = 1; j <= m; j++) printf "---:|"
            printf "\n"
            for (i = 1; i <= n; i++) {
                printf "| %s |", label[cases[i]]
                for (j = 1; j <= m; j++) { key = cases[i] SUBSEP names[j]; printf " %s |", key in cpu ? cpu[key] : "n/a" }
                printf "\n"
            }
        }' "$WORK/results.tsv" "$1"
}

# What memcached holds at the end, and whether any item was evicted to make room.
memcached_summary() {
    local stats
    stats=$(exec 3<>"/dev/tcp/127.0.0.1/$MEMCACHED_PORT" && printf 'stats\r\nquit\r\n' >&3 && timeout 2 cat <&3 | tr -d '\r') || true
    awk -v limit="$MEMCACHED_MEMORY_MB" '$1 == "STAT" { stat[$2] = $3 }
        END { printf "-m %d: %d items, %.0f MB of %d MB used at the end; %d evicted during the run\n",
                  limit, stat["curr_items"], stat["bytes"] / 1048576, limit, stat["evictions"] }' <<<"$stats"
}

machine_section() {
    local cpu java_version
    cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
    java_version=$(java -version 2>&1 | head -n 1)
    cat <<EOF
- machine: $(nproc) cores, ${cpu:-unknown CPU}, $(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
- load average before the run: $LOAD_BEFORE; after: $(cut -d' ' -f1-3 /proc/loadavg)
- java: $java_version
- gateway JVM flags: \`${GATEWAY_JAVA_OPTS:-none}\`; settings: \`${GATEWAY_ARGS:-none}\` (near-cache gateway: \`${NEAR_CACHE_ARGS[*]}\`)
- comments-service JVM flags: \`${COMMENTS_JAVA_OPTS:-none}\`
- memcached $(memcached -V | cut -d' ' -f2), $(if $NGINX_AVAILABLE; then nginx -v 2>&1 | sed 's/.*: //'; else echo "no nginx"; fi), ab $(ab -V | awk 'NR == 1 { print $5 }'), $(wrk -v 2>&1 | awk 'NR == 1 { print $1, $2 }')
- mode: $(if $QUICK; then echo "quick (about 2 s per measurement, no warm-up)"; else echo "full (20 s warm-up per path, ab -n 10000, wrk 15 s)"; fi); took $((SECONDS - STARTED_AT)) s
EOF
}

write_report() {
    local file=$1 title=$2
    {
        printf '# %s\n\n' "$title"
        cat <<EOF
The load generator (ab, wrk) shares this machine's $(nproc) cores with memcached, comments-service, the gateway and
nginx, so the absolute numbers say little about any of them alone: compare ratios within this run only.

\`ab -c $CONCURRENCY\` opens a new connection per request, as the article's run did; \`ab -k\` keeps connections
alive; \`wrk -t2 -c$CONCURRENCY --latency\` keeps them alive too. Latencies are in milliseconds (ab rounds them to
whole ones).

EOF
        results_table
        printf '\n## Ratios\n\n'
        ratios_table
        printf '\n## CPU time per request (microseconds, during the wrk run)\n\n'
        printf 'User plus system time each process spent, divided by the requests wrk completed: what a request costs\n'
        printf 'each process, whoever else shares the cores. It counts every thread, the JIT compiler and the garbage\n'
        printf 'collector included, and a process that is not saturated spends somewhat more per request (fewer\n'
        printf 'requests per wake-up). nginx is both of its instances together.\n\n'
        cpu_table
        reset_peak_rss
        printf '\n## Peak RSS (VmHWM, MB)\n\nOver the whole run:\n\n| process | MB |\n|---|---:|\n'
        local name
        while read -r name _; do printf '| %s | %s |\n' "$name" "${PEAK_RSS[$name]:-?}"; done < <(rss_watched)
        printf '\nDuring each wrk run (the peak is reset before each one):\n\n'
        per_case_table "$WORK/rss.tsv"
        printf '\n## memcached\n\n%s\n' "$(memcached_summary)"
        printf '\n## Set-up\n\n'
        machine_section
        if [ ${#NOTES[@]} -gt 0 ]; then
            printf '\n## Notes\n\n'
            printf -- '- %s\n' "${NOTES[@]}"
        fi
    } >"$file"
}

draw_chart() {
    local png=$1 title=$2 data="$WORK/chart.tsv"
    awk -F'\t' '
        !($1 in seen) { seen[$1] = 1; order[++n] = $1; label[$1] = $2 }
        $4 != "-" { rps[$1 SUBSEP $3] = $4 }
        function value(key) { return key in rps ? rps[key] : "?" }
        END { for (i = 1; i <= n; i++) { c = order[i]
                  printf "%s\t%s\t%s\t%s\n", label[c], value(c SUBSEP "ab"), value(c SUBSEP "ab -k"), value(c SUBSEP "wrk") } }' \
        "$WORK/results.tsv" >"$data"
    gnuplot -e "datafile='$data'; outfile='$png'; subtitle='$title'" "$BENCH_DIR/chart.gp" ||
        note "gnuplot failed: no chart"
}

report() {
    local name title dir
    name="$(date -u +%F)-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if $QUICK; then
        # A quick run is a smoke test; its numbers do not belong next to the full runs.
        dir="$WORK/results"
        title="Benchmark $name (quick)"
    else
        dir="$BENCH_DIR/results"
        title="Benchmark $name"
    fi
    mkdir -p "$dir"
    write_report "$dir/$name.md" "$title"
    if $GNUPLOT_AVAILABLE; then
        draw_chart "$dir/$name.png" "$title: the load generator shares the $(nproc) cores, compare within this run only"
        if ! $QUICK && [ -f "$dir/$name.png" ]; then cp "$dir/$name.png" "$dir/latest.png"; fi
    fi
    printf '\n'
    cat "$dir/$name.md"
    printf '\nwritten: %s\n' "$dir/$name.md"
}

main() {
    parse_args "$@"
    STARTED_AT=$SECONDS
    LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
    rm -rf "$WORK"
    mkdir -p "$WORK/out"
    : >"$WORK/results.tsv"
    : >"$WORK/cpu.tsv"
    : >"$WORK/rss.tsv"
    CLOCK_TICKS=$(getconf CLK_TCK)

    ensure_tools
    build_jars
    local ports=("$MEMCACHED_PORT" "$COMMENTS_PORT" "$GATEWAY_PORT" "$MANAGEMENT_PORT" "$NEAR_CACHE_PORT"
        "$NEAR_CACHE_MANAGEMENT_PORT")
    if $NGINX_AVAILABLE; then ports+=("$NGINX_PORT" "$NGINX_KEEPALIVE_PORT"); fi
    check_ports_free "${ports[@]}"

    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    start_memcached
    start_apps
    if $NGINX_AVAILABLE; then
        start_nginx nginx-article.conf.template "$NGINX_PORT"
        start_nginx nginx-keepalive.conf.template "$NGINX_KEEPALIVE_PORT"
    fi
    log "the load generator shares the $(nproc) cores with the servers: compare ratios within this run only"

    run_cases
    report
}

main "$@"
