#!/usr/bin/env bash
# The gateway with memcached.ring=nginx and nginx's memcached_pass with `hash $memcached_key consistent` share one
# pool of three memcached servers: every item the gateway stores, nginx finds on the server it asks. As a control,
# the same run with the default ring (libmemcached's) shows that nginx then misses most of them, so the check can
# fail. Plain processes on loopback; everything started is stopped on exit.
#
#   e2e/nginx-ring.sh        (installs memcached, nginx and curl from Debian's packages if missing; needs the jars)
set -euo pipefail
cd "$(dirname "$0")/.."

# Below Linux's ephemeral range (32768 and up), where an outgoing connection's local port could already hold one.
ports=(25211 25212 25213)
comments_port=25567
short_port=25568
gateway_port=25080
management_port=25081
nginx_port=25090
work=$(mktemp -d)

# shellcheck source=scripts/common.sh
source scripts/common.sh

cleanup() {
    local status=$?
    if [ -f "$work/nginx.pid" ]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
    finish "$status" "$work" "${pids[@]}"
}
trap cleanup EXIT INT TERM

start_gateway() { # ring [backend-port [setting...]]
    local ring=$1 backend=${2:-$comments_port}
    shift $(($# < 2 ? $# : 2))
    # Placement, not speed, is under test: a loaded CI machine must not turn a slow store into a missing item.
    spawn "$work/gateway-$ring.log" java -Xmx128m -jar "$gateway_jar" --server.port="$gateway_port" \
        --management.server.port="$management_port" --memcached.ring="$ring" \
        --memcached.operation-timeout=1s \
        --memcached.servers="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}" \
        --comments-service.uri="http://127.0.0.1:$backend" "$@"
    gateway_pid=$spawned
    await "http://127.0.0.1:$management_port/actuator/health" 90 "$gateway_pid" "$work/gateway-$ring.log"
}

stop_gateway() { stop_all "$gateway_pid"; }

flush_all() {
    local port
    for port in "${ports[@]}"; do memcached_ask "$port" flush_all >/dev/null; done
}

# Stores $1..$2 through the gateway, then asks nginx for each; prints how many nginx served with the same bytes.
served_by_nginx() { # first last
    local i path served=0
    for i in $(seq "$1" "$2"); do curl -fs -o /dev/null "http://127.0.0.1:$gateway_port/api/v1/comments/$i"; done
    for i in $(seq "$1" "$2"); do
        path=/api/v1/comments/$i
        await_x_cache "http://127.0.0.1:$gateway_port$path" HIT 20 || fail "$path was not stored by the gateway"
    done
    for i in $(seq "$1" "$2"); do
        path=/api/v1/comments/$i
        if curl -fs -o "$work/nginx.body" "http://127.0.0.1:$nginx_port$path" \
            && cmp -s "$work/nginx.body" <(curl -s "http://127.0.0.1:$gateway_port$path"); then
            served=$((served + 1))
        fi
    done
    echo "$served"
}

items_per_server() {
    local port counts=()
    for port in "${ports[@]}"; do counts+=("$(memcached_stat "$port" curr_items)"); done
    echo "${counts[*]}"
}

need curl curl
need memcached memcached
need nginx nginx
comments_jar=$(jar_of comments-service)
gateway_jar=$(jar_of gateway)

for port in "${ports[@]}"; do start_memcached "$port" 16 "$work/memcached-$port.log"; done
# Items live an hour, so none expires while a slow machine works through the paths.
spawn "$work/comments.log" java -Xmx96m -jar "$comments_jar" --server.port="$comments_port" --comments.max-age=3600s
comments_pid=$spawned

mkdir -p "$work/nginx/logs" "$work/nginx/temp"
cat >"$work/nginx/nginx.conf" <<CONF
daemon on;
pid $work/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $work/nginx/temp;
    proxy_temp_path $work/nginx/temp;
    fastcgi_temp_path $work/nginx/temp;
    uwsgi_temp_path $work/nginx/temp;
    scgi_temp_path $work/nginx/temp;
    upstream pool {
        hash \$memcached_key consistent;
        server 127.0.0.1:${ports[0]};
        server 127.0.0.1:${ports[1]};
        server 127.0.0.1:${ports[2]};
    }
    server {
        listen 127.0.0.1:$nginx_port;
        location / {
            set \$memcached_key \$uri;
            memcached_pass pool;
            default_type application/json;
        }
    }
}
CONF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf"
await "http://127.0.0.1:$comments_port/actuator/health" 90 "$comments_pid" "$work/comments.log"

log "gateway with memcached.ring=nginx: 100 paths stored through it, then asked of nginx"
start_gateway nginx
served=$(served_by_nginx 1 100)
log "nginx served $served of 100 items the gateway stored; items per server: $(items_per_server)"
stop_gateway
[ "$served" -eq 100 ] || fail "nginx served $served of 100, expected all"
for count in $(items_per_server); do [ "$count" -gt 0 ] || fail "a server got no item"; done

log "control, gateway with the default ring (libmemcached): nginx must miss some"
flush_all
start_gateway libmemcached
control=$(served_by_nginx 101 200)
log "nginx served $control of 100 items the gateway stored with the other ring"
stop_gateway
[ "$control" -lt 100 ] || fail "nginx found every item with a ring it does not use: the check cannot tell"
log "passed: the nginx ring agrees with nginx on all 100 keys; the libmemcached ring on $control"

log "stale window: items stored with a stale-if-error window, read by nginx byte for byte once they are stale"
flush_all
# A backend whose answers are fresh for 1 s, so that the items go stale at once.
spawn "$work/comments-short.log" java -Xmx96m -jar "$comments_jar" --server.port="$short_port" --comments.max-age=1s
short_pid=$spawned
await "http://127.0.0.1:$short_port/actuator/health" 90 "$short_pid" "$work/comments-short.log"
start_gateway nginx "$short_port" --memcached.cache.stale-if-error=60s
for i in $(seq 201 210); do
    curl -fs -o "$work/stored-$i.body" "http://127.0.0.1:$gateway_port/api/v1/comments/$i"
done
stop_all "$short_pid"
for i in $(seq 201 210); do
    path=/api/v1/comments/$i
    # With the backend gone, STALE says the item is past its freshness and inside its window.
    await_x_cache "http://127.0.0.1:$gateway_port$path" STALE 20 || fail "$path was not answered stale"
    curl -fs -o "$work/nginx.body" "http://127.0.0.1:$nginx_port$path" || fail "nginx did not serve $path"
    cmp -s "$work/nginx.body" "$work/stored-$i.body" || fail "nginx served other bytes for the stale $path"
    cmp -s <(curl -s "http://127.0.0.1:$gateway_port$path") "$work/stored-$i.body" \
        || fail "the gateway's stale answer for $path differs from what it stored"
done
stop_gateway
log "passed: nginx served all 10 stale items byte for byte, and the gateway answered them STALE"
