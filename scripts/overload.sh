#!/usr/bin/env bash
# Hits under overload: the gateway and nginx's memcached_pass in front of the same memcached, each driven by wrk
# with 50, 1,000 and 4,000 connections over 300 preloaded paths. It prints a table of requests per second, the
# gateway's CPU time per request (which the load generator's share of the same cores does not move), p99,
# wrk's timeouts, non-2xx answers and, for the gateway, the lookups counted as memcached errors (those its open
# breaker refused among them), the operations that failed as memcached's (a timeout judged memcached's, which is what
# opens the breaker), the circuit breaker's transitions, the operations given up as the gateway's own delay, the
# requests shed with a 503, the full collections (G1's fallback when the old generation fills, which stops every
# request) and how long memcached's threads waited for a CPU (a memcached left waiting is late however little it has
# to do, and the gateway rightly fails those lookups over: docs/failures.md, "Why memcached was late"). The gateway
# runs with the image's JVM flags: the heap that MaxRAMPercentage=55 gives under its 512 MB limit, and its GC.
# Targets: at 4,000 connections hits at 0.85 of the 50-connection rate or better, no full collection, no lookup
# counted as an error, no breaker opened, only 200s or deliberate 503s.
#
#   flock /tmp/ports.lock scripts/overload.sh   (needs memcached, wrk and nginx, from Debian's packages, and the jars)
#
# GATEWAY_IMAGE runs the gateway's image instead of its jar, as deployed: docker run --cpus 2 --memory 512m (or
# GATEWAY_MEMORY, to try another limit; the heap follows it), with the image's own JVM and flags (build
# it with: docker build -t memcached-gateway/gateway gateway). Otherwise the jar runs as the image runs it
# (image_jvm in scripts/common.sh: Java 25 where the machine has it, the image's heap under its 512 MB limit and its
# GC), or on GATEWAY_JAVA with GATEWAY_JAVA_OPTS (the old ergonomic SerialGC was "-Xmx308m -XX:+UseSerialGC").
# GATEWAY_IMAGE_OPTS adds JVM flags to the image's own, through JDK_JAVA_OPTIONS (the java launcher puts
# them on its command line, where they win over the image's JAVA_TOOL_OPTIONS; setting that would replace them all).
# GATEWAY_JAR runs another build of the gateway, CONNECTIONS and DURATION (s) change the runs, WARM_UP (s) the warm-up
# before them, LABEL names them, GATEWAY_LOG=FILE keeps the gateway's log.
#
# HEAP_HISTOGRAM=DIR looks at what the connections keep alive: halfway through each of the gateway's runs it writes
# into DIR the live objects' histogram (jcmd GC.class_histogram, which runs a full collection of its own, left out of
# the table's count), the gateway's metrics, its native memory when the JVM tracks it
# (GATEWAY_IMAGE_OPTS=-XX:NativeMemoryTracking=summary), glibc's malloc_info (which also counts what Netty takes with
# malloc, as it does for its direct buffers on Java 25) and, for the image, its cgroup's memory.stat; it records each
# run's allocations with Flight Recorder (settings=profile), and keeps the gateway's log (with its GC log, given
# -Xlog:gc:stdout). It prints the histogram's top lines at the most connections and, class by class, what the most
# connections keep beyond the fewest, per connection. The pauses and the recording (about 20 MB of native memory)
# slow those runs down: their rates are not the ones to quote. jcmd and jfr come from GATEWAY_JAVA's JDK (jfr's
# views need 21 or later), and run outside the image's container, so that their own memory does not count against
# its limit.
set -euo pipefail
cd "$(dirname "$0")/.."

memcached_port=${MEMCACHED_PORT:-30211}
comments_port=${COMMENTS_PORT:-30567}
gateway_port=${GATEWAY_PORT:-30080}
management_port=${MANAGEMENT_PORT:-30081}
nginx_port=${NGINX_PORT:-30090}
duration=${DURATION:-10}
warm_up=${WARM_UP:-60}
read -r -a connections <<<"${CONNECTIONS:-50 1000 4000}"
# shellcheck source=scripts/common.sh
source scripts/common.sh
image_jvm
gateway_java_opts=$GATEWAY_JAVA_OPTS
read -r -a java_opts <<<"$gateway_java_opts"
gateway_java=$GATEWAY_JAVA
image=${GATEWAY_IMAGE:-}
memory=${GATEWAY_MEMORY:-512m}
container=overload-gateway-$$
if [ -n "$image" ]; then
    label=${LABEL:-the image $image (--cpus 2 --memory $memory)}
else
    java_version=$("$gateway_java" -XshowSettings:properties -version 2>&1 |
        awk '/java.specification.version/ {print $3}')
    label=${LABEL:-Java $java_version, $gateway_java_opts}
fi
histograms=${HEAP_HISTOGRAM:-}
if [ -n "$histograms" ]; then mkdir -p "$histograms" && histograms=$(cd "$histograms" && pwd); fi
paths=300
work=$(mktemp -d)

cleanup() {
    local status=$?
    if [ -n "$image" ]; then docker rm -f "$container" >/dev/null 2>&1 || true; fi
    if [ -n "$histograms" ]; then cp "$work/gateway.log" "$histograms/" 2>/dev/null || true; fi
    if [ -n "${GATEWAY_LOG:-}" ]; then cp "$work/gateway.log" "$GATEWAY_LOG" 2>/dev/null || true; fi
    finish "$status" "$work" "${pids[@]}"
}
trap cleanup EXIT INT TERM

need memcached memcached
need wrk wrk
need nginx nginx
comments_jar=$(jar_of comments-service)
gateway_jar=${GATEWAY_JAR:-$(jar_of gateway)}
# 4,000 client connections, as many to the gateway's side of each, and nginx's upstreams.
ulimit -n "$(ulimit -Hn)"
for port in "$memcached_port" "$comments_port" "$gateway_port" "$management_port" "$nginx_port"; do
    port_free "$port" || fail "port $port is taken"
done

start_memcached "$memcached_port" 64 "$work/memcached.log"
memcached_pid=$spawned
spawn "$work/comments.log" java -jar "$comments_jar" --server.port="$comments_port" --comments.max-age=3600s
comments_pid=$spawned
gateway_args=(--server.port="$gateway_port" --management.server.port="$management_port"
    --memcached.servers="127.0.0.1:$memcached_port" --comments-service.uri="http://127.0.0.1:$comments_port")
if [ -n "$image" ]; then
    # The host's network: the gateway reaches memcached and comments-service on 127.0.0.1, as the jar does.
    spawn "$work/gateway.log" docker run --rm --name "$container" --network host --cpus 2 --memory "$memory" \
        -e JDK_JAVA_OPTIONS="${GATEWAY_IMAGE_OPTS:-}" "$image" "${gateway_args[@]}"
else
    spawn "$work/gateway.log" "$gateway_java" "${java_opts[@]}" -jar "$gateway_jar" "${gateway_args[@]}"
fi
gateway_pid=$spawned
await "http://127.0.0.1:$comments_port/actuator/health" 90 "$comments_pid" "$work/comments.log"
await "http://127.0.0.1:$management_port/actuator/health" 90 "$gateway_pid" "$work/gateway.log"

# nginx as bench/ runs it, with room for 4,000 connections a worker.
mkdir -p "$work/nginx/logs" "$work/nginx/temp"
if [ -f /etc/nginx/mime.types ]; then cp /etc/nginx/mime.types "$work/nginx/"; else printf 'types {}\n' >"$work/nginx/mime.types"; fi
sed -e "s|@PORT@|$nginx_port|g" -e "s|@MEMCACHED_PORT@|$memcached_port|g" -e "s|@COMMENTS_PORT@|$comments_port|g" \
    -e 's|worker_connections 1024;|worker_connections 10240;|' -e 's|^worker_processes 4;|worker_processes 2;|' \
    bench/nginx-keepalive.conf.template >"$work/nginx/nginx.conf"
spawn "$work/nginx/logs/run.log" nginx -p "$work/nginx/" -c "$work/nginx/nginx.conf" -g 'daemon off;'
nginx_pid=$spawned

log "preloading $paths paths through the gateway"
gateway=http://127.0.0.1:$gateway_port
for ((id = 1; id <= paths; id++)); do
    curl -fs -o /dev/null --max-time 5 "$gateway/api/v1/comments/$id" || fail "preloading /api/v1/comments/$id"
done
await_x_cache "$gateway/api/v1/comments/$paths" HIT 10 || fail "no HIT after preloading"
await "http://127.0.0.1:$nginx_port/api/v1/comments/$paths" 10 "$nginx_pid" "$work/nginx/logs/error.log"

# prometheus NAME [FILTER [EXCLUDE]]: the sum of the gateway's samples of NAME whose labels match FILTER and not
# EXCLUDE.
prometheus() {
    curl -fs --max-time 30 "http://127.0.0.1:$management_port/actuator/prometheus" |
        awk -v name="$1" -v filter="${2:-}" -v exclude="${3:-}" 'index($0, name "{") == 1 && index($0, filter) &&
            (exclude == "" || !index($0, exclude)) { sum += $NF } END { printf "%d\n", sum }'
}
# The full collections so far, but for those that a heap histogram asked for.
full_gcs() {
    prometheus jvm_gc_pause_seconds_count 'action="end of major GC"' 'cause="Heap Inspection Initiated GC"'
}
transitions() { grep -c 'circuit breaker .* -> ' "$work/gateway.log" || true; }
# How long memcached's threads have waited runnable for a CPU, in milliseconds: the second field of each thread's
# schedstat, in nanoseconds.
memcached_waited() {
    awk '{ waited += $2 } END { printf "%d\n", waited / 1000000 }' /proc/"$memcached_pid"/task/*/schedstat
}
# The CPU time the gateway has used, in microseconds: its container's cgroup for the image, the process's for the jar.
gateway_cpu() {
    if [ -n "$image" ]; then
        docker exec "$container" sh -c 'if [ -f /sys/fs/cgroup/cpu.stat ]; then
            awk "/^usage_usec/ { print \$2 }" /sys/fs/cgroup/cpu.stat
        else echo $(($(cat /sys/fs/cgroup/cpuacct/cpuacct.usage) / 1000)); fi'
    else
        cpu_of "$gateway_pid"
    fi
}

# gateway_jcmd COMMAND...: a diagnostic command to the gateway's JVM; in the image's container it is process 1, which
# the host's jcmd reaches by its host pid.
jdk_bin=$(dirname "$(readlink -f "$(command -v "$gateway_java")")")
gateway_jcmd() {
    local pid=$gateway_pid
    if [ -n "$image" ]; then pid=$(docker inspect -f '{{.State.Pid}}' "$container"); fi
    timeout 120 "$jdk_bin/jcmd" "$pid" "$@"
}
# snapshot CONNECTIONS: what the gateway holds in the middle of a run, into $histograms/CONNECTIONS-*.
snapshot() {
    local at=$histograms/$1
    curl -fs --max-time 30 "http://127.0.0.1:$management_port/actuator/prometheus" >"$at-metrics.txt"
    if [ -n "$image" ]; then
        timeout 30 docker exec "$container" sh -c 'cat /sys/fs/cgroup/memory.stat 2>/dev/null ||
            cat /sys/fs/cgroup/memory/memory.stat' >"$at-memory.stat" || log "no memory.stat of the gateway's container"
    fi
    gateway_jcmd VM.native_memory summary >"$at-native-memory.txt"
    gateway_jcmd System.native_heap_info >"$at-native-heap.xml"
    gateway_jcmd GC.class_histogram >"$at-histogram.txt"
}
# record_allocations CONNECTIONS and save_allocations CONNECTIONS: Flight Recorder's allocation samples of one run,
# and its views by class and by site. In the image, the recording is written into the container and copied out.
record_allocations() { gateway_jcmd JFR.start name="overload-$1" settings=profile >/dev/null; }
save_allocations() {
    local file=$histograms/$1-allocations.jfr view
    if [ -n "$image" ]; then file=/tmp/overload-$1.jfr; fi
    gateway_jcmd JFR.stop name="overload-$1" filename="$file" >/dev/null
    if [ -n "$image" ]; then
        timeout 120 docker cp -q "$container:$file" "$histograms/$1-allocations.jfr"
        timeout 30 docker exec "$container" rm -f "$file"
    fi
    for view in allocation-by-class allocation-by-site; do
        timeout 120 "$jdk_bin/jfr" view --width 200 "$view" "$histograms/$1-allocations.jfr" \
            >"$histograms/$1-$view.txt" ||
            timeout 120 "$jdk_bin/jfr" summary "$histograms/$1-allocations.jfr" >"$histograms/$1-$view.txt"
    done
}
# per_connection FEW MANY: class by class, the bytes the histogram at MANY connections holds beyond the one at FEW,
# divided by the connections between them; the total first.
per_connection() {
    awk -v n=$(($2 - $1)) '
        $1 ~ /^[0-9]+:$/ { bytes[$4] += (FILENAME == ARGV[2] ? $3 : -$3); next }
        $1 == "Total" { total += (FILENAME == ARGV[2] ? $3 : -$3) }
        END {
            printf "%12.0f  %s\n", total / n, "(all)"
            for (class in bytes) printf "%12.0f  %s\n", bytes[class] / n, class
        }' "$histograms/$1-histogram.txt" "$histograms/$2-histogram.txt" | sort -k1,1nr | head -n 21
}

# run TARGET URL CONNECTIONS: one wrk run and its row of the table.
run() {
    local target=$1 url=$2 conns=$3 out="$work/wrk-$1-$3.txt" errors=0 trans=0 delayed=0 shed=0 timeouts cpu=0
    local per_request=- full=0 failed=0 waited looking=
    waited=$(memcached_waited)
    if [ "$target" = gateway ]; then
        full=$(full_gcs)
        cpu=$(gateway_cpu)
        errors=$(prometheus memcached_cache_lookups_total 'result="error"')
        failed=$(prometheus memcached_operations_seconds_count 'outcome="failure"')
        delayed=$(prometheus memcached_operations_delayed_total)
        shed=$(prometheus gateway_overload_rejected_total)
        trans=$(transitions)
    fi
    if [ "$target" = gateway ] && [ -n "$histograms" ]; then
        record_allocations "$conns"
        (sleep $((duration / 2)) && snapshot "$conns") &
        looking=$!
    fi
    log "wrk -t2 -c$conns -d${duration}s against $target"
    wrk -t2 -c"$conns" -d"${duration}s" --latency -s scripts/overload-paths.lua "$url" -- "$paths" >"$out" 2>&1
    if [ -n "$looking" ]; then
        wait "$looking" || log "no snapshot of the gateway at $conns connections"
        save_allocations "$conns" || log "no allocation profile of the gateway at $conns connections"
    fi
    waited=$(($(memcached_waited) - waited))
    timeouts=$(sed -n 's/.*Socket errors:.*timeout \([0-9]*\).*/\1/p' "$out")
    if [ "$target" = gateway ]; then
        cpu=$(($(gateway_cpu) - cpu))
        per_request=$(awk -v cpu="$cpu" -v requests="$(wrk_field "$out" requests)" \
            'BEGIN { if (requests > 0) printf "%.0f", cpu / requests }')
        errors=$(($(prometheus memcached_cache_lookups_total 'result="error"') - errors))
        failed=$(($(prometheus memcached_operations_seconds_count 'outcome="failure"') - failed))
        delayed=$(($(prometheus memcached_operations_delayed_total) - delayed))
        shed=$(($(prometheus gateway_overload_rejected_total) - shed))
        trans=$(($(transitions) - trans))
        full=$(($(full_gcs) - full))
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$target" "$conns" \
        "$(awk -v rate="$(wrk_field "$out" rate)" 'BEGIN { if (rate != "") printf "%.0f", rate }')" "$per_request" "$(wrk_field "$out" p99)" "${timeouts:-0}" \
        "$(wrk_field "$out" non-2xx | grep . || echo 0)" \
        "$([ "$target" = gateway ] && echo "$errors" || echo -)" "$([ "$target" = gateway ] && echo "$failed" || echo -)" \
        "$([ "$target" = gateway ] && echo "$trans" || echo -)" \
        "$([ "$target" = gateway ] && echo "$delayed" || echo -)" "$([ "$target" = gateway ] && echo "$shed" || echo -)" \
        "$([ "$target" = gateway ] && echo "$full" || echo -)" "$waited"
}

# Long enough for the JIT to compile the hit path, so that the first run does not pay for it: on 2 cores the
# benchmark's hit cases become steady after 30 to 50 s, and after 20 s the 50-connection run measured 9,399 req/s
# against 15,000 to 24,500 in runs warmed longer.
log "warming the gateway up for ${warm_up}s"
wrk -t2 -c200 -d"${warm_up}s" -s scripts/overload-paths.lua "$gateway" -- "$paths" >/dev/null 2>&1

echo
echo "Hits under overload, gateway with ${label}: wrk -t2 -d${duration}s over $paths cached paths"
echo
echo "| target | connections | req/s | gateway CPU µs/req | p99 | timeouts | non-2xx | lookups as errors | failed ops | breaker transitions | delayed ops | shed (503) | full GCs | memcached's threads' wait for a CPU, ms |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for conns in "${connections[@]}"; do
    run gateway "$gateway" "$conns"
    run nginx "http://127.0.0.1:$nginx_port" "$conns"
done
echo
echo "Circuit breaker, from the gateway's log:"
grep -o 'memcached [^ ]* circuit breaker .*' "$work/gateway.log" || echo "  (no transition)"
echo
# What the heap settings leave for the rest: the image's limit is 512 MB, and the kernel kills it past that.
if [ -n "$image" ]; then
    peak=$(docker exec "$container" sh -c 'cat /sys/fs/cgroup/memory.peak 2>/dev/null ||
        cat /sys/fs/cgroup/memory/memory.max_usage_in_bytes' | awk '{ printf "%d MB", $1 / 1048576 }')
    echo "Peak memory of the gateway's container (its cgroup's, page cache included): ${peak:-unknown}"
else
    echo "Peak RSS of the gateway: $(awk '/^VmHWM/ { printf "%d MB", $2 / 1024 }' "/proc/$gateway_pid/status")"
fi
echo
echo "Longest GC pauses, from the gateway's own count (jvm_gc_pause_seconds_max):"
curl -fs --max-time 30 "http://127.0.0.1:$management_port/actuator/prometheus" | grep '^jvm_gc_pause_seconds_max' || true
if [ -n "$histograms" ]; then
    few=${connections[0]} many=${connections[${#connections[@]} - 1]}
    echo
    echo "Live objects at $many connections (jcmd GC.class_histogram, in $histograms):"
    sed -n '2,17p;/^Total/p' "$histograms/$many-histogram.txt" || true
    echo
    echo "Bytes a connection keeps, from $few to $many connections, by class:"
    per_connection "$few" "$many" || true
fi
