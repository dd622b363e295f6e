#!/usr/bin/env bash
# The gateway's `http` item format against OpenResty's srcache module in a real nginx: both read and write the same
# memcached items. Debian's nginx runs srcache_fetch / srcache_store through memc_pass in front of a small origin
# (e2e/srcache_origin.py, which counts the requests that reach it), and the gateway has one route to the same origin
# with `item-format: http`; both use the key `http:$uri`. For a 200, a 404 and a 301 it checks that
#   - srcache alone stores the whole answer and serves it again without the origin (the reference),
#   - an answer srcache stored is a gateway HIT with the same status, headers and body, the origin not asked,
#   - an answer the gateway stored on a MISS is served by srcache with the same status, headers and body, the origin
#     not asked,
# and that every item is in the format's shape: `HTTP/1.1 <status>\r\n`, `Name: value\r\n` headers without hop-by-hop
# ones and Set-Cookie, `\r\n`, the body, flags 0. Every item is printed byte for byte (`\r` shown as such, `$` at each
# line's end). Plain processes on loopback; everything started is stopped on exit.
#
#   e2e/srcache-e2e.sh [--nginx-only]   (installs memcached, nginx, its srcache and memc modules and curl from
#                                        Debian's packages if missing; builds the gateway jar if it is missing)
#
# --nginx-only checks srcache alone, without the gateway. GATEWAY_JAR picks another gateway jar.
set -euo pipefail
cd "$(dirname "$0")/.."

case ${1:-} in
    --nginx-only) nginx_only=true ;;
    '') nginx_only=false ;;
    *)
        echo "usage: e2e/srcache-e2e.sh [--nginx-only]" >&2
        exit 2
        ;;
esac

# Below Linux's ephemeral range (32768 and up), where an outgoing connection's local port could already hold one.
memcached_port=27211
origin_port=27000
nginx_port=27090
gateway_port=27080
management_port=27081
# Where Debian's libnginx-mod-* packages put their modules.
modules=/usr/lib/nginx/modules
# The answers the checks ask for, one of each status the origin gives: each path is used once, so the first request
# for it finds nothing in memcached.
kinds=(page missing moved)
work=$(mktemp -d)

# shellcheck source=scripts/common.sh
source scripts/common.sh

cleanup() { finish $? "$work" "${pids[@]}"; }
trap cleanup EXIT INT TERM

# Headers that a served answer may carry and its item not, or the other way round, because the side that serves it
# sets its own: the time (Date), the server's name (Server: nginx drops the origin's, the gateway keeps it),
# the framing (Content-Length, Transfer-Encoding, Connection, Keep-Alive: srcache stores no length, nginx may answer
# chunked; the bodies are compared byte for byte instead), what the cache says of itself (Age, X-Cache,
# Cache-Status) and the ETag the gateway computes at hit time when none is stored. All other headers must match.
own_headers=" date server content-length transfer-encoding connection keep-alive age x-cache cache-status etag "
# What an item must never hold: the hop-by-hop headers, Set-Cookie, and what the gateway says of its own answers.
unstorable=" connection keep-alive proxy-authenticate proxy-authorization te trailers transfer-encoding upgrade \
set-cookie x-cache cache-status "

need_modules() {
    local missing=()
    [ -f "$modules/ngx_http_srcache_filter_module.so" ] || missing+=(libnginx-mod-http-srcache-filter)
    [ -f "$modules/ngx_http_memc_module.so" ] || missing+=(libnginx-mod-http-memc)
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]}"
    apt_install "${missing[@]}" || fail "nginx's srcache or memc module is missing (Debian packages ${missing[*]})"
}

start_nginx() {
    mkdir -p "$work/nginx/logs" "$work/nginx/temp"
    local load=()
    # Debian builds srcache against the development kit (ndk), which must be loaded first.
    if [ -f "$modules/ndk_http_module.so" ]; then load+=("load_module $modules/ndk_http_module.so;"); fi
    load+=("load_module $modules/ngx_http_srcache_filter_module.so;" "load_module $modules/ngx_http_memc_module.so;")
    {
        printf '%s\n' "${load[@]}"
        cat <<CONF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $work/nginx/temp;
    proxy_temp_path $work/nginx/temp;
    fastcgi_temp_path $work/nginx/temp;
    uwsgi_temp_path $work/nginx/temp;
    scgi_temp_path $work/nginx/temp;
    upstream memcached {
        server 127.0.0.1:$memcached_port;
        keepalive 8;
    }
    server {
        listen 127.0.0.1:$nginx_port;
        # A relative Location stays relative, as the origin sent it and as the gateway passes it on.
        absolute_redirect off;
        location = /health { return 200; }
        # srcache's subrequests: GET is memcached's get, PUT its set, for as long as the answer is fresh.
        location = /memc {
            internal;
            set \$memc_key \$query_string;
            set \$memc_exptime \$srcache_expire;
            memc_pass memcached;
        }
        location / {
            set \$key "http:\$uri";
            srcache_fetch GET /memc \$key;
            srcache_store PUT /memc \$key;
            srcache_store_statuses 200 301 404;
            proxy_pass http://127.0.0.1:$origin_port;
        }
    }
}
CONF
    } >"$work/nginx/nginx.conf"
    spawn "$work/nginx.log" nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;'
    await "http://127.0.0.1:$nginx_port/health" 10 "$spawned" "$work/nginx.log" "$work/nginx/logs/error.log"
}

start_gateway() {
    local jar route='spring.cloud.gateway.server.webflux.routes[0]'
    if [ -z "${GATEWAY_JAR:-}" ] && ! compgen -G "gateway/target/gateway-*.jar" >/dev/null; then
        log "building the gateway jar"
        ./mvnw -o -B -q package -DskipTests -pl gateway -am >&2 || fail "the build failed"
    fi
    jar=${GATEWAY_JAR:-$(jar_of gateway)}
    # One route for everything (the list replaces application.yml's). An http route stores 200, 301 and 404 answers
    # by default, as nginx does here. Formats, not speed, are under test: a loaded CI machine must not turn a slow
    # store into a missing item.
    spawn "$work/gateway.log" java -Xmx128m -jar "$jar" --server.port="$gateway_port" --server.address=127.0.0.1 \
        --management.server.port="$management_port" --management.server.address=127.0.0.1 \
        --memcached.servers="127.0.0.1:$memcached_port" --memcached.operation-timeout=1s \
        --"$route.id=srcache" --"$route.uri=http://127.0.0.1:$origin_port" --"$route.predicates[0]=Path=/**" \
        --"$route.filters[0].name=MemcachedCache" --"$route.filters[0].args.item-format=http"
    if ! (await "http://127.0.0.1:$management_port/actuator/health" 90 "$spawned" "$work/gateway.log"); then
        if grep -q 'item-format' "$work/gateway.log"; then
            fail "the gateway refused the route argument item-format: $jar has no http item format"
        fi
        fail "the gateway did not start"
    fi
}

origin() { exec python3 e2e/srcache_origin.py "$origin_port"; }

origin_count() { curl -fs --max-time 5 "http://127.0.0.1:$origin_port/count" || fail "the origin did not count"; }

# ask NAME URL: GETs URL and prints the status; the head goes to $work/NAME.head, the body to $work/NAME.body.
ask() {
    curl -s --max-time 10 -o "$work/$1.body" -D "$work/$1.head" -w '%{http_code}' "$2" || true
}

# item KEY NAME: memcached's item KEY, read with a plain `get`, exactly as stored: its flags in $work/NAME.flags,
# its value in $work/NAME.item, split into the head (status line, headers, empty line) in NAME.head and the body in
# NAME.body. Non-zero when there is no such item.
item() {
    local raw=$work/$2.raw line flags bytes end
    { exec 3<>"/dev/tcp/127.0.0.1/$memcached_port"; } 2>/dev/null || return 1
    printf 'get %s\r\nquit\r\n' "$1" >&3
    timeout 2 cat <&3 >"$raw" || true
    exec 3<&-
    line=$(head -n 1 "$raw" | tr -d '\r')
    [[ $line == "VALUE $1 "* ]] || return 1
    read -r _ _ flags bytes <<<"$line"
    printf '%s\n' "$flags" >"$work/$2.flags"
    # The value starts after the VALUE line and its \r\n.
    tail -c +$((${#line} + 3)) "$raw" | head -c "$bytes" >"$work/$2.item"
    # The head ends with the first line that is only \r.
    end=$(LC_ALL=C grep -naxm 1 $'\r' "$work/$2.item" | cut -d: -f1)
    if [ -z "$end" ]; then
        cp "$work/$2.item" "$work/$2.head"
        : >"$work/$2.body"
        return 0
    fi
    head -n "$end" "$work/$2.item" >"$work/$2.head"
    tail -n +"$((end + 1))" "$work/$2.item" >"$work/$2.body"
}

# await_item KEY NAME: waits for item KEY (a cache stores after it has answered) and reads it as item does.
await_item() {
    local deadline=$((SECONDS + 10))
    until item "$1" "$2"; do
        [ "$SECONDS" -lt "$deadline" ] || fail "no item $1 in memcached within 10 s"
        sleep 0.1
    done
}

# show_item KEY NAME: the item byte for byte on stdout, as sed's `l` writes it: \r for a carriage return, $ at the
# end of each line, octal escapes for other unprintable bytes.
show_item() {
    printf -- '--- item %s, flags %s, %s bytes ---\n' "$1" "$(cat "$work/$2.flags")" "$(wc -c <"$work/$2.item")"
    LC_ALL=C sed -n 'l 0' "$work/$2.item"
    printf -- '--- end of item %s ---\n' "$1"
}

# header_names NAME: the names of the headers in $work/NAME.head, lower case, one a line, in order.
header_names() {
    tr -d '\r' <"$work/$1.head" | awk -F: 'NR > 1 && NF > 1 { print tolower($1) }'
}

# check_item KEY NAME: the item is in the http format's shape, or the run fails, showing it.
check_item() {
    local name problem=''
    [ "$(cat "$work/$2.flags")" = 0 ] || problem="flags $(cat "$work/$2.flags"), not 0"
    LC_ALL=C grep -qaP '^HTTP/1\.1 [1-5][0-9][0-9]( [^\r\n]*)?\r$' <(head -n 1 "$work/$2.head") ||
        problem="no status line HTTP/1.1 <status>"
    # Every line of the head ends in \r\n, and each one between the status line and the empty line is a header.
    [ "$(tail -c 4 "$work/$2.head" | od -An -tx1 | tr -d ' \n')" = 0d0a0d0a ] || problem="no \\r\\n\\r\\n after the head"
    if LC_ALL=C grep -vaP '\r$' "$work/$2.head" | grep -q .; then problem="a line of the head without \\r"; fi
    if tail -n +2 "$work/$2.head" | LC_ALL=C grep -vaP '^([!#$%&'"'"'*+.^_`|~0-9A-Za-z-]+: [^\r]*)?\r$' |
        grep -q .; then
        problem="a header line that is not 'Name: value'"
    fi
    while read -r name; do
        if [[ $unstorable == *" $name "* ]]; then problem="$problem${problem:+; }it holds $name"; fi
    done < <(header_names "$2")
    if [ -n "$problem" ]; then
        show_item "$1" "$2"
        fail "item $1 is not an http item: $problem"
    fi
}

# normal NAME: the status and the headers of $work/NAME.head, for comparing answers and items: the status code on
# the first line (reason phrases are free text), then the headers but $own_headers, the names in lower case, sorted.
normal() {
    tr -d '\r' <"$work/$1.head" | awk -v own="$own_headers" '
        NR == 1 { print $2; next }
        /^$/ { exit }
        {
            colon = index($0, ":")
            name = tolower(substr($0, 1, colon - 1))
            if (index(own, " " name " ")) next
            value = substr($0, colon + 1)
            sub(/^[ \t]+/, "", value)
            sub(/[ \t]+$/, "", value)
            print name ": " value
        }' | { read -r status && printf '%s\n' "$status" && sort; }
}

# same WHAT A B: the answers or items A and B have the same status, headers (but $own_headers) and body, or the run
# fails, showing both.
same() {
    if ! diff <(normal "$2") <(normal "$3") >"$work/diff"; then
        printf -- '--- %s (<) and %s (>), but their own headers ---\n' "$2" "$3" >&2
        cat "$work/diff" >&2
        fail "$1: the status or headers differ"
    fi
    cmp -s "$work/$2.body" "$work/$3.body" || fail "$1: the bodies differ ($(wc -c <"$work/$2.body") and \
$(wc -c <"$work/$3.body") bytes)"
}

# x_cache_of NAME: the X-Cache header of the answer in $work/NAME.
x_cache_of() { header x-cache <"$work/$1.head"; }

need curl curl
need memcached memcached
need nginx nginx
need python3 python3
need_modules
for port in "$memcached_port" "$origin_port" "$nginx_port" "$gateway_port" "$management_port"; do
    port_free "$port" || fail "port $port is taken"
done

start_memcached "$memcached_port" 16 "$work/memcached.log"
spawn "$work/origin.log" origin
await "http://127.0.0.1:$origin_port/count" 10 "$spawned" "$work/origin.log"
start_nginx
nginx_url=http://127.0.0.1:$nginx_port
gateway_url=http://127.0.0.1:$gateway_port

log "srcache alone: the first answer is stored, the second is served from memcached without the origin"
for kind in "${kinds[@]}"; do
    path=/$kind/2
    key=http:$path
    before=$(origin_count)
    status=$(ask "nginx-$kind-first" "$nginx_url$path")
    [ "$(origin_count)" -eq $((before + 1)) ] || fail "nginx's first $path did not reach the origin once"
    await_item "$key" "srcache-$kind"
    show_item "$key" "srcache-$kind"
    check_item "$key" "srcache-$kind"
    before=$(origin_count)
    [ "$(ask "nginx-$kind" "$nginx_url$path")" = "$status" ] || fail "nginx's second $path has another status"
    [ "$(origin_count)" -eq "$before" ] || fail "nginx's second $path reached the origin: srcache did not serve it"
    same "srcache's answer from memcached and its item, $path" "nginx-$kind" "srcache-$kind"
    same "srcache's answer from memcached and the origin's through it, $path" "nginx-$kind" "nginx-$kind-first"
    log "$path ($status): stored by srcache with $(header_names "srcache-$kind" | paste -sd, -), served again"
done
stored=$(for kind in "${kinds[@]}"; do header_names "srcache-$kind"; done | sort -u)
for name in date content-length server; do
    if grep -qx "$name" <<<"$stored"; then word=stores; else word='does not store'; fi
    log "srcache $word $name"
done

if $nginx_only; then
    log "passed: srcache stored and served every answer (--nginx-only: the gateway was not started)"
    exit 0
fi

start_gateway

log "srcache's items, answered by the gateway: HIT, the same status, headers and body, the origin not asked"
for kind in "${kinds[@]}"; do
    path=/$kind/2
    before=$(origin_count)
    status=$(ask "gateway-$kind" "$gateway_url$path")
    [ "$(x_cache_of "gateway-$kind")" = HIT ] || fail "the gateway did not answer $path, stored by srcache, as a HIT \
(X-Cache: $(x_cache_of "gateway-$kind"), status $status)"
    [ "$(origin_count)" -eq "$before" ] || fail "the gateway's HIT for $path reached the origin"
    same "the gateway's HIT and srcache's item, $path" "gateway-$kind" "srcache-$kind"
    same "the gateway's HIT and srcache's answer from memcached, $path" "gateway-$kind" "nginx-$kind"
    log "$path ($status): HIT from srcache's item"
done

log "the gateway's items, answered by srcache: the same status, headers and body, the origin not asked"
for kind in "${kinds[@]}"; do
    path=/$kind/1
    key=http:$path
    before=$(origin_count)
    status=$(ask "gateway-$kind-miss" "$gateway_url$path")
    [ "$(x_cache_of "gateway-$kind-miss")" = MISS ] || fail "the gateway's first $path was no MISS \
(X-Cache: $(x_cache_of "gateway-$kind-miss"), status $status)"
    [ "$(origin_count)" -eq $((before + 1)) ] || fail "the gateway's first $path did not reach the origin once"
    await_item "$key" "stored-$kind"
    show_item "$key" "stored-$kind"
    check_item "$key" "stored-$kind"
    same "the gateway's item and the MISS it answered, $path" "stored-$kind" "gateway-$kind-miss"
    before=$(origin_count)
    [ "$(ask "nginx-$kind-1" "$nginx_url$path")" = "$status" ] || fail "srcache answered $path with another status"
    [ "$(origin_count)" -eq "$before" ] || fail "nginx's $path reached the origin: srcache did not serve the item"
    same "srcache's answer and the gateway's item, $path" "nginx-$kind-1" "stored-$kind"
    [ "$(ask "gateway-$kind-hit" "$gateway_url$path")" = "$status" ] || fail "the gateway's HIT for $path has \
another status"
    [ "$(x_cache_of "gateway-$kind-hit")" = HIT ] || fail "the gateway's second $path was no HIT"
    [ "$(origin_count)" -eq "$before" ] || fail "the gateway's HIT for $path reached the origin"
    same "srcache's answer and the gateway's HIT, $path" "nginx-$kind-1" "gateway-$kind-hit"
    log "$path ($status): stored by the gateway with $(header_names "stored-$kind" | paste -sd, -), served by srcache"
done
log "passed: srcache and the gateway serve each other's items for 200, 301 and 404"
