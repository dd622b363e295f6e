# How bench/run.sh starts a gateway or a peer, tells a hit, measures and checks a measurement, reads what each
# process costs and draws the charts: the mechanics under its tables. run.sh sources this after scripts/common.sh;
# these functions read its globals ($work, $quick, the server_* tables and the like) as they are when called.
# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables named above are run.sh's

# --- servers --------------------------------------------------------------------------------------------------

# app_settings PORT MANAGEMENT_PORT [memcached]: in $settings, what the gateways and the Spring peer are started
# with: loopback, their ports, comments-service as the backend, and for a gateway memcached.
app_settings() {
    settings=(--server.address=127.0.0.1 --server.port="$1" --management.server.address=127.0.0.1
        --management.server.port="$2" --comments-service.uri="${server_url[direct]}")
    if [ "${3:-}" = memcached ]; then settings+=(--memcached.servers="127.0.0.1:$MEMCACHED_PORT"); fi
}

# start_gateway SERVER PORT MANAGEMENT_PORT [SETTING...]: a gateway in front of comments-service and memcached.
start_gateway() {
    local server=$1
    app_settings "$2" "$3" memcached
    shift 3
    spawn "${server_log[$server]}" "$GATEWAY_JAVA" "${gateway_java_opts[@]}" -jar "$gateway_jar" "${settings[@]}" \
        "$@" "${gateway_args[@]}"
}

# render TEMPLATE PORT OUTPUT: bench/TEMPLATE with the peer's own port and those of memcached and comments-service.
render() {
    sed -e "s|@PORT@|$2|g" -e "s|@MEMCACHED_PORT@|$MEMCACHED_PORT|g" -e "s|@COMMENTS_PORT@|$COMMENTS_PORT|g" \
        "$bench/$1" >"$3"
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
    render "$name.conf.template" "$port" "$prefix/nginx.conf"

    log "starting nginx ($name) on $port"
    nginx -q -t -p "$prefix/" -c "$prefix/nginx.conf" >"$prefix/logs/stdout.log" 2>&1 || {
        show_logs "$prefix/logs/stdout.log"
        fail "nginx rejected $prefix/nginx.conf"
    }
    spawn "$prefix/logs/run.log" nginx -p "$prefix/" -c "$prefix/nginx.conf" -g 'daemon off;'
    measured+=("nginx $spawned")
    await "${server_url[$name]}${payload_path[single]}/no_cache" "$jvm_start_seconds" "$spawned" "${server_log[$name]}"
}

# start_varnish PORT: varnishd in the foreground, caching in memory in front of comments-service as
# bench/varnish.vcl.template says. Its working dir (shared memory log, compiled VCL) is its own under the run's, so
# nothing of a system Varnish is used; started as root, it runs as Debian's unprivileged varnish and vcache users.
start_varnish() {
    local dir=$work/varnish
    mkdir -p "$dir"
    render varnish.vcl.template "$1" "$dir/varnish.vcl"
    log "starting varnish on $1"
    spawn "${server_log[varnish]}" varnishd -F -n "$dir/workdir" -a "127.0.0.1:$1" -f "$dir/varnish.vcl" \
        -s malloc,256m
    # Its manager and the cache process it forks, counted together as nginx's master and workers are.
    measured+=("varnish $spawned")
    await "${server_url[varnish]}${payload_path[single]}/no_cache" "$jvm_start_seconds" "$spawned" "${server_log[varnish]}"
}

# --- hits -----------------------------------------------------------------------------------------------------

# not_a_hit SERVER URL: succeeds, printing why, if URL's answer is not a hit by SERVER's rule (the servers table's,
# judged by report.py).
not_a_hit() {
    ! curl -s -o /dev/null -D - --max-time 5 "$2" | python3 "$bench/report.py" hit "${server_hit[$1]}"
}

# expect_hit SERVER URL: the answer came from the server's cache.
expect_hit() {
    local why
    if why=$(not_a_hit "$1" "$2"); then
        show_logs "${server_log[$1]}"
        fail "$2 was not a hit: $why"
    fi
}

# prime SERVER URL: one request, which a gateway, the Spring peer or Varnish stores (nginx finds what the gateway
# stored), then asks until the answer is a hit: a gateway stores after it answers, and the Spring peer's hit shows
# only once the Date it stored is a second old.
prime() {
    local deadline=$((SECONDS + 5))
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$2")" = 200 ] ||
        { show_logs "${server_log[$1]}"; fail "$2 did not answer 200"; }
    while not_a_hit "$1" "$2" >/dev/null; do
        if [ "$SECONDS" -ge "$deadline" ]; then expect_hit "$1" "$2"; fi
        sleep 0.1
    done
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

# --- what each process costs ----------------------------------------------------------------------------------

# record_rss CASE: each watched process's peak RSS (VmHWM, kB) since the last reset, for CASE ("-" outside a wrk run).
record_rss() {
    local entry name pid kilobytes
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
# children (nginx's workers, varnishd's cache process), as lines of cpu.tsv on stdout.
record_cpu() {
    local entry name pid children child ticks stat
    for entry in "${measured[@]}"; do
        read -r name pid <<<"$entry"
        mapfile -t children < <(pgrep -P "$pid" || true)
        ticks=0
        for child in "$pid" "${children[@]}"; do
            # The command names here (java, nginx, memcached, varnishd, cache-main) have no blanks, so the fields
            # split on them.
            read -ra stat 2>/dev/null <"/proc/$child/stat" || continue
            ticks=$((ticks + stat[13] + stat[14]))
        done
        printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$name" "$ticks"
    done
}

# sample_cpu OUTPUT NAME...: in the background until stopped, once a second and once more when stopped, the
# milliseconds since its first reading and the CPU ticks (user plus system) so far of each measured process named,
# tab-separated under a header line naming them; its pid in $spawned and $pids. The warm-up case gauges the
# machine's speed by them (report.py).
sample_cpu() {
    local output=$1 name entry line pid stat started
    local watched=()
    shift
    for name in "$@"; do
        for entry in "${measured[@]}"; do
            if [ "${entry% *}" = "$name" ]; then watched+=("${entry##* }"); fi
        done
    done
    [ "${#watched[@]}" -eq $# ] || fail "sample_cpu: not every one of $* is measured"
    {
        printf 'ms'
        printf '\t%s' "$@"
        printf '\n'
        reading() {
            local now
            now=$(date +%s%N)
            started=${started:-$now}
            line=$(((now - started) / 1000000))
            for pid in "${watched[@]}"; do
                read -ra stat 2>/dev/null <"/proc/$pid/stat" || stat=()
                line+=$'\t'$((${stat[13]:-0} + ${stat[14]:-0}))
            done
            printf '%s\n' "$line"
        }
        # A last reading when stopped, so that the samples reach the end of what they watched.
        trap 'reading; exit 0' TERM
        while :; do
            reading
            sleep 1 &
            wait $!
        done
    } >"$output" &
    spawned=$!
    pids+=("$spawned")
}

# --- measuring ------------------------------------------------------------------------------------------------

# run_tool OUTPUT TOOL URL [ASKS [SECONDS [SCRIPT]]]: one run of ab, ab -k or wrk (for SECONDS), its output in
# OUTPUT. ASKS=fresh has wrk ask for a fresh id per request (fresh-ids.lua, or SCRIPT, which asks as it does), from
# a range of ids of the run's own: each run takes the next range, so it must not run in a subshell. Other ASKS ask
# for URL itself, through SCRIPT if one is named.
run_tool() {
    local output=$1 tool=$2 url=$3 seconds=${5:-} script=("$3") ab_args=(-n 10000)
    if $quick; then ab_args=(-t "$quick_seconds" -n 1000); fi
    if [ "${4:-}" = fresh ]; then
        next_fresh_base
        script=(-s "$bench/${6:-fresh-ids.lua}" "$url" -- "$fresh_base")
    elif [ -n "${6:-}" ]; then
        script=(-s "$bench/$6" "$url")
    fi
    case $tool in
        ab) ab -q "${ab_args[@]}" -c "$concurrency" "$url" ;;
        ab-k) ab -q -k "${ab_args[@]}" -c "$concurrency" "$url" ;;
        wrk) wrk -t2 -c"$concurrency" -d"${seconds}s" --latency "${script[@]}" ;;
    esac >"$output" 2>&1 || { cat "$output" >&2; fail "$tool failed on $url"; }
}

# checked LABEL SERVER TOOL OUTPUT [rps]: prints the measurement's line, or with rps its requests/s alone; fails with
# the server's log if it had errors.
checked() {
    python3 "$bench/report.py" "${5:-check}" "$3" "$4" || {
        show_logs "${server_log[$2]}" "${server_log[direct]}"
        fail "$1 ($3): errors or no result, see above"
    }
}

# recorded ID LABEL TOOL OUTPUT: a case's measurement, for the report (OUTPUT "-" when skipped).
recorded() {
    printf '%s\t%s\t%s\t%s\n' "$@" >>"$work/measurements.tsv"
}

# until_steady ID LABEL SERVER URL ASKS [SCRIPT]: wrk (with SCRIPT, as run_tool takes it) in windows until the last few
# are within report.py's tolerance of each other (report.py steady) or the cap is reached (one window in a quick
# run), each window checked. The last window is the measurement: out/ID.wrk.txt, with the CPU time and peak RSS of
# the servers during it. steady.tsv gets the case's windows: ID, LABEL, steady|cap|quick, seconds measured,
# requests/s of each window.
until_steady() {
    local id=$1 label=$2 server=$3 url=$4 asks=$5 seconds=0 windows=() status cpu rps
    local window=$work/out/$1.window.txt
    while :; do
        reset_peak_rss
        cpu=$(record_cpu "$id" before)
        run_tool "$window" wrk "$url" "$asks" "$window_seconds" "${6:-}"
        cpu+=$'\n'$(record_cpu "$id" after)
        rps=$(checked "$label" "$server" wrk "$window" rps)
        windows+=("$rps")
        seconds=$((seconds + window_seconds))
        if $quick; then status=quick; break; fi
        if python3 "$bench/report.py" steady "${windows[@]}"; then status=steady; break; fi
        if [ "$seconds" -ge "$steady_cap_seconds" ]; then status=cap; break; fi
        log "$label: $rps requests/s in the last $window_seconds s, not steady yet"
    done
    mv "$window" "$work/out/$id.wrk.txt"
    printf '%s\n' "$cpu" >>"$work/cpu.tsv"
    record_rss "$id"
    checked "$label" "$server" wrk "$work/out/$id.wrk.txt"
    local IFS=,
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$label" "$status" "$seconds" "${windows[*]}" >>"$work/steady.tsv"
}

# measure ID LABEL SERVER TOOL URL ASKS: one measurement, recorded as the case's: with wrk until steady, with ab or
# ab -k once.
measure() {
    local id=$1 label=$2 server=$3 tool=$4 url=$5 output="out/$1.$4.txt"
    local name=${tool/ab-k/ab -k}
    if [ "$tool" = wrk ]; then
        until_steady "$id" "$label" "$server" "$url" "$6"
    elif [ "$tool" = ab-k ] && stalls_ab_keepalive "$url"; then
        log "$label: ab -k skipped: the server neither keeps the HTTP/1.0 connection alive nor closes it"
        output=-
    else
        run_tool "$work/$output" "$tool" "$url"
        checked "$label" "$server" "$name" "$work/$output"
    fi
    recorded "$id" "$label" "$name" "$output"
}

# --- charts ---------------------------------------------------------------------------------------------------

# draw_charts DIR NAME TITLE: DIR/NAME.png, the requests/s of every case and tool, and DIR/NAME-warm-up.png, the
# warm-up's second by second, each from what the run recorded, if it has any.
draw_charts() {
    local dir=$1 name=$2 subtitle
    subtitle="$3: the load generator shares the $(nproc) cores, compare within this run only"
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
}
