#!/usr/bin/env bash
# Runs the public HTTP caching test suite (github.com/http-tests/cache-tests) against the gateway twice, once for each
# item format, and against nginx proxy_cache configured as in the suite's own nginx example, in the same run. The
# gateway has one route /** to the suite's origin through MemcachedCache (key $uri$is_args$args, content type
# text/plain): `gateway-body` with the default item format, then `gateway-http` with `item-format: http`, one gateway
# process after the other on one memcached, emptied in between. The suite's origin server, memcached, the gateways
# and nginx run as plain processes on loopback ports and are all stopped on exit. It prints, for each cache, how many
# tests passed and how many of the required ones did, then the required tests the http route fails (id, result, the
# suite's name for the test and its group, and why), which it also writes to
# RESULTS_DIR/gateway-http-required-failing.txt. RESULTS_DIR keeps the suite's result files (<cache>.json) and the
# gateways' logs. A gateway that does not start (one without the http format refuses its argument) is reported as
# not measured, and the run then ends non-zero once the others are measured and printed.
#
#   scripts/cache-tests.sh SUITE_DIR     SUITE_DIR: a clone of the suite with `npm install` done in it
#
# GATEWAY_JAR picks another gateway jar (default: gateway/target's, built if missing). nginx and memcached come from
# Debian's packages; without nginx its column is left out.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=$(cd "${1:?usage: scripts/cache-tests.sh SUITE_DIR}" && pwd)
# Below Linux's ephemeral range (32768 and up), where an outgoing connection's local port could already hold one.
origin_port=${ORIGIN_PORT:-27300}
memcached_port=${MEMCACHED_PORT:-27311}
gateway_port=${GATEWAY_PORT:-27380}
management_port=${MANAGEMENT_PORT:-27381}
nginx_port=${NGINX_PORT:-27302}
results=${RESULTS_DIR:-$(mktemp -d)}
work=$(mktemp -d)

# shellcheck source=scripts/common.sh
source scripts/common.sh

cleanup() { finish $? "$work" "${pids[@]}"; }
trap cleanup EXIT INT TERM

start_nginx() {
    local prefix="$work/nginx"
    mkdir -p "$prefix/logs" "$prefix/cache/tmp"
    # The workers run as nobody and write the cache.
    chmod 755 "$work" "$prefix" && chown -R nobody "$prefix/cache"
    # The suite's docker/nginx/nginx.conf, with paths of its own and on loopback.
    cat >"$prefix/nginx.conf" <<EOF
user nobody nogroup;
worker_processes 1;
error_log logs/error.log;
pid logs/nginx.pid;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path cache/tmp/client_body;
    proxy_cache_path cache/data levels=1:2 keys_zone=my-cache:8m max_size=1000m inactive=600m;
    proxy_temp_path cache/tmp/proxy;
    server {
        listen 127.0.0.1:$nginx_port;
        location / {
            proxy_pass http://127.0.0.1:$origin_port;
            proxy_cache my-cache;
            proxy_cache_revalidate on;
            proxy_http_version 1.1;
        }
    }
}
EOF
    spawn "$work/nginx.log" nginx -p "$prefix/" -c "$prefix/nginx.conf" -g 'daemon off;'
    await "http://127.0.0.1:$nginx_port/" 10 "$spawned" "$work/nginx.log" "$prefix/logs/error.log"
}

# Prints, for one cache, how many tests passed (a result of true, as the suite's JSON has it) and how many of the
# required ones did, counted alone (as the suite's CLI judges one test) and with the suite's dependencies honoured.
summarise() { # name results.json
    (cd "$suite" && node --no-warnings --input-type=module - "$1" "$2") <<'EOF'
import fs from 'fs'
import { pathToFileURL } from 'url'
const [name, file] = process.argv.slice(2)
const { default: suites } = await import(pathToFileURL(process.cwd() + '/tests/index.mjs'))
const { determineTestResult, resultTypes } = await import(pathToFileURL(process.cwd() + '/test-engine/lib/results.mjs'))
const results = JSON.parse(fs.readFileSync(file, 'utf8'))
let total = 0; let passed = 0; let required = 0; let requiredPassed = 0; let requiredWithDependencies = 0
for (const suite of suites) {
  for (const test of suite.tests) {
    if (results[test.id] === undefined) continue
    total++
    if (results[test.id] === true) passed++
    if (test.kind === undefined || test.kind === 'required') {
      required++
      if (determineTestResult(suites, test.id, results, false) === resultTypes.pass) requiredPassed++
      if (determineTestResult(suites, test.id, results) === resultTypes.pass) requiredWithDependencies++
    }
  }
}
console.log(`${name}: passed ${passed} of ${total}, required passed ${requiredPassed} of ${required} ` +
  `(${requiredWithDependencies} with the suite's dependencies)`)
EOF
}

# Writes the required tests of one cache that do not pass, judged alone as summarise counts them, to
# RESULTS_DIR/<name>-required-failing.txt and prints them: one line each with the test's id, its result, the suite's
# name for it and for its group, and the reason the suite recorded.
list_failing() { # name results.json
    local list="$results/$1-required-failing.txt"
    (cd "$suite" && node --no-warnings --input-type=module - "$2") >"$list" <<'EOF'
import fs from 'fs'
import { pathToFileURL } from 'url'
const [file] = process.argv.slice(2)
const { default: suites } = await import(pathToFileURL(process.cwd() + '/tests/index.mjs'))
const { determineTestResult, resultTypes } = await import(pathToFileURL(process.cwd() + '/test-engine/lib/results.mjs'))
const results = JSON.parse(fs.readFileSync(file, 'utf8'))
const typeName = (type) => Object.keys(resultTypes).find((name) => resultTypes[name] === type)
for (const suite of suites) {
  for (const test of suite.tests) {
    if (results[test.id] === undefined || (test.kind !== undefined && test.kind !== 'required')) continue
    const type = determineTestResult(suites, test.id, results, false)
    if (type === resultTypes.pass) continue
    const result = results[test.id]
    const reason = Array.isArray(result) ? result.slice(1).join(': ') : String(result)
    console.log(`${test.id} [${typeName(type)}] ${test.name} (${suite.name}): ${reason.replace(/\s+/g, ' ')}`)
  }
}
EOF
    printf '%s: %s required tests fail, listed in %s\n' "$1" "$(wc -l <"$list")" "$list"
    cat "$list"
}

run_suite() { # name base-url
    log "running the suite against $1"
    (cd "$suite" && npm run --silent cli --base="$2") >"$results/$1.json"
}

# The suite's origin server, run in the background by spawn: node itself, as `npm run server` would start it, since
# npm does not pass the stop signal on and would leave the server holding its port after the run.
origin() {
    cd "$suite" && npm_config_protocol=http npm_config_port="$origin_port" npm_config_pidfile="$work/origin.pid" \
        exec node test-engine/server/server.mjs
}

# start_gateway NAME ROUTE-ARGUMENT...: a gateway on $gateway_port with one route to the origin, the arguments given
# as name=value, its log in $work/NAME.log. Non-zero, with the end of its log, when it does not answer its health
# check.
start_gateway() {
    local name=$1 route='spring.cloud.gateway.server.webflux.routes[0]' argument arguments=()
    shift
    for argument in "$@"; do arguments+=(--"$route.filters[0].args.$argument"); done
    # One route for everything; the list replaces application.yml's routes.
    spawn "$work/$name.log" java -Xmx256m -jar "$jar" --server.port="$gateway_port" --server.address=127.0.0.1 \
        --management.server.port="$management_port" --management.server.address=127.0.0.1 \
        --memcached.servers="127.0.0.1:$memcached_port" \
        --"$route.id=cache-tests" --"$route.uri=http://127.0.0.1:$origin_port" --"$route.predicates[0]=Path=/**" \
        --"$route.filters[0].name=MemcachedCache" "${arguments[@]}"
    gateway_pid=$spawned
    # In a subshell, so that a gateway that exits is reported by the caller instead of ending the run.
    (await "http://127.0.0.1:$management_port/actuator/health" 90 "$gateway_pid" "$work/$name.log")
}

# measure_gateway NAME ROUTE-ARGUMENT...: the suite against a gateway with these route arguments, on an empty
# memcached, then the gateway stopped; NAME joins $not_measured when the gateway does not start.
measure_gateway() {
    local name=$1
    memcached_ask "$memcached_port" flush_all >/dev/null
    if start_gateway "$@"; then
        run_suite "$name" "http://127.0.0.1:$gateway_port"
    else
        log "$name did not start: not measured"
        not_measured+=("$name")
    fi
    stop_all "$gateway_pid"
    cp "$work/$name.log" "$results/$name.log"
    if grep -q 'Exception' "$work/$name.log"; then
        log "$name logged exceptions on $(grep -c 'Exception' "$work/$name.log") lines ($results/$name.log)"
    fi
}

need memcached memcached
need curl curl
[ -d "$suite/node_modules" ] || fail "run npm install in $suite first"
jar=${GATEWAY_JAR:-$(jar_of gateway)}
for port in "$origin_port" "$memcached_port" "$gateway_port" "$management_port" "$nginx_port"; do
    port_free "$port" || fail "port $port is taken"
done

spawn "$work/origin.log" origin
origin_pid=$spawned
start_memcached "$memcached_port" 64 "$work/memcached.log"
await "http://127.0.0.1:$origin_port/" 30 "$origin_pid" "$work/origin.log"

# The two routes differ in their item format only.
not_measured=()
route_arguments=("key-template=\$uri\$is_args\$args" content-type=text/plain)
measure_gateway gateway-body "${route_arguments[@]}"
measure_gateway gateway-http "${route_arguments[@]}" item-format=http
if need nginx nginx; then
    start_nginx
    run_suite nginx "http://127.0.0.1:$nginx_port"
else
    log "nginx is not available: its column is left out"
fi

for name in gateway-body gateway-http nginx; do
    if [ -f "$results/$name.json" ]; then summarise "$name" "$results/$name.json"; fi
done
for name in "${not_measured[@]}"; do echo "$name: not measured, the gateway did not start ($results/$name.log)"; done
if [ -f "$results/gateway-http.json" ]; then list_failing gateway-http "$results/gateway-http.json"; fi
log "results in $results"
[ ${#not_measured[@]} -eq 0 ] || fail "not measured: ${not_measured[*]}"
