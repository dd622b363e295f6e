#!/usr/bin/env bash
# What tracing costs a hit: the demo gateway as shipped (no tracing bridge, so the cache makes no spans) against the
# same gateway built with Boot's OpenTelemetry starter (-Ptracing), sampling 10% and exporting over OTLP to a sink
# that takes every batch, as Boot sets it up ("on") and with what a hit does not need left out ("lean": W3C
# traceparent alone read, no baggage, no trace ids in the logs' MDC). All three run side by side on one memcached and
# comments-service, each warmed for $WARM_SECONDS under load, then measured in alternating rounds of wrk -t1 -c50 on
# one hit.
#
#   bench/tracing-cost.sh          (needs memcached, wrk and the jars; builds the tracing jar if it is missing)
#
# GATEWAY_JAR, TRACING_JAR and COMMENTS_JAR name jars to run instead of those under target/ (copies, so that a build
# during the run does not replace a jar under a running JVM).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/../scripts/common.sh"

ROUNDS=${ROUNDS:-3}
ROUND_SECONDS=${ROUND_SECONDS:-20}
WARM_SECONDS=${WARM_SECONDS:-60}
image_jvm
read -ra java_opts <<<"$GATEWAY_JAVA_OPTS"
memcached_port=21211 comments_port=24567 sink_port=24318
declare -A port=([off]=28080 [on]=28090 [lean]=28100)
sides=(off on lean)
path=/api/v1/comments/1

need memcached memcached
need wrk wrk
work=$(mktemp -d)
trap 'finish $? "$work" "${pids[@]}"' EXIT
plain_jar=${GATEWAY_JAR:-$(jar_of gateway)}
comments_jar=${COMMENTS_JAR:-$(jar_of comments-service)}
tracing_jar=${TRACING_JAR:-$(compgen -G "$root/gateway/target/tracing/gateway-*.jar" | grep -v '\.original$' | head -n 1 || true)}
if [ -z "$tracing_jar" ]; then
    log "building the gateway with tracing"
    (cd "$root" && ./mvnw -B -q -Ptracing -DskipTests package -pl gateway -am) >&2 || fail "the tracing build failed"
    tracing_jar=$(compgen -G "$root/gateway/target/tracing/gateway-*.jar" | grep -v '\.original$' | head -n 1)
fi

start_memcached "$memcached_port" 64 "$work/memcached.log"
spawn "$work/comments.log" java -jar "$comments_jar" --server.address=127.0.0.1 \
    --server.port="$comments_port" --comments.max-age=3600s
# The OTLP sink: takes every export, as a collector does, so that the exporter does its whole work.
spawn "$work/sink.log" python3 -c '
import http.server, sys
class Sink(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
        print(self.path, flush=True)
    def log_message(self, *args): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()' "$sink_port"
sink_pid=$spawned
common=(--server.address=127.0.0.1 --management.server.address=127.0.0.1
    --comments-service.uri="http://127.0.0.1:$comments_port" --memcached.servers="127.0.0.1:$memcached_port")
declare -A pid
spawn "$work/off.log" "$GATEWAY_JAVA" "${java_opts[@]}" -jar "$plain_jar" "${common[@]}" \
    --server.port="${port[off]}" --management.server.port=28081
pid[off]=$spawned
traced=(--management.tracing.sampling.probability=0.1 --management.otlp.metrics.export.enabled=false
    --management.opentelemetry.tracing.export.otlp.endpoint="http://127.0.0.1:$sink_port/v1/traces")
spawn "$work/on.log" "$GATEWAY_JAVA" "${java_opts[@]}" -jar "$tracing_jar" "${common[@]}" "${traced[@]}" \
    --server.port="${port[on]}" --management.server.port=28091
pid[on]=$spawned
spawn "$work/lean.log" "$GATEWAY_JAVA" "${java_opts[@]}" -jar "$tracing_jar" "${common[@]}" "${traced[@]}" \
    --server.port="${port[lean]}" --management.server.port=28101 --management.tracing.propagation.consume=W3C \
    --management.tracing.baggage.enabled=false --management.tracing.baggage.correlation.enabled=false
pid[lean]=$spawned
for side in "${sides[@]}"; do
    await "http://127.0.0.1:${port[$side]}$path" 120 "${pid[$side]}" "$work/$side.log"
    await_x_cache "http://127.0.0.1:${port[$side]}$path" HIT 10 || fail "no hit with tracing $side"
    # Whether its fresh hits are answered below Spring's WebHandler, and if not, why.
    grep -o -m1 -E 'Fresh hits [^:;]*' "$work/$side.log" | sed "s/^/tracing $side: /" || true
done

hits_for() { wrk -t1 -c50 -d"$2s" "$1"; }

for side in "${sides[@]}"; do
    log "warming the gateway with tracing $side for $WARM_SECONDS s"
    warm_in_two_runs "$WARM_SECONDS" hits_for "http://127.0.0.1:${port[$side]}$path"
done
order=("${sides[@]}")
for round in $(seq "$ROUNDS"); do
    for side in "${order[@]}"; do
        gateway_cpu=$(cpu_of "${pid[$side]}") sink_cpu=$(cpu_of "$sink_pid")
        cpu_by_thread "${pid[$side]}" >"$work/threads-before.txt"
        wrk -t1 -c50 -d"${ROUND_SECONDS}s" "http://127.0.0.1:${port[$side]}$path" >"$work/wrk-$side.txt"
        gateway_cpu=$(($(cpu_of "${pid[$side]}") - gateway_cpu)) sink_cpu=$(($(cpu_of "$sink_pid") - sink_cpu))
        [ -z "$(wrk_field "$work/wrk-$side.txt" non-2xx)" ] || fail "non-2xx answers with tracing $side"
        # Where the gateway's CPU went, by its threads' kind: "round side kind µs/hit" lines.
        cpu_by_thread "${pid[$side]}" | awk -v round="$round" -v side="$side" \
            -v requests="$(wrk_field "$work/wrk-$side.txt" requests)" \
            'NR == FNR { before[$1] = $2; next } { printf "%s %s %s %.2f\n", round, side, $1, ($2 - before[$1]) / requests }' \
            "$work/threads-before.txt" - >>"$work/threads.txt"
        awk -v round="$round" -v side="$side" -v rate="$(wrk_field "$work/wrk-$side.txt" rate)" \
            -v requests="$(wrk_field "$work/wrk-$side.txt" requests)" -v gateway="$gateway_cpu" -v sink="$sink_cpu" \
            'BEGIN { printf "round %d, tracing %s: %d req/s, gateway CPU %.1f µs/hit, sink CPU %.1f µs/hit\n",
                round, side, rate, gateway / requests, sink / requests }' | tee -a "$work/rounds.txt"
    done
    reverse order
done
exports=$(grep -c '^/v1/traces' "$work/sink.log" || true)
[ "$exports" -gt 0 ] || fail "the gateway with tracing exported no spans"
log "the gateway with tracing exported $exports batches of spans"
# Each round's sides ran one after the other, so a round's ratio is the least touched by the machine's drift over
# the run; the median of those is the measure, the ratio of the whole runs' sums is printed beside it.
# The CPU per hit of the gateway and of the sink (which stands for a collector, elsewhere in a deployment, but takes
# its share of these 2 cores here) says how much of a side's loss is the gateway's own work.
python3 - "$work/rounds.txt" "$ROUNDS" "$work/threads.txt" <<'EOF'
import collections, re, statistics, sys
rate, gateway, sink = {}, {}, {}
for line in open(sys.argv[1]):
    round_, side, value, cpu, sink_cpu = re.match(
        r"round (\d+), tracing (\w+): (\d+) req/s, gateway CPU ([0-9.]+) µs/hit, sink CPU ([0-9.]+)", line).groups()
    rate[round_, side], gateway[round_, side], sink[round_, side] = int(value), float(cpu), float(sink_cpu)
rounds = sorted({r for r, _ in rate}, key=int)
for side in ("on", "lean"):
    ratios = [rate[r, side] / rate[r, "off"] for r in rounds]
    whole = sum(rate[r, side] for r in rounds) / sum(rate[r, "off"] for r in rounds)
    print(f"tracing {side} (10% sampled) against off, {sys.argv[2]} rounds: {statistics.median(ratios):.3f}"
          f" (median of the rounds' {', '.join(f'{x:.3f}' for x in ratios)}; whole runs {whole:.3f})")
for side in ("off", "on", "lean"):
    ratios = [gateway[r, side] / gateway[r, "off"] for r in rounds]
    print(f"tracing {side}: gateway CPU {statistics.median(gateway[r, side] for r in rounds):.1f} µs/hit, sink CPU "
          f"{statistics.median(sink[r, side] for r in rounds):.1f} µs/hit (medians); the gateway's CPU per hit "
          f"against off: {statistics.median(ratios):.3f} (median of the rounds' {', '.join(f'{x:.3f}' for x in ratios)})")
# Which threads the extra CPU is on: the sampled requests' own work on the event loop, the span export, or the
# collector and the compiler.
threads = collections.defaultdict(list)
for line in open(sys.argv[3]):
    round_, side, kind, value = line.split()
    threads[side, kind].append(float(value))
kinds = sorted({kind for _, kind in threads}, key=lambda kind: -statistics.median(threads["on", kind] or [0]))
for side in ("off", "on", "lean"):
    parts = []
    for kind in kinds:
        value = statistics.median(threads[side, kind] or [0])
        extra = "" if side == "off" else f" ({value - statistics.median(threads['off', kind] or [0]):+.1f})"
        parts.append(f"{kind} {value:.1f}{extra}")
    print(f"tracing {side}: gateway CPU µs/hit by thread (medians{'' if side == 'off' else '; against off'}): "
          + ", ".join(parts))
EOF
