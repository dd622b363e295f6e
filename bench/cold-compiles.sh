#!/usr/bin/env bash
# What a cold gateway's JIT compiler still has to do once its warm-up is over: the gateway jar with the image's JVM
# flags and warm-up, in front of a comments-service asked straight first (a new replica joins a warm backend), gets
# real misses from the moment its readiness says UP. Prints the warm-up's own log line, the misses' requests/s in
# each window of 10 s and over their first 5 s against the rest, and how many methods C2 compiled before ready and in
# the windows after it (-XX:+PrintCompilation), so that a warm-up change or a JIT flag can be judged by what it leaves
# for real traffic.
#
#   flock /tmp/bench.lock bench/cold-compiles.sh [JAVA FLAG...]
#   e.g. bench/cold-compiles.sh -XX:CICompilerCount=3
#
# BOUND (58s, as the image) sets memcached.warm-up.duration and ready-within; SECONDS_ASKED (180) how long the misses
# go on; GATEWAY_JAR another build. COMPILE_TIMES=1 also records the compilations with Flight Recorder and prints how
# long C2 was busy before ready, in the first 5 s after it and later, how much of that went to compiling a method
# again, the deoptimisations that sent methods back to be compiled, what C2 compiled and deoptimised in the first 5 s,
# and why C2 still had the methods of the first 10 s to compile: what the warm-up left for the first real requests.
# HIT_PATH=/api/v1/comments/1 (or any cacheable path) asks for hits on that path instead of real misses: stored by one
# request once ready, then asked by every request.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

bound=${BOUND:-58s}
seconds=${SECONDS_ASKED:-180}
memcached_port=31111 comments_port=31112 gateway_port=31113 management_port=31114
image_jvm
read -ra java_opts <<<"$GATEWAY_JAVA_OPTS"
need memcached memcached
need wrk wrk
for port in "$memcached_port" "$comments_port" "$gateway_port" "$management_port"; do
    port_free "$port" || fail "port $port is taken"
done
work=$(mktemp -d)
trap 'finish $? "$work" "${pids[@]}"' EXIT INT TERM

start_memcached "$memcached_port" 1024 "$work/memcached.log"
spawn "$work/comments.log" java -Xmx96m -XX:+UseSerialGC -jar "$(jar_of comments-service)" \
    --server.address=127.0.0.1 --server.port="$comments_port"
await "http://127.0.0.1:$comments_port/actuator/health" 90 "$spawned" "$work/comments.log"
log "asking comments-service straight for 20 s first"
next_fresh_base
wrk -t2 -c50 -d20s -s bench/fresh-ids.lua "http://127.0.0.1:$comments_port/api/v1/comments/" -- "$fresh_base" \
    >/dev/null

recording=()
# Every compilation's duration, not only those over Flight Recorder's default threshold of a second.
[ -n "${COMPILE_TIMES:-}" ] &&
    recording=("-XX:StartFlightRecording=filename=$work/compiles.jfr,settings=default,+jdk.Compilation#threshold=0ms")
started=$(date +%s%N)
spawn "$work/gateway.log" "$GATEWAY_JAVA" "${java_opts[@]}" -XX:+PrintCompilation "${recording[@]}" "$@" \
    -jar "${GATEWAY_JAR:-$(jar_of gateway)}" --server.address=127.0.0.1 --server.port="$gateway_port" \
    --management.server.port="$management_port" --comments-service.uri="http://127.0.0.1:$comments_port" \
    --memcached.servers="127.0.0.1:$memcached_port" --memcached.warm-up.duration="$bound" \
    --memcached.warm-up.ready-within="$bound"
# Polled often: the moment of ready is what the compilations are counted from.
gateway=$spawned
await_ready "http://127.0.0.1:$management_port/actuator/health/readiness" 150 "$gateway" "$work/gateway.log"
ready_ms=$((($(date +%s%N) - started) / 1000000))
next_fresh_base
asked=(/api/v1/comments/ -- "$fresh_base") kind="Real misses"
if [ -n "${HIT_PATH:-}" ]; then
    # A request or two, as the benchmark's warm-up case stores its hit's item.
    asked=("$HIT_PATH") kind="Hits on $HIT_PATH"
    await_x_cache "http://127.0.0.1:$gateway_port$HIT_PATH" HIT 10 || fail "no HIT for $HIT_PATH"
fi
log "ready after $ready_ms ms; ${kind,} for $seconds s"
wrk -t2 -c50 -d"${seconds}s" -s bench/per-second.lua "http://127.0.0.1:$gateway_port${asked[0]}" "${asked[@]:1}" \
    >"$work/wrk.txt"

echo "Ready after $ready_ms ms (from the java command), flags: ${java_opts[*]} $*"
# Its one line, whichever way it ended: warmed up, skipped for a bound the start took, or stopped early.
grep -a -o -E '(Warmed up|No warm-up|The warm-up stopped early).*' "$work/gateway.log" || echo "no warm-up line in the log"
echo "$kind, requests/s in each 10 s from ready:"
awk -F'\t' '/^[0-9]+\t[0-9]+$/ { window[int(($1 - 1) / 10)] += $2; last = int(($1 - 1) / 10) }
    END { for (i = 0; i < last; i++) printf " %d", window[i] / 10; print "" }' "$work/wrk.txt"
# The warm-up's aim (docs/request-flow.md#warm-up): the first 5 s at 0.8 of the steady rate, here the mean of the
# seconds from the 11th on, once the compiler has caught up (the last, cut short, left out); counted and windowed as
# the benchmark's report does it.
PYTHONPATH=bench python3 - "$work/wrk.txt" <<'PY'
import statistics, sys
from report import WARM_UP_WINDOW, parse_per_second, window_fraction
counts = parse_per_second(open(sys.argv[1]).read())
if len(counts) > 11:
    steady = statistics.mean(counts[10:-1])
    first = window_fraction(counts, 0, steady)
    print(f"First {WARM_UP_WINDOW} s: {first * steady:.0f} requests/s, {first:.2f} of the {steady:.0f} from the 11th second on")
PY
# PrintCompilation's lines: milliseconds since the JVM started, the compile id, flags, the tier, the method. The JVM
# starts a few milliseconds after the java command and readiness is polled every 50 ms, so a compilation in the
# first moments after ready may count as before it.
echo "C2 (tier 4) compilations before ready, then in each 10 s after it:"
awk -v ready="$ready_ms" '$0 !~ /made not entrant/ && match($0, /^ *[0-9]+ +[0-9]+ +[%sbn! ]* 4 +[^ ]+::/) {
        at = $1 + 0
        if (at < ready) { before++ } else { window[int((at - ready) / 10000)]++ }
    }
    END { printf " %d |", before; for (i = 0; i < 6; i++) printf " %d", window[i]; print "" }' "$work/gateway.log"
[ -n "${COMPILE_TIMES:-}" ] || exit 0
stop_all "$gateway" # Flight Recorder writes its recording as the JVM exits.
"$(dirname "$(readlink -f "$GATEWAY_JAVA")")/jfr" print --json --events jdk.Compilation,jdk.Deoptimization \
    "$work/compiles.jfr" >"$work/compiles.json"
python3 - "$work/compiles.json" "$((started / 1000000))" "$ready_ms" <<'PY'
import collections, datetime, json, re, sys
events = json.load(open(sys.argv[1]))["recording"]["events"]
started, ready = int(sys.argv[2]) / 1000, int(sys.argv[3]) / 1000

WINDOW = 5  # the warm-up's aim is about the first 5 s after ready; later includes the load's end and the exit
PHASES = ("before ready", f"in the first {WINDOW} s after", "later")

def since_ready(event):  # the timestamps carry nanoseconds, which Python does not parse
    stamp = re.sub(r"(\.\d{6})\d*", r"\1", event["values"]["startTime"]).replace("Z", "+00:00")
    return datetime.datetime.fromisoformat(stamp).timestamp() - started - ready

def phase(event):  # its start against ready
    at = event["at"]
    return PHASES[0] if at < 0 else PHASES[1] if at < WINDOW else PHASES[2]

def seconds(event):
    minutes, secs = re.fullmatch(r"PT(?:(\d+)M)?([\d.]+)S", event["values"]["duration"]).groups()
    return int(minutes or 0) * 60 + float(secs)

def method(event):
    return f'{event["values"]["method"]["type"]["name"].rsplit("/", 1)[-1]}.{event["values"]["method"]["name"]}'

def package(event):
    return event["values"]["method"]["type"]["name"].rsplit("/", 1)[0].replace("/", ".")

def where(event):
    return f'{method(event)}:{event["values"]["lineNumber"]} {event["values"]["reason"]}'

def name(event):  # an overload, or a compilation on stack replacement, is another method
    signature = event["values"]["method"]
    return signature["type"]["name"], signature["name"], signature["descriptor"], event["values"]["isOsr"]

for event in events:  # read once: each event is counted in more than one figure below
    event["at"] = since_ready(event)
    event["phase"] = phase(event)
compilations = sorted((e for e in events if e["type"] == "jdk.Compilation"), key=lambda e: e["values"]["compileId"])
profiled = {}  # when C1 first compiled a method with its full profile (tier 3)
for event in compilations:
    if event["values"]["compileLevel"] == 3:
        profiled.setdefault(name(event), event["at"])
c2 = [e for e in compilations if e["values"]["compileLevel"] == 4]
compiled, busy, again = set(), collections.Counter(), collections.Counter()
# Why C2 still had a method to compile in the first 10 s after ready: compiled before and thrown away; profiled by C1
# well before ready, so run all through the warm-up, yet not come up for C2 (whose thresholds HotSpot scales up with
# the length of its queue); or new.
left = collections.Counter()
for event in c2:
    when, took, key = event["phase"], seconds(event), name(event)
    busy[when] += took
    if key in compiled:
        again[when] += took
    if 0 <= event["at"] < 10:
        left["compiled again" if key in compiled
             else "profiled by C1 over 10 s before ready" if profiled.get(key, 0) < -10 else "new"] += 1
    compiled.add(key)
print(f"Ready after {ready:.1f} s. C2 busy, and of that compiling a method again:",
      "; ".join(f"{when} {busy[when]:.1f} s, {again[when]:.1f} s" for when in PHASES))
print("C2 compilations in the first 10 s after ready:", ", ".join(f"{why} {count}" for why, count in left.items()))
deopts = [e for e in events if e["type"] == "jdk.Deoptimization"]
for when in PHASES:
    reasons = collections.Counter(e["values"]["reason"] for e in deopts if e["phase"] == when)
    print(f"Deoptimisations {when}: {sum(reasons.values())},",
          ", ".join(f"{reason} {count}" for reason, count in reasons.most_common(4)))
# What the warm-up left for the first real requests: code its own requests did not run, not often enough, or not the
# way the real route does; the deoptimised methods name the branches.
first_c2 = [e for e in c2 if e["phase"] == PHASES[1]]
first_deopts = [e for e in deopts if e["phase"] == PHASES[1]]
for label, chosen, key, top in (("C2 compilations by package", first_c2, package, 10),
                                ("C2 compiled", first_c2, method, 30),
                                ("Deoptimised", first_deopts, where, 15)):
    print(f"{label} {PHASES[1]}:",
          ", ".join(f"{name} {count}" for name, count in collections.Counter(map(key, chosen)).most_common(top)))
PY
