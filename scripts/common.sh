# The helpers of every script in bench/, scripts/ and e2e/: messages, installing a missing tool from Debian's
# packages, the jars, starting and stopping processes, waiting for a server, reading X-Cache, and talking to
# memcached. A script sets $log_prefix (its name by default) and sources this file.
# shellcheck shell=bash

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log_prefix=${log_prefix:-$(basename "$0" .sh)}
# What spawn started: stop_all stops these on exit.
pids=()

# Progress goes to stderr, so that a script's stdout carries only its results.
log() { printf '%s: %s\n' "$log_prefix" "$*" >&2; }

fail() {
    printf '%s: FAILED: %s\n' "$log_prefix" "$*" >&2
    exit 1
}

# show_logs FILE...: the end of each file, for a failure's context.
show_logs() {
    local file
    for file in "$@"; do
        printf -- '--- last lines of %s ---\n' "$file" >&2
        tail -n 40 "$file" >&2 || true
    done
}

# apt_install PACKAGE...: installs Debian packages when running as root; `apt-get update` only if the package lists
# do not have them, since updating takes long and the lists of a fresh machine usually do.
apt_install() {
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then return 1; fi
    # Installing Debian's nginx would start the system nginx on port 80; deny it, as the package allows.
    local policy=/usr/sbin/policy-rc.d created=false output status=0
    if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created=true; fi
    output=$(mktemp)
    # Another apt-get (unattended upgrades, say) may hold the lock for a while.
    local install=(apt-get -o DPkg::Lock::Timeout=300 install -y -qq)
    { DEBIAN_FRONTEND=noninteractive "${install[@]}" "$@" ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${install[@]}" "$@"; }; } >"$output" 2>&1 || status=$?
    if $created; then rm -f "$policy"; fi
    if [ "$status" -ne 0 ]; then show_logs "$output"; fi
    rm -f "$output"
    return "$status"
}

# need COMMAND PACKAGE: installs PACKAGE when COMMAND is missing; returns non-zero, saying so, if it still is.
need() {
    command -v "$1" >/dev/null && return 0
    log "installing $2"
    apt_install "$2" || true
    command -v "$1" >/dev/null || { log "$1 is missing (Debian package $2)"; return 1; }
}

# jar_of MODULE: the module's executable jar, after building the jars if it is missing. The *.jar.original next to
# it is the plain one, without dependencies.
jar_of() {
    local jar
    jar=$(compgen -G "$root/$1/target/$1-*.jar" | grep -v '\.original$' | head -n 1 || true)
    if [ -z "$jar" ]; then
        log "building the jars"
        (cd "$root" && ./mvnw -B -q package -DskipTests) >&2 || fail "the build failed"
        jar=$(compgen -G "$root/$1/target/$1-*.jar" | grep -v '\.original$' | head -n 1 || true)
    fi
    [ -n "$jar" ] || fail "the build left no jar under $root/$1/target"
    printf '%s\n' "$jar"
}

# spawn LOGFILE COMMAND...: runs COMMAND in the background with its output in LOGFILE, adds it to $pids and leaves
# its pid in $spawned.
spawn() {
    local logfile=$1
    shift
    "$@" >"$logfile" 2>&1 &
    spawned=$!
    pids+=("$spawned")
}

# stop_all PID...: last started, first stopped, so that no server sees what it depends on go away before itself. A
# paused process is resumed first, or it could not take the signal; one that ignores it for 5 s is killed.
stop_all() {
    local i pid waited
    for ((i = $#; i >= 1; i--)); do
        kill -CONT "${!i}" 2>/dev/null || true
        kill -TERM "${!i}" 2>/dev/null || true
    done
    for pid in "$@"; do
        waited=0
        while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 50 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}

# finish STATUS WORKDIR PID...: for an EXIT trap. Stops the processes, shows the end of every log under WORKDIR if
# STATUS is a failure, removes WORKDIR and exits with STATUS.
finish() {
    local status=$1 work=$2
    shift 2
    trap - EXIT INT TERM
    stop_all "$@"
    if [ "$status" -ne 0 ]; then find "$work" -name '*.log' -exec tail -n 30 {} + 2>/dev/null || true; fi
    rm -rf "$work"
    exit "$status"
}

# port_free PORT: nothing listens on PORT, which would otherwise answer the readiness checks in place of what a
# script starts.
port_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# await URL SECONDS [PID LOGFILE...]: waits until URL answers 2xx, asking with curl every 0.5 s. Fails after SECONDS,
# or as soon as process PID has exited, with the end of the log files.
await() { await_with curl_ok 0.5 "$@"; }

# await_ready URL SECONDS [PID LOGFILE...]: the same for a start that is timed on the cores the process starts on:
# every 50 ms, until URL (http://HOST:PORT/PATH) answers 200, without starting a process to ask or to wait. curl costs
# about 11 ms of CPU a call here, so asking with it every 50 ms took a tenth of two cores from a starting JVM, whose
# warm-up is bound by its CPU; a cluster's readiness probe asks every few seconds.
await_ready() { await_with http_ok 0.05 "$@"; }

await_with() {
    local probe=$1 every=$2 url=$3 seconds=$4 pid=${5:-} deadline=$((SECONDS + $4))
    shift $(($# < 5 ? $# : 5))
    until "$probe" "$url"; do
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
            show_logs "$@"
            fail "what should answer $url exited during start-up"
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            show_logs "$@"
            fail "no answer from $url within $seconds s"
        fi
        sleep_in_shell "$every"
    done
}

curl_ok() { curl -fs -o /dev/null --max-time 2 "$1"; }

# http_ok URL: whether URL (http://HOST:PORT/PATH) answers 200, asked over bash's own /dev/tcp.
http_ok() {
    local rest=${1#http://} address path status fd
    address=${rest%%/*} path=/${rest#*/}
    [ "$rest" != "$address" ] || path=/
    { exec {fd}<>"/dev/tcp/${address%:*}/${address##*:}"; } 2>/dev/null || return 1
    printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' "$path" "$address" >&"$fd"
    read -r -t 2 -u "$fd" _ status _ || status=
    exec {fd}>&-
    [ "$status" = 200 ]
}

# sleep_in_shell SECONDS: sleeps without starting a process: read's timeout, on a pipe that this shell also holds
# open for writing, so that read neither gets data nor sees the pipe's end.
sleep_in_shell() {
    [ -n "${sleep_fd:-}" ] || exec {sleep_fd}<> <(:)
    read -r -t "$1" -u "$sleep_fd" || true
}

# header NAME: the value of header NAME (lower case) in the response head on stdin.
header() {
    tr -d '\r' | awk -F': *' -v name="$1" 'tolower($1) == name { print $2 }'
}

# x_cache URL [SECONDS]: the X-Cache header of URL's answer (empty if none within SECONDS, 5 by default).
x_cache() {
    curl -s -o /dev/null -D - --max-time "${2:-5}" "$1" | header x-cache
}

# await_x_cache URL VALUE SECONDS: asks URL until its X-Cache is VALUE; non-zero if it is not within SECONDS. A gateway
# stores a miss after answering it, so the item may land a moment after the first answer.
await_x_cache() {
    local deadline=$((SECONDS + $3))
    until [ "$(x_cache "$1" 2)" = "$2" ]; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

# memcached_ask PORT COMMAND: memcached's reply on 127.0.0.1:PORT to one text-protocol command, without the \r.
memcached_ask() {
    { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
    printf '%s\r\nquit\r\n' "$2" >&3
    timeout 2 cat <&3 | tr -d '\r'
    exec 3<&-
}

# memcached_stat PORT NAME: one value of memcached's `stats`.
memcached_stat() {
    memcached_ask "$1" stats | awk -v name="$2" '$1 == "STAT" && $2 == name { print $3 }'
}

# start_memcached PORT MEGABYTES LOGFILE: a memcached on 127.0.0.1:PORT, spawned, and answering once this returns.
start_memcached() {
    local port=$1 tries=0
    # memcached refuses to run as root without -u; as another user it ignores it. Its own session puts it in a
    # scheduling group of its own where the kernel groups tasks by session (sched_autogroup), as a memcached on its own
    # host or container is. In the script's group it took turns with wrk's threads, and waited up to 270 ms for a CPU
    # with the gateway's commands unread, so the gateway (in its container's group) rightly timed it out.
    spawn "$3" setsid memcached -u nobody -l 127.0.0.1 -p "$port" -m "$2" -c 4096
    until [[ $(memcached_ask "$port" version) == VERSION* ]]; do
        if ! kill -0 "$spawned" 2>/dev/null || [ "$tries" -ge 50 ]; then
            show_logs "$3"
            fail "memcached did not come up on $port"
        fi
        sleep 0.1
        tries=$((tries + 1))
    done
}

# wrk_field FILE requests|rate|non-2xx|socket-errors|p50|p99: one figure of a `wrk --latency` output as wrk prints
# it, empty when wrk has no line for it (it prints none for zero non-2xx answers or socket errors).
wrk_field() {
    case $2 in
        requests) awk '/ requests in / { print $1; exit }' "$1" ;;
        rate) awk '/^Requests\/sec:/ { print $2; exit }' "$1" ;;
        non-2xx) awk '/Non-2xx or 3xx responses/ { print $NF }' "$1" ;;
        socket-errors) sed -n 's/.*Socket errors: //p' "$1" ;;
        p50 | p99) awk -v p="${2#p}%" '$1 == p { print $2 }' "$1" ;;
        *) fail "wrk_field: no field $2" ;;
    esac
}

# image_jvm: GATEWAY_JAVA and GATEWAY_JAVA_OPTS, where the caller has not set them, for a gateway run as its image
# runs it (gateway/Dockerfile): Java 25 where the machine has Temurin's, the image's G1 settings with the heap that
# 55% of its 512 MB limit gives, committed from the start, Reactor Netty on NIO, C2's smaller inlining bound, and the
# image's Java 25 options, which a Java before 24 refuses. bench/test_image_jvm.py checks that the two lists agree.
image_jvm() {
    local temurin25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java feature
    if [ -z "${GATEWAY_JAVA:-}" ]; then
        if [ -x "$temurin25" ]; then GATEWAY_JAVA=$temurin25; else GATEWAY_JAVA=java; fi
    fi
    if [ -z "${GATEWAY_JAVA_OPTS+set}" ]; then
        GATEWAY_JAVA_OPTS="-XX:+UseG1GC -Xms281m -Xmx281m -XX:MaxHeapFreeRatio=100 -XX:NewRatio=1 -XX:SurvivorRatio=3"
        GATEWAY_JAVA_OPTS+=" -XX:TargetSurvivorRatio=80 -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError"
        GATEWAY_JAVA_OPTS+=" -Dreactor.netty.native=false -XX:InlineSmallCode=1000"
        feature=$("$GATEWAY_JAVA" -XshowSettings:properties -version 2>&1 |
            awk '/java.specification.version/ { print $3 }')
        if [ "${feature:-0}" -ge 24 ]; then
            GATEWAY_JAVA_OPTS+=" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
        fi
    fi
}

# reverse NAME: reverses the array variable NAME in place; the benchmark's alternating rounds measure their sides in
# the order of the round before, reversed, so that no side is always measured first on a machine whose load drifts.
reverse() {
    local -n reversed=$1
    local i j swap
    for ((i = 0, j = ${#reversed[@]} - 1; i < j; i++, j--)); do
        swap=${reversed[i]} reversed[i]=${reversed[j]} reversed[j]=$swap
    done
}

# next_fresh_base: sets fresh_base to the first id of the next range of fresh ids (fresh-ids.lua's argument), far
# above every id an earlier range of this shell holds, so that a run of real misses never asks an id asked before.
# It counts in fresh_runs: call it in the shell that keeps the count, not in a subshell.
next_fresh_base() {
    fresh_runs=$((${fresh_runs:-0} + 1))
    # shellcheck disable=SC2034 # the caller reads it
    fresh_base=$((fresh_runs * 100000000000))
}

# warm_in_two_runs SECONDS COMMAND...: runs COMMAND with a number of seconds added, as a load for that long: for
# three quarters of SECONDS, then for the last quarter. When the connections of a JVM's first run of load close, its
# JIT throws away Netty's compiled read path, whose end-of-stream and failed-read branches it had never seen taken,
# and compiles it again under the next load (bench/README.md, "The hit's profile"): a measurement right after a
# single run would hold that.
warm_in_two_runs() {
    local seconds=$1
    shift
    "$@" $((seconds - seconds / 4)) >/dev/null
    "$@" $((seconds / 4)) >/dev/null
}

# cpu_of PID: the CPU time the process has used so far (user and system), in microseconds.
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%d\n", ($14 + $15) * 1000000 / hz }' "/proc/$1/stat"; }

# cpu_by_thread PID: the CPU time (user and system, in microseconds) the JVM's threads have used so far, summed by
# what they do, one "kind microseconds" line each: event-loop (Reactor Netty's), memcached-io (spymemcached's I/O
# thread), span-export (OpenTelemetry's batch processor and its OTLP HTTP client), gc, jit, other. Read with bash's
# own `read`, so that a thread ending during the read is skipped rather than pairing one thread's name with another's
# times.
cpu_by_thread() {
    local task name stat
    for task in /proc/"$1"/task/*; do
        if ! { read -r name 2>/dev/null <"$task/comm" && read -r stat 2>/dev/null <"$task/stat"; }; then
            continue
        fi
        # The fields after "(name) ": a thread's name may hold spaces and parentheses.
        printf '%s\t%s\n' "$name" "${stat##*) }"
    done | awk -F'\t' -v hz="$(getconf CLK_TCK)" '
        { split($2, field, " ")
          kind = $1 ~ /^reactor-http-/ ? "event-loop" : $1 ~ /^Memcached IO/ ? "memcached-io" \
              : $1 ~ /^(BatchSpanProcessor|okhttp|OkHttp|Okio)/ ? "span-export" \
              : $1 ~ /^(GC Thread|G1 |VM Thread)/ ? "gc" : $1 ~ /^C[12] CompilerThre/ ? "jit" : "other"
          cpu[kind] += (field[12] + field[13]) * 1000000 / hz }
        END { for (kind in cpu) printf "%s %d\n", kind, cpu[kind] }'
}

# jit_cpu PID: the CPU time (microseconds) the JVM's JIT compiler threads have used so far (cpu_by_thread); 0 for a
# JVM without threads of that name (Graal's are "JVMCI CompilerThread"), so that its callers' sums still hold.
jit_cpu() { cpu_by_thread "$1" | awk '$1 == "jit" { jit = $2 } END { print jit + 0 }'; }
