#!/usr/bin/env bash
# Where a hit's CPU and allocations go: the gateway as the benchmark runs it (the image's Java and flags), warmed on
# one cached comment until the JIT is done, then recorded by JFR (settings=profile) for a window of the same load.
# Prints the gateway's CPU per hit, wrk's rate, the hottest methods (top frames of the CPU samples), the classes
# allocated most, and the recording's path, so that a change to the hit path can be judged before and after.
#
#   flock /tmp/bench.lock bench/profile-hit.sh [PATH]     (PATH: /api/v1/comments/1 by default)
#
# GATEWAY_JAR profiles another build; WARM_UP and SECONDS_PROFILED set the two phases (60 s and 30 s); CONNECTIONS (50) and
# THREADS (1: on 2 cores a second wrk thread takes CPU from the server) shape the load; GATEWAY_ARGS adds settings.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

path=${1:-/api/v1/comments/1}
warm_up=${WARM_UP:-60}
seconds=${SECONDS_PROFILED:-30}
connections=${CONNECTIONS:-50}
threads=${THREADS:-1}
memcached_port=31011
comments_port=31012
gateway_port=31013
management_port=31014
image_jvm
java=$GATEWAY_JAVA
jfr_tool=$(dirname "$(readlink -f "$java")")/jfr
read -ra java_opts <<<"$GATEWAY_JAVA_OPTS"
read -ra extra_args <<<"${GATEWAY_ARGS:-}"
work=$(mktemp -d)
recording=${RECORDING:-$work/hit.jfr}

trap 'finish $? "$work" "${pids[@]}"' EXIT INT TERM
need memcached memcached
need wrk wrk
for port in "$memcached_port" "$comments_port" "$gateway_port" "$management_port"; do
    port_free "$port" || fail "port $port is taken"
done
comments_jar=$(jar_of comments-service)
gateway_jar=${GATEWAY_JAR:-$(jar_of gateway)}

start_memcached "$memcached_port" 64 "$work/memcached.log"
spawn "$work/comments.log" java -Xmx128m -XX:+UseSerialGC -jar "$comments_jar" --server.port="$comments_port" \
    --comments.max-age=3600s
comments_pid=$spawned
# Deep stacks: a hit runs through some 100 frames of Reactor operators, and JFR keeps 64 by default.
spawn "$work/gateway.log" "$java" "${java_opts[@]}" -XX:FlightRecorderOptions:stackdepth=256 -jar "$gateway_jar" --server.port="$gateway_port" \
    --management.server.port="$management_port" --memcached.servers="127.0.0.1:$memcached_port" \
    --comments-service.uri="http://127.0.0.1:$comments_port" "${extra_args[@]}"
gateway_pid=$spawned
await "http://127.0.0.1:$comments_port/actuator/health" 90 "$comments_pid" "$work/comments.log"
await "http://127.0.0.1:$management_port/actuator/health/readiness" 120 "$gateway_pid" "$work/gateway.log"

url=http://127.0.0.1:$gateway_port$path
curl -fs -o /dev/null --max-time 5 "$url" || fail "GET $path"
await_x_cache "$url" HIT 10 || fail "no HIT for $path"

hits_for() { wrk -t"$threads" -c"$connections" -d"$1s" "$url"; }

log "warming up for ${warm_up}s"
warm_in_two_runs "$warm_up" hits_for
log "recording ${seconds}s"
jcmd_out=$("$(dirname "$jfr_tool")/jcmd" "$gateway_pid" JFR.start name=hit settings=profile filename="$recording")
grep -q Started <<<"$jcmd_out" || fail "JFR did not start: $jcmd_out"
cpu=$(cpu_of "$gateway_pid") jit=$(jit_cpu "$gateway_pid")
wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "$url" >"$work/wrk.txt"
cpu=$(($(cpu_of "$gateway_pid") - cpu)) jit=$(($(jit_cpu "$gateway_pid") - jit))
"$(dirname "$jfr_tool")/jcmd" "$gateway_pid" JFR.stop name=hit >/dev/null
await_x_cache "$url" HIT 5 || fail "the path is no longer a hit"

requests=$(awk '/ requests in / { print $1 }' "$work/wrk.txt")
echo "Hit on $path: wrk -t$threads -c$connections -d${seconds}s, $("$java" -version 2>&1 | head -n 1), ${java_opts[*]}"
echo "  $(grep '^Requests/sec' "$work/wrk.txt"), gateway CPU $((cpu / requests)) µs per hit (with JFR recording)"
echo "  non-2xx: $(wrk_field "$work/wrk.txt" non-2xx | grep . || echo 0)"
echo "  the JIT compiler's CPU while recording: $((jit / 1000)) ms ($((jit * 100 / (cpu + 1)))% of the gateway's)"
echo
"$jfr_tool" view --width 160 hot-methods "$recording" | head -n 30
echo
"$jfr_tool" view --width 160 allocation-by-class "$recording" | head -n 25
echo
echo "Share of the CPU samples whose stack holds each part (inclusive; parts overlap):"
"$jfr_tool" print --stack-depth 256 --events jdk.ExecutionSample "$recording" | python3 -c '
import re, sys
parts = [
    ("the server observation (http.server.requests)", "io.micrometer.observation.SimpleObservation"),
    ("Spring'"'"'s WebHandler: exchange, filter chain, errors", "HttpWebHandlerAdapter"),
    ("the early hit (predicates, lookup, answer)", "EarlyHitFilter.filter"),
    ("a fresh hit below the WebHandler (memcached.cache.hits-skip-web-filters)", "FastHitHandler.handle"),
    ("its exchange, for the route predicates", "DefaultServerWebExchange.<init>"),
    ("route predicates tried", "SyncPredicates"),
    ("lookup sent to spymemcached'"'"'s queue", "PoolClient.enqueue"),
    ("lookup completed on the event loop", "FutureBridge.complete"),
    ("answer written (headers, body)", "CapturedResponseWriter.write"),
    ("response encoding (Netty)", "HttpObjectEncoder"),
    ("request decoding (Netty)", "HttpObjectDecoder"),
    ("spymemcached I/O thread", "MemcachedConnection.run"),
    ("meters (Micrometer core)", "io.micrometer.core"),
    ("tracing: the handlers of Micrometer Tracing", "io.micrometer.tracing"),
    ("tracing: the OpenTelemetry SDK (spans, export)", "io.opentelemetry.sdk"),
    ("tracing: the decision before the server observation", "HeadSampler"),
]
samples = sys.stdin.read().split("jdk.ExecutionSample {")[1:]
for name, frame in parts:
    share = sum(frame in s for s in samples) / max(len(samples), 1)
    print(f"  {share:6.1%}  {name}")
print(f"  ({len(samples)} samples)")'
echo
echo "Recording: $recording"
if [ -z "${RECORDING:-}" ]; then cp "$recording" "/tmp/hit-$(date +%s).jfr" && echo "  copied to /tmp"; fi
