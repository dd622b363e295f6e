#!/usr/bin/env bash
# A rolling update: one replica of the previous release and one of this release share one memcached, in front of an
# origin whose answers carry their resource's version (e2e/rolling_origin.py). The previous release is the last
# commit before writes left marks ($previous); its gateway jar is built from git in a worktree under target/, which
# is removed afterwards, and kept by commit under ~/.cache/memcached-gateway/rolling-update/ (a commit's jar never
# changes), so that later runs, from any clone, skip that build.
# Both gateways run as plain `java -jar` processes with two routes to the origin: /r/** stores bodies (key $uri),
# /w/** whole answers (key http:$uri). One line per check on stdout:
#   PASS / FAIL  what holds between the two releases, as docs/operations.md (A write wins) promises; a FAIL fails
#                the run;
#   SEEN         what the docs say is not covered during a rolling update, as measured, and whether it is what
#                they say; it never fails the run.
# Plain processes on loopback; everything started is stopped on exit.
#
#   e2e/rolling-update.sh   (installs memcached, curl and python3 from Debian's packages if missing; builds this
#                            release's gateway jar if it is missing)
#
# PREVIOUS_JAR and GATEWAY_JAR pick the two jars instead.
set -euo pipefail
cd "$(dirname "$0")/.."

# The last commit before the write marks: its locks say "locked", and it neither sets nor reads a mark.
previous=fb3d60d
# Below Linux's ephemeral range (32768 and up), where an outgoing connection's local port could already hold one.
memcached_port=26211
origin_port=26000
old_port=26080
old_management=26081
new_port=26082
new_management=26083
purge_token=rolling-update-purge-token
# Requests of a coalescing round: one lead, the others split over both replicas.
round_size=12
work=$(mktemp -d)
store=${XDG_CACHE_HOME:-$HOME/.cache}/memcached-gateway/rolling-update
tree=target/rolling-update/previous-tree

# shellcheck source=scripts/common.sh
source scripts/common.sh

drop_tree() {
    if [ -d "$tree" ]; then git worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"; fi
    git worktree prune 2>/dev/null || true
}
cleanup() {
    local status=$?
    drop_tree
    finish "$status" "$work" "${pids[@]}"
}
trap cleanup EXIT INT TERM

# The previous release's jar, built once per commit. Offline first, as CI has every dependency by then (the pom has
# not changed since); online only if that fails.
previous_jar() {
    local commit jar built
    commit=$(git rev-parse --verify -q "$previous^{commit}") ||
        fail "commit $previous is not in this clone (a shallow one?): fetch it, or give PREVIOUS_JAR"
    jar=$store/gateway-$commit.jar
    if [ -f "$jar" ]; then
        printf '%s\n' "$jar"
        return
    fi
    mkdir -p "$store" "$(dirname "$tree")"
    drop_tree
    git worktree add --detach -q "$tree" "$commit" >&2 || fail "git could not check $previous out under $tree"
    log "building the previous release's gateway ($previous)"
    # Its tests are not compiled: only the jar is needed.
    local build=(./mvnw -B -q -pl gateway -am package -Dmaven.test.skip=true)
    if ! (cd "$tree" && "${build[0]}" -o "${build[@]:1}") >&2; then
        log "the offline build failed; building online"
        (cd "$tree" && "${build[@]}") >&2 || fail "the previous release did not build"
    fi
    built=$(compgen -G "$tree/gateway/target/gateway-*.jar" | grep -v '\.original$' | head -n 1 || true)
    [ -n "$built" ] || fail "the previous release's build left no jar"
    # Renamed into place, so that a copy cut short is never taken for the jar by a later run.
    cp "$built" "$jar.$$" && mv "$jar.$$" "$jar"
    drop_tree
    printf '%s\n' "$jar"
}

current_jar() {
    if ! compgen -G "gateway/target/gateway-*.jar" >/dev/null; then
        log "building this release's gateway jar"
        ./mvnw -o -B -q package -Dmaven.test.skip=true -pl gateway -am >&2 || fail "the build failed"
    fi
    jar_of gateway
}

# start_gateway SIDE JAR PORT MANAGEMENT_PORT [SETTING...]: spawned; the caller awaits it. /r/** keeps bodies, /w/** whole
# answers. What the releases say to each other is under test, not speed: on a loaded machine a memcached operation
# past the usual 100 ms would fail, and a miss that waits for another replica's item then asks the backend itself,
# one backend call more. So operations get 3 s, within the lock timeout (5 s).
start_gateway() {
    local body='spring.cloud.gateway.server.webflux.routes[0]' whole='spring.cloud.gateway.server.webflux.routes[1]'
    local origin=http://127.0.0.1:$origin_port
    spawn "$work/$1.log" java -Xmx128m -XX:TieredStopAtLevel=1 -jar "$2" \
        --server.port="$3" --server.address=127.0.0.1 \
        --management.server.port="$4" --management.server.address=127.0.0.1 \
        --memcached.servers="127.0.0.1:$memcached_port" --memcached.operation-timeout=3s \
        --"$body.id=body" --"$body.uri=$origin" --"$body.predicates[0]=Path=/r/**" \
        --"$body.filters[0]=MemcachedCache=\$uri" \
        --"$whole.id=whole" --"$whole.uri=$origin" --"$whole.predicates[0]=Path=/w/**" \
        --"$whole.filters[0].name=MemcachedCache" --"$whole.filters[0].args.item-format=http" "${@:5}"
}

origin() { exec python3 e2e/rolling_origin.py "$origin_port"; }

# --- talking to the gateways, the origin and memcached ---

port_of() { if [ "$1" = old ]; then echo "$old_port"; else echo "$new_port"; fi; }

# ask SIDE PATH NAME: GETs PATH through the old or new replica; head, body, status and seconds in $work/NAME.*.
ask() {
    curl -s --max-time 10 -o "$work/$3.body" -D "$work/$3.head" -w '%{http_code} %{time_total}\n' \
        "http://127.0.0.1:$(port_of "$1")$2" >"$work/$3.out" 2>/dev/null || echo "000 10" >"$work/$3.out"
}

code_of() { cut -d' ' -f1 "$work/$1.out"; }
seconds_of() { cut -d' ' -f2 "$work/$1.out"; }
cache_of() { header x-cache <"$work/$1.head"; }
# The origin's version and serial in an answer's body.
version_of() { sed -n 's/.*"version": *\([0-9]*\).*/\1/p' "$work/$1.body"; }
serial_of() { sed -n 's/.*"serial": *\([0-9]*\).*/\1/p' "$work/$1.body"; }
# One line of what an answer was, for the log.
said() { printf '%s: %s, X-Cache %s, version %s, serial %s, %s s' "$1" "$(code_of "$1")" "$(cache_of "$1")" \
    "$(version_of "$1")" "$(serial_of "$1")" "$(seconds_of "$1")"; }

# write SIDE PATH: a PUT through the old or new replica; it bumps the resource's version at the origin.
write() {
    local status
    status=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -X PUT --data '' \
        "http://127.0.0.1:$(port_of "$1")$2") || status=000
    [ "$status" = 200 ] || fail "PUT $2 through the $1 replica answered $status"
}

control() { curl -fs --max-time 5 "http://127.0.0.1:$origin_port/_/$1" || fail "the origin did not answer /_/$1"; }
calls() { control "calls?path=$1"; }
open_gate() { control "open?gate=$1" >/dev/null; }

# await_arrived GATE: until a GET waits at GATE, so that the fetch it belongs to is under way.
await_arrived() {
    local deadline=$((SECONDS + 10))
    until [ "$(control "arrived?gate=$1")" -ge 1 ]; do
        [ "$SECONDS" -lt "$deadline" ] || fail "no GET reached gate $1 within 10 s"
        sleep 0.05
    done
}

# stored_version KEY: the origin's version in memcached's item KEY, empty if there is none.
stored_version() {
    memcached_ask "$memcached_port" "get $1" | sed -n 's/.*"version": *\([0-9]*\).*/\1/p'
}

# await_stored KEY VERSION: a gateway stores after it has answered, so the item lands a moment later.
await_stored() {
    local deadline=$((SECONDS + 5))
    until [ "$(stored_version "$1")" = "$2" ]; do
        [ "$SECONDS" -lt "$deadline" ] || { log "no item $1 of version $2 within 5 s"; return 1; }
        sleep 0.05
    done
}

# overtaken: the new replica's count of answers not stored because a write overtook their fetch.
overtaken() {
    curl -fs --max-time 5 "http://127.0.0.1:$new_management/actuator/prometheus" |
        awk '/^memcached_cache_stores_total\{/ && /reason="overtaken"/ && /result="dropped"/ { n += $2 }
             END { printf "%d\n", n }'
}

# --- verdicts ---

passed=0
failed=0
seen=0
used_keys=()

# must TEXT FUNCTION ARGS...: PASS if the function returns 0, else FAIL (its log says why).
must() {
    local text=$1 began=$SECONDS
    shift
    if "$@"; then
        printf 'PASS  %s\n' "$text"
        passed=$((passed + 1))
    else
        printf 'FAIL  %s\n' "$text"
        failed=$((failed + 1))
    fi
    log "($((SECONDS - began)) s)"
}

# gap TEXT FUNCTION ARGS...: the function measures a case the docs leave uncovered and sets $outcome; it returns 0
# when that is what docs/operations.md says can happen.
gap() {
    local text=$1
    shift
    outcome=''
    if "$@"; then
        printf 'SEEN  %s: %s (as docs/operations.md says)\n' "$text" "$outcome"
    else
        printf 'SEEN  %s: %s (NOT as docs/operations.md says: correct the docs)\n' "$text" "$outcome"
    fi
    seen=$((seen + 1))
}

# expect WHAT ACTUAL WANTED: logs a mismatch and returns non-zero.
expect() {
    [ "$2" = "$3" ] && return 0
    log "$1: $2, not $3"
    return 1
}

# --- the checks ---

# serves_stored STORER SERVER PATH KEY: what STORER stored on a miss, SERVER answers as a HIT, the same body (the
# origin's serial included), without asking the origin.
serves_stored() {
    local before
    used_keys+=("$4")
    ask "$1" "$3" "stored-by-$1$2"
    expect "the $1 replica's first GET $3" "$(code_of "stored-by-$1$2") $(cache_of "stored-by-$1$2")" "200 MISS" ||
        return 1
    await_stored "$4" 1 || return 1
    before=$(calls "$3")
    ask "$2" "$3" "served-by-$2$1"
    expect "the $2 replica's GET $3" "$(code_of "served-by-$2$1") $(cache_of "served-by-$2$1")" "200 HIT" ||
        return 1
    expect "backend calls for the $2 replica's HIT on $3" "$(calls "$3")" "$before" || return 1
    cmp -s "$work/stored-by-$1$2.body" "$work/served-by-$2$1.body" || { log "the bodies of $3 differ"; return 1; }
}

# coalesced LEAD PATH: a GET through LEAD reaches the origin and is held there; the others of the round, split over
# both replicas, come while it is; then the origin answers. One backend call for all, the same answer for all.
coalesced() {
    local lead=$1 path=$2 gate=round-$1 i side requests=() serials codes caches slowest
    used_keys+=("$path")
    ask "$lead" "$path?gate=$gate" "$gate-0" &
    requests+=($!)
    await_arrived "$gate"
    for ((i = 1; i < round_size; i++)); do
        if ((i % 2)); then side=old; else side=new; fi
        ask "$side" "$path" "$gate-$i" &
        requests+=($!)
    done
    # No signal says that a request waits inside a gateway: a second lets them all reach their wait. One that came
    # later still makes no backend call (the lock, or the item, is there), so the count below does not depend on it.
    sleep 1
    open_gate "$gate"
    wait "${requests[@]}"
    codes=$(for ((i = 0; i < round_size; i++)); do code_of "$gate-$i"; done | sort | uniq -c | xargs)
    serials=$(for ((i = 0; i < round_size; i++)); do serial_of "$gate-$i"; done | sort -u | wc -l)
    caches=$(for ((i = 1; i < round_size; i++)); do
        if ((i % 2)); then side=old; else side=new; fi
        printf '%s:%s\n' "$side" "$(cache_of "$gate-$i")"
    done | sort | uniq -c | xargs)
    slowest=$(for ((i = 0; i < round_size; i++)); do seconds_of "$gate-$i"; done | sort -g | tail -n 1)
    log "$lead leads $path: $(calls "$path") backend call(s); statuses: $codes; followers: $caches; slowest $slowest s"
    for ((i = 1; i < round_size; i++)); do
        [ "$(cache_of "$gate-$i")" = COALESCED ] || log "$gate-$i: $(said "$gate-$i"), Cache-Status: \
$(header cache-status <"$work/$gate-$i.head")"
    done
    expect "statuses of the round on $path" "$codes" "$round_size 200" || return 1
    expect "backend calls of the round on $path" "$(calls "$path")" 1 || return 1
    expect "distinct answers of the round on $path" "$serials" 1
}

# old_lead_new_write PATH: the old replica's fetch is at the origin when a write goes through the new replica, and a
# GET through the new replica after the write stores the new version; then the old fetch ends.
old_lead_new_write() {
    local path=$1 gate=old-lead lead
    used_keys+=("$path")
    ask old "$path?gate=$gate" "$gate" &
    lead=$!
    await_arrived "$gate"
    write new "$path"
    ask new "$path" "$gate-after"
    log "$(said "$gate-after") (the new replica, after the write)"
    await_stored "$path" 2 || log "the new replica's version 2 was not stored"
    open_gate "$gate"
    wait "$lead"
    log "$(said "$gate") (the old lead, from before the write)"
    await_stored "$path" 1 || true
    ask new "$path" "$gate-new"
    ask old "$path" "$gate-old"
    outcome="the old lead stored version $(stored_version "$path") over the write; then the new replica answers \
version $(version_of "$gate-new") ($(cache_of "$gate-new")), the old one $(version_of "$gate-old") \
($(cache_of "$gate-old"))"
    [ "$(version_of "$gate-new") $(version_of "$gate-old")" = "1 1" ]
}

# purged_after PATH: after the rollout, a purge through the new replica's actuator takes back what an old fetch
# stored over a write; both then answer the version the origin has.
purged_after() {
    local status
    status=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -X DELETE \
        -H "Authorization: Bearer $purge_token" "http://127.0.0.1:$new_management/actuator/memcached$1") || status=000
    expect "the purge of $1" "$status" 200 || return 1
    ask new "$1" purged-new
    ask old "$1" purged-old
    expect "versions of $1 after the purge (new, old)" "$(version_of purged-new) $(version_of purged-old)" "2 2"
}

# new_lead_old_write PATH: the new replica's fetch is at the origin when a write goes through the old replica; GETs
# through both after the write; then the new fetch ends.
new_lead_old_write() {
    local path=$1 gate=new-lead lead after_new after_old
    used_keys+=("$path")
    ask new "$path?gate=$gate" "$gate" &
    lead=$!
    await_arrived "$gate"
    write old "$path"
    ask new "$path" "$gate-after-new" &
    after_new=$!
    ask old "$path" "$gate-after-old" &
    after_old=$!
    # As in a coalescing round: a second for both to reach their wait, so that they take the fetch's answer.
    sleep 1
    open_gate "$gate"
    wait "$lead" "$after_new" "$after_old"
    log "$(said "$gate") (the new lead, from before the write)"
    log "$(said "$gate-after-new") and $(said "$gate-after-old") (GETs after the write)"
    await_stored "$path" 1 || true
    ask new "$path" "$gate-new"
    ask old "$path" "$gate-old"
    outcome="GETs after the write got version $(version_of "$gate-after-new") (new) and \
$(version_of "$gate-after-old") (old); the new lead stored version $(stored_version "$path"), then served as \
$(version_of "$gate-new") (new) and $(version_of "$gate-old") (old)"
    [ "$(version_of "$gate-after-new") $(version_of "$gate-after-old") $(version_of "$gate-new") \
$(version_of "$gate-old")" = "1 1 1 1" ]
}

# write_wins WRITER PATH KEY: the item is stored and served on both; a write through WRITER; both then answer the
# new version.
write_wins() {
    local writer=$1 path=$2
    used_keys+=("$3")
    ask old "$path" "wins-$writer-first"
    await_stored "$3" 1 || return 1
    ask new "$path" "wins-$writer-hit"
    expect "the new replica's GET $path before the write" "$(cache_of "wins-$writer-hit") \
$(version_of "wins-$writer-hit")" "HIT 1" || return 1
    write "$writer" "$path"
    ask old "$path" "wins-$writer-old"
    ask new "$path" "wins-$writer-new"
    expect "versions after the write to $path (old, new)" \
        "$(version_of "wins-$writer-old") $(version_of "wins-$writer-new")" "2 2"
}

# new_lead_old_follower PATH: the new replica's fetch is at the origin and the old replica waits for its item when a
# write goes through the new replica. The old one, its lock gone, asks the origin itself; the new fetch's answer,
# from before the write, is not stored; both then answer the new version.
new_lead_old_follower() {
    local path=$1 gate=new-lead-old-follower lead follower dropped
    used_keys+=("$path")
    dropped=$(overtaken)
    ask new "$path?gate=$gate" "$gate" &
    lead=$!
    await_arrived "$gate"
    ask old "$path" "$gate-follower" &
    follower=$!
    # A second for the old replica to reach its wait for the new one's item, as in a coalescing round.
    sleep 1
    write new "$path"
    wait "$follower"
    log "$(said "$gate-follower") (the old follower)"
    await_stored "$path" 2 || return 1
    open_gate "$gate"
    wait "$lead"
    log "$(said "$gate") (the new lead, from before the write)"
    local deadline=$((SECONDS + 5))
    until [ "$(overtaken)" -gt "$dropped" ]; do
        [ "$SECONDS" -lt "$deadline" ] || { log "the new lead's answer was not dropped as overtaken"; return 1; }
        sleep 0.05
    done
    ask old "$path" "$gate-old"
    ask new "$path" "$gate-new"
    expect "versions after the write to $path (follower, old, new)" "$(version_of "$gate-follower") \
$(version_of "$gate-old") $(version_of "$gate-new")" "2 2 2"
}

# old_write_after_new_store PATH: the new replica stores; a write through the old one at once. The old release's
# delete leaves the new lock's "stored" word, which lives 2 s: both answer the new version, the old replica once
# that word is gone. Sets $waited to how long its GET took.
old_write_after_new_store() {
    local path=$1
    used_keys+=("$path")
    ask new "$path" stored-first
    await_stored "$path" 1 || return 1
    write old "$path"
    ask old "$path" stored-old
    ask new "$path" stored-new
    waited=$(seconds_of stored-old)
    log "$(said stored-old) (the old replica, after its write)"
    expect "versions after the write to $path (old, new)" "$(version_of stored-old) $(version_of stored-new)" "2 2"
}

# stored_word_wait: how long the old replica's GET above took. The old release reads the new lock's "stored" word as
# a lock held, and waits for an item until the word expires: up to 2 s, says the doc, and the line allows a second
# more for a loaded machine.
stored_word_wait() {
    outcome="it waited ${waited:-?} s for the new lock's \"stored\" word to expire"
    [ -n "$waited" ] && awk -v s="$waited" 'BEGIN { exit !(s < 3) }'
}

# no_lock_left: every lock of the run is gone within the lock timeout (5 s) and a second.
no_lock_left() {
    local key deadline=$((SECONDS + 6))
    for key in "${used_keys[@]}"; do
        until [[ $(memcached_ask "$memcached_port" "get $key%lock") != *VALUE* ]]; do
            [ "$SECONDS" -lt "$deadline" ] || { log "the lock $key%lock is still there"; return 1; }
            sleep 0.1
        done
    done
}

need curl curl
need memcached memcached
need python3 python3
for port in "$memcached_port" "$origin_port" "$old_port" "$old_management" "$new_port" "$new_management"; do
    port_free "$port" || fail "port $port is taken"
done

started=$SECONDS
old_jar=${PREVIOUS_JAR:-$(previous_jar)}
new_jar=${GATEWAY_JAR:-$(current_jar)}
log "jars ready after $((SECONDS - started)) s: $old_jar (previous), $new_jar (this release)"

start_memcached "$memcached_port" 16 "$work/memcached.log"
spawn "$work/origin.log" origin
await "http://127.0.0.1:$origin_port/_/calls" 10 "$spawned" "$work/origin.log"
start_gateway old "$old_jar" "$old_port" "$old_management"
old_pid=$spawned
# Only this release knows the purge token: the previous one refuses a setting it does not know.
start_gateway new "$new_jar" "$new_port" "$new_management" --memcached.cache.purge-token="$purge_token"
await "http://127.0.0.1:$old_management/actuator/health" 120 "$old_pid" "$work/old.log"
await "http://127.0.0.1:$new_management/actuator/health" 120 "$spawned" "$work/new.log"
log "both gateways up after $((SECONDS - started)) s"

must "bodies (/r/**): the new replica serves what the old one stored" serves_stored old new /r/body-1 /r/body-1
must "bodies (/r/**): the old replica serves what the new one stored" serves_stored new old /r/body-2 /r/body-2
must "whole answers (/w/**): the new replica serves what the old one stored" \
    serves_stored old new /w/whole-1 http:/w/whole-1
must "whole answers (/w/**): the old replica serves what the new one stored" \
    serves_stored new old /w/whole-2 http:/w/whole-2
must "coalescing, an old lead: $round_size cold GETs over both replicas, one backend call" coalesced old /r/round-1
must "coalescing, a new lead: $round_size cold GETs over both replicas, one backend call" coalesced new /r/round-2
gap "a write through the new replica while the old one fetches" old_lead_new_write /r/old-lead
must "a purge then takes that back: both answer the new version" purged_after /r/old-lead
gap "a write through the old replica while the new one fetches" new_lead_old_write /r/new-lead
must "a write through the new replica, no fetch in flight: both answer the new version (bodies)" \
    write_wins new /r/wins-1 /r/wins-1
must "a write through the new replica, no fetch in flight: both answer the new version (whole answers)" \
    write_wins new /w/wins-2 http:/w/wins-2
must "a write through the old replica, no fetch in flight: both answer the new version" \
    write_wins old /r/wins-3 /r/wins-3
must "a write through the new replica while the new one fetches and the old one waits for it: both answer the \
new version" new_lead_old_follower /r/new-lead-old-follower
waited=''
must "a write through the old replica just after the new one stored: both answer the new version" \
    old_write_after_new_store /r/stored-word
gap "a GET through the old replica after that write" stored_word_wait
must "no lock is left once the run is quiet" no_lock_left

log "done after $((SECONDS - started)) s"
if [ "$failed" -ne 0 ]; then
    # What the gateways warned of during the checks: a memcached operation that timed out on a loaded machine, say.
    for side in old new; do
        printf -- '--- warnings of the %s replica ---\n' "$side" >&2
        grep -E ' (WARN|ERROR) ' "$work/$side.log" | grep -v 'Shut down\|shutdown\|Closing, and reopening\|Discarding' |
            tail -n 20 >&2 || true
    done
    printf -- '--- memcached operations of the new replica that did not succeed ---\n' >&2
    curl -fs --max-time 5 "http://127.0.0.1:$new_management/actuator/prometheus" |
        grep -E '^memcached_operations_(delayed_total|seconds_count)\{' | grep -v 'outcome="success"' >&2 || true
    fail "$failed of $((passed + failed)) checks failed"
fi
log "all $passed checks hold; $seen uncovered cases measured"
