#!/usr/bin/env bash
# End to end through the compose stack with a pool of three memcached nodes (docker-compose.pool.yml): keys land on
# all three; with one node stopped every answer is still a 200 and the other nodes' keys still HIT; a node recreated
# on a new IP address serves HITs again within 15 s, with no gateway restart. The stack is always torn down.
#
#   e2e/compose-pool-e2e.sh       (needs a Docker engine; builds the jars if they are missing)
set -euo pipefail
cd "$(dirname "$0")/.."

project=${E2E_PROJECT:-memcached-gateway-pool-e2e}
# Its gateway warms up for 5 s (e2e/short-warm-up.yml): the subject here is the pool.
compose_files=(-f docker-compose.yml -f docker-compose.pool.yml -f e2e/short-warm-up.yml)
# shellcheck source=e2e/common.sh
source e2e/common.sh

nodes=(memcached memcached-2 memcached-3)
paths=()
for i in $(seq 1 30); do paths+=("/api/v1/comments/$i"); done

# The paths whose items a node holds, asked of memcached inside its container (the image has bash, not nc).
keys_on() { # service
    # shellcheck disable=SC2016 # the script is expanded by the container's bash, with the keys as its arguments
    docker exec "$(container_of "$1")" bash -c '
        exec 3<>/dev/tcp/127.0.0.1/11211
        for key in "$@"; do
            printf "get %s\r\n" "$key" >&3
            read -r line <&3
            if [[ $line == VALUE* ]]; then echo "$key"; read -r _ <&3; read -r _ <&3; fi
        done' keys "${paths[@]}"
}

ip_of() { # service
    docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(container_of "$1")"
}

health() { docker exec "$(container_of gateway)" curl -s localhost:8081/actuator/health; }

build_and_start

step "30 paths stored through the gateway land on all three nodes"
for path in "${paths[@]}"; do expect "$path" 200 MISS "$work/single.json" >/dev/null; done
for path in "${paths[@]}"; do await_hit "$path" "$work/single.json" 5 >/dev/null; done
declare -A node_of
for node in "${nodes[@]}"; do
    held=$(keys_on "$node" | tr -d '\r')
    count=$(grep -c . <<<"$held" || true)
    echo "  $node holds $count of ${#paths[@]}"
    [ "$count" -gt 0 ] || fail "$node holds none of the keys"
    for key in $held; do node_of[$key]=$node; done
done
[ "${#node_of[@]}" -eq "${#paths[@]}" ] || fail "${#node_of[@]} of ${#paths[@]} keys found on the nodes"

step "memcached-2 stopped: every answer a 200, the other nodes' keys still HIT"
old_ip=$(ip_of memcached-2)
"${compose[@]}" stop memcached-2
hits=0 others=0
for path in "${paths[@]}"; do
    get "$path"
    [ "$status" = 200 ] || fail "GET $path with memcached-2 stopped: status $status"
    cmp -s "$work/body" "$work/single.json" || fail "GET $path: the body differs"
    if [ "${node_of[$path]}" != memcached-2 ]; then
        others=$((others + 1))
        [ "$cache" = HIT ] || fail "GET $path, held by ${node_of[$path]}: X-Cache '$cache', expected HIT"
        hits=$((hits + 1))
    fi
done
echo "  ${#paths[@]} answers, all 200; $hits of the $others keys on the other nodes HIT"
health | grep -q '"status":"UP"' || fail "health is not UP with two of three nodes: $(health)"
echo "  health: UP with one node stopped"

step "memcached-2 recreated on a new address: HITs again within 15 s, no gateway restart"
"${compose[@]}" rm -sf memcached-2 >/dev/null
# A container that takes the next free address, so that the new memcached-2 cannot get its old one back. It serves
# nothing on memcached's port: a memcached there would take the gateway's reconnects to the old address and answer
# them, and the HITs below would come from it, not from memcached-2 at its new address.
network=$(docker inspect -f '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}}{{end}}' \
    "$(container_of gateway)")
holder=$(docker run -d --rm --network "$network" memcached:1.6 -p 11999)
cleanup_hooks+=("docker rm -f $holder >/dev/null 2>&1")
"${compose[@]}" up -d --no-deps memcached-2
new_ip=$(ip_of memcached-2)
if [ -z "$old_ip" ] || [ -z "$new_ip" ] || [ "$new_ip" = "$old_ip" ]; then
    fail "memcached-2 came back at $new_ip, was $old_ip"
fi
echo "  memcached-2 was at $old_ip, is now at $new_ip"
gateway_started=$(docker inspect -f '{{.State.StartedAt}}' "$(container_of gateway)")
recreated=$SECONDS
for path in "${paths[@]}"; do
    if [ "${node_of[$path]}" = memcached-2 ]; then await_hit "$path" "$work/single.json" 15; break; fi
done
echo "  HITs on memcached-2 again $((SECONDS - recreated)) s after it was recreated"
[ "$(docker inspect -f '{{.State.StartedAt}}' "$(container_of gateway)")" = "$gateway_started" ] \
    || fail "the gateway restarted"

step "comments-service stopped: an item past its freshness on each node answers STALE"
"${compose[@]}" stop comments-service
for node in "${nodes[@]}"; do
    for path in "${paths[@]}"; do
        if [ "${node_of[$path]}" = "$node" ]; then
            store_stale "$node" "$path" "$work/single.json"
            expect "$path" 200 STALE "$work/single.json"
            break
        fi
    done
done
