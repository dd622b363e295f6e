#!/usr/bin/env bash
# Runs the public HTTP caching test suite (github.com/http-tests/cache-tests) against the gateway, and against nginx
# proxy_cache configured as in the suite's own nginx example, in the same run. The suite's origin server, a memcached,
# the gateway (one route /** to the origin through MemcachedCache, key $uri$is_args$args, content type text/plain)
# and nginx run as plain processes on loopback ports and are all stopped on exit. It prints, for each cache, how many
# tests passed and how many of the required ones did, and keeps the suite's result files in RESULTS_DIR.
#
#   scripts/cache-tests.sh SUITE_DIR     SUITE_DIR: a clone of the suite with `npm install` done in it
#
# GATEWAY_JAR picks another gateway jar (default: gateway/target's, built if missing). nginx and memcached come from
# Debian's packages; without nginx its column is left out.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=$(cd "${1:?usage: scripts/cache-tests.sh SUITE_DIR}" && pwd)
origin_port=${ORIGIN_PORT:-38000}
memcached_port=${MEMCACHED_PORT:-38211}
gateway_port=${GATEWAY_PORT:-38080}
management_port=${MANAGEMENT_PORT:-38081}
nginx_port=${NGINX_PORT:-38002}
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

run_suite() { # name base-url
    log "running the suite against $1"
    (cd "$suite" && npm run --silent cli --base="$2") >"$results/$1.json"
}

# The suite's origin server, run in the background by spawn.
origin() {
    cd "$suite" && exec npm run --silent server --port="$origin_port" --pidfile="$work/origin.pid"
}

need memcached memcached
need curl curl
[ -d "$suite/node_modules" ] || fail "run npm install in $suite first"
jar=${GATEWAY_JAR:-$(jar_of gateway)}

spawn "$work/origin.log" origin
origin_pid=$spawned
start_memcached "$memcached_port" 64 "$work/memcached.log"
# One route for everything; the list replaces application.yml's routes.
route='spring.cloud.gateway.server.webflux.routes[0]'
spawn "$work/gateway.log" java -Xmx256m -jar "$jar" --server.port="$gateway_port" --server.address=127.0.0.1 \
    --management.server.port="$management_port" --management.server.address=127.0.0.1 \
    --memcached.servers="127.0.0.1:$memcached_port" \
    --"$route.id=cache-tests" --"$route.uri=http://127.0.0.1:$origin_port" --"$route.predicates[0]=Path=/**" \
    --"$route.filters[0].name=MemcachedCache" --"$route.filters[0].args.key-template=\$uri\$is_args\$args" \
    --"$route.filters[0].args.content-type=text/plain"
gateway_pid=$spawned
await "http://127.0.0.1:$origin_port/" 30 "$origin_pid" "$work/origin.log"
await "http://127.0.0.1:$management_port/actuator/health" 90 "$gateway_pid" "$work/gateway.log"

run_suite gateway "http://127.0.0.1:$gateway_port"
if need nginx nginx; then
    start_nginx
    run_suite nginx "http://127.0.0.1:$nginx_port"
else
    log "nginx is not available: its column is left out"
fi

summarise gateway "$results/gateway.json"
if [ -f "$results/nginx.json" ]; then summarise nginx "$results/nginx.json"; fi
if grep -q 'java.lang\|Exception' "$work/gateway.log"; then
    log "the gateway logged exceptions:"
    grep -c 'Exception' "$work/gateway.log" >&2 || true
fi
cp "$work/gateway.log" "$results/gateway.log"
log "results in $results"
