# What the compose end-to-end scripts share on top of scripts/common.sh: the compose command, the expected bodies,
# and GET helpers that fail the run with a message. The caller sets $project and $compose_files before sourcing it.
#
# E2E_SHARED_STACK="<compose file options>" says that the stack of $project is already up from those files, its
# images built, and stays up after the script, as e2e/compose-suite.sh runs several scripts on one stack:
# build_and_start then brings it to the script's own compose files only if they differ, and back to its start
# state, and the script leaves it up.
# shellcheck shell=bash

log_prefix=e2e
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"

export GATEWAY_PORT=${E2E_GATEWAY_PORT:-18080}
# For e2e/stack_reset.py, and for a compose command run by hand in the same shell.
export COMPOSE_PROJECT_NAME=${project:?}
shared_stack=${E2E_SHARED_STACK:-}
base=http://localhost:$GATEWAY_PORT
work=$(mktemp -d)
if docker compose version >/dev/null 2>&1; then
    compose=(docker compose -p "$project" "${compose_files[@]}")
else
    compose=(docker-compose -p "$project" "${compose_files[@]}")
fi

comment='{"id":2,"user_id":"paul","body":"this is a test comment to see how this thing works."}'
printf '%s' "$comment" >"$work/single.json"
{
    printf '['
    for i in $(seq 25); do
        if [ "$i" -gt 1 ]; then printf ','; fi
        printf '%s' "$comment"
    done
    printf ']'
} >"$work/collection.json"

step() { printf '\n' >&2; log "$*"; }

teardown() {
    local status=$? hook
    if [ "$status" -ne 0 ] && ! ${logs_shown:-false}; then
        "${compose[@]}" ps || true
        "${compose[@]}" logs --no-color --tail=150 || true
    fi
    if [ -z "$shared_stack" ]; then "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true; fi
    for hook in "${cleanup_hooks[@]}"; do eval "$hook" || true; done
    rm -rf "$work"
    if [ "$status" -eq 0 ]; then step "all steps passed"; fi
    exit "$status"
}
cleanup_hooks=()
trap teardown EXIT

# GET $1; leaves the status in $status, the X-Cache value in $cache and the body in $work/body.
get() {
    status=$(curl -s --max-time 10 -o "$work/body" -D "$work/headers" -w '%{http_code}' "$base$1") || status=000
    cache=$(header x-cache <"$work/headers")
}

expect() { # path status x-cache [expected-body-file]
    get "$1"
    [ "$status" = "$2" ] || fail "GET $1: status $status, expected $2"
    [ "$cache" = "$3" ] || fail "GET $1: X-Cache '$cache', expected '$3'"
    if [ $# -ge 4 ]; then cmp -s "$work/body" "$4" || fail "GET $1: the body differs from $4"; fi
    echo "  GET $1 -> $status, X-Cache: ${cache:-none}"
}

await_hit() { # path expected-body-file seconds
    local deadline=$((SECONDS + $3))
    while [ "$SECONDS" -lt "$deadline" ]; do
        get "$1"
        if [ "$cache" = HIT ]; then
            cmp -s "$work/body" "$2" || fail "GET $1: the HIT's body differs from $2"
            echo "  GET $1 -> $status, X-Cache: HIT after $((SECONDS - deadline + $3)) s"
            return 0
        fi
        sleep 0.5
    done
    fail "GET $1: no HIT within $3 s (last: $status, X-Cache '$cache')"
}

# container_of SERVICE: the id of the service's container, running or stopped, found by the labels Compose puts on
# it. Plain docker, since a compose command reads the compose files and, with Compose v1, starts a Python
# interpreter each time, which takes seconds on a busy machine.
container_of() {
    docker ps -aq --filter "label=com.docker.compose.project=$project" \
        --filter "label=com.docker.compose.service=$1" | head -n 1
}

await_healthy() { # service seconds
    local id deadline=$((SECONDS + $2))
    id=$(container_of "$1")
    until [ "$(docker inspect -f '{{.State.Health.Status}}' "$id")" = healthy ]; do
        [ "$SECONDS" -lt "$deadline" ] || fail "$1 not healthy within $2 s"
        sleep 1
    done
}

build_and_start() {
    if [ -n "$shared_stack" ]; then
        step "the stack of $project, already up, back to its start state"
        if [ "$shared_stack" != "${compose_files[*]}" ]; then
            # Compose recreates only what these files change (the pool's gateway) and adds what they add.
            "${compose[@]}" up -d
            await_healthy gateway 180
        fi
        python3 e2e/stack_reset.py "$project" "$GATEWAY_PORT" || fail "the stack could not be reset"
        return 0
    fi
    # The images copy the jars from target/.
    jar_of comments-service >/dev/null
    jar_of gateway >/dev/null

    step "starting the stack from a clean state (${compose[*]})"
    "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
    "${compose[@]}" up -d --build
    await_healthy gateway 180
    "${compose[@]}" ps
}

# The flags of an item stored with a 60 s stale-if-error window and no stale-while-revalidate, as the gateway
# writes them: bits 23-30 hold the window (code 46 is 60 s; StaleFlags in the gateway has the encoding).
stale_if_error_60s=$((46 << 23))

store_stale() { # service path body-file: the item as a store would leave it 30 s into its 60 s stale-if-error window
    # shellcheck disable=SC2016 # expanded by the container's bash, with the item as its arguments
    docker exec "$(container_of "$1")" bash -c '
        exec 3<>/dev/tcp/127.0.0.1/11211
        printf "set %s %s 30 %s\r\n%s\r\n" "$1" "$2" "${#3}" "$3" >&3
        read -r line <&3
        [[ $line == STORED* ]]' item "$2" "$stale_if_error_60s" "$(cat "$3")" \
        || fail "could not store the stale item $2 on $1"
}
