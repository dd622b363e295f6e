#!/usr/bin/env bash
# Reproduces the nginx + memcached article's table on this machine: comments-service answering a miss, the gateway
# answering a miss and a hit, and nginx's memcached_pass and Varnish answering the same hit, measured with ab as the
# article did, ab with keep-alive, and wrk. See bench/README.md.
#
#   bench/run.sh           full run, writes bench/results/<date>-<commit>.md and .png
#   bench/run.sh --quick   one 1 s window per measurement, results under bench/.work/ (CI runs this)
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
log_prefix=bench
# shellcheck source=scripts/common.sh
source "$bench/../scripts/common.sh"
# shellcheck source=bench/lib.sh
source "$bench/lib.sh"
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
VARNISH_PORT=${VARNISH_PORT:-28092}

# The gateways (and the Spring peer, for a like comparison) run as the image runs the gateway (image_jvm in
# scripts/common.sh). comments-service keeps a small bounded heap with the serial collector: without flags the JVM
# sizes its heap from the machine's memory and peaks near 370 MB under this load; see bench/README.md for what else
# was measured.
image_jvm
COMMENTS_JAVA_OPTS=${COMMENTS_JAVA_OPTS--Xmx96m -XX:+UseSerialGC -XX:TrimNativeHeapInterval=5000}
# Settings for both gateways, e.g. GATEWAY_ARGS=--memcached.cache.replica-lock=false; split on blanks.
GATEWAY_ARGS=${GATEWAY_ARGS-}
read -ra gateway_java_opts <<<"$GATEWAY_JAVA_OPTS"
read -ra comments_java_opts <<<"$COMMENTS_JAVA_OPTS"
read -ra gateway_args <<<"$GATEWAY_ARGS"
# Only the cases whose id matches this regular expression, e.g. BENCH_CASES='^gateway-(pass|hit)$'; all by default.
BENCH_CASES=${BENCH_CASES:-.}
# The gateway images whose warm-up is measured beside the jar's, when Docker is usable: by default the image
# gateway/Dockerfile builds from the jar, tagged memcached-gateway/gateway:bench; "none" for none.
WARM_UP_IMAGES=${WARM_UP_IMAGES-}
# What each image's cold containers are asked, one container each: real misses (fresh), a hit (cached), the
# pass-through (no_cache); a quick run asks real misses only.
WARM_UP_ASKS=${WARM_UP_ASKS-fresh cached no_cache}
declare -A warm_up_asks=([fresh]='real misses' [cached]=hits [no_cache]=pass-through)

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
# The warm-up case: requests for this long from the moment a cold gateway is ready (a quick run: 5 s).
warm_up_seconds=60
# Before each cold gateway that will ask the backend, comments-service is asked the same straight for this long (a
# quick run: 1 s): a new replica joins in front of a warm backend, and a backend cold on that path would put its own
# warm-up into the gateway's first seconds (bench/README.md, Warm-up).
backend_warm_seconds=20
# Settings added to each cold container of the warm-up case: none in a full run, which measures the image as shipped;
# a quick run, a smoke test that asserts no speed, warms it up for the shortest time a warm-up takes, since the image's
# 58 s would be a minute of CI (compose-e2e.sh starts the image as shipped).
warm_up_image_settings=()
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
#            Spring peer (a plain Spring Cloud Gateway with LocalResponseCache), one of the two nginx, or Varnish
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
varnish-hit             varnish          cached    ab,ab-k,wrk   varnish hit
'
# Ratios also measured in alternating rounds, after every case has run: numerator and denominator case ids. Two
# cases run minutes apart meet their JVMs at different stages of the JIT's work and the machine at another load, so
# a ratio of two separate measurements swings by 10-15%; rounds that alternate the two sides (A B, then B A) share
# both. Each round is one wrk window per side; the report gives the median of the rounds' ratios.
pairs='
gateway-pass       spring-pass
gateway-real-miss  gateway-pass
gateway-hit        nginx-keepalive-hit
gateway-hit        varnish-hit
gateway-http-hit   gateway-http-untagged-hit
'
paired_rounds=6
declare -A payload_path=([single]=/api/v1/comments/1 [collection]=/api/v1/comments/users/1)
# What a server's cached cases add to the payload's path: the http-items gateway stores answers asked for with
# ?untagged without their tags (bench/http-items.yml).
declare -A server_query=([http-untagged]='?untagged')
# A fresh id is appended to these.
declare -A fresh_prefix=([single]=/api/v1/comments/ [collection]=/api/v1/comments/users/)
# What answers a case. Columns:
#   port    the variable that holds its port on 127.0.0.1
#   log     under the work dir: shown when its case fails
#   hit     how an answer of its cache is told from a miss (report.py's HIT_RULES): X-Cache: HIT, a Date at least
#           a second old (LocalResponseCache replays the stored answer's), no Cache-Control (nginx's memcached_pass),
#           two ids in X-Varnish (the request's and the one that stored the object)
#   needs   a command the run may lack (then the server's cases are skipped), or -
servers='
# server          port                  log                              hit               needs
direct            COMMENTS_PORT         comments-service.log             -                 -
gateway           GATEWAY_PORT          gateway.log                      x-cache           -
near-cache        NEAR_CACHE_PORT       gateway-near-cache.log           x-cache           -
http-items        HTTP_ITEMS_PORT       gateway-http-items.log           x-cache           -
http-untagged     HTTP_ITEMS_PORT       gateway-http-items.log           x-cache           -
spring            SPRING_PEER_PORT      spring-peer.log                  stored-date       -
warm-up           WARM_UP_PORT          warm-up.log                      x-cache           -
nginx-article     NGINX_PORT            nginx-article/logs/error.log     no-cache-control  nginx
nginx-keepalive   NGINX_KEEPALIVE_PORT  nginx-keepalive/logs/error.log   no-cache-control  nginx
varnish           VARNISH_PORT          varnish/varnishd.log             x-varnish         varnishd
'
declare -A server_url server_log server_hit server_needs server_pid
while read -r server port log hit needs; do
    [[ -n $server && $server != \#* ]] || continue
    server_url[$server]=http://127.0.0.1:${!port}
    server_log[$server]=$work/$log
    server_hit[$server]=$hit
    server_needs[$server]=$needs
done <<<"$servers"
# Whether each command the run can do without is there; ensure_tools finds out.
declare -A installed=([nginx]=false [varnishd]=false [gnuplot]=false)

quick=false
# A quick run is a smoke test of every path: one short window each keeps CI's share of it small.
quick_seconds=1
# The payloads each case is measured with; a quick run takes the single comment only, which runs the same paths.
payloads=(single collection)
docker_available=false
zipf_failed=false
# Processes whose CPU time is read around each wrk measurement, "name pid", in the report's column order; and those
# whose peak RSS is (nginx and Varnish have several processes: left out).
measured=()
rss_watched=()
# Each run of fresh-ids.lua gets a range of ids of its own (next_fresh_base).
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

# optional COMMAND PACKAGE WITHOUT: installed[COMMAND] if COMMAND is there or PACKAGE installs it; else notes what
# the run does WITHOUT it.
optional() {
    if need "$1" "$2"; then installed[$1]=true; else note "$1 is not available: $3"; fi
}

ensure_tools() {
    need curl curl
    need memcached memcached
    need ab apache2-utils
    need wrk wrk
    need python3 python3
    command -v java >/dev/null || fail "java is missing (a JDK 17)"
    optional nginx nginx "its cases are skipped"
    optional varnishd varnish "its cases are skipped"
    optional gnuplot gnuplot-nox "no chart is drawn"
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

    log "starting comments-service on $COMMENTS_PORT: java ${comments_java_opts[*]}"
    spawn "${server_log[direct]}" java "${comments_java_opts[@]}" -jar "$comments_jar" \
        --server.address=127.0.0.1 --server.port="$COMMENTS_PORT" --comments.max-age=3600s
    server_pid[direct]=$spawned

    log "starting the gateway on $GATEWAY_PORT: $GATEWAY_JAVA ${gateway_java_opts[*]}"
    start_gateway gateway "$GATEWAY_PORT" "$MANAGEMENT_PORT"
    server_pid[gateway]=$spawned
    log "starting a gateway with the near-cache on $NEAR_CACHE_PORT: ${near_cache_args[*]}"
    start_gateway near-cache "$NEAR_CACHE_PORT" "$NEAR_CACHE_MANAGEMENT_PORT" "${near_cache_args[@]}"
    server_pid[near-cache]=$spawned
    log "starting a gateway that keeps whole answers on $HTTP_ITEMS_PORT: ${http_items_args[*]}"
    start_gateway http-items "$HTTP_ITEMS_PORT" "$HTTP_ITEMS_MANAGEMENT_PORT" "${http_items_args[@]}"
    server_pid[http-items]=$spawned
    log "starting the Spring peer on $SPRING_PEER_PORT with the gateway's JVM flags"
    app_settings "$SPRING_PEER_PORT" "$SPRING_PEER_MANAGEMENT_PORT"
    spawn "${server_log[spring]}" "$GATEWAY_JAVA" "${gateway_java_opts[@]}" -jar "$spring_peer_jar" "${settings[@]}"
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

    if runnable nginx-article; then
        start_nginx nginx-article "$NGINX_PORT"
        start_nginx nginx-keepalive "$NGINX_KEEPALIVE_PORT"
    fi
    if runnable varnish; then start_varnish "$VARNISH_PORT"; fi
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

# runnable SERVER: whether the machine has what the server needs.
runnable() {
    [ "${server_needs[$1]}" = - ] || ${installed[${server_needs[$1]}]}
}

# selected ID SERVER: whether this run measures the case: BENCH_CASES names it, and its server can run.
selected() {
    [[ -n $1 && $1 != \#* && $1 =~ $BENCH_CASES ]] && runnable "$2"
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
    local payload a b round side server asks url rps window=$work/out/paired.txt
    local -A asked rounds_rps
    for payload in "${payloads[@]}"; do
        while read -r -u 3 a b; do
            [ -n "$a" ] || continue
            asked=()
            for side in "$a" "$b"; do
                read -r _ server asks _ < <(grep -E "^${side}[[:space:]]" <<<"$cases")
                selected "$side" "$server" || continue 2
                asked[$side]="$server $asks $(target_of "$server" "$asks" "$payload")"
            done
            log "alternating $a and $b, $payload: $paired_rounds rounds"
            rounds_rps=([$a]="" [$b]="")
            for ((round = 0; round <= paired_rounds; round++)); do
                for side in $( ((round % 2)) && echo "$b $a" || echo "$a $b"); do
                    read -r server asks url <<<"${asked[$side]}"
                    # Round 0 only primes: the cases' misses since the hit cases may have evicted their items.
                    # The rounds alternate which side goes first, and check that a hit still hits.
                    if ((round == 0)); then
                        if [ "$asks" = cached ]; then prime "$server" "$url"; fi
                        continue
                    fi
                    if [ "$asks" = cached ]; then expect_hit "$server" "$url"; fi
                    run_tool "$window" wrk "$url" "$asks" "$window_seconds"
                    rps=$(checked "$side, $payload (paired)" "$server" wrk "$window" rps)
                    rounds_rps[$side]+="${rounds_rps[$side]:+,}$rps"
                done
            done
            for side in "$a" "$b"; do
                read -r server asks url <<<"${asked[$side]}"
                if [ "$asks" = cached ]; then expect_hit "$server" "$url"; fi
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
    local id=$1 label=$2 server=$3 asks=$4 tools=$5 target=$6 tool shown=$6
    if [ "$asks" = fresh ]; then
        # Every request asks for an id nobody asked for before: the server looks it up, misses, asks the backend
        # and stores the answer. Only wrk runs a script per request.
        [ "$tools" = wrk ] || fail "case $id: a fresh id per request needs wrk alone"
        shown+='<fresh id>'
    fi
    log "$label: $shown"
    if [ "$asks" = cached ]; then expect_hit "$server" "$target"; fi
    # wrk first: once it is steady, the server is warm for ab too.
    for tool in wrk ab ab-k; do
        if [[ ,$tools, == *,$tool,* ]]; then measure "$id" "$label" "$server" "$tool" "$target" "$asks"; fi
    done
    if [ "$asks" = cached ]; then expect_hit "$server" "$target"; fi
}

# --- the warm-up ----------------------------------------------------------------------------------------------

# warm_up NAME LABEL ASKS COMMAND...: starts a cold gateway with COMMAND on the warm-up ports and, as soon as its
# readiness probe says UP, sends it ASKS (fresh: real misses; cached: a hit; no_cache: the pass-through) for
# warm_up_seconds, counted second by second (per-second.lua); then measures its steady throughput, as a case's but
# counted by the same script, and stops it. warm-up.tsv gets NAME, LABEL, the milliseconds from start to ready, the
# per-second output and the steady case's id.
warm_up() {
    local name=$1 label=$2 asks=$3 started ready pid url output="out/warm-up-$1.txt"
    url=$(target_of warm-up "$asks" single)
    shift 3
    if [ "$asks" != cached ]; then
        log "warm-up ($label): comments-service asked straight for $backend_warm_seconds s first"
        run_tool "$work/out/warm-up-$name-backend.txt" wrk "$(target_of direct "$asks" single)" "$asks" \
            "$backend_warm_seconds"
        checked "warm-up ($label), the backend first" direct wrk "$work/out/warm-up-$name-backend.txt" >/dev/null
    fi
    log "warm-up ($label): starting a cold gateway"
    started=$(date +%s%N)
    spawn "${server_log[warm-up]}" "$@"
    pid=$spawned
    # Asked every 50 ms: start to ready is one of the figures.
    await_ready "http://127.0.0.1:$WARM_UP_MANAGEMENT_PORT/actuator/health/readiness" "$jvm_start_seconds" \
        "$pid" "${server_log[warm-up]}"
    ready=$((($(date +%s%N) - started) / 1000000))
    # The hit's item is in memcached once the gateway cases ran; if they did not, it is stored now, a request or two.
    if [ "$asks" = cached ]; then prime warm-up "$url"; fi
    log "warm-up ($label): ready after $ready ms; ${warm_up_asks[$asks]} for $warm_up_seconds s"
    # The gateway's CPU, memcached's and comments-service's through the minute and while steady: how fast the
    # machine ran in each window, and what the gateway spent of its own (report.py, warm_up_speed_table).
    case $name in
        image-*) measured+=("warm-up-gateway $(docker inspect -f '{{.State.Pid}}' "bench-warm-up-$$")") ;;
        *) measured+=("warm-up-gateway $pid") ;;
    esac
    sample_cpu "$work/out/warm-up-$name-cpu.tsv" warm-up-gateway memcached comments-service
    run_tool "$work/$output" wrk "$url" "$asks" "$warm_up_seconds" per-second.lua
    stop_all "$spawned"
    checked "warm-up ($label)" warm-up wrk "$work/$output"
    # Counted as the first 60 s were: wrk's count in Lua takes 2-3% of a hit's requests/s on these cores.
    until_steady "warm-up-$name" "warm-up ($label), steady" warm-up "$url" "$asks" per-second.lua
    unset 'measured[-1]'
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$label" "$ready" "$output" "warm-up-$name" >>"$work/warm-up.tsv"
    case $name in image-*) docker stop -t 10 "bench-warm-up-$$" >/dev/null 2>&1 || true ;; esac
    stop_all "$pid"
    cp "${server_log[warm-up]}" "$work/warm-up-$name.log"
}

# The warm-up case: real misses on the jar, which does not warm itself up, as the cold JVM's reference; and on each
# gateway image when Docker is usable, each of WARM_UP_ASKS on a cold container of its own, as deployed: with the
# limits of docker-compose.yml and the Kubernetes manifests (2 CPUs, 512 MB), on the host's network.
warm_up_all() {
    local image index=0 asks
    [[ warm-up =~ $BENCH_CASES ]] || return 0
    app_settings "$WARM_UP_PORT" "$WARM_UP_MANAGEMENT_PORT" memcached
    warm_up jar "jar, Java $("$GATEWAY_JAVA" -version 2>&1 | head -n 1 | cut -d'"' -f2), real misses" fresh \
        "$GATEWAY_JAVA" "${gateway_java_opts[@]}" -jar "$gateway_jar" "${settings[@]}"
    $docker_available || return 0
    for image in $WARM_UP_IMAGES; do
        index=$((index + 1))
        for asks in $WARM_UP_ASKS; do
            warm_up "image-$index-$asks" "image $image, ${warm_up_asks[$asks]}" "$asks" \
                docker run --rm --name "bench-warm-up-$$" --network host --cpus 2 --memory 512m "$image" \
                "${settings[@]}" "${warm_up_image_settings[@]}"
        done
    done
}

# --- the report -----------------------------------------------------------------------------------------------

record_setup() {
    setup cores "$(nproc)"
    setup cpu "$(grep -m 1 '^model name' /proc/cpuinfo || true)"
    setup memory "$(grep -m 1 '^MemTotal:' /proc/meminfo)"
    setup java "$(java -version 2>&1 | head -n 1)"
    setup memcached "$(memcached -V)"
    setup nginx "$(if ${installed[nginx]}; then nginx -v 2>&1; fi)"
    setup varnish "$(if ${installed[varnishd]}; then varnishd -V 2>&1 | head -n 1; fi)"
    setup ab "$(ab -V | head -n 1)"
    setup wrk "$(wrk -v 2>&1 | head -n 1)"
    setup gateway_java "$("$GATEWAY_JAVA" -version 2>&1 | head -n 1)"
    setup gateway_java_opts "${gateway_java_opts[*]}"
    setup gateway_args "$GATEWAY_ARGS"
    setup near_cache_args "${near_cache_args[*]}"
    setup http_items_args "${http_items_args[*]}"
    setup comments_java_opts "${comments_java_opts[*]}"
    setup concurrency "$concurrency"
    setup memcached_mb "$memcached_mb"
    setup clock_ticks "$(getconf CLK_TCK)"
    setup quick "$quick"
    setup warm_up_seconds "$warm_up_seconds"
    setup backend_warm_seconds "$backend_warm_seconds"
}

# What the report says of the end of the run, read before its servers stop.
record_run_end() {
    record_rss -
    memcached_ask "$MEMCACHED_PORT" stats >"$work/memcached-stats.txt" || true
    setup load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
}

report() {
    local name title dir
    name="$(date -u +%F)-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    dir=$bench/results title="Benchmark $name"
    # A quick run is a smoke test; its numbers do not belong next to the full runs.
    if $quick; then dir=$work/results title+=" (quick)"; fi
    mkdir -p "$dir"
    setup title "$title"
    setup seconds "$((SECONDS - started_at))"
    python3 "$bench/report.py" markdown "$work" >"$dir/$name.md"
    if ${installed[gnuplot]}; then draw_charts "$dir" "$name" "$title"; fi
    printf '\n'
    cat "$dir/$name.md"
    printf '\nwritten: %s\n' "$dir/$name.md"
}

# The Zipf case on a full run: bench/zipf.sh on a stack of its own, once this run's servers are stopped so that they
# take none of the cores; its section joins the report. Its failure fails the run, after the report.
zipf_case() {
    [[ zipf =~ $BENCH_CASES ]] && ! $quick || return 0
    stop_all "${pids[@]}"
    pids=()
    log "the Zipf case: bench/zipf.sh"
    ZIPF_WORK=$work/zipf "$bench/zipf.sh" --out "$work/zipf.md" || zipf_failed=true
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
    if $quick; then
        warm_up_seconds=5 backend_warm_seconds=1 payloads=(single) window_seconds=$quick_seconds paired_rounds=1
        warm_up_image_settings=(--memcached.warm-up.duration=15s)
        WARM_UP_ASKS=fresh
        # Its JVMs compile with C1 alone: a quick run measures nothing, and C2 is about 40% of the CPU a gateway
        # takes to start (12.7 to 13.2 s against 7.2 to 7.8 s), most of what CI waits for while five JVMs start at
        # once. The image's cold container keeps the image's flags.
        gateway_java_opts+=(-XX:TieredStopAtLevel=1)
        comments_java_opts+=(-XX:TieredStopAtLevel=1)
    fi
    local server port ports=("$MEMCACHED_PORT" "$MANAGEMENT_PORT" "$NEAR_CACHE_MANAGEMENT_PORT"
        "$HTTP_ITEMS_MANAGEMENT_PORT" "$SPRING_PEER_MANAGEMENT_PORT" "$WARM_UP_MANAGEMENT_PORT")
    for server in "${!server_url[@]}"; do
        if runnable "$server"; then ports+=("${server_url[$server]##*:}"); fi
    done
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
    # Cases that run a script of their own rather than a row of the table go here: every server is up and every
    # cached path primed, and lib.sh's measure, checked and recorded put their results where the report reads them.
    paired_rounds
    warm_up_all
    record_run_end
    zipf_case
    report
    if $zipf_failed; then fail "the Zipf case failed: see $work/zipf"; fi
}

main "$@"
